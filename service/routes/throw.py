"""``POST /v1/throw``: does a multi-unit lead (甩牌) stand, and what is forced if not (docs/rules.md §4)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema

from engine.errors import InvalidInput, Problem
from engine.settle import TEAM_NAMES
from engine.throw import Blocker, Penalty, ThrowVerdict, check_throw, judge_throw
from engine.trump import SUIT_LABELS, trump_order
from service.api import json_response, language, load, reasons_json, v1
from service.fields import CardsField, HandsField, RulesField, SeatField, TrumpField
from service.metrics import count_verdict
from service.render import cards_json, unit_json, units_json


class ThrowRequest(Schema):
    rules = RulesField()
    trump = TrumpField(required=True)
    leader = SeatField(required=True)
    lead = CardsField(required=True)
    hands = HandsField(required=True)


_schema = ThrowRequest()


def penalty_json(penalty: Penalty) -> dict[str, Any]:
    """A throw penalty as docs/api.md shows it (also in /v1/hand's ``penalties``)."""
    return {
        "kind": penalty.kind,
        "amount": penalty.amount,
        "seat": penalty.seat,
        "team": None if penalty.team is None else TEAM_NAMES[penalty.team],
    }


def throw_json(verdict: ThrowVerdict, lang: str) -> dict[str, Any]:
    """A verdict as docs/api.md's ``/v1/throw`` response.

    A unit met again (listed, failed, forced: the verdict's own units) is the
    same JSON object again, found by identity; a blocker met again (a seat
    beating several thrown units with the same cards) is too, found by value.
    """
    units = verdict.units
    written = units_json(units)
    shown = dict(zip(map(id, units), written, strict=True))  # a unit's id → its JSON
    blockers: dict[Blocker, dict[str, Any]] = {}
    failed = []
    for f in verdict.failed_units:
        beaten = []
        for b in f.beaten_by:
            found = blockers.get(b)
            if found is None:
                found = blockers[b] = {
                    "seat": b.seat, "cards": cards_json(b.cards), "width": b.width, "length": b.length,
                    "wider_shape": b.wider_shape,
                }
            beaten.append(found)
        failed.append({"unit": shown.get(id(f.unit)) or unit_json(f.unit), "beaten_by": beaten})
    forced = verdict.forced_unit
    return {
        "valid": verdict.valid,
        "suit": SUIT_LABELS[verdict.suit],
        "units": written,
        "failed_units": failed,
        "forced_unit": None if forced is None else shown.get(id(forced)) or unit_json(forced),
        "forced_play": cards_json(verdict.forced_play),
        "penalty": penalty_json(verdict.penalty),
        "reasons": reasons_json(verdict.reasons, lang),
    }


_OTHER_SEATS = tuple(frozenset(range(4)) - {seat} for seat in range(4))
"""The three seats other than each leader."""


def require_other_hands(leader: int, hands: Mapping[int, object]) -> None:
    """A throw (more than one unit) stands or fails on every other seat's hand:
    a seat not given is a 422, never taken to hold nothing (docs/api.md "Required inputs")."""
    if hands.keys() >= _OTHER_SEATS[leader]:  # the usual request: one look at the keys
        return
    missing = [seat for seat in range(4) if seat != leader and seat not in hands]
    if missing:
        raise InvalidInput(
            [
                Problem(
                    ("hands", str(seat)),
                    f"whether the throw stands depends on seat {seat}'s hand, which was not given: send it "
                    "(an empty array for a seat known to hold none of the cards)",
                    code="hand_required",
                    params={"seat": seat},
                )
                for seat in missing
            ]
        )


@v1.post("/throw")
def post_throw() -> Any:
    body = load(_schema)
    rules = body["rules"]
    order = trump_order(body["trump"], rules)
    # the engine's argument names are the request's keys: its paths are already request pointers
    verdict = judge_throw(check_throw(body["leader"], body["lead"], body["hands"], order, rules))
    if len(verdict.units) > 1:
        require_other_hands(body["leader"], body["hands"])
    if verdict.refused:
        raise InvalidInput(
            Problem(
                ("lead",),
                "none of the other three players holds the lead's suit, so a lead of several units is not "
                "allowed (throw_when_others_void refused, docs/rules.md §4): it is refused, not forced; "
                "the leader leads again",
                code="throw_into_void",
            )
        )
    lang = language()
    count_verdict("throw.valid", verdict.valid)
    return json_response(throw_json(verdict, lang), lang)
