"""The generic follow rule's dynamic programme (docs/rules.md §5, ``engine.generic``).

1. Leads of many tractors in a long suit against four-deck hands rich in quads
   (found by review: each took seconds before the programme carried alike lead
   tractors as one state and kept only states that can still reach the best
   tractor pieces) answer with the verdicts of the longest-first measure (their
   tractors owed, longest first, and their tuples).  No timing here:
   ``bench/follow_worst.py`` prints the figures.
2. On random medium-size cases the arrangement the programme reports really is
   one of the hand's, and its pieces are the measure's: its tractors longest
   first, its tuples by width (tests/test_follow_oracle.py checks the measures
   against a brute force).
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

from engine import caches, generic
from engine.generic import LeadShape
from engine.lead import generic_shape
from engine.rules import preset
from engine.shapes import Placed, usable
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

# name → (legal, reason codes, tractors owed longest first as (width, length, count), their cards,
# tuples owed as (width, count)).  Longest first (docs/rules.md §5): against 2-pair and triple
# tractors a triple tractor of 2 comes before a sixth 2-pair tractor, though it has fewer cards.
FOLLOW_VERDICTS: dict[
    str, tuple[bool | None, list[str], list[tuple[int, int, int]], int, list[tuple[int, int]]]
] = {
    "six 2-pair tractors in trumps": (None, [], [(2, 2, 6)], 24, [(2, 12)]),
    "2-pair and triple tractors": (None, [], [(3, 2, 1), (2, 2, 4)], 22, [(3, 4), (2, 8)]),
    "five 2-pair tractors": (None, [], [(2, 2, 5)], 20, [(2, 10)]),
    "three 3-pair tractors": (None, [], [(2, 3, 4)], 24, [(2, 12)]),
    "seven 2-pair tractors, 60-card hand": (None, [], [(2, 2, 6)], 24, [(2, 12)]),
    "36-card lead of tractors, classic patterns": (
        False, ["follow.must_play_tractor"], [(2, 5, 1), (2, 3, 1), (2, 2, 2)], 24, [(2, 17)]
    ),
    "38-card lead of tractors, level A": (
        False, ["follow.must_play_tractor"], [(2, 3, 2), (2, 2, 4)], 28, [(2, 17)]
    ),
    "30-card lead with quad tractors, four-deck-cgc": (
        False, ["follow.must_play_tractor"], [(2, 6, 1), (3, 2, 1), (2, 2, 2)], 26, [(3, 2), (2, 12)]
    ),
    # the four-deck preset's own links (level_constant_tractors): ♠2♠2♠10♠10 and the like join,
    # and a 4-pair tractor comes first
    "six 2-pair tractors in trumps, level-constant links": (None, [], [(2, 4, 1), (2, 2, 4)], 24, [(2, 12)]),
    "five 2-pair tractors, level-constant links": (None, [], [(2, 4, 1), (2, 2, 3)], 20, [(2, 10)]),
}


# Over the service's work budget (engine.budget, service.limits.MAX_WORK_UNITS): the
# service answers them 422 too_complex; their verdicts are checked without the budget.
OVER_BUDGET = {
    "2-pair and triple tractors",  # 1,007 units
    "30-card lead with quad tractors, four-deck-cgc",  # 1,093
    "2-pair and triple tractors through /v1/trick with hands",  # its follows' together
    "six 2-pair tractors in trumps, level-constant links",  # 5,337
    "five 2-pair tractors, level-constant links",  # 2,146
    "36-card lead of tractors, classic patterns",  # 665
}


@pytest.fixture(scope="module")
def unbounded() -> Any:
    from service.app import create_app

    return create_app({"ACCESS_LOG": False, "MAX_WORK_UNITS": None}).test_client()


@pytest.mark.parametrize("name", sorted(FOLLOW_VERDICTS))
def test_worst_follows_keep_their_verdicts(api: Any, unbounded: Any, name: str) -> None:
    path, body = CASES[name]
    assert path == "/v1/follow"
    bounded = api.post(path, json=body)
    if name in OVER_BUDGET:
        assert bounded.status_code == 422
        assert [e["code"] for e in bounded.get_json()["errors"]] == ["too_complex"]
        got = unbounded.post(path, json=body)
    else:
        got = bounded
    assert got.status_code == 200
    out = got.get_json()
    legal, codes, tractors, cards, tuples = FOLLOW_VERDICTS[name]
    assert out["legal"] is legal
    assert [r["code"] for r in out["reasons"]] == codes
    req = out["required"]
    assert req["rule"] == "generic"
    (owed,) = req["pattern"]
    assert [(s["width"], s["length"], s["count"]) for s in owed["shapes"] if s["length"] > 1] == tractors
    assert (req["tractor_cards"], [(t["width"], t["count"]) for t in req["tuples"]]) == (cards, tuples)


def test_worst_trick_keeps_its_verdict(api: Any, unbounded: Any) -> None:
    path, body = CASES["2-pair and triple tractors through /v1/trick with hands"]
    bounded = api.post(path, json=body)
    assert bounded.status_code == 422
    assert [e["code"] for e in bounded.get_json()["errors"]] == ["too_complex"]
    got = unbounded.post(path, json=body)
    assert got.status_code == 200
    out = got.get_json()
    assert out["winner"] == 0
    assert [(p["seat"], p["legal"], [r["code"] for r in p["reasons"] or []]) for p in out["plays"]] == [
        (0, None, ["trick.lead", "trick.throw_not_judged"]),
        (1, False, ["trick.follow", "trick.no_structure", "follow.must_play_tractor"]),
        (2, True, ["trick.discard"]),
        (3, True, ["trick.discard"]),
    ]


# --- 2. the arrangement is the hand's ----------------------------------------------------------


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
    view = suit_view(lay.order, lay.suit, protect)
    for piece in pieces:
        if piece.shape.length > 1:
            if piece.at not in {at for at, _ in view.spots(left, piece.shape.width, piece.shape.length)}:
                return False
        elif not usable(left[piece.at[0]], piece.shape.width, protect):
            return False
        for i in piece.at:
            left[i] -= piece.shape.width
    return min(left, default=0) >= 0


@settings(max_examples=120, deadline=None)
@given(cases())
def test_the_arrangement_is_the_hands_and_has_the_score(case: tuple[SuitView, tuple[int, ...], LeadShape, bool]) -> None:
    lay, counts, lead, protect = case
    caches.clear()
    score, pieces, _ = generic.generic_score_work(lay, counts, lead, protect)
    assert _realised(lay, counts, pieces, protect)
    tractors = sorted([generic.piece_key(p.shape.width, p.shape.length) for p in pieces if p.shape.length > 1])
    assert score.tractors == tuple(reversed(tractors))
    top = lead.widest
    assert list(score.tuples) == [sum(p.shape.length for p in pieces if p.shape.width == v) for v in range(top, 1, -1)]
