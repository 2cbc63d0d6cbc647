"""The generic follow rule's dynamic programme (docs/rules.md §5, ``engine.generic``).

1. Leads of many tractors in a long suit against four-deck hands rich in quads
   (found by review: each took seconds before the programme carried alike lead
   tractors as one state and kept only states that can still reach the most
   tractor cards) answer with the verdict they always had.  No timing here:
   ``bench/follow_worst.py`` prints the figures.
2. On random medium-size cases the programme scores every count vector exactly as
   the previous one did (kept below as ``_old_score``, verbatim but for names):
   the same vector ``(T, N_W, …, N_2)`` and the same number of pieces, and its
   arrangement really is one of the hand's.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import generic
from engine.generic import Hist, LeadShape, Vector, _add_hist, _lines, _Position, _tuples_on_hist
from engine.lead import generic_shape
from engine.rules import preset
from engine.shapes import Placed, Shape, place_tuples, placements, usable
from engine.suit import SuitView, suit_view
from engine.trump import TRUMP, Trump, trump_order
from engine.units import decompose, unit_shapes
from tests.conftest import ROOT


def _worst_cases() -> Any:
    spec = importlib.util.spec_from_file_location("bench_follow_worst", ROOT / "bench" / "follow_worst.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_follow_worst"] = module
    spec.loader.exec_module(module)
    return module.CASES


CASES = _worst_cases()

# --- 1. the worst cases keep their verdicts ----------------------------------------------------

# name → (legal, reason codes, tractor cards owed, tuples owed as (width, count))
FOLLOW_VERDICTS: dict[str, tuple[bool | None, list[str], int, list[tuple[int, int]]]] = {
    "six 2-pair tractors in trumps": (None, [], 24, [(2, 12)]),
    "2-pair and triple tractors": (None, [], 24, [(3, 0), (2, 12)]),
    "five 2-pair tractors": (None, [], 20, [(2, 10)]),
    "three 3-pair tractors": (None, [], 24, [(2, 12)]),
    "seven 2-pair tractors, 60-card hand": (None, [], 24, [(2, 12)]),
    "36-card lead of tractors, classic patterns": (False, ["follow.must_play_tractor"], 24, [(2, 17)]),
    "38-card lead of tractors, level A": (False, ["follow.must_play_tractor"], 28, [(2, 17)]),
    "30-card lead with quad tractors, four-deck-cgc": (False, ["follow.must_play_tractor"], 26, [(3, 2), (2, 12)]),
}


@pytest.mark.parametrize("name", sorted(FOLLOW_VERDICTS))
def test_worst_follows_keep_their_verdicts(api: Any, name: str) -> None:
    path, body = CASES[name]
    assert path == "/v1/follow"
    got = api.post(path, json=body)
    assert got.status_code == 200
    out = got.get_json()
    legal, codes, cards, tuples = FOLLOW_VERDICTS[name]
    assert out["legal"] is legal
    assert [r["code"] for r in out["reasons"]] == codes
    req = out["required"]
    assert req["rule"] == "generic"
    assert (req["tractor_cards"], [(t["width"], t["count"]) for t in req["tuples"]]) == (cards, tuples)


def test_worst_trick_keeps_its_verdict(api: Any) -> None:
    path, body = CASES["2-pair and triple tractors through /v1/trick with hands"]
    got = api.post(path, json=body)
    assert got.status_code == 200
    out = got.get_json()
    assert out["winner"] == 0
    assert [(p["seat"], p["legal"], [r["code"] for r in p["reasons"] or []]) for p in out["plays"]] == [
        (0, None, ["trick.lead", "trick.throw_not_judged"]),
        (1, False, ["trick.follow", "trick.no_structure", "follow.must_play_tractor"]),
        (2, True, ["trick.discard"]),
        (3, True, ["trick.discard"]),
    ]


# --- 2. the same scores as the previous programme ----------------------------------------------


def _old_score(lay: SuitView, counts: tuple[int, ...], lead: LeadShape, protect: bool) -> tuple[Vector, tuple[Placed, ...]]:
    """The previous programme's score of a hand that can place a tractor piece."""
    top = lead.widest
    best: tuple[Vector, tuple[Placed, ...]] | None = None
    for line in _lines(lay, counts, protect):
        got = _old_run(lay, counts, lead, protect, top, line)
        if got is not None and (best is None or got[0] > best[0]):
            best = got
    assert best is not None
    return best


# A DP state: (caps per lead tractor, open pieces, histogram of passed kinds, ace copies carried)
# An open piece: (slot, width, grown 1|2, started at the bottom ace)
_Open = tuple[int, int, int, bool]
_Key = tuple[tuple[int, ...], tuple[_Open, ...], Hist, int]
# Its record: the additive score, the closed pieces, and each open piece's kinds so far
_Rec = tuple[Vector, tuple[tuple[Shape, tuple[int, ...]], ...], tuple[tuple[int, ...], ...]]


def _old_run(
    lay: SuitView, counts: Sequence[int], lead: LeadShape, protect: bool, top: int, line: list[_Position]
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
            states = _old_close_all(states)
        previous = index
        nxt: dict[_Key, _Rec] = {}
        for key, rec in states.items():
            _old_expand(key, rec, line[index], index, slots, protect, top, ace_kind, bottom_limit, nxt)
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


def _old_close_all(states: dict[_Key, _Rec]) -> dict[_Key, _Rec]:
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


def _old_expand(
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


@st.composite
def cases(draw: Any) -> tuple[SuitView, tuple[int, ...], LeadShape, bool]:
    """A preset (two to four decks, ace_low_tractor either way), a trump, a suit,
    a lead rich in tractors and a follower's holding of that suit."""
    name = draw(st.sampled_from(["two-deck", "three-deck", "four-deck", "four-deck-cgc"]))
    rules = preset(name)
    if draw(st.booleans()):
        from dataclasses import replace

        rules = replace(rules, ace_low_tractor=True)
    order = trump_order(Trump(draw(st.integers(0, 12)), draw(st.sampled_from([None, 0, 1, 2, 3]))), rules)
    suit = draw(st.sampled_from([TRUMP, 0, 1, 2, 3]))
    lay = suit_view(order, suit)
    rnd: random.Random = draw(st.randoms(use_true_random=False))
    decks = rules.decks
    density = rnd.random()
    lead_counts = [min(decks, rnd.choice([2, 2, 3, 4])) if rnd.random() < density else 0 for _ in lay.kinds]
    hand = [rnd.randint(0, decks - c) if rnd.random() < 0.8 else decks - c for c in lead_counts]
    lead = [k for k, c in zip(lay.kinds, lead_counts, strict=True) for _ in range(c)]
    shape = generic_shape(unit_shapes(decompose(lead, order))) if lead else LeadShape((), ())
    return lay, tuple(hand), shape, draw(st.booleans()) and draw(st.booleans())


def _realised(lay: SuitView, counts: Sequence[int], pieces: Sequence[Placed], protect: bool) -> bool:
    """Do the pieces come out of ``counts`` disjointly, each a real shape?"""
    left = list(counts)
    for piece in pieces:
        if piece.shape.length > 1:
            if piece.at not in {p.at for p in placements(lay, left, piece.shape, protect)}:
                return False
        elif not usable(left[piece.at[0]], piece.shape.width, protect):
            return False
        for i in piece.at:
            left[i] -= piece.shape.width
    return min(left, default=0) >= 0


@settings(max_examples=120, deadline=None)
@given(cases())
def test_scores_as_the_previous_programme(case: tuple[SuitView, tuple[int, ...], LeadShape, bool]) -> None:
    lay, counts, lead, protect = case
    generic._generic_score.cache_clear()
    score, pieces = generic.generic_score(lay, counts, lead, protect)
    if lead.tractors and lead.widest >= 2 and placements(lay, counts, Shape(2, 2)):
        old_score, old_pieces = _old_score(lay, counts, lead, protect)
        assert score == old_score
        assert len(pieces) == len(old_pieces)
    assert _realised(lay, counts, pieces, protect)
    tractor_cards = sum(p.shape.size for p in pieces if p.shape.length > 1)
    assert (score[0] if score else 0) == tractor_cards
