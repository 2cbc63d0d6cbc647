"""One answer shape everywhere (docs/api.md): teams are "A"/"B" in every request
and answer, every verdict carries ``reasons`` (a list), every request with a
trump context takes ``trump {level, suit}``, and texts number tricks from 1;
all through the real app."""

from __future__ import annotations

from typing import Any

TEN_H = {"level": "10", "suit": "H"}


def test_bid_takes_the_trump_object_and_answers_reasons(api: Any) -> None:
    body = {"trump": {"level": "10"}, "standing": {"seat": 0, "cards": ["10H"]}, "bid": {"seat": 1, "cards": ["10S", "10S"]}}
    answer = api.post("/v1/bid", body).get_json()
    assert answer["valid"] is True and [r["code"] for r in answer["reasons"]] == ["bid.overturns"]
    assert "reason" not in answer
    assert api.post("/v1/bid", body | {"trump": {"level": "10", "suit": None}}).get_json() == answer


def test_resolve_answers_reasons_everywhere(api: Any) -> None:
    body = {"rules": "two-deck", "trump": {"level": "10"},
            "bids": [{"seat": 0, "cards": ["10H"]}, {"seat": 1, "cards": ["10S"]}]}
    answer = api.post("/v1/bid/resolve", body).get_json()
    assert isinstance(answer["reasons"], list) and answer["reasons"]
    assert all(isinstance(step["reasons"], list) for step in answer["steps"])
    assert answer["first_invalid"]["index"] == 1 and isinstance(answer["first_invalid"]["reasons"], list)


def test_a_suit_while_bidding_and_the_old_trump_level_say_what_to_send(api: Any) -> None:
    resp = api.post("/v1/bid", {"trump": {"level": "10", "suit": "H"}, "bid": {"seat": 0, "cards": ["10H"]}})
    (error,) = resp.get_json()["errors"]
    assert (error["pointer"], error["code"]) == ("/trump/suit", "suit_decided_by_bids")
    resp = api.post("/v1/bid/resolve", {"trump_level": "10", "bids": []}, headers={"Accept-Language": "zh-TW"})
    errors = {e["pointer"]: e for e in resp.get_json()["errors"]}
    assert errors["/trump_level"]["code"] == "renamed_field"
    assert errors["/trump_level"]["message"] == 'trump_level 已被取代：請改用 trump: {"level": ...}'
    resp = api.post("/v1/bid/resolve", {"trump_level": "10", "bids": []})
    assert {e["pointer"]: e for e in resp.get_json()["errors"]}["/trump_level"]["message"] == (
        'trump_level was replaced: send trump: {"level": ...}')


def test_every_team_is_a_or_b(api: Any) -> None:
    trick = api.post("/v1/trick", {"trump": TEN_H, "leader": 0,
                                   "plays": [["3S"], ["AS"], ["4S"], ["5S"]]}).get_json()
    assert (trick["winner"], trick["team"]) == (1, "B")
    settle = api.post("/v1/settle", {"dealer": 1, "defender_points": 0, "levels": {"A": "2", "B": "5"}}).get_json()
    assert settle["team"] == "B" and settle["new_levels"] == {"A": "2", "B": "8"}
    throw = api.post("/v1/throw", {"rules": {"preset": "two-deck", "throw_penalty": "points_per_card"},
                                   "trump": TEN_H, "leader": 2, "lead": ["AS", "KS"],
                                   "hands": {"0": ["AS"], "1": [], "3": []}}).get_json()
    assert throw["valid"] is False and throw["penalty"]["team"] == "B"


def test_the_game_won_text_names_the_team(api: Any) -> None:
    settle = api.post("/v1/settle", {"dealer": 0, "defender_points": 0, "levels": {"A": "Q", "B": "3"}}).get_json()
    assert settle["game_won"] is True
    assert "From level Q, team A (seats 0 and 2) climbs past level A: it wins the game." in [r["message"] for r in settle["reasons"]]
