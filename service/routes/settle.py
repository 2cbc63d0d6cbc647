"""``POST /v1/settle``: who goes up how many levels after a hand (RULES §8)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError

from engine.cards import RANKS, CardError, parse_rank
from engine.settle import Settlement, settle
from service.api import json_response, language, load, reasons_json, v1
from service.fields import BoundedInteger, Field, RulesField, SeatField
from service.metrics import count_verdict

POINTS_LIMIT = 1_000_000
TEAMS = ("0", "1")


class PointsField(BoundedInteger):
    """A side's game points: an integer (the engine checks multiples of 5),
    bounded so every figure derived from it stays an exact JSON number."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(-POINTS_LIMIT, POINTS_LIMIT, f"points must lie within ±{POINTS_LIMIT}", **kwargs)


class LevelsField(Field):
    """``{"0": "5", "1": "7"}`` (keyed by a team's lowest seat) → (rank, rank) indices."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> tuple[int, int]:
        if not isinstance(value, dict):
            raise ValidationError("levels is an object {\"0\": rank of seats 0/2, \"1\": rank of seats 1/3}")
        errors: dict[str, list[str]] = {}
        ranks: dict[str, int] = {}
        for key in value:
            if key not in TEAMS:
                errors[key] = ["a team key is \"0\" (seats 0 and 2) or \"1\" (seats 1 and 3)"]
        for key in TEAMS:
            if key not in value:
                errors[key] = ["Missing data for required field (the level of this team)."]
                continue
            try:
                if not isinstance(value[key], str):
                    raise CardError("a level is a rank string 2..A such as \"10\"")
                ranks[key] = parse_rank(value[key])
            except CardError as exc:
                errors[key] = [str(exc)]
        if errors:
            raise ValidationError(errors)  # type: ignore[arg-type]
        return ranks["0"], ranks["1"]


class SettleRequest(Schema):
    rules = RulesField()
    dealer = SeatField(required=True)
    defender_points = PointsField(required=True)
    levels = LevelsField(required=True)


_schema = SettleRequest()


def settle_json(result: Settlement, lang: str) -> dict[str, Any]:
    """A settlement as API.md shows it (also used inside /v1/hand)."""
    band = result.band
    return {
        "outcome": result.outcome,
        "team": str(result.team),
        "levels_gained": result.levels_gained,
        "new_levels": {str(t): RANKS[level] for t, level in enumerate(result.new_levels)},
        "next_dealer": result.next_dealer,
        "game_won": result.game_won,
        "band": {
            "from": band.start,
            "to": band.end,
            "side": band.side,
            "levels": band.levels,
            "step": result.step,
            "step_levels": result.step_levels,
        },
        "defender_points": result.defender_points,
        "reasons": reasons_json(result.reasons, lang),
    }


@v1.post("/settle")
def post_settle() -> Any:
    body = load(_schema)
    result = settle(body["rules"], body["dealer"], body["defender_points"], body["levels"])
    lang = language()
    count_verdict("settle.outcome", result.outcome)
    return json_response(settle_json(result, lang), lang)
