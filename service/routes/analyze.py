"""``POST /v1/analyze``: sort a card set in trump order and decompose it."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema

from engine.analysis import analyze
from engine.cards import CARD_NAMES
from engine.errors import InvalidInput
from engine.trump import SUIT_LABELS
from service.api import json_response, load, v1
from service.fields import CardsField, RulesField, TrumpField
from service.render import CARD_POINTS, unit_json


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
    suit = order.suit
    cards = [{"card": CARD_NAMES[k], "suit": SUIT_LABELS[suit[k]], "points": CARD_POINTS[k]} for k in result.cards]
    return json_response(
        {
            "cards": cards,
            "points": sum([card["points"] for card in cards]),
            "suits": [SUIT_LABELS[s] for s in result.suits],
            "units": None if result.units is None else [unit_json(u) for u in result.units],
            "is_throw": result.is_throw,
        }
    )
