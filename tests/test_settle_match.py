"""Match points (``match_points``) and mandatory levels (``mandatory_levels``), docs/rules.md §8:
through ``engine.settle.settle`` and through the app (``/v1/settle``, ``/v1/hand``)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.audit import audit_hand
from engine.cards import RANKS
from engine.errors import InvalidInput
from engine.rules import preset, rules_from_json
from engine.settle import settle
from service.app import create_app
from tests.deal import hand_body, play_hand


def lv(rank: str) -> int:
    return RANKS.index(rank)


# --- match points (seed 002 胜负结算) ------------------------------------------------


@pytest.mark.parametrize(
    ("dealer", "points", "levels", "expected"),
    [
        # "單局房間：無論莊家方還是抓分方，每升一級本方兩玩家各加3分，同時對方兩玩家各扣3分。"
        (0, 0, ("5", "7"), (9, -9, 9, -9)),      # 大光: dealer side +3 levels → +9 each
        (1, 100, ("5", "7"), (-3, 3, -3, 3)),    # dealer side (seats 1/3) +1 level
        # "如果得分大於160，則每多出80分，升一級。例如抓分方原本打2，本局得320分。則上臺作莊並且打4。"
        (1, 320, ("2", "9"), (6, -6, 6, -6)),
        # "僅是下莊雙方均不得分": a takeover with no level gained scores nothing
        (0, 160, ("5", "7"), (0, 0, 0, 0)),
    ],
)
def test_match_points_cgc(dealer: int, points: int, levels: tuple[str, str], expected: tuple[int, ...]) -> None:
    result = settle(preset("four-deck-cgc"), dealer, points, (lv(levels[0]), lv(levels[1])))
    assert result.match_points == expected
    assert sum(expected) == 0
    assert result.reasons[-1].code == "settle.match_points"


def test_no_match_points_without_the_option() -> None:
    result = settle(preset("four-deck"), 0, 0, (0, 0))
    assert result.match_points is None
    assert all(r.code != "settle.match_points" for r in result.reasons)


def test_match_points_api(api: Any) -> None:
    resp = api.post("/v1/settle", {"rules": "four-deck-cgc", "dealer": 1, "defender_points": 320,
                                   "levels": {"A": "2", "B": "9"}})
    assert resp.status_code == 200, resp.get_json()
    data = resp.get_json()
    assert data["match_points"] == {"0": 6, "1": -6, "2": 6, "3": -6}
    assert data["stopped_at"] is None
    zh = api.post("/v1/settle", {"rules": "four-deck-cgc", "dealer": 0, "defender_points": 160,
                                 "levels": {"A": "2", "B": "9"}}, headers={"Accept-Language": "zh"}).get_json()
    assert zh["match_points"] == {"0": 0, "1": 0, "2": 0, "3": 0}
    assert "仅是下庄" in zh["reasons"][-1]["message"]
    plain = api.post("/v1/settle", {"rules": "two-deck", "dealer": 0, "defender_points": 0,
                                    "levels": {"A": "2", "B": "9"}}).get_json()
    assert plain["match_points"] is None


def test_hand_totals_match_points_with_throw_penalties() -> None:
    """Seed 002: "甩牌甩錯1次扣1分（只扣本人，與對家無關）" — the hand's total is the
    settlement's match points less one per failed throw of the thrower."""
    rules = preset("four-deck-cgc")
    for seed in range(60):
        deal = play_hand(rules, seed)
        if any(t.attempted_throw for t in deal.tricks):
            break
    else:  # pragma: no cover
        pytest.fail("no generated four-deck-cgc hand attempted a failing throw")
    result = audit_hand(rules, deal.trump, deal.dealer, (0, 0), deal.hands, deal.kitty, deal.tricks, True)
    assert result.valid and result.settlement is not None and result.penalties
    expected = list(result.settlement.match_points or ())
    for t in deal.tricks:
        if t.attempted_throw:
            expected[t.leader] -= 1
    assert list(result.match_points or ()) == expected
    with create_app({"TESTING": True}).test_client() as client:
        data = client.post("/v1/hand", json=hand_body(deal)).get_json()
    assert data["match_points"] == {str(s): p for s, p in enumerate(expected)}
    assert data["settle"]["match_points"] == {str(s): p for s, p in enumerate(result.settlement.match_points or ())}


def test_hand_without_match_points(api: Any) -> None:
    deal = play_hand(preset("two-deck"), 0)
    assert api.post("/v1/hand", hand_body(deal)).get_json()["match_points"] is None


# --- mandatory levels (必打) ------------------------------------------------------------


def mandatory(*ranks: str, base: str = "two-deck") -> Any:
    return rules_from_json({"preset": base, "mandatory_levels": list(ranks)})


@pytest.mark.parametrize(
    ("ranks", "dealer", "points", "levels", "expected"),
    [
        # the defenders (B) at 3 gain 2 (160) and reach 5 exactly: no stop needed
        (("5",), 0, 160, ("9", "3"), ("B", "5", None, 2)),
        # … and 3 levels from 3 would pass 5: they stop at 5 all the same
        (("5",), 0, 200, ("9", "3"), ("B", "5", "5", 2)),
        # the dealer's side at 5 plays it: it passes 5 (and stops at the next one, 10)
        (("5", "10"), 0, 0, ("5", "9"), ("A", "8", None, 3)),
        (("5", "10"), 0, 0, ("8", "9"), ("A", "10", "10", 2)),
        # defenders at a mandatory level they do not deal: they stay on it
        (("5",), 0, 160, ("9", "5"), ("B", "5", "5", 0)),
        # shengji.io "A must be defended": from K the defenders stop at A, the game is not won
        (("A",), 0, 200, ("9", "K"), ("B", "A", "A", 1)),
        # no mandatory level in the way: the table applies
        (("A",), 0, 160, ("9", "3"), ("B", "5", None, 2)),
    ],
)
def test_mandatory_levels(ranks: tuple[str, ...], dealer: int, points: int, levels: tuple[str, str],
                          expected: tuple[str, str, str | None, int]) -> None:
    result = settle(mandatory(*ranks), dealer, points, (lv(levels[0]), lv(levels[1])))
    got = ("AB"[result.team], RANKS[result.new_levels[result.team]],
           None if result.stopped_at is None else RANKS[result.stopped_at], result.levels_gained)
    assert got == expected
    assert not result.game_won
    assert ("settle.mandatory_stop" in [r.code for r in result.reasons]) == (expected[2] is not None)


def test_ace_mandatory_game_won_only_as_dealer_at_a() -> None:
    rules = mandatory("A")
    won = settle(rules, 0, 0, (lv("A"), lv("9")))
    assert won.game_won and won.stopped_at is None
    # without the option the defenders at K pass A and win
    assert settle(preset("two-deck"), 0, 200, (lv("9"), lv("K"))).game_won


def test_mandatory_match_points_count_the_levels_climbed() -> None:
    rules = rules_from_json({"preset": "four-deck-cgc", "mandatory_levels": ["5"]})
    result = settle(rules, 0, 0, (lv("3"), lv("9")))  # +3 from 3 stops at 5: 2 levels
    assert (result.levels_gained, result.match_points) == (2, (6, -6, 6, -6))


def test_mandatory_stop_explained(api: Any) -> None:
    body = {"rules": {"preset": "two-deck", "mandatory_levels": ["5"]}, "dealer": 0,
            "defender_points": 200, "levels": {"A": "9", "B": "3"}}
    data = api.post("/v1/settle", body).get_json()
    assert (data["new_levels"], data["stopped_at"], data["levels_gained"]) == ({"A": "9", "B": "5"}, "5", 2)
    stop = next(r for r in data["reasons"] if r["code"] == "settle.mandatory_stop")
    assert stop["message"].startswith("At level 5, team B (seats 1 and 3) stops: 5 must be played")
    zh = api.post("/v1/settle", body, headers={"Accept-Language": "zh"}).get_json()
    assert any("5必打" in r["message"] for r in zh["reasons"])


@pytest.mark.parametrize(
    ("value", "pointer"),
    [
        (["1"], "/rules/mandatory_levels/0"),
        (["5", "5"], "/rules/mandatory_levels/1"),
        ("A", "/rules/mandatory_levels"),
    ],
)
def test_bad_mandatory_levels(api: Any, value: Any, pointer: str) -> None:
    resp = api.post("/v1/settle", {"rules": {"preset": "two-deck", "mandatory_levels": value}, "dealer": 0,
                                   "defender_points": 0, "levels": {"A": "2", "B": "2"}})
    assert resp.status_code == 422
    assert pointer in [e["pointer"] for e in resp.get_json()["errors"]]


def test_bad_match_points(api: Any) -> None:
    resp = api.post("/v1/settle", {"rules": {"preset": "two-deck", "match_points": "cgx"}, "dealer": 0,
                                   "defender_points": 0, "levels": {"A": "2", "B": "2"}})
    assert resp.status_code == 422
    assert [e["pointer"] for e in resp.get_json()["errors"]] == ["/rules/match_points"]
    with pytest.raises(InvalidInput):
        rules_from_json({"match_points": True})
