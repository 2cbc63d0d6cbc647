"""``POST /v1/follow`` through the real app; every response is checked against
openapi.yaml by the ``api`` fixture."""

from __future__ import annotations

from typing import Any

import pytest

from engine.rules import PRESET_VALUES

BODY: dict[str, Any] = {
    "rules": "two-deck",
    "trump": {"level": "2", "suit": "S"},
    "lead": ["3H", "3H", "4H", "4H", "5H", "5H"],
    "hand": ["6H", "6H", "7H", "7H", "QH", "QH", "9H", "9H", "KS"],
}


def test_refused_follow_explains_itself(api: Any) -> None:
    resp = api.post("/v1/follow", BODY | {"play": ["6H", "6H", "7H", "7H", "9H", "QH"]})
    assert resp.status_code == 200
    assert resp.headers["Content-Language"] == "en"
    data = resp.get_json()
    assert data["legal"] is False
    assert [r["code"] for r in data["reasons"]] == ["follow.must_play_pair"]
    assert "3 pairs" in data["reasons"][0]["message"]
    req = data["required"]
    assert (req["suit"], req["held"], req["cards"], req["rule"]) == ("H", 8, 6, "generic")
    assert req["tractor_cards"] == 4 and req["tuples"] == [{"width": 2, "count": 3}]
    assert req["pattern"] == [{"shapes": [{"width": 2, "length": 2, "count": 1}, {"width": 2, "length": 1, "count": 1}], "singles": 0}]
    assert req["text"] == "6 cards in hearts forming a 2-pair tractor + a pair"
    assert data["example"] == ["9H", "9H", "7H", "7H", "6H", "6H"]
    assert data["reached"]["tuples"] == [{"width": 2, "count": 2}]
    assert data["lead_units"][0]["type"] == "tractor"


def test_chinese_on_request(api: Any) -> None:
    resp = api.post(
        "/v1/follow", BODY | {"play": ["6H", "6H", "7H", "7H", "9H", "QH"]}, headers={"Accept-Language": "zh-CN,zh;q=0.9"}
    )
    data = resp.get_json()
    assert resp.headers["Content-Language"] == "zh-Hans"
    assert "Accept-Language" in resp.headers["Vary"]
    assert data["reasons"][0]["message"].startswith("拖拉机跟足之后")
    assert data["required"]["text"] == "6张红桃，组成一个两连拖 + 一对"


@pytest.mark.parametrize("play", [None, "absent"])
def test_without_a_play_legal_is_null(api: Any, play: Any) -> None:
    body = dict(BODY) if play == "absent" else BODY | {"play": None}
    data = api.post("/v1/follow", body).get_json()
    assert data["legal"] is None and data["reasons"] == [] and data["reached"] is None
    assert len(data["example"]) == 6


def test_legal_follow(api: Any) -> None:
    data = api.post("/v1/follow", BODY | {"play": ["6h", "6♥", "7H", "7H", "qh", "QH"]}).get_json()
    assert data["legal"] is True and data["reasons"] == []


def test_pattern_list_in_the_response(api: Any) -> None:
    body = {
        "rules": "four-deck",
        "trump": {"level": "10", "suit": "H"},
        "lead": ["7S", "7S", "8S", "8S"],
        "hand": ["AS", "AS", "AS", "AS", "3S", "3S", "5S", "5S"],
        "play": ["3S", "3S", "5S", "5S"],
    }
    data = api.post("/v1/follow", body).get_json()
    assert data["legal"] is False
    req = data["required"]
    assert (req["rule"], req["patterns"], req["step"], req["steps"]) == ("pattern", "four-deck", 1, 4)
    assert [alt["shapes"] for alt in req["pattern"]] == [
        [{"width": 2, "length": 2, "count": 1}],
        [{"width": 4, "length": 1, "count": 1}],
    ]
    assert data["reached"]["step"] == 2
    assert data["reasons"][0]["code"] == "follow.must_match_pattern"


def test_options_override(api: Any) -> None:
    body = BODY | {"rules": {"preset": "two-deck", "follow_draw": "suit_only"}, "play": ["9H", "QH", "6H", "7H", "QH", "9H"]}
    data = api.post("/v1/follow", body).get_json()
    assert data["legal"] is True and data["required"]["rule"] == "suit_only"


@pytest.mark.parametrize("name", list(PRESET_VALUES))
def test_every_preset_end_to_end(api: Any, name: str) -> None:
    body = {
        "rules": name,
        "trump": {"level": "10", "suit": "H"},
        "lead": ["3S"],
        "hand": ["4S", "5H", "6C"],
        "play": ["5H"],
    }
    data = api.post("/v1/follow", body).get_json()
    assert data["legal"] is False and data["reasons"][0]["code"] == "follow.must_follow_suit"
    assert data["example"] == ["4S"]


@pytest.mark.parametrize(
    ("change", "pointers"),
    [
        ({"play": ["6H", "6H", "7H", "7H", "9H", "AH"]}, ["/play/5"]),  # not in the hand
        ({"play": ["6H", "6H"]}, ["/play"]),  # wrong count
        ({"lead": ["3H", "3S"]}, ["/lead/1"]),  # 3S is a trump (spades): mixed suits
        ({"lead": []}, ["/lead"]),
        ({"hand": ["6H", "6H", "ZZ"]}, ["/hand/2"]),  # not a card
        ({"hand": ["3H", "6H", "7H", "8H", "9H", "10H"]}, ["/hand/0"]),  # a third 3H
        ({"hand": ["6H"]}, ["/hand"]),  # smaller than the lead
        ({"colour": "red"}, ["/colour"]),  # unknown field
        ({"rules": "five-deck"}, ["/rules"]),
        ({"trump": {"level": "1", "suit": "H"}}, ["/trump/level"]),
    ],
)
def test_unprocessable(api: Any, change: dict[str, Any], pointers: list[str]) -> None:
    resp = api.post("/v1/follow", BODY | change)
    assert resp.status_code == 422
    assert resp.mimetype == "application/problem+json"
    assert [e["pointer"] for e in resp.get_json()["errors"]] == pointers


def test_missing_fields(api: Any) -> None:
    resp = api.post("/v1/follow", {"trump": {"level": "2", "suit": "S"}})
    assert resp.status_code == 422
    assert sorted(e["pointer"] for e in resp.get_json()["errors"]) == ["/hand", "/lead"]


def test_not_json_and_bad_json(api: Any) -> None:
    assert api.post("/v1/follow", data="lead=3H", content_type="text/plain").status_code == 415
    assert api.post("/v1/follow", data=b"{not json", content_type="application/json").status_code == 400
