"""/v1/analyze, /v1/rulesets, health and the error contract, through the real app."""

from __future__ import annotations

from typing import Any

import pytest

TRUMP = {"level": "10", "suit": "H"}


def test_analyze_tractor_through_level_cards(api: Any) -> None:
    resp = api.post("/v1/analyze", {"rules": "two-deck", "trump": TRUMP,
                                     "cards": ["AH", "10s", "BJ", "10H", "ah", "10♠", "TH"]})
    assert resp.status_code == 200
    body = resp.json
    assert [c["card"] for c in body["cards"]] == ["BJ", "10H", "10H", "10S", "10S", "AH", "AH"]
    assert {c["suit"] for c in body["cards"]} == {"trump"}
    assert body["points"] == 40 and body["suits"] == ["trump"]
    assert body["units"] == [
        {"type": "tractor", "width": 2, "length": 3, "cards": ["10H", "10H", "10S", "10S", "AH", "AH"]},
        {"type": "single", "width": 1, "length": 1, "cards": ["BJ"]},
    ]
    assert body["is_throw"] is True


def test_analyze_single_unit_is_not_a_throw(api: Any) -> None:
    body = api.post("/v1/analyze", {"trump": TRUMP, "cards": ["KS", "KS", "QS", "QS"]}).json
    assert body["is_throw"] is False and body["units"][0]["type"] == "tractor"


def test_analyze_mixed_suits_has_no_units(api: Any) -> None:
    body = api.post("/v1/analyze", {"trump": TRUMP, "cards": ["KS", "5D", "2H", "小王"]}).json
    assert body["units"] is None and body["is_throw"] is None
    assert body["suits"] == ["trump", "S", "D"]
    assert [c["card"] for c in body["cards"]] == ["SJ", "2H", "KS", "5D"]
    assert body["points"] == 15


def test_analyze_empty(api: Any) -> None:
    body = api.post("/v1/analyze", {"trump": TRUMP, "cards": []}).json
    assert body["cards"] == [] and body["units"] is None


def test_analyze_three_deck_override(api: Any) -> None:
    body = api.post("/v1/analyze", {"rules": {"preset": "three-deck"}, "trump": {"level": "4", "suit": "S"},
                                     "cards": ["2H", "2H", "3H", "3H", "3H", "5H", "5H", "5H"]}).json
    assert [(u["width"], u["length"]) for u in body["units"]] == [(3, 2), (2, 1)]


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"trump": TRUMP, "cards": ["AS", "1S"]}, "/cards/1"),
        ({"trump": TRUMP, "cards": ["AS", "AS", "AS"]}, "/cards/2"),
        ({"trump": TRUMP, "cards": "AS"}, "/cards"),
        ({"trump": {"level": "1", "suit": "H"}, "cards": []}, "/trump/level"),
        ({"trump": {"level": "10", "suit": "X"}, "cards": []}, "/trump/suit"),
        ({"trump": {"level": "10"}, "cards": []}, "/trump/suit"),
        ({"trump": {"level": "10", "suit": "H", "x": 1}, "cards": []}, "/trump/x"),
        ({"cards": []}, "/trump"),
        ({"trump": TRUMP}, "/cards"),
        ({"trump": TRUMP, "cards": [], "extra": 1}, "/extra"),
        ({"rules": "five-deck", "trump": TRUMP, "cards": []}, "/rules"),
        ({"rules": {"preset": "two-deck", "decks": 9}, "trump": TRUMP, "cards": []}, "/rules/decks"),
        ({"rules": {"nonsense": True}, "trump": TRUMP, "cards": []}, "/rules/nonsense"),
        ({"rules": {"level_table": {"bands": [], "step": 40}}, "trump": TRUMP, "cards": []}, "/rules/level_table/bands"),
    ],
)
def test_analyze_422_points_at_the_problem(api: Any, body: dict[str, Any], pointer: str) -> None:
    resp = api.post("/v1/analyze", body, validate_request=False)
    assert resp.status_code == 422
    assert resp.mimetype == "application/problem+json"
    problem = resp.json
    assert problem["status"] == 422 and problem["detail"]
    assert pointer in [e["pointer"] for e in problem["errors"]]


def test_422_reports_every_problem(api: Any) -> None:
    resp = api.post("/v1/analyze", {"trump": {"level": "1", "suit": "H"}, "cards": ["x", "AS", "y"]},
                    validate_request=False)
    assert sorted(e["pointer"] for e in resp.json["errors"]) == ["/cards/0", "/cards/2", "/trump/level"]


def test_body_not_an_object(api: Any) -> None:
    resp = api.post("/v1/analyze", data=b"[1, 2]", validate_request=False)
    assert resp.status_code == 422 and resp.json["errors"][0]["pointer"] == ""


def test_malformed_json_is_400(api: Any) -> None:
    resp = api.post("/v1/analyze", data=b'{"trump": ', validate_request=False)
    assert resp.status_code == 400 and resp.mimetype == "application/problem+json"


def test_not_json_is_415(api: Any) -> None:
    resp = api.post("/v1/analyze", data=b"cards=AS", content_type="application/x-www-form-urlencoded",
                    validate_request=False)
    assert resp.status_code == 415 and resp.mimetype == "application/problem+json"


def test_too_large_is_413(api: Any) -> None:
    big = b'{"trump": {"level": "2", "suit": "S"}, "cards": [' + b'"AS",' * 20000 + b'"AS"]}'
    resp = api.post("/v1/analyze", data=big, validate_request=False)
    assert resp.status_code == 413 and resp.mimetype == "application/problem+json"


def test_unknown_path_and_method(api: Any) -> None:
    assert api.client.get("/v2/anything").status_code == 404
    assert api.client.get("/v2/anything").mimetype == "application/problem+json"
    resp = api.client.get("/v1/analyze")
    assert resp.status_code == 405 and resp.mimetype == "application/problem+json"
    assert "POST" in resp.headers["Allow"]


def test_doubled_slash_is_a_problem_not_a_redirect(api: Any) -> None:
    resp = api.client.post("/v1//analyze", json={"trump": TRUMP, "cards": []})
    assert resp.status_code == 404 and resp.mimetype == "application/problem+json"


def test_rulesets(api: Any) -> None:
    body = api.get("/v1/rulesets").json
    names = [r["name"] for r in body["rulesets"]]
    assert names == ["one-deck", "one-deck-lianzhong", "two-deck", "two-deck-constant-2",
                     "two-deck-lianzhong", "three-deck", "four-deck", "four-deck-cgc", "shengji-io", "botzone"]
    assert body["default"] == "two-deck"
    for r in body["rulesets"]:
        assert set(r["options"]) - {"preset"} == set(body["options"])
    cgc = api.get("/v1/rulesets/four-deck-cgc").json
    assert cgc["options"]["constant_trump_ranks"] == ["2"]
    assert cgc["options"]["level_table"]["bands"][3] == {"from": 160, "to": 240, "side": "defenders", "levels": 0}


def test_unknown_ruleset_is_404(api: Any) -> None:
    resp = api.get("/v1/rulesets/five-deck")
    assert resp.status_code == 404 and "five-deck" in resp.json["detail"]


def test_health(api: Any) -> None:
    assert api.get("/healthz").json == {"status": "ok"}
    assert api.get("/readyz").json["status"] == "ready"
