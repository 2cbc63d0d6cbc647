"""``POST /v1/trick``: who won this trick, and how did each play fare?"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from marshmallow import Schema

from engine.settle import TEAM_NAMES
from engine.trick import PlayVerdict, TrickResult, check_trick, resolve_trick
from engine.trump import SUIT_LABELS, trump_order
from service.api import json_response, language, load, reasons_json, v1
from service.fields import HandsField, PlaysField, RulesField, SeatField, TrumpField
from service.metrics import count_verdict
from service.render import cards_json, units_json


class TrickRequest(Schema):
    rules = RulesField()
    trump = TrumpField(required=True)
    leader = SeatField(required=True)
    plays = PlaysField(count=4, required=True)
    hands = HandsField(load_default=None, allow_none=True)


_schema = TrickRequest()


def play_json(play: PlayVerdict, lang: str) -> dict[str, Any]:
    units = play.units
    return {
        "seat": play.seat,
        "cards": cards_json(play.cards),
        "role": play.role,
        "beats_previous_best": play.beats_previous_best,
        "legal": play.legal,
        "reasons": reasons_json(play.reasons, lang),
        "units": None if units is None else units_json(units),
    }


def plays_json(plays: Iterable[PlayVerdict], lang: str) -> list[dict[str, Any]]:
    """Each play as ``play_json`` shows it (a loop: a list comprehension would build
    a function and a cell for ``lang`` on every call, CPython 3.11)."""
    out = []
    for play in plays:
        out.append(play_json(play, lang))
    return out


def trick_json(result: TrickResult, lang: str) -> dict[str, Any]:
    winner = result.winner
    return {
        "winner": winner,
        "team": TEAM_NAMES[winner % 2],
        "points": result.points,
        "suit": SUIT_LABELS[result.suit],
        "lead_units": units_json(result.lead_units),
        "plays": plays_json(result.plays, lang),
    }


@v1.post("/trick")
def post_trick() -> Any:
    body = load(_schema)
    lang = language()
    rules = body["rules"]
    order = trump_order(body["trump"], rules)
    result = resolve_trick(check_trick(body["leader"], body["plays"], order, rules, body["hands"]))
    count_verdict("trick.winning_role", result.plays[(result.winner - result.leader) % 4].role)
    return json_response(trick_json(result, lang), lang)
