"""The generic follow rule's score, by dynamic programming along the suit (RULES.md §5).

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
low → high (the order's main chain; with ``ace_low_tractor`` the ace is also
offered below the lowest rank).  After each step the state is

* the remaining length of each lead tractor,
* the tractor pieces still open through this step (slot, width, length 1 or
  ≥ 2) — a handful, since their widths share the step's few copies,
* the histogram (how many kinds hold 2, 3, 4 cards) of the kinds already
  passed, which is all the final tuple placement needs: placing tuples
  greedily, widest first and each from the tightest-fitting kind, ignores
  adjacency and is exact for widths ≤ 4 (``engine.shapes.place_tuples``).

The value carried is the additive part of the score (the tractor pieces');
at the end the greedy tuple placement completes it.  With k suit kinds, s
steps, lead tractors of lengths l_1…l_J (L = Σ l_j) and at most four copies of
a card, the states per step number at most Π(l_j + 1) · O(1) open pieces ·
C(L + 6, 6) histograms (a tractor position changes one kind's count in one of
six ways), so the programme is polynomial: O(s · Π(l_j + 1) · L⁶) in the worst
case, linear in the hand, and a few hundred states for ordinary leads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.shapes import Layout, Placed, Shape, place_tuples, placements, usable

Vector = tuple[int, ...]
Hist = tuple[int, int, int]  # kinds left holding exactly 2, 3, 4 cards


@dataclass(frozen=True, slots=True)
class LeadShape:
    """The lead seen by the generic rule: its tractors, and the widths of its
    other tuples (pairs and wider; singles are whatever completes a play)."""

    tractors: tuple[Shape, ...]
    tuples: tuple[int, ...]

    @property
    def widest(self) -> int:
        return max([s.width for s in self.tractors] + list(self.tuples) + [1])


@dataclass(frozen=True, slots=True)
class _Position:
    kinds: tuple[int, ...]  # layout indices at this step
    avail: tuple[int, ...]  # copies available here (the ace split between bottom and top)
    bottom: bool  # the ace offered below the lowest rank (ace_low_tractor)
    limit: int  # for the bottom ace: the last line index a piece started there may reach


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
    lay: Layout, counts: tuple[int, ...], lead: LeadShape, protect: bool = False
) -> tuple[Vector, tuple[Placed, ...]]:
    """The best score ``(T, N_W, …, N_2)`` of ``counts`` against ``lead`` and
    one arrangement achieving it (tractor pieces, then tuples)."""
    return _generic_score(lay, counts, lead, protect)


@lru_cache(maxsize=8192)
def _generic_score(
    lay: Layout, counts: tuple[int, ...], lead: LeadShape, protect: bool
) -> tuple[Vector, tuple[Placed, ...]]:
    top = lead.widest
    if top < 2:
        return (), ()
    if not lead.tractors or not placements(lay, counts, Shape(2, 2)):
        # no tractor piece can be placed: the greedy tuple placement is the score,
        # over the lead's tuples and every position of its tractors
        positions = list(lead.tuples) + [s.width for s in lead.tractors for _ in range(s.length)]
        hist: Hist = (0, 0, 0)
        for c in counts:
            hist = _add_hist(hist, c)
        score = tuple(_tuples_on_hist(hist, positions, top, protect))
        widths = [v for v in range(top, 1, -1) for _ in range(score[1 + top - v])]
        tuples = place_tuples(lay, counts, widths, protect)
        assert tuples is not None
        return score, tuple(tuples[1])
    best: tuple[Vector, tuple[Placed, ...]] | None = None
    for line in _lines(lay, counts, protect):
        got = _run(lay, counts, lead, protect, top, line)
        if got is not None and (best is None or got[0] > best[0]):
            best = got
    assert best is not None
    return best


def _lines(lay: Layout, counts: Sequence[int], protect: bool) -> list[list[_Position]]:
    """The suit's steps in order as DP positions; with an ace-low chain, one
    line per way of sharing the ace's copies between its bottom and top places."""
    main = lay.chains[0]
    plain = [_Position(lay.steps[s], tuple(counts[i] for i in lay.steps[s]), False, 0) for s in main]
    if len(lay.chains) == 1:
        return [plain]
    low_chain = lay.chains[1]
    ace_step, low = low_chain[0], low_chain[1:]
    assert tuple(main[: len(low)]) == tuple(low) and len(lay.steps[ace_step]) == 1
    (ace,) = lay.steps[ace_step]
    top_at = list(main).index(ace_step)
    lines = []
    splits = [0, counts[ace]] if protect else list(range(counts[ace] + 1))
    for bottom in sorted(set(splits)):
        line = [_Position((ace,), (bottom,), True, len(low))]
        for i, pos in enumerate(plain):
            if i == top_at:
                pos = _Position(pos.kinds, (counts[ace] - bottom,), False, 0)
            line.append(pos)
        lines.append(line)
    return lines


# A DP state: (caps per lead tractor, open pieces, histogram of passed kinds, ace copies carried)
# An open piece: (slot, width, grown 1|2, started at the bottom ace)
_Open = tuple[int, int, int, bool]
_Key = tuple[tuple[int, ...], tuple[_Open, ...], Hist, int]
# Its record: the additive score, the closed pieces, and each open piece's kinds so far
_Rec = tuple[Vector, tuple[tuple[Shape, tuple[int, ...]], ...], tuple[tuple[int, ...], ...]]


def _run(
    lay: Layout, counts: Sequence[int], lead: LeadShape, protect: bool, top: int, line: list[_Position]
) -> tuple[Vector, tuple[Placed, ...]] | None:
    slots = lead.tractors
    zero: Vector = (0,) * top
    ace_kind = line[0].kinds[0] if line and line[0].bottom else -1
    bottom_limit = line[0].limit if line and line[0].bottom else -1
    # Only runs of two or more steps holding a tuple can host a tractor piece; every
    # other kind goes straight into the starting histogram.
    pairable = [max(p.avail) >= 2 for p in line]
    hosts = [
        i for i, p in enumerate(line)
        if p.bottom or p.kinds[0] == ace_kind
        or (pairable[i] and ((i > 0 and pairable[i - 1]) or (i + 1 < len(line) and pairable[i + 1])))
    ] if slots else []
    base: Hist = (0, 0, 0)
    hosted = set(hosts)
    for i, p in enumerate(line):
        if i not in hosted:
            for c in p.avail:
                base = _add_hist(base, c)
    states: dict[_Key, _Rec] = {(tuple(s.length for s in slots), (), base, 0): (zero, (), ())}
    previous = -2
    for index in hosts:
        if index != previous + 1:  # a gap: open pieces end (or die, if of length 1)
            states = _close_all(states)
        previous = index
        nxt: dict[_Key, _Rec] = {}
        for key, rec in states.items():
            _expand(key, rec, line[index], index, slots, protect, top, ace_kind, bottom_limit, nxt)
        states = nxt
    best: tuple[Vector, tuple[tuple[Shape, tuple[int, ...]], ...]] | None = None
    for (caps, opens, hist, _), (score, closed, open_kinds) in states.items():
        if any(grown < 2 for _, _, grown, _ in opens):
            continue
        pieces = closed + tuple(
            (Shape(width, len(kinds)), kinds) for (_, width, _, _), kinds in zip(opens, open_kinds, strict=True)
        )
        free = list(lead.tuples) + [slots[j].width for j, cap in enumerate(caps) for _ in range(cap)]
        tail = _tuples_on_hist(hist, free, top, protect)
        total = tuple(a + b for a, b in zip(score, tail, strict=True))
        if best is None or (total, -len(pieces)) > (best[0], -len(best[1])):
            best = (total, pieces)
    if best is None:
        return None
    total, pieces = best
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
    return total, tuple(placed + tuples[1])


def _close_all(states: dict[_Key, _Rec]) -> dict[_Key, _Rec]:
    """End every open piece (those of length 1 cannot end: their state dies)."""
    out: dict[_Key, _Rec] = {}
    for (caps, opens, hist, carry), (score, closed, open_kinds) in states.items():
        if any(grown < 2 for _, _, grown, _ in opens):
            continue
        ended = closed + tuple(
            (Shape(width, len(kinds)), kinds) for (_, width, _, _), kinds in zip(opens, open_kinds, strict=True)
        )
        key: _Key = (caps, (), hist, carry)
        old = out.get(key)
        if old is None or (score, -len(ended)) > (old[0], -len(old[1])):
            out[key] = (score, ended, ())
    return out


def _expand(
    key: _Key,
    rec: _Rec,
    pos: _Position,
    index: int,
    slots: tuple[Shape, ...],
    protect: bool,
    top: int,
    ace_kind: int,
    bottom_limit: int,
    out: dict[_Key, _Rec],
) -> None:
    caps0, opens, hist0, carry0 = key
    score0, closed0, open_kinds = rec
    avail = list(pos.avail)
    caps = list(caps0)

    def finish(new_opens: list[tuple[_Open, tuple[int, ...]]], closed: tuple[tuple[Shape, tuple[int, ...]], ...], gain: list[int]) -> None:
        hist, carry = hist0, carry0
        for kk, kind in enumerate(pos.kinds):
            if pos.bottom:
                carry = avail[kk]
            elif kind == ace_kind:
                hist = _add_hist(hist, avail[kk] + carry)
                carry = 0
            else:
                hist = _add_hist(hist, avail[kk])
        ordered = sorted(new_opens)
        new_key: _Key = (tuple(caps), tuple(o for o, _ in ordered), hist, carry)
        score = tuple(a + b for a, b in zip(score0, gain, strict=True))
        old = out.get(new_key)
        # on a tie, fewer (so longer) pieces: the arrangement reported reads as the lead does
        if old is None or (score, -len(closed)) > (old[0], -len(old[1])):
            out[new_key] = (score, closed, tuple(k for _, k in ordered))

    def start_new(
        after: tuple[int, int, int], new_opens: list[tuple[_Open, tuple[int, ...]]], closed: tuple[tuple[Shape, tuple[int, ...]], ...], gain: list[int]
    ) -> None:
        finish(new_opens, closed, gain)
        for j, slot in enumerate(slots):
            if caps[j] < 2:
                continue
            for v in range(2, slot.width + 1):
                for kk, kind in enumerate(pos.kinds):
                    if (j, v, kk) < after or not usable(avail[kk], v, protect):
                        continue
                    avail[kk] -= v
                    caps[j] -= 1
                    gain[0] += v
                    gain[1 + top - v] += 1
                    start_new((j, v, kk), [*new_opens, ((j, v, 1, pos.bottom), (kind,))], closed, gain)
                    gain[0] -= v
                    gain[1 + top - v] -= 1
                    caps[j] += 1
                    avail[kk] += v

    def carry_on(i: int, new_opens: list[tuple[_Open, tuple[int, ...]]], closed: tuple[tuple[Shape, tuple[int, ...]], ...], gain: list[int]) -> None:
        if i == len(opens):
            start_new((-1, -1, -1), new_opens, closed, gain)
            return
        slot, width, grown, bottom = opens[i]
        kinds = open_kinds[i]
        if grown == 2:  # end the piece before this step
            carry_on(i + 1, new_opens, (*closed, (Shape(width, len(kinds)), kinds)), gain)
        if caps[slot] < 1 or (bottom and index > bottom_limit):
            return
        for kk, kind in enumerate(pos.kinds):
            if not usable(avail[kk], width, protect):
                continue
            avail[kk] -= width
            caps[slot] -= 1
            gain[0] += width
            gain[1 + top - width] += 1
            carry_on(i + 1, [*new_opens, ((slot, width, 2, bottom), (*kinds, kind))], closed, gain)
            gain[0] -= width
            gain[1 + top - width] -= 1
            caps[slot] += 1
            avail[kk] += width

    carry_on(0, [], closed0, [0] * top)
