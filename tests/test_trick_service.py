"""``POST /v1/trick`` through the real app; every response is checked against
openapi.yaml by the ``api`` fixture."""

from __future__ import annotations

from typing import Any

import pytest

from engine.rules import PRESET_VALUES

# seed 000: trump 9988 72 ruffs AK5544; trump QQJJ 32 over-ruffs it (playing 10, hearts)
BODY: dict[str, Any] = {
    "rules": "two-deck",
    "trump": {"level": "10", "suit": "H"},
    "leader": 2,
    "plays": [
        ["AS", "KS", "5S", "5S", "4S", "4S"],
        ["9H", "9H", "8H", "8H", "7H", "2H"],
        ["QS", "JS", "9S", "8S", "7S", "6S"],
        ["JH", "JH", "QH", "QH", "3H", "2H"],
    ],
}


def test_winner_points_and_roles(api: Any) -> None:
    resp = api.post("/v1/trick", BODY)
    assert resp.status_code == 200
    data = resp.get_json()
    assert data["winner"] == 1 and data["team"] == "B"
    assert data["points"] == 20
    assert data["suit"] == "S"
    assert [p["seat"] for p in data["plays"]] == [2, 3, 0, 1]
    assert [p["role"] for p in data["plays"]] == ["lead", "ruff", "follow", "ruff"]
    assert [p["beats_previous_best"] for p in data["plays"]] == [False, True, False, True]
    assert [p["legal"] for p in data["plays"]] == [None] * 4
    assert data["plays"][2]["units"] is None  # no structure
    assert [u["type"] for u in data["plays"][3]["units"]] == ["tractor", "single", "single"]
    assert data["plays"][3]["cards"] == ["QH", "QH", "JH", "JH", "3H", "2H"]
    assert [r["code"] for r in data["plays"][1]["reasons"]] == ["trick.ruff", "trick.beats"]


def test_hands_judge_each_follow_in_chinese(api: Any) -> None:
    body = BODY | {
        "hands": {
            "3": ["9H", "9H", "8H", "8H", "7H", "2H", "6S"],  # holds a spade: the ruff is illegal
            "0": ["QS", "JS", "9S", "8S", "7S", "6S", "AC"],
        }
    }
    resp = api.post("/v1/trick", body, headers={"Accept-Language": "zh"})
    data = resp.get_json()
    assert [p["legal"] for p in data["plays"]] == [None, False, True, None]
    codes = [r["code"] for r in data["plays"][1]["reasons"]]
    assert codes[-1] == "follow.must_follow_suit"
    assert "黑桃" in data["plays"][1]["reasons"][-1]["message"]
    assert resp.headers["Content-Language"] == "zh-Hans"


@pytest.mark.parametrize("name", list(PRESET_VALUES))
def test_every_preset_end_to_end(api: Any, name: str) -> None:
    body = {
        "rules": name,
        "trump": {"level": "10", "suit": "H"},
        "leader": 0,
        "plays": [["KS"], ["AS"], ["3H"], ["3C"]],
    }
    data = api.post("/v1/trick", body).get_json()
    assert data["winner"] == 2 and data["points"] == 10
    assert [p["role"] for p in data["plays"]] == ["lead", "follow", "ruff", "discard"]


@pytest.mark.parametrize(
    ("change", "pointers"),
    [
        ({"leader": 4}, ["/leader"]),
        ({"leader": "0"}, ["/leader"]),
        ({"plays": BODY["plays"][:3]}, ["/plays"]),  # three plays
        ({"plays": [BODY["plays"][0], ["9H"], BODY["plays"][2], BODY["plays"][3]]}, ["/plays/1"]),  # unequal size
        ({"plays": [["AS", "KH"], ["9H", "9H"], ["QS", "JS"], ["3D", "4D"]]}, ["/plays/0/1"]),  # KH is trump
        ({"plays": [["AS"], ["AS"], ["AS"], ["XX"]]}, ["/plays/3/0"]),  # not a card
        ({"plays": [["AS"], ["AS"], ["AS"], ["3S"]]}, ["/plays/2/0"]),  # a third AS with two decks
        ({"hands": {"3": ["2C"]}}, ["/plays/1/0", "/plays/1/1", "/plays/1/2", "/plays/1/3", "/plays/1/4", "/plays/1/5"]),
        ({"hands": {"7": ["2C"]}}, ["/hands/7"]),
    ],
)
def test_unprocessable(api: Any, change: dict[str, Any], pointers: list[str]) -> None:
    resp = api.post("/v1/trick", BODY | change)
    assert resp.status_code == 422
    assert [e["pointer"] for e in resp.get_json()["errors"]] == pointers


def test_not_json(api: Any) -> None:
    assert api.post("/v1/trick", data="x", content_type="text/plain").status_code == 415
