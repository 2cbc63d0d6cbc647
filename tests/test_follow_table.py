"""Follow legality, case by case (docs/rules.md §5), over every preset.

Each row: rules, trump (level, suit), lead, hand, play, expected ``legal``,
the code of the first reason for a refusal, and where the case comes from.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import parse_card, parse_rank, parse_suit
from engine.errors import InvalidInput
from engine.follow import check_follow, judge_follow
from engine.rules import rules_from_json
from engine.shapes import Shape
from engine.trump import Trump, trump_order
from service.explain import pattern
from tests.helpers import said


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def order_of(rules: Any, trump: tuple[str, str | None]) -> Any:
    level, suit = trump
    return trump_order(Trump(parse_rank(level), None if suit is None else parse_suit(suit)), rules)


SUIT = "follow.must_follow_suit"
PAIR = "follow.must_play_pair"
TRIPLE = "follow.must_play_triple"
TRACTOR = "follow.must_play_tractor"
PATTERN = "follow.must_match_pattern"
RULES_334455 = ("3H 3H 4H 4H 5H 5H", "6H 6H 7H 7H QH QH 9H 9H KS")
TITANIC = ("3S 3S 3S 4S 4S 4S", "6S 6S 6S 7S 7S 7S 9S 2C")
TITANIC_LOW = ("3S 3S 3S 4S 4S 4S", "5S 5S 6S 6S 9S 9S 9S QS 2C")
FOUR_7788 = ("7S 7S 8S 8S", "AS AS AS AS 3S 3S 5S 5S")
LONGEST = ("3H 3H 4H 4H 5H 5H 6H 6H", "7H 7H 8H 8H 9H 9H JH JH QH QH AH AH 5C")
LONGEST_THROW = ("3H 3H 4H 4H 5H 5H 6H 6H SJ SJ BJ BJ", "7H 7H 8H 8H 10H 10H JH JH QH QH AH AH 2S 2S 5C")
FOUR_AAAA = ("AS AS AS AS", "5S 5S 6S 6S 9S 9S 9S 3S")

CASES: list[tuple[str, Any, tuple[str, str | None], str, str, str, bool, str | None]] = [
    # --- one deck: the suit rule alone (seed 000; no pairs with one deck) ---
    ("one: must follow suit", "one-deck", ("10", "H"), "AS", "3S 4H 5C", "4H", False, SUIT),
    ("one: follows suit", "one-deck", ("10", "H"), "AS", "3S 4H 5C", "3S", True, None),
    ("one: void, anything goes", "one-deck", ("10", "H"), "AS", "4H 5C", "4H", True, None),
    # seed 000 四副 如有此花色牌但數量不夠則必須先把此花色牌全部放上然後墊上其他花色牌
    ("one: short suit, all of it + others", "one-deck", ("10", "H"), "KS QS JS", "3S 9S 4H 5C 6D", "3S 9S 4H", True, None),
    ("one: short suit kept back", "one-deck", ("10", "H"), "KS QS JS", "3S 9S 4H 5C 6D", "3S 4H 5C", False, SUIT),
    # seed 000 牌的大小: 副10 is a trump, not a spade
    ("one-lz: off-suit level card is trump", "one-deck-lianzhong", ("10", "H"), "3H", "10S 4C 5D", "4C", False, SUIT),
    ("one-lz: plays the trump level card", "one-deck-lianzhong", ("10", "H"), "3H", "10S 4C 5D", "10S", True, None),
    # --- two decks, classic (seeds 000, 001, 003) ---
    # docs/rules.md §5 / seed 002 三连拖 → 连拖+1对: 334455 against 6677 + QQ + 99 obliges 6677 + a pair
    ("two: 334455 → 6677QQ", "two-deck", ("2", "S"), *RULES_334455, "6H 6H 7H 7H QH QH", True, None),
    ("two: 334455 → 6677 without the pair", "two-deck", ("2", "S"), *RULES_334455, "6H 6H 7H 7H 9H QH", False, PAIR),
    ("two: 334455 → two pairs, no tractor", "two-deck", ("2", "S"), *RULES_334455, "QH QH 9H 9H 6H 7H", False, TRACTOR),
    # docs/rules.md §5, longest tractor first (seed 000 四副's list "1连3+1对子" before "1连对+两对子";
    # shengji.io's decomposition ladder [2,2,2][2] → [2,2][2,2]; jding92/shengji-online): against a
    # 4-pair tractor, 778899 + a pair is owed before the two 2-pair tractors 7788 + JJQQ (more cards)
    ("two: 4-pair lead, two 2-pair tractors refused", "two-deck", ("2", "S"), *LONGEST, "7H 7H 8H 8H JH JH QH QH", False, TRACTOR),
    ("two: 4-pair lead, 3-pair tractor + a pair", "two-deck", ("2", "S"), *LONGEST, "7H 7H 8H 8H 9H 9H AH AH", True, None),
    ("two: 4-pair lead, 3-pair tractor + JJ", "two-deck", ("2", "S"), *LONGEST, "7H 7H 8H 8H 9H 9H JH JH", True, None),
    # a throw of a 4-pair and a 2-pair tractor: the pieces placed into them, longest first —
    # 10JQ + a 2-pair tractor beats three 2-pair tractors (7788 + A-副2 + 10J)
    ("two: two lead tractors, three 2-pair tractors refused", "two-deck", ("2", "H"), *LONGEST_THROW, "7H 7H 8H 8H AH AH 2S 2S 10H 10H JH JH", False, TRACTOR),
    ("two: two lead tractors, 3-pair + 2-pair tractors", "two-deck", ("2", "H"), *LONGEST_THROW, "10H 10H JH JH QH QH 7H 7H 8H 8H AH AH", True, None),
    # seed 000 有對牌必須出對牌（包括拖拉機中的對牌）
    ("two: pair from inside a tractor", "two-deck", ("2", "S"), "8D 8D", "3D 3D 4D 4D 6D 9D", "4D 4D", True, None),
    ("two: pair lead, pairs kept back", "two-deck", ("2", "S"), "8D 8D", "3D 3D 4D 4D 6D 9D", "3D 6D", False, PAIR),
    # seed 000: the off-suit level cards are trumps, and identical ones pair
    ("two: off-suit level pair is a trump pair", "two-deck", ("10", "H"), "5H 5H", "10S 10S 3H 7C 8C", "3H 10S", False, PAIR),
    ("two: plays the off-suit level pair", "two-deck", ("10", "H"), "5H 5H", "10S 10S 3H 7C 8C", "10S 10S", True, None),
    # seed 000 一對副10帶一對主牌A is a tractor
    ("two: tractor through the level", "two-deck", ("10", "H"), "3H 3H 4H 4H", "10S 10S AH AH 5H 9C", "AH AH 5H 10S", False, TRACTOR),
    ("two: plays 10S10S AHAH", "two-deck", ("10", "H"), "3H 3H 4H 4H", "10S 10S AH AH 5H 9C", "10S 10S AH AH", True, None),
    # docs/rules.md §3 / seed 003 大王小王: the joker pairs are a tractor
    ("two: joker tractor owed", "two-deck", ("10", "H"), "5H 5H 6H 6H", "BJ BJ SJ SJ 7H 8C", "BJ BJ SJ 7H", False, TRACTOR),
    # seed 000 一對小王帶一對主10
    ("two: small jokers + trump level", "two-deck", ("10", "H"), "5H 5H 6H 6H", "SJ SJ 10H 10H 3H 4C", "SJ SJ 10H 10H", True, None),
    # seed 003: in no-trump, level pairs of different suits are no tractor (555555)
    ("two: no-trump level pairs no tractor", "two-deck", ("10", None), "BJ BJ SJ SJ", "10S 10S 10H 10H 10D 3C", "10S 10S 10H 10H", True, None),
    ("two: no-trump, both pairs owed", "two-deck", ("10", None), "BJ BJ SJ SJ", "10S 10S 10H 10H 10D 3C", "10S 10S 10H 10D", False, PAIR),
    # seed 000 2为常主: 大王, 小王, 主10, 副10, 主2, 副2, A: AA + 副2 pairs are a tractor
    ("two-c2: A + off-suit 2 tractor", "two-deck-constant-2", ("10", "H"), "5H 5H 6H 6H", "AH AH 2C 2C 3H 4S", "AH AH 2C 3H", False, TRACTOR),
    ("two-c2: plays AHAH 2C2C", "two-deck-constant-2", ("10", "H"), "5H 5H 6H 6H", "AH AH 2C 2C 3H 4S", "AH AH 2C 2C", True, None),
    ("two-c2: 2S is trump, not a spade", "two-deck-constant-2", ("10", "H"), "4S 4S 5S 5S", "3S 3S 6S 6S 2S 2S 7D", "2S 2S 3S 3S", False, SUIT),
    # seed 003 首家出牌中包含拖拉機… (a throw: tractor + single)
    ("two-lz: throw needs its tractor", "two-deck-lianzhong", ("2", "H"), "AS 5S 5S 4S 4S", "7S 7S 6S 6S 9S 9S 3S", "9S 9S 6S 7S 3S", False, TRACTOR),
    ("two-lz: throw answered", "two-deck-lianzhong", ("2", "H"), "AS 5S 5S 4S 4S", "7S 7S 6S 6S 9S 9S 3S", "7S 7S 6S 6S 9S", True, None),
    ("two: throw of two pairs, one pair owed", "two-deck", ("2", "H"), "AS AS 9S 9S 5S", "KS KS 3S 7S 8S JS 4H", "3S 7S 8S JS KS", False, PAIR),
    ("two: throw of two pairs answered", "two-deck", ("2", "H"), "AS AS 9S 9S 5S", "KS KS 3S 7S 8S JS 4H", "KS KS 3S 7S 8S", True, None),
    ("two: too few suit cards, all played", "two-deck", ("2", "H"), "3S 3S 4S 4S", "AS 7H 8H 9C 2D", "AS 7H 8H 9C", True, None),
    ("two: too few suit cards, kept back", "two-deck", ("2", "H"), "3S 3S 4S 4S", "AS 7H 8H 9C 2D", "7H 8H 9C 2D", False, SUIT),
    # option follow_draw = suit_only (shengji.io NoFormatBasedDraw)
    ("two suit_only: any hearts", {"preset": "two-deck", "follow_draw": "suit_only"}, ("2", "S"), *RULES_334455, "9H QH 6H 7H QH 9H", True, None),
    ("two suit_only: still the suit", {"preset": "two-deck", "follow_draw": "suit_only"}, ("2", "S"), *RULES_334455, "6H 6H 7H 7H 9H KS", False, SUIT),
    # --- three decks (seed 000 三副, seed 003 泰坦尼克) ---
    ("three: titanic owed", "three-deck", ("10", "H"), *TITANIC, "6S 6S 6S 7S 7S 9S", False, PATTERN),
    ("three: titanic answered", "three-deck", ("10", "H"), *TITANIC, "6S 6S 6S 7S 7S 7S", True, None),
    ("three: tractor+2 before triple+pair", "three-deck", ("10", "H"), *TITANIC_LOW, "9S 9S 9S 5S 5S QS", False, PATTERN),
    ("three: 一副拖拉機+兩單張", "three-deck", ("10", "H"), *TITANIC_LOW, "5S 5S 6S 6S 9S QS", True, None),
    ("three: triple lead, pair owed", "three-deck", ("10", "H"), "8D 8D 8D", "5D 5D 3D KD", "5D 3D KD", False, PATTERN),
    ("three: triple lead, 一副兩對+一單張", "three-deck", ("10", "H"), "8D 8D 8D", "5D 5D 3D KD", "5D 5D KD", True, None),
    # option protect_longer_tuples: a held triple does not count as a pair the hand could give
    ("three protect: triple not a pair", {"preset": "three-deck", "protect_longer_tuples": True}, ("10", "H"), "9D 9D", "5D 5D 5D 3D", "5D 3D", True, None),
    ("three: unprotected triple is a pair", "three-deck", ("10", "H"), "9D 9D", "5D 5D 5D 3D", "5D 3D", False, PAIR),
    # seed 003 打5時 副5主5 is a Titanic
    ("three: titanic through the level", "three-deck", ("5", "H"), "3H 3H 3H 4H 4H 4H", "5S 5S 5S 5H 5H 5H 6H KC", "5S 5S 5S 5H 5H 6H", False, PATTERN),
    ("three: plays 副5主5", "three-deck", ("5", "H"), "3H 3H 3H 4H 4H 4H", "5S 5S 5S 5H 5H 5H 6H KC", "5S 5S 5S 5H 5H 5H", True, None),
    # seed 003 打無主時 555555 is no Titanic: two triples (step 2)
    ("three no-trump: 555555 two triples", "three-deck", ("5", None), "SJ SJ SJ BJ BJ BJ", "5S 5S 5S 5H 5H 5H 5D", "5S 5S 5S 5H 5H 5H", True, None),
    ("three no-trump: one triple short", "three-deck", ("5", None), "SJ SJ SJ BJ BJ BJ", "5S 5S 5S 5H 5H 5H 5D", "5S 5S 5S 5H 5H 5D", False, PATTERN),
    # classic with three decks: triples by the generic rule
    ("classic 3 decks: triple owed", {"preset": "two-deck", "decks": 3, "kitty_size": 6}, ("10", "H"), "8D 8D 8D", "5D 5D 5D 3D 4D 4D", "5D 5D 4D", False, TRIPLE),
    ("classic 3 decks: triple played", {"preset": "two-deck", "decks": 3, "kitty_size": 6}, ("10", "H"), "8D 8D 8D", "5D 5D 5D 3D 4D 4D", "5D 5D 5D", True, None),
    # --- four decks (seed 000 四副 3.4.5) ---
    ("four: 7788 → the quad (拖拉機或AAAA)", "four-deck", ("10", "H"), *FOUR_7788, "AS AS AS AS", True, None),
    ("four: 7788 → pairs refused", "four-deck", ("10", "H"), *FOUR_7788, "3S 3S 5S 5S", False, PATTERN),
    ("four: AAAA → tractor", "four-deck", ("10", "H"), *FOUR_AAAA, "5S 5S 6S 6S", True, None),
    ("four: AAAA → triple refused", "four-deck", ("10", "H"), *FOUR_AAAA, "9S 9S 9S 3S", False, PATTERN),
    ("four: AAAA → 2 pairs before 3+1", "four-deck", ("10", "H"), "AS AS AS AS", "5S 5S 9S 9S KS KS KS 3S", "KS KS KS 3S", False, PATTERN),
    ("four: AAAA → KK + 55", "four-deck", ("10", "H"), "AS AS AS AS", "5S 5S 9S 9S KS KS KS 3S", "KS KS 5S 5S", True, None),
    ("four: 667788 → JJJQQQ", "four-deck", ("10", "H"), "6S 6S 7S 7S 8S 8S", "JS JS JS QS QS QS 3S", "JS JS JS QS QS QS", True, None),
    ("four: 667788 → quad + pair", "four-deck", ("10", "H"), "6S 6S 7S 7S 8S 8S", "AS AS AS AS 3S 3S 5S 5S", "AS AS AS AS 3S 3S", True, None),
    ("four: 667788 → 3 pairs refused", "four-deck", ("10", "H"), "6S 6S 7S 7S 8S 8S", "AS AS AS AS 3S 3S 5S 5S", "3S 3S 5S 5S AS AS", False, PATTERN),
    ("four: JJJQQQ → 555444 first", "four-deck", ("10", "H"), "JS JS JS QS QS QS", "4S 4S 4S 5S 5S 5S 6S 6S 7S 7S 8S 8S", "6S 6S 7S 7S 8S 8S", False, PATTERN),
    ("four: JJJQQQ → 444555", "four-deck", ("10", "H"), "JS JS JS QS QS QS", "4S 4S 4S 5S 5S 5S 6S 6S 7S 7S 8S 8S", "4S 4S 4S 5S 5S 5S", True, None),
    ("four: 44556677 → 1連3+1對子", "four-deck", ("10", "H"), "4S 4S 5S 5S 6S 6S 7S 7S", "9S 9S JS JS QS QS AS AS 3S", "9S 9S JS JS QS QS AS AS", True, None),
    ("four: 44556677 → tractor+pair refused", "four-deck", ("10", "H"), "4S 4S 5S 5S 6S 6S 7S 7S", "9S 9S JS JS QS QS AS AS 3S", "9S 9S JS JS AS AS 3S QS", False, PATTERN),
    ("four: 44445555 → 2 quads", "four-deck", ("10", "H"), "4S 4S 4S 4S 5S 5S 5S 5S", "9S 9S 9S 9S KS KS KS KS 3S", "9S 9S 9S 9S KS KS KS KS", True, None),
    ("four: 44445555 → a quad short", "four-deck", ("10", "H"), "4S 4S 4S 4S 5S 5S 5S 5S", "9S 9S 9S 9S KS KS KS KS 3S", "9S 9S 9S 9S KS KS KS 3S", False, PATTERN),
    # seed 000 四副 主2、副2: constant 2s link with the level cards in a tractor
    ("four: 主2 + 副10 tractor owed", "four-deck", ("10", "H"), "5H 5H 6H 6H", "2H 2H 10C 10C 3H 4S", "2H 2H 3H 10C", False, PATTERN),
    ("four: plays 2H2H 10C10C", "four-deck", ("10", "H"), "5H 5H 6H 6H", "2H 2H 10C 10C 3H 4S", "2H 2H 10C 10C", True, None),
    ("four: throw quad + pair, pair owed", "four-deck", ("10", "H"), "AS AS AS AS KS KS", "9S 9S 9S 9S 5S 5S 3S", "9S 9S 9S 9S 5S 3S", False, PAIR),
    ("four: throw quad + pair answered", "four-deck", ("10", "H"), "AS AS AS AS KS KS", "9S 9S 9S 9S 5S 5S 3S", "9S 9S 9S 9S 5S 5S", True, None),
    # --- four-deck-cgc (seed 002 跟牌) ---
    ("cgc: 兩連拖 → 對子: pairs do", "four-deck-cgc", ("10", "H"), *FOUR_7788, "3S 3S 5S 5S", True, None),
    ("cgc: 四條 → 三條 before 連拖", "four-deck-cgc", ("10", "H"), *FOUR_AAAA, "5S 5S 6S 6S", False, PATTERN),
    ("cgc: 四條 → 三條", "four-deck-cgc", ("10", "H"), *FOUR_AAAA, "9S 9S 9S 3S", True, None),
    ("cgc: 三條兩連拖 → 三條 before 三連拖", "four-deck-cgc", ("10", "H"), "JS JS JS QS QS QS", "6S 6S 7S 7S 8S 8S 9S 9S 9S 3S", "6S 6S 7S 7S 8S 8S", False, PATTERN),
    ("cgc: 三條兩連拖 → 三條", "four-deck-cgc", ("10", "H"), "JS JS JS QS QS QS", "6S 6S 7S 7S 8S 8S 9S 9S 9S 3S", "9S 9S 9S 3S 6S 6S", True, None),
    ("cgc: 四條連拖 → two tractors", "four-deck-cgc", ("10", "H"), "4S 4S 4S 4S 5S 5S 5S 5S", "6S 6S 7S 7S JS JS QS QS 3S", "6S 6S 7S 7S JS JS QS QS", True, None),
    ("cgc: 四條連拖 → one tractor short", "four-deck-cgc", ("10", "H"), "4S 4S 4S 4S 5S 5S 5S 5S", "6S 6S 7S 7S JS JS QS QS 3S", "6S 6S 7S 7S JS JS 3S QS", False, PATTERN),
    # --- follow_tractors pairs_only (the Botzone judge): pairs are owed, never a tractor
    ("botzone: 334455 answered by three pairs", "botzone", ("2", "S"), *RULES_334455, "6H 6H QH QH 9H 9H", True, None),
    ("botzone: 334455 answered by 6677 + a pair", "botzone", ("2", "S"), *RULES_334455, "6H 6H 7H 7H 9H 9H", True, None),
    ("botzone: two pairs + two singles is short", "botzone", ("2", "S"), *RULES_334455, "6H 6H 7H 9H QH QH", False, PAIR),
    ("pairs_only over four-deck's lists: pairs", {"preset": "four-deck", "follow_tractors": "pairs_only"}, ("10", "H"),
     *FOUR_7788, "3S 3S 5S 5S", True, None),
    ("botzone: a pair lead as ever", "botzone", ("2", "S"), "3H 3H", "6H 6H 7H KS", "6H 7H", False, PAIR),
    # rbtying/shengji test_long_tractor_decomposition_draws_pairs (level K, spades trump)
    ("shengji-io: 778899 owes the pair KK", "shengji-io", ("K", "S"), "7S 7S 8S 8S 9S 9S",
     "4S 10S AS KH KD KC KS KS", "4S 10S AS KH KD KC", False, PAIR),
    ("shengji-io: 778899 answered with KK", "shengji-io", ("K", "S"), "7S 7S 8S 8S 9S 9S",
     "4S 10S AS KH KD KC KS KS", "4S 10S AS KH KS KS", True, None),
]


@pytest.mark.parametrize(
    ("rules", "trump", "lead", "hand", "play", "legal", "code"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_follow_case(rules: Any, trump: Any, lead: str, hand: str, play: str, legal: bool, code: str | None) -> None:
    r = rules_from_json(rules)
    order = order_of(r, trump)
    verdict = judge_follow(check_follow(cards(lead), cards(hand), cards(play), order, r))
    assert verdict.legal is legal
    assert [x.code for x in verdict.reasons][:1] == ([code] if code else [])
    for reason in verdict.reasons:
        assert len({said(reason), said(reason, "zh-Hans"), said(reason, "zh-Hant")}) == 3
    # the example play is always legal, and so is the play itself when legal
    assert judge_follow(check_follow(cards(lead), cards(hand), list(verdict.example), order, r)).legal is True


def test_the_cases_cover_every_preset() -> None:
    from engine.rules import PRESET_VALUES

    names = {c[1] if isinstance(c[1], str) else c[1]["preset"] for c in CASES}
    assert names == set(PRESET_VALUES)
    assert len(CASES) >= 40


# --- what the hand obliges -------------------------------------------------------------------


def required(rules: Any, trump: Any, lead: str, hand: str) -> Any:
    r = rules_from_json(rules)
    return judge_follow(check_follow(cards(lead), cards(hand), None, order_of(r, trump), r))


def test_the_longest_tractor_first_in_words() -> None:
    """The refusal says what was owed in the new terms (docs/rules.md §5): the tractor
    pieces longest first, and what the play placed."""
    r = rules_from_json("two-deck")
    v = judge_follow(check_follow(cards(LONGEST[0]), cards(LONGEST[1]), cards("7H 7H 8H 8H JH JH QH QH"), order_of(r, ("2", "S")), r))
    (reason,) = v.reasons
    assert reason.code == TRACTOR
    en, zh, zh_hant = said(reason), said(reason, "zh-Hans"), said(reason, "zh-Hant")
    assert "a 3-pair tractor within the lead's tractors (a 4-pair tractor)" in en
    assert "for example a 3-pair tractor + a pair" in en
    assert "longest first" in en and en.endswith("places only 2 2-pair tractors.")
    assert "放入一个三连拖" in zh and "只放入两个两连拖" in zh
    assert "放入一個三連拖" in zh_hant and "只放入兩個兩連拖" in zh_hant
    structure = v.required.structure
    assert structure is not None and structure.tractors == (Shape(2, 3),)
    assert pattern(structure.pattern(), "en") == "a 3-pair tractor + a pair"


def test_no_play_means_legal_null_and_an_example() -> None:
    v = required("two-deck", ("2", "S"), *RULES_334455)
    assert v.legal is None and v.reasons == ()
    req = v.required
    assert (req.suit, req.held, req.cards, req.rule) == (1, 8, 6, "generic")
    assert req.structure is not None
    assert req.structure.tractor_cards == 4 and req.structure.tuples == ((2, 3),)
    assert pattern(req.structure.pattern(), "en") == "a 2-pair tractor + a pair"
    assert said(req.describe()) == "6 cards in hearts forming a 2-pair tractor + a pair"
    assert said(req.describe(), "zh-Hans") == "6张红桃，组成一个两连拖 + 一对"
    assert said(req.describe(), "zh-Hant") == "6張紅桃，組成一個兩連拖 + 一對"
    # the example: 6677 + the lowest pair (99), high → low
    assert v.example == tuple(cards("9H 9H 7H 7H 6H 6H"))


@pytest.mark.parametrize(
    ("rules", "trump", "lead", "hand", "step", "steps"),
    [
        ("three-deck", ("10", "H"), *TITANIC_LOW, 3, 8),  # 一副拖拉機+兩單張
        ("three-deck", ("5", None), "SJ SJ SJ BJ BJ BJ", "5S 5S 5S 5H 5H 5H 5D", 2, 8),  # 兩副三對
        ("four-deck", ("10", "H"), *FOUR_7788, 1, 4),  # quad is the alternative of step 1
        ("four-deck-cgc", ("10", "H"), *FOUR_7788, 2, 4),  # CGC: pairs
        ("four-deck", ("10", "H"), "AS AS AS AS", "5S 5S 9S 9S KS KS KS 3S", 3, 6),  # 2個對子
        ("four-deck", ("10", "H"), "4S 4S 5S 5S 6S 6S 7S 7S", "9S 9S JS JS QS QS AS AS 3S", 2, 18),
        ("four-deck", ("10", "H"), "4S 4S 4S 4S 5S 5S 5S 5S", "3S 6S 7S 8S 9S JS QS KS AS", 19, 19),
    ],
)
def test_pattern_step_reached(rules: Any, trump: Any, lead: str, hand: str, step: int, steps: int) -> None:
    v = required(rules, trump, lead, hand)
    assert v.required.rule == "pattern"
    s = v.required.structure
    assert s is not None and (s.step, s.steps) == (step, steps)
    assert s.patterns == (rules if isinstance(rules, str) else rules["preset"])


def test_required_rules_without_structure() -> None:
    short = required("two-deck", ("2", "H"), "3S 3S 4S 4S", "AS 7H 8H 9C 2D").required
    assert (short.rule, short.cards, short.held, short.structure) == ("all_suit_cards", 1, 1, None)
    assert said(short.describe()) == "every card you hold in spades (1), then any 3 other cards"
    assert said(short.describe(), "zh-Hans") == "全部1张黑桃，再垫3张其他牌"
    only = required({"preset": "two-deck", "follow_draw": "suit_only"}, ("2", "S"), *RULES_334455).required
    assert (only.rule, only.cards, only.structure) == ("suit_only", 6, None)


def test_reasons_name_the_steps() -> None:
    r = rules_from_json("four-deck")
    order = order_of(r, ("10", "H"))
    v = judge_follow(check_follow(cards(FOUR_7788[0]), cards(FOUR_7788[1]), cards("3S 3S 5S 5S"), order, r))
    (reason,) = v.reasons
    assert "step 1 of 4: a 2-pair tractor or a quad" in said(reason)
    assert "step 2 of 4: 2 pairs" in said(reason)
    assert "第1步（共4步）" in said(reason, "zh-Hans") and "第2步" in said(reason, "zh-Hans")
    assert v.reached is not None and v.reached.step == 2


def test_reordering_changes_nothing() -> None:
    r = rules_from_json("two-deck")
    order = order_of(r, ("2", "S"))
    lead, hand = cards(RULES_334455[0]), cards(RULES_334455[1])
    play = cards("6H 6H 7H 7H 9H QH")
    a = judge_follow(check_follow(lead, hand, play, order, r))
    b = judge_follow(check_follow(lead[::-1], hand[::-1], play[::-1], order, r))
    assert a == b


# --- input that cannot be adjudicated ---------------------------------------------------------


@pytest.mark.parametrize(
    ("lead", "hand", "play", "paths"),
    [
        ("", "3S", "3S", [("lead",)]),
        ("3S 4H", "5S 6S", "5S 6S", [("lead", 1)]),  # 4H is another effective suit
        ("3S", "5S 6S", "5S 6S", [("play",)]),  # wrong card count
        ("3S 4S", "5S 6S 7S", "5S 8S", [("play", 1)]),  # not in the hand
        ("3S 4S", "5S 6S 7S", "5S 5S", [("play", 1)]),  # more copies than the hand
        ("3S 4S", "5S", None, [("hand",)]),  # the hand is smaller than the lead
        ("3S 3S", "3S 6S 7S", None, [("hand", 0)]),  # three 3S with two decks
        ("3S 4H", "5S", "5S 5S", [("lead", 1), ("hand",), ("play", 1)]),  # all reported
    ],
)
def test_invalid_input(lead: str, hand: str, play: str | None, paths: list[tuple[Any, ...]]) -> None:
    r = rules_from_json("two-deck")
    order = order_of(r, ("2", "H"))
    with pytest.raises(InvalidInput) as err:
        judge_follow(check_follow(cards(lead), cards(hand), None if play is None else cards(play), order, r))
    assert [p.path for p in err.value.problems] == paths
