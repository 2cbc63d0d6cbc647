"""The generic follow rule's measure, by dynamic programming along the suit (docs/rules.md §5).

The generic rule (``engine.follow``) measures a set of cards by its best
*arrangement* into the lead: tractor pieces (width v, length m ≥ 2) placed
inside the lead's tractors (v ≤ the lead tractor's width; several pieces may
share one lead tractor while their lengths fit), and tuples placed one per
remaining tuple position of the lead (its pairs, triples, quads and the
uncovered positions of its tractors), a tuple no wider than its position.

The ``Measure`` of an arrangement is compared **longest tractor first**
(docs/rules.md §5; seed 000 四副 puts "1连3+1对子" before "1连对+两对子"): first its
tractor pieces, sorted longest first, compared lexicographically (a piece's
length; with more than two decks its cards, then its width, so a triple
tractor of 2 comes before a 3-pair tractor as in seed 000's lists), then the
tuples it fills, by width, widest first (``N_W, …, N_2``; a piece fills as
many positions as it is long).  So against a 4-pair tractor a 3-pair tractor
plus a pair beats two 2-pair tractors.

**Pieces as a tally.**  Comparing multisets longest first is comparing their
counts per piece key, the longest key first, so a union of pieces compares as
the sum of the counts: an arrangement's pieces are one integer, its ``tally``,
the count of each key a digit in base ``_BASE`` (the longer keys higher,
``LeadShape.keys``).  A piece adds its weight as it grows (nothing at one step;
it dies if it never reaches two).  The tuples follow from the pieces and the
kinds left over (a greedy placement, below), so the tally alone ranks the
arrangements of a state.

The programme runs over the order steps of the suit, low → high
(``SuitView.line``: neighbouring steps linked wholly or not at all; with
``ace_low_tractor`` the ace is also offered below the lowest rank; with
``level_constant_tractors`` a kind may also link to one kind two steps up, ♠2
to ♠3 over the trump suit's 2, so an open piece may skip a step).  What the
rest of the suit can still do depends only on a ``Frame``: the lead tractors
left (a sorted multiset of ``Slot``: alike ones are interchangeable, so six
2-pair tractors give 28 frames of room, not 3⁶) and the ``OpenPiece``s open
through the step (a piece is given a lead tractor only when it ends, in each
distinct way it fits).  A ``State`` adds the histogram of the kinds passed
(holding 2, 3, 4 cards), all the final tuple placement needs: placing tuples
greedily, widest first, each from the tightest-fitting kind, ignores adjacency
and is exact for widths ≤ 4 (``engine.shapes.place_tuples``); a count above the
P positions still free is cut to P, which the greedy cannot tell apart.

Two passes.  Pass 1 runs over frames only and finds the best tally ``T*`` and,
per frame, the most the rest of the suit can add; it keeps the frames whose
tally so far plus an upper bound (``_bound``) reach a goal, lowered from the
bound of the whole lead until an arrangement reaches it.  Pass 2 runs over the
states that can still reach ``T*`` (the pieces outrank every tuple count),
keeping for each its best tally and the moves that made it (a ``Record``); the
greedy completes each final state's measure and the best arrangement is
rebuilt from its moves.

Complexity, for s order steps (≤ 18), lead tractors of lengths l_j (L = Σ l_j)
and P lead positions: at most R · O(L⁸) frames a step (at most 8 pieces open),
R ≤ Π(l_j + 1) the multisets of remaining lengths, and frames · (P + 1)³ · 5
states; O(1) moves a frame a step; each pass linear in s.  In practice tens to
hundreds of frames a step, and tens of milliseconds for the worst leads found
(many tractors against quad-rich four-deck hands).  The moves pass 1
enumerates (each frame's through each step, counted once) are the measure's
*work units* (``engine.budget``), a function of the inputs alone; the search
stops with ``TooComplex`` as soon as they exceed an open budget.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate
from operator import itemgetter
from typing import NamedTuple

from engine.budget import check
from engine.shapes import Placed, Shape, place_tuples, usable
from engine.suit import SuitView

Hist = tuple[int, int, int]  # kinds left holding exactly 2, 3, 4 cards
Key = tuple[int, int]  # a tractor piece's place in the longest-first order: (cards, width)

_DIGIT = 6  # bits of a tally digit: 64 > the pieces an arrangement holds (≤ 72 cards in a suit: ≤ 18 pieces)
_BASE = 1 << _DIGIT


def piece_key(width: int, length: int) -> Key:
    """Where a tractor piece stands in the longest-first order (docs/rules.md §5):
    its length with two decks; with more, its cards, then its width (seed 000's
    lists put a triple tractor of 2 before a 3-pair tractor)."""
    return (width * length, width)


class Measure(NamedTuple):
    """How well a set of cards matches the lead under the generic rule
    (docs/rules.md §5), compared field by field: ``tractors``, the keys
    (``piece_key``) of its tractor pieces placed into the lead's tractors,
    longest first, compared lexicographically (a longer list of equal prefix
    wins); then ``tuples``, the lead positions it fills with tuples of each
    width, widest first (pieces included).  A tuple (hashed and compared by
    the interpreter: a follow's structure hashes it); its ``kind`` keeps it
    unequal to a plain tuple of the same values."""

    tractors: tuple[Key, ...]
    tuples: tuple[int, ...]
    kind: str = "measure"


class Slot(NamedTuple):
    """A lead tractor with room left: its width and its positions still free."""

    width: int
    left: int


Room = tuple[Slot, ...]  # the lead tractors left, a sorted multiset


class OpenPiece(NamedTuple):
    """A tractor piece open through a step: its width, its length so far,
    whether it started at the ace below the lowest rank (``ace_low_tractor``),
    and its ``link`` (``level_constant_tractors``, ``SuitView.line``): -1 when its
    last kind links only to the next step; t ≥ 0 when it also links to kind t two
    steps up (it may then skip the next step); ≤ -2 when it skipped this step's
    predecessor and must take kind -2 - link here or end."""

    width: int
    length: int
    below: bool
    link: int


class Frame(NamedTuple):
    """What the rest of the suit can still do: the lead tractors left, the pieces open."""

    free: Room
    opens: tuple[OpenPiece, ...]


class Source(NamedTuple):
    """Where an open piece after a step comes from: the open piece it continues
    (-1: it starts here) and the kind of the step it takes (-1: it skips the step)."""

    piece: int
    kind: int


class Move(NamedTuple):
    """One way a frame goes through a step (the same for every state of the frame):
    the frame after it, the source of each of its open pieces, the open pieces
    ended before the step, and the copies left of each kind of the step."""

    after: Frame
    sources: tuple[Source, ...]
    ended: tuple[int, ...]
    left: tuple[int, ...]


class State(NamedTuple):
    """A frame, the histogram of the kinds passed, and the ace copies carried
    from the bottom place to the top (``ace_low_tractor``)."""

    frame: Frame
    hist: Hist
    carry: int


class Link(NamedTuple):
    """The moves that made a record, newest first."""

    earlier: Link | None
    move: Move


class Record(NamedTuple):
    """The best tally found for a state, and the moves that made it."""

    tally: int
    chain: Link | None


_NONE = -(1 << (_DIGIT * 80))  # below every sum of tallies (fewer than 80 piece keys): no arrangement ends


@dataclass(frozen=True, slots=True)
class LeadShape:
    """The lead seen by the generic rule: its tractors, and the widths of its
    other tuples (pairs and wider; singles are whatever completes a play).
    Worked out once: the piece keys that fit one of its tractors, in order
    (``keys``: a tally's digits, lowest first) and the weight each length of a
    piece adds to a tally as it grows."""

    tractors: tuple[Shape, ...]
    tuples: tuple[int, ...]
    # worked out once: a LeadShape keys the measure cache at every lookup
    _hash: int = field(init=False, repr=False, compare=False)
    widest: int = field(init=False, repr=False, compare=False)
    keys: tuple[Key, ...] = field(init=False, repr=False, compare=False)
    weights: dict[tuple[int, int], int] = field(init=False, repr=False, compare=False)
    growth: dict[tuple[int, int], int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        fits = [(w, m) for s in self.tractors for w in range(2, s.width + 1) for m in range(2, s.length + 1)]
        keys = sorted({piece_key(w, m) for w, m in fits})
        assert len(keys) < 80  # a suit has at most 18 steps: at most 3 × 17 keys (see _NONE)
        weights = {(w, m): 1 << (_DIGIT * keys.index(piece_key(w, m))) for w, m in fits}
        object.__setattr__(self, "_hash", hash((self.tractors, self.tuples)))
        object.__setattr__(self, "widest", max([s.width for s in self.tractors] + list(self.tuples) + [1]))
        object.__setattr__(self, "keys", tuple(keys))
        object.__setattr__(self, "weights", weights)
        growth = {(w, m): x - weights.get((w, m - 1), 0) for (w, m), x in weights.items()}
        object.__setattr__(self, "growth", growth)

    def __hash__(self) -> int:
        return self._hash

    def accrued(self, opens: Sequence[OpenPiece]) -> int:
        """What open pieces add to a tally at their present length (nothing
        while a piece is one step long)."""
        weights = self.weights
        return sum([weights.get((o.width, o.length), 0) for o in opens])

    def ceiling(self, key: Key) -> int:
        """The weight of the least key at or above ``key`` (above every tally
        if there is none): for upper bounds."""
        return 1 << (_DIGIT * bisect_left(self.keys, key))

    def pieces(self, tally: int) -> tuple[Key, ...]:
        """The piece keys a tally counts, longest first."""
        out: list[Key] = []
        for key in self.keys:
            tally, count = divmod(tally, _BASE)
            out += [key] * count
        out.reverse()
        return tuple(out)


class _Position(NamedTuple):
    """A host step: one the programme walks (a piece may use it)."""

    kinds: tuple[int, ...]  # view indices at this step
    avail: tuple[int, ...]  # copies held of each (the ace split between its bottom and top places)
    skips: tuple[int, ...]  # per kind: the place two steps up of the kind it links to, or -1
    aims: tuple[int, ...]  # per kind: the copies held of the kind it links to two steps up
    bottom: bool  # the ace offered below the lowest rank (ace_low_tractor)
    late: bool  # too far up for a piece started at the bottom ace


class _Line(NamedTuple):
    """One walk along the suit: its host steps (runs of two steps or more holding
    a tuple, the ends of a link two steps up and the step between, the ace's two
    places), whether a gap opens before each (open pieces end there), the
    histogram of every other kind, the ace's kind when it is offered below the
    lowest rank (else -1), and whether a 2-pair tractor lies along it."""

    hosts: list[_Position]
    gap: list[bool]
    base: Hist
    ace: int
    tractor: bool


def _add_hist(hist: Hist, remaining: int) -> Hist:
    """The histogram with a kind holding ``remaining`` cards passed."""
    return (hist[0] + (remaining == 2), hist[1] + (remaining == 3), hist[2] + (remaining == 4))


def _tuples_on_hist(hist: Hist, positions: list[int], top: int, protect: bool) -> list[int]:
    """Greedy tuple placement on a histogram: counts of tuples placed by width,
    widest first (index ``top - v``), tightest kind, narrowest position."""
    h = [0, 0, hist[0], hist[1], hist[2]]  # h[c] kinds holding c cards
    free = sorted(positions)
    score = [0] * (top - 1)
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
            score[top - v] += 1
    return score


def generic_score_work(
    lay: SuitView, counts: tuple[int, ...], lead: LeadShape, protect: bool = False
) -> tuple[Measure, tuple[Placed, ...], int]:
    """The best ``Measure`` of ``counts`` against ``lead``, one arrangement
    achieving it (tractor pieces, then tuples), and the work units it takes
    (``engine.budget``), the same whether computed or cached.  Raises
    ``TooComplex`` while computing as soon as the units exceed the open
    budget's; charging them is the caller's (a verdict charges each measure it
    uses once, found in its own caches or not)."""
    if lead.widest < 2:  # a lead of singles: nothing to measure
        return Measure((), ()), (), 0
    return _generic_score(lay, counts, lead, protect)


@lru_cache(maxsize=1024)
def _generic_score(
    lay: SuitView, counts: tuple[int, ...], lead: LeadShape, protect: bool
) -> tuple[Measure, tuple[Placed, ...], int]:
    """``generic_score_work``, cached by value."""
    top = lead.widest
    # a 2-pair tractor needs two kinds of two copies or more
    lines = _lines(lay, counts, protect) if lead.tractors and sum(c >= 2 for c in counts) > 1 else []
    if not any(line.tractor for line in lines):
        # no tractor piece can be placed: the greedy tuple placement is the measure,
        # over the lead's tuples and every position of its tractors
        hist: Hist = (counts.count(2), counts.count(3), counts.count(4))  # as _add_hist over counts ≤ 4
        positions = list(lead.tuples) + [s.width for s in lead.tractors for _ in range(s.length)]
        filled = _tuples_on_hist(hist, positions, top, protect)
        widths = [v for v in range(top, 1, -1) for _ in range(filled[top - v])]
        tuples = place_tuples(lay, counts, widths, protect)
        assert tuples is not None
        return Measure((), tuple(filled)), tuple(tuples[1]), 0
    best: Arrangement | None = None
    work = 0
    for line in lines:
        got, spent = _run(lay, counts, lead, protect, top, line, work)
        work += spent
        if got is not None and (best is None or got.measure > best.measure):
            best = got
    assert best is not None
    return best.measure, best.pieces, work


def _lines(lay: SuitView, counts: Sequence[int], protect: bool) -> list[_Line]:
    """The suit's line (``SuitView.line``) as the programme walks it; with a step
    linked again below the lowest (the ace of ``ace_low_tractor``), one line per
    way of sharing its copies between its bottom and top places."""
    below = lay.line.below
    if below is None:
        return [_line(lay, counts, -1, 0)]
    splits = [0, counts[below]] if protect else list(range(counts[below] + 1))
    return [_line(lay, counts, below, bottom) for bottom in sorted(set(splits))]


def _line(lay: SuitView, counts: Sequence[int], ace: int, bottom: int) -> _Line:
    """The line with ``bottom`` copies of the ``ace`` offered below the lowest
    step (place 0; the steps then at places 1, 2, …), or without (``ace`` -1).
    Only runs of two or more places holding a tuple can host a tractor piece, and
    a kind linked two steps up (both ends and the place between, which it
    skips); every other kind goes straight into the starting histogram."""
    shape, step_of = lay.line, lay.step_of
    steps, apart, skip_to = shape.steps, shape.apart, dict(shape.skips)
    off = 0 if ace < 0 else 1
    split: dict[int, tuple[int, ...]] = {}  # the ace's two places, its copies shared between them
    if ace >= 0:
        split = {0: (bottom,), step_of[ace] + 1: (counts[ace] - bottom,)}
    places = len(steps) + off
    pairable = [False] * places
    for i, c in enumerate(counts):
        if c >= 2:
            pairable[step_of[i] + off] = True
    for at, avail in split.items():
        pairable[at] = avail[0] >= 2

    def linked(at: int) -> bool:  # the place links to the one below it
        return at == 0 or at - 1 - off not in apart

    def held(at: int, kind: int) -> int:
        return split[at][0] if at in split else counts[kind]

    hosted: set[int] = set()
    for at in [at for at in range(places) if pairable[at]]:
        above = at + 1 < places and linked(at + 1) and pairable[at + 1]
        if (at > 0 and linked(at) and pairable[at - 1]) or above:
            hosted.add(at)
    for a, b in skip_to.items():
        at = step_of[a] + off
        if counts[b] >= 2 and held(at, a) >= 2 and held(at + 2, b) >= 2:
            hosted.update((at, at + 1, at + 2))
    tractor = bool(hosted)
    hosted.update(split)
    base = [counts.count(2), counts.count(3), counts.count(4)]
    order = sorted(hosted)
    hosts = []
    for at in order:
        kinds = steps[at - off] if at or not off else (ace,)
        if at or not off:  # the bottom place's copies are counted at the ace's own step
            for kind in kinds:
                if counts[kind] >= 2:
                    base[counts[kind] - 2] -= 1
        skips, aims = (-1,) * len(kinds), (0,) * len(kinds)
        if skip_to and at >= off and not skip_to.keys().isdisjoint(kinds):
            up = steps[at - off + 2]
            skips = tuple([
                up.index(skip_to[i]) if i in skip_to and counts[skip_to[i]] >= 2 else -1 for i in kinds
            ])
            aims = tuple([counts[skip_to[i]] if i in skip_to else 0 for i in kinds])
        avail = split[at] if at in split else tuple([counts[i] for i in kinds])
        late = at > (shape.low if off else -1)
        hosts.append(_Position(kinds, avail, skips, aims, at == 0 and off == 1, late))
    gap = [k == 0 or at != order[k - 1] + 1 or not linked(at) for k, at in enumerate(order)]
    return _Line(hosts, gap, (base[0], base[1], base[2]), ace, tractor)


def _clamp(hist: Hist, room: int) -> Hist:
    """Kinds beyond ``room`` of one count never matter: the greedy tuple placement
    fills at most ``room`` positions, so it only ever asks whether a count is
    non-zero after fewer than ``room`` kinds of that count were used."""
    if hist[0] <= room and hist[1] <= room and hist[2] <= room:
        return hist
    return (min(hist[0], room), min(hist[1], room), min(hist[2], room))


def _room(caps: Sequence[Sequence[int]]) -> Room:
    return tuple(sorted([Slot(w, c) for w, c in caps if c]))


def _positions(free: Room) -> int:
    return sum([slot.left for slot in free])


def _fits(caps: list[list[int]], width: int, length: int) -> Iterator[list[int]]:
    """The lead tractors left (``[width, room]``, changed by the caller between
    two) that can take an ending piece: one of each width and room, alike ones
    being interchangeable."""
    tried: set[tuple[int, int]] = set()
    for cap in caps:
        if cap[0] >= width and cap[1] >= length and (cap[0], cap[1]) not in tried:
            tried.add((cap[0], cap[1]))
            yield cap


@lru_cache(maxsize=2048)
def _closings(frame: Frame) -> tuple[Room, ...]:
    """The lead tractors left once every open piece of ``frame`` ends, for each
    distinct way of giving them one (none if a piece of length 1 is open, or they
    do not fit).  Cached by value."""
    opens = frame.opens
    if any(piece.length < 2 for piece in opens):
        return ()
    caps = [[w, c] for w, c in frame.free]
    out: set[Room] = set()

    def place(i: int) -> None:
        if i == len(opens):
            out.add(_room(caps))
            return
        length = opens[i].length
        for cap in _fits(caps, opens[i].width, length):
            cap[1] -= length
            place(i + 1)
            cap[1] += length

    place(0)
    return tuple(sorted(out))


@lru_cache(maxsize=2048)
def _moves(
    free: Room, opens: tuple[OpenPiece, ...], copies: tuple[int, ...], bottom: bool, late: bool,
    protect: bool, top: int, skips: tuple[int, ...], aims: tuple[int, ...],
) -> tuple[Move, ...]:
    """Every way a frame can go through one step holding ``copies`` of each of its
    kinds: each open piece ends (in any lead tractor it fits), takes one kind of
    the step, or (its last kind linked two steps up) skips the step; a piece that
    skipped the step before takes the kind it links to or ends; then new pieces
    start.  ``bottom``: the step is the ace below the lowest rank; ``late``: it is
    too far up for a piece started there; ``skips``: per kind, the kind two steps
    up it links to, or -1; ``aims``: per kind, the copies of that kind (a piece
    keeps the link only if its width can take it).  Cached by value: the moves
    depend on nothing else, and recur from hand to hand."""

    def link_of(kk: int, width: int) -> int:
        return skips[kk] if skips[kk] >= 0 and usable(aims[kk], width, protect) else -1

    avail = list(copies)
    caps = [[w, c] for w, c in free]
    work: list[tuple[OpenPiece, Source]] = []
    closed: list[int] = []
    found: dict[tuple[Room, tuple[OpenPiece, ...], tuple[int, ...]], Move] = {}
    kinds_here = range(len(copies))

    def emit(room: Room) -> None:
        ordered = sorted(work)
        move = Move(
            Frame(room, tuple([piece for piece, _ in ordered])),
            tuple([source for _, source in ordered]),
            tuple(closed),
            tuple(avail),
        )
        same = (room, move.after.opens, tuple(sorted(avail)))  # alike kinds of a step swap freely
        old = found.get(same)
        # of moves alike but for their history, the one ending fewer pieces
        if old is None or len(move.ended) < len(old.ended):
            found[same] = move

    def start_new(after: tuple[int, int], room: Room, within: list[int], need: list[int]) -> None:
        emit(room)
        for v in range(max(after[0], 2), top + 1):
            # the pieces open through this step, each of two steps at least, must fit
            if any(need[u] + 2 > within[u] for u in range(2, v + 1)):
                break
            for kk in kinds_here:
                if (v, kk) < after or not usable(avail[kk], v, protect):
                    continue
                avail[kk] -= v
                work.append((OpenPiece(v, 1, bottom, link_of(kk, v)), Source(-1, kk)))
                for u in range(2, v + 1):
                    need[u] += 2
                start_new((v, kk), room, within, need)
                for u in range(2, v + 1):
                    need[u] -= 2
                work.pop()
                avail[kk] += v

    def carry_on(i: int, least: int) -> None:
        """Open piece ``i`` ends (choice -1) or takes kind ``choice`` of this step;
        alike pieces choose in non-decreasing order (the others are the same moves)."""
        if i == len(opens):
            within = [0] * (top + 1)
            for w, c in caps:
                for u in range(2, min(w, top) + 1):
                    within[u] += c
            need = [0] * (top + 1)
            for (w, m, _, _), _ in work:
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
            for cap in _fits(caps, width, length):
                cap[1] -= length
                carry_on(i + 1, -1)
                cap[1] += length
            closed.pop()
        if (started_below and late) or not any(w >= width and c > length for w, c in caps):
            return
        if link >= 0 and least < 0:  # skip this step, to take the linked kind two steps up
            work.append((OpenPiece(width, length, started_below, -2 - link), Source(i, -1)))
            carry_on(i + 1, -2 if alike else -1)
            work.pop()
        for kk in kinds_here if link > -2 else [-2 - link]:
            if kk < least or not usable(avail[kk], width, protect):
                continue
            avail[kk] -= width
            work.append((OpenPiece(width, length + 1, started_below, link_of(kk, width)), Source(i, kk)))
            carry_on(i + 1, kk if alike else -1)
            work.pop()
            avail[kk] += width

    carry_on(0, -1)
    return tuple(found.values())


def _runs(hosts: Sequence[_Position], gap: Sequence[bool], top: int) -> list[_Runs]:
    """For each width w (index w; none below 2): ``_Runs`` over the host steps,
    a step holding that width when some kind there has w copies or more (or a
    piece may skip it)."""
    out = [_Runs([], [], []) for _ in range(min(top, 4) + 1)]
    n = len(hosts)
    for width in range(2, len(out)):
        tuples = [sum(c // width for c in pos.avail) for pos in hosts]
        # a step a piece may skip (its last kind linked two steps up) does not end a run
        # (counting it as a step only overestimates, which a bound may)
        holds = [
            t > 0 or (k > 0 and not gap[k] and max(hosts[k - 1].skips, default=-1) >= 0)
            for k, t in enumerate(tuples)
        ]
        going = [0] * (n + 1)
        longest = [0] * (n + 1)
        pieces = [0] * (n + 1)  # the most pieces from k on: half the tuples of each run of 2+ steps
        run_tuples = after = 0
        for k in range(n - 1, -1, -1):
            on = k + 1 < n and not gap[k + 1] and holds[k + 1]
            run = 0 if not holds[k] else 1 + (going[k + 1] if on else 0)
            going[k] = 0 if gap[k] else run
            longest[k] = max(longest[k + 1], run)
            if not holds[k]:
                pieces[k] = pieces[k + 1]
                continue
            if not on:
                run_tuples, after = 0, pieces[k + 1]
            run_tuples += tuples[k]
            pieces[k] = after + (run_tuples // 2 if run > 1 else 0)
        out[width] = _Runs(going, longest, pieces)
    return out


class _Runs(NamedTuple):
    """For one width, per host step k (and one past the last): ``going``, how many
    host steps from k on hold that width without a gap (0 when a gap opens at k:
    open pieces end there); ``longest``, the longest such run from k on (no piece
    of that width started at k or later is longer); ``pieces``, the most pieces
    of that width that can start at k or later (a piece takes a tuple of that
    width at each of two steps at least of one run)."""

    going: list[int]
    longest: list[int]
    pieces: list[int]


class _Limits(NamedTuple):
    """What the rest of the suit allows the pieces still to end, per width w
    (index w - 2): ``longest``, the longest one can end; ``number``, how many can."""

    longest: tuple[int, ...]
    number: tuple[int, ...]


def _limits(runs: Sequence[_Runs], k: int, opens: Sequence[OpenPiece]) -> _Limits:
    """``_Limits`` for a frame before host step k with ``opens`` open."""
    longest, count = [], []
    for width in range(2, len(runs)):
        going, most, pieces = runs[width]
        top = most[k]
        number = pieces[k]
        for piece in opens:
            if piece.width == width:
                number += 1
                top = max(top, piece.length + going[k])
        longest.append(top)
        count.append(number)
    return _Limits(tuple(longest), tuple(count))


@lru_cache(maxsize=2048)
def _bound(frame: Frame, supply: int, limits: _Limits, lead: LeadShape) -> int:
    """At most this much can still join the tally of ``frame`` when ``supply``
    copies are left for pieces and ``limits`` bound their lengths and numbers
    (``_NONE`` when its open pieces, each grown to two steps, cannot all fit the
    lead tractors left).  The pieces still to end fit the lead tractors left and
    hold at most their cards so far and the copies left: no packing of them
    beats cutting each lead tractor into the best piece it can take, then the
    best of the rest, and taking those cuts best first as far as the cards go;
    nor, for each width, as many pieces as the suit can still give, each as long
    as one can be.  The lesser of the two, less what the open pieces already
    count.  Cached by value."""
    free, opens = frame
    caps = limits.longest
    if opens:
        grown = opens if all(piece.length > 1 for piece in opens) else tuple(
            [OpenPiece(v, max(m, 2), b, t) for v, m, b, t in opens]
        )
        if not _closings(Frame(free, grown)):
            return _NONE
    cards = supply + sum([piece.width * piece.length for piece in opens])
    cuts: list[Key] = []
    widest = 2
    for width, left in free:
        widths = range(min(width, len(caps) + 1), 1, -1)  # widest first: a key is (cards, width)
        while left > 1:
            best: Key | None = None
            for w in widths:
                length = min(left, caps[w - 2])
                if length > 1 and (best is None or w * length > best[0]):
                    best = (w * length, w)
            if best is None:
                break
            cuts.append(best)
            widest = max(widest, best[1])
            left -= best[0] // best[1]
    cuts.sort(reverse=True)
    most = 0
    for key in cuts:
        size = key[0]
        if cards < 4:
            break
        if cards >= size:
            most += lead.ceiling(key)
            cards -= size
        else:
            most += lead.ceiling((cards, widest))
            break
    counted = 0
    for w in range(2, len(caps) + 2):
        length = min(caps[w - 2], max([left for width, left in free if width >= w], default=0))
        if length > 1:
            counted += limits.number[w - 2] * lead.ceiling(piece_key(w, length))
    return min(most, counted) - lead.accrued(opens)


@lru_cache(maxsize=2048)
def _reach(
    frame: Frame, gap: bool, copies: tuple[int, ...], bottom: bool, late: bool, skips: tuple[int, ...],
    aims: tuple[int, ...], protect: bool, top: int,
) -> tuple[tuple[Frame, ...], int]:
    """The frames one step (holding ``copies``, see ``_moves``) leads ``frame``
    to, in the order first met; after a ``gap`` the open pieces end first.  Also
    the number of moves that took, one at least (the step's work units,
    ``engine.budget``).  Cached by value."""
    reached: dict[Frame, None] = {}
    units = 0
    for start in [Frame(free, ()) for free in _closings(frame)] if gap else [frame]:
        moves = _moves(*start, copies, bottom, late, protect, top, skips, aims)
        units += len(moves)
        for move in moves:
            reached[move.after] = None
    return tuple(reached), max(units, 1)


def _gained(after: Frame, lead: LeadShape) -> int:
    """What a step adds to the tally: the growth of the pieces that took a kind
    of it (the open pieces after it at two steps or more, but for those that
    skipped it; a piece started here weighs nothing yet, one ended before it was
    counted as it grew)."""
    growth = lead.growth
    return sum([growth[(o.width, o.length)] for o in after.opens if o.length > 1 and o.link > -2])


def _best_tallies(
    steps: int,
    first: Frame,
    step_to: Callable[[int, Frame], tuple[tuple[Frame, ...], int]],
    supply: Sequence[int],
    runs: Sequence[_Runs],
    lead: LeadShape,
    spent: int = 0,
) -> tuple[list[dict[Frame, int]], int]:
    """Per host step k, the most tally the steps from k on can add to each frame
    that may lie on a best arrangement (``[0][first]`` is ``T*``; ``supply`` and
    ``runs`` are ``_supply``'s and ``_runs``' figures for ``_bound``), and the work
    units taken (each frame's moves through a step counted once; with the
    ``spent`` units before, checked against the open budget as they grow).

    Frames are explored forward keeping those whose tally so far plus ``_bound``
    reach a goal, lowered to the best bound cut off until some arrangement
    reaches it (then it is ``T*``); the values come back over the kept edges."""
    ways: dict[tuple[int, Frame], list[tuple[int, int, Frame]]] = {}  # (reach, gained, after)
    bounds: dict[tuple[int, Frame], int] = {}
    units = 0

    def bound(k: int, frame: Frame) -> int:
        got = bounds.get((k, frame))
        if got is None:
            got = bounds[(k, frame)] = _bound(frame, supply[k], _limits(runs, k, frame.opens), lead)
        return got

    def onward(k: int, frame: Frame) -> list[tuple[int, int, Frame]]:
        """The frames host k leads to from ``frame``, each with the tally gained
        on the way and that plus the bound of what can still join it there
        (its reach), best reach first."""
        nonlocal units
        got = ways.get((k, frame))
        if got is None:
            reached, work = step_to(k, frame)
            units += work
            check(spent + units)
            got = []
            for after in reached:
                gained = _gained(after, lead)
                got.append((gained + bound(k + 1, after), gained, after))
            got.sort(key=itemgetter(0), reverse=True)  # stable: ties keep the order first met
            ways[(k, frame)] = got
        return got

    goal = bound(0, first)
    while True:
        layers: list[dict[Frame, int]] = [{first: 0}]
        edges: list[dict[Frame, list[tuple[int, Frame]]]] = []
        cut = _NONE
        for k in range(steps):
            nxt: dict[Frame, int] = {}
            out: dict[Frame, list[tuple[int, Frame]]] = {}
            for frame, t in layers[k].items():
                here = out[frame] = []
                for reach, gained, after in onward(k, frame):
                    if t + reach < goal:
                        cut = max(cut, t + reach)
                        break
                    here.append((gained, after))
                    if nxt.get(after, _NONE) < t + gained:
                        nxt[after] = t + gained
            edges.append(out)
            layers.append(nxt)
        ends = [t for frame, t in layers[-1].items() if _closings(frame)]
        if ends and max(ends) >= goal:
            break
        goal = max([cut, *ends])
        assert goal >= 0
    future: list[dict[Frame, int]] = [{} for _ in layers]
    future[-1] = {frame: 0 if _closings(frame) else _NONE for frame in layers[-1]}
    for k in range(steps - 1, -1, -1):
        for frame, nexts in edges[k].items():
            future[k][frame] = max(
                [gained + future[k + 1].get(after, _NONE) for gained, after in nexts], default=_NONE
            )
    return future, units


class _Onward(NamedTuple):
    """A move of pass 2 from a frame at a host step, worked out once: the frame
    after it, the tally gained, what the kinds left add to the histogram (None at
    the ace's places, where it depends on the state), the lead positions still
    free after it, and the move."""

    after: Frame
    gained: int
    delta: Hist | None
    positions: int
    move: Move


class Arrangement(NamedTuple):
    """A measure and one arrangement achieving it (tractor pieces, then tuples)."""

    measure: Measure
    pieces: tuple[Placed, ...]


def _run(
    lay: SuitView, counts: Sequence[int], lead: LeadShape, protect: bool, top: int, line: _Line, spent: int
) -> tuple[Arrangement | None, int]:
    """The best measure and arrangement along one ``line`` (None if no arrangement
    ends), and the work units taken (``spent`` before it, for the budget check)."""
    hosts, gap, ace_kind = line.hosts, line.gap, line.ace
    room = len(lead.tuples)
    # Pass 1: the best tally ``T*`` of any arrangement, and for each frame on the way
    # the most the rest of the suit can add to it.  The pieces outrank every tuple
    # count, so pass 2 keeps only states that can still reach ``T*``.
    first = Frame(_room([(s.width, s.length) for s in lead.tractors]), ())

    def step_to(k: int, frame: Frame) -> tuple[tuple[Frame, ...], int]:
        pos = hosts[k]
        return _reach(frame, gap[k], pos.avail, pos.bottom, pos.late, pos.skips, pos.aims, protect, top)

    # per host step, the copies from it on that could go into a tractor piece
    supply = [*accumulate([sum(c for c in pos.avail if c >= 2) for pos in reversed(hosts)], initial=0)][::-1]
    runs = _runs(hosts, gap, top)
    future, units = _best_tallies(len(hosts), first, step_to, supply, runs, lead, spent)
    target = future[0][first]
    # Pass 2: the states, each with its best record (tally, and the moves that made
    # it); the arrangement is rebuilt for the best one only.
    memo: dict[tuple[int, Frame], list[_Onward]] = {}

    def onward(k: int, frame: Frame) -> list[_Onward]:
        got = memo.get((k, frame))
        if got is None:
            pos = hosts[k]
            special = pos.bottom or ace_kind in pos.kinds
            got = []
            for move in _moves(*frame, pos.avail, pos.bottom, pos.late, protect, top, pos.skips, pos.aims):
                after = move.after
                if future[k + 1].get(after, _NONE) == _NONE:
                    continue  # no way on from there
                delta: Hist | None = None
                if not special:
                    left = move.left
                    delta = (left.count(2), left.count(3), left.count(4))
                got.append(_Onward(after, _gained(after, lead), delta, room + _positions(after.free), move))
            memo[(k, frame)] = got
        return got

    start = State(first, _clamp(line.base, room + _positions(first.free)), 0)
    states: dict[State, Record] = {start: Record(0, None)}
    for k, pos in enumerate(hosts):
        if gap[k]:  # open pieces end (or die, if of length 1)
            states = _close_all(states, room)
        nxt: dict[State, Record] = {}
        ahead = future[k + 1]
        for (frame, hist, carry), (tally, chain) in states.items():
            for after, gained, delta, positions, move in onward(k, frame):
                if tally + gained + ahead.get(after, _NONE) < target:
                    continue
                if delta is not None:
                    h: Hist = (hist[0] + delta[0], hist[1] + delta[1], hist[2] + delta[2])
                    c = carry
                else:
                    h, c = hist, carry
                    for kk, kind in enumerate(pos.kinds):
                        if pos.bottom:
                            c = move.left[kk]
                        elif kind == ace_kind:
                            h = _add_hist(h, move.left[kk] + c)
                            c = 0
                        else:
                            h = _add_hist(h, move.left[kk])
                if h[0] > positions or h[1] > positions or h[2] > positions:
                    h = _clamp(h, positions)
                key = State(after, h, c)
                old = nxt.get(key)
                if old is None or tally + gained > old.tally:
                    nxt[key] = Record(tally + gained, Link(chain, move))
        states = nxt
    states = _close_all(states, room)
    best: tuple[Measure, Record] | None = None
    for (frame, hist, _), record in states.items():
        tractors = lead.pieces(record.tally)
        free = [*lead.tuples, *[w for w, c in frame.free for _ in range(c)]]
        filled = _tuples_on_hist(hist, free, top, protect)
        for cards, width in tractors:
            filled[top - width] += cards // width
        measure = Measure(tractors, tuple(filled))
        if best is None or measure > best[0]:
            best = (measure, record)
    if best is None:
        return None, units
    total, record = best
    placed = [Placed(shape, kinds, 0) for shape, kinds in _replay(record.chain, line)]
    rest = list(counts)
    for piece in placed:
        for i in piece.at:
            rest[i] -= piece.shape.width
    widths: list[int] = []
    for v in range(top, 1, -1):
        widths += [v] * (total.tuples[top - v] - sum(x.shape.length for x in placed if x.shape.width == v))
    tuples = place_tuples(lay, rest, widths, protect)
    assert tuples is not None
    return Arrangement(total, tuple(placed + tuples[1])), units


def _replay(chain: Link | None, line: _Line) -> list[tuple[Shape, tuple[int, ...]]]:
    """The tractor pieces, each with its kinds, of the arrangement a chain of moves
    made (one move per host step)."""
    moves: list[Move] = []
    link = chain
    while link is not None:
        moves.append(link.move)
        link = link.earlier
    moves.reverse()
    pieces: list[tuple[Shape, tuple[int, ...]]] = []
    opens: tuple[OpenPiece, ...] = ()
    kinds: list[tuple[int, ...]] = []
    for k, move in enumerate(moves):
        if line.gap[k]:
            pieces += [(Shape(o.width, o.length), at) for o, at in zip(opens, kinds, strict=True)]
            opens, kinds = (), []
        pieces += [(Shape(opens[j].width, opens[j].length), kinds[j]) for j in move.ended]
        here = line.hosts[k].kinds
        kinds = [
            (here[kk],) if j < 0 else kinds[j] if kk < 0 else (*kinds[j], here[kk]) for j, kk in move.sources
        ]
        opens = move.after.opens
    pieces += [(Shape(o.width, o.length), at) for o, at in zip(opens, kinds, strict=True)]
    return pieces


def _close_all(states: dict[State, Record], room: int) -> dict[State, Record]:
    """End every open piece, in every way it fits the lead tractors left (a state
    with an open piece of length 1 dies)."""
    out: dict[State, Record] = {}
    for state, record in states.items():
        frame, hist, carry = state
        ends = [
            State(Frame(left, ()), _clamp(hist, room + _positions(left)), carry) for left in _closings(frame)
        ] if frame.opens else [state]
        for key in ends:
            old = out.get(key)
            if old is None or record.tally > old.tally:
                out[key] = record
    return out
