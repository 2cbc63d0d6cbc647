"""The generic follow rule's score, by dynamic programming along the suit (docs/rules.md §5).

The generic rule (``engine.follow``) scores a set of cards by its best
*arrangement* into the lead: tractor pieces (width v, length m ≥ 2) placed
inside the lead's tractors (v ≤ the lead tractor's width; several pieces may
share one lead tractor while their lengths fit), and tuples placed one per
remaining tuple position of the lead (its pairs, triples, quads and the
uncovered positions of its tractors), a tuple no wider than its position.  The
score ``(T, N_W, …, N_2)`` — cards in tractor pieces, then tuples of each
width, widest first — is maximised lexicographically.

Exhaustive search over arrangements is exponential in the lead's length, so
the score is computed by a dynamic programme over the order steps of the suit,
low → high (``SuitView.line``: neighbouring steps linked wholly or not at all;
with ``ace_low_tractor`` the ace is also offered below the lowest rank; with
``level_constant_tractors`` a kind may also link to one kind two steps up, ♠2
to ♠3 over the trump suit's 2, so an open piece may skip a step, remembering
the kind it must take next).  What the rest of the suit can still do depends
only on a *frame*:

* the lead tractors left, each as (width, remaining length), as a sorted
  multiset — lead tractors in the same condition are interchangeable, so six
  2-pair tractors give 28 frames of room, not 3⁶ = 729;
* the pieces open through the step, each as (width, length so far, started
  at the bottom ace, the kind two steps up its last kind links to, if any) — a
  piece is given a lead tractor only when it ends, its length then known, in
  each distinct way it fits.

A state is a frame plus the histogram (kinds holding 2, 3, 4 cards) of the
kinds already passed, which is all the final tuple placement needs: placing
tuples greedily, widest first and each from the tightest-fitting kind, ignores
adjacency and is exact for widths ≤ 4 (``engine.shapes.place_tuples``).  A
histogram count above the number P of positions still free is cut to P: the
greedy fills at most P positions, so it cannot tell the difference.

Two passes.  Pass 1 runs over frames only and finds ``T*``, the most tractor
cards of any arrangement, and for each frame the most the rest of the suit can
add to it; it explores frames forward, keeping those whose cards so far plus
an upper bound (the room left in the lead tractors, the copies left in the
suit) reach a goal that starts at the bound of the whole lead and is lowered
to the best bound cut off until an arrangement reaches it.  Pass 2 runs over
states but keeps only those that can still reach ``T*`` — since ``T``
outranks every tuple count, no other state can be best — and carries for each
the additive part of the score (its pieces') packed into one integer, and the
moves that made it; at the end the greedy tuple placement completes the score
and the best state's arrangement is rebuilt from its moves.  On a tie the
arrangement with fewer (so longer) pieces wins.

Complexity, for s order steps (≤ 16, plus the ace below), lead tractors of
lengths l_1…l_J (L = Σ l_j), P lead positions and at most four copies of a
card (so at most 8 pieces open at a step, Σ of their widths ≤ 16): the frames
per step number at most R · O(L^8) where R ≤ Π(l_j + 1) counts the multisets
of remaining lengths (far fewer when lead tractors are alike), the states per
step at most frames · (P + 1)³ · 5, and a frame has O(1) moves at a step (its
open pieces each end in one of ≤ J ways or take one of ≤ 4 kinds, then new
pieces start from ≤ 16 copies); each pass is linear in s.  That bound is
polynomial but loose: in practice pass 1 visits tens to a few hundred frames
per step and pass 2 tens of states, and the worst cases found by review (many
tractors against quad-rich four-deck hands) take tens of milliseconds.

Work.  The moves pass 1 enumerates (each frame's through each step, counted
once) are the score's *work units*; they depend on the inputs alone and are
returned with the score (``generic_score_work``), and the search stops with
``TooComplex`` as soon as they exceed an open budget (``engine.budget``).  A
unit costs 0.03–0.05 ms of CPU on a cold worker; typical follows take a few
to a few hundred, the longest leads of tractors against four-deck hands rich in
quads up to some fifteen thousand (bench/RESULTS.md), which is why the service
bounds them.

What one step does to a frame (its moves, the frames it reaches, the closings
of its pieces, its bound) depends only on the frame and the copies at the step,
never on the rest of the hand: those transitions are cached by value, and a
few hundred of them serve every hand (the score itself is cached per hand).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import cast

from engine.budget import check
from engine.shapes import Placed, Shape, place_tuples, usable
from engine.suit import SuitView

Vector = tuple[int, ...]
Hist = tuple[int, int, int]  # kinds left holding exactly 2, 3, 4 cards


@dataclass(frozen=True, slots=True)
class LeadShape:
    """The lead seen by the generic rule: its tractors, and the widths of its
    other tuples (pairs and wider; singles are whatever completes a play)."""

    tractors: tuple[Shape, ...]
    tuples: tuple[int, ...]
    # worked out once: a LeadShape keys the score cache at every lookup
    _hash: int = field(init=False, repr=False, compare=False)
    _widest: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.tractors, self.tuples)))
        object.__setattr__(self, "_widest", max([s.width for s in self.tractors] + list(self.tuples) + [1]))

    def __hash__(self) -> int:
        return self._hash

    @property
    def widest(self) -> int:
        return self._widest


@dataclass(frozen=True, slots=True)
class _Position:
    kinds: tuple[int, ...]  # layout indices at this step
    avail: tuple[int, ...]  # copies available here (the ace split between bottom and top)
    bottom: bool  # the ace offered below the lowest rank (ace_low_tractor)
    limit: int  # for the bottom ace: the last line index a piece started there may reach
    pairable: bool  # some kind here has two copies or more
    hist: Hist  # the kinds here holding exactly 2, 3, 4 copies
    skips: tuple[int, ...]  # per kind: the kind two steps up it links to (its place there), or -1
    aims: tuple[int, ...]  # per kind: the copies held of the kind it links to two steps up
    linked: bool  # this step links to the one before it


@lru_cache(maxsize=2048)
def _position(
    kinds: tuple[int, ...], avail: tuple[int, ...], bottom: bool = False, limit: int = 0,
    skips: tuple[int, ...] | None = None, aims: tuple[int, ...] | None = None, linked: bool = True,
) -> _Position:
    """A DP position (cached by value: the same few recur in every hand)."""
    return _Position(
        kinds, avail, bottom, limit, max(avail) >= 2, (avail.count(2), avail.count(3), avail.count(4)),
        (-1,) * len(kinds) if skips is None else skips, (0,) * len(kinds) if aims is None else aims, linked,
    )


def _add_hist(hist: Hist, remaining: int) -> Hist:
    if remaining < 2:
        return hist
    h = list(hist)
    h[remaining - 2] += 1
    return (h[0], h[1], h[2])


def _tuples_on_hist(hist: Hist, positions: list[int], top: int, protect: bool) -> list[int]:
    """Greedy tuple placement on a histogram: counts of tuples placed by width
    (index 1 + top - v), widest first, tightest kind, narrowest position."""
    h = [0, 0, hist[0], hist[1], hist[2]]  # h[c] kinds holding c cards
    free = sorted(positions)
    score = [0] * top
    for v in range(top, 1, -1):
        while True:
            slot = next((i for i, p in enumerate(free) if p >= v), None)
            if slot is None:
                break
            c = next((c for c in range(v, 5) if h[c] and (not protect or c == v)), None)
            if c is None:
                break
            h[c] -= 1
            if c - v >= 2:
                h[c - v] += 1
            del free[slot]
            score[1 + top - v] += 1
    return score


def generic_score(
    lay: SuitView, counts: tuple[int, ...], lead: LeadShape, protect: bool = False
) -> tuple[Vector, tuple[Placed, ...]]:
    """The best score ``(T, N_W, …, N_2)`` of ``counts`` against ``lead`` and
    one arrangement achieving it (tractor pieces, then tuples)."""
    score, pieces, _ = generic_score_work(lay, counts, lead, protect)
    return score, pieces


def generic_score_work(
    lay: SuitView, counts: tuple[int, ...], lead: LeadShape, protect: bool = False
) -> tuple[Vector, tuple[Placed, ...], int]:
    """``generic_score`` and the work units it takes (``engine.budget``), the same
    whether computed or cached.  Raises ``TooComplex`` while computing as soon as
    the units exceed the open budget's; charging them is the caller's (a verdict
    charges each score it uses once, found in its own caches or not)."""
    if lead._widest < 2:  # a lead of singles: nothing to score
        return (), (), 0
    return _generic_score(lay, counts, lead, protect)


@lru_cache(maxsize=1024)
def _generic_score(
    lay: SuitView, counts: tuple[int, ...], lead: LeadShape, protect: bool
) -> tuple[Vector, tuple[Placed, ...], int]:
    """``generic_score`` and the work units it took (``engine.budget``: the
    transitions of the programme's first pass), cached by value; raises
    ``TooComplex`` as soon as the units exceed an open budget's."""
    top = lead.widest
    if top < 2:
        return (), (), 0
    if not lead.tractors or not lay.can_place(counts, 2, 2):
        # no tractor piece can be placed: the greedy tuple placement is the score,
        # over the lead's tuples and every position of its tractors
        hist: Hist = (counts.count(2), counts.count(3), counts.count(4))  # as _add_hist over counts ≤ 4
        score = _greedy_score(hist, lead, protect)
        widths = [v for v in range(top, 1, -1) for _ in range(score[1 + top - v])]
        tuples = place_tuples(lay, counts, widths, protect)
        assert tuples is not None
        return score, tuple(tuples[1]), 0
    best: tuple[Vector, tuple[Placed, ...]] | None = None
    work = 0
    for line in _lines(lay, counts, protect):
        got, spent = _run(lay, counts, lead, protect, top, line, work)
        work += spent
        if got is not None and (best is None or got[0] > best[0]):
            best = got
    assert best is not None
    return best[0], best[1], work


@lru_cache(maxsize=4096)
def _greedy_score(hist: Hist, lead: LeadShape, protect: bool) -> Vector:
    """The score when no tractor piece can be placed: the greedy tuple placement
    over the lead's tuples and every position of its tractors (cached by value)."""
    positions = list(lead.tuples) + [s.width for s in lead.tractors for _ in range(s.length)]
    return tuple(_tuples_on_hist(hist, positions, lead.widest, protect))


def _lines(lay: SuitView, counts: Sequence[int], protect: bool) -> list[list[_Position]]:
    """The suit's line (``SuitView.line``) as DP positions; with a step linked
    again below the lowest (the ace of ``ace_low_tractor``), one line per way of
    sharing its copies between its bottom and top places."""
    shape = lay.line
    steps = shape.steps
    skip_to = dict(shape.skips)
    plain = [
        _position(
            kinds, tuple([counts[i] for i in kinds]), False, 0,
            tuple([-1 if i not in skip_to or counts[skip_to[i]] < 2 else steps[p + 2].index(skip_to[i]) for i in kinds]),
            tuple([counts[skip_to[i]] if i in skip_to else 0 for i in kinds]),
            p == 0 or p - 1 not in shape.apart,
        )
        for p, kinds in enumerate(steps)
    ]
    if shape.below is None:
        return [plain]
    ace, low = shape.below, shape.low
    top_at = lay.step_of[ace]
    lines = []
    splits = [0, counts[ace]] if protect else list(range(counts[ace] + 1))
    for bottom in sorted(set(splits)):
        line = [_position((ace,), (bottom,), True, low)]
        for i, pos in enumerate(plain):
            if i == top_at:
                pos = _position(pos.kinds, (counts[ace] - bottom,), False, 0, pos.skips, pos.aims, pos.linked)
            line.append(pos)
        lines.append(line)
    return lines


# A DP state: (free lead tractors, open pieces, histogram of passed kinds, ace copies
# carried); the first two make its frame.  An open piece is (width, length so far,
# started at the bottom ace, link): link -1 when its last kind links only to the next
# step; t ≥ 0 when it also links to kind t two steps up (it may then skip the next
# step); ≤ -2 when it skipped this step's predecessor and must take kind -2 - link
# here or end (``level_constant_tractors``, ``SuitView.line``).
_Room = tuple[tuple[int, int], ...]
_Open = tuple[int, int, bool, int]
_Frame = tuple[_Room, tuple[_Open, ...]]  # what the rest of the suit can still do
_Key = tuple[_Room, tuple[_Open, ...], Hist, int]
_Piece = tuple[Shape, tuple[int, ...]]  # a tractor piece and its kinds
# A move at one step, the same for every state of a frame: the frame after it, where
# each new open piece comes from (an open piece's index or -1, the step's kind index),
# the open pieces ended before the step, the additive gain, the copies left of each kind
_Move = tuple[_Room, tuple[_Open, ...], tuple[tuple[int, int], ...], tuple[int, ...], Vector, tuple[int, ...]]
_NONE = -(10**9)
# The moves that made a record, newest first: (earlier moves, last move), or None
_Chain = tuple[object, _Move] | None


def _clamp(hist: Hist, room: int) -> Hist:
    """Kinds beyond ``room`` of one count never matter: the greedy tuple placement
    fills at most ``room`` positions, so it only ever asks whether a count is
    non-zero after fewer than ``room`` kinds of that count were used."""
    if hist[0] <= room and hist[1] <= room and hist[2] <= room:
        return hist
    return (min(hist[0], room), min(hist[1], room), min(hist[2], room))


def _room(caps: Sequence[Sequence[int]]) -> _Room:
    return tuple(sorted((w, c) for w, c in caps if c))


@lru_cache(maxsize=2048)
def _closings(free: _Room, opens: tuple[_Open, ...]) -> tuple[_Room, ...]:
    """The lead tractors left once every open piece ends, for each distinct way of
    giving them one (none if a piece of length 1 is open, or they do not fit).
    Cached by value."""
    if any(m < 2 for _, m, _, _ in opens):
        return ()
    caps = [[w, c] for w, c in free]
    out: set[_Room] = set()

    def place(i: int) -> None:
        if i == len(opens):
            out.add(_room(caps))
            return
        width, length, _, _ = opens[i]
        tried: set[tuple[int, int]] = set()
        for cap in caps:
            if cap[0] >= width and cap[1] >= length and (cap[0], cap[1]) not in tried:
                tried.add((cap[0], cap[1]))
                cap[1] -= length
                place(i + 1)
                cap[1] += length

    place(0)
    return tuple(sorted(out))


@lru_cache(maxsize=2048)
def _moves(
    free: _Room, opens: tuple[_Open, ...], copies: tuple[int, ...], bottom: bool, late: bool, protect: bool, top: int,
    skips: tuple[int, ...] = (), aims: tuple[int, ...] = (),
) -> tuple[_Move, ...]:
    """Every way a frame can go through one step holding ``copies`` of each of its
    kinds: each open piece ends (in any lead tractor it fits), takes one kind of
    the step, or (its last kind linked two steps up) skips the step; a piece that
    skipped the step before takes the kind it links to or ends; then new pieces
    start.  ``bottom``: the step is the ace below the lowest rank; ``late``: it is
    too far up for a piece started there; ``skips``: per kind, the kind two steps
    up it links to, or -1.  Cached by value: the moves depend on nothing else, and
    recur from hand to hand.  ``aims``: per kind, the copies of the kind it links
    to (a piece keeps the link only if its width can take it)."""
    skips = skips or (-1,) * len(copies)
    aims = aims or (0,) * len(copies)

    def link_of(kk: int, width: int) -> int:
        return skips[kk] if skips[kk] >= 0 and usable(aims[kk], width, protect) else -1

    avail = list(copies)
    caps = [[w, c] for w, c in free]
    work: list[tuple[int, int, bool, int, tuple[int, int]]] = []
    closed: list[int] = []
    gain = [0] * top
    found: dict[tuple[_Room, tuple[_Open, ...], Vector, tuple[int, ...]], _Move] = {}
    kinds_here = range(len(copies))

    def emit(room: _Room) -> None:
        ordered = sorted(work)
        move: _Move = (
            room, tuple(o[:4] for o in ordered), tuple(o[4] for o in ordered), tuple(closed), tuple(gain), tuple(avail)
        )
        same = (move[0], move[1], move[4], tuple(sorted(move[5])))  # alike kinds of a step swap freely
        old = found.get(same)
        # of moves alike but for their history, the one ending fewer pieces
        if old is None or len(move[3]) < len(old[3]):
            found[same] = move

    def take(kk: int, width: int) -> None:
        avail[kk] -= width
        gain[0] += width
        gain[1 + top - width] += 1

    def give_back(kk: int, width: int) -> None:
        avail[kk] += width
        gain[0] -= width
        gain[1 + top - width] -= 1

    def start_new(after: tuple[int, int], room: _Room, within: list[int], need: list[int]) -> None:
        emit(room)
        for v in range(max(after[0], 2), top + 1):
            # the pieces open through this step, each of two steps at least, must fit
            if any(need[u] + 2 > within[u] for u in range(2, v + 1)):
                break
            for kk in kinds_here:
                if (v, kk) < after or not usable(avail[kk], v, protect):
                    continue
                take(kk, v)
                work.append((v, 1, bottom, link_of(kk, v), (-1, kk)))
                for u in range(2, v + 1):
                    need[u] += 2
                start_new((v, kk), room, within, need)
                for u in range(2, v + 1):
                    need[u] -= 2
                work.pop()
                give_back(kk, v)

    def carry_on(i: int, least: int) -> None:
        """Open piece ``i`` ends (choice -1) or takes kind ``choice`` of this step;
        alike pieces choose in non-decreasing order (the others are the same moves)."""
        if i == len(opens):
            within = [0] * (top + 1)
            for w, c in caps:
                for u in range(2, min(w, top) + 1):
                    within[u] += c
            need = [0] * (top + 1)
            for w, m, _, _, _ in work:
                for u in range(2, w + 1):
                    need[u] += max(m, 2)
                    if need[u] > within[u]:
                        return
            start_new((0, 0), _room(caps), within, need)
            return
        width, length, started_below, link = opens[i]
        alike = i + 1 < len(opens) and opens[i + 1] == opens[i]
        if length >= 2 and least == -1:  # end the piece before this step
            closed.append(i)
            tried: set[tuple[int, int]] = set()
            for cap in caps:
                if cap[0] >= width and cap[1] >= length and (cap[0], cap[1]) not in tried:
                    tried.add((cap[0], cap[1]))
                    cap[1] -= length
                    carry_on(i + 1, -1)
                    cap[1] += length
            closed.pop()
        if (started_below and late) or not any(w >= width and c > length for w, c in caps):
            return
        if link >= 0 and least < 0:  # skip this step, to take the linked kind two steps up
            work.append((width, length, started_below, -2 - link, (i, -1)))
            carry_on(i + 1, -2 if alike else -1)
            work.pop()
        for kk in kinds_here if link > -2 else [-2 - link]:
            if kk < least or not usable(avail[kk], width, protect):
                continue
            take(kk, width)
            work.append((width, length + 1, started_below, link_of(kk, width), (i, kk)))
            carry_on(i + 1, kk if alike else -1)
            work.pop()
            give_back(kk, width)

    carry_on(0, -1)
    return tuple(found.values())


def _supply(line: Sequence[_Position], hosts: Sequence[int]) -> list[int]:
    """For each host step, the copies from it on that could go into a tractor piece."""
    out = [0] * (len(hosts) + 1)
    for k in range(len(hosts) - 1, -1, -1):
        out[k] = out[k + 1] + sum(c for c in line[hosts[k]].avail if c >= 2)
    return out


def _bound(frame: _Frame, supply: int) -> int:
    """At most this many tractor cards can still join ``frame``'s pieces (``_NONE``
    when its open pieces, each grown to two steps at least, cannot all fit the lead
    tractors left): the free room of the lead tractors less what the open pieces
    already hold there (each in the narrowest that could take it), and the copies left."""
    return min(_frame_room(frame), supply)  # _NONE stays _NONE: supply ≥ 0


@lru_cache(maxsize=2048)
def _frame_room(frame: _Frame) -> int:
    """``_bound`` but for the copies left (cached by value)."""
    free, opens = frame
    room = sum([w * c for w, c in free])
    for v, m, _, _ in opens:
        room -= m * min([w for w, c in free if w >= v and c >= max(m, 2)], default=100)
    if room < 0 or (len(opens) > 1 and not _closings(free, tuple([(v, max(m, 2), b, s) for v, m, b, s in opens]))):
        return _NONE
    return room


_Reach = tuple[tuple[tuple[_Frame, int], ...], int]


@lru_cache(maxsize=2048)
def _reach(
    frame: _Frame, gap: bool, copies: tuple[int, ...], bottom: bool, late: bool, skips: tuple[int, ...],
    aims: tuple[int, ...], protect: bool, top: int,
) -> _Reach:
    """The frames one step (holding ``copies``, see ``_moves``) leads ``frame`` to,
    each with the most tractor cards gained on the way, in the order first met;
    after a ``gap`` the open pieces end first.  Also the number of moves that
    took, one at least (the step's work units, ``engine.budget``).  Cached by value."""
    most: dict[_Frame, int] = {}
    units = 0
    for start in [(free, ()) for free in _closings(*frame)] if gap else [frame]:
        moves = _moves(*start, copies, bottom, late, protect, top, skips, aims)
        units += len(moves)
        for move in moves:
            after: _Frame = (move[0], move[1])
            if most.get(after, -1) < move[4][0]:
                most[after] = move[4][0]
    return tuple(most.items()), max(units, 1)


def _most_tractor_cards(
    hosts: Sequence[int],
    first: _Frame,
    step_to: Callable[[int, _Frame], _Reach],
    closings: Callable[[_Frame], tuple[_Room, ...]],
    supply: Sequence[int],
    spent: int = 0,
) -> tuple[list[dict[_Frame, int]], int]:
    """Per host step k, the most tractor cards the steps from k on can add to each
    frame that may lie on a best arrangement (``[0][first]`` is ``T*``), and the
    work units taken (each frame's moves through a step counted once; with the
    ``spent`` units before, checked against the open budget as they grow).

    Frames are explored forward keeping only those whose cards so far plus
    ``_bound`` reach a goal ``g``, lowered (to the best bound cut off) until some
    arrangement reaches it: then ``T*`` = ``g`` and every frame on a way to it was
    kept.  The values come back over the kept edges."""
    ways: dict[tuple[int, _Frame], list[tuple[int, int, _Frame]]] = {}
    units = 0

    def onward(k: int, frame: _Frame) -> list[tuple[int, int, _Frame]]:
        """The frames host k leads to from ``frame`` as (cards gained + their bound,
        cards gained, frame), best bound first, each with its most cards gained."""
        nonlocal units
        got = ways.get((k, frame))
        if got is None:
            left = supply[k + 1]
            reached, work = step_to(k, frame)
            units += work
            check(spent + units)
            got = sorted(
                [(gained + _bound(after, left), gained, after) for after, gained in reached],
                key=lambda way: -way[0],
            )
            ways[(k, frame)] = got
        return got

    goal = _bound(first, supply[0])
    while True:
        layers: list[dict[_Frame, int]] = [{first: 0}]
        edges: list[dict[_Frame, list[tuple[int, _Frame]]]] = []
        cut = _NONE
        for k in range(len(hosts)):
            nxt: dict[_Frame, int] = {}
            out: dict[_Frame, list[tuple[int, _Frame]]] = {}
            for frame, t in layers[k].items():
                here = out[frame] = []
                for reach, gained, after in onward(k, frame):
                    if t + reach < goal:
                        cut = max(cut, t + reach)
                        break
                    here.append((gained, after))
                    if nxt.get(after, -1) < t + gained:
                        nxt[after] = t + gained
            edges.append(out)
            layers.append(nxt)
        ends = [t for frame, t in layers[-1].items() if closings(frame)]
        if ends and max(ends) >= goal:
            break
        goal = max([cut, *ends])
        assert goal >= 0
    future: list[dict[_Frame, int]] = [{} for _ in layers]
    future[-1] = {frame: 0 if closings(frame) else _NONE for frame in layers[-1]}
    for k in range(len(hosts) - 1, -1, -1):
        for frame, nexts in edges[k].items():
            future[k][frame] = max(
                [gained + future[k + 1].get(after, _NONE) for gained, after in nexts], default=_NONE
            )
    return future, units


def _run(
    lay: SuitView, counts: Sequence[int], lead: LeadShape, protect: bool, top: int, line: list[_Position],
    spent: int = 0,
) -> tuple[tuple[Vector, tuple[Placed, ...]] | None, int]:
    """The best score and arrangement along one ``line`` (None if no arrangement
    ends), and the work units taken (``spent`` before it, for the budget check)."""
    slots = lead.tractors
    ace_kind = line[0].kinds[0] if line and line[0].bottom else -1
    bottom_limit = line[0].limit if line and line[0].bottom else -1
    room = len(lead.tuples)
    # Only runs of two or more steps holding a tuple can host a tractor piece; every
    # other kind goes straight into the starting histogram.
    pairable = [p.pairable for p in line]
    hosts = sorted(
        {
            i for i, p in enumerate(line)
            if p.bottom or p.kinds[0] == ace_kind
            or (pairable[i] and ((i > 0 and p.linked and pairable[i - 1])
                                 or (i + 1 < len(line) and line[i + 1].linked and pairable[i + 1])))
        }
        | {  # a kind linked two steps up: both ends and the step between (it is skipped)
            i + d for i, p in enumerate(line) for kk, t in enumerate(p.skips)
            if t >= 0 and p.avail[kk] >= 2 and line[i + 2].avail[t] >= 2 for d in range(3)
        }
    ) if slots else []
    base: Hist = (0, 0, 0)
    hosted = set(hosts)
    for i, p in enumerate(line):
        if i not in hosted and p.pairable:
            held = p.hist
            base = (base[0] + held[0], base[1] + held[1], base[2] + held[2])
    gap = [k == 0 or hosts[k] != hosts[k - 1] + 1 or not line[hosts[k]].linked for k in range(len(hosts))]
    move_memo: dict[tuple[int, _Frame], tuple[_Move, ...]] = {}
    close_memo: dict[_Frame, tuple[_Room, ...]] = {}

    def moves(k: int, frame: _Frame) -> tuple[_Move, ...]:
        got = move_memo.get((k, frame))
        if got is None:
            pos = line[hosts[k]]
            got = move_memo[(k, frame)] = _moves(
                *frame, pos.avail, pos.bottom, hosts[k] > bottom_limit, protect, top, pos.skips, pos.aims
            )
        return got

    def closings(frame: _Frame) -> tuple[_Room, ...]:
        got = close_memo.get(frame)
        if got is None:
            got = close_memo[frame] = _closings(*frame)
        return got

    # Pass 1: the most tractor cards ``T*`` of any arrangement, and for each frame on
    # the way the most the rest of the suit can add to it.  ``T`` outranks every tuple
    # count, so pass 2 keeps only states that can still reach ``T*``.
    first: _Frame = (_room([(s.width, s.length) for s in slots]), ())
    at = [(line[i].avail, line[i].bottom, i > bottom_limit, line[i].skips, line[i].aims) for i in hosts]

    def step_to(k: int, frame: _Frame) -> _Reach:
        return _reach(frame, gap[k], *at[k], protect, top)

    future, units = _most_tractor_cards(hosts, first, step_to, closings, _supply(line, hosts), spent)
    target = future[0][first]
    # Pass 2: the states.  A score vector is packed into one integer (``_BITS`` bits a
    # count, widest first, so integers compare as the vectors do), and a record is
    # (score << _BITS) − pieces, so that on a tie fewer (so longer) pieces win: the
    # arrangement reported reads as the lead does.  Each record keeps the moves that
    # made it, the arrangement being rebuilt for the best one only.
    shift_t = _BITS * (top - 1)
    steps: dict[tuple[int, _Frame], list[tuple[_Frame, int, int, Hist | None, int, _Move]]] = {}

    def packed(k: int, frame: _Frame) -> list[tuple[_Frame, int, int, Hist | None, int, _Move]]:
        got = steps.get((k, frame))
        if got is None:
            pos = line[hosts[k]]
            got = []
            for move in moves(k, frame):
                after: _Frame = (move[0], move[1])
                if future[k + 1].get(after, _NONE) == _NONE:
                    continue  # no way on from there
                special = pos.bottom or ace_kind in pos.kinds
                delta: Hist | None = None
                if not special:
                    left = move[5]
                    delta = (left.count(2), left.count(3), left.count(4))
                got.append((after, _pack(move[4]), move[4][0], delta, room + sum(c for _, c in move[0]), move))
            steps[(k, frame)] = got
        return got

    states: dict[_Key, tuple[int, _Chain]] = {
        (first[0], (), _clamp(base, room + sum(c for _, c in first[0])), 0): (0, None)
    }
    for k, index in enumerate(hosts):
        if gap[k]:  # open pieces end (or die, if of length 1)
            states = _close_all(states, closings, room)
        pos = line[index]
        nxt: dict[_Key, tuple[int, _Chain]] = {}
        ahead = future[k + 1]
        for (free, opens, hist, carry), (value, chain) in states.items():
            cards = ((value + _MASK) >> _BITS) >> shift_t
            for after, gain, gain_t, delta, positions, move in packed(k, (free, opens)):
                if cards + gain_t + ahead.get(after, _NONE) < target:
                    continue
                if delta is not None:
                    h: Hist = (hist[0] + delta[0], hist[1] + delta[1], hist[2] + delta[2])
                    c = carry
                else:
                    h, c = hist, carry
                    for kk, kind in enumerate(pos.kinds):
                        if pos.bottom:
                            c = move[5][kk]
                        elif kind == ace_kind:
                            h = _add_hist(h, move[5][kk] + c)
                            c = 0
                        else:
                            h = _add_hist(h, move[5][kk])
                if h[0] > positions or h[1] > positions or h[2] > positions:
                    h = _clamp(h, positions)
                key: _Key = (after[0], after[1], h, c)
                worth = value + (gain << _BITS) - len(move[3])
                old = nxt.get(key)
                if old is None or worth > old[0]:
                    nxt[key] = (worth, (chain, move))
        states = nxt
    states = _close_all(states, closings, room)
    best: tuple[int, _Chain] | None = None
    for (free, _, hist, _), (value, chain) in states.items():
        worth = value + (_pack(_tail(hist, free, lead.tuples, top, protect)) << _BITS)
        if best is None or worth > best[0]:
            best = (worth, chain)
    if best is None:
        return None, units
    total = _unpack((best[0] + _MASK) >> _BITS, top)
    pieces = _replay(best[1], gap, line, hosts)
    placed = [Placed(shape, at, 0) for shape, at in pieces]
    rest = list(counts)
    for piece in placed:
        for i in piece.at:
            rest[i] -= piece.shape.width
    widths: list[int] = []
    for v in range(top, 1, -1):
        widths += [v] * (total[1 + top - v] - sum(x.shape.length for x in placed if x.shape.width == v))
    tuples = place_tuples(lay, rest, widths, protect)
    assert tuples is not None
    return (total, tuple(placed + tuples[1])), units


_BITS = 10  # a count never reaches 1024 (a suit holds at most 72 cards)
_MASK = (1 << _BITS) - 1


def _pack(vector: Sequence[int]) -> int:
    out = 0
    for x in vector:
        out = (out << _BITS) + x
    return out


def _unpack(value: int, size: int) -> Vector:
    out = []
    for _ in range(size):
        out.append(value & _MASK)
        value >>= _BITS
    return tuple(reversed(out))


def _replay(chain: object, gap: Sequence[bool], line: Sequence[_Position], hosts: Sequence[int]) -> list[_Piece]:
    """The pieces of the arrangement a chain of moves made (one move per host step)."""
    moves: list[_Move] = []
    link = chain
    while link is not None:
        earlier, last = cast(tuple[object, _Move], link)
        moves.append(last)
        link = earlier
    moves.reverse()
    pieces: list[_Piece] = []
    opens: tuple[_Open, ...] = ()
    kinds: list[tuple[int, ...]] = []
    for k, move in enumerate(moves):
        if gap[k]:
            pieces += [(Shape(v, m), at) for (v, m, _, _), at in zip(opens, kinds, strict=True)]
            opens, kinds = (), []
        new_free, new_opens, source, ended, _, _ = move
        pieces += [(Shape(opens[j][0], opens[j][1]), kinds[j]) for j in ended]
        here = line[hosts[k]].kinds
        kinds = [(here[kk],) if j < 0 else kinds[j] if kk < 0 else (*kinds[j], here[kk]) for j, kk in source]
        opens = new_opens
    pieces += [(Shape(v, m), at) for (v, m, _, _), at in zip(opens, kinds, strict=True)]
    return pieces


@lru_cache(maxsize=2048)
def _tail(hist: Hist, free: _Room, tuples: tuple[int, ...], top: int, protect: bool) -> list[int]:
    """The greedy tuple placement over the lead's tuples and its tractors' free positions."""
    return _tuples_on_hist(hist, list(tuples) + [w for w, c in free for _ in range(c)], top, protect)


def _close_all(
    states: dict[_Key, tuple[int, _Chain]], closings: Callable[[_Frame], tuple[_Room, ...]], room: int
) -> dict[_Key, tuple[int, _Chain]]:
    """End every open piece, in every way it fits the lead tractors left (a state
    with an open piece of length 1 dies)."""
    out: dict[_Key, tuple[int, _Chain]] = {}
    for (free, opens, hist, carry), (value, chain) in states.items():
        if not opens:
            key: _Key = (free, (), hist, carry)
            old = out.get(key)
            if old is None or value > old[0]:
                out[key] = (value, chain)
            continue
        worth = value - len(opens)
        for left in closings((free, opens)):
            key = (left, (), _clamp(hist, room + sum(c for _, c in left)), carry)
            old = out.get(key)
            if old is None or worth > old[0]:
                out[key] = (worth, chain)
    return out
