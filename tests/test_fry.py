"""Seed 002's bidding in full (docs/rules.md §9): frying the kitty (``kitty_fry``), the
first-hand redeal (``no_bid_first_hand``) and the joker overturn to no-trump
(``no_trump_overturn_min_jokers``), through the engine's public functions and the app."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bidding import Bid, resolve_bids
from engine.cards import parse_card, parse_rank
from engine.errors import InvalidInput
from engine.fry import FRY_LADDER_SIZE, NO_TRUMP, Fry, fry_dealer, fry_step, judge_fries
from engine.rules import preset, rules_from_json
from engine.trump import Trump
from tests.helpers import said

TEN = parse_rank("10")
CGC = preset("four-deck-cgc")


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def fry(seat: int, text: str, names: int | None = None) -> Fry:
    return Fry(seat, cards(text), names)


def hearts(seat: int = 0) -> tuple[Bid, Trump]:
    return Bid(seat, cards("10H")), Trump(TEN, 1)


# --- the fry ladder --------------------------------------------------------------------------


def test_fry_ladder_order() -> None:
    """Seed 002 抄底牌條件: "單張10<對方塊10<對梅花10<對紅桃10<對黑桃10<對小王<對大王<四個王"."""
    ladder = ["10S", "10D 10D", "10C 10C", "10H 10H", "10S 10S", "SJ SJ", "BJ BJ", "SJ SJ BJ BJ"]
    steps = [fry_step(TEN, cards(text)) for text in ladder]
    assert [s.rank for s in steps if s is not None] == list(range(1, FRY_LADDER_SIZE + 1))
    assert fry_step(TEN, cards("BJ BJ BJ BJ")).rank == FRY_LADDER_SIZE  # type: ignore[union-attr]
    # three or four level cards, three jokers, a single joker: bids, but no fry step
    for text in ("10S 10S 10S", "10S 10S 10S 10S", "SJ SJ SJ", "SJ"):
        assert fry_step(TEN, cards(text)) is None


@pytest.mark.parametrize(
    ("standing", "attempt", "code", "trump"),
    [
        # each step beats the one below it: "亮出比當前級別高的牌 … 並且視同“反主”"
        ("10S", "10D 10D", "fry.fries", Trump(TEN, 3)),
        ("10D 10D", "10C 10C", "fry.fries", Trump(TEN, 2)),
        ("10C 10C", "10H 10H", "fry.fries", Trump(TEN, 1)),
        ("10H 10H", "10S 10S", "fry.fries", Trump(TEN, 0)),
        ("10S 10S", "SJ SJ", "fry.fries", Trump(TEN, None)),
        ("SJ SJ", "BJ BJ", "fry.fries", Trump(TEN, None)),
        # not stronger: refused, the standing declaration keeps the kitty with its holder
        ("10S 10S", "10H 10H", "fry.weaker", Trump(TEN, 0)),
        ("10S 10S", "10S 10S", "fry.equal_strength", Trump(TEN, 0)),
        ("BJ BJ", "SJ SJ", "fry.weaker", Trump(TEN, None)),
        # three level cards are a bid but no fry step
        ("10H", "10S 10S 10S", "fry.not_on_ladder", Trump(TEN, 1)),
        # a standing bid the fry ladder has no step for: only four jokers fry it
        ("10H 10H 10H", "BJ BJ", "fry.weaker", Trump(TEN, 1)),
        ("10H 10H 10H", "SJ SJ BJ BJ", "fry.fries", Trump(TEN, None)),
        # four jokers of one kind from the bidding: nothing fries them
        ("BJ BJ BJ BJ", "SJ SJ BJ BJ", "fry.equal_strength", Trump(TEN, None)),
    ],
)
def test_one_fry(standing: str, attempt: str, code: str, trump: Trump) -> None:
    shown = cards(standing)
    before = Trump(TEN, None if shown[0] >= 52 else shown[0] // 13)
    names = NO_TRUMP if len(cards(attempt)) == 4 else None
    seq = judge_fries(CGC, TEN, 0, Bid(0, shown), before, [fry(1, attempt, names)])
    step = seq.steps[0]
    assert (step.reason.code, step.trump) == (code, trump)
    assert seq.kitty_holder == (1 if code == "fry.fries" else 0)
    assert said(step.reason) and said(step.reason, "zh-Hans")


def test_four_jokers_name_no_trump_or_any_suit() -> None:
    """Seed 002: "用四個王炒時，可選擇打無主、或指定任意花色作主牌"."""
    standing, trump = hearts()
    for names, suit in ((NO_TRUMP, None), (0, 0), (3, 3), (1, 1)):
        seq = judge_fries(CGC, TEN, 0, standing, trump, [fry(2, "SJ BJ SJ BJ", names)])
        assert seq.steps[0].valid and seq.trump == Trump(TEN, suit) and seq.kitty_holder == 2


# --- turns, rounds and who may fry ----------------------------------------------------------------


def test_no_self_fry_until_another_player_fries() -> None:
    """Seed 002: "玩家自己亮的主，而別人都沒有人反主的情況下，不能亮主的人自己反主炒底，俗稱不能自反。
    如果有其他玩家反主炒底，在其後一輪他可以炒底。" Dealer 0; seat 1 declared."""
    standing, trump = Bid(1, cards("10H")), Trump(TEN, 1)
    seq = judge_fries(CGC, TEN, 0, standing, trump,
                      [fry(1, "10S 10S"), fry(2, "10S 10S"), fry(1, "SJ SJ")])
    assert [s.reason.code for s in seq.steps] == ["fry.own_declaration", "fry.fries", "fry.fries"]
    assert (seq.kitty_holder, seq.declarer, seq.trump) == (1, 1, Trump(TEN, None))
    assert "不能自反" in said(seq.steps[0].reason, "zh-Hans")


def test_the_frier_cannot_fry_over_itself() -> None:
    standing, trump = hearts()
    seq = judge_fries(CGC, TEN, 0, standing, trump, [fry(1, "10S 10S"), fry(1, "SJ SJ")])
    # after seat 1 fried it holds the kitty: it is not asked
    assert [s.reason.code for s in seq.steps] == ["fry.fries", "fry.holds_kitty"]
    assert seq.kitty_holder == 1


def test_rounds_go_on_until_a_whole_round_passes() -> None:
    """Seed 002: "待莊家扣底牌之後，要按出牌順序依次詢問其他玩家是否抄底牌 … 抄底牌不限次數"."""
    standing, trump = hearts()
    seq = judge_fries(CGC, TEN, 0, standing, trump, [
        fry(3, "10D 10D"),   # seats 1 and 2 passed; seat 3 fries
        fry(2, "10C 10C"),   # seats 0 and 1 passed; seat 2 fries
        fry(3, "10H 10H"),   # seat 3 fries again in the next round
        fry(1, "10S 10S"),   # seat 0 passed; seat 1 fries
        fry(1, "SJ SJ"),     # holder: not asked
        fry(3, "SJ SJ"),     # seat 2 passed; seat 3 fries
        fry(0, "BJ BJ"),     # seat 0 fries in the same round
    ])
    assert [s.reason.code for s in seq.steps] == [
        "fry.fries", "fry.fries", "fry.fries", "fry.fries", "fry.holds_kitty", "fry.fries", "fry.fries",
    ]
    assert [s.kitty_holder for s in seq.steps] == [3, 2, 3, 1, 1, 3, 0]
    assert (seq.kitty_holder, seq.trump, seq.reason.code) == (0, Trump(TEN, None), "fry.ends")


def test_refused_attempts_are_passes_and_a_passed_round_ends_frying() -> None:
    standing, trump = hearts()
    seq = judge_fries(CGC, TEN, 0, standing, trump, [
        fry(1, "10S"),        # single 10 vs single 10: equal, a pass
        fry(2, "10S 10S 10S"),  # not on the ladder: a pass
        fry(1, "10S 10S"),    # seat 3 passed too: the round passed before seat 1's second turn
    ])
    assert [s.reason.code for s in seq.steps] == ["fry.equal_strength", "fry.not_on_ladder", "fry.over"]
    assert (seq.kitty_holder, seq.trump) == (0, trump)
    # seat 3 acting in the same round is still in time
    late = judge_fries(CGC, TEN, 0, standing, trump, [fry(1, "10S"), fry(3, "10S 10S")])
    assert [s.reason.code for s in late.steps] == ["fry.equal_strength", "fry.fries"]


def test_no_frying_when_trump_came_from_the_turned_kitty() -> None:
    """Seed 002: "若是翻底亮主的，不允許炒底"."""
    seq = judge_fries(CGC, TEN, 2, None, Trump(TEN, 2), [fry(3, "10S 10S"), fry(0, "SJ SJ BJ BJ", NO_TRUMP)])
    assert [s.reason.code for s in seq.steps] == ["fry.kitty_turned", "fry.kitty_turned"]
    assert (seq.kitty_holder, seq.declarer, seq.trump, seq.reason.code) == (2, None, Trump(TEN, 2), "fry.none")


# --- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attempt", "paths"),
    [
        (fry(1, "9S 9S"), [("fries", 0, "cards", 0), ("fries", 0, "cards", 1)]),
        (fry(1, "10S 10H"), [("fries", 0, "cards", 1)]),
        (fry(1, "SJ SJ BJ BJ"), [("fries", 0, "names")]),  # four jokers must name the trump
        (fry(1, "10S 10S", 0), [("fries", 0, "names")]),   # only four jokers name it
        (fry(1, "10S 10S 10S 10S 10S"), [("fries", 0, "cards", 4)]),
    ],
)
def test_not_a_fry_is_invalid_input(attempt: Fry, paths: list[tuple[Any, ...]]) -> None:
    standing, trump = hearts()
    with pytest.raises(InvalidInput) as info:
        judge_fries(CGC, TEN, 0, standing, trump, [attempt])
    assert [p.path for p in info.value.problems] == paths


def test_frying_needs_kitty_fry() -> None:
    standing, trump = hearts()
    for rules in (preset("four-deck"), preset("two-deck"), rules_from_json({"preset": "four-deck-cgc", "kitty_fry": False})):
        with pytest.raises(InvalidInput) as info:
            judge_fries(rules, TEN, 0, standing, trump, [fry(1, "10S 10S")])
        assert [(p.path, p.code) for p in info.value.problems] == [(("fries",), "kitty_fry_not_allowed")]


def test_kitty_fry_option_is_checked() -> None:
    with pytest.raises(InvalidInput) as info:
        rules_from_json({"preset": "four-deck", "kitty_fry": True})  # four-deck has no kitty
    assert [p.path for p in info.value.problems] == [("kitty_fry",)]
    with pytest.raises(InvalidInput):
        rules_from_json({"preset": "four-deck-cgc", "kitty_fry": "yes"})


def test_fry_dealer() -> None:
    """Seed 002: "第一局的莊家由亮主方擔任，如果有人“反主”，則由“反主”的玩家坐莊"."""
    assert fry_dealer(Bid(2, cards("10H")), None, True) == 2
    assert fry_dealer(Bid(2, cards("10H")), 3, False) == 3
    for dealer, first in ((None, False), (None, None), (1, True)):
        with pytest.raises(InvalidInput) as info:
            fry_dealer(Bid(2, cards("10H")), dealer, first)
        assert info.value.problems[0].path == ("dealer",)


# --- redeal and the joker overturn (engine) ----------------------------------------------------------


def test_first_hand_without_a_bid_is_dealt_again() -> None:
    """Seed 002: "若發牌結束仍無人亮牌，則以翻底牌第一張的花色來確定主花色，若是第一局無人亮主則重新發牌"."""
    kitty = cards("4C 3S 6D 5S 9H 6S 7S 8S")
    for bids in ([], [Bid(0, cards("SJ SJ"))]):  # nobody bid, or nobody validly (a joker pair cannot open)
        again = resolve_bids(CGC, TEN, bids, kitty, first_hand=True)
        assert (again.redeal, again.trump, again.reason.code) == (True, None, "bid.redeal")
        later = resolve_bids(CGC, TEN, bids, kitty, first_hand=False)
        assert (later.redeal, later.trump, later.reason.code) == (False, Trump(TEN, 2), "bid.fallback.kitty_first_card")
    with pytest.raises(InvalidInput) as info:
        resolve_bids(CGC, TEN, [], kitty)
    assert [(p.path, p.code) for p in info.value.problems] == [(("first_hand",), "first_hand_required")]
    # fallback rules never need to know
    assert resolve_bids(preset("two-deck"), TEN, []).trump == Trump(TEN, None)
    # a bid that stands needs no first_hand either
    assert resolve_bids(CGC, TEN, [Bid(1, cards("10C"))]).trump == Trump(TEN, 2)


def test_overturn_min_jokers_is_checked() -> None:
    with pytest.raises(InvalidInput) as info:
        rules_from_json({"preset": "two-deck", "no_trump_overturn_min_jokers": 3})  # above the opening's 2
    assert [p.path for p in info.value.problems] == [("no_trump_overturn_min_jokers",)]
    with pytest.raises(InvalidInput):
        rules_from_json({"preset": "four-deck-cgc", "no_trump_overturn_min_jokers": 1})


# --- through the app ----------------------------------------------------------------------------------


def resolve(api: Any, **kw: Any) -> Any:
    return api.post("/v1/bid/resolve", {"rules": "four-deck-cgc", "trump": {"level": "10"}} | kw)


def test_fry_api(api: Any) -> None:
    resp = resolve(api, bids=[{"seat": 0, "cards": ["10H"]}], first_hand=True, fries=[
        {"seat": 2, "cards": ["10S", "10S"]},
        {"seat": 0, "cards": ["SJ", "SJ"]},
        {"seat": 1, "cards": ["SJ", "BJ", "SJ", "BJ"], "names": "D"},
        {"seat": 3, "cards": ["BJ", "BJ"]},
    ])
    assert resp.status_code == 200, resp.get_json()
    data = resp.get_json()
    assert data["standing"] == {"seat": 0, "cards": ["10H"]}
    assert data["trump"] == {"level": "10", "suit": "D"} and data["redeal"] is False
    fried = data["fry"]
    assert [(s["reasons"][0]["code"], s["kitty_holder"]) for s in fried["steps"]] == [
        ("fry.fries", 2), ("fry.fries", 0), ("fry.fries", 1), ("fry.weaker", 1)]
    assert [s["strength"]["rank"] for s in fried["steps"]] == [5, 6, 8, 7]
    assert fried["kitty_holder"] == 1 and fried["standing"] == {"seat": 1, "cards": ["SJ", "BJ", "SJ", "BJ"]}
    assert fried["steps"][2]["names"] == "D" and fried["reasons"][0]["code"] == "fry.ends"
    held = resolve(api, bids=[{"seat": 0, "cards": ["10H"]}], dealer=0, fries=[{"seat": 0, "cards": ["10S", "10S"]}])
    assert held.get_json()["fry"]["steps"][0]["reasons"][0]["code"] == "fry.holds_kitty"


def test_fry_api_chinese(api: Any) -> None:
    body = {"rules": "four-deck-cgc", "trump": {"level": "10"}, "bids": [{"seat": 1, "cards": ["10H"]}],
            "dealer": 0, "fries": [{"seat": 1, "cards": ["10S", "10S"]}]}
    data = api.post("/v1/bid/resolve", body, headers={"Accept-Language": "zh"}).get_json()
    assert data["fry"]["steps"][0]["reasons"][0]["code"] == "fry.own_declaration"
    assert "不能自反" in data["fry"]["steps"][0]["reasons"][0]["message"]
    assert data["fry"]["steps"][0]["strength"]["name"] == "两张黑桃级牌"


def test_fry_api_kitty_turned(api: Any) -> None:
    data = resolve(api, bids=[], first_hand=False, dealer=2, kitty=["4C", "3S", "6D", "5S", "9H", "6S", "7S", "8S"],
                   fries=[{"seat": 3, "cards": ["10S", "10S"]}]).get_json()
    assert data["fallback"] == "kitty_first_card" and data["trump"] == {"level": "10", "suit": "C"}
    assert data["fry"]["steps"][0]["reasons"][0]["code"] == "fry.kitty_turned"
    assert data["fry"]["kitty_holder"] == 2 and data["fry"]["standing"] is None


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        # a preset without kitty_fry
        ({"rules": "four-deck", "bids": [{"seat": 0, "cards": ["10H"]}], "dealer": 0,
          "fries": [{"seat": 1, "cards": ["10S", "10S"]}]}, [("/fries", "kitty_fry_not_allowed")]),
        ({"rules": "two-deck", "bids": [{"seat": 0, "cards": ["10H"]}], "dealer": 0, "fries": []},
         [("/fries", "kitty_fry_not_allowed")]),
        # the dealer is needed (except in the first hand, where the bidder deals)
        ({"bids": [{"seat": 0, "cards": ["10H"]}], "fries": []}, [("/dealer", "missing_field")]),
        ({"bids": [{"seat": 0, "cards": ["10H"]}], "first_hand": True, "dealer": 1, "fries": []},
         [("/dealer", "inconsistent_input")]),
        # four jokers name the trump, nothing else does
        ({"bids": [{"seat": 0, "cards": ["10H"]}], "dealer": 0,
          "fries": [{"seat": 1, "cards": ["SJ", "SJ", "BJ", "BJ"]}]}, [("/fries/0/names", "missing_field")]),
        ({"bids": [{"seat": 0, "cards": ["10H"]}], "dealer": 0,
          "fries": [{"seat": 1, "cards": ["SJ", "SJ", "BJ", "BJ"], "names": "X"}]}, [("/fries/0/names", "invalid_value")]),
        ({"bids": [{"seat": 0, "cards": ["10H"]}], "dealer": 0,
          "fries": [{"seat": 1, "cards": ["9S"]}]}, [("/fries/0/cards/0", "not_a_bid_card")]),
        # a redeal leaves nothing to fry
        ({"bids": [], "first_hand": True, "fries": []}, [("/fries", "inconsistent_input")]),
        # bad option values
        ({"rules": {"preset": "four-deck-cgc", "no_bid_first_hand": "again"}, "bids": []},
         [("/rules/no_bid_first_hand", "invalid_option_value")]),
        ({"rules": {"preset": "four-deck-cgc", "no_trump_overturn_min_jokers": 5}, "bids": []},
         [("/rules/no_trump_overturn_min_jokers", "invalid_option_value")]),
    ],
)
def test_fry_api_bad_input(api: Any, body: dict[str, Any], errors: list[tuple[str, str]]) -> None:
    resp = resolve(api, **body)
    assert resp.status_code == 422, resp.get_json()
    assert [(e["pointer"], e["code"]) for e in resp.get_json()["errors"]] == errors


def test_redeal_api(api: Any) -> None:
    data = resolve(api, bids=[], first_hand=True).get_json()
    assert (data["redeal"], data["trump"], data["fallback"], data["fry"]) == (True, None, None, None)
    assert data["reasons"][0]["code"] == "bid.redeal"
    zh = api.post("/v1/bid/resolve", {"rules": "four-deck-cgc", "trump": {"level": "10"}, "bids": [],
                                      "first_hand": True}, headers={"Accept-Language": "zh"}).get_json()
    assert zh["reasons"][0]["message"] == "第一局无人亮主：重新发牌。"


def test_joker_pair_overturn_api(api: Any) -> None:
    """Seed 002 叫牌花色: "單張3，對3，對王，三張3，三張王，四張3，四張王" — a joker pair
    overturns to no-trump in four-deck-cgc, though it cannot open."""
    data = resolve(api, bids=[{"seat": 0, "cards": ["10H"]}, {"seat": 1, "cards": ["SJ", "SJ"]}]).get_json()
    assert [s["reasons"][0]["code"] for s in data["steps"]] == ["bid.opens", "bid.overturns"]
    assert data["trump"] == {"level": "10", "suit": None}
    opening = api.post("/v1/bid", {"rules": "four-deck-cgc", "trump": {"level": "10"},
                                   "bid": {"seat": 1, "cards": ["BJ", "BJ"]}}).get_json()
    assert (opening["valid"], opening["reasons"][0]["code"]) == (False, "bid.too_few_jokers")


# --- invariants over generated fry sequences ------------------------------------------------------

_SHOWINGS = ["10S", "10D 10D", "10C 10C", "10H 10H", "10S 10S", "SJ SJ", "BJ BJ", "SJ SJ BJ BJ", "10H 10H 10H"]


@st.composite
def _fry_sequences(draw: st.DrawFn) -> tuple[int, Bid | None, list[Fry]]:
    dealer = draw(st.integers(0, 3))
    standing = draw(st.one_of(st.none(), st.builds(lambda s, t: Bid(s, cards(t)), st.integers(0, 3),
                                                   st.sampled_from(["10H", "10D 10D", "10S 10S 10S"]))))
    attempts = draw(st.lists(st.tuples(st.integers(0, 3), st.sampled_from(_SHOWINGS), st.sampled_from([0, 3, NO_TRUMP])),
                             max_size=12))
    fries = [fry(seat, text, names if len(text.split()) == 4 else None) for seat, text, names in attempts]
    return dealer, standing, fries


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_fry_sequences())
def test_fry_sequence_invariants(case: tuple[int, Bid | None, list[Fry]]) -> None:
    """Every fry is stronger than the one before it; nobody fries over their own standing
    declaration or while holding the kitty; a refused attempt changes nothing; once a
    round has passed, frying stays over; nobody fries a trump turned from the kitty."""
    dealer, standing, fries = case
    start = Trump(TEN, 1) if standing is None else Trump(TEN, None if standing.cards[0] >= 52 else standing.cards[0] // 13)
    seq = judge_fries(CGC, TEN, dealer, standing, start, fries)
    holder, declarer, trump, ranks, over = dealer, None if standing is None else standing.seat, start, [], False
    for attempt, step in zip(fries, seq.steps, strict=True):
        if step.valid:
            assert standing is not None and not over
            assert attempt.seat not in (holder, declarer)
            assert step.step is not None
            ranks.append(step.step.rank)
            holder, declarer, trump = attempt.seat, attempt.seat, step.trump
        else:
            assert (step.kitty_holder, step.declarer, step.trump) == (holder, declarer, trump)
        if step.reason.code == "fry.over":
            over = True
        elif over:
            assert step.reason.code == "fry.holds_kitty"
        if standing is None:
            assert step.reason.code == "fry.kitty_turned"
    assert ranks == sorted(set(ranks))
    assert (seq.kitty_holder, seq.declarer, seq.trump) == (holder, declarer, trump)
