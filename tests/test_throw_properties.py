"""Hypothesis invariants of throws (docs/rules.md §4, engine.throw.judge_throw).

* a single-unit lead always stands;
* the forced play is one unit of the lead (the lead itself when it stands);
* ``valid`` iff ``failed_units`` is empty;
* the verdict does not depend on the order of the cards, nor on which opponent
  holds which hand (relabelling the opponents' seats; only ``first_blocked``,
  which by definition follows seat order, may then force another unit);
* an oracle: a unit fails iff some seat has a sub-multiset of its cards of the
  led suit that ``decompose`` reads as one unit of the same shape ranking higher
  (or, with ``wider_shape_beats``, a wider unit of the same card count).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import KINDS
from engine.rules import (
    Rules,
    ThrowForcedCards,
    ThrowForcedUnit,
    ThrowWhenOthersVoid,
    rules_from_json,
)
from engine.throw import ThrowVerdict, check_throw, judge_throw
from engine.trump import Trump, TrumpOrder, trump_order
from engine.units import Unit, decompose

PRESET_FOR_DECKS = {1: "one-deck", 2: "two-deck", 3: "three-deck", 4: "four-deck"}


@st.composite
def deals(draw: Any, max_lead: int = 12, max_hand: int = 52) -> tuple[Any, ...]:
    """(rules, order, leader, lead, hands): a lead of one effective suit and the
    other seats' hands dealt from the rest of the pack."""
    decks = draw(st.integers(1, 4))
    rules = rules_from_json(
        {
            "preset": PRESET_FOR_DECKS[decks],
            "wider_shape_beats": draw(st.booleans()),
            "level_suit_precedence": draw(st.booleans()),
            "ace_low_tractor": draw(st.booleans()),
            "throw_forced_unit": draw(st.sampled_from([v.value for v in ThrowForcedUnit])),
            "throw_forced_cards": draw(st.sampled_from([v.value for v in ThrowForcedCards])),
            "throw_when_others_void": draw(st.sampled_from([v.value for v in ThrowWhenOthersVoid])),
        }
    )
    order = trump_order(Trump(draw(st.integers(0, 12)), draw(st.sampled_from([None, 0, 1, 2, 3]))), rules)
    rng: random.Random = draw(st.randoms(use_true_random=False))
    suit = draw(st.sampled_from(sorted({order.suit[k] for k in range(KINDS)})))
    pack = [k for k in range(KINDS) for _ in range(decks)]
    # bias the lead towards tuples and tractors: a run of consecutive steps of one width,
    # then a few other kinds of the suit with random copies
    steps = order.steps[suit]
    lead: list[int] = []
    if decks > 1 and len(steps) > 1 and rng.random() < 0.6:
        width = rng.randint(2, decks)
        start = rng.randrange(len(steps) - 1)
        for step in steps[start : start + rng.randint(2, 4)]:
            lead += [rng.choice(step)] * width
    kinds = [k for k in range(KINDS) if order.suit[k] == suit]
    for k in rng.sample(kinds, min(len(kinds), rng.randint(1, 4))):
        lead += [k] * rng.randint(1, decks)
    lead = [k for k, n in Counter(lead).items() for _ in range(min(n, decks))]
    lead = lead[: max_lead if rng.random() < 0.8 else rng.randint(1, max_lead)]
    rest = Counter(pack)
    rest.subtract(lead)
    left = list(rest.elements())
    rng.shuffle(left)
    if draw(st.booleans()):
        # clustered deal: cards of the led suit first, copies of a kind together, so the
        # opponents hold tuples, tractors and wider shapes of the led suit
        key = {k: rng.random() for k in range(KINDS)}
        left.sort(key=lambda k: (order.suit[k] != suit, key[k]))
    leader = draw(st.integers(0, 3))
    hands: dict[int, list[int]] = {}
    for i in range(1, 4):
        size = rng.randint(0, max_hand)
        hands[(leader + i) % 4], left = left[:size], left[size:]
    return rules, order, leader, lead, hands


def _shape(v: ThrowVerdict) -> tuple[Any, ...]:
    """Everything of a verdict but the order of the lead echoed back and the seats."""
    return (
        v.valid,
        v.units,
        tuple(f.unit for f in v.failed_units),
        v.forced_unit,
        tuple(sorted(v.forced_play)),
        v.penalty,
    )


SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(deals())
def test_basic_invariants(deal: tuple[Any, ...]) -> None:
    rules, order, leader, lead, hands = deal
    v = judge_throw(check_throw(leader, lead, hands, order, rules))
    assert Counter(c for u in v.units for c in u.cards) == Counter(lead)
    if v.refused:  # throw_when_others_void: a throw nobody else can follow in suit (docs/rules.md §4)
        assert len(v.units) > 1 and not v.valid and v.forced_play == () and v.forced_unit is None
        assert rules.throw_when_others_void == "refused"
        assert not any(order.suit[c] == v.suit for s, h in hands.items() if s != leader for c in h)
        return
    assert v.valid == (not v.failed_units)
    if len(v.units) == 1:
        assert v.valid
    if v.valid:
        assert v.forced_play == tuple(lead) and v.forced_unit is None and v.penalty.kind == "none"
    else:
        assert v.forced_unit in v.units
        if rules.throw_forced_cards == "lowest_card":  # the Botzone judge: its lowest card only
            assert v.forced_play == v.forced_unit.cards[-1:]
        else:
            assert v.forced_play == v.forced_unit.cards
        if rules.throw_forced_unit != "smallest_unit":
            assert v.forced_unit in [f.unit for f in v.failed_units]
    for f in v.failed_units:
        assert f.beaten_by and all(b.seat != leader for b in f.beaten_by)
        for b in f.beaten_by:
            held = Counter(hands[b.seat])
            assert not Counter(b.cards) - held  # the beater's cards are in its hand
            assert len(b.cards) == f.unit.size and {order.suit[c] for c in b.cards} == {v.suit}


@SETTINGS
@given(deals(), st.randoms(use_true_random=False))
def test_verdict_ignores_card_order_and_seat_labels(deal: tuple[Any, ...], rng: random.Random) -> None:
    rules, order, leader, lead, hands = deal
    v = judge_throw(check_throw(leader, lead, hands, order, rules))
    shuffled_lead = rng.sample(lead, len(lead))
    shuffled = {s: rng.sample(h, len(h)) for s, h in reversed(list(hands.items()))}
    w = judge_throw(check_throw(leader, shuffled_lead, shuffled, order, rules))
    assert _shape(w) == _shape(v)
    assert [[b.seat for b in f.beaten_by] for f in w.failed_units] == [
        [b.seat for b in f.beaten_by] for f in v.failed_units
    ]
    # relabel the opponents: the same hands held by other seats
    seats = sorted(hands)
    relabel = dict(zip(seats, rng.sample(seats, len(seats)), strict=True))
    moved = {relabel[s]: h for s, h in hands.items()}
    m = judge_throw(check_throw(leader, lead, moved, order, rules))
    assert m.valid == v.valid and m.units == v.units
    assert [f.unit for f in m.failed_units] == [f.unit for f in v.failed_units]
    assert [sorted((relabel[b.seat], b.cards) for b in f.beaten_by) for f in v.failed_units] == [
        sorted((b.seat, b.cards) for b in f.beaten_by) for f in m.failed_units
    ]
    if rules.throw_forced_unit != "first_blocked":
        assert m.forced_play == v.forced_play


@SETTINGS
@given(st.data())
def test_single_unit_leads_always_stand(data: st.DataObject) -> None:
    rules, order, leader, lead, hands = data.draw(deals())
    unit = decompose(lead, order)[0]  # one unit of a random lead: a lead by itself
    v = judge_throw(check_throw(leader, list(unit.cards), hands, order, rules))
    assert v.valid and v.units == (unit,) and v.forced_play == unit.cards
    assert [r.code for r in v.reasons] == ["throw.single_unit"]


def _sub_multisets(counts: Counter[int], size: int) -> list[list[int]]:
    kinds = sorted(counts)
    out: list[list[int]] = []
    for picks in product(*(range(min(counts[k], size) + 1) for k in kinds)):
        if sum(picks) == size:
            out.append([k for k, n in zip(kinds, picks, strict=True) for _ in range(n)])
    return out


def _oracle_beats(unit: Unit, hand: list[int], order: TrumpOrder, rules: Rules) -> bool:
    counts = Counter(c for c in hand if order.suit[c] == unit.suit)
    for cards in _sub_multisets(counts, unit.size):
        (other, *more) = decompose(cards, order)
        if more:
            continue
        if other.shape == unit.shape and other.rank > unit.rank:
            return True
        if rules.wider_shape_beats and other.width > unit.width:
            return True
    return False


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals(max_lead=10, max_hand=24))
def test_failed_units_agree_with_a_brute_force_oracle(deal: tuple[Any, ...]) -> None:
    rules, order, leader, lead, hands = deal
    v = judge_throw(check_throw(leader, lead, hands, order, rules))
    if len(v.units) == 1:
        return
    beaten = {(f.unit, b.seat) for f in v.failed_units for b in f.beaten_by}
    for unit in v.units:
        for seat, hand in hands.items():
            assert ((unit, seat) in beaten) == _oracle_beats(unit, hand, order, rules), (unit, seat)
