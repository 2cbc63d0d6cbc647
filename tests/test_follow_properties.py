"""Hypothesis invariants of following (docs/rules.md §5) on random deals of every preset."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.follow import check_follow, judge_follow
from engine.rules import PRESET_VALUES, Rules, preset
from engine.trump import Trump, TrumpOrder, trump_order
from tests.helpers import said


@st.composite
def follows(draw: Any) -> tuple[Rules, TrumpOrder, list[int], list[int], list[int], random.Random]:
    """A preset, a trump, a lead (a random set of one effective suit from the
    leader's hand), the follower's hand and a random play of the lead's size."""
    rules = preset(draw(st.sampled_from(sorted(PRESET_VALUES))))
    order = trump_order(Trump(draw(st.integers(0, 12)), draw(st.sampled_from([None, 0, 1, 2, 3]))), rules)
    rnd = draw(st.randoms(use_true_random=False))
    deck = [k for k in range(54) for _ in range(rules.decks)]
    rnd.shuffle(deck)
    size = rules.hand_size
    leader, hand = deck[:size], deck[size : 2 * size]
    by_suit: dict[int, list[int]] = {}
    for card in leader:
        by_suit.setdefault(order.suit[card], []).append(card)
    suit = rnd.choice(sorted(by_suit))
    # leads rich in tuples: take whole groups of identical cards where possible
    pool = sorted(by_suit[suit], key=lambda c: (-Counter(by_suit[suit])[c], rnd.random()))
    n = rnd.randint(1, min(8, len(pool)))
    lead = pool[:n]
    play = rnd.sample(hand, n)
    return rules, order, lead, hand, play, rnd


@settings(max_examples=150, deadline=None)
@given(follows())
def test_the_example_is_legal(case: Any) -> None:
    rules, order, lead, hand, _, _ = case
    verdict = judge_follow(check_follow(lead, hand, None, order, rules))
    assert verdict.legal is None
    assert len(verdict.example) == len(lead)
    again = judge_follow(check_follow(lead, hand, list(verdict.example), order, rules))
    assert again.legal is True and again.reasons == ()


@settings(max_examples=150, deadline=None)
@given(follows())
def test_reordering_cards_changes_nothing(case: Any) -> None:
    rules, order, lead, hand, play, rnd = case
    first = judge_follow(check_follow(lead, hand, play, order, rules))
    shuffled = [list(x) for x in (lead, hand, play)]
    for x in shuffled:
        rnd.shuffle(x)
    assert judge_follow(check_follow(*shuffled, order, rules)) == first


@settings(max_examples=150, deadline=None)
@given(follows())
def test_verdict_and_reasons_agree(case: Any) -> None:
    """A refusal always says why, a legal play never carries a refusal, and a
    legal play holds the suit cards owed."""
    rules, order, lead, hand, play, _ = case
    verdict = judge_follow(check_follow(lead, hand, play, order, rules))
    assert verdict.legal is (verdict.reasons == ())
    req = verdict.required
    in_suit = sum(1 for c in play if order.suit[c] == req.suit)
    if verdict.legal:
        assert in_suit >= req.cards
    for reason in verdict.reasons:
        assert reason.code.startswith("follow.") and said(reason) and said(reason, "zh-Hans")
