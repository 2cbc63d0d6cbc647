"""marshmallow fields that load JSON straight into engine objects.

Cards become ints, ``rules`` a frozen ``Rules``, ``trump`` a ``Trump``; the
engine never re-parses JSON.  Errors keep their place in the request so the
422 can point at the offending element.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any, Literal, TypedDict

from marshmallow import Schema, ValidationError, fields, missing

from engine.cards import RANKS, SPELLINGS, SUITS, CardError, parse_card, parse_rank, parse_suit
from engine.errors import InvalidInput
from engine.rules import PRESET_VALUES, rules_from_json
from engine.trump import Trump
from service.errors import coded, problems_to_messages, register_message


def card_error(value: Any, exc: CardError) -> str:
    """The message for a value that is not a card (code ``invalid_card``)."""
    return coded("invalid_card", str(exc), value=repr(value) if isinstance(value, str) else type(value).__name__)


SpelledCard = Literal[tuple(SPELLINGS)]  # type: ignore[valid-type]
"""A card as the usual body spells it (a key of engine.cards.SPELLINGS), as a msgspec
type (``Literal``, msgspec's documented "Supported Types"; the ``wire`` of the card
fields below).  msgspec 0.22 reads such a string as the ``Literal``'s own object, the
very key of SPELLINGS with its hash already known: that is the speed, not a documented
promise; nothing depends on it for correctness, and tests/test_written_back.py says
when it no longer holds."""


class Direct:
    """A field whose ``deserialize`` (marshmallow's public entry, which both
    ``Schema.load`` and service/fastload.py call) goes straight to its own
    ``_deserialize`` for a present, non-null value when it has no validators and
    no value processors: what ``Field.deserialize`` does then, without building an
    ``And`` of no validators for every value."""

    wire: Any = Any
    """The JSON of the field's usual value as a msgspec type (msgspec's documented
    "Supported Types"), from which service/fastload.py makes the schema's msgspec
    decoder; ``Any`` (every JSON value) unless a narrower type reads it cheaper.  It
    decides nothing: a body is only ever read as orjson reads it
    (service/jsonio.py ``loads_request``), and one that does not fit takes orjson."""

    def deserialize(self, value: Any, attr: str | None = None, data: Any = None, **kwargs: Any) -> Any:
        field: Any = self
        if kwargs or value is None or value is missing or field.validators or field.pre_load or field.post_load:
            return super().deserialize(value, attr, data, **kwargs)  # type: ignore[misc]
        return field._deserialize(value, attr, data)

    @property
    def load_present(self) -> Callable[[Any, str | None, Any], Any]:
        """The field's own loading of a present, non-null value (``_deserialize``):
        what ``deserialize`` runs for it before the validators, which
        service/fastload.py then runs itself, without a call in between."""
        return self._deserialize  # type: ignore[attr-defined,no-any-return]


class Field(Direct, fields.Field):
    """The base of the service's own fields (see ``Direct``)."""


class Record(Direct, fields.Nested):
    """An object loaded by a nested schema, then made into an engine value by
    ``make`` (a function of the loaded dict): the work of a ``@post_load`` hook,
    done by the field, so that the request schemas declare no hooks and
    service/fastload.py needs only marshmallow's public API."""

    def __init__(self, nested: type[Schema], make: Callable[[dict[str, Any]], Any], **kwargs: Any) -> None:
        super().__init__(nested, **kwargs)
        self.make = make

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        return self.make(super()._deserialize(value, attr, data, **kwargs))


class CardField(Field):
    """One card in any notation of docs/api.md → card kind (int)."""

    wire = SpelledCard

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        try:
            return parse_card(value)
        except CardError as exc:
            raise ValidationError(card_error(value, exc)) from None


class CardsField(Field):
    """An array of cards → list of card kinds, every bad element reported."""

    wire = list[SpelledCard]  # type: ignore[valid-type]

    def __init__(self, *, max_cards: int = 216, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_cards = max_cards

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[int]:
        cards = self.usual(value)
        if cards is not None:
            return cards
        if not isinstance(value, list):
            raise ValidationError(
                coded("invalid_type", "must be an array of cards such as [\"10H\", \"SJ\"]", expected="[\"10H\", \"SJ\"]")
            )
        if len(value) > self.max_cards:
            raise ValidationError(coded("too_many_items", f"at most {self.max_cards} cards", max=self.max_cards))
        return self._parse(value)  # something else than card spellings: parse one by one, report each

    def usual(self, value: Any) -> list[int] | None:
        """The cards of the usual value, an array of at most ``max_cards`` card
        spellings (engine.cards.SPELLINGS), looked up in one call: what ``deserialize``
        returns for it; None for anything else."""
        if type(value) is list and len(value) <= self.max_cards:
            try:
                if len(value) > 1:
                    return [*itemgetter(*value)(SPELLINGS)]  # a display, not list(): no type call
                return [SPELLINGS[value[0]]] if value else []
            except (KeyError, TypeError):  # not a spelling, or unhashable
                pass
        return None

    def load_cards(self, value: Any) -> list[int]:
        """``self.deserialize(value)``, sooner for the usual list of card spellings."""
        cards = self.usual(value)
        return self.deserialize(value) if cards is None else cards  # type: ignore[no-any-return]

    def _parse(self, value: list[Any]) -> list[int]:
        cards: list[int] = []
        errors: dict[int, list[str]] = {}
        for i, item in enumerate(value):
            try:
                cards.append(parse_card(item))
            except CardError as exc:
                errors[i] = [card_error(item, exc)]
        if errors:
            raise ValidationError(errors)  # type: ignore[arg-type]
        return cards


class RulesField(Field):
    """A preset name or ``{"preset": ..., overrides}`` → ``Rules``; omitted → two-deck."""

    wire = Literal[tuple(PRESET_VALUES)] | dict[str, Any]  # type: ignore[valid-type]

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("load_default", lambda: rules_from_json(None))
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        try:
            return rules_from_json(value)
        except InvalidInput as exc:
            raise ValidationError(problems_to_messages(exc.problems)) from None


class TrumpWire(TypedDict, total=False):
    """The usual trump object, its level and suit spelled as engine.cards prints them
    (``TrumpField.wire``; any other spelling is read by orjson, and the field decides)."""

    level: Literal[RANKS]  # type: ignore[valid-type]
    suit: Literal[SUITS] | None  # type: ignore[valid-type]


class TrumpField(Field):
    """``{"level": "10", "suit": "H" | null}`` → ``Trump``."""

    wire = TrumpWire

    # (level, suit) spellings → their Trump, each entered after ``_load`` accepted
    # it: a few hundred spellings at most (rank and suit aliases, ASCII cases)
    _known: dict[tuple[str, str | None], Trump] = {}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Trump:
        if type(value) is dict and len(value) == 2:  # the usual {"level": ..., "suit": ...}
            level, suit = value.get("level"), value.get("suit", "")
            if type(level) is str and (suit is None or type(suit) is str):
                trump = self._known.get((level, suit))
                if trump is None:
                    trump = self._known[level, suit] = self._load(value)  # raises for a bad value
                return trump
        return self._load(value)

    def _load(self, value: Any) -> Trump:
        if not isinstance(value, dict):
            raise ValidationError(
                coded("invalid_type", "trump must be an object {\"level\": \"10\", \"suit\": \"H\" or null}",
                      expected="{\"level\": \"10\", \"suit\": \"H\" | null}")
            )
        errors: dict[str, list[str]] = {}
        for key in sorted(set(value) - {"level", "suit"}):
            errors[key] = [coded("unknown_field", "Unknown field.")]
        level = suit = None
        if "level" not in value:
            errors["level"] = [coded("missing_field", "Missing data for required field.")]
        else:
            try:
                if not isinstance(value["level"], str):
                    raise CardError("the level is a rank string such as \"10\"")
                level = parse_rank(value["level"])
            except CardError as exc:
                errors["level"] = [coded("invalid_rank", str(exc))]
        if "suit" not in value:
            errors["suit"] = [coded("missing_field", "Missing data for required field (null for no-trump).")]
        elif value["suit"] is not None:
            try:
                if not isinstance(value["suit"], str):
                    raise CardError("the suit is \"S\", \"H\", \"C\", \"D\" or null for no-trump")
                suit = parse_suit(value["suit"])
            except CardError as exc:
                errors["suit"] = [coded("invalid_suit", str(exc))]
        if errors:
            raise ValidationError(errors)  # type: ignore[arg-type]
        assert level is not None
        return Trump(level, suit)


class StrictBoolean(Field):
    """JSON true or false, nothing else (no "yes", 1 or "true")."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise ValidationError(coded("invalid_type", "must be true or false", expected="true / false"))
        return value


SEAT_ERROR = register_message("a seat is an integer 0..3", "invalid_seat")


class BoundedInteger(Direct, fields.Integer):
    """A JSON integer (not a bool, not a float) from ``low`` to ``high``, else ``error``:
    ``validate.Range``'s check, made in ``_deserialize`` so that ``Direct`` applies."""

    def __init__(self, low: int, high: int, error: str, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)
        self.low, self.high, self.error = low, high, error

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if type(value) is int and self.low <= value <= self.high:
            return value  # the usual value (an int, never a bool): what Integer returns for it
        number: int = super()._deserialize(value, attr, data, **kwargs)
        if not self.low <= number <= self.high:
            raise ValidationError(self.error)
        return number


class SeatField(BoundedInteger):
    """A seat 0..3 in playing order."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(0, 3, SEAT_ERROR, **kwargs)


class HandsField(Field):
    """``{"0": [cards], ..., "3": [cards]}`` (seat keys as strings) → ``{seat: [kinds]}``.

    Any subset of the four seats may be given; every bad key or card is reported
    at its own pointer (``/hands/2/5``).
    """

    _cards = CardsField()
    _seats = (("0", 0), ("1", 1), ("2", 2), ("3", 3))  # by seat
    wire = TypedDict("SeatHands", {key: list[SpelledCard] for key, _ in _seats}, total=False)  # type: ignore[misc,valid-type]

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> dict[int, list[int]]:
        if type(value) is dict:  # the usual hands: seat keys, card arrays
            usual = self._cards.usual
            hands: dict[int, list[int]] = {}
            for key, seat in self._seats:  # each seat's key looked up in turn (no sort, no key-set test)
                given = value.get(key)
                if given is not None:
                    cards = usual(given)
                    if cards is None:  # not the usual array: reported below
                        break
                    hands[seat] = cards
            else:
                if len(hands) == len(value):  # no other key, no null array
                    return hands
        if not isinstance(value, dict):
            raise ValidationError(
                coded("invalid_type", "hands must be an object keyed by seat \"0\"..\"3\"",
                      expected="{\"0\": [cards], ..., \"3\": [cards]}")
            )
        hands = {}
        errors: dict[str, Any] = {}
        for key, cards in value.items():
            if key not in ("0", "1", "2", "3"):
                errors[key] = [coded("invalid_seat", "a seat key is \"0\", \"1\", \"2\" or \"3\"")]
                continue
            try:
                hands[int(key)] = self._cards.load_cards(cards)
            except ValidationError as exc:
                errors[key] = exc.messages
        if errors:
            raise ValidationError(errors)
        return dict(sorted(hands.items()))


class PlaysField(Field):
    """A list of plays (each a card list) in playing order → ``[[kinds], ...]``."""

    _cards = CardsField()
    wire = list[list[SpelledCard]]  # type: ignore[valid-type]

    def __init__(self, *, count: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.count = count

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[list[int]]:
        if not isinstance(value, list):
            raise ValidationError(
                coded("invalid_type", "plays must be an array of card arrays", expected="[[cards], ...]")
            )
        if self.count is not None and len(value) != self.count:
            raise ValidationError(
                coded("wrong_play_count", f"exactly {self.count} plays, one per seat, in playing order")
            )
        usual = [*map(self._cards.usual, value)]  # the usual plays: arrays of card spellings
        if None not in usual:
            return usual  # type: ignore[return-value]
        plays: list[list[int]] = []
        errors: dict[int, Any] = {}
        for i, cards in enumerate(value):
            try:
                plays.append(self._cards.load_cards(cards))
            except ValidationError as exc:
                errors[i] = exc.messages
        if errors:
            raise ValidationError(errors)  # type: ignore[arg-type]
        return plays
