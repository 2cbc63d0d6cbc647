"""``POST /v1/throw`` (docs/api.md): every response validated against openapi.yaml by the
``api`` fixture; seed examples end to end, languages, and 4xx with pointers."""

from __future__ import annotations

from typing import Any

import pytest

TRUMP_10H = {"level": "10", "suit": "H"}


def body(lead: list[str], hands: dict[str, list[str]], **extra: Any) -> dict[str, Any]:
    """A request; every other seat not in ``hands`` holds nothing (a throw needs them all)."""
    leader = extra.get("leader", 0)
    if isinstance(hands, dict) and isinstance(leader, int):
        hands = {str(s): [] for s in range(4) if s != leader} | hands
    return {"rules": "two-deck", "trump": TRUMP_10H, "leader": 0, "lead": lead, "hands": hands} | extra


def test_seed_000_98844_against_qq(api: Any) -> None:
    """Seed 000: another player holds QQ → 9, 88 and 44 all fail → 44 is forced."""
    resp = api.post("/v1/throw", body(["9S", "8S", "8S", "4S", "4S"], {"1": ["3S"], "2": ["QS", "QS"], "3": []}))
    assert resp.status_code == 200
    data = resp.get_json()
    assert data["valid"] is False
    assert data["suit"] == "S"
    assert [u["cards"] for u in data["units"]] == [["8S", "8S"], ["4S", "4S"], ["9S"]]
    assert [(f["unit"]["cards"], [(b["seat"], b["cards"]) for b in f["beaten_by"]]) for f in data["failed_units"]] == [
        (["8S", "8S"], [(2, ["QS", "QS"])]),
        (["4S", "4S"], [(2, ["QS", "QS"])]),
        (["9S"], [(2, ["QS"])]),
    ]
    assert data["forced_play"] == ["4S", "4S"]
    assert data["forced_unit"] == {"type": "tuple", "width": 2, "length": 1, "cards": ["4S", "4S"]}
    assert data["penalty"] == {"kind": "none", "amount": 0, "seat": None, "team": None}
    assert data["reasons"][-1]["code"] == "throw.forced.lowest_failed"
    assert resp.headers["Content-Language"] == "en"


def test_standing_throw_echoes_the_lead(api: Any) -> None:
    """Seed 000: AQQJJ may be thrown; forced_play equals the lead (canonical notation)."""
    resp = api.post("/v1/throw", body(["as", "Q♠", "QS", "JS", "js"], {"1": ["KS", "KS", "AS"]}))
    data = resp.get_json()
    assert resp.status_code == 200 and data["valid"] is True
    assert data["forced_play"] == ["AS", "QS", "QS", "JS", "JS"]
    assert data["failed_units"] == [] and data["forced_unit"] is None
    assert [r["code"] for r in data["reasons"]] == ["throw.stands"]


def test_chinese_reasons(api: Any) -> None:
    """Seed 001: AAJJ against KK forces JJ; explanations in Chinese on request."""
    resp = api.post(
        "/v1/throw", body(["AS", "AS", "JS", "JS"], {"3": ["KS", "KS"]}), headers={"Accept-Language": "zh-CN"}
    )
    data = resp.get_json()
    assert data["forced_play"] == ["JS", "JS"]
    assert resp.headers["Content-Language"] == "zh-Hans"
    assert "3号位" in data["reasons"][0]["message"]


def test_penalty_and_wider_shape_in_json(api: Any) -> None:
    """Seed 000/002 four decks: a quad beats a 2-pair tractor; points_per_card to the other team."""
    resp = api.post(
        "/v1/throw",
        {
            "rules": {"preset": "four-deck", "throw_penalty": "points_per_card", "throw_penalty_points_per_card": 5},
            "trump": {"level": "5", "suit": "H"},
            "leader": 1,
            "lead": ["AS", "AS", "AS", "AS", "7S", "7S", "8S", "8S"],
            "hands": {"0": [], "2": [], "3": ["3S", "3S", "3S", "3S"]},
        },
    )
    data = resp.get_json()
    assert data["failed_units"] == [
        {
            "unit": {"type": "tractor", "width": 2, "length": 2, "cards": ["8S", "8S", "7S", "7S"]},
            "beaten_by": [{"seat": 3, "cards": ["3S"] * 4, "width": 4, "length": 1, "wider_shape": True}],
        }
    ]
    assert data["penalty"] == {"kind": "points_per_card", "amount": 40, "seat": 1, "team": "A"}


def test_match_point_penalty(api: Any) -> None:
    resp = api.post(
        "/v1/throw", body(["AS", "KS", "KS"], {"2": ["AS"]}, rules="four-deck-cgc", leader=3)
    )
    data = resp.get_json()
    assert data["valid"] is True  # four decks: one more AS only ties
    resp = api.post("/v1/throw", body(["KS", "QS", "QS"], {"2": ["AS"]}, rules="four-deck-cgc", leader=3))
    data = resp.get_json()
    assert data["forced_play"] == ["KS"]
    assert data["penalty"] == {"kind": "match_point", "amount": 1, "seat": 3, "team": None}


@pytest.mark.parametrize(
    ("payload", "pointers"),
    [
        (body(["9S", "8H"], {}), ["/lead/1"]),  # mixing effective suits (8H is trump)
        (body(["9S", "AS"], {"0": ["9S", "3C"]}), ["/lead/1"]),  # not in the leader's hand
        (body(["9S", "9S"], {"1": ["AS"], "2": ["9S"]}), ["/hands/2/0"]),  # a third 9S with two decks
        (body(["9S", "XX"], {}), ["/lead/1"]),
        (body(["9S"], {"1": ["AS", "ZZ"]}), ["/hands/1/1"]),
        (body(["9S"], {"4": ["AS"]}), ["/hands/4"]),
        (body([], {}), ["/lead"]),
        ({"trump": TRUMP_10H, "leader": 0, "lead": ["AS", "KS"], "hands": {"2": []}}, ["/hands/1", "/hands/3"]),
        (body(["9S"], {}, leader=4), ["/leader"]),
        (body(["9S"], {}, leader="0"), ["/leader"]),
        (body(["9S"], {}, extra=1), ["/extra"]),
        (body(["9S"], {}, rules="five-deck"), ["/rules"]),
        (body(["9S"], {}, rules={"preset": "two-deck", "throw_forced_unit": "random"}), ["/rules/throw_forced_unit"]),
        ({"trump": TRUMP_10H, "leader": 0, "lead": ["9S"]}, ["/hands"]),
        (body(["9S"], []), ["/hands"]),
    ],
)
def test_unprocessable(api: Any, payload: dict[str, Any], pointers: list[str]) -> None:
    resp = api.post("/v1/throw", payload)
    assert resp.status_code == 422
    assert resp.mimetype == "application/problem+json"
    assert [e["pointer"] for e in resp.get_json()["errors"]] == pointers


def test_a_throw_needs_every_other_hand(api: Any) -> None:
    """Missing data is a 422, never "nobody can beat it": ``hands: {}`` is no ruling."""
    resp = api.post("/v1/throw", {"trump": TRUMP_10H, "leader": 2, "lead": ["AS", "KS"], "hands": {}},
                    headers={"Accept-Language": "zh-TW"})
    assert resp.status_code == 422
    errors = resp.get_json()["errors"]
    assert [(e["pointer"], e["code"]) for e in errors] == [("/hands/0", "hand_required"), ("/hands/1", "hand_required"),
                                                           ("/hands/3", "hand_required")]
    assert errors[0]["message"] == "此裁定取決於 0 號座位的手牌，但請求中沒有：請提供"
    one_unit = api.post("/v1/throw", {"trump": TRUMP_10H, "leader": 2, "lead": ["AS", "AS"], "hands": {}})
    assert one_unit.status_code == 200 and one_unit.get_json()["valid"] is True  # an ordinary lead: no hand decides


def test_not_json_and_bad_json(api: Any) -> None:
    assert api.post("/v1/throw", data="x", content_type="text/plain").status_code == 415
    assert api.post("/v1/throw", data="{", content_type="application/json").status_code == 400
    assert api.post("/v1/throw", data=b"[" * 70000, content_type="application/json").status_code == 413


def test_a_throw_into_a_void_is_refused(api: Any) -> None:
    """docs/rules.md §4 throw_when_others_void (refused in four-deck, seed 000 四副): nobody else holds
    spades, so AS KS is refused outright, a 422 throw_into_void at /lead, in every language."""
    payload = {"rules": "four-deck", "trump": {"level": "3", "suit": "H"}, "leader": 0, "lead": ["AS", "KS"],
               "hands": {"1": ["4C"], "2": ["5D"], "3": []}}
    resp = api.post("/v1/throw", payload)
    assert resp.status_code == 422
    assert [(e["pointer"], e["code"]) for e in resp.get_json()["errors"]] == [("/lead", "throw_into_void")]
    zh = api.post("/v1/throw", payload, headers={"Accept-Language": "zh-CN"})
    assert "不能甩牌" in zh.get_json()["errors"][0]["message"]
    held = api.post("/v1/throw", payload | {"hands": {"1": ["4C"], "2": ["5D", "6S"], "3": []}})
    assert held.status_code == 200 and held.get_json()["valid"] is True
    allowed = api.post("/v1/throw", payload | {"rules": "two-deck"})
    assert allowed.status_code == 200 and allowed.get_json()["valid"] is True


def test_botzone_throw_in_json(api: Any) -> None:
    """The botzone preset: the lowest failed unit's lowest card, 10 points a card of the failed units."""
    resp = api.post("/v1/throw", body(["9S", "8S", "8S", "4S", "4S"], {"1": ["QS", "QS"], "3": ["5S", "5S"]},
                                      rules="botzone"))
    data = resp.get_json()
    assert data["forced_unit"]["cards"] == ["4S", "4S"] and data["forced_play"] == ["4S"]
    assert data["penalty"] == {"kind": "points_per_failed_card", "amount": 50, "seat": 0, "team": "B"}
