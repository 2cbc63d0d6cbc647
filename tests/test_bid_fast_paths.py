"""engine.bidding's looked-up steps and its short cut for the usual bid agree with the
ladder search and the card-by-card checks they stand for (docs/rules.md §9; seed 001 报牌规则,
seed 002 抄底牌條件 for the suit-split ladder)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bidding import (
    check_bid_cards,
    declared_trump,
    ladder,
    strength,
)
from engine.cards import JOKERS, KINDS, rank_of, suit_of
from engine.rules import PRESET_VALUES, preset, rules_from_json
from engine.trump import Trump
from service.explain import words

RULE_SETS = [preset(name) for name in PRESET_VALUES] + [
    rules_from_json({"preset": "three-deck", "bid_suit_precedence": True}),
    rules_from_json({"preset": "four-deck", "no_trump_bid_min_jokers": 4}),
    rules_from_json({"preset": "three-deck", "no_trump_bid_min_jokers": 3, "self_overturn": False}),
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=[f"{r.preset}-{r.decks}-{r.bid_suit_precedence}" for r in RULE_SETS])
def test_strength_is_the_ladder_step_of_every_card_and_count(rules) -> None:  # type: ignore[no-untyped-def]
    """Every bid of ``count`` copies of a card has the ladder's step of that many
    cards, of that joker (None: level cards), in that suit or any; a bid no step
    fits has none."""
    steps = ladder(rules)
    for card in range(KINDS):
        joker = card if card in JOKERS else None
        for count in range(1, rules.decks + 2):
            fits = [s for s in steps if (s.count, s.joker) == (count, joker) and s.suit in (None, suit_of(card))]
            found = strength(rules, (card,) * count)
            assert found == (fits[0] if fits else None), (card, count)


def test_step_names_follow_the_step() -> None:
    # seed 001: 对小王 (a pair of small jokers); seed 002: 對黑桃10 (a pair of spade level cards)
    names = {(s.count, s.joker, s.suit): tuple(words(s.step, tag) for tag in ("en", "zh-Hans", "zh-Hant"))
             for s in ladder(preset("four-deck-cgc"))}
    assert names[2, None, 0] == ("pair of level cards in spades", "两张黑桃级牌", "兩張黑桃級牌")
    assert names[4, 53, None] == ("four big jokers", "四张大王", "四張大王")
    assert names[1, None, None] == ("single level card", "单张级牌", "單張級牌")


def test_declared_trump_is_the_bid_suit_at_the_level() -> None:
    for level in range(13):
        for card in range(KINDS):
            assert declared_trump(level, (card,)) == Trump(level, suit_of(card))


def _problems_card_by_card(rules, level: int, cards: tuple[int, ...]) -> bool:  # type: ignore[no-untyped-def]
    """Whether the bid is not a bid: what the checks find when read one card at a time."""
    if not cards:
        return True
    if any(c not in JOKERS and rank_of(c) != level for c in cards):
        return True
    if any(c != cards[0] for c in cards):
        return True
    return len(cards) > rules.decks


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULE_SETS), st.integers(0, 12), st.data())
def test_check_cards_short_cut_agrees_with_the_full_checks(rules, level: int, data: st.DataObject) -> None:  # type: ignore[no-untyped-def]
    near = [level, 13 + level, 26 + level, 39 + level, *JOKERS]
    card = st.one_of(st.sampled_from(near), st.integers(0, KINDS - 1))
    same = st.builds(lambda c, n: (c,) * n, card, st.integers(0, 6))
    cards = data.draw(st.one_of(same, st.lists(card, max_size=6).map(tuple)))
    problems = check_bid_cards(rules, level, cards, ("bids", 0, "cards"))
    assert bool(problems) == _problems_card_by_card(rules, level, cards)
    assert all(p.path[:3] == ("bids", 0, "cards") for p in problems)
