"""engine.reasons: a ``Reason`` and its facts, the throw verdict's records
(engine.throw) and the units they name (engine.units), are frozen
``msgspec.Struct``s: built, hashed and compared in C, equal only to a record of
their own type (never to a plain tuple, nor to a fact of another kind holding
the same values), with every behaviour a frozen record needs: equality, hash,
repr, immutability, ``msgspec.structs.replace``, pickling, copying, matching;
none tracked by the garbage collector."""

from __future__ import annotations

import copy
import gc
import pickle
from typing import Any

import msgspec
import pytest

from engine.reasons import (
    Cards,
    Level,
    Pattern,
    Pieces,
    Points,
    Reason,
    Seat,
    SeatCounts,
    Side,
    Step,
    Suit,
    Team,
    reason,
)
from engine.shapes import Shape
from engine.throw import Blocker, FailedUnit, Penalty, ThrowPlan, ThrowVerdict
from engine.units import Unit


def _verdict() -> ThrowVerdict:
    unit = Unit(2, 1, (11, 11), 40, 0)
    blocker = Blocker(1, (12, 12), 2, 1)
    return ThrowVerdict(
        0, 0, False, (unit,), (FailedUnit(unit, (blocker,)),), unit, unit.cards, Penalty("match_point", 1, 0),
        (Reason("throw.unit_beaten", (("seat", Seat(1)), ("held", Cards((12, 12))))),),
    )


RECORDS: list[Any] = [
    Reason("follow.must_play_pair", (("n", 1), ("suit", Suit(0))), "none"),
    Cards((3, 3)), Seat(2), Team(1), Side("dealer"), Suit(4), Level(12), Points(20), SeatCounts(((1, 3), (2, 1))),
    Shape(2, 2), Pieces(((Shape(2, 2), 1),), 2), Pattern((Pieces(((Shape(2, 1), 1),)),), 1, 3), Step(2, None, 0),
    Blocker(2, (3, 3, 3, 3), 4, 1, True), Blocker(seat=1, cards=(5,), width=1, length=1),
    FailedUnit(Unit(1, 1, (4,), 8, 0), (Blocker(3, (7,), 1, 1),)),
    Unit(2, 2, (12, 12, 11, 11), 44, 0), Unit(width=1, length=1, cards=(53,), rank=60, suit=4),
    Penalty("match_point", 1, 0),
    _verdict(),
]


def _values(record: Any) -> tuple[Any, ...]:
    return tuple(getattr(record, name) for name in record.__struct_fields__)


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: type(r).__name__)
def test_a_record_is_a_frozen_struct_of_its_own_type(record: Any) -> None:
    cls = type(record)
    assert isinstance(record, msgspec.Struct) and not hasattr(record, "__dict__") and not gc.is_tracked(record)
    same = cls(*_values(record))
    assert same == record and hash(same) == hash(record) and same is not record
    assert repr(record) == f"{cls.__qualname__}(" + ", ".join(
        f"{name}={getattr(record, name)!r}" for name in record.__struct_fields__
    ) + ")"
    first = record.__struct_fields__[0]
    with pytest.raises(AttributeError):
        setattr(record, first, None)
    with pytest.raises(AttributeError):
        delattr(record, first)
    assert pickle.loads(pickle.dumps(record)) == record and copy.deepcopy(record) == record
    assert record != _values(record) and record != _values(record)[:1]  # not a plain tuple
    assert cls.__match_args__ == record.__struct_fields__  # matched by position, field by field


def test_records_of_other_types_are_unequal_whatever_their_values() -> None:
    assert Seat(1) != Team(1) and Suit(0) != Seat(0) and Level(3) != Points(3)
    assert Reason("a.b", (), "") != Side("a.b") and Cards((5,)) != (5,) and Cards((5,)) != ((5,),)
    assert Blocker(1, (5,), 1, 1) != (1, (5,), 1, 1, False) and Blocker(1, (5,), 1, 1) != Seat(1)
    assert hash(Seat(1)) != hash(Team(1))  # as far as one example tells: the type is in the hash


def test_shapes_order_by_width_then_length() -> None:
    assert sorted([Shape(3), Shape(2, 3), Shape(2), Shape(2, 2)]) == [Shape(2), Shape(2, 2), Shape(2, 3), Shape(3)]
    assert Shape(2, 2).size == 4 and Shape(2, 2).is_tractor and not Shape(4).is_tractor


def test_keywords_defaults_replace_and_match() -> None:
    made = Reason(code="throw.stands", params=(("suit", Suit(0)), ("n", 2)))
    assert (made.code, made.params, made.form, made.key) == ("throw.stands", (("suit", Suit(0)), ("n", 2)), "", "throw.stands")
    assert made == reason("throw.stands", suit=Suit(0), n=2) and made.param("n") == 2 and made.param("x") is None
    other = msgspec.structs.replace(made, form="x")
    assert other != made and other.code == made.code and other.key == "throw.stands/x"
    match made:
        case Reason(code, params, form):
            assert (code, params, form) == ("throw.stands", (("suit", Suit(0)), ("n", 2)), "")
        case _:
            pytest.fail("Reason(code, params, form) does not match")
    match Blocker(1, (5,), 1, 1):
        case Blocker(seat, cards):
            assert (seat, cards) == (1, (5,))
        case _:
            pytest.fail("Blocker(seat, cards) does not match")
    assert Blocker(1, (5,), 1, 1).wider_shape is False
    assert msgspec.structs.replace(Blocker(1, (5,), 1, 1), wider_shape=True) == Blocker(1, (5,), 1, 1, True)
    verdict = _verdict()
    assert msgspec.structs.replace(verdict, valid=True).valid and msgspec.structs.replace(verdict, valid=True) != verdict
    assert verdict.refused is False and Penalty("none").amount == 0 and Step(2).joker is None


def test_records_differ_field_by_field() -> None:
    base = Reason("a.b", (("n", 1),), "y")
    assert Reason("a.c", base.params, base.form) != base
    assert Reason(base.code, (("n", 2),), base.form) != base
    assert Reason(base.code, base.params, "z") != base
    assert Blocker(1, (5,), 1, 1) != Blocker(2, (5,), 1, 1)
    assert Blocker(1, (5,), 1, 1) != Blocker(1, (5,), 1, 1, True)
    assert Step(2, None, 0) != Step(2, None, 1) and Step(2, "big") != Step(2, "small")


def test_a_throw_plan_is_a_record_too() -> None:
    plan = ThrowPlan((), (-1,), (), (), (0,), (0,))
    assert plan == ThrowPlan((), (-1,), (), (), (0,), (0,)) and plan != ThrowPlan((), (-1,), (), (), (0,), (1,))
    assert not gc.is_tracked(plan)
