"""service.fields: the fast paths for the usual values (a memo of trump spellings, card
arrays mapped in one call, hands and plays of card arrays) load exactly what the
field-by-field code they skip loads, and a value they do not take still gets the same
errors (so the same 422 pointers and messages).  The references below are the fields'
code as first written, card by card through ``engine.cards.parse_card``; the fields are
called through marshmallow's public ``Field.deserialize``."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError, fields, missing, validate

from engine.cards import CardError, parse_card, parse_rank, parse_suit
from engine.trump import Trump
from service.fields import CardsField, Direct, HandsField, PlaysField, SeatField, TrumpField, card_error
from service.routes.settle import PointsField


def reference_trump(value: Any) -> Trump:
    if value is None:  # marshmallow refuses null before the field sees it
        raise ValidationError("Field may not be null.")
    if not isinstance(value, dict):
        raise ValidationError("trump must be an object {\"level\": \"10\", \"suit\": \"H\" or null}")
    errors: dict[str, list[str]] = {}
    for key in sorted(set(value) - {"level", "suit"}):
        errors[key] = ["Unknown field."]
    level = suit = None
    if "level" not in value:
        errors["level"] = ["Missing data for required field."]
    else:
        try:
            if not isinstance(value["level"], str):
                raise CardError("the level is a rank string such as \"10\"")
            level = parse_rank(value["level"])
        except CardError as exc:
            errors["level"] = [str(exc)]
    if "suit" not in value:
        errors["suit"] = ["Missing data for required field (null for no-trump)."]
    elif value["suit"] is not None:
        try:
            if not isinstance(value["suit"], str):
                raise CardError("the suit is \"S\", \"H\", \"C\", \"D\" or null for no-trump")
            suit = parse_suit(value["suit"])
        except CardError as exc:
            errors["suit"] = [str(exc)]
    if errors:
        raise ValidationError(errors)  # type: ignore[arg-type]
    assert level is not None
    return Trump(level, suit)


def reference_cards(value: Any, max_cards: int = 216) -> list[int]:
    if value is None:
        raise ValidationError("Field may not be null.")
    if not isinstance(value, list):
        raise ValidationError("must be an array of cards such as [\"10H\", \"SJ\"]")
    if len(value) > max_cards:
        raise ValidationError(f"at most {max_cards} cards")
    loaded = [_card(item) for item in value]
    errors = {i: [each] for i, each in enumerate(loaded) if isinstance(each, str)}
    if errors:
        raise ValidationError(errors)  # type: ignore[arg-type]
    return [each for each in loaded if isinstance(each, int)]


def _card(item: Any) -> int | str:
    """One element of a card array: its card, or the message for it."""
    try:
        return parse_card(item)
    except CardError as exc:
        return card_error(item, exc)


def reference_hands(value: Any) -> dict[int, list[int]]:
    if value is None:
        raise ValidationError("Field may not be null.")
    if not isinstance(value, dict):
        raise ValidationError("hands must be an object keyed by seat \"0\"..\"3\"")
    hands: dict[int, list[int]] = {}
    errors: dict[str, Any] = {}
    for key, cards in value.items():
        if key not in ("0", "1", "2", "3"):
            errors[key] = ["a seat key is \"0\", \"1\", \"2\" or \"3\""]
            continue
        try:
            hands[int(key)] = reference_cards(cards)
        except ValidationError as exc:
            errors[key] = exc.messages
    if errors:
        raise ValidationError(errors)
    return dict(sorted(hands.items()))


def reference_plays(value: Any, count: int | None) -> list[list[int]]:
    if value is None:
        raise ValidationError("Field may not be null.")
    if not isinstance(value, list):
        raise ValidationError("plays must be an array of card arrays")
    if count is not None and len(value) != count:
        raise ValidationError(f"exactly {count} plays, one per seat, in playing order")
    plays: list[list[int]] = []
    errors: dict[int, Any] = {}
    for i, cards in enumerate(value):
        try:
            plays.append(reference_cards(cards))
        except ValidationError as exc:
            errors[i] = exc.messages
    if errors:
        raise ValidationError(errors)  # type: ignore[arg-type]
    return plays


def outcome(load: Any, value: Any) -> tuple[str, Any]:
    try:
        result = load(value)
    except ValidationError as exc:
        return ("error", exc.messages)
    if isinstance(result, dict):  # hands: the seat order is part of the result
        return ("ok", list(result.items()))
    return ("ok", result)


SPELLED = st.sampled_from(["10H", "th", "T♥", "10h", "AS", "a♠", "sj", "小王", "BJ", "2D", "kc"])
ODD = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 60), st.floats(allow_nan=False, width=32),
    st.sampled_from(["", "1S", "10", "H", "x", "ſ", "AS ", "10HH"]), st.lists(SPELLED, max_size=2),
    st.dictionaries(st.sampled_from(["AS", "0", "x"]), SPELLED, max_size=2),
)
CARD = st.one_of(SPELLED, SPELLED, SPELLED, ODD)
CARD_ARRAY = st.one_of(st.lists(SPELLED, max_size=6), st.lists(CARD, max_size=6), ODD)
SEAT_KEY = st.sampled_from(["0", "1", "2", "3", "0", "1", "2", "3", "4", "00", " 1", "-1", "x"])
LEVEL = st.one_of(st.sampled_from(["10", "t", "T", "a", "Q", "2", "1", "11", "", "ſ", "j "]), ODD)
SUIT = st.one_of(st.sampled_from(["H", "h", "♥", "S", "D", "c", "X", "", "♡"]), st.none(), ODD)
TRUMP = st.one_of(
    st.builds(lambda level, suit: {"level": level, "suit": suit}, LEVEL, SUIT),
    st.builds(lambda suit, level: {"suit": suit, "level": level}, SUIT, LEVEL),
    st.dictionaries(st.sampled_from(["level", "suit", "x", "Level"]), st.one_of(LEVEL, SUIT), max_size=3),
    ODD,
)
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.lists(TRUMP, min_size=1, max_size=4))
def test_trump_field_loads_as_the_full_check(values: list[Any]) -> None:
    field = TrumpField()
    for value in values:  # in turn: later values meet the spellings the earlier ones entered
        assert outcome(lambda v: field.deserialize(v, "trump", {}), value) == outcome(reference_trump, value)


def test_trump_spellings_are_checked_before_they_are_known() -> None:
    field = TrumpField()
    for value in ({"level": "T", "suit": "h"}, {"level": "T", "suit": "h"}, {"suit": None, "level": "a"}):
        assert field.deserialize(value, "trump", {}) == reference_trump(value)
    for bad in ({"level": "T", "suit": "x"}, {"level": "T", "suit": ""}, {"level": "T", "x": "h"},
                {"level": "T"}, {"level": "1", "suit": "h"}, {"level": "T", "suit": "h", "x": None}):
        with pytest.raises(ValidationError) as exc:
            field.deserialize(bad, "trump", {})
        assert exc.value.messages == outcome(reference_trump, bad)[1]


@FUZZ
@given(CARD_ARRAY, st.sampled_from([216, 8, 2]))
def test_cards_field_loads_as_card_by_card(value: Any, max_cards: int) -> None:
    field = CardsField(max_cards=max_cards)
    expected = outcome(lambda v: reference_cards(v, max_cards), value)
    assert outcome(lambda v: field.deserialize(v, "cards", {}), value) == expected
    assert outcome(field.load_cards, value) == outcome(field.deserialize, value)
    usual = field.usual(value)
    assert usual is None or ("ok", usual) == expected


@FUZZ
@given(st.one_of(st.dictionaries(SEAT_KEY, CARD_ARRAY, max_size=5), st.dictionaries(SEAT_KEY, st.lists(SPELLED), max_size=4), ODD))
def test_hands_field_loads_as_seat_by_seat(value: Any) -> None:
    got = outcome(lambda v: HandsField().deserialize(v, "hands", {}), value)
    assert got == outcome(reference_hands, value)


@FUZZ
@given(st.one_of(st.lists(CARD_ARRAY, max_size=5), st.lists(st.lists(SPELLED), max_size=5), ODD), st.sampled_from([None, 4]))
def test_plays_field_loads_as_play_by_play(value: Any, count: int | None) -> None:
    got = outcome(lambda v: PlaysField(count=count).deserialize(v, "plays", {}), value)
    assert got == outcome(lambda v: reference_plays(v, count), value)


@pytest.mark.parametrize("value", [
    {"0": None}, {"0": None, "1": ["AS"]}, {"1": ["AS"], "2": None}, {"1": ["AS"], "4": ["AS"]},
    {"1": ["AS"], 1: ["AS"]}, {0: ["AS"]}, {"1": ["AS"], "x": None}, {"3": ["AS"], "1": ["XX"]}, {},
])
def test_hands_with_a_null_seat_or_another_key_take_the_full_check(value: Any) -> None:
    """The usual path looks each seat's key up in turn: a null array or a key that is
    no seat is counted out, and the value gets the seat-by-seat check (its errors)."""
    assert outcome(lambda v: HandsField().deserialize(v, "hands", {}), value) == outcome(reference_hands, value)


def test_hands_come_back_in_seat_order() -> None:
    hands = HandsField().deserialize({"3": ["AS"], "0": ["th"], "2": [], "1": ["SJ", "bj"]}, "hands", {})
    assert list(hands.items()) == [(0, [13 + 8]), (1, [52, 53]), (2, []), (3, [12])]


def _service_fields() -> list[tuple[str, Any]]:
    """Every field of the request schemas that is one of the service's own (``Direct``)."""
    from tests.test_fastload import SCHEMAS, schemas_within

    found = []
    for name, schema in sorted(SCHEMAS.items()):
        for inner in schemas_within(schema):
            for key, field in inner.fields.items():
                while isinstance(field, fields.List):
                    field = field.inner
                if isinstance(field, Direct):
                    found.append((f"{name}.{type(inner).__name__}.{key}", field))
    return found


SERVICE_FIELDS = _service_fields()
ANY_VALUE = st.one_of(ODD, CARD_ARRAY, TRUMP, st.sampled_from([missing, "two-deck", {"seat": 1, "cards": ["AS"]}]),
                      st.dictionaries(SEAT_KEY, CARD_ARRAY, max_size=3))


def test_every_service_field_is_covered() -> None:
    kinds = {type(field).__name__ for _, field in SERVICE_FIELDS}
    assert {"CardsField", "RulesField", "TrumpField", "HandsField", "PlaysField", "StrictBoolean", "Record",
            "BidTrumpField", "LevelsField"} <= kinds


@FUZZ
@given(st.sampled_from(SERVICE_FIELDS), ANY_VALUE)
def test_direct_deserialize_is_marshmallows(case: tuple[str, Any], value: Any) -> None:
    """``Direct.deserialize`` (straight to ``_deserialize``) loads what marshmallow's own
    ``Field.deserialize`` loads, or raises the same messages, for every service field."""
    _, field = case
    assert outcome(lambda v: field.deserialize(v, "x", {}), value) == \
        outcome(lambda v: fields.Field.deserialize(field, v, "x", {}), value)


@FUZZ
@given(st.one_of(ODD, st.integers(), st.floats(allow_nan=False), st.sampled_from([0, 3, 4, -1, 10**6, -(10**6) - 1])))
def test_bounded_integers_load_as_a_range_validated_integer(value: Any) -> None:
    """SeatField and PointsField: what ``Integer(strict=True, validate=Range(...))`` (as
    first written) loads, or the same messages."""
    for field, (low, high, error) in ((SeatField(), (0, 3, "a seat is an integer 0..3")),
                                      (PointsField(), (-(10**6), 10**6, "points must lie within ±1000000"))):
        reference = fields.Integer(strict=True, validate=validate.Range(low, high, error=error))
        assert outcome(field.deserialize, value) == outcome(reference.deserialize, value)
