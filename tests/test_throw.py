"""Throws 甩牌 (docs/rules.md §4): table tests of engine.throw.judge_throw.

Each case cites the seed or docs/rules.md example it comes from.  Notation: cards are
space-separated; hands map seat → cards; the leader is seat 0 unless stated.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.cards import card_str, parse_card
from engine.errors import InvalidInput
from engine.rules import rules_from_json
from engine.throw import check_throw, judge_throw
from engine.trump import TRUMP, Trump, trump_order
from tests.helpers import said


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def text(cs: Any) -> str:
    return " ".join(card_str(c) for c in cs)


def judge(
    lead: str, hands: dict[int, str], *, rules: Any = "two-deck", level: str = "10", suit: str | None = "H",
    leader: int = 0,
) -> Any:
    r = rules_from_json(rules)
    order = trump_order(Trump(parse_card(level + "S") % 13, None if suit is None else "SHCD".index(suit)), r)
    return judge_throw(check_throw(leader, cards(lead), {s: cards(h) for s, h in hands.items()}, order, r))


def failed(verdict: Any) -> dict[str, list[tuple[int, str]]]:
    """Failed unit → [(seat, cards it would use)]."""
    return {
        text(f.unit.cards): [(b.seat, text(b.cards)) for b in f.beaten_by] for f in verdict.failed_units
    }


# (id, source, lead, hands, rules, level, trump suit, valid, forced play, failed units)
CASES = [
    # --- seed 000 出牌規則, playing 10 (hearts trump), a throw of spades
    ("98844-vs-J", "seed 000: 其餘某家有此花色的J，則首家必須出9",
     "9S 8S 8S 4S 4S", {1: "JS 3S 2C", 2: "7S 6S", 3: "KD KD"}, "two-deck", "10", "H",
     False, "9S", {"9S": [(1, "JS")]}),
    ("98844-vs-QQ", "seed 000: 其餘某家有此花色的QQ… 則首家必須出44 (9, 88 and 44 all fail)",
     "9S 8S 8S 4S 4S", {1: "3S", 2: "QS QS", 3: "2S"}, "two-deck", "10", "H",
     False, "4S 4S", {"8S 8S": [(2, "QS QS")], "4S 4S": [(2, "QS QS")], "9S": [(2, "QS")]}),
    ("98844-vs-55", "seed 000: 其餘某家有此花色的55，則首家必須出44",
     "9S 8S 8S 4S 4S", {1: "7S 6S", 2: "2S", 3: "5S 5S"}, "two-deck", "10", "H",
     False, "4S 4S", {"4S 4S": [(3, "5S 5S")]}),
    ("98844-stands", "seed 000: 98844 stands if nobody can beat the 9, the 88 or the 44",
     "9S 8S 8S 4S 4S", {1: "7S 6S 3S 3S", 2: "2S 2S", 3: "5S 7S"}, "two-deck", "10", "H",
     True, "9S 8S 8S 4S 4S", {}),
    ("98844-partner-J", "docs/rules.md §4: no other player, partner included",
     "9S 8S 8S 4S 4S", {2: "JS"}, "two-deck", "10", "H",
     False, "9S", {"9S": [(2, "JS")]}),
    ("98844-vs-trumps", "docs/rules.md §4: cards of other effective suits never beat a throw",
     "9S 8S 8S 4S 4S", {1: "BJ BJ 10H 10H AH", 2: "10S 10S", 3: "AD AD KD KD"}, "two-deck", "10", "H",
     True, "9S 8S 8S 4S 4S", {}),
    ("AAK", "seed 000: 副牌中 AAK 可以聯出",
     "AS AS KS", {1: "QS QS JS JS", 2: "KS 9S", 3: "3S"}, "two-deck", "10", "H",
     True, "AS AS KS", {}),
    ("AKK", "seed 000: 副牌中 AKK 可以聯出",
     "AS KS KS", {1: "AS QS QS", 2: "JS JS 9S 9S", 3: "2S"}, "two-deck", "10", "H",
     True, "AS KS KS", {}),
    ("AQQJJ", "seed 000: AQQJJ (QQJJ a tractor playing 10) 可以聯出",
     "AS QS QS JS JS", {1: "KS KS AS", 2: "9S 9S 8S 8S", 3: "7S 7S 6S 6S"}, "two-deck", "10", "H",
     True, "AS QS QS JS JS", {}),
    ("AAJJ-vs-KK", "seed 001 出牌规则 7: 有玩家出AAJJ时，若此时其他玩家有KK，则强制打出最小牌JJ",
     "AS AS JS JS", {1: "KS KS", 2: "QS", 3: "2S 2S"}, "two-deck", "2", "D",
     False, "JS JS", {"JS JS": [(1, "KS KS")]}),
    # --- throws in trumps (docs/rules.md §2 order: BJ, SJ, trump level, off-suit level (equal), A…)
    ("jokers-BJ-SJ", "docs/rules.md §2: BJ > SJ; a big joker elsewhere beats the thrown small joker",
     "BJ SJ", {2: "BJ 3H"}, "two-deck", "10", "H",
     False, "SJ", {"SJ": [(2, "BJ")]}),
    ("jokers-pair-and-single", "docs/rules.md §4: equal cards tie, a tie never beats (先出者为大)",
     "BJ BJ SJ", {1: "SJ 10H 10H", 2: "AH AH"}, "two-deck", "10", "H",
     True, "BJ BJ SJ", {}),
    ("joker-tractor-and-A", "seed 000/003: BJBJSJSJ is a tractor; a level card beats the trump A",
     "BJ BJ SJ SJ AH", {1: "10C", 3: "KH KH"}, "two-deck", "10", "H",
     False, "AH", {"AH": [(1, "10C")]}),
    ("level-tractor", "seed 003 主5副5: trump-level pair + off-level pair is a tractor; jokers beat it",
     "10H 10H 10S 10S 9H", {1: "BJ BJ SJ SJ", 3: "QH"}, "two-deck", "10", "H",
     False, "9H",
     {"10H 10H 10S 10S": [(1, "BJ BJ SJ SJ")], "9H": [(1, "BJ"), (3, "QH")]}),
    ("off-level-equal", "docs/rules.md §2: off-suit level cards are equal to each other, a tie never beats",
     "10S 10S 10C", {1: "10D 10D", 3: "10C"}, "two-deck", "10", "H",
     True, "10S 10S 10C", {}),
    ("off-level-precedence", "seed 002 / docs/rules.md §2 level_suit_precedence: S > H > C > D among off-suit 10s",
     "10C 10C 10D", {1: "10S"}, {"preset": "two-deck", "level_suit_precedence": True}, "10", "H",
     False, "10D", {"10D": [(1, "10S")]}),
    ("off-level-no-precedence", "docs/rules.md §2: the same hands without level_suit_precedence tie",
     "10C 10C 10D", {1: "10S"}, "two-deck", "10", "H",
     True, "10C 10C 10D", {}),
    ("no-trump-levels", "docs/rules.md §2 no-trump: all four level cards are equal; jokers beat them",
     "10S 10S 10H", {1: "10C 10C 10D", 2: "SJ"}, "two-deck", "10", None,
     False, "10H", {"10H": [(2, "SJ")]}),
    ("constant-2-tractor", "seed 000 四副: 主2 + 副2 is a tractor; 副5主5 (the level) beats it",
     "2H 2H 2S 2S KH", {1: "5S 5S 5H 5H", 2: "AH"}, "four-deck", "5", "H",
     False, "KH",
     {"2H 2H 2S 2S": [(1, "5H 5H 5S 5S")], "KH": [(1, "5H"), (2, "AH")]}),
    ("four-deck-trump-quad-vs-tractor", "docs/rules.md §3 wider_shape_beats: any quad beats a 2-pair tractor",
     "2H 2H 2S 2S KH KH KH", {3: "3H 3H 3H 3H"}, "four-deck", "5", "H",
     False, "2H 2H 2S 2S", {"2H 2H 2S 2S": [(3, "3H 3H 3H 3H")]}),
    # --- three decks: triples and triple tractors
    ("3d-triple-beats-pair", "docs/rules.md §4: a higher triple beats a thrown pair (it contains a higher pair)",
     "KS KS KS 9S 9S", {1: "JS JS JS", 2: "QS QS", 3: "AS"}, "three-deck", "10", "H",
     False, "9S 9S", {"9S 9S": [(1, "JS JS"), (2, "QS QS")]}),
    ("3d-higher-triple", "docs/rules.md §4: a higher triple beats a thrown triple",
     "KS KS KS 9S 9S", {2: "AS AS AS"}, "three-deck", "10", "H",
     False, "9S 9S", {"KS KS KS": [(2, "AS AS AS")], "9S 9S": [(2, "AS AS")]}),
    ("3d-triple-tractor", "seed 000/003 泰坦尼克: a higher triple tractor beats a thrown one",
     "QS QS QS JS JS JS 5S", {1: "AS AS AS KS KS KS"}, "three-deck", "10", "H",
     False, "5S",
     {"QS QS QS JS JS JS": [(1, "AS AS AS KS KS KS")], "5S": [(1, "AS")]}),
    ("3d-triple-tractor-stands", "docs/rules.md §4: pairs and a longer pair tractor do not beat a triple tractor",
     "QS QS QS JS JS JS AS", {1: "AS AS KS KS 9S 9S 8S 8S", 2: "KS"}, "three-deck", "10", "H",
     True, "QS QS QS JS JS JS AS", {}),
    ("3d-wider-shape", "docs/rules.md §3: a triple tractor of 2 beats a pair tractor of 3 whatever the ranks",
     "8S 8S 7S 7S 6S 6S AS", {1: "3S 3S 3S 4S 4S 4S"}, "three-deck", "10", "H",
     False, "8S 8S 7S 7S 6S 6S", {"8S 8S 7S 7S 6S 6S": [(1, "4S 4S 4S 3S 3S 3S")]}),
    ("3d-wider-shape-off", "docs/rules.md §3 wider_shape_beats off: a lower triple tractor does not beat it",
     "8S 8S 7S 7S 6S 6S AS", {1: "3S 3S 3S 4S 4S 4S"},
     {"preset": "three-deck", "wider_shape_beats": False}, "10", "H",
     True, "8S 8S 7S 7S 6S 6S AS", {}),
    ("3d-longer-tractor-contains", "docs/rules.md §4: a longer tractor contains a higher one of the thrown length",
     "6S 6S 5S 5S AS", {2: "9S 9S 8S 8S 7S 7S"}, "three-deck", "10", "H",
     False, "6S 6S 5S 5S", {"6S 6S 5S 5S": [(2, "9S 9S 8S 8S")]}),
    # --- four decks: quads and quad tractors
    ("4d-quad", "seed 000 四副: a higher quad beats a thrown quad",
     "AS AS AS AS 9S 9S 9S 9S KS", {1: "JS JS JS JS", 2: "QS"}, "four-deck", "5", "H",
     False, "9S 9S 9S 9S", {"9S 9S 9S 9S": [(1, "JS JS JS JS")]}),
    ("4d-quad-beats-tractor", "seed 000/002: 4張可以吃同樣張數的2張拖拉機 (wider_shape_beats)",
     "AS AS AS AS 7S 7S 8S 8S", {2: "3S 3S 3S 3S"}, "four-deck", "5", "H",
     False, "8S 8S 7S 7S", {"8S 8S 7S 7S": [(2, "3S 3S 3S 3S")]}),
    ("4d-quad-vs-tractor-off", "docs/rules.md §3 wider_shape_beats off: a quad is not a 2-pair tractor",
     "AS AS AS AS 7S 7S 8S 8S", {2: "3S 3S 3S 3S"},
     {"preset": "four-deck", "wider_shape_beats": False}, "5", "H",
     True, "AS AS AS AS 7S 7S 8S 8S", {}),
    ("4d-quad-tractor-beats-pair-tractor-of-4", "docs/rules.md §3: quad tractor of 2 > pair tractor of 4",
     "JS JS 10S 10S 9S 9S 8S 8S AS", {3: "3S 3S 3S 3S 4S 4S 4S 4S"}, "four-deck", "5", "H",
     False, "JS JS 10S 10S 9S 9S 8S 8S",
     {"JS JS 10S 10S 9S 9S 8S 8S": [(3, "4S 4S 4S 4S 3S 3S 3S 3S")]}),
    ("4d-quad-tractor-and-pair", "docs/rules.md §4: a quad alone is not a quad tractor; it contains a higher pair",
     "KS KS KS KS QS QS QS QS 4S 4S", {1: "AS AS AS AS", 2: "7S 7S 7S 7S 6S 6S 6S 6S"},
     "four-deck", "5", "H",
     False, "4S 4S", {"4S 4S": [(1, "AS AS"), (2, "7S 7S")]}),
    ("4d-quad-tractor-of-3-vs-triple-tractor-of-4", "docs/rules.md §3: quad tractor of 3 > triple tractor of 4",
     "KS KS KS QS QS QS JS JS JS 10S 10S 10S AS", {1: "3S 3S 3S 3S 4S 4S 4S 4S 6S 6S 6S 6S"},
     "four-deck", "5", "H",
     False, "KS KS KS QS QS QS JS JS JS 10S 10S 10S",
     {"KS KS KS QS QS QS JS JS JS 10S 10S 10S": [(1, "6S 6S 6S 6S 4S 4S 4S 4S 3S 3S 3S 3S")]}),
    ("4d-triple-and-pair-stand", "seed 000 四副: four copies — two Ks left elsewhere only tie",
     "AS AS AS KS KS", {1: "KS KS QS QS QS", 2: "AS"}, "four-deck", "5", "H",
     True, "AS AS AS KS KS", {}),
]


@pytest.mark.parametrize(
    ("source", "lead", "hands", "rules", "level", "suit", "valid", "forced", "failures"),
    [pytest.param(*c[1:], id=c[0]) for c in CASES],
)
def test_throw_table(
    source: str, lead: str, hands: dict[int, str], rules: Any, level: str, suit: str | None,
    valid: bool, forced: str, failures: dict[str, list[tuple[int, str]]],
) -> None:
    v = judge(lead, hands, rules=rules, level=level, suit=suit)
    assert v.valid is valid, source
    assert failed(v) == failures, source
    assert Counter(v.forced_play) == Counter(cards(forced)), source
    assert (v.forced_unit is None) is valid
    assert Counter(c for u in v.units for c in u.cards) == Counter(cards(lead))


def test_single_unit_lead_stands_even_when_beatable() -> None:
    """docs/rules.md §4: the leader may play any single unit; only throws are checked."""
    for lead in ("4S", "4S 4S", "5S 5S 4S 4S"):
        v = judge(lead, {1: "AS AS KS KS QS QS"})
        assert v.valid and v.failed_units == () and v.forced_play == tuple(cards(lead))
        assert [r.code for r in v.reasons] == ["throw.single_unit"]


def test_forced_play_is_the_lead_as_given_when_valid() -> None:
    v = judge("4S 9S 8S 8S 4S", {1: "2S"})
    assert v.valid and v.forced_play == tuple(cards("4S 9S 8S 8S 4S"))


def test_decomposition_is_reported() -> None:
    """docs/rules.md §4: largest structures first (seed 000: playing 10, QQJJ is a tractor)."""
    v = judge("AS QS QS JS JS", {})
    assert [(u.width, u.length, text(u.cards)) for u in v.units] == [(2, 2, "QS QS JS JS"), (1, 1, "AS")]
    assert v.suit == 0
    assert judge("BJ SJ", {}).suit == TRUMP


# --- forced-unit policies (docs/rules.md §4).  Lead AKK-free mix: 5544 tractor, 99 pair, A and K singles.
# Seat 1 beats the 5544 tractor with 7766; seat 2 beats 99 with JJ; nobody beats A or K.
POLICY_LEAD = "AS KS 9S 9S 5S 5S 4S 4S"
POLICY_HANDS = {1: "7S 7S 6S 6S", 2: "JS JS", 3: "2C"}


@pytest.mark.parametrize(
    ("policy", "hands", "forced", "source"),
    [
        ("lowest_failed", POLICY_HANDS, "5S 5S 4S 4S", "seeds 000/001: the failed unit whose top ranks lowest"),
        ("smallest_failed", POLICY_HANDS, "9S 9S", "seed 002 出最小的牌型及牌: fewest cards first"),
        ("smallest_unit", POLICY_HANDS, "KS", "docs/rules.md §4: the smallest unit, failed or not"),
        ("first_blocked", POLICY_HANDS, "5S 5S 4S 4S", "shengji.io: seat 1 blocks first, its unit"),
        ("first_blocked", {1: "JS JS", 2: "7S 7S 6S 6S", 3: "2C"}, "9S 9S",
         "shengji.io: now seat 1 blocks only 99"),
        ("lowest_failed", {1: "JS JS", 2: "7S 7S 6S 6S", 3: "2C"}, "5S 5S 4S 4S",
         "seeds 000/001: does not depend on who holds what"),
    ],
)
def test_forced_unit_policies(policy: str, hands: dict[int, str], forced: str, source: str) -> None:
    v = judge(POLICY_LEAD, hands, rules={"preset": "two-deck", "throw_forced_unit": policy})
    assert not v.valid
    assert text(v.forced_play) == forced, source
    assert v.forced_unit is not None and v.forced_unit.cards == v.forced_play
    assert any(r.code == f"throw.forced.{policy}" for r in v.reasons)


def test_first_blocked_counts_seats_from_the_leader() -> None:
    """shengji.io: blocking players in seat order from the leader (leader 2 → seats 3, 0, 1)."""
    rules = {"preset": "two-deck", "throw_forced_unit": "first_blocked"}
    v = judge(POLICY_LEAD, {0: "7S 7S 6S 6S", 1: "JS JS", 3: "2C"}, rules=rules, leader=2)
    assert text(v.forced_play) == "5S 5S 4S 4S"
    v = judge(POLICY_LEAD, {0: "JS JS", 1: "7S 7S 6S 6S"}, rules=rules, leader=3)
    assert text(v.forced_play) == "9S 9S"
    v = judge(POLICY_LEAD, {0: "JS JS", 2: "7S 7S 6S 6S"}, rules=rules, leader=1)
    assert text(v.forced_play) == "5S 5S 4S 4S"


def test_lowest_failed_ties_go_to_fewer_cards() -> None:
    """docs/rules.md §4 lowest_failed: equal highest cards → fewer cards.  Playing 10 (hearts trump),
    the tractor 10S10S AHAH tops at 10S, equal to the single 10C (off-suit level cards tie)."""
    v = judge("10S 10S AH AH 10C", {1: "SJ SJ 10H 10H"})
    assert [text(u.cards) for u in v.units] == ["10S 10S AH AH", "10C"]
    assert v.units[0].rank == v.units[1].rank
    assert [text(f.unit.cards) for f in v.failed_units] == ["10S 10S AH AH", "10C"]
    assert text(v.forced_play) == "10C"


def test_four_deck_cgc_preset_defaults() -> None:
    """docs/rules.md §10: four-deck-cgc forces the smallest failed unit and costs a match point (seed 002)."""
    v = judge(POLICY_LEAD, POLICY_HANDS, rules="four-deck-cgc", level="10")
    assert text(v.forced_play) == "9S 9S"
    assert (v.penalty.kind, v.penalty.amount, v.penalty.seat, v.penalty.team) == ("match_point", 1, 0, None)


@pytest.mark.parametrize(
    ("overrides", "leader", "expected", "code"),
    [
        ({}, 0, ("none", 0, None, None), None),
        ({"throw_penalty": "match_point"}, 0, ("match_point", 1, 0, None), "throw.penalty.match_point"),
        ({"throw_penalty": "match_point"}, 3, ("match_point", 1, 3, None), "throw.penalty.match_point"),
        ({"throw_penalty": "points_per_card"}, 0, ("points_per_card", 80, 0, 1), "throw.penalty.points_per_card"),
        ({"throw_penalty": "points_per_card", "throw_penalty_points_per_card": 5}, 1,
         ("points_per_card", 40, 1, 0), "throw.penalty.points_per_card"),
    ],
)
def test_penalties(overrides: dict[str, Any], leader: int, expected: tuple[Any, ...], code: str | None) -> None:
    """docs/rules.md §4 throw_penalty: none, match_point (seed 002: −1 for the thrower), points_per_card."""
    hands = {(leader + 1) % 4: "7S 7S 6S 6S", (leader + 2) % 4: "JS JS"}
    v = judge(POLICY_LEAD, hands, rules={"preset": "two-deck", **overrides}, leader=leader)
    assert not v.valid
    p = v.penalty
    assert (p.kind, p.amount, p.seat, p.team) == expected
    codes = [r.code for r in v.reasons if r.code.startswith("throw.penalty")]
    assert codes == ([] if code is None else [code])


def test_no_penalty_when_the_throw_stands() -> None:
    v = judge(POLICY_LEAD, {1: "3S"}, rules={"preset": "two-deck", "throw_penalty": "points_per_card"})
    assert v.valid and v.penalty.kind == "none" and v.penalty.amount == 0


def test_reasons_name_every_beater_in_both_languages() -> None:
    v = judge("9S 8S 8S 4S 4S", {1: "3S", 2: "QS QS", 3: "2S"})
    beaten = [r for r in v.reasons if r.code == "throw.unit_beaten"]
    assert len(beaten) == sum(len(f.beaten_by) for f in v.failed_units) == 3
    assert all("Q♠" in said(r) and "黑桃Q" in said(r, "zh-Hans") for r in beaten)
    assert any("2号位" in said(r, "zh-Hans") and "2號位" in said(r, "zh-Hant") for r in beaten)
    forced = v.reasons[-1]
    assert forced.code == "throw.forced.lowest_failed" and "4♠ 4♠" in said(forced)
    assert "黑桃4、黑桃4" in said(forced, "zh-Hans")
    stands = judge("AS AS KS", {1: "QS"}).reasons
    assert [r.code for r in stands] == ["throw.stands"]
    wider = judge("AS AS AS AS 7S 7S 8S 8S", {2: "3S 3S 3S 3S"}, rules="four-deck", level="5").reasons
    assert wider[0].code == "throw.unit_beaten_by_wider_shape" and "quad" in said(wider[0])


def test_blocker_reports_the_wider_shape() -> None:
    v = judge("AS AS AS AS 7S 7S 8S 8S", {2: "3S 3S 3S 3S 9S 9S"}, rules="four-deck", level="5")
    (f,) = v.failed_units
    (b,) = f.beaten_by
    assert (b.seat, b.width, b.length, b.wider_shape) == (2, 4, 1, True)
    v = judge("AS AS AS AS 7S 7S 8S 8S", {2: "3S 3S 3S 3S 9S 9S 10S 10S"}, rules="four-deck", level="5")
    (b,) = v.failed_units[0].beaten_by
    assert (text(b.cards), b.width, b.length, b.wider_shape) == ("10S 10S 9S 9S", 2, 2, False)


# --- bad input → InvalidInput with paths relative to the arguments


@pytest.mark.parametrize(
    ("lead", "hands", "leader", "paths"),
    [
        ("9S 8H", {}, 0, [("lead", 1)]),  # playing 10 with hearts trump: 8H is a trump
        ("9S 10S", {}, 0, [("lead", 1)]),  # 10S is a level card: trump
        ("9S AS", {0: "9S 8S"}, 0, [("lead", 1)]),  # not in the leader's hand
        ("9S 9S", {0: "9S AS"}, 0, [("lead", 1)]),  # one copy too few in the leader's hand
        ("9S 9S", {0: "9S 9S", 2: "9S"}, 0, [("hands", 2, 0)]),  # three 9S with two decks
        ("9S 9S", {1: "AS", 3: "3S 9S"}, 0, [("hands", 3, 1)]),
        ("9S 9S 9S", {}, 0, [("lead", 2)]),
        ("", {}, 0, [("lead",)]),
        ("9S", {}, 4, [("leader",)]),
        ("9S", {5: "AS"}, 0, [("hands", 5)]),
    ],
)
def test_invalid_input(lead: str, hands: dict[int, str], leader: int, paths: list[tuple[Any, ...]]) -> None:
    r = rules_from_json("two-deck")
    order = trump_order(Trump(8, 1), r)
    with pytest.raises(InvalidInput) as info:
        judge_throw(check_throw(leader, cards(lead), {s: cards(h) for s, h in hands.items()}, order, r))
    assert [p.path for p in info.value.problems] == paths


# what check_throw takes for a card: anything equal to a kind 0..53 (a bool, 1.0), as ``in`` says
_KIND_SET = frozenset(range(54))
_element = st.integers(0, 53) | st.integers(-60, 60) | st.booleans() | st.just(1.0) | st.just("AS") | st.none()


@settings(max_examples=300)
@example(lead=[1], hands={1: [1.0]}, decks=1)  # 1.0 is a second 3S: one too many
@example(lead=[True, 1], hands={2: [14, 1]}, decks=2)  # True is a third 3S
@given(
    lead=st.lists(_element, max_size=5),
    hands=st.dictionaries(st.integers(1, 3), st.lists(st.integers(0, 53) | _element, max_size=14), max_size=3),
    decks=st.integers(1, 2),
)
def test_check_throw_input_checks(lead: list[Any], hands: dict[int, list[Any]], decks: int) -> None:
    """check_throw's input checks, in their order (docs/rules.md §1, §4), on any elements:
    every element that is no card (``not in`` the kinds) at its path, and an empty lead;
    then a lead mixing effective suits; then more copies of a card than the decks hold,
    at the first excess copy of each card (lead, then hands by seat).  A float equal to a
    kind passes the first check as that kind (the checked hands hold it as the kind); in
    the lead it cannot be ranked or named later (TypeError)."""
    r = rules_from_json({"preset": "two-deck", "decks": decks, "kitty_size": 8 if decks == 2 else 6})
    order = trump_order(Trump(8, 1), r)
    every = [(("lead",), lead), *((("hands", s), h) for s, h in hands.items())]
    bad = [(*path, i) for path, given in every for i, c in enumerate(given) if c not in _KIND_SET]
    expected: Any
    if bad or not lead:
        expected = bad + ([("lead",)] if not lead else [])
    elif any(isinstance(c, float) for c in lead):
        expected = TypeError
    elif len({order.suit[c] for c in lead}) > 1:
        expected = "mixed_suit_lead"
    else:
        counted = Counter(c for _, given in every for c in given)
        if max(counted.values()) <= decks:
            expected = None
        elif any(isinstance(c, float) for _, given in every for c in given):
            expected = TypeError
        else:
            seen: Counter[Any] = Counter()
            expected = []
            for path, given in [every[0], *sorted(every[1:])]:
                for i, c in enumerate(given):
                    seen[c] += 1
                    if seen[c] == decks + 1:
                        expected.append((*path, i))
    if expected is None:
        checked = check_throw(0, lead, hands, order, r)
        assert checked.lead is lead
        assert checked.hands == {s: bytes(map(int, h)) for s, h in hands.items()}  # each card as its kind
    elif expected is TypeError:
        with pytest.raises(TypeError):
            check_throw(0, lead, hands, order, r)
    else:
        with pytest.raises(InvalidInput) as info:
            check_throw(0, lead, hands, order, r)
        if expected == "mixed_suit_lead":
            assert {p.code for p in info.value.problems} == {"mixed_suit_lead"}
        else:
            assert [p.path for p in info.value.problems] == expected


def test_lead_mixing_suits_names_every_stray_card() -> None:
    r = rules_from_json("two-deck")
    with pytest.raises(InvalidInput) as info:
        judge_throw(check_throw(1, cards("AS KD QS BJ"), {}, trump_order(Trump(8, 1), r), r))
    assert [p.path for p in info.value.problems] == [("lead", 1), ("lead", 3)]
    assert "mixes effective suits" in info.value.problems[0].message


def test_leader_hand_with_copies_counts_the_lead_once() -> None:
    """The lead is part of the leader's hand: both given is no double count."""
    v = judge("9S 9S 8S 8S 4S", {0: "9S 9S 8S 8S 4S 3C", 1: "4S"})
    assert v.valid


# --- throw_forced_cards, the new penalties, ties and throws into a void (docs/rules.md §4)


@pytest.mark.parametrize(
    ("forced_cards", "policy", "unit", "play"),
    [
        ("unit", "lowest_failed", "5S 5S 4S 4S", "5S 5S 4S 4S"),
        ("lowest_card", "lowest_failed", "5S 5S 4S 4S", "4S"),
        ("lowest_card", "smallest_failed", "9S 9S", "9S"),
        ("lowest_card", "smallest_unit", "KS", "KS"),
    ],
)
def test_throw_forced_cards(forced_cards: str, policy: str, unit: str, play: str) -> None:
    """throw_forced_cards lowest_card (the Botzone judge): only the forced unit's lowest card is played."""
    rules = {"preset": "two-deck", "throw_forced_unit": policy, "throw_forced_cards": forced_cards}
    v = judge(POLICY_LEAD, POLICY_HANDS, rules=rules)
    assert text(v.forced_unit.cards) == unit and text(v.forced_play) == play
    codes = [r.code for r in v.reasons]
    assert ("throw.forced_lowest_card" in codes) is (unit != play)


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        # POLICY_LEAD against POLICY_HANDS: 5544 (4 cards) and 99 (2 cards) fail, 8 cards thrown
        ({"throw_penalty": "points_per_card"}, ("points_per_card", 80, 0, 1)),
        ({"throw_penalty": "points_per_failed_card"}, ("points_per_failed_card", 60, 0, 1)),
        ({"throw_penalty": "points_per_failed_card", "throw_penalty_points_per_card": 5}, ("points_per_failed_card", 30, 0, 1)),
        ({"throw_penalty": "points_per_throw"}, ("points_per_throw", 10, 0, 1)),
        ({"throw_penalty": "points_per_throw", "throw_penalty_points_per_card": 20}, ("points_per_throw", 20, 0, 1)),
    ],
)
def test_game_point_penalties(overrides: dict[str, Any], expected: tuple[Any, ...]) -> None:
    """points_per_card counts the whole throw, points_per_failed_card only its failed units (Botzone),
    points_per_throw is one amount per failed throw (jding92/shengji-online)."""
    v = judge(POLICY_LEAD, POLICY_HANDS, rules={"preset": "two-deck", **overrides})
    p = v.penalty
    assert (p.kind, p.amount, p.seat, p.team) == expected
    assert [r.code for r in v.reasons if r.code.startswith("throw.penalty")] == [f"throw.penalty.{expected[0]}"]


@pytest.mark.parametrize("policy", ["lowest_failed", "smallest_failed", "first_blocked"])
@pytest.mark.parametrize(
    ("lead", "forced"),
    [
        ("10S 10C 10D", "10D"),
        ("10S 10C", "10C"),
        ("10S 10S 10C 10C", "10C 10C"),
        ("10C 10C 10S 10S", "10C 10C"),
    ],
)
def test_equal_failed_units_tie_break_by_suit(policy: str, lead: str, forced: str) -> None:
    """docs/rules.md §4: failed units of as many cards and equal rank (off-suit level cards, playing 10
    with hearts trump) are forced ♦ first, then ♣, ♥, ♠, whatever the order they were sent in."""
    v = judge(lead, {1: "SJ SJ 10H 10H"}, rules={"preset": "two-deck", "throw_forced_unit": policy})
    assert len({(u.rank, u.size) for u in v.units if text(u.cards) != "10H"}) == 1
    assert text(v.forced_play) == forced


def test_tie_break_is_stable_under_reordering() -> None:
    import itertools

    for perm in itertools.permutations(["10S", "10C", "10D"]):
        assert text(judge(" ".join(perm), {2: "BJ"}).forced_play) == "10D"


@pytest.mark.parametrize(
    ("rules", "lead", "hands", "refused"),
    [
        ("four-deck", "AS KS", {1: "3C", 2: "2D 4H", 3: ""}, True),
        ("four-deck", "AS KS", {1: "3C", 2: "2D 4S", 3: ""}, False),  # seat 2 holds a spade: judged as ever
        ("four-deck", "AS", {1: "3C", 2: "2D", 3: ""}, False),  # one unit: an ordinary lead
        ("four-deck", "AS AS", {1: "3C", 2: "2D", 3: ""}, False),
        ("four-deck", "BJ SJ", {1: "4C", 2: "4D", 3: "5S"}, True),  # trumps: nobody else holds one
        ("four-deck", "BJ SJ", {1: "3C", 2: "4D", 3: "5S"}, False),  # 3C: a level card, a trump
        ("two-deck", "AS KS", {1: "3C", 2: "2D 4H", 3: ""}, False),
        ({"preset": "two-deck", "throw_when_others_void": "refused"}, "AS KS", {1: "3C", 2: "2D 4H", 3: ""}, True),
        ({"preset": "two-deck", "throw_when_others_void": "refused"}, "AS KS", {1: "3C", 2: "2D 4H"}, False),
    ],
)
def test_throw_when_others_void(rules: Any, lead: str, hands: dict[int, str], refused: bool) -> None:
    """seed 000 四副 当其他三方没有自己所拿花色情况下，不能进行甩牌: refused, not forced.
    Judged only when all three other hands are given (the service requires them)."""
    v = judge(lead, hands, rules=rules, level="3")
    assert v.refused is refused
    if refused:
        assert not v.valid and v.forced_unit is None and v.forced_play == () and v.failed_units == ()
        assert v.penalty.kind == "none"
        assert [r.code for r in v.reasons] == ["throw.refused_others_void"]
        assert all(said(r) and said(r, "zh-Hans") for r in v.reasons)
