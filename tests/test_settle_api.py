"""``POST /v1/settle`` (docs/api.md; docs/rules.md §8). Responses are validated against
openapi.yaml by the ``api`` fixture."""

from __future__ import annotations

from typing import Any

import pytest


def body(**kw: Any) -> dict[str, Any]:
    return {"rules": "two-deck", "dealer": 0, "defender_points": 85, "levels": {"A": "5", "B": "7"}} | kw


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        # seed 001 升级规则, two decks: 0 → dealer +3; 40–75 → +1; 80–115 换庄; 160–195 敌家 +2
        ({"defender_points": 0}, ("dealer_keeps", "A", 3, {"A": "8", "B": "7"}, 2, False)),
        ({"defender_points": 40}, ("dealer_keeps", "A", 1, {"A": "6", "B": "7"}, 2, False)),
        ({"defender_points": 85}, ("defenders_take_over", "B", 0, {"A": "5", "B": "7"}, 1, False)),
        ({"defender_points": 160, "dealer": 3}, ("defenders_take_over", "A", 2, {"A": "7", "B": "7"}, 0, False)),
        # negative points after the dealer side dug the kitty (seed 002): 大光
        ({"defender_points": -60, "rules": "four-deck-cgc"},
         ("dealer_keeps", "A", 3, {"A": "8", "B": "7"}, 2, False)),
        # seed 002's own example: 320 from level 2 → 4 (constant 2s)
        ({"rules": "four-deck-cgc", "dealer": 1, "defender_points": 320, "levels": {"A": "2", "B": "9"}},
         ("defenders_take_over", "A", 2, {"A": "4", "B": "9"}, 2, False)),
        # seed 000 四副: 160 takes over and gains a level
        ({"rules": "four-deck", "defender_points": 160}, ("defenders_take_over", "B", 1, {"A": "5", "B": "8"}, 1, False)),
        # passing A wins the game
        ({"defender_points": 0, "levels": {"A": "Q", "B": "3"}}, ("dealer_keeps", "A", 3, {"A": "A", "B": "3"}, 2, True)),
        ({"defender_points": 0, "levels": {"A": "j", "B": "3"}}, ("dealer_keeps", "A", 3, {"A": "A", "B": "3"}, 2, False)),
        # one-deck-lianzhong: 100 → defenders +2 and no further step
        ({"rules": "one-deck-lianzhong", "defender_points": 140},
         ("defenders_take_over", "B", 2, {"A": "5", "B": "9"}, 1, False)),
        # a caller's own table
        ({"rules": {"preset": "two-deck", "level_table": {"bands": [
            {"from": None, "to": 100, "side": "dealer", "levels": 1},
            {"from": 100, "to": None, "side": "defenders", "levels": 0}], "step": 50}},
          "defender_points": 200}, ("defenders_take_over", "B", 2, {"A": "5", "B": "9"}, 1, False)),
        ({"rules": {"preset": "two-deck", "level_table": "four-deck"}, "defender_points": 160},
         ("defenders_take_over", "B", 1, {"A": "5", "B": "8"}, 1, False)),
    ],
)
def test_settle(api: Any, overrides: dict[str, Any], expected: tuple[Any, ...]) -> None:
    resp = api.post("/v1/settle", body(**overrides))
    assert resp.status_code == 200, resp.get_json()
    data = resp.get_json()
    got = (data["outcome"], data["team"], data["levels_gained"], data["new_levels"], data["next_dealer"],
           data["game_won"])
    assert got == expected
    assert data["reasons"][0]["code"].startswith("settle.")


def test_settle_band(api: Any) -> None:
    data = api.post("/v1/settle", body(defender_points=240)).get_json()
    assert data["band"] == {"from": 160, "to": None, "side": "defenders", "levels": 2, "step": 40, "step_levels": 2}
    assert data["levels_gained"] == 4
    data = api.post("/v1/settle", body(defender_points=5)).get_json()
    assert data["band"] == {"from": 5, "to": 40, "side": "dealer", "levels": 2, "step": None, "step_levels": 0}


def test_settle_chinese(api: Any) -> None:
    resp = api.post("/v1/settle", body(), headers={"Accept-Language": "zh"})
    assert "上台" in resp.get_json()["reasons"][0]["message"]


@pytest.mark.parametrize(
    ("overrides", "pointer"),
    [
        ({"defender_points": 42}, "/defender_points"),  # not a multiple of 5
        ({"defender_points": 40.0}, "/defender_points"),
        ({"defender_points": 5_000_000}, "/defender_points"),
        ({"levels": {"A": "1", "B": "7"}}, "/levels/A"),  # unknown level
        ({"levels": {"A": "5", "B": "Z"}}, "/levels/B"),
        ({"levels": {"A": "5", "B": 7}}, "/levels/B"),
        ({"levels": {"A": "5"}}, "/levels/B"),
        ({"levels": {"A": "5", "B": "7", "2": "9"}}, "/levels/2"),
        ({"levels": ["5", "7"]}, "/levels"),
        ({"dealer": 4}, "/dealer"),
        ({"dealer": "0"}, "/dealer"),
        ({"rules": {"preset": "two-deck", "level_table": "five-deck"}}, "/rules/level_table"),
        ({"rules": {"preset": "two-deck", "level_table": {"bands": [
            {"from": None, "to": 50, "side": "dealer", "levels": 1},
            {"from": 60, "to": None, "side": "defenders", "levels": 0}], "step": 40}}},
         "/rules/level_table/bands/1/from"),
        ({"rules": {"preset": "two-deck", "level_table": {"bands": [
            {"from": None, "to": 50, "side": "dealer", "levels": -1},
            {"from": 50, "to": None, "side": "defenders", "levels": 0}], "step": 40}}},
         "/rules/level_table/bands/0/levels"),
        ({"extra": True}, "/extra"),
    ],
)
def test_settle_bad_input(api: Any, overrides: dict[str, Any], pointer: str) -> None:
    resp = api.post("/v1/settle", body(**overrides))
    assert resp.status_code == 422, resp.get_json()
    assert pointer in [e["pointer"] for e in resp.get_json()["errors"]]


def test_settle_missing_fields(api: Any) -> None:
    resp = api.post("/v1/settle", {})
    assert resp.status_code == 422
    pointers = {e["pointer"] for e in resp.get_json()["errors"]}
    assert pointers == {"/dealer", "/defender_points", "/levels"}
