"""The trick and follow engines' caches give what the uncached rules give
(docs/rules.md §4, §5, §6), whatever was asked before them.

The measures of plays are cached by the lead's form, not its cards.  These
tests run many deals of every preset through one warm process and compare each
warm answer with the cold one (``resolve_trick``, with and without the
hands), so a key that forgot what a result depends on shows
up as a mismatch on a later deal with another trump.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import FrozenInstanceError, dataclass
from typing import Any

import pytest

from engine import caches
from engine.follow import check_follow, judge_follow
from engine.lead import lead_of
from engine.records import quick_init
from engine.rules import PRESET_VALUES, Rules, preset, rules_from_json
from engine.trick import PlayVerdict, Trick, TrickResult, check_trick, resolve_trick
from engine.trump import Trump, TrumpOrder, trump_order

# every preset, and option sets that change how plays compare (docs/rules.md §6)
RULE_SETS: list[Rules] = [preset(name) for name in sorted(PRESET_VALUES)] + [
    rules_from_json({"preset": "four-deck", "throw_comparison": "all_units"}),
    rules_from_json({"preset": "three-deck", "throw_comparison": "highest_card"}),
    rules_from_json({"preset": "two-deck", "wider_shape_beats": True, "ace_low_tractor": True}),
]


def _lead_of(rnd: random.Random, hand: list[int], order: TrumpOrder) -> list[int]:
    """A lead from ``hand``: one effective suit, 1 to 6 cards, copies first."""
    by_suit: dict[int, list[int]] = {}
    for card in hand:
        by_suit.setdefault(order.suit[card], []).append(card)
    suit = rnd.choice(sorted(by_suit))
    counts = Counter(by_suit[suit])
    pool = sorted(by_suit[suit], key=lambda c: (-counts[c] if rnd.random() < 0.5 else 0, rnd.random()))
    return pool[: rnd.randint(1, min(6, len(pool)))]


def _deals(count: int, seed: int) -> Any:
    """(rules, order, leader, plays, hands) for ``count`` random tricks: a few
    trumps per rule set, so the same cards recur under many orders."""
    rnd = random.Random(seed)
    for _ in range(count):
        rules = rnd.choice(RULE_SETS)
        order = trump_order(Trump(rnd.choice([3, 8, 11]), rnd.choice([None, 0, 1, 2, 3])), rules)
        deck = [k for k in range(54) for _ in range(rules.decks)]
        rnd.shuffle(deck)
        size = rules.hand_size
        leader = rnd.randrange(4)
        hands = {(leader + i) % 4: deck[i * size : (i + 1) * size] for i in range(4)}
        lead = _lead_of(rnd, hands[leader], order)
        plays = [lead]
        for i in range(1, 4):
            hand = hands[(leader + i) % 4]
            if rnd.random() < 0.5:
                plays.append(list(judge_follow(check_follow(lead, hand, None, order, rules)).example))
            else:
                plays.append(rnd.sample(hand, len(lead)))
        yield rules, order, leader, plays, hands


def _answers(deal: tuple[Rules, TrumpOrder, int, list[list[int]], dict[int, list[int]]]) -> tuple[object, ...]:
    """Everything the trick engine says of a deal: the whole verdict with the
    hands (every follow judged), and without them."""
    rules, order, leader, plays, hands = deal
    return (
        resolve_trick(check_trick(leader, plays, order, rules, hands)),
        resolve_trick(check_trick(leader, plays, order, rules)),
    )


def test_cached_answers_are_the_cold_answers() -> None:
    """A warm process (many rule sets and trumps before) answers as a cold one:
    every answer is worked out warm in one order, then again after emptying
    every cache (``engine.caches.clear``) in the reverse order."""
    deals = list(_deals(600, 11))
    seen_forms = {lead_of(tuple(sorted(d[3][0])), d[1], d[0].follow_patterns).form.shapes for d in deals}
    warm = [_answers(deal) for deal in deals]
    caches.clear()
    cold = [_answers(deal) for deal in reversed(deals)][::-1]
    for deal, w, c in zip(deals, warm, cold, strict=True):
        assert w == c, deal
    # singles, pairs, tuples with singles and tractors were all met
    assert {((1, 1),), ((2, 1),)} <= seen_forms
    assert any(length > 1 for shapes in seen_forms for _, length in shapes)
    assert any(len(shapes) > 1 and all(length == 1 for _, length in shapes) for shapes in seen_forms)


# --- engine.records --------------------------------------------------------------------


@quick_init
@dataclass(frozen=True, slots=True)
class _Quick:
    a: int
    b: tuple[int, ...]
    c: str | None = None


@dataclass(frozen=True, slots=True)
class _Plain:
    a: int
    b: tuple[int, ...]
    c: str | None = None


def test_quick_init_builds_the_same_frozen_record() -> None:
    for args, kwargs in [((1, (2,)), {}), ((1, (2,), "x"), {}), ((1,), {"b": (3,), "c": "y"})]:
        quick, plain = _Quick(*args, **kwargs), _Plain(*args, **kwargs)  # type: ignore[arg-type]
        assert (quick.a, quick.b, quick.c) == (plain.a, plain.b, plain.c)
        assert repr(quick).replace("_Quick", "_Plain") == repr(plain)
        assert quick == _Quick(*args, **kwargs)  # type: ignore[arg-type]
        assert hash(quick) == hash(_Quick(*args, **kwargs))  # type: ignore[arg-type]
        with pytest.raises(FrozenInstanceError):
            quick.a = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        _Quick(1)  # type: ignore[call-arg]


def test_play_verdicts_and_results_are_records_of_their_own_type() -> None:
    """A trick's records, and the checked trick, are frozen msgspec structs (built on every request):
    read-only, and unequal to a plain tuple of the same values."""
    rules = preset("two-deck")
    trick = Trick(0, [[1]], trump_order(Trump(0, 0), rules), rules)
    assert trick.hands is None
    with pytest.raises(AttributeError):
        trick.leader = 1  # type: ignore[misc]
    verdict = PlayVerdict(0, (1,), "lead", False, None, (), None)
    assert verdict.units is None
    with pytest.raises(AttributeError):
        verdict.role = "follow"  # type: ignore[misc]
    assert verdict != (0, (1,), "lead", False, None, (), None)
    assert verdict == PlayVerdict(0, (1,), "lead", False, None, (), None)
    result = TrickResult(0, 0, (), 0, 0, (verdict,))
    assert result != (0, 0, (), 0, 0, (verdict,))
    assert hash(result) == hash(TrickResult(0, 0, (), 0, 0, (PlayVerdict(0, (1,), "lead", False, None, (), None),)))


def test_quick_init_refuses_what_it_cannot_mirror() -> None:
    @dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    with pytest.raises(TypeError):
        quick_init(Checked)
