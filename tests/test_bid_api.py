"""POST /v1/bid and /v1/bid/resolve through the app; every response is checked against
openapi.yaml by the ``api`` fixture (docs/rules.md §9, docs/api.md)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.rules import PRESET_VALUES, preset


def test_bid_overturn(api: Any) -> None:
    # seed 001 报牌规则: a pair of level cards beats a single one
    resp = api.post(
        "/v1/bid",
        {"rules": "two-deck", "trump": {"level": "10"}, "standing": {"seat": 0, "cards": ["10H"]},
         "bid": {"seat": 1, "cards": ["10S", "10S"]}},
    )
    assert resp.status_code == 200
    assert resp.headers["Content-Language"] == "en"
    body = resp.get_json()
    assert body["valid"] is True
    assert body["reasons"][0]["code"] == "bid.overturns"
    assert body["trump"] == {"level": "10", "suit": "S"}
    assert body["declares"] == {"level": "10", "suit": "S"}
    assert body["strength"] == {"rank": 2, "of": 4, "name": "pair of level cards"}
    assert body["standing"] == {"seat": 1, "cards": ["10S", "10S"]}


def test_bid_refused_keeps_the_standing_trump_in_chinese(api: Any) -> None:
    # seed 000 三副 "其它玩家就不能再亮同級別或該級別以下的牌了"
    resp = api.post(
        "/v1/bid",
        {"rules": "three-deck", "trump": {"level": "t"}, "standing": {"seat": 2, "cards": ["th", "th"]},
         "bid": {"seat": 3, "cards": ["10♠", "10♠"]}},
        headers={"Accept-Language": "zh-CN,zh;q=0.9"},
    )
    assert resp.status_code == 200
    assert resp.headers["Content-Language"] == "zh-Hans"
    body = resp.get_json()
    assert body["valid"] is False
    assert body["reasons"][0]["code"] == "bid.equal_strength"
    assert "先亮者为准" in body["reasons"][0]["message"]
    assert body["trump"] == {"level": "10", "suit": "H"}
    assert body["declares"] == {"level": "10", "suit": "S"}
    assert body["standing"] == {"seat": 2, "cards": ["10H", "10H"]}
    assert body["strength"]["name"] == "两张级牌"


@pytest.mark.parametrize("standing", ["omitted", None])
def test_bid_with_nothing_standing(api: Any, standing: Any) -> None:
    request: dict[str, Any] = {"trump": {"level": "5"}, "bid": {"seat": 0, "cards": ["SJ"]}}
    if standing != "omitted":
        request["standing"] = standing
    resp = api.post("/v1/bid", request)
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["valid"] is False and body["reasons"][0]["code"] == "bid.single_joker"
    assert body["trump"] is None and body["strength"] is None and body["standing"] is None


def test_bid_options_override(api: Any) -> None:
    # self_overturn off in the four-deck preset (seed 000 四副); on again by override
    request = {"rules": "four-deck", "trump": {"level": "A"}, "standing": {"seat": 0, "cards": ["AH"]},
               "bid": {"seat": 0, "cards": ["AS", "AS"]}}
    assert api.post("/v1/bid", request).get_json()["reasons"][0]["code"] == "bid.self_overturn_not_allowed"
    request["rules"] = {"preset": "four-deck", "self_overturn": True}
    assert api.post("/v1/bid", request).get_json()["reasons"][0]["code"] == "bid.self_overturns"


@pytest.mark.parametrize(
    ("request_body", "pointers"),
    [
        # a card that is not a level card or joker
        ({"trump": {"level": "10"}, "bid": {"seat": 0, "cards": ["9H"]}}, ["/bid/cards/0"]),
        ({"trump": {"level": "10"}, "standing": {"seat": 1, "cards": ["10H", "JH"]},
          "bid": {"seat": 0, "cards": ["10S", "10S"]}}, ["/standing/cards/1"]),
        # mixed suits in one bid
        ({"trump": {"level": "10"}, "bid": {"seat": 0, "cards": ["10H", "10S"]}}, ["/bid/cards/1"]),
        ({"rules": "three-deck", "trump": {"level": "10"}, "bid": {"seat": 0, "cards": ["SJ", "BJ"]}},
         ["/bid/cards/1"]),
        # more copies than decks, in one bid and across seats
        ({"trump": {"level": "10"}, "bid": {"seat": 0, "cards": ["10H", "10H", "10H"]}}, ["/bid/cards/2"]),
        ({"trump": {"level": "10"}, "standing": {"seat": 1, "cards": ["10H", "10H"]},
          "bid": {"seat": 0, "cards": ["10H", "10H"]}}, ["/bid/cards/0"]),
        # a standing bid that could not stand
        ({"trump": {"level": "10"}, "standing": {"seat": 1, "cards": ["BJ"]},
          "bid": {"seat": 0, "cards": ["10H"]}}, ["/standing/cards"]),
        # malformed pieces
        ({"trump": {"level": "1"}, "bid": {"seat": 0, "cards": ["10H"]}}, ["/trump/level"]),
        ({"trump": {"level": "10", "suit": "H"}, "bid": {"seat": 0, "cards": ["10H"]}}, ["/trump/suit"]),
        ({"trump_level": "10", "bid": {"seat": 0, "cards": ["10H"]}}, ["/trump", "/trump_level"]),
        ({"trump": {"level": "10"}, "bid": {"seat": 4, "cards": ["10H"]}}, ["/bid/seat"]),
        ({"trump": {"level": "10"}, "bid": {"seat": 0, "cards": ["1H"]}}, ["/bid/cards/0"]),
        ({"trump": {"level": "10"}, "bid": {"seat": 0, "cards": []}}, ["/bid/cards"]),
        ({"trump": {"level": "10"}, "bid": {"seat": 0, "cards": ["10H"], "x": 1}}, ["/bid/x"]),
        ({"trump": {"level": "10"}}, ["/bid"]),
        ({"trump": {}, "bid": {"seat": 0, "cards": ["10H"]}}, ["/trump/level"]),
        ({"rules": "five-deck", "trump": {"level": "10"}, "bid": {"seat": 0, "cards": ["10H"]}}, ["/rules"]),
    ],
)
def test_bid_bad_input(api: Any, request_body: dict[str, Any], pointers: list[str]) -> None:
    resp = api.post("/v1/bid", request_body)
    assert resp.status_code == 422
    assert resp.mimetype == "application/problem+json"
    assert [e["pointer"] for e in resp.get_json()["errors"]] == pointers


def test_bid_not_json(api: Any) -> None:
    assert api.post("/v1/bid", data="x", content_type="text/plain").status_code == 415
    assert api.post("/v1/bid", data="{", content_type="application/json").status_code == 400
    assert api.post("/v1/bid/resolve", data="[]", content_type="application/json").status_code == 422


def test_resolve_sequence(api: Any) -> None:
    # seed 000 三副 亮主規則 (打 10): 單張10 < 兩張10 < 兩張王 < 三張10 < 三張王
    resp = api.post(
        "/v1/bid/resolve",
        {"rules": "three-deck", "trump": {"level": "10"},
         "bids": [{"seat": 0, "cards": ["10H"]}, {"seat": 1, "cards": ["10C"]},
                  {"seat": 2, "cards": ["SJ", "SJ"]}, {"seat": 3, "cards": ["10D", "10D", "10D"]},
                  {"seat": 0, "cards": ["10S", "10S"]}]},
    )
    assert resp.status_code == 200
    body = resp.get_json()
    assert [s["valid"] for s in body["steps"]] == [True, False, True, True, False]
    assert [s["standing"]["seat"] for s in body["steps"]] == [0, 0, 2, 3, 3]
    assert [s["trump"]["suit"] for s in body["steps"]] == ["H", "H", None, "D", "D"]
    assert body["steps"][1]["seat"] == 1 and body["steps"][1]["cards"] == ["10C"]
    assert body["first_invalid"]["index"] == 1 and body["first_invalid"]["seat"] == 1
    assert body["first_invalid"]["reasons"][0]["code"] == "bid.equal_strength"
    assert body["standing"] == {"seat": 3, "cards": ["10D", "10D", "10D"]}
    assert body["trump"] == {"level": "10", "suit": "D"}
    assert body["fallback"] is None and body["reasons"][0]["code"] == "bid.stands"


@pytest.mark.parametrize(
    ("rules", "kitty", "suit", "code"),
    [
        ("two-deck", None, None, "bid.fallback.no_trump"),  # seed 000
        ("four-deck", None, "S", "bid.fallback.spades"),  # seed 000 四副
        # seed 002 發完牌后如果沒人亮主
        ("four-deck-cgc", ["4C", "3S", "6D", "10H", "9H", "6S", "7S", "8S"], "H",
         "bid.fallback.kitty_level_card"),
        ("four-deck-cgc", ["4C", "3S", "6D", "5S", "9H", "6S", "7S", "8S"], "C",
         "bid.fallback.kitty_first_card"),
        ("four-deck-cgc", ["大王", "3S", "6D", "5S", "9H", "6S", "7S", "8S"], None,
         "bid.fallback.kitty_joker"),
    ],
)
def test_resolve_fallbacks(api: Any, rules: str, kitty: list[str] | None, suit: str | None, code: str) -> None:
    request: dict[str, Any] = {"rules": rules, "trump": {"level": "10"}, "bids": [], "first_hand": False}
    if kitty is not None:
        request["kitty"] = kitty
    body = api.post("/v1/bid/resolve", request).get_json()
    assert body["trump"] == {"level": "10", "suit": suit}
    assert body["standing"] is None and body["first_invalid"] is None and body["steps"] == []
    assert body["fallback"] == preset(rules).no_bid_fallback
    assert body["reasons"][0]["code"] == code


@pytest.mark.parametrize(
    ("request_body", "pointers"),
    [
        # kitty_first_card with nobody bidding needs the kitty
        ({"rules": "four-deck-cgc", "trump": {"level": "10"}, "bids": [], "first_hand": False}, ["/kitty"]),
        ({"rules": "four-deck-cgc", "trump": {"level": "10"}, "bids": [], "kitty": None, "first_hand": False},
         ["/kitty"]),
        # seed 002 "若是第一局無人亮主則重新發牌": whether this is the first hand must be said
        ({"rules": "four-deck-cgc", "trump": {"level": "10"}, "bids": []}, ["/first_hand"]),
        ({"rules": "four-deck-cgc", "trump": {"level": "10"}, "bids": [], "first_hand": "yes"}, ["/first_hand"]),
        ({"rules": "four-deck-cgc", "trump": {"level": "10"}, "bids": [], "kitty": ["3S"]}, ["/kitty"]),
        ({"rules": "two-deck", "trump": {"level": "10"}, "bids": [], "kitty": ["3S"] * 8}, ["/kitty/2"]),
        ({"trump": {"level": "10"}, "bids": [{"seat": 0, "cards": ["9H"]}, {"seat": 1, "cards": ["10H", "SJ"]}]},
         ["/bids/0/cards/0", "/bids/1/cards/1"]),
        ({"trump": {"level": "10"}, "bids": [{"seat": 0, "cards": ["SJ", "SJ"]}, {"seat": 1, "cards": ["SJ"]}]},
         ["/bids/1/cards/0"]),
        ({"trump": {"level": "10"}, "bids": [{"seat": 0, "cards": ["zz"]}, {"seat": 9, "cards": ["10H"]}]},
         ["/bids/0/cards/0", "/bids/1/seat"]),
        ({"trump": {"level": "10"}, "bids": {}}, ["/bids"]),
        ({"trump": {"level": "10"}, "bids": [{"seat": 0, "cards": ["10H"]}] * 101}, ["/bids"]),
    ],
)
def test_resolve_bad_input(api: Any, request_body: dict[str, Any], pointers: list[str]) -> None:
    resp = api.post("/v1/bid/resolve", request_body)
    assert resp.status_code == 422
    assert [e["pointer"] for e in resp.get_json()["errors"]] == pointers


@pytest.mark.parametrize("name", list(PRESET_VALUES))
def test_every_preset_bids_end_to_end(api: Any, name: str) -> None:
    r = preset(name)
    kitty = (["3S", "4S", "5S", "6S", "7S", "8S", "9S", "JS"][: r.kitty_size]) or None
    request: dict[str, Any] = {"rules": name, "trump": {"level": "10"}, "bids": [{"seat": 0, "cards": ["10H"]}],
                               "first_hand": False}
    if kitty:
        request["kitty"] = kitty
    body = api.post("/v1/bid/resolve", request).get_json()
    assert body["trump"] == {"level": "10", "suit": "H"}
    request["bids"] = []
    body = api.post("/v1/bid/resolve", request).get_json()
    assert body["fallback"] == r.no_bid_fallback
