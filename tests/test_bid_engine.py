"""engine.bidding: the 亮主 / 反主 ladder, the options and the no-bid fallbacks (docs/rules.md §9).

Cases cite the seed they come from: seed 001 报牌规则 (the ladder), seed 000 亮牌規則 (two
decks), 三副牌 亮主規則 and 四副牌, seed 002 叫主 / 亮主 / 叫牌花色 / 自反 / 抄底牌條件 and
發完牌后如果沒人亮主.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from engine.bidding import Bid, judge_bid, ladder, resolve_bids, strength
from engine.cards import BIG_JOKER, SMALL_JOKER, parse_card, parse_rank
from engine.errors import InvalidInput
from engine.rules import PRESET_VALUES, preset, rules_from_json
from engine.trump import Trump
from service.explain import words
from tests.helpers import said

TEN = parse_rank("10")


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def bid(seat: int, text: str) -> Bid:
    return Bid(seat, cards(text))


def rules(name: str = "two-deck", **overrides: object):  # type: ignore[no-untyped-def]
    return rules_from_json({"preset": name, **overrides}) if overrides else preset(name)


def judge(r, standing: Bid | None, new: Bid, level: int = TEN):  # type: ignore[no-untyped-def]
    return judge_bid(r, level, standing, new)


# --- the ladder, per deck count (seed 001 报牌规则; seed 000 / 003 三副 亮主規則) -------------

LADDERS = {
    1: ["single level card"],
    2: ["single level card", "pair of level cards", "pair of small jokers", "pair of big jokers"],
    3: [
        "single level card", "pair of level cards", "pair of small jokers", "pair of big jokers",
        "three level cards", "three small jokers", "three big jokers",
    ],
    4: [
        "single level card", "pair of level cards", "pair of small jokers", "pair of big jokers",
        "three level cards", "three small jokers", "three big jokers",
        "four level cards", "four small jokers", "four big jokers",
    ],
}
PRESET_FOR_DECKS = {1: "one-deck", 2: "two-deck", 3: "three-deck", 4: "four-deck"}


@pytest.mark.parametrize("decks", [1, 2, 3, 4])
def test_ladder_by_deck_count(decks: int) -> None:
    # seed 001 报牌规则: each step only "…三副牌 / …四副牌" with enough decks
    r = preset(PRESET_FOR_DECKS[decks])
    assert [words(s.step, "en") for s in ladder(r)] == LADDERS[decks]
    assert [s.rank for s in ladder(r)] == list(range(1, len(LADDERS[decks]) + 1))


def test_ladder_cgc_splits_pairs_by_suit_and_has_the_overturn_joker_steps() -> None:
    # seed 002 抄底牌條件 (D < C < H < S at equal count) and 叫牌花色 "單張3，對3，對王，三張3，
    # 三張王，四張3，四張王": joker pairs and triples are on the ladder (to overturn only)
    assert [words(s.step, "zh-Hans") for s in ladder(preset("four-deck-cgc"))] == [
        "单张级牌",
        "两张方块级牌", "两张梅花级牌", "两张红桃级牌", "两张黑桃级牌",
        "两张小王", "两张大王",
        "三张方块级牌", "三张梅花级牌", "三张红桃级牌", "三张黑桃级牌",
        "三张小王", "三张大王",
        "四张方块级牌", "四张梅花级牌", "四张红桃级牌", "四张黑桃级牌",
        "四张小王", "四张大王",
    ]


def _cards_for(step_name: str, suit: str) -> str:
    count = {"single": 1, "pair": 2, "three": 3, "four": 4}[step_name.split()[0]]
    card = "SJ" if "small" in step_name else "BJ" if "big" in step_name else f"10{suit}"
    return " ".join([card] * count)


STEP_CASES = [
    (decks, i) for decks, names in LADDERS.items() for i in range(len(names))
]


@pytest.mark.parametrize(("decks", "index"), STEP_CASES)
def test_every_ladder_step(decks: int, index: int) -> None:
    """Each step beats the one below it, loses to the one above, and ties with itself
    (seed 000 三副 "其它玩家就不能再亮同級別或該級別以下的牌了")."""
    r = preset(PRESET_FOR_DECKS[decks])
    names = LADDERS[decks]
    here = bid(1, _cards_for(names[index], "S"))
    step = strength(r, here.cards)
    assert step is not None and step.rank == index + 1 and words(step.step, "en") == names[index]
    fresh = judge(r, None, here)
    assert fresh.valid and fresh.reason.code == "bid.opens" and fresh.strength == step
    joker = "joker" in names[index]
    assert fresh.declares == Trump(TEN, None if joker else 0)
    if index > 0:
        below = bid(0, _cards_for(names[index - 1], "H"))
        up = judge(r, below, here)
        assert up.valid and up.standing == here and up.trump == fresh.declares
        down = judge(r, here, replace(below, seat=2))
        assert not down.valid and down.reason.code == "bid.weaker"
        assert down.standing == here and down.trump == fresh.declares
    if not joker or decks >= 2 * step.count:  # room for a second showing of equal strength
        same = bid(3, _cards_for(names[index], "D"))
        tie = judge(r, here, same)
        assert not tie.valid and tie.reason.code == "bid.equal_strength"


# --- options ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("overrides", "standing", "new", "valid", "code"),
    [
        # 自保 (seed 000 亮牌規則): the standing bidder strengthens its own suit
        ({"self_reinforce": True}, bid(0, "10H"), bid(0, "10H 10H"), True, "bid.reinforces"),
        ({"self_reinforce": False}, bid(0, "10H"), bid(0, "10H 10H"), False, "bid.self_reinforce_not_allowed"),
        # no-trump again with stronger jokers is the same trump: a reinforcement
        ({"self_reinforce": True}, bid(0, "SJ SJ"), bid(0, "BJ BJ"), True, "bid.reinforces"),
        ({"self_reinforce": False}, bid(0, "SJ SJ"), bid(0, "BJ BJ"), False, "bid.self_reinforce_not_allowed"),
        # a reinforcement must still be stronger
        ({"self_reinforce": True}, bid(0, "10H 10H"), bid(0, "10H"), False, "bid.weaker"),
        # 自反 (seed 000 亮牌規則): the standing bidder changes suit or goes to jokers
        ({"self_overturn": True}, bid(0, "10H"), bid(0, "10S 10S"), True, "bid.self_overturns"),
        ({"self_overturn": False}, bid(0, "10H"), bid(0, "10S 10S"), False, "bid.self_overturn_not_allowed"),
        ({"self_overturn": True}, bid(0, "10H"), bid(0, "SJ SJ"), True, "bid.self_overturns"),
        ({"self_overturn": False}, bid(0, "10H"), bid(0, "SJ SJ"), False, "bid.self_overturn_not_allowed"),
        ({"self_overturn": True}, bid(0, "10H 10H"), bid(0, "10S"), False, "bid.weaker"),
        # only the bidder itself is restricted: the partner (seat 2) and the others may overturn
        ({"self_overturn": False}, bid(0, "10H"), bid(2, "10S 10S"), True, "bid.overturns"),
        ({"self_overturn": False}, bid(0, "10H"), bid(1, "10S 10S"), True, "bid.overturns"),
        ({"self_reinforce": False}, bid(0, "10H"), bid(1, "10H 10H"), True, "bid.outbids"),
        # no_trump_bid_min_jokers (seed 002 "亮無主只能是四張王才能亮"; otherwise two)
        ({"no_trump_bid_min_jokers": 2}, bid(0, "10H"), bid(1, "SJ SJ"), True, "bid.overturns"),
        ({"no_trump_bid_min_jokers": 4, "no_trump_overturn_min_jokers": 4}, bid(0, "10H"), bid(1, "SJ SJ"),
         False, "bid.too_few_jokers"),
        ({"no_trump_bid_min_jokers": 4, "no_trump_overturn_min_jokers": 4}, bid(0, "10H"), bid(1, "BJ BJ BJ"),
         False, "bid.too_few_jokers"),
        ({"no_trump_bid_min_jokers": 4}, bid(0, "10H 10H 10H 10H"), bid(1, "SJ SJ SJ SJ"), True, "bid.overturns"),
        ({"no_trump_bid_min_jokers": 3, "no_trump_overturn_min_jokers": 3}, bid(0, "10H 10H"), bid(1, "BJ BJ"),
         False, "bid.too_few_jokers"),
        ({"no_trump_bid_min_jokers": 3}, bid(0, "10H 10H"), bid(1, "BJ BJ BJ"), True, "bid.overturns"),
        # no_trump_overturn_min_jokers (seed 002 叫牌花色 "單張3，對3，對王，三張3，三張王，四張3，四張王，
        # （同級別大王>小王）"): a joker pair or triple overturns to no-trump though opening needs four
        ({"no_trump_bid_min_jokers": 4}, bid(0, "10H"), bid(1, "SJ SJ"), True, "bid.overturns"),
        ({"no_trump_bid_min_jokers": 4}, bid(0, "10H 10H"), bid(1, "BJ BJ"), True, "bid.overturns"),
        ({"no_trump_bid_min_jokers": 4}, bid(0, "10H 10H 10H"), bid(1, "BJ BJ"), False, "bid.weaker"),
        ({"no_trump_bid_min_jokers": 4}, bid(0, "10H 10H 10H"), bid(1, "SJ SJ SJ"), True, "bid.overturns"),
        ({"no_trump_bid_min_jokers": 4}, bid(0, "SJ SJ SJ"), bid(1, "BJ BJ BJ"), True, "bid.outbids"),
        ({"no_trump_bid_min_jokers": 4}, bid(0, "BJ BJ BJ"), bid(1, "10S 10S 10S 10S"), True, "bid.overturns"),
        ({"no_trump_bid_min_jokers": 4, "no_trump_overturn_min_jokers": 3}, bid(0, "10H"), bid(1, "SJ SJ"),
         False, "bid.too_few_jokers"),
        # bid_suit_precedence (seed 002 抄底牌條件: 對方塊10 < 對梅花10 < 對紅桃10 < 對黑桃10)
        ({"bid_suit_precedence": True}, bid(0, "10D 10D"), bid(1, "10S 10S"), True, "bid.overturns"),
        ({"bid_suit_precedence": False}, bid(0, "10D 10D"), bid(1, "10S 10S"), False, "bid.equal_strength"),
        ({"bid_suit_precedence": True}, bid(0, "10S 10S"), bid(1, "10D 10D"), False, "bid.weaker"),
        ({"bid_suit_precedence": True}, bid(0, "10C 10C 10C"), bid(1, "10H 10H 10H"), True, "bid.overturns"),
        ({"bid_suit_precedence": True}, bid(0, "10S 10S"), bid(1, "10D 10D 10D"), True, "bid.overturns"),
        # single cards have no suit precedence (docs/rules.md §9: "bids of two or more cards")
        ({"bid_suit_precedence": True}, bid(0, "10D"), bid(1, "10S"), False, "bid.equal_strength"),
        ({"bid_suit_precedence": True}, bid(0, "10S 10S 10S 10S"), bid(1, "SJ SJ SJ SJ"), True, "bid.overturns"),
    ],
)
def test_options(overrides: dict[str, object], standing: Bid, new: Bid, valid: bool, code: str) -> None:
    r = rules("four-deck", **overrides)
    verdict = judge(r, standing, new)
    assert (verdict.valid, verdict.reason.code) == (valid, code)
    kept = new if valid else standing
    assert verdict.standing == kept
    assert verdict.trump == Trump(TEN, None if kept.cards[0] in (SMALL_JOKER, BIG_JOKER) else kept.cards[0] // 13)
    assert said(verdict.reason) and said(verdict.reason, "zh-Hans")


def test_self_rule_is_checked_before_strength() -> None:
    # a forbidden 自反 is refused as forbidden, even when it is also too weak
    verdict = judge(preset("four-deck"), bid(0, "10H 10H"), bid(0, "10S"))
    assert verdict.reason.code == "bid.self_overturn_not_allowed"


def test_single_joker_never_bids() -> None:
    for name in PRESET_VALUES:
        for card in ("SJ", "BJ"):
            verdict = judge(preset(name), None, bid(0, card))
            assert not verdict.valid and verdict.reason.code == "bid.single_joker"
            assert verdict.strength is None and verdict.declares is None
            assert verdict.trump is None and verdict.standing is None


def test_a_joker_bid_makes_no_trump_and_a_level_card_its_suit() -> None:
    r = preset("two-deck")
    assert judge(r, None, bid(0, "BJ BJ")).declares == Trump(TEN, None)
    for suit, index in (("S", 0), ("H", 1), ("C", 2), ("D", 3)):
        assert judge(r, None, bid(0, f"10{suit}")).declares == Trump(TEN, index)


def test_presets_carry_the_seed_options() -> None:
    # docs/rules.md §10: self_overturn off in the four-deck presets (seed 000 四副 "不能自反主",
    # seed 002 "自反：不能自反", and in shengji-io, shengji.io's default); precedence and four
    # jokers only in four-deck-cgc
    for name in PRESET_VALUES:
        r = preset(name)
        standing, own = bid(0, "10H"), bid(0, "10S 10S")
        if r.decks == 1:
            continue  # one deck: only single level cards bid, so nothing to overturn with
        verdict = judge(r, standing, own)
        assert verdict.valid == (not name.startswith("four-deck") and name != "shengji-io"), name
        pair = judge(r, bid(0, "10D 10D"), bid(1, "10S 10S"))
        assert pair.valid == (name == "four-deck-cgc"), name
        jokers = judge(r, None, bid(1, "SJ SJ"))
        assert jokers.valid == (name != "four-deck-cgc"), name


# --- seeds' examples ------------------------------------------------------------------------

def _sequence(r, seq: list[Bid], level: int = TEN):  # type: ignore[no-untyped-def]
    return resolve_bids(r, level, seq)


def test_seed_000_three_decks_ladder_playing_10() -> None:
    # seed 000 三副 亮主規則 (假定當前打 10): 單張10 < 兩張10 < 兩張王 < 三張10 < 三張王
    seq = [bid(0, "10H"), bid(1, "10S 10S"), bid(2, "SJ SJ"), bid(3, "10D 10D 10D"), bid(0, "BJ BJ BJ")]
    result = _sequence(preset("three-deck"), seq)
    assert result.first_invalid is None
    assert [s.reason.code for s in result.steps] == [
        "bid.opens", "bid.overturns", "bid.overturns", "bid.overturns", "bid.overturns"
    ]
    assert [s.strength.rank for s in result.steps if s.strength] == [1, 2, 3, 5, 7]
    assert result.standing == seq[-1] and result.trump == Trump(TEN, None)


def test_seed_000_three_decks_same_step_cannot_follow() -> None:
    # seed 000 三副: "其它玩家就不能再亮同級別或該級別以下的牌了"
    seq = [bid(0, "10H 10H"), bid(1, "10S 10S"), bid(2, "10C")]
    result = _sequence(preset("three-deck"), seq)
    assert [s.reason.code for s in result.steps] == ["bid.opens", "bid.equal_strength", "bid.weaker"]
    assert result.first_invalid == 1
    assert result.standing == seq[0] and result.trump == Trump(TEN, 1)


def test_seed_000_two_decks_first_ten_shown_names_trump() -> None:
    # seed 000 亮牌規則: 第一次亮出的 10 的花色作為主牌花色; 反無主 with a pair of jokers
    result = _sequence(preset("two-deck"), [bid(2, "10C"), bid(1, "10D")])
    assert result.trump == Trump(TEN, 2)
    result = _sequence(preset("two-deck"), [bid(2, "10C"), bid(1, "SJ SJ"), bid(3, "BJ BJ")])
    assert [s.valid for s in result.steps] == [True, True, True]
    assert result.standing == bid(3, "BJ BJ") and result.trump == Trump(TEN, None)


def test_seed_000_four_decks_one_more_card_overturns() -> None:
    # seed 000 四副: "比對方叫牌多1張牌的情況可改變主牌花色，以先出現者為準"; "不能自反主"
    r = preset("four-deck")
    result = _sequence(r, [bid(0, "10H 10H"), bid(1, "10S 10S"), bid(1, "10S 10S 10S"), bid(1, "10C 10C 10C 10C")])
    assert [s.reason.code for s in result.steps] == [
        "bid.opens", "bid.equal_strength", "bid.overturns", "bid.self_overturn_not_allowed"
    ]
    assert result.trump == Trump(TEN, 0)


def test_seed_002_chaodi_order_playing_10() -> None:
    # seed 002 抄底牌條件: 單張10 < 對方塊10 < 對梅花10 < 對紅桃10 < 對黑桃10 < 對小王 < 對大王 <
    # 四個王 — the pairs of jokers only where two jokers may bid no-trump
    r = rules("four-deck-cgc", no_trump_bid_min_jokers=2)
    seq = [
        bid(0, "10S"), bid(1, "10D 10D"), bid(2, "10C 10C"), bid(3, "10H 10H"), bid(0, "10S 10S"),
        bid(1, "SJ SJ"), bid(2, "BJ BJ"), bid(1, "SJ SJ SJ SJ"), bid(2, "BJ BJ BJ BJ"),
    ]
    result = _sequence(r, seq)
    assert result.first_invalid is None
    ranks = [s.strength.rank for s in result.steps if s.strength]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)
    assert result.standing == seq[-1] and result.trump == Trump(TEN, None)
    # every step in the reverse order is refused after the strongest
    backwards = _sequence(r, [seq[-1], *[replace(b, seat=3) for b in seq[:5]]])
    assert [s.valid for s in backwards.steps] == [True] + [False] * 5


def test_seed_002_cgc_no_trump_only_with_four_jokers_big_over_small() -> None:
    # seed 002 亮主 "亮無主只能是四張王才能亮" (no opening with jokers short of four), yet its
    # overturn ladder 叫牌花色 (打3) "單張3，對3，對王，三張3，三張王，四張3，四張王，（同級別大王>小王）"
    r = preset("four-deck-cgc")
    three = parse_rank("3")
    result = _sequence(
        r,
        [bid(0, "SJ SJ"), bid(0, "3S"), bid(1, "3D 3D"), bid(0, "SJ SJ"), bid(3, "BJ BJ"), bid(1, "3H 3H 3H"),
         bid(0, "SJ SJ SJ"), bid(3, "BJ BJ BJ"), bid(1, "3C 3C 3C 3C"), bid(0, "SJ SJ SJ SJ"),
         bid(3, "BJ BJ BJ BJ")],
        three,
    )
    assert [s.reason.code for s in result.steps] == [
        "bid.too_few_jokers", "bid.opens", "bid.overturns", "bid.overturns", "bid.outbids", "bid.overturns",
        "bid.overturns", "bid.outbids", "bid.overturns", "bid.overturns", "bid.outbids",
    ]
    assert "may only overturn" in said(result.steps[0].reason) and "只能用来反主" in said(result.steps[0].reason, "zh-Hans")
    assert result.first_invalid == 0 and result.trump == Trump(three, None)
    weaker = judge(r, bid(1, "BJ BJ BJ BJ"), bid(0, "SJ SJ SJ SJ"), three)
    assert weaker.reason.code == "bid.weaker"


def test_seed_002_no_self_overturn_until_someone_else_bids() -> None:
    # seed 002 炒底規則: "不能自反。如果有其他玩家反主炒底，在其後一輪他可以炒底"
    r = preset("four-deck-cgc")
    seq = [bid(0, "10H"), bid(0, "10S 10S"), bid(1, "10C 10C"), bid(0, "10S 10S 10S")]
    result = _sequence(r, seq)
    assert [s.reason.code for s in result.steps] == [
        "bid.opens", "bid.self_overturn_not_allowed", "bid.overturns", "bid.overturns"
    ]
    assert result.standing == seq[-1] and result.trump == Trump(TEN, 0)


# --- no-bid fallbacks ---------------------------------------------------------------------

@pytest.mark.parametrize(
    ("name", "overrides", "kitty", "trump_suit", "code"),
    [
        # seed 000 亮牌規則 "若發牌結束仍無人亮牌，則打無主"
        ("two-deck", {}, None, None, "bid.fallback.no_trump"),
        ("one-deck", {}, None, None, "bid.fallback.no_trump"),
        ("three-deck", {}, None, None, "bid.fallback.no_trump"),
        # seed 000 四副 "若發牌結束仍無人亮牌，則以黑桃花色作為主牌花色"
        ("four-deck", {}, None, 0, "bid.fallback.spades"),
        ("two-deck", {"no_bid_fallback": "spades"}, None, 0, "bid.fallback.spades"),
        # seed 002 發完牌后如果沒人亮主: the first 10 in the turned kitty …
        ("four-deck-cgc", {}, "3S 4C 10D 5S 10H 6S 7S 8S", 3, "bid.fallback.kitty_level_card"),
        ("four-deck-cgc", {}, "BJ 4C 6D 5S 10C 6S 7S 8S", 2, "bid.fallback.kitty_level_card"),
        # … else the first card's suit …
        ("four-deck-cgc", {}, "4C 3S 6D 5S 9H 6S 7S 8S", 2, "bid.fallback.kitty_first_card"),
        # (a constant-trump 2 is not a level card: its printed suit counts)
        ("four-deck-cgc", {}, "2H 3S 6D 5S 9H 6S 7S 8S", 1, "bid.fallback.kitty_first_card"),
        # … and a joker first means no-trump
        ("four-deck-cgc", {}, "SJ 3S 6D 5S 9H 6S 7S 8S", None, "bid.fallback.kitty_joker"),
        ("two-deck", {"no_bid_fallback": "kitty_first_card"}, "BJ 3S 6D 5S 9H 6S 7S 8S", None,
         "bid.fallback.kitty_joker"),
    ],
)
def test_no_bid_fallback(
    name: str, overrides: dict[str, object], kitty: str | None, trump_suit: int | None, code: str
) -> None:
    r = rules(name, **overrides)
    for seq in ([], [bid(0, "SJ")]):  # nobody bid, or nobody bid validly
        result = resolve_bids(r, TEN, seq, None if kitty is None else cards(kitty), first_hand=False)
        assert result.standing is None
        assert result.trump == Trump(TEN, trump_suit)
        assert result.fallback == r.no_bid_fallback
        assert result.reason.code == code


def test_fallback_unused_when_a_bid_stands() -> None:
    result = resolve_bids(preset("four-deck-cgc"), TEN, [bid(1, "10C")])  # no kitty needed
    assert result.fallback is None and result.reason.code == "bid.stands"
    assert result.trump == Trump(TEN, 2)


@pytest.mark.parametrize(
    ("name", "overrides"),
    [("four-deck-cgc", {}), ("four-deck", {"no_bid_fallback": "kitty_first_card"})],
)
def test_kitty_first_card_without_a_kitty_is_invalid_input(name: str, overrides: dict[str, object]) -> None:
    with pytest.raises(InvalidInput) as info:
        resolve_bids(rules(name, **overrides), TEN, [bid(0, "SJ")], first_hand=False)
    assert [p.path for p in info.value.problems] == [("kitty",)]
    assert "kitty_first_card" in info.value.problems[0].message


def test_kitty_of_the_wrong_size_is_invalid_input() -> None:
    with pytest.raises(InvalidInput) as info:
        resolve_bids(preset("four-deck-cgc"), TEN, [], cards("3S 4S"))
    assert [p.path for p in info.value.problems] == [("kitty",)]


# --- bad input: not a bid at all -----------------------------------------------------------

@pytest.mark.parametrize(
    ("name", "standing", "new", "paths"),
    [
        # cards not of the level rank and not jokers (a constant-trump 2 is no level card)
        ("two-deck", None, bid(0, "9H"), [("bid", "cards", 0)]),
        ("four-deck", None, bid(0, "2H 2H"), [("bid", "cards", 0), ("bid", "cards", 1)]),
        ("two-deck", bid(1, "10H 9H"), bid(0, "10S"), [("standing", "cards", 1)]),
        # mixed suits, mixed jokers, level card with a joker
        ("two-deck", None, bid(0, "10H 10S"), [("bid", "cards", 1)]),
        ("three-deck", None, bid(0, "SJ BJ"), [("bid", "cards", 1)]),
        ("three-deck", None, bid(0, "SJ SJ 10H"), [("bid", "cards", 2)]),
        # more copies than decks
        ("two-deck", None, bid(0, "10H 10H 10H"), [("bid", "cards", 2)]),
        ("one-deck", None, bid(0, "SJ SJ"), [("bid", "cards", 1)]),
        # … also across seats: seat 0 shows two 10H, seat 1 cannot show two more of two decks
        ("two-deck", bid(0, "10H 10H"), bid(1, "10H 10H"), [("bid", "cards", 0)]),
        ("three-deck", bid(0, "10H"), bid(1, "10H 10H 10H"), [("bid", "cards", 2)]),
        # no cards
        ("two-deck", None, Bid(0, ()), [("bid", "cards")]),
        # a standing bid that could not stand
        ("two-deck", bid(1, "SJ"), bid(0, "10S"), [("standing", "cards")]),
        ("four-deck-cgc", bid(1, "BJ"), bid(0, "10S 10S 10S"), [("standing", "cards")]),
    ],
)
def test_not_a_bid_is_invalid_input(name: str, standing: Bid | None, new: Bid, paths: list[tuple]) -> None:
    with pytest.raises(InvalidInput) as info:
        judge(preset(name), standing, new)
    assert [p.path for p in info.value.problems] == paths


def test_own_reinforcement_counts_copies_on_the_new_bid_alone() -> None:
    # docs/rules.md §9: standing 10H, reinforced with 10H 10H — two copies, not three
    verdict = judge(preset("two-deck"), bid(0, "10H"), bid(0, "10H 10H"))
    assert verdict.valid
    result = resolve_bids(preset("two-deck"), TEN, [bid(0, "10H"), bid(0, "10H 10H"), bid(1, "SJ SJ")])
    assert result.first_invalid is None


def test_resolve_reports_copies_across_seats_and_kitty() -> None:
    with pytest.raises(InvalidInput) as info:
        resolve_bids(
            preset("four-deck-cgc"), TEN, [bid(0, "10H 10H"), bid(1, "10H 10H 10H")],
            cards("3S 4S 5S 6S 7S 8S 9S JS"),
        )
    assert [p.path for p in info.value.problems] == [("bids", 1, "cards", 2)]
    with pytest.raises(InvalidInput) as info:
        resolve_bids(
            preset("two-deck"), TEN, [bid(0, "SJ SJ")], cards("SJ 4S 5S 6S 7S 8S 9S JS"),
        )
    assert [p.path for p in info.value.problems] == [("bids", 0, "cards", 1)]


def test_resolve_reports_every_bad_bid() -> None:
    with pytest.raises(InvalidInput) as info:
        resolve_bids(preset("two-deck"), TEN, [bid(0, "9H"), bid(1, "10H"), bid(2, "10S 10C")])
    assert [p.path for p in info.value.problems] == [("bids", 0, "cards", 0), ("bids", 2, "cards", 1)]


# --- properties -----------------------------------------------------------------------------

_KINDS = ["10S", "10H", "10C", "10D", "SJ", "BJ"]


@st.composite
def _bid_sequences(draw: st.DrawFn) -> tuple[str, list[Bid]]:
    name = draw(st.sampled_from(["two-deck", "three-deck", "four-deck", "four-deck-cgc"]))
    decks = preset(name).decks
    shown: dict[tuple[int, str], int] = {}
    seq: list[Bid] = []
    for _ in range(draw(st.integers(0, 7))):
        seat = draw(st.integers(0, 3))
        kind = draw(st.sampled_from(_KINDS))
        others = sum(n for (s, k), n in shown.items() if k == kind and s != seat)
        if others >= decks:
            continue
        count = draw(st.integers(1, decks - others))
        shown[(seat, kind)] = max(shown.get((seat, kind), 0), count)
        seq.append(Bid(seat, cards(" ".join([kind] * count))))
    return name, seq


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_bid_sequences())
def test_resolve_agrees_with_judge_and_strength_only_rises(case: tuple[str, list[Bid]]) -> None:
    name, seq = case
    r = preset(name)
    result = resolve_bids(r, TEN, seq, cards("3S 4S 5S 6S 7S 8S 9S JS")[: r.kitty_size] or None, first_hand=False)
    standing = None
    ranks = []
    for new, step in zip(seq, result.steps, strict=True):
        assert judge_bid(r, TEN, standing, new) == step
        if step.valid:
            assert step.strength is not None
            ranks.append(step.strength.rank)
            standing = new
        assert step.standing == standing
    assert ranks == sorted(set(ranks))  # every accepted bid is strictly stronger
    assert result.standing == standing
    invalid = [i for i, s in enumerate(result.steps) if not s.valid]
    assert result.first_invalid == (invalid[0] if invalid else None)
    if standing is not None:
        assert result.trump == result.steps[max(i for i, s in enumerate(result.steps) if s.valid)].declares


@pytest.mark.parametrize("seat", [-1, 4])
def test_a_bid_names_one_of_the_four_seats(seat: int) -> None:
    """A seat outside 0..3 is refused, never read as another seat (SEAT_FACTS[-1] is seat 3)."""
    with pytest.raises(ValueError, match="0..3"):
        Bid(seat, ())
