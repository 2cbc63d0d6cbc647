"""The shortcuts of the request path (bench/RESULTS.md) answer exactly as the
code they stand in for: display ranks and sort keys, the in-hand pre-check,
cached wordings, the cached Accept-Language choice."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import caches
from engine.cards import CARD_NAMES, KINDS, card_str
from engine.follow import Requirement, check_follow, judge_follow
from engine.rules import PRESET_VALUES, preset, rules_from_json
from engine.shapes import Shape, in_hand
from engine.suit import suit_view
from engine.trump import TRUMP, Trump, trump_order
from service.i18n import negotiate


def _suit_place(suit: int) -> int:
    return 0 if suit == TRUMP else 1 + suit


@pytest.mark.parametrize("name", list(PRESET_VALUES))
def test_display_rank_sorts_trumps_then_suits_by_power(name: str) -> None:
    """Trumps first, then S, H, C, D; higher power first; then by kind."""
    rules = preset(name)
    rng = random.Random(name)
    for level in range(13):
        for suit in (None, 0, 1, 2, 3):
            order = trump_order(Trump(level, suit), rules)
            cards = [k for k in range(KINDS) for _ in range(rules.decks)]
            rng.shuffle(cards)
            assert order.sorted(cards) == sorted(cards, key=lambda k: (_suit_place(order.suit[k]), -order.power[k], k))


def test_card_names_are_card_str() -> None:
    assert CARD_NAMES == tuple(card_str(k) for k in range(KINDS))


def _in_hand_slowly(cards: list[int], hand: list[int]) -> bool:
    return not (Counter(cards) - Counter(hand))


@settings(max_examples=300)
@given(st.lists(st.integers(0, 8), max_size=6), st.lists(st.integers(0, 8), max_size=10))
def test_in_hand_counts_copies(cards: list[int], hand: list[int]) -> None:
    assert in_hand(cards, hand) == _in_hand_slowly(cards, hand)


def _wordings(req: Requirement) -> object:
    structure = req.structure
    return req.describe(), None if structure is None else structure.pattern()


def test_cached_follow_wordings_are_the_fresh_ones() -> None:
    """Requirement.describe and Structure.text are cached by value: for many
    random follows (seed 000's four-deck lists and the generic rule), the
    cached words (in a warm process) are those built afresh after emptying
    every cache (``engine.caches.clear``)."""
    rng = random.Random(5)
    checked: list[tuple[Requirement, object]] = []
    for name in ("two-deck", "four-deck", "four-deck-cgc"):
        rules = preset(name)
        for _ in range(40):
            order = trump_order(Trump(rng.randrange(13), rng.choice([None, 0, 1, 2, 3])), rules)
            deck = [k for k in range(KINDS) for _ in range(rules.decks)]
            rng.shuffle(deck)
            suit = rng.choice([0, 1, 2, 3, 4])
            pool = [c for c in deck if order.suit[c] == suit]
            size = rng.choice([1, 2, 4, 6, 8])
            if len(pool) < size * 2:
                continue
            lead = pool[:size]
            if len({order.suit[c] for c in lead}) != 1:
                continue
            rest = list(deck)
            for card in lead:
                rest.remove(card)
            hand = rest[: rules.hand_size]
            req = judge_follow(check_follow(lead, hand, None, order, rules)).required
            checked.append((req, _wordings(req)))
    caches.clear()
    for req, warm in checked:
        assert _wordings(req) == warm, req
    assert len(checked) > 50


@pytest.mark.parametrize(
    "header",
    [None, "", "zh", "zh-CN,zh;q=0.9,en;q=0.8", "en-US,en;q=0.9", "fr, zh;q=0.5", "de", "*", "zh;q=0, en",
     "en;q=0.2, zh;q=0.3", "zh-TW", "EN", "x" * 200],
)
def test_cached_language_choice_is_the_uncached_one(header: str | None) -> None:
    assert negotiate(header) == negotiate.__wrapped__(header)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["two-deck", "three-deck", "four-deck"]),
    st.integers(0, 12),
    st.sampled_from([None, 0, 1, 2, 3]),
    st.integers(0, 4),
    st.randoms(use_true_random=False),
)
def test_layout_shortcuts_answer_as_the_long_way(
    name: str, level: int, trump_suit: int | None, suit: int, rnd: random.Random
) -> None:
    """SuitView.counts_in counts a suit's cards as counts does on the filtered cards;
    a protect view's spots are those
    whose every kind is held exactly the shape's width."""
    rules = rules_from_json({"preset": name, "ace_low_tractor": rnd.random() < 0.3})
    order = trump_order(Trump(level, trump_suit), rules)
    lay = suit_view(order, suit)
    deck = [k for k in range(KINDS) for _ in range(rules.decks)]
    hand = rnd.sample(deck, rnd.randint(0, 60))
    counts = lay.counts_in(hand)
    assert counts == lay.counts([c for c in hand if order.suit[c] == suit])
    assert lay.counts_in(bytes(hand)) == counts  # a bytes, as check_throw hands it, read as it is
    stray = [*hand, rnd.randint(KINDS, 255)]  # a byte that is no kind is never counted as one:
    if any(order.suit[c] == suit for c in hand):  # among the suit's cards it raises
        with pytest.raises(IndexError):
            lay.counts_in(stray)
    else:  # in a hand void of the suit (told by its kinds alone) it is not looked at
        assert lay.counts_in(stray) == counts == (0,) * len(lay.kinds)
    if not lay.kinds:
        return
    for shape in (Shape(1), Shape(2), Shape(3), Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(4, 2)):
        spots = lay.spots(counts, shape.width, shape.length)
        exact = [(at, rank) for at, rank in spots if all(counts[i] == shape.width for i in at)]
        assert suit_view(order, suit, True).spots(counts, shape.width, shape.length) == exact
