"""``POST /v1/follow``: what must this player play, and was this follow legal?"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from marshmallow import Schema

from engine.follow import FollowVerdict, Requirement, Structure, check_follow, judge_follow
from engine.trump import trump_order
from service.api import json_response, language, load, reasons_json, v1
from service.explain import pattern, render
from service.fields import CardsField, RulesField, TrumpField
from service.metrics import count_verdict
from service.render import cards_json, units_json


class FollowRequest(Schema):
    rules = RulesField()
    trump = TrumpField(required=True)
    lead = CardsField(required=True)
    hand = CardsField(required=True)
    play = CardsField(load_default=None, allow_none=True)


_schema = FollowRequest()


@lru_cache(maxsize=1024)
def structure_json(structure: Structure | None, lang: str) -> dict[str, Any] | None:
    """A structure as docs/api.md shows it, cached by value: the few that recur are
    rendered once, and a response only ever reads the dict it is given."""
    if structure is None:
        return None
    return structure.as_json() | {"text": pattern(structure.pattern(), lang)}


@lru_cache(maxsize=1024)
def requirement_json(req: Requirement, lang: str) -> dict[str, Any]:
    """A requirement as docs/api.md shows it, cached by value (as ``structure_json``)."""
    return req.as_json() | {"text": render(req.describe(), lang)}


def follow_json(verdict: FollowVerdict, lang: str) -> dict[str, Any]:
    return {
        "legal": verdict.legal,
        "required": requirement_json(verdict.required, lang),
        "reasons": reasons_json(verdict.reasons, lang),
        "example": cards_json(verdict.example),
        "lead_units": units_json(verdict.lead_units),
        "reached": structure_json(verdict.reached, lang),
    }


@v1.post("/follow")
def post_follow() -> Any:
    body = load(_schema)
    lang = language()
    rules = body["rules"]
    order = trump_order(body["trump"], rules)
    verdict = judge_follow(check_follow(body["lead"], body["hand"], body["play"], order, rules))
    count_verdict("follow.legal", verdict.legal)
    return json_response(follow_json(verdict, lang), lang)
