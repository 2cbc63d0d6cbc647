"""Whole-hand audit (/v1/hand; ``tractor-referee audit`` in tests/test_cli.py): generated legal hands
audit clean; one injected violation each is caught at the right trick."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import orjson
import pytest

from engine.audit import TrickRecord, audit_hand
from engine.cards import card_str
from engine.errors import InvalidInput
from engine.follow import check_follow, judge_follow
from engine.rules import preset, rules_from_json
from engine.throw import check_throw, judge_throw
from engine.trick import check_trick, resolve_trick
from engine.trump import trump_order
from engine.units import decompose
from service.explain import cards as render_cards
from service.routes.throw import throw_json
from service.routes.trick import trick_json
from tests.deal import Deal, hand_body, illegal_follow, play_hand, remaining_before
from tests.helpers import said

PRESETS = ["one-deck", "one-deck-lianzhong", "two-deck", "two-deck-constant-2", "two-deck-lianzhong",
           "three-deck", "four-deck", "four-deck-cgc"]
SEEDS = range(3)


def audit(deal: Deal, tricks: list[TrickRecord] | None = None, kitty: list[int] | None = None,
          strict: bool = True) -> Any:
    return audit_hand(deal.rules, deal.trump, deal.dealer, (0, 0), deal.hands,
                      deal.kitty if kitty is None else kitty, deal.tricks if tricks is None else tricks, strict)


def body(deal: Deal, tricks: list[TrickRecord] | None = None, **extra: Any) -> dict[str, Any]:
    return hand_body(deal, tricks) | extra


# --- complete legal hands -------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", PRESETS)
def test_generated_hands_audit_clean(name: str, seed: int) -> None:
    deal = play_hand(preset(name), seed)
    result = audit(deal)
    assert result.valid, [(v.trick, v.seat, v.reason.code, said(v.reason)) for v in result.violations]
    assert len(result.tricks) == len(deal.tricks)
    assert sum(len(t.plays[0]) for t in deal.tricks) == preset(name).hand_size
    assert result.settlement is not None and result.kitty is not None
    # the winners chain: every trick after the first is led by the previous winner
    for before, after in zip(result.tricks, result.tricks[1:], strict=False):
        assert after.leader == before.result.winner
    assert result.first_violation is None


def test_points_add_up() -> None:
    """Trick points of both sides plus the kitty are the deck's points (no penalties)."""
    for seed in range(5):
        deal = play_hand(rules_from_json({"preset": "two-deck"}), seed)
        result = audit(deal)
        dealer_side = {deal.dealer, (deal.dealer + 2) % 4}
        won = {s: 0 for s in range(4)}
        for t in result.tricks:
            won[t.result.winner] += t.result.points
        defenders = sum(v for s, v in won.items() if s not in dealer_side)
        kitty_points = sum(5 if card_str(c)[:-1] == "5" else 10 if card_str(c)[:-1] in ("10", "K") else 0
                           for c in deal.kitty)
        assert defenders + sum(won[s] for s in dealer_side) + kitty_points == 200
        if not any(t.attempted_throw for t in deal.tricks):
            assert result.trick_points == defenders
        assert result.defender_points == result.kitty.defender_points_after


def test_failed_throw_penalty_is_applied() -> None:
    rules = rules_from_json({"preset": "two-deck", "throw_penalty": "points_per_card",
                             "throw_penalty_points_per_card": 10})
    for seed in range(40):
        deal = play_hand(rules, seed)
        attempts = [t for t in deal.tricks if t.attempted_throw]
        if attempts:
            break
    else:  # pragma: no cover
        pytest.fail("no generated hand attempted a failing throw")
    result = audit(deal)
    assert result.valid
    assert len(result.penalties) == len(attempts)
    assert all(p.kind == "points_per_card" and p.amount == 10 * len(t.attempted_throw)
               for p, t in zip(result.penalties, attempts, strict=True))
    plain = audit_hand(preset("two-deck"), deal.trump, deal.dealer, (0, 0), deal.hands, deal.kitty, deal.tricks, True)
    dealer_side = {deal.dealer, (deal.dealer + 2) % 4}
    shift = sum(p.amount if p.seat in dealer_side else -p.amount for p in result.penalties)
    assert result.trick_points - plain.trick_points == shift


# --- one injected violation each, caught at the right trick -------------------------------


def _deal(name: str = "two-deck", seed: int = 1) -> Deal:
    return play_hand(preset(name), seed)


@pytest.mark.parametrize("name", ["one-deck", "two-deck", "three-deck", "four-deck"])
def test_wrong_leader(name: str) -> None:
    deal = _deal(name)
    k = len(deal.tricks) // 2
    tricks = list(deal.tricks)
    tricks[k] = replace(tricks[k], leader=(tricks[k].leader + 1) % 4)
    first = audit(deal, tricks).first_violation
    assert (first.trick, first.seat, first.reason.code) == (k, (deal.tricks[k].leader + 1) % 4, "hand.wrong_leader")
    # JSON indexes count from 0, texts number tricks from 1 (docs/api.md "Numbering")
    assert said(first.reason).startswith(f"Trick {k + 1} is led by") and said(first.reason, "zh-Hans").startswith(f"第{k + 1}轮")


@pytest.mark.parametrize("name", ["one-deck", "two-deck", "three-deck", "four-deck-cgc"])
def test_card_not_held(name: str) -> None:
    deal = _deal(name)
    k = len(deal.tricks) // 3
    t = deal.tricks[k]
    seat = (t.leader + 1) % 4
    before = remaining_before(deal, k)
    foreign = next(c for c in before[(seat + 1) % 4] if c not in before[seat])
    plays = list(t.plays)
    plays[1] = (foreign, *plays[1][1:])
    tricks = list(deal.tricks)
    tricks[k] = replace(t, plays=tuple(plays))
    first = audit(deal, tricks).first_violation
    assert (first.trick, first.seat, first.reason.code) == (k, seat, "play.not_held")


@pytest.mark.parametrize("name", ["one-deck", "two-deck", "three-deck", "four-deck"])
def testillegal_follow(name: str) -> None:
    deal = _deal(name)
    k, seat, tricks = illegal_follow(deal)
    first = audit(deal, tricks).first_violation
    assert (first.trick, first.seat, first.reason.code) == (k, seat, "follow.illegal")
    assert "illegal" in said(first.reason)


def _failed_throw(deal: Deal) -> tuple[int, int, list[TrickRecord], Any]:
    order = trump_order(deal.trump, deal.rules)
    for k, t in enumerate(deal.tricks):
        before = remaining_before(deal, k)
        leader = t.leader
        others = {s: before[s] for s in range(4) if s != leader}
        for suit in sorted({order.suit[c] for c in before[leader]}):
            units = decompose([c for c in before[leader] if order.suit[c] == suit], order)
            if len(units) < 2:
                continue
            throw = [c for u in units[-2:] for c in u.cards]
            verdict = judge_throw(check_throw(leader, throw, others, order, deal.rules))
            if verdict.valid:
                continue
            plays = [tuple(throw)] + [
                judge_follow(check_follow(throw, before[(leader + i) % 4], None, order, deal.rules)).example for i in range(1, 4)
            ]
            tricks = list(deal.tricks)
            tricks[k] = TrickRecord(leader, tuple(tuple(p) for p in plays))
            return k, leader, tricks, verdict
    raise AssertionError("no failing throw found")  # pragma: no cover


@pytest.mark.parametrize("name", ["two-deck", "three-deck", "four-deck", "four-deck-cgc"])
def test_failed_throw_presented_as_standing(name: str) -> None:
    deal = _deal(name)
    k, leader, tricks, verdict = _failed_throw(deal)
    result = audit(deal, tricks)
    first = result.first_violation
    assert (first.trick, first.seat, first.reason.code) == (k, leader, "throw.failed")
    assert result.tricks[k].throw is not None and not result.tricks[k].throw.valid
    assert result.tricks[k].throw.forced_play == verdict.forced_play
    forced = " ".join(render_cards((c,), "en") for c in verdict.forced_play)
    assert f"the forced play {forced} should have been led" in said(first.reason)


def _attempt_with_another_unit() -> tuple[Deal, int, tuple[int, ...]]:
    """A generated hand with a failed throw whose attempt holds another unit of
    the forced play's size (to present as the wrong forced play)."""
    for seed in range(200):
        deal = play_hand(preset("two-deck"), seed)
        order = trump_order(deal.trump, deal.rules)
        for k, t in enumerate(deal.tricks):
            if t.attempted_throw:
                other = [u.cards for u in decompose(t.attempted_throw, order)
                         if Counter(u.cards) != Counter(t.plays[0]) and len(u.cards) == len(t.plays[0])]
                if other:
                    return deal, k, other[0]
    raise AssertionError("no suitable failed throw generated")  # pragma: no cover


def test_attempted_throw_with_a_wrong_forced_play() -> None:
    deal, k, other = _attempt_with_another_unit()
    t = deal.tricks[k]
    tricks = list(deal.tricks)
    # without the attempt on record, the forced play is an ordinary single-unit lead
    tricks[k] = replace(t, attempted_throw=None)
    assert audit(deal, tricks).valid
    # the attempt on record, but another of its units led instead of the forced one
    tricks[k] = replace(t, plays=(other, *t.plays[1:]))
    first = audit(deal, tricks).first_violation
    assert (first.trick, first.reason.code) == (k, "throw.wrong_forced_play")


def test_standing_throw_recorded_as_failed() -> None:
    """An attempt on record that actually stands: the leader was wrongly refused."""
    for seed in range(40):
        deal = play_hand(preset("two-deck"), seed)
        order = trump_order(deal.trump, deal.rules)
        ks = [k for k, t in enumerate(deal.tricks)
              if t.attempted_throw is None and len(decompose(t.plays[0], order)) > 1]
        if ks:
            break
    k = ks[0]
    tricks = list(deal.tricks)
    tricks[k] = replace(tricks[k], attempted_throw=tricks[k].plays[0])
    first = audit(deal, tricks).first_violation
    assert (first.trick, first.seat, first.reason.code) == (k, tricks[k].leader, "throw.wrongly_refused")


@pytest.mark.parametrize("name", ["one-deck", "two-deck", "three-deck", "four-deck-cgc"])
def test_wrong_kitty(name: str) -> None:
    deal = _deal(name)
    result = audit(deal, kitty=deal.kitty[1:])
    first = result.first_violation
    assert (first.trick, first.seat, first.reason.code) == (None, None, "deal.kitty_size")
    assert "deal.incomplete" in [v.reason.code for v in result.violations]


def test_unfinished_record() -> None:
    deal = _deal()
    result = audit(deal, tricks=list(deal.tricks[:-2]))
    assert result.first_violation.reason.code == "hand.unfinished"
    assert result.first_violation.trick == len(deal.tricks) - 2
    assert result.kitty is None and result.settlement is None


def test_wrong_hand_size_is_a_deal_violation() -> None:
    deal = _deal("two-deck")
    hands = dict(deal.hands)
    hands[2] = hands[2][:-1]
    result = audit_hand(deal.rules, deal.trump, deal.dealer, (0, 0), hands, deal.kitty, deal.tricks, False)
    assert (result.first_violation.trick, result.first_violation.seat, result.first_violation.reason.code) == (
        None, 2, "deal.hand_size")


# --- the HTTP endpoint ------------------------------------------------------------


def test_endpoint_clean_hand(api: Any) -> None:
    deal = _deal("two-deck", 4)
    resp = api.post("/v1/hand", body(deal))
    assert resp.status_code == 200
    out = resp.json
    assert out["valid"] is True and out["first_violation"] is None and out["violations"] == []
    assert len(out["tricks"]) == len(deal.tricks)
    assert out["settle"]["outcome"] in ("dealer_keeps", "defenders_take_over")
    assert out["defender_points"] == out["kitty"]["defender_points_after"]


def test_endpoint_reports_the_first_violation_in_chinese(api: Any) -> None:
    deal = _deal("two-deck", 2)
    k, seat, tricks = illegal_follow(deal)
    resp = api.post("/v1/hand", body(deal, tricks), headers={"Accept-Language": "zh-CN"})
    out = resp.json
    assert resp.status_code == 200 and out["valid"] is False
    assert out["first_violation"]["trick"] == k and out["first_violation"]["seat"] == seat
    assert out["first_violation"]["code"] == "follow.illegal"
    assert f"第{k + 1}轮：" in out["first_violation"]["message"] and "跟牌" in out["first_violation"]["message"]
    assert resp.headers["Content-Language"] == "zh-Hans"


@pytest.mark.parametrize(
    ("mutate", "pointer"),
    [
        (lambda b: b["hands"].pop("3"), "/hands/3"),
        (lambda b: b["hands"]["1"].append("XX"), "/hands/1"),
        (lambda b: b["tricks"][2]["plays"].pop(), "/tricks/2/plays"),
        (lambda b: b["tricks"][0].update(leader=7), "/tricks/0/leader"),
        (lambda b: b["hands"]["0"].extend(["AS", "AS", "AS"]), "/hands/0"),
        (lambda b: b.update(dealer=-1), "/dealer"),
        (lambda b: b.update(levels={"A": "1", "B": "2"}), "/levels/A"),
        (lambda b: b.update(tricks=b["tricks"] * 3), "/tricks"),
    ],
)
def test_endpoint_bad_input_is_422(api: Any, mutate: Any, pointer: str) -> None:
    b = body(_deal("two-deck", 3))
    mutate(b)
    resp = api.post("/v1/hand", b, validate_request=False)
    assert resp.status_code == 422
    assert any(e["pointer"].startswith(pointer) for e in resp.json["errors"]), resp.json


def test_random_corruptions_never_crash() -> None:
    """Shuffled plays and swapped leaders give verdicts, never exceptions, and
    nothing is blamed on the tricks before the corrupted one."""
    rng = random.Random(9)
    for name in ("two-deck", "four-deck"):
        deal = play_hand(preset(name), 11)
        for _ in range(15):
            tricks = list(deal.tricks)
            k = rng.randrange(len(tricks))
            t = tricks[k]
            plays = list(t.plays)
            rng.shuffle(plays)
            tricks[k] = replace(t, plays=tuple(plays), leader=rng.randrange(4))
            result = audit(deal, tricks)
            assert all(v.trick is None or v.trick >= k for v in result.violations)
            same_seats = {(tricks[k].leader + i) % 4: p for i, p in enumerate(tricks[k].plays)} == {
                (t.leader + i) % 4: p for i, p in enumerate(t.plays)}
            if not same_seats:
                assert not result.valid


@pytest.mark.parametrize("leader", [4, -1, True])
def test_a_leader_that_is_no_seat_is_invalid_input(leader: Any) -> None:
    deal = _deal("two-deck")
    tricks = list(deal.tricks)
    tricks[3] = replace(tricks[3], leader=leader)
    with pytest.raises(InvalidInput) as caught:
        audit(deal, tricks)
    assert [p.path for p in caught.value.problems] == [("tricks", 3, "leader")]


@pytest.mark.parametrize("name", ["two-deck", "three-deck", "four-deck-cgc"])
def test_each_trick_is_what_the_checked_calls_answer(name: str) -> None:
    """The audit calls the trick and throw rules on its own checked record
    (a ``Trick`` and a ``Throw`` it checked itself); every trick's verdict is what the
    public, checking calls answer for the hands before that trick."""
    for seed in range(3):
        deal = play_hand(preset(name), seed)
        order = trump_order(deal.trump, deal.rules)
        result = audit(deal)
        for k, (t, a) in enumerate(zip(deal.tricks, result.tricks, strict=True)):
            before = remaining_before(deal, k)
            plays = [list(p) for p in t.plays]
            whole = resolve_trick(check_trick(t.leader, plays, order, deal.rules, hands=before))
            thrown = list(t.attempted_throw or t.plays[0])
            throw = judge_throw(check_throw(t.leader, thrown, {s: h for s, h in before.items() if s != t.leader}, order, deal.rules))
            for lang in ("en", "zh-Hans", "zh-Hant"):
                # the answers as written (parts of them are written once: service/render.py)
                assert orjson.dumps(trick_json(a.result, lang)) == orjson.dumps(trick_json(whole, lang))
                assert orjson.dumps(throw_json(a.throw, lang)) == orjson.dumps(throw_json(throw, lang))


@pytest.mark.parametrize(("rules", "flagged"), [("four-deck", True), ("two-deck", False)])
def test_a_throw_into_a_void_is_flagged(api: Any, rules: str, flagged: bool) -> None:
    """docs/rules.md §4 throw_when_others_void: /v1/hand reports a throw nobody else could follow
    in suit (refused in four-deck, seed 000 四副); under two-deck the same throw simply stands."""
    payload = {
        "rules": rules, "trump": {"level": "3", "suit": "H"}, "dealer": 0, "levels": {"A": "3", "B": "3"},
        "hands": {"0": ["AS", "KS"], "1": ["4C", "5C"], "2": ["6D", "7D"], "3": ["8C", "9C"]}, "kitty": [],
        "tricks": [{"leader": 0, "plays": [["AS", "KS"], ["4C", "5C"], ["6D", "7D"], ["8C", "9C"]]}],
    }
    resp = api.post("/v1/hand", payload)
    assert resp.status_code == 200
    codes = [(v["trick"], v["seat"], v["code"]) for v in resp.json["violations"]]
    assert ((0, 0, "throw.into_void") in codes) is flagged


@pytest.mark.parametrize("kind", ["points_per_failed_card", "points_per_throw"])
def test_game_point_penalties_move_the_points(kind: str) -> None:
    """docs/rules.md §4: the Botzone judge's points_per_failed_card and jding92/shengji-online's
    points_per_throw move game points in the replayed hand like points_per_card."""
    rules = rules_from_json({"preset": "two-deck", "throw_penalty": kind})
    for seed in range(40):
        deal = play_hand(rules, seed)
        if any(t.attempted_throw for t in deal.tricks):
            break
    else:  # pragma: no cover
        pytest.fail("no generated hand attempted a failing throw")
    result = audit(deal)
    assert result.valid and result.penalties and all(p.kind == kind for p in result.penalties)
    for p, t in zip(result.penalties, [t for t in result.tricks if t.throw is not None and not t.throw.valid],
                    strict=True):
        failed = sum(f.unit.size for f in t.throw.failed_units)
        assert p.amount == (10 * failed if kind == "points_per_failed_card" else 10)
    plain = audit_hand(preset("two-deck"), deal.trump, deal.dealer, (0, 0), deal.hands, deal.kitty, deal.tricks, True)
    dealer_side = {deal.dealer, (deal.dealer + 2) % 4}
    shift = sum(p.amount if p.seat in dealer_side else -p.amount for p in result.penalties)
    assert result.trick_points - plain.trick_points == shift
