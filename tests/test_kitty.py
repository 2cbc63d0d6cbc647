"""The kitty 抠底 multiplier (engine.kitty; docs/rules.md §7): every worked example of
§7, every multiplier kind, who digs, and the transfer kind."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import RANKS, SUITS, parse_card, parse_rank, parse_suit, total_points
from engine.errors import InvalidInput
from engine.kitty import check_kitty, kitty_result
from engine.rules import Rules, preset, rules_from_json
from engine.trump import Trump
from tests.helpers import said


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def trump(level: str, suit: str | None) -> Trump:
    return Trump(parse_rank(level), None if suit is None else parse_suit(suit))


def rules(name: str, **overrides: Any) -> Rules:
    return rules_from_json({"preset": name, **overrides}) if overrides else preset(name)


# kitty of 25 points (K + 10 + 5) padded to 8 cards: every multiplier shows in awarded
KITTY8 = cards("KC 10D 5C 3C 4C 6C 7C 8C")
KITTY6 = cards("KC 10D 5C 3C 4C 6C")

# (case, rules, trump, last lead, multiplier, size of the unit that set it)
# Playing 2 with hearts trump unless said otherwise, so spades are a plain suit.
MULTIPLIER_CASES = [
    # power_of_two: seed 001 second rule / seed 004, docs/rules.md §7
    ("p2 single (seed 001)", rules("two-deck"), trump("2", "H"), "7S", 2, 1),
    ("p2 pair 44 (seed 001: 2^2 = 4)", rules("two-deck"), trump("2", "H"), "4S 4S", 4, 2),
    ("p2 triple (docs/rules.md §7: 8)", rules("three-deck", kitty_multiplier="power_of_two"), trump("2", "H"),
     "9S 9S 9S", 8, 3),
    ("p2 4455 (seed 001: 16)", rules("two-deck"), trump("2", "H"), "4S 4S 5S 5S", 16, 4),
    ("p2 555 (seed 001: 8)", rules("three-deck", kitty_multiplier="power_of_two"), trump("2", "H"),
     "5S 5S 5S", 8, 3),
    ("p2 445566 (seed 001: 64)", rules("two-deck"), trump("2", "H"), "4S 4S 5S 5S 6S 6S", 64, 6),
    ("p2 444555 (seed 001: 64)", rules("three-deck", kitty_multiplier="power_of_two"), trump("2", "H"),
     "4S 4S 4S 5S 5S 5S", 64, 6),
    ("p2 throw AKQJ109877 → 77 (seed 001: 4)", rules("two-deck"), trump("2", "H"),
     "AS KS QS JS 10S 9S 8S 7S 7S", 4, 2),
    ("p2 throw AKQJ → single (seed 001: 2)", rules("two-deck"), trump("2", "H"), "AS KS QS JS", 2, 1),
    ("p2 throw AAJJ → pair (seed 001: 4)", rules("two-deck"), trump("2", "H"), "AS AS JS JS", 4, 2),
    ("p2 44556677 capped at 64 (seed 001: 最大64倍)", rules("two-deck"), trump("2", "H"),
     "4S 4S 5S 5S 6S 6S 7S 7S", 64, 8),
    ("p2 kitty_cap 128 lets 256 to 128", rules("two-deck", kitty_cap=128), trump("2", "H"),
     "4S 4S 5S 5S 6S 6S 7S 7S", 128, 8),
    ("p2 trump tractor through level cards (seed 000: 主10 副10)", rules("two-deck"), trump("10", "H"),
     "10H 10H 10S 10S", 16, 4),
    ("p2 joker pair, no-trump", rules("one-deck", decks=2, kitty_size=8), trump("5", None), "BJ BJ", 4, 2),
    # linear: seed 001 first rule
    ("linear single (seed 001: 2)", rules("one-deck-lianzhong"), trump("2", "H"), "AS", 2, 1),
    ("linear run of singles (seed 001: 单牌的连牌 2)", rules("one-deck-lianzhong"), trump("2", "H"),
     "AS KS QS", 2, 1),
    ("linear pair (seed 001: 4)", rules("two-deck", kitty_multiplier="linear"), trump("2", "H"), "8S 8S", 4, 2),
    ("linear triple (seed 001: 6)", rules("three-deck", kitty_multiplier="linear"), trump("2", "H"),
     "8S 8S 8S", 6, 3),
    ("linear quad (seed 001: 8)", rules("four-deck-cgc", kitty_multiplier="linear"), trump("3", "H"),
     "8S 8S 8S 8S", 8, 4),
    ("linear tractor 4455 (seed 001: 2×4)", rules("two-deck", kitty_multiplier="linear"), trump("2", "H"),
     "4S 4S 5S 5S", 8, 4),
    ("linear tractor 445566 (seed 001: 2×6)", rules("two-deck", kitty_multiplier="linear"), trump("2", "H"),
     "4S 4S 5S 5S 6S 6S", 12, 6),
    # flat (jding92/shengji-online): single 2, any tuple 4, any tractor 8
    ("flat single", rules("two-deck", kitty_multiplier="flat"), trump("2", "H"), "AS", 2, 1),
    ("flat singles thrown", rules("two-deck", kitty_multiplier="flat"), trump("2", "H"), "AS KS QS", 2, 1),
    ("flat pair", rules("two-deck", kitty_multiplier="flat"), trump("2", "H"), "8S 8S", 4, 2),
    ("flat pair in a throw", rules("two-deck", kitty_multiplier="flat"), trump("2", "H"), "AS 8S 8S", 4, 2),
    ("flat triple (any tuple)", rules("three-deck", kitty_multiplier="flat"), trump("2", "H"), "8S 8S 8S", 4, 3),
    ("flat quad (any tuple)", rules("four-deck-cgc", kitty_multiplier="flat"), trump("3", "H"), "8S 8S 8S 8S", 4, 4),
    ("flat tractor", rules("two-deck", kitty_multiplier="flat"), trump("2", "H"), "4S 4S 5S 5S", 8, 4),
    ("flat long tractor", rules("two-deck", kitty_multiplier="flat"), trump("2", "H"), "4S 4S 5S 5S 6S 6S 7S 7S", 8, 8),
    ("flat tractor beside a wider triple", rules("three-deck", kitty_multiplier="flat"), trump("2", "H"),
     "AS AS AS 4S 4S 5S 5S", 8, 4),
    # lianzhong: seed 003
    ("lianzhong Titanic L=2 (seed 003: 18)", rules("three-deck"), trump("2", "H"), "4S 4S 4S 5S 5S 5S", 18, 6),
    ("lianzhong Titanic L=3 (2·3^3)", rules("three-deck"), trump("2", "H"),
     "4S 4S 4S 5S 5S 5S 6S 6S 6S", 54, 9),
    ("lianzhong triple (seed 003: 6)", rules("three-deck"), trump("2", "H"), "9S 9S 9S", 6, 3),
    ("lianzhong two triples (seed 003: 两副三对乘6)", rules("three-deck"), trump("2", "H"),
     "AS AS AS JS JS JS", 6, 3),
    ("lianzhong triple beats a longer tractor in the list (seed 003: 不再计算其他牌型)",
     rules("three-deck"), trump("2", "H"), "AS AS AS 4S 4S 5S 5S 6S 6S", 6, 3),
    ("lianzhong tractor L=2 (seed 003: 8)", rules("two-deck-lianzhong"), trump("2", "H"), "4S 4S 5S 5S", 8, 4),
    ("lianzhong tractor L=3 (2·2^3)", rules("two-deck-lianzhong"), trump("2", "H"),
     "4S 4S 5S 5S 6S 6S", 16, 6),
    ("lianzhong pair (seed 003: 4)", rules("two-deck-lianzhong"), trump("2", "H"), "9S 9S", 4, 2),
    ("lianzhong two pairs (seed 003: 两对乘4)", rules("three-deck"), trump("2", "H"), "AS AS JS JS", 4, 2),
    ("lianzhong single (seed 003: 2)", rules("two-deck-lianzhong"), trump("2", "H"), "9S", 2, 1),
    ("lianzhong Titanic through level cards (seed 003: 副5主5)", rules("three-deck"), trump("5", "H"),
     "5S 5S 5S 5H 5H 5H", 18, 6),
    # cgc (seed 002), trick won with trumps: 2^width
    ("cgc single trump (seed 002: 单扣底乘2)", rules("four-deck-cgc"), trump("3", "H"), "AH", 2, 1),
    ("cgc pair trump (seed 002: 雙扣底乘4)", rules("four-deck-cgc"), trump("3", "H"), "AH AH", 4, 2),
    ("cgc triple trump (seed 002: 三扣底乘8)", rules("four-deck-cgc"), trump("3", "H"), "AH AH AH", 8, 3),
    ("cgc quad trump (seed 002: 四扣底乘16)", rules("four-deck-cgc"), trump("3", "H"), "AH AH AH AH", 16, 4),
    ("cgc pair tractor: width 2 → 4", rules("four-deck-cgc"), trump("3", "H"), "QH QH KH KH", 4, 4),
    ("cgc quad tractor: width 4 → 16", rules("four-deck-cgc"), trump("3", "H"),
     "QH QH QH QH KH KH KH KH", 16, 8),
    # transfer (seed 000 四副): k = cards of the largest unit
    ("transfer single k=1", rules("four-deck"), trump("3", "H"), "AH", 1, 1),
    ("transfer pair k=2", rules("four-deck"), trump("3", "H"), "AH AH", 2, 2),
    ("transfer triple k=3", rules("four-deck"), trump("3", "H"), "AH AH AH", 3, 3),
    ("transfer 2-pair tractor k=4 (每多抓一张多乘1)", rules("four-deck"), trump("3", "H"), "QH QH KH KH", 4, 4),
]


@pytest.mark.parametrize(
    ("case", "r", "t", "lead", "multiplier", "unit_size"), MULTIPLIER_CASES, ids=[c[0] for c in MULTIPLIER_CASES]
)
def test_multiplier(case: str, r: Rules, t: Trump, lead: str, multiplier: int, unit_size: int) -> None:
    kitty = KITTY8[: r.kitty_size]
    result = kitty_result(check_kitty(r, t, 0, cards(lead), 1, kitty, defender_points=100, won_with_trumps=True))
    assert result.multiplier == multiplier, case
    assert result.unit is not None and result.unit.size == unit_size
    assert result.winner_side == "defenders"
    if r.kitty_multiplier != "transfer":
        assert result.awarded == multiplier * result.kitty_points
        assert result.to == ("defenders" if result.awarded else "none")
        assert result.defender_points_after == 100 + result.awarded
    assert result.reasons and all(x.code.startswith("kitty.") and said(x, "zh-Hans") for x in result.reasons)


def test_seed_001_worked_award() -> None:
    """Seed 001: the defenders dig with a pair; a 25-point kitty counts 4 times."""
    result = kitty_result(check_kitty(rules("two-deck"), trump("2", "H"), 0, cards("7S 7S"), 3, KITTY8, defender_points=60))
    assert (result.multiplier, result.kitty_points, result.awarded, result.to) == (4, 25, 100, "defenders")
    assert result.defender_points_after == 160
    assert [u.size for u in result.lead_units] == [2]
    assert result.won_with_trumps is None  # a plain lead, not said: unknown (and not needed)


def test_cgc_plain_suit_dig_is_not_multiplied() -> None:
    """Seed 002: 副牌扣底不翻倍 — the kitty counts once (×1)."""
    result = kitty_result(check_kitty(
        rules("four-deck-cgc"), trump("3", "H"), 0, cards("AS AS"), 1, KITTY8, won_with_trumps=False
    ))
    assert (result.multiplier, result.awarded, result.to, result.unit) == (1, 25, "defenders", None)
    assert result.reasons[-1].code == "kitty.multiplier.cgc_plain_suit"


def test_cgc_trump_lead_implies_won_with_trumps() -> None:
    result = kitty_result(check_kitty(rules("four-deck-cgc"), trump("3", "H"), 0, cards("BJ BJ"), 1, KITTY8))
    assert result.won_with_trumps and result.multiplier == 4


def test_cgc_needs_won_with_trumps_for_a_plain_lead() -> None:
    with pytest.raises(InvalidInput) as err:
        kitty_result(check_kitty(rules("four-deck-cgc"), trump("3", "H"), 0, cards("AS AS"), 1, KITTY8))
    assert err.value.problems[0].path == ("won_with_trumps",)


def test_won_with_trumps_false_contradicts_a_trump_lead() -> None:
    with pytest.raises(InvalidInput) as err:
        kitty_result(check_kitty(rules("four-deck-cgc"), trump("3", "H"), 0, cards("AH"), 1, KITTY8, won_with_trumps=False))
    assert err.value.problems[0].path == ("won_with_trumps",)


def test_dealer_side_wins_without_dig_rule_moves_nothing() -> None:
    """Seeds 001/003: 最后一圈牌如果是庄家方大，不抠底."""
    result = kitty_result(check_kitty(rules("two-deck"), trump("2", "H"), 1, cards("4S 4S 5S 5S"), 3, KITTY8,
                          defender_points=75))
    assert (result.multiplier, result.awarded, result.to, result.unit) == (0, 0, "none", None)
    assert result.winner_side == "dealer"
    assert result.defender_points_after == 75
    assert [r.code for r in result.reasons] == ["kitty.kept_by_dealer"]


@pytest.mark.parametrize(
    ("before", "after"),
    [(150, 50), (40, -60)],  # the defenders' points may go below zero (docs/rules.md §7)
)
def test_dealer_side_digs_under_kitty_dig_by_dealer(before: int, after: int) -> None:
    """Seed 002 / docs/rules.md §7 kitty_dig_by_dealer: what the dealer side digs counts against the defenders."""
    result = kitty_result(check_kitty(rules("four-deck-cgc"), trump("3", "H"), 0, cards("AH AH"), 2, KITTY8,
                          defender_points=before))
    assert (result.multiplier, result.awarded, result.to) == (4, 100, "dealer")
    assert result.defender_points_after == after
    assert result.reasons[0].code == "kitty.dug_by_dealer"


def test_dealer_dig_option_on_other_kinds() -> None:
    r = rules("two-deck", kitty_dig_by_dealer=True)
    result = kitty_result(check_kitty(r, trump("2", "H"), 0, cards("7S"), 0, KITTY8, defender_points=30))
    assert (result.multiplier, result.awarded, result.to, result.defender_points_after) == (2, 50, "dealer", -20)


def test_empty_kitty_moves_nothing() -> None:
    result = kitty_result(check_kitty(rules("two-deck"), trump("2", "H"), 0, cards("7S 7S"), 1, cards("3C 4C")))
    assert (result.multiplier, result.kitty_points, result.awarded, result.to) == (4, 0, 0, "none")


def test_seat_numbers_decide_the_sides() -> None:
    """Teams are {0, 2} and {1, 3} (docs/rules.md §1)."""
    for dealer in range(4):
        for winner in range(4):
            result = kitty_result(check_kitty(rules("two-deck"), trump("2", "H"), dealer, cards("7S"), winner, KITTY8))
            assert result.to == ("none" if dealer % 2 == winner % 2 else "defenders")


# --- transfer (seed 000 四副, seed 002 §胜负判断 3) ---------------------------------


@pytest.mark.parametrize(
    ("lead", "winner", "before", "moved_from", "points", "k", "after"),
    [
        # defenders win: they take the dealer side's 400 − 150 = 250 points × k
        ("AH", 1, 150, "dealer", 250, 1, 400),
        ("AH AH", 1, 150, "dealer", 250, 2, 650),
        ("QH QH KH KH", 3, 150, "dealer", 250, 4, 1150),
        # the dealer side wins: it takes the defenders' points × k (單張扣低分值*1)
        ("AH", 0, 150, "defenders", 150, 1, 0),
        ("AH AH", 2, 150, "defenders", 150, 2, -150),
        ("AH AH AH", 0, 0, "defenders", 0, 3, 0),
    ],
)
def test_transfer(lead: str, winner: int, before: int, moved_from: str, points: int, k: int, after: int) -> None:
    result = kitty_result(check_kitty(rules("four-deck"), trump("3", "H"), 0, cards(lead), winner, defender_points=before))
    assert result.transfer is not None
    assert (result.transfer.from_side, result.transfer.points, result.transfer.multiplier) == (moved_from, points, k)
    assert result.transfer.to_side == result.winner_side
    assert result.awarded == result.transfer.amount == points * k
    assert result.to == (result.winner_side if result.awarded else "none")
    assert result.multiplier == k
    assert result.defender_points_after == after


def test_transfer_with_a_kitty_leaves_the_kitty_out() -> None:
    """docs/rules.md §7: the dealer side's points are the total less the defenders' and the kitty's."""
    r = rules("four-deck", kitty_size=8)
    result = kitty_result(check_kitty(r, trump("3", "H"), 0, cards("AH"), 1, KITTY8, defender_points=175))
    assert result.transfer is not None and result.transfer.points == 400 - 25 - 175


def test_transfer_needs_defender_points() -> None:
    with pytest.raises(InvalidInput) as err:
        kitty_result(check_kitty(rules("four-deck"), trump("3", "H"), 0, cards("AH"), 1))
    assert err.value.problems[0].path == ("defender_points",)


@pytest.mark.parametrize("points", [-5, 405])
def test_transfer_points_must_be_possible(points: int) -> None:
    with pytest.raises(InvalidInput) as err:
        kitty_result(check_kitty(rules("four-deck"), trump("3", "H"), 0, cards("AH"), 1, defender_points=points))
    assert err.value.problems[0].path == ("defender_points",)


# --- bad input --------------------------------------------------------------------------


def _problem_paths(**kw: Any) -> list[tuple[str | int, ...]]:
    args: dict[str, Any] = {
        "rules": rules("two-deck"), "trump": trump("2", "H"), "dealer": 0,
        "last_lead": cards("7S 7S"), "winner": 1, "kitty": KITTY8,
    } | kw
    with pytest.raises(InvalidInput) as err:
        kitty_result(check_kitty(args.pop("rules"), args.pop("trump"), args.pop("dealer"), args.pop("last_lead"),
                     args.pop("winner"), args.pop("kitty"), **args))
    return [p.path for p in err.value.problems]


def test_kitty_larger_than_kitty_size() -> None:
    assert _problem_paths(kitty=KITTY8 + cards("9C")) == [("kitty",)]
    assert _problem_paths(rules=rules("one-deck"), kitty=cards("3C 4C 5C 6C 7C 8C 9C"),
                          last_lead=cards("7S")) == [("kitty",)]


def test_points_not_a_multiple_of_five() -> None:
    assert _problem_paths(defender_points=42) == [("defender_points",)]


def test_empty_or_mixed_lead() -> None:
    assert _problem_paths(last_lead=[]) == [("last_lead",)]
    assert _problem_paths(last_lead=cards("7S 7D")) == [("last_lead",)]


def test_too_many_copies_across_kitty_and_lead() -> None:
    # two decks: a third 3C (kitty has one) is one too many
    assert _problem_paths(last_lead=cards("3C 3C")) == [("last_lead", 1)]


def test_seats_out_of_range() -> None:
    assert _problem_paths(dealer=4, winner=-1) == [("dealer",), ("winner",)]


def test_lead_path_is_configurable() -> None:
    assert _problem_paths(last_lead=[], lead_path=("last_trick", "plays", 0)) == [("last_trick", "plays", 0)]


def test_huge_kitty_cap_is_refused_not_overflowed() -> None:
    lead = [parse_card(RANKS[r] + "S") for r in range(1, 12) for _ in range(4)]  # 3333..KKKK: 44 cards
    with pytest.raises(InvalidInput) as err:
        kitty_result(check_kitty(rules("four-deck-cgc", kitty_multiplier="power_of_two", kitty_cap=2**62),
                     trump("2", "H"), 0, lead, 1, KITTY8))
    assert err.value.problems[0].path == ("rules", "kitty_cap")


# --- properties -------------------------------------------------------------------------

PRESETS = ["one-deck", "one-deck-lianzhong", "two-deck", "two-deck-constant-2", "two-deck-lianzhong",
           "three-deck", "four-deck", "four-deck-cgc"]


@st.composite
def kitty_cases(draw: st.DrawFn) -> tuple[Rules, Trump, list[int], list[int], int, int, int, bool]:
    r = preset(draw(st.sampled_from(PRESETS)))
    t = Trump(draw(st.integers(0, 12)), draw(st.sampled_from([None, 0, 1, 2, 3])))
    suit = draw(st.sampled_from(SUITS))
    ranks = draw(st.lists(st.integers(0, 12), min_size=1, max_size=12))
    lead: list[int] = []
    for rank in ranks:
        card = parse_card(RANKS[rank] + suit)
        if lead.count(card) < r.decks:
            lead.append(card)
    pool = [c for c in range(54) for _ in range(r.decks - lead.count(c))]
    picks = draw(st.lists(st.integers(0, len(pool) - 1), unique=True, max_size=r.kitty_size))
    kitty = [pool[i] for i in picks]
    points = 5 * draw(st.integers(0, (r.total_points - total_points(kitty)) // 5))
    return r, t, lead, kitty, draw(st.integers(0, 3)), draw(st.integers(0, 3)), points, draw(st.booleans())


@settings(max_examples=150, deadline=None)
@given(kitty_cases())
def test_kitty_invariants(case: tuple[Rules, Trump, list[int], list[int], int, int, int, bool]) -> None:
    """awarded = multiplier × kitty points (but for transfer); nothing moves ⇔ to is none;
    shuffling the lead or the kitty changes nothing; the defenders' score moves by awarded."""
    r, t, lead, kitty, dealer, winner, points, trumps = case
    from engine.trump import TRUMP, trump_order

    order = trump_order(t, r)
    if len({order.suit[c] for c in lead}) != 1:
        lead = [c for c in lead if order.suit[c] == order.suit[lead[0]]]
    wwt = True if order.suit[lead[0]] == TRUMP else trumps
    result = kitty_result(check_kitty(r, t, dealer, lead, winner, kitty, defender_points=points, won_with_trumps=wwt))
    shuffled_lead, shuffled_kitty = lead[:], kitty[:]
    random.Random(len(lead)).shuffle(shuffled_lead)
    random.Random(len(kitty)).shuffle(shuffled_kitty)
    again = kitty_result(check_kitty(r, t, dealer, shuffled_lead, winner, shuffled_kitty, defender_points=points,
                         won_with_trumps=wwt))
    assert again == result
    assert result.awarded >= 0 and result.multiplier >= 0
    assert (result.awarded == 0) == (result.to == "none")
    if result.kind != "transfer":
        assert result.awarded == result.multiplier * result.kitty_points
    assert result.to in ("none", result.winner_side)
    sign = {"defenders": 1, "dealer": -1, "none": 0}[result.to]
    assert result.defender_points_after == points + sign * result.awarded
