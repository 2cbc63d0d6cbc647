"""Hypothesis invariants of the trick winner (docs/rules.md §6) on random deals of every preset."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_card, total_points
from engine.errors import InvalidInput
from engine.follow import check_follow, judge_follow
from engine.rules import PRESET_VALUES, Rules, preset
from engine.trick import check_trick, resolve_trick
from engine.trump import Trump, TrumpOrder, trump_order


@st.composite
def tricks(draw: Any) -> tuple[Rules, TrumpOrder, int, list[list[int]], dict[int, list[int]], random.Random]:
    """A deal of four hands and a trick: a lead of one effective suit and, for
    each follower, either the engine's example follow or random cards."""
    rules = preset(draw(st.sampled_from(sorted(PRESET_VALUES))))
    order = trump_order(Trump(draw(st.integers(0, 12)), draw(st.sampled_from([None, 0, 1, 2, 3]))), rules)
    rnd = draw(st.randoms(use_true_random=False))
    deck = [k for k in range(54) for _ in range(rules.decks)]
    rnd.shuffle(deck)
    size = rules.hand_size
    leader = draw(st.integers(0, 3))
    hands = {(leader + i) % 4: deck[i * size : (i + 1) * size] for i in range(4)}
    by_suit: dict[int, list[int]] = {}
    for card in hands[leader]:
        by_suit.setdefault(order.suit[card], []).append(card)
    suit = rnd.choice(sorted(by_suit))
    pool = sorted(by_suit[suit], key=lambda c: (-Counter(by_suit[suit])[c], rnd.random()))
    n = rnd.randint(1, min(6, len(pool)))
    plays = [pool[:n]]
    for i in range(1, 4):
        hand = hands[(leader + i) % 4]
        if rnd.random() < 0.6:
            plays.append(list(judge_follow(check_follow(plays[0], hand, None, order, rules)).example))
        else:
            plays.append(rnd.sample(hand, n))
    return rules, order, leader, plays, hands, rnd


@settings(max_examples=150, deadline=None)
@given(tricks())
def test_the_winner_is_one_of_the_four_seats(case: Any) -> None:
    rules, order, leader, plays, hands, _ = case
    result = resolve_trick(check_trick(leader, plays, order, rules, hands))
    assert result.winner in range(4)
    winning = next(p for p in result.plays if p.seat == result.winner)
    assert winning.role in ("lead", "follow", "ruff")
    assert winning.units is not None  # the winner has the lead's structure
    assert result.points == sum(total_points(p) for p in plays)
    # the last play that beat the best so far is the winner's (or nobody beat the lead)
    beaters = [p.seat for p in result.plays if p.beats_previous_best]
    assert result.winner == (beaters[-1] if beaters else leader)
    # every follow with a hand is judged, and agrees with /v1/follow
    for i, verdict in enumerate(result.plays[1:], start=1):
        assert verdict.legal == judge_follow(check_follow(plays[0], hands[verdict.seat], plays[i], order, rules)).legal


@settings(max_examples=150, deadline=None)
@given(tricks())
def test_reordering_cards_inside_plays_changes_nothing(case: Any) -> None:
    rules, order, leader, plays, hands, rnd = case
    first = resolve_trick(check_trick(leader, plays, order, rules, hands))
    shuffled = [list(p) for p in plays]
    for p in shuffled:
        rnd.shuffle(p)
    assert resolve_trick(check_trick(leader, shuffled, order, rules, hands)) == first


@settings(max_examples=100, deadline=None)
@given(tricks())
def test_a_play_never_beats_its_equal(case: Any) -> None:
    """Ties go to the earlier play: a play never beats a copy of itself played
    before it, and of two plays, each cannot beat the other whichever comes first
    (copies of a card beyond the decks allowed: only the comparison is tested)."""
    rules, order, leader, plays, _, _ = case
    lead = plays[0]

    def winner(*later: list[int]) -> int:
        result = resolve_trick(check_trick(leader, [lead, *later], order, rules, copies=False))
        return (result.winner - leader) % 4

    for play in plays:
        assert winner(play, play) != 2
    for a in plays[1:]:
        for b in plays[1:]:
            assert not (winner(a, b) == 2 and winner(b, a) == 2)


@pytest.mark.parametrize(
    ("plays", "copies", "paths"),
    [
        (["3S 4S", "4S", "5S 6S", "6S 7S 8S"], True, [("plays", 1), ("plays", 3)]),
        (["3S", "3S", "3S", "6S"], True, [("plays", 2, 0)]),  # three 3S with two decks
        (["3S", "3S", "3S", "6S"], False, None),  # the caller counted the copies (check_kitty_trick)
        (["3S 4H", "4S 5S", "5S 6S", "6S 7S"], False, [("plays", 0, 1)]),  # 4H is trump
    ],
)
def test_check_trick_problems(plays: list[str], copies: bool, paths: Any) -> None:
    """``check_trick`` reports every problem at its path; ``copies`` False leaves
    the copies to the caller (``check_kitty_trick`` counts them with the kitty)."""
    rules = preset("two-deck")
    order = trump_order(Trump(8, 1), rules)  # playing 10, hearts trump
    cards = [[parse_card(c) for c in p.split()] for p in plays]
    if paths is None:
        assert resolve_trick(check_trick(0, cards, order, rules, copies=copies)).winner == 3  # 6S is the highest
        return
    with pytest.raises(InvalidInput) as err:
        check_trick(0, cards, order, rules, copies=copies)
    assert [p.path for p in err.value.problems] == paths
