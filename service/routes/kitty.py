"""``POST /v1/kitty``: the 抠底 multiplier and what the kitty moves (docs/rules.md §7).

Two request forms: ``last_trick`` (leader + the four plays; the trick engine
names the winner and whether it won with trumps) or ``last_lead`` + ``winner``
(+ ``won_with_trumps`` where the ``cgc`` rule needs it).
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields

from engine.errors import InvalidInput, Problem
from engine.kitty import KittyResult, check_kitty, check_kitty_trick, kitty_result
from service.api import json_response, language, load, reasons_json, v1
from service.fields import CardsField, PlaysField, RulesField, SeatField, StrictBoolean, TrumpField
from service.metrics import count_verdict
from service.render import units_json
from service.routes.settle import PointsField


class LastTrick(Schema):
    leader = SeatField(required=True)
    plays = PlaysField(required=True, count=4)


class KittyRequest(Schema):
    rules = RulesField()
    trump = TrumpField(required=True)
    dealer = SeatField(required=True)
    kitty = CardsField(load_default=None)
    last_trick = fields.Nested(LastTrick)
    last_lead = CardsField()
    winner = SeatField()
    won_with_trumps = StrictBoolean()
    defender_points = PointsField()


def one_form(body: dict[str, Any]) -> None:
    """The loaded body is in one of the two forms: ``last_trick``, or ``last_lead``
    with ``winner`` (InvalidInput otherwise; checked once every field loaded)."""
    if "last_trick" in body:
        extra = sorted(body.keys() & {"last_lead", "winner", "won_with_trumps"})
        if extra:
            raise InvalidInput(
                [
                    Problem((k,), "send either last_trick or last_lead + winner: with last_trick the winner "
                                  "and whether it won with trumps are computed", code="inconsistent_input")
                    for k in extra
                ]
            )
        return
    if "last_lead" not in body and "winner" not in body:
        raise InvalidInput(Problem((), "send the last trick: last_trick {leader, plays}, or last_lead with winner",
                                   code="missing_field"))
    for k in ("last_lead", "winner"):
        if k not in body:
            raise InvalidInput(Problem((k,), "Missing data for required field (last_lead and winner go together).",
                                    code="missing_field"))


_schema = KittyRequest()


def kitty_json(result: KittyResult, lang: str) -> dict[str, Any]:
    """A kitty verdict as docs/api.md shows it (also used inside /v1/hand)."""
    transfer = result.transfer
    return {
        "multiplier": result.multiplier,
        "kitty_points": result.kitty_points,
        "awarded": result.awarded,
        "to": result.to,
        "kind": result.kind,
        "winner": result.winner,
        "winner_side": result.winner_side,
        "won_with_trumps": result.won_with_trumps,
        # written once, as the lead's units are (a unit of the last lead: they recur)
        "unit": None if result.unit is None else units_json((result.unit,))[0],
        "lead_units": units_json(result.lead_units),
        "transfer": None
        if transfer is None
        else {
            "from": transfer.from_side,
            "to": transfer.to_side,
            "points": transfer.points,
            "multiplier": transfer.multiplier,
            "amount": transfer.amount,
        },
        "defender_points_after": result.defender_points_after,
        "reasons": reasons_json(result.reasons, lang),
    }


@v1.post("/kitty")
def post_kitty() -> Any:
    body = load(_schema)
    one_form(body)
    rules, trump = body["rules"], body["trump"]
    if body["kitty"] is None:
        if rules.kitty_size:
            raise InvalidInput(Problem(
                ("kitty",),
                f"what the kitty is worth depends on its cards: send the kitty ({rules.kitty_size} cards "
                "under these rules)",
                code="kitty_required",
            ))
        body["kitty"] = []
    if "last_trick" in body:
        trick = body["last_trick"]
        kitty = check_kitty_trick(
            rules, trump, body["dealer"], trick["leader"], trick["plays"], body["kitty"],
            defender_points=body.get("defender_points"),
        )
    else:
        kitty = check_kitty(
            rules, trump, body["dealer"], body["last_lead"], body["winner"], body["kitty"],
            defender_points=body.get("defender_points"),
            won_with_trumps=body.get("won_with_trumps"),
        )
    result = kitty_result(kitty)
    lang = language()
    count_verdict("kitty.to", result.to)
    return json_response(kitty_json(result, lang), lang)
