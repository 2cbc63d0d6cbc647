"""``POST /v1/analyze``: sort a card set in trump order and decompose it."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema

from engine.analysis import analyze
from engine.cards import card_str, points
from engine.errors import InvalidInput
from engine.trump import SUIT_LABELS
from service.api import json_response, load, v1
from service.fields import CardsField, RulesField, TrumpField
from service.render import unit_json


class AnalyzeRequest(Schema):
    rules = RulesField()
    trump = TrumpField(required=True)
    cards = CardsField(required=True)


_schema = AnalyzeRequest()


@v1.post("/analyze")
def post_analyze() -> Any:
    body = load(_schema)
    try:
        result = analyze(body["cards"], body["trump"], body["rules"])
    except InvalidInput as exc:
        raise exc.under("cards") from None
    order = result.order
    return json_response(
        {
            "cards": [
                {"card": card_str(k), "suit": SUIT_LABELS[order.suit[k]], "points": points(k)}
                for k in result.cards
            ],
            "points": sum(points(k) for k in result.cards),
            "suits": [SUIT_LABELS[s] for s in result.suits],
            "units": None if result.units is None else [unit_json(u) for u in result.units],
            "is_throw": result.is_throw,
        }
    )
