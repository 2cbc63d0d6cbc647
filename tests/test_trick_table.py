"""Trick winners, case by case (docs/rules.md §6 and §5.3), over every preset.

Each row: rules, trump (level, suit), leader, the four plays in playing order,
the expected winner, roles, which plays beat the best so far, the points, and
where the case comes from.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import parse_card, parse_rank, parse_suit
from engine.errors import InvalidInput
from engine.rules import rules_from_json
from engine.trick import check_trick, resolve_trick
from engine.trump import Trump, trump_order


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def order_of(rules: Any, trump: tuple[str, str | None]) -> Any:
    level, suit = trump
    return trump_order(Trump(parse_rank(level), None if suit is None else parse_suit(suit)), rules)


L, F, R, D = "lead", "follow", "ruff", "discard"
TEN_H = ("10", "H")

CASES: list[tuple[str, Any, Any, int, list[str], int, list[str], list[bool], int]] = [
    # seed 000 主牌9988 72 可斃副牌AK5544 (playing 10)
    ("seed 000: 9988 72 ruffs AK5544", "two-deck", TEN_H, 0,
     ["AS KS 5S 5S 4S 4S", "9H 9H 8H 8H 7H 2H", "QS JS 9S 8S 7S 6S", "3D 4D 5D 6D 7D 8D"],
     1, [L, R, F, D], [False, True, False, False], 25),
    # seed 000 …但不能斃副牌AA5544
    ("seed 000: 9988 72 does not ruff AA5544", "two-deck", TEN_H, 0,
     ["AS AS 5S 5S 4S 4S", "9H 9H 8H 8H 7H 2H", "QS JS 9S 8S 7S 6S", "3D 4D 6D 7D 8D 9D"],
     0, [L, D, F, D], [False, False, False, False], 10),
    # seed 000 主牌977可斃副牌544, 主牌884可蓋斃
    ("seed 000: 884 over-ruffs 977 on 544", "two-deck", TEN_H, 0,
     ["5S 4S 4S", "9H 7H 7H", "8H 8H 4H", "3C 6C 7C"],
     2, [L, R, R, D], [False, True, True, False], 5),
    # seed 000 主牌977可斃副牌567, 主牌884不能蓋斃
    ("seed 000: 884 does not over-ruff 977 on 567", "two-deck", TEN_H, 0,
     ["5S 6S 7S", "9H 7H 7H", "8H 8H 4H", "3C 6C 7C"],
     1, [L, R, R, D], [False, True, False, False], 5),
    # seed 000 出牌時同等大小的牌以先出者為大
    ("ties go to the earlier play", "two-deck", TEN_H, 2, ["9C", "9C", "3C", "2C"], 2, [L, F, F, F], [False] * 4, 0),
    # seed 000: 副10 equal to each other
    ("off-suit level cards tie", "two-deck", TEN_H, 0, ["10S", "10C", "10D", "3H"], 0, [L, F, F, F], [False] * 4, 30),
    # seed 002 牌的大小 4 / option level_suit_precedence: S > H > C > D
    ("cgc: 10S beats 10D", "four-deck-cgc", TEN_H, 0, ["10D", "10S", "10C", "4H"], 1, [L, F, F, F],
     [False, True, False, False], 30),
    # seed 000 四副 4張可以吃同樣張數的2張拖拉機 (wider_shape_beats)
    ("four: quad beats a 2-pair tractor", "four-deck", TEN_H, 0,
     ["7S 7S 8S 8S", "AS AS AS AS", "KS KS QS QS", "3S 3S 4S 5S"],
     1, [L, F, F, F], [False, True, False, False], 25),
    ("four, wider_shape_beats off: quad has no structure", {"preset": "four-deck", "wider_shape_beats": False}, TEN_H, 0,
     ["7S 7S 8S 8S", "AS AS AS AS", "KS KS QS QS", "3S 3S 4S 5S"],
     2, [L, F, F, F], [False, False, True, False], 25),
    # seed 002 三條連拖>三連拖 (a triple tractor of 2 over a 3-pair tractor)
    ("three: triple tractor ruffs over a 3-pair trump tractor", "three-deck", TEN_H, 0,
     ["3S 3S 4S 4S 5S 5S", "6H 6H 6H 7H 7H 7H", "BJ BJ SJ SJ 10H 10H", "3D 4D 5D 6D 7D 8D"],
     1, [L, R, R, D], [False, True, False, False], 35),
    # seed 000 四副 / seed 002: a quad tractor of 2 over a 4-pair tractor
    ("four: quad tractor over a 4-pair tractor", "four-deck", TEN_H, 0,
     ["3S 3S 4S 4S 5S 5S 6S 6S", "8S 8S 8S 8S 9S 9S 9S 9S", "JS JS QS QS KS KS AS AS", "3D 4D 5D 6D 7D 8D 9D JD"],
     1, [L, F, F, D], [False, True, False, False], 35),
    # docs/rules.md §6 largest_unit (default): the pairs decide
    ("largest_unit: 44 does not beat QQ", "two-deck", TEN_H, 0,
     ["KS 5S 5S", "3H QH QH", "AH 4H 4H", "4D 5D 6D"], 1, [L, R, R, D], [False, True, False, False], 25),
    ("largest_unit: KK beats QQ", "two-deck", TEN_H, 0,
     ["KS 5S 5S", "3H QH QH", "2H KH KH", "4D 5D 6D"], 2, [L, R, R, D], [False, True, True, False], 45),
    # docs/rules.md §6 all_units (shengji.io): every unit stronger
    ("all_units: 2 + KK fails on the single", {"preset": "two-deck", "throw_comparison": "all_units"}, TEN_H, 0,
     ["KS 5S 5S", "3H QH QH", "2H KH KH", "4D 5D 6D"], 1, [L, R, R, D], [False, True, False, False], 45),
    ("all_units: A + KK beats 3 + QQ", {"preset": "two-deck", "throw_comparison": "all_units"}, TEN_H, 0,
     ["KS 5S 5S", "3H QH QH", "AH KH KH", "4D 5D 6D"], 2, [L, R, R, D], [False, True, True, False], 45),
    # docs/rules.md §6 highest_card
    ("highest_card: AH decides", {"preset": "two-deck", "throw_comparison": "highest_card"}, TEN_H, 0,
     ["KS 5S 5S", "3H QH QH", "AH 4H 4H", "4D 5D 6D"], 2, [L, R, R, D], [False, True, True, False], 25),
    # docs/rules.md §6: a discard never wins
    ("a discard never wins", "one-deck", TEN_H, 0, ["3S", "AD", "2S", "4S"], 3, [L, D, F, F],
     [False, False, False, True], 0),
    # no-trump: the jokers and level cards are the trumps
    ("no-trump: BJ over SJ, AS a discard", "two-deck", ("10", None), 1, ["SJ", "BJ", "10S", "AS"], 2, [L, F, F, D],
     [False, True, False, False], 10),
    # seed 000 / docs/rules.md §3: the joker pairs are a tractor and ruff a plain tractor
    ("joker tractor ruffs", "two-deck", TEN_H, 0,
     ["5S 5S 6S 6S", "BJ BJ SJ SJ", "10H 10H 10S 10S", "7S 7S 8S 8S"], 1, [L, R, R, F],
     [False, True, False, False], 50),
    # seed 000 2为常主: the constant 2 of spades is a trump
    ("constant 2 ruffs", "two-deck-constant-2", TEN_H, 0, ["AS", "2S", "KS", "3S"], 1, [L, R, F, F],
     [False, True, False, False], 10),
    # trump lead: 副10 over 主A (seed 000 主10, 副10, A, ...)
    ("trump pairs: 10S10S over AHAH", "two-deck-lianzhong", TEN_H, 3,
     ["3H 3H", "AH AH", "10S 10S", "5H 5H"], 1, [L, F, F, F], [False, True, True, False], 30),
    # seed 003 有对的付牌，其它方即使全部出了主牌，但没有对，也不能算大 (triples in three decks)
    ("three: a trump pair + single does not ruff a triple", "three-deck", TEN_H, 0,
     ["9S 9S 9S", "AH AH 3H", "4H 4H 4H", "JS JS JS"], 2, [L, D, R, F], [False, False, True, False], 0),
    # one deck, level 5 spades: the level card 5H is a trump above the trump-suit 3S
    ("one: level card over a trump", "one-deck", ("5", "S"), 0, ["AH", "KH", "3S", "5H"], 3, [L, F, R, R],
     [False, False, True, True], 15),
    ("one-lz: the leader holds", "one-deck-lianzhong", ("5", "S"), 0, ["AH", "KH", "QH", "JH"], 0, [L, F, F, F],
     [False] * 4, 10),
    # seed 002 牌的大小 4: 黑桃 > 紅桃 > 梅花 among off-suit level cards, inside tractors too
    ("cgc: 主2 + 10S tractor over 主2 + 10C", "four-deck-cgc", TEN_H, 0,
     ["3H 3H 4H 4H", "2H 2H 10C 10C", "2H 2H 10S 10S", "AH AH KH KH"], 2, [L, F, F, F],
     [False, True, True, False], 60),
    # docs/rules.md §3: two pairs of off-suit 10s (one step) are no tractor, so no structure
    ("10S10S 10C10C is no tractor", "four-deck-cgc", TEN_H, 0,
     ["3H 3H 4H 4H", "10S 10S 10C 10C", "10H 10H 10S 10S", "AH AH KH KH"], 2, [L, F, F, F],
     [False, False, True, False], 100),
    # --- the compatibility presets and their options (docs/rules.md §6, §10)
    # rbtying/shengji test_throw_evaluation_policy_highest_card: all_units keeps seat 2
    ("shengji-io: all_units, 2S BJ does not beat 3S 4S", "shengji-io", ("K", "S"), 0,
     ["4C 6C", "2S 3S", "3S 4S", "2S BJ"], 2, [L, R, R, R], [False, True, True, False], 0),
    ("largest_unit: the big joker decides", "two-deck", ("K", "S"), 0,
     ["4C 6C", "2S 3S", "3S 4S", "2S BJ"], 3, [L, R, R, R], [False, True, True, True], 0),
    ("botzone: seed 000's ruff of AK5544", "botzone", TEN_H, 0,
     ["AS KS 5S 5S 4S 4S", "9H 9H 8H 8H 7H 2H", "QS JS 9S 8S 7S 6S", "3D 4D 5D 6D 7D 8D"],
     1, [L, R, F, D], [False, True, False, False], 25),
    # throw_comparison dominance (jding92/shengji-online): one unit equal, one stronger
    ("dominance: 5H 4H over 5H 3H", {"preset": "two-deck", "throw_comparison": "dominance"}, TEN_H, 0,
     ["AS KS", "5H 3H", "5H 4H", "6D 7D"], 2, [L, R, R, D], [False, True, True, False], 20),
    ("all_units: 5H 4H not over 5H 3H", {"preset": "two-deck", "throw_comparison": "all_units"}, TEN_H, 0,
     ["AS KS", "5H 3H", "5H 4H", "6D 7D"], 1, [L, R, R, D], [False, True, False, False], 20),
    ("dominance: a weaker unit loses", {"preset": "two-deck", "throw_comparison": "dominance"}, TEN_H, 0,
     ["AS KS", "6H 3H", "5H 4H", "6D 7D"], 1, [L, R, R, D], [False, True, False, False], 15),
    # ruff_shape exact (jding92/shengji-online): a pair does not ruff two singles
    ("structure: a trump pair ruffs two singles", "two-deck", TEN_H, 0,
     ["AS KS", "3H 3H", "QS JS", "4D 5D"], 1, [L, R, F, D], [False, True, False, False], 15),
    ("exact: a trump pair is a discard on two singles", {"preset": "two-deck", "ruff_shape": "exact"}, TEN_H, 0,
     ["AS KS", "3H 3H", "QS JS", "4D 5D"], 0, [L, D, F, D], [False, False, False, False], 15),
    ("exact: two trump singles ruff, the pair did not", {"preset": "two-deck", "ruff_shape": "exact"}, TEN_H, 0,
     ["AS KS", "3H 3H", "5H 4H", "4D 6D"], 2, [L, D, R, D], [False, False, True, False], 15),
    ("structure: the pair ruffs, 5H 4H over-ruffs", "two-deck", TEN_H, 0,
     ["AS KS", "3H 3H", "5H 4H", "4D 6D"], 2, [L, R, R, D], [False, True, True, False], 15),
    ("exact: a pair + single ruffs a pair + single", {"preset": "two-deck", "ruff_shape": "exact"}, TEN_H, 0,
     ["5S 4S 4S", "9H 7H 7H", "8H 8H 4H", "3C 6C 7C"], 2, [L, R, R, D], [False, True, True, False], 5),
]


@pytest.mark.parametrize(
    ("rules", "trump", "leader", "plays", "winner", "roles", "beat", "points"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_trick_case(
    rules: Any, trump: Any, leader: int, plays: list[str], winner: int, roles: list[str], beat: list[bool], points: int
) -> None:
    r = rules_from_json(rules)
    order = order_of(r, trump)
    result = resolve_trick(check_trick(leader, [cards(p) for p in plays], order, r))
    assert result.winner == winner
    assert [p.role for p in result.plays] == roles
    assert [p.beats_previous_best for p in result.plays] == beat
    assert result.points == points
    assert [p.seat for p in result.plays] == [(leader + i) % 4 for i in range(4)]
    assert all(p.legal is None for p in result.plays)  # no hands given


def test_the_cases_cover_every_preset() -> None:
    from engine.rules import PRESET_VALUES

    names = {c[1] if isinstance(c[1], str) else c[1]["preset"] for c in CASES}
    assert names == set(PRESET_VALUES)


def _beats(rules: Any, plays: list[str]) -> list[bool]:
    """Which plays of a trick (led by seat 0, hearts trump at level 10) beat the best before them."""
    result = resolve_trick(check_trick(0, [cards(p) for p in plays], order_of(rules, TEN_H), rules))
    return [p.beats_previous_best for p in result.plays]


def test_ruffs_seed_000_examples() -> None:
    """Seed 000: 9988 + 7 + 2 of trumps ruffs AK + 5544 (its tractor serves the
    lead's), not AA + 5544 (it has no pair for AA); of equal strength, the
    earlier play stands (先出者为大)."""
    r = rules_from_json("two-deck")
    assert _beats(r, ["AS KS 5S 5S 4S 4S", "9H 9H 8H 8H 7H 2H"]) == [False, True]
    assert _beats(r, ["AS AS 5S 5S 4S 4S", "9H 9H 8H 8H 7H 2H"]) == [False, False]
    assert _beats(r, ["4D 4D", "10S 10S", "10C 10C"]) == [False, True, False]


def test_every_arrangement_is_tried() -> None:
    """A play that can serve the lead in several ways is judged by its best
    (docs/rules.md §6): against 33 + 5 + 6, 7788 serves as 88 + 7 + 7 (or 77 +
    8 + 8), so 88 + 6 + 5 only ties it and 99 + 4 + 4 beats it."""
    r = rules_from_json("four-deck")
    plays = ["3S 3S 5S 6S", "7H 7H 8H 8H", "8H 8H 6H 5H", "9H 9H 4H 4H"]
    assert _beats(r, plays) == [False, True, False, True]


def test_reordering_cards_changes_nothing() -> None:
    r = rules_from_json("two-deck")
    order = order_of(r, TEN_H)
    plays = [cards(p) for p in ["AS KS 5S 5S 4S 4S", "9H 9H 8H 8H 7H 2H", "QS JS 9S 8S 7S 6S", "3D 4D 5D 6D 7D 8D"]]
    a = resolve_trick(check_trick(0, plays, order, r))
    b = resolve_trick(check_trick(0, [p[::-1] for p in plays], order, r))
    assert a == b


def test_with_hands_each_follow_is_judged() -> None:
    r = rules_from_json("two-deck")
    order = order_of(r, TEN_H)
    plays = [cards(p) for p in ["AS KS 5S 5S 4S 4S", "9H 9H 8H 8H 7H 2H", "QS JS 9S 8S 7S 6S", "3D 4D 5D 6D 7D 8D"]]
    hands = {
        0: cards("AS KS 5S 5S 4S 4S 3C"),
        1: cards("9H 9H 8H 8H 7H 2H 3S"),  # holds a spade, yet ruffs: illegal
        2: cards("QS JS 9S 8S 7S 6S"),
        3: cards("3D 4D 5D 6D 7D 8D 9D"),
    }
    result = resolve_trick(check_trick(0, plays, order, r, hands))
    assert [p.legal for p in result.plays] == [None, False, True, True]  # a throw lead is /v1/throw's
    assert result.plays[0].reasons[-1].code == "trick.throw_not_judged"
    assert "follow.must_follow_suit" in [x.code for x in result.plays[1].reasons]
    assert result.winner == 1  # the cards decide the trick; the violation is reported
    single = resolve_trick(check_trick(0, [cards("AS"), cards("2S"), cards("3S"), cards("4S")], order, r, {0: cards("AS 3C")}))
    assert [p.legal for p in single.plays] == [True, None, None, None]


@pytest.mark.parametrize(
    ("leader", "plays", "hands", "paths"),
    [
        (4, ["3S", "4S", "5S", "6S"], None, [("leader",)]),
        (0, ["", "4S", "5S", "6S"], None, [("plays", 0)]),
        (0, ["3S 4H", "4S 5S", "5S 6S", "6S 7S"], None, [("plays", 0, 1)]),  # 4H is trump
        (0, ["3S 4S", "4S", "5S 6S", "6S 7S 8S"], None, [("plays", 1), ("plays", 3)]),
        (0, ["3S", "3S", "3S", "6S"], None, [("plays", 2, 0)]),  # three 3S with two decks
        (0, ["3S", "4S", "5S", "6S"], {1: "7S"}, [("plays", 1, 0)]),  # not in seat 1's hand
        (0, ["3S", "4S", "5S", "6S"], {1: "4S 3S", 2: "3S 5S"}, [("plays", 0, 0)]),  # 3 copies of 3S
        (0, ["3S"] * 5, None, [("plays",)]),
    ],
)
def test_invalid_input(leader: int, plays: list[str], hands: Any, paths: list[tuple[Any, ...]]) -> None:
    r = rules_from_json("two-deck")
    order = order_of(r, TEN_H)
    with pytest.raises(InvalidInput) as err:
        resolve_trick(check_trick(
            leader,
            [cards(p) for p in plays],
            order,
            r,
            None if hands is None else {s: cards(h) for s, h in hands.items()},
        ))
    assert [p.path for p in err.value.problems] == paths
