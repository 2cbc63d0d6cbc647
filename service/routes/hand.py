"""``POST /v1/hand``: audit a whole finished hand (tournament use; docs/api.md)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from engine.audit import HandAudit, TrickAudit, TrickRecord, Violation, audit_hand
from service.api import json_response, language, load, v1
from service.errors import register_message
from service.explain import render
from service.fields import (
    CardsField,
    HandsField,
    PlaysField,
    Record,
    RulesField,
    SeatField,
    StrictBoolean,
    TrumpField,
)
from service.limits import MAX_TRICKS
from service.metrics import count_verdict
from service.routes.kitty import kitty_json
from service.routes.settle import LevelsField, seat_points_json, settle_json
from service.routes.throw import penalty_json, throw_json
from service.routes.trick import plays_json


class TrickSchema(Schema):
    leader = SeatField(required=True)
    plays = PlaysField(count=4, required=True)
    attempted_throw = CardsField(load_default=None, allow_none=True)


def make_trick(data: dict[str, Any]) -> TrickRecord:
    attempted = data["attempted_throw"]
    return TrickRecord(
        data["leader"], tuple(tuple(p) for p in data["plays"]),
        None if attempted is None else tuple(attempted),
    )


class HandRequest(Schema):
    rules = RulesField()
    trump = TrumpField(required=True)
    dealer = SeatField(required=True)
    levels = LevelsField(required=True)
    hands = HandsField(required=True)
    kitty = CardsField(required=True)
    tricks = fields.List(
        Record(TrickSchema, make_trick), required=True,
        validate=validate.Length(
            max=MAX_TRICKS, error=register_message(f"at most {MAX_TRICKS} tricks", "too_many_items", max=MAX_TRICKS)
        ),
    )
    strict = StrictBoolean(load_default=False)


_schema = HandRequest()


def violation_json(v: Violation, lang: str) -> dict[str, Any]:
    return {"trick": v.trick, "seat": v.seat, "code": v.reason.code, "message": render(v.reason, lang)}


def trick_audit_json(t: TrickAudit, lang: str) -> dict[str, Any]:
    result = t.result
    return {
        "index": t.index,
        "leader": t.leader,
        "expected_leader": t.expected_leader,
        "winner": None if result is None else result.winner,
        "points": None if result is None else result.points,
        "plays": [] if result is None else plays_json(result.plays, lang),
        "throw": None if t.throw is None or len(t.throw.units) == 1 else throw_json(t.throw, lang),
        "defender_points": t.defender_points,
        "violations": [violation_json(v, lang) for v in t.violations],
    }


def hand_json(audit: HandAudit, lang: str) -> dict[str, Any]:
    first = audit.first_violation
    return {
        "valid": audit.valid,
        "tricks": [trick_audit_json(t, lang) for t in audit.tricks],
        "trick_points": audit.trick_points,
        "penalties": [penalty_json(p) for p in audit.penalties],
        "defender_points": audit.defender_points,
        "kitty": None if audit.kitty is None else kitty_json(audit.kitty, lang),
        "settle": None if audit.settlement is None else settle_json(audit.settlement, lang),
        "match_points": seat_points_json(audit.match_points),
        "first_violation": None if first is None else violation_json(first, lang),
        "violations": [violation_json(v, lang) for v in audit.violations],
    }


@v1.post("/hand")
def post_hand() -> Any:
    body = load(_schema)
    audit = audit_hand(
        body["rules"], body["trump"], body["dealer"], body["levels"], body["hands"],
        body["kitty"], body["tricks"], body["strict"],
    )
    count_verdict("hand.valid", audit.valid)
    lang = language()
    return json_response(hand_json(audit, lang), lang)

