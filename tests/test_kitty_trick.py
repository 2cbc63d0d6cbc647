"""``POST /v1/kitty`` from the whole ``last_trick`` (docs/api.md; docs/rules.md §6–§7).

The stubbed tests check the wiring against the trick engine's interface
(``engine.trick.resolve_trick(check_trick(leader, plays, order, rules))`` →
result with ``.winner``); the others run against the real trick engine and are
skipped until ``engine/trick.py`` exists.
"""

from __future__ import annotations

from typing import Any

import pytest

H2 = {"level": "2", "suit": "H"}
KITTY = ["KC", "10D", "5C", "3C", "4C", "6C", "7C", "8C"]  # 25 points


def trick_body(leader: int, plays: list[list[str]], **kw: Any) -> dict[str, Any]:
    return {"rules": "two-deck", "trump": H2, "dealer": 0, "kitty": KITTY,
            "last_trick": {"leader": leader, "plays": plays}} | kw


def test_errors_point_into_the_trick(api: Any) -> None:
    resp = api.post("/v1/kitty", trick_body(1, [["7S", "7S"], ["3S", "4S"], ["9S"], ["5S", "6S"]]))
    assert resp.status_code == 422
    assert resp.get_json()["errors"][0]["pointer"].startswith("/last_trick/plays/2")


def test_copies_across_the_trick_and_kitty(api: Any) -> None:
    resp = api.post("/v1/kitty", trick_body(1, [["3C", "3C"], ["3S", "4S"], ["9S", "9S"], ["5S", "6S"]]))
    assert resp.status_code == 422
    assert resp.get_json()["errors"][0]["pointer"] == "/last_trick/plays/0/1"


# --- against the real trick engine --------------------------------------------------------


@pytest.fixture()
def trick_engine() -> Any:
    import engine.trick

    return engine.trick


@pytest.mark.parametrize(
    ("case", "payload", "winner", "expected"),
    [
        ("seed 001: the defenders' 99 beats 77 and digs ×4",
         trick_body(1, [["7S", "7S"], ["3S", "4S"], ["9S", "9S"], ["5S", "6S"]]), 3, (4, 100, "defenders")),
        ("the dealer side's AA wins: no 抠底",
         trick_body(1, [["7S", "7S"], ["AS", "AS"], ["9S", "9S"], ["5S", "6S"]]), 2, (0, 0, "none")),
        ("seed 002: a trump pair ruffs a plain pair ×4",
         trick_body(1, [["7S", "7S"], ["4S", "6S"], ["AH", "AH"], ["5S", "6S"]], rules="four-deck-cgc",
                    trump={"level": "3", "suit": "H"}), 3, (4, 100, "defenders")),
        ("seed 002: won in a plain suit ×1",
         trick_body(3, [["AS", "AS"], ["4S", "6S"], ["5S", "6S"], ["7S", "7S"]], rules="four-deck-cgc",
                    trump={"level": "3", "suit": "H"}), 3, (1, 25, "defenders")),
        ("seed 003: Titanic ×18",
         trick_body(1, [["4S", "4S", "4S", "5S", "5S", "5S"], ["3S"] * 3 + ["6S"] * 3, ["7S"] * 3 + ["9S"] * 3,
                        ["8S"] * 3 + ["JS"] * 3], rules="three-deck", kitty=KITTY[:6]), 1, (18, 450, "defenders")),
    ],
)
def test_with_the_trick_engine(api: Any, trick_engine: Any, case: str, payload: dict[str, Any], winner: int,
                               expected: tuple[int, int, str]) -> None:
    resp = api.post("/v1/kitty", payload)
    assert resp.status_code == 200, resp.get_json()
    data = resp.get_json()
    assert data["winner"] == winner, case
    assert (data["multiplier"], data["awarded"], data["to"]) == expected, case


def test_trick_engine_errors_point_into_the_trick(api: Any, trick_engine: Any) -> None:
    resp = api.post("/v1/kitty", trick_body(1, [["7S", "7S"], ["3S"], ["9S", "9S"], ["5S", "6S"]]))
    assert resp.status_code == 422
    assert all(e["pointer"].startswith("/last_trick") for e in resp.get_json()["errors"])
