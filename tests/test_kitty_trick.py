"""``POST /v1/kitty`` from the whole ``last_trick`` (API.md; RULES.md §6–§7).

The stubbed tests check the wiring against the trick engine's interface
(``engine.trick.resolve_trick(leader, plays, order, rules, hands=None)`` →
result with ``.winner``); the others run against the real trick engine and are
skipped until ``engine/trick.py`` exists.
"""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest

from engine.cards import parse_card
from engine.errors import InvalidInput, Problem

H2 = {"level": "2", "suit": "H"}
KITTY = ["KC", "10D", "5C", "3C", "4C", "6C", "7C", "8C"]  # 25 points


def trick_body(leader: int, plays: list[list[str]], **kw: Any) -> dict[str, Any]:
    return {"rules": "two-deck", "trump": H2, "dealer": 0, "kitty": KITTY,
            "last_trick": {"leader": leader, "plays": plays}} | kw


@pytest.fixture()
def stub_trick(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A stand-in trick engine whose winner the test chooses."""
    state: dict[str, Any] = {"winner": 0, "calls": [], "error": None}

    def resolve_trick(leader: int, plays: list[list[int]], order: Any, rules: Any, hands: Any = None) -> Any:
        state["calls"].append((leader, plays, order, rules))
        if state["error"] is not None:
            raise state["error"]
        return types.SimpleNamespace(winner=state["winner"])

    module = types.ModuleType("engine.trick")
    module.resolve_trick = resolve_trick  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "engine.trick", module)
    monkeypatch.setattr("service.routes.kitty.HAVE_TRICK_ENGINE", True)
    return state


def test_stub_winner_and_trumps_from_the_winning_play(api: Any, stub_trick: dict[str, Any]) -> None:
    # seed 002 (用主牌扣底): seat 1 leads 77 in spades, seat 3 (a defender; dealer 0) ruffs with trump AA
    stub_trick["winner"] = 3
    plays = [["7S", "7S"], ["4S", "6S"], ["AH", "AH"], ["5S", "6S"]]  # seats 1, 2, 3, 0
    resp = api.post("/v1/kitty", trick_body(1, plays, rules="four-deck-cgc", trump={"level": "3", "suit": "H"}))
    assert resp.status_code == 200, resp.get_json()
    data = resp.get_json()
    assert (data["winner"], data["won_with_trumps"], data["multiplier"], data["to"]) == (3, True, 4, "defenders")
    leader, sent, _order, rules = stub_trick["calls"][0]
    assert leader == 1 and sent[0] == [parse_card("7S")] * 2 and rules.kitty_multiplier == "cgc"


def test_stub_plain_suit_winner(api: Any, stub_trick: dict[str, Any]) -> None:
    stub_trick["winner"] = 1  # the leader keeps the trick in spades: ×1 under cgc
    plays = [["7S", "7S"], ["4S", "6S"], ["8D", "9D"], ["5S", "6S"]]
    data = api.post("/v1/kitty", trick_body(1, plays, rules="four-deck-cgc",
                                            trump={"level": "3", "suit": "H"})).get_json()
    assert (data["winner"], data["won_with_trumps"], data["multiplier"], data["awarded"]) == (1, False, 1, 25)


def test_stub_dealer_side_wins(api: Any, stub_trick: dict[str, Any]) -> None:
    stub_trick["winner"] = 2
    plays = [["7S", "7S"], ["9S", "9S"], ["3S", "4S"], ["5S", "6S"]]
    data = api.post("/v1/kitty", trick_body(1, plays, defender_points=40)).get_json()
    assert (data["to"], data["awarded"], data["defender_points_after"]) == ("none", 0, 40)


def test_stub_errors_point_into_the_trick(api: Any, stub_trick: dict[str, Any]) -> None:
    stub_trick["error"] = InvalidInput(Problem(("plays", 2, 1), "plays must all hold as many cards as the lead"))
    resp = api.post("/v1/kitty", trick_body(1, [["7S", "7S"], ["3S", "4S"], ["9S"], ["5S", "6S"]]))
    assert resp.status_code == 422
    assert resp.get_json()["errors"][0]["pointer"] == "/last_trick/plays/2/1"


def test_stub_copies_across_the_trick_and_kitty(api: Any, stub_trick: dict[str, Any]) -> None:
    resp = api.post("/v1/kitty", trick_body(1, [["3C", "3C"], ["3S", "4S"], ["9S", "9S"], ["5S", "6S"]]))
    assert resp.status_code == 422
    assert resp.get_json()["errors"][0]["pointer"] == "/last_trick/plays/0/1"
    assert stub_trick["calls"] == []


# --- against the real trick engine --------------------------------------------------------


@pytest.fixture()
def trick_engine() -> Any:
    return pytest.importorskip("engine.trick")


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
