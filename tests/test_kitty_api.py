"""``POST /v1/kitty`` with ``last_lead`` + ``winner`` (docs/api.md; docs/rules.md §7).
Every response is validated against openapi.yaml by the ``api`` fixture."""

from __future__ import annotations

from typing import Any

import pytest

KITTY = ["KC", "10D", "5C", "3C", "4C", "6C", "7C", "8C"]  # 25 points
H2 = {"level": "2", "suit": "H"}


def body(**kw: Any) -> dict[str, Any]:
    return {"rules": "two-deck", "trump": H2, "dealer": 0, "last_lead": ["7S", "7S"], "winner": 1,
            "kitty": KITTY} | kw


@pytest.mark.parametrize(
    ("case", "overrides", "expected"),
    [
        # seed 001/004 power_of_two
        ("pair ×4", {}, (4, 25, 100, "defenders")),
        ("4455 ×16 (seed 001)", {"last_lead": ["4S", "4S", "5S", "5S"]}, (16, 25, 400, "defenders")),
        ("throw AKQJ109877 → 77 ×4 (seed 001)",
         {"last_lead": ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "7S"]}, (4, 25, 100, "defenders")),
        ("dealer side wins: no 抠底", {"winner": 2}, (0, 25, 0, "none")),
        # seed 003 lianzhong Titanic
        ("Titanic ×18 (seed 003)", {"rules": "three-deck", "kitty": KITTY[:6],
                                    "last_lead": ["4S", "4S", "4S", "5S", "5S", "5S"]}, (18, 25, 450, "defenders")),
        # seed 001 linear
        ("linear tractor 2×4", {"rules": {"preset": "two-deck", "kitty_multiplier": "linear"},
                                "last_lead": ["4S", "4S", "5S", "5S"]}, (8, 25, 200, "defenders")),
        # seed 002 cgc
        ("cgc ruff with a pair ×4", {"rules": "four-deck-cgc", "trump": {"level": "3", "suit": "H"},
                                     "won_with_trumps": True}, (4, 25, 100, "defenders")),
        ("cgc plain suit ×1", {"rules": "four-deck-cgc", "trump": {"level": "3", "suit": "H"},
                               "won_with_trumps": False}, (1, 25, 25, "defenders")),
        ("cgc dealer digs", {"rules": "four-deck-cgc", "trump": {"level": "3", "suit": "H"},
                             "last_lead": ["BJ", "BJ"], "winner": 2}, (4, 25, 100, "dealer")),
        ("symbols and 小王 accepted", {"last_lead": ["小王", "sj"]}, (4, 25, 100, "defenders")),
    ],
)
def test_kitty(api: Any, case: str, overrides: dict[str, Any], expected: tuple[int, int, int, str]) -> None:
    resp = api.post("/v1/kitty", body(**overrides))
    assert resp.status_code == 200, resp.get_json()
    data = resp.get_json()
    assert (data["multiplier"], data["kitty_points"], data["awarded"], data["to"]) == expected, case
    assert data["reasons"]


def test_kitty_reports_the_unit_and_decomposition(api: Any) -> None:
    data = api.post("/v1/kitty", body(last_lead=["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "7S"])).get_json()
    assert data["unit"] == {"type": "tuple", "width": 2, "length": 1, "cards": ["7S", "7S"]}
    assert len(data["lead_units"]) == 8
    assert data["kind"] == "power_of_two" and data["winner_side"] == "defenders"
    assert data["transfer"] is None and data["defender_points_after"] is None
    assert data["won_with_trumps"] is None


def test_kitty_defender_points_after(api: Any) -> None:
    data = api.post("/v1/kitty", body(defender_points=60)).get_json()
    assert data["defender_points_after"] == 160


def test_transfer(api: Any) -> None:
    """Seed 000 四副: no kitty; the last trick's winner takes the other side's points × k."""
    resp = api.post("/v1/kitty", {"rules": "four-deck", "trump": {"level": "3", "suit": "H"}, "dealer": 0,
                                  "last_lead": ["AH", "AH"], "winner": 1, "defender_points": 150})
    data = resp.get_json()
    assert resp.status_code == 200
    assert data["transfer"] == {"from": "dealer", "to": "defenders", "points": 250, "multiplier": 2, "amount": 500}
    assert (data["multiplier"], data["awarded"], data["to"], data["defender_points_after"]) == (2, 500, "defenders", 650)


def test_chinese_reasons(api: Any) -> None:
    resp = api.post("/v1/kitty", body(), headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    assert resp.headers["Content-Language"] == "zh-Hans"
    assert "抠底" in resp.get_json()["reasons"][0]["message"]


@pytest.mark.parametrize(
    ("overrides", "pointer"),
    [
        ({"kitty": [*KITTY, "9C"]}, "/kitty"),  # more than the preset's kitty_size
        ({"kitty": ["KC", "XX"]}, "/kitty/1"),
        ({"defender_points": 42}, "/defender_points"),  # not a multiple of 5
        ({"defender_points": 10**7}, "/defender_points"),
        ({"defender_points": "40"}, "/defender_points"),
        ({"last_lead": ["7S", "7D"]}, "/last_lead"),  # mixes suits
        ({"last_lead": []}, "/last_lead"),
        ({"last_lead": ["3C", "3C"]}, "/last_lead/1"),  # a third 3C with the kitty's, in two decks
        ({"winner": 4}, "/winner"),
        ({"dealer": -1}, "/dealer"),
        ({"winner": True}, "/winner"),
        ({"won_with_trumps": "yes"}, "/won_with_trumps"),
        ({"rules": "five-deck"}, "/rules"),
        ({"rules": {"preset": "two-deck", "kitty_multiplier": "triple"}}, "/rules/kitty_multiplier"),
        ({"trump": {"level": "1", "suit": "H"}}, "/trump/level"),
        ({"extra": 1}, "/extra"),
        ({"rules": "four-deck", "trump": {"level": "3", "suit": "H"}, "kitty": []}, "/defender_points"),
        ({"rules": "four-deck-cgc", "trump": {"level": "3", "suit": "H"}}, "/won_with_trumps"),
        ({"rules": "four-deck-cgc", "trump": {"level": "3", "suit": "H"}, "last_lead": ["AH"],
          "won_with_trumps": False}, "/won_with_trumps"),
    ],
)
def test_kitty_bad_input(api: Any, overrides: dict[str, Any], pointer: str) -> None:
    resp = api.post("/v1/kitty", body(**overrides))
    assert resp.status_code == 422, resp.get_json()
    problem = resp.get_json()
    assert resp.mimetype == "application/problem+json"
    assert pointer in [e["pointer"] for e in problem["errors"]], problem


def test_large_cap_within_limits(api: Any) -> None:
    """A 12-pair tractor 33..AA (playing 2) under a huge cap: 2^24 is still reported exactly."""
    lead = [f"{r}S" for r in ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"] for _ in range(2)]
    resp = api.post("/v1/kitty", body(rules={"preset": "two-deck", "kitty_cap": 2**62}, last_lead=lead))
    assert resp.status_code == 200
    data = resp.get_json()
    assert (data["multiplier"], data["awarded"], data["unit"]["length"]) == (2**24, 25 * 2**24, 12)


def test_kitty_multiplier_too_large_is_a_422(api: Any) -> None:
    lead = [f"{r}S" for r in ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"] for _ in range(4)]
    resp = api.post("/v1/kitty", {"rules": {"preset": "four-deck-cgc", "kitty_multiplier": "power_of_two",
                                            "kitty_cap": 2**62},
                                  "trump": H2, "dealer": 0, "last_lead": lead, "winner": 1, "kitty": []})
    assert resp.status_code == 422
    assert resp.get_json()["errors"][0]["pointer"] == "/rules/kitty_cap"


def test_a_kitty_not_sent_is_a_422_not_an_empty_kitty(api: Any) -> None:
    """What the kitty is worth depends on its cards: no ruling on a kitty not sent."""
    request = {"trump": H2, "dealer": 0, "last_lead": ["AS"], "winner": 1}
    resp = api.post("/v1/kitty", request, headers={"Accept-Language": "zh-CN"})
    assert resp.status_code == 422
    (error,) = resp.get_json()["errors"]
    assert (error["pointer"], error["code"], error["message"]) == (
        "/kitty", "kitty_required", "此裁定取决于底牌，但请求中没有：请提供底牌")
    no_kitty = api.post("/v1/kitty", request | {"rules": {"preset": "two-deck", "kitty_size": 0, "decks": 2}})
    assert no_kitty.status_code == 200 and no_kitty.get_json()["kitty_points"] == 0


@pytest.mark.parametrize(
    ("payload", "pointer"),
    [
        ({"trump": H2, "dealer": 0}, ""),  # neither form
        ({"trump": H2, "dealer": 0, "last_lead": ["7S"]}, "/winner"),
        ({"trump": H2, "dealer": 0, "winner": 1}, "/last_lead"),
        ({"trump": H2, "dealer": 0, "winner": 1, "last_lead": ["7S"],
          "last_trick": {"leader": 1, "plays": [["7S"], ["8S"], ["9S"], ["10S"]]}}, "/last_lead"),
        ({"trump": H2, "dealer": 0, "won_with_trumps": True,
          "last_trick": {"leader": 1, "plays": [["7S"], ["8S"], ["9S"], ["10S"]]}}, "/won_with_trumps"),
        ({"trump": H2, "dealer": 0, "last_trick": {"leader": 1, "plays": [["7S"], ["8S"]]}}, "/last_trick/plays"),
        ({"trump": H2, "dealer": 0, "last_trick": {"leader": 5, "plays": [["7S"], ["8S"], ["9S"], ["10S"]]}},
         "/last_trick/leader"),
        ({"trump": H2, "dealer": 0, "last_trick": {"leader": 1, "plays": [["7S"], ["8S"], ["9S"], ["1S"]]}},
         "/last_trick/plays/3/0"),
        ({"dealer": 0, "last_lead": ["7S"], "winner": 1}, "/trump"),
        ({"trump": H2, "last_lead": ["7S"], "winner": 1}, "/dealer"),
    ],
)
def test_kitty_request_forms(api: Any, payload: dict[str, Any], pointer: str) -> None:
    resp = api.post("/v1/kitty", payload)
    assert resp.status_code == 422, resp.get_json()
    assert pointer in [e["pointer"] for e in resp.get_json()["errors"]]


def test_kitty_not_json(api: Any) -> None:
    assert api.post("/v1/kitty", data="x", content_type="text/plain").status_code == 415
    assert api.post("/v1/kitty", data="{", content_type="application/json").status_code == 400
    assert api.post("/v1/kitty", data="[]", content_type="application/json").status_code == 422
