"""``POST /v1/throw``: does a multi-unit lead (甩牌) stand, and what is forced if not (RULES §4)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema

from engine.throw import Blocker, FailedUnit, Penalty, ThrowVerdict, judge_throw
from engine.trump import SUIT_LABELS, trump_order
from service.api import json_response, language, load, reason_json, v1, with_language
from service.fields import CardsField, HandsField, RulesField, SeatField, TrumpField
from service.metrics import count_verdict
from service.render import cards_json, unit_json


class ThrowRequest(Schema):
    rules = RulesField()
    trump = TrumpField(required=True)
    leader = SeatField(required=True)
    lead = CardsField(required=True)
    hands = HandsField(required=True)


_schema = ThrowRequest()


def _blocker_json(blocker: Blocker) -> dict[str, Any]:
    return {
        "seat": blocker.seat,
        "cards": cards_json(blocker.cards),
        "width": blocker.width,
        "length": blocker.length,
        "wider_shape": blocker.wider_shape,
    }


def _failed_json(failed: FailedUnit) -> dict[str, Any]:
    return {"unit": unit_json(failed.unit), "beaten_by": [_blocker_json(b) for b in failed.beaten_by]}


def _penalty_json(penalty: Penalty) -> dict[str, Any]:
    return {
        "kind": penalty.kind,
        "amount": penalty.amount,
        "seat": penalty.seat,
        "team": None if penalty.team is None else str(penalty.team),
    }


def throw_json(verdict: ThrowVerdict, lang: str) -> dict[str, Any]:
    """A verdict as API.md's ``/v1/throw`` response."""
    return {
        "valid": verdict.valid,
        "suit": SUIT_LABELS[verdict.suit],
        "units": [unit_json(u) for u in verdict.units],
        "failed_units": [_failed_json(f) for f in verdict.failed_units],
        "forced_unit": None if verdict.forced_unit is None else unit_json(verdict.forced_unit),
        "forced_play": cards_json(verdict.forced_play),
        "penalty": _penalty_json(verdict.penalty),
        "reasons": [reason_json(r, lang) for r in verdict.reasons],
    }


@v1.post("/throw")
def post_throw() -> Any:
    body = load(_schema)
    rules = body["rules"]
    order = trump_order(body["trump"], rules)
    # the engine's argument names are the request's keys: its paths are already request pointers
    verdict = judge_throw(body["leader"], body["lead"], body["hands"], order, rules)
    lang = language()
    count_verdict("throw.valid", verdict.valid)
    return with_language(json_response(throw_json(verdict, lang)), lang)
