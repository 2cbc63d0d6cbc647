"""``POST /v1/bid`` and ``POST /v1/bid/resolve``: bidding 亮主 / 反主, and frying the
kitty 炒底 after it (docs/rules.md §9)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import orjson
from marshmallow import Schema, ValidationError, fields, validate

from engine.bidding import Bid, BidVerdict, Strength, judge_bid, resolve_bids
from engine.cards import SUITS
from engine.errors import InvalidInput, Problem
from engine.fry import NO_TRUMP, Fry, FrySequence, FryStep, fry_dealer, judge_fries
from engine.trump import Trump
from service.api import json_response, language, load, reason_json, v1
from service.errors import coded, register_message
from service.explain import step
from service.fields import CardsField, Record, RulesField, SeatField, StrictBoolean, TrumpField
from service.metrics import count_verdict
from service.render import cards_json, written

MAX_BID_CARDS = 8  # a bid shows at most 4 copies; a few more still get a copies message
MAX_BIDS = 100
NAMES = (*SUITS, "NT")  # what four jokers may name when frying: a suit, or no-trump


class BidTrumpField(TrumpField):
    """The trump context of bidding, ``{"level": "10"}`` (``"suit"`` absent or
    null: the bids decide it) → the level's rank index 0..12."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:  # type: ignore[override]
        if type(value) is dict and "suit" not in value:
            value = {**value, "suit": None}
        trump = super()._deserialize(value, attr, data, **kwargs)
        if trump.suit is not None:
            raise ValidationError({"suit": [coded(
                "suit_decided_by_bids",
                "while bidding the trump suit is what the bids decide: leave suit out (or null)",
            )]})
        return trump.level


class BidSchema(Schema):
    seat = SeatField(required=True)
    cards = CardsField(required=True, max_cards=MAX_BID_CARDS)


def make_bid(data: dict[str, Any]) -> Bid:
    return Bid(data["seat"], tuple(data["cards"]))


class FrySchema(Schema):
    seat = SeatField(required=True)
    cards = CardsField(required=True, max_cards=MAX_BID_CARDS)
    names = fields.String(
        load_default=None,
        validate=validate.OneOf(NAMES, error=register_message("names is S, H, C, D or NT (no-trump)", "invalid_value")),
    )


def make_fry(data: dict[str, Any]) -> Fry:
    names = data["names"]
    named = None if names is None else NO_TRUMP if names == "NT" else SUITS.index(names)
    return Fry(data["seat"], tuple(data["cards"]), named)


class BidRequest(Schema):
    rules = RulesField()
    trump = BidTrumpField(required=True)
    standing = Record(BidSchema, make_bid, allow_none=True, load_default=None)
    bid = Record(BidSchema, make_bid, required=True)


class ResolveRequest(Schema):
    rules = RulesField()
    trump = BidTrumpField(required=True)
    bids = fields.List(
        Record(BidSchema, make_bid), required=True,
        validate=validate.Length(max=MAX_BIDS, error=register_message(f"at most {MAX_BIDS} bids", "too_many_items", max=MAX_BIDS)),
    )
    kitty = CardsField(load_default=None, allow_none=True)
    first_hand = StrictBoolean(load_default=None, allow_none=True)
    dealer = SeatField(load_default=None, allow_none=True)
    fries = fields.List(
        Record(FrySchema, make_fry), load_default=None, allow_none=True,
        validate=validate.Length(max=MAX_BIDS, error=register_message(f"at most {MAX_BIDS} fries", "too_many_items", max=MAX_BIDS)),
    )


_bid_schema = BidRequest()
_resolve_schema = ResolveRequest()


def _bid_json(bid: Bid | None) -> dict[str, Any] | None:
    return None if bid is None else {"seat": bid.seat, "cards": cards_json(bid.cards)}


def _trump_json(trump: Trump | None) -> orjson.Fragment | None:
    return None if trump is None else _written_trump(trump)


@lru_cache(maxsize=128)
def _written_trump(trump: Trump) -> orjson.Fragment:
    """A trump as docs/api.md shows it, written once (service/render.py ``written``):
    a verdict names one twice, and there are 65 (13 levels, 4 suits or no-trump)."""
    return written(trump.as_json())


def _verdict_json(
    verdict: BidVerdict, lang: str, out: dict[str, Any] | None = None, shown: dict[int, Any] | None = None
) -> dict[str, Any]:
    """A verdict as docs/api.md shows it, filled into ``out`` (a resolve step starts
    with its bid's seat and cards).  ``shown``: the JSON of bids rendered
    already, by id: a standing bid shown again is the same object again."""
    if out is None:
        out = {}
    declares, trump, strength, standing = verdict.declares, verdict.trump, verdict.strength, verdict.standing
    declares_json = _trump_json(declares)
    out["valid"] = verdict.valid
    out["reasons"] = [reason_json(verdict.reason, lang)]
    out["trump"] = declares_json if trump is declares else _trump_json(trump)
    out["strength"] = None if strength is None else _strength_json(strength, lang)
    out["declares"] = declares_json
    found = None if standing is None or shown is None else shown.get(id(standing))
    out["standing"] = _bid_json(standing) if found is None else found
    return out


@lru_cache(maxsize=256)
def _strength_json(strength: Strength | FryStep, lang: str) -> orjson.Fragment:
    """A step of the bidding or fry ladder: its rank, the ladder's length and its name in
    ``lang``, written once per step and language (service/render.py ``written``; a
    ladder has at most 26 steps, the fry ladder 8, in three catalogs)."""
    out: dict[str, Any] = strength.as_json()
    out["name"] = step(strength.step, lang)
    return written(out)


@v1.post("/bid")
def post_bid() -> Any:
    body = load(_bid_schema)
    lang = language()
    verdict = judge_bid(body["rules"], body["trump"], body["standing"], body["bid"])
    count_verdict("bid.valid", verdict.valid)
    return json_response(_verdict_json(verdict, lang), lang)


@v1.post("/bid/resolve")
def post_bid_resolve() -> Any:
    body = load(_resolve_schema)
    lang = language()
    kitty = body["kitty"]
    rules, level = body["rules"], body["trump"]
    seq = resolve_bids(rules, level, body["bids"], kitty, body["first_hand"])
    fries = body["fries"]
    fried = None
    if fries is not None:
        if seq.trump is None:
            raise InvalidInput(
                Problem(("fries",), "nobody bid in the first hand: the cards are dealt again, so nobody fries",
                        code="inconsistent_input")
            )
        dealer = fry_dealer(seq.standing, body["dealer"], body["first_hand"])
        fried = judge_fries(rules, level, dealer, seq.standing, seq.trump, fries)
    steps = []
    shown: dict[int, Any] = {}  # id of a Bid → its JSON
    for verdict in seq.steps:
        seat, cards = verdict.bid.seat, cards_json(verdict.bid.cards)
        shown[id(verdict.bid)] = {"seat": seat, "cards": cards}
        steps.append(_verdict_json(verdict, lang, {"seat": seat, "cards": cards}, shown))
    first = None
    if seq.first_invalid is not None:  # its reasons as its step shows them
        index = seq.first_invalid
        first = {"index": index, "seat": seq.steps[index].bid.seat, "reasons": steps[index]["reasons"]}
    standing = seq.standing
    return json_response(
        {
            "steps": steps,
            "first_invalid": first,
            "standing": shown[id(standing)] if standing is not None and id(standing) in shown else _bid_json(standing),
            "trump": _trump_json(seq.trump if fried is None else fried.trump),
            "fallback": seq.fallback,
            "redeal": seq.redeal,
            "fry": None if fried is None else _fry_json(fried, lang),
            "reasons": [reason_json(seq.reason, lang)] + ([] if fried is None else [reason_json(fried.reason, lang)]),
        },
        lang,
    )


def _fry_json(seq: FrySequence, lang: str) -> dict[str, Any]:
    """A judged fry sequence as docs/api.md shows it."""
    names: dict[int | None, str | None] = {None: None, NO_TRUMP: "NT", **dict(enumerate(SUITS))}
    steps = [
        {
            "seat": v.fry.seat,
            "cards": cards_json(v.fry.cards),
            "names": names[v.fry.names],
            "valid": v.valid,
            "reasons": [reason_json(v.reason, lang)],
            "strength": None if v.step is None else _strength_json(v.step, lang),
            "kitty_holder": v.kitty_holder,
            "trump": _written_trump(v.trump),
        }
        for v in seq.steps
    ]
    return {
        "steps": steps,
        "kitty_holder": seq.kitty_holder,
        "standing": None if seq.declarer is None else {"seat": seq.declarer, "cards": cards_json(seq.declaration)},
        "trump": _written_trump(seq.trump),
        "reasons": [reason_json(seq.reason, lang)],
    }
