"""Trump order and effective suits (docs/rules.md §2; seed 000 牌的大小顺序, seed 001 牌的大小)."""

from __future__ import annotations

import pytest

from engine.cards import KINDS, card_str
from engine.rules import PRESET_VALUES
from engine.trump import SUIT_LABELS, TRUMP
from tests.helpers import cards, ladder, order


def test_two_deck_playing_10_hearts() -> None:
    # seed 000: 大王, 小王, 主10, 副10, A, K, Q, J, 9, ..., 2
    o = order("10", "H")
    assert ladder(o, TRUMP) == [
        ["BJ"], ["SJ"], ["10H"], ["10C", "10D", "10S"], ["AH"], ["KH"], ["QH"], ["JH"],
        ["9H"], ["8H"], ["7H"], ["6H"], ["5H"], ["4H"], ["3H"], ["2H"],
    ]
    # 副牌: A, K, Q, J, 9, ..., 2 (the level rank is gone from plain suits)
    assert ladder(o, 0) == [[r + "S"] for r in "A K Q J 9 8 7 6 5 4 3 2".split()]
    assert 1 not in set(o.suit)  # hearts are all trump


def test_constant_twos() -> None:
    # seed 000 "2 为常主": 大王, 小王, 主10, 副10, 主2, 副2, A, K, ..., 3
    o = order("10", "H", "two-deck-constant-2")
    assert ladder(o, TRUMP)[:7] == [["BJ"], ["SJ"], ["10H"], ["10C", "10D", "10S"], ["2H"], ["2C", "2D", "2S"], ["AH"]]
    assert ladder(o, TRUMP)[-1] == ["3H"]
    assert ladder(o, 2) == [[r + "C"] for r in "A K Q J 9 8 7 6 5 4 3".split()]


def test_no_trump() -> None:
    o = order("10", None)
    assert ladder(o, TRUMP) == [["BJ"], ["SJ"], ["10C", "10D", "10H", "10S"]]
    for s in range(4):
        assert len(o.steps[s]) == 12


def test_no_trump_with_constant_twos() -> None:
    o = order("7", None, "four-deck")
    assert ladder(o, TRUMP) == [["BJ"], ["SJ"], ["7C", "7D", "7H", "7S"], ["2C", "2D", "2H", "2S"]]
    assert len(o.steps[0]) == 11


def test_level_equal_to_constant_rank_is_simply_level() -> None:
    # docs/rules.md §8: level 2 with constant 2s → those cards are level cards
    o = order("2", "S", "four-deck")
    assert ladder(o, TRUMP)[:5] == [["BJ"], ["SJ"], ["2S"], ["2C", "2D", "2H"], ["AS"]]
    assert ladder(o, TRUMP)[-1] == ["3S"]


def test_level_suit_precedence_orders_off_suit_level_cards() -> None:
    # seed 002 牌的大小 4: off-suit level cards rank S > H > C > D (four-deck-cgc)
    o = order("3", "D", "four-deck-cgc")
    off = cards("3S 3H 3C")
    powers = [o.power[c] for c in off]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == 3
    assert o.power[cards("3D")[0]] > max(powers)
    # they still share one step (tractors, docs/rules.md §3), only comparison differs
    assert len({o.step[c] for c in off}) == 1
    plain = order("3", "D", "two-deck")
    assert len({plain.power[c] for c in off}) == 1


@pytest.mark.parametrize("name", list(PRESET_VALUES))
@pytest.mark.parametrize("suit", ["S", "H", "C", "D", None])
@pytest.mark.parametrize("level", ["2", "10", "A"])
def test_every_card_has_one_place(name: str, suit: str | None, level: str) -> None:
    o = order(level, suit, name)
    placed = [k for eff in range(5) for kinds in o.steps[eff] for k in kinds]
    assert sorted(placed) == list(range(KINDS))
    for k in range(KINDS):
        assert o.steps[o.suit[k]][o.step[k]].count(k) == 1
    constants = {"2"} if name.startswith("four-deck") or name == "two-deck-constant-2" else set()
    for k in range(KINDS):
        text = card_str(k)
        rank, printed = text[:-1], text[-1]
        expected = text in {"BJ", "SJ"} or rank == level or rank in constants or printed == suit
        assert (o.suit[k] == TRUMP) == expected, text


def test_suit_labels() -> None:
    o = order("10", "H")
    assert [SUIT_LABELS[o.suit[c]] for c in cards("10S AS AH SJ 3D")] == ["trump", "S", "trump", "trump", "D"]


def test_sorted_high_to_low_trumps_first() -> None:
    o = order("10", "H")
    shuffled = cards("3D AS 10S BJ 2H KC 10H SJ AH")
    assert " ".join(card_str(c) for c in o.sorted(shuffled)) == "BJ SJ 10H 10S AH 2H AS KC 3D"
