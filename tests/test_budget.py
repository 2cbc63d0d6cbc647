"""The work budget (engine.budget): bounded work per request, never a different verdict.

The generic follow rule's search charges its work units to an open budget; a
verdict that needs more than is left raises ``TooComplex`` (422 ``too_complex``
at the HTTP layer).  The units depend on the request alone: a score found in a
cache costs the same units as one computed, so whether a request is too complex
never depends on what a worker was asked before.
"""

from __future__ import annotations

import pytest

from engine import budget, caches
from engine.budget import TooComplex, work_budget
from engine.follow import FollowVerdict, check_follow, judge_follow
from engine.rules import rules_from_json
from service.app import create_app
from service.limits import MAX_WORK_UNITS
from tests.helpers import cards, order
from tests.test_follow_generic import CASES  # bench/follow_worst.py's cases

NAME = "2-pair and triple tractors"  # its obligation takes 1,007 units (about 30 ms of CPU on a cold worker)
UNITS = 1007


def _judge() -> FollowVerdict:
    _, body = CASES[NAME]
    rules = rules_from_json(body["rules"])
    return judge_follow(check_follow(
        cards(" ".join(body["lead"])), cards(" ".join(body["hand"])), None,
        order(body["trump"]["level"], body["trump"]["suit"], rules), rules,
    ))


def _units() -> int:
    with work_budget(10**9):
        _judge()
        left = budget.remaining()
    assert left is not None
    return 10**9 - left


def test_without_a_budget_nothing_is_limited() -> None:
    assert budget.remaining() is None
    assert _judge().required.structure is not None


def test_the_units_are_the_same_cold_and_cached() -> None:
    caches.clear()
    assert _units() == UNITS  # computed
    assert _units() == UNITS  # from the obligation cache


@pytest.mark.parametrize("cold", [True, False])
def test_one_unit_short_is_too_complex_cold_or_cached(cold: bool) -> None:
    if cold:
        caches.clear()
    else:
        _judge()  # fills the caches
    with work_budget(UNITS - 1), pytest.raises(TooComplex) as raised:
        _judge()
    assert raised.value.limit == UNITS - 1
    assert [p.code for p in raised.value.problems] == ["too_complex"]


def test_under_the_budget_the_verdict_is_the_unbounded_one() -> None:
    free = _judge()
    caches.clear()
    with work_budget(UNITS):
        bounded = _judge()
        assert budget.remaining() == 0
    assert bounded == free


def test_a_budget_is_shared_by_the_verdicts_inside_it() -> None:
    with work_budget(UNITS + UNITS // 2):
        _judge()
        with pytest.raises(TooComplex):
            _judge()
    assert budget.remaining() is None  # closed with its block


@pytest.mark.parametrize(
    ("language", "words"), [("en", "640 units"), ("zh-CN", "640 个工作单位"), ("zh-TW", "640 個工作單位")]
)
def test_the_service_answers_422_too_complex_and_closes_the_budget(language: str, words: str) -> None:
    assert MAX_WORK_UNITS == 640
    client = create_app({"ACCESS_LOG": False}).test_client()
    path, body = CASES[NAME]
    got = client.post(path, json=body, headers={"Accept-Language": language})
    assert got.status_code == 422
    out = got.get_json()
    assert out["code"] == "invalid_request"
    assert [(e["pointer"], e["code"]) for e in out["errors"]] == [("", "too_complex")]
    assert words in out["errors"][0]["message"]
    assert budget.remaining() is None  # the request's budget ended with it
    # the same request, now in every cache, is refused the same way
    assert client.post(path, json=body).status_code == 422


def test_the_service_without_a_budget_answers_it() -> None:
    client = create_app({"ACCESS_LOG": False, "MAX_WORK_UNITS": None}).test_client()
    path, body = CASES[NAME]
    assert client.post(path, json=body).status_code == 200
