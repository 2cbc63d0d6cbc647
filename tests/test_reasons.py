"""engine.reasons.Reason: a named tuple (the interpreter hashes and compares it, and
every tuple fact in it, without a Python call), unequal to a fact or a plain tuple
of the same values, as the throw verdict's ``Blocker``; and its other records (engine.throw): frozen
slotted dataclasses whose ``__init__`` stores through the slots' setters (a
verdict makes many of them), with every other behaviour of a frozen dataclass:
equality, hash, repr, immutability, ``dataclasses.replace``, pickling, matching."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from engine.reasons import Cards, Pattern, Reason, Seat, Suit, reason
from engine.throw import Blocker, FailedUnit, Penalty, ThrowVerdict
from engine.units import Unit


def _verdict() -> ThrowVerdict:
    unit = Unit(2, 1, (11, 11), 40, 0)
    blocker = Blocker(1, (12, 12), 2, 1)
    return ThrowVerdict(
        0, 0, False, (unit,), (FailedUnit(unit, (blocker,)),), unit, unit.cards, Penalty("match_point", 1, 0),
        (Reason("throw.unit_beaten", (("seat", Seat(1)), ("held", Cards((12, 12))))),),
    )


RECORDS: list[Any] = [
    FailedUnit(Unit(1, 1, (4,), 8, 0), (Blocker(3, (7,), 1, 1),)),
    _verdict(),
]


def _values(record: Any) -> tuple[Any, ...]:
    return tuple(getattr(record, f.name) for f in dataclasses.fields(record))


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: type(r).__name__)
def test_a_record_behaves_as_a_frozen_dataclass(record: Any) -> None:
    cls = type(record)
    assert dataclasses.is_dataclass(record) and not hasattr(record, "__dict__")
    same = cls(*_values(record))
    assert same == record and hash(same) == hash(record) and same is not record
    assert hash(record) == hash(_values(record))  # as the generated __hash__
    assert repr(record) == f"{cls.__qualname__}(" + ", ".join(
        f"{f.name}={getattr(record, f.name)!r}" for f in dataclasses.fields(record)
    ) + ")"
    first = dataclasses.fields(record)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(record, first, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(record, first)
    assert pickle.loads(pickle.dumps(record)) == record
    assert copy.deepcopy(record) == record
    assert record != _values(record)  # not a tuple


def test_a_reason_is_a_named_tuple_of_its_own_kind() -> None:
    made = Reason("follow.must_play_pair", (("n", 1), ("suit", Suit(0))), "none")
    values = ("follow.must_play_pair", (("n", 1), ("suit", Suit(0))), "none", "reason")
    same = Reason(*values[:3])
    assert same == made and hash(same) == hash(made) and same is not made
    assert tuple(made) == values and made._fields == ("code", "params", "form", "kind")
    assert repr(made) == "Reason(code='follow.must_play_pair', params=(('n', 1), ('suit', Suit(suit=0, kind='suit'))), " \
        "form='none', kind='reason')"
    with pytest.raises(AttributeError):
        made.code = "x"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(made)) == made and copy.deepcopy(made) == made
    assert made != values[:3] and Reason("x.y", (), "") != ("x.y", (), "")  # not a plain tuple
    # nor a fact of the same values: each tuple names its kind
    assert Reason("a.b", (), "")[:3] == Pattern("a.b", (), "")[:3] and Reason("a.b", (), "") != Pattern("a.b", (), "")  # type: ignore[arg-type]


@pytest.mark.parametrize("blocker", [Blocker(2, (3, 3, 3, 3), 4, 1, True), Blocker(seat=1, cards=(5,), width=1, length=1)])
def test_a_blocker_is_a_named_tuple_of_its_own_kind(blocker: Blocker) -> None:
    values = (blocker.seat, blocker.cards, blocker.width, blocker.length, blocker.wider_shape)
    same = Blocker(*values)
    assert same == blocker and hash(same) == hash(blocker) and same is not blocker
    assert tuple(blocker) == (*values, "blocker")
    assert blocker._fields == ("seat", "cards", "width", "length", "wider_shape", "kind")
    assert repr(blocker) == f"Blocker(seat={values[0]}, cards={values[1]!r}, width={values[2]}, length={values[3]}, " \
        f"wider_shape={values[4]}, kind='blocker')"
    with pytest.raises(AttributeError):
        blocker.seat = 0  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(blocker)) == blocker and copy.deepcopy(blocker) == blocker
    assert blocker != values and blocker != Seat(blocker.seat)  # not a plain tuple, nor a fact
    match blocker:
        case Blocker(seat, cards):
            assert (seat, cards) == values[:2]
        case _:
            pytest.fail("Blocker(seat, cards) does not match")


def test_keywords_defaults_replace_and_match() -> None:
    made = Reason(code="throw.stands", params=(("suit", Suit(0)), ("n", 2)))
    assert (made.code, made.params, made.form, made.key) == ("throw.stands", (("suit", Suit(0)), ("n", 2)), "", "throw.stands")
    assert made == reason("throw.stands", suit=Suit(0), n=2) and made.param("n") == 2 and made.param("x") is None
    other = made._replace(form="x")
    assert other != made and other.code == made.code and other.key == "throw.stands/x"
    match made:
        case Reason(code, params, form):
            assert (code, params, form) == ("throw.stands", (("suit", Suit(0)), ("n", 2)), "")
        case _:
            pytest.fail("Reason(code, params, form) does not match")
    assert Blocker(1, (5,), 1, 1).wider_shape is False
    assert Blocker(1, (5,), 1, 1)._replace(wider_shape=True) == Blocker(1, (5,), 1, 1, True)
    verdict = _verdict()
    assert dataclasses.replace(verdict, valid=True).valid and dataclasses.replace(verdict, valid=True) != verdict


def test_records_differ_field_by_field() -> None:
    base = Reason("a.b", (("n", 1),), "y")
    assert Reason("a.c", base.params, base.form) != base
    assert Reason(base.code, (("n", 2),), base.form) != base
    assert Reason(base.code, base.params, "z") != base
    assert Blocker(1, (5,), 1, 1) != Blocker(2, (5,), 1, 1)
    assert Blocker(1, (5,), 1, 1) != Blocker(1, (5,), 1, 1, True)
