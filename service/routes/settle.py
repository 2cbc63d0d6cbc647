"""``POST /v1/settle``: who goes up how many levels after a hand (docs/rules.md §8)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError

from engine.cards import RANKS, CardError, parse_rank
from engine.settle import TEAM_NAMES, Settlement, settle
from service.api import json_response, language, load, reasons_json, v1
from service.errors import coded, register_message
from service.fields import BoundedInteger, Field, RulesField, SeatField
from service.metrics import count_verdict

POINTS_LIMIT = 1_000_000
TEAMS = TEAM_NAMES


POINTS_ERROR = register_message(f"points must lie within ±{POINTS_LIMIT}", "invalid_points")


class PointsField(BoundedInteger):
    """A side's game points: an integer (the engine checks multiples of 5),
    bounded so every figure derived from it stays an exact JSON number."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(-POINTS_LIMIT, POINTS_LIMIT, POINTS_ERROR, **kwargs)


class LevelsField(Field):
    """``{"A": "5", "B": "7"}`` (team A: seats 0 and 2, B: seats 1 and 3) → (rank, rank) indices."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> tuple[int, int]:
        if not isinstance(value, dict):
            raise ValidationError(
                coded("invalid_type", "levels is an object {\"A\": rank of seats 0/2, \"B\": rank of seats 1/3}",
                      expected="{\"A\": \"2\", \"B\": \"2\"}")
            )
        errors: dict[str, list[str]] = {}
        ranks: dict[str, int] = {}
        for key in value:
            if key not in TEAMS:
                errors[key] = [coded("invalid_team", "a team is \"A\" (seats 0 and 2) or \"B\" (seats 1 and 3)")]
        for key in TEAMS:
            if key not in value:
                errors[key] = [coded("missing_field", "Missing data for required field (the level of this team).")]
                continue
            try:
                if not isinstance(value[key], str):
                    raise CardError("a level is a rank string 2..A such as \"10\"")
                ranks[key] = parse_rank(value[key])
            except CardError as exc:
                errors[key] = [coded("invalid_rank", str(exc))]
        if errors:
            raise ValidationError(errors)  # type: ignore[arg-type]
        return ranks["A"], ranks["B"]


class SettleRequest(Schema):
    rules = RulesField()
    dealer = SeatField(required=True)
    defender_points = PointsField(required=True)
    levels = LevelsField(required=True)


_schema = SettleRequest()


def settle_json(result: Settlement, lang: str) -> dict[str, Any]:
    """A settlement as docs/api.md shows it (also used inside /v1/hand)."""
    band = result.band
    return {
        "outcome": result.outcome,
        "team": TEAM_NAMES[result.team],
        "levels_gained": result.levels_gained,
        "new_levels": {TEAM_NAMES[t]: RANKS[level] for t, level in enumerate(result.new_levels)},
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
        "stopped_at": None if result.stopped_at is None else RANKS[result.stopped_at],
        "match_points": seat_points_json(result.match_points),
        "reasons": reasons_json(result.reasons, lang),
    }


def seat_points_json(points: tuple[int, ...] | None) -> dict[str, int] | None:
    """Match points by seat, ``{"0": 6, "1": -6, ...}`` (seat keys as in ``hands``), or None."""
    return None if points is None else {str(seat): p for seat, p in enumerate(points)}


@v1.post("/settle")
def post_settle() -> Any:
    body = load(_schema)
    result = settle(body["rules"], body["dealer"], body["defender_points"], body["levels"])
    lang = language()
    count_verdict("settle.outcome", result.outcome)
    return json_response(settle_json(result, lang), lang)
