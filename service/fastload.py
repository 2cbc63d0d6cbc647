"""A lean path through a request schema for bodies that load without error, on
marshmallow's public API only.

``Schema.load`` spends a large part of a request on bookkeeping for errors (an
error store, a closure and a ``_call_and_store`` per field, the unknown-key set,
a ``Schema.load`` again for every nested object) that a well-formed body never
needs: bench/instructions.py counts 7–38 % of a request's instructions for it
(``Schema.load`` alone against this path).  :func:`fast_load` walks the
schema's fields in the same order and does what ``Field.deserialize`` does with
each value: a missing one takes the field's ``load_default``, a null one stays
null where the field allows it, a present one is loaded by the service field's
own ``Direct.load_present`` (for a nested object or a list, the same walk
inside; any other field: its ``deserialize``), then the field's validators run
and, for a :class:`service.fields.Record`, its ``make``; at the first sign of
trouble (an unknown key, a missing required field, a null where none is allowed,
any ``ValidationError``) it gives up and
calls ``schema.load`` itself, so every 422 is marshmallow's, with the same
pointers and messages.

It mirrors what ``Schema.load`` does for the request schemas as they are
written: no schema hooks (``@pre_load``, ``@post_load``, ``@validates``,
``@validates_schema``: an engine object is made by a ``Record`` field, and a
check across fields is the route's), ``unknown=RAISE``, no ``many``,
``partial``, dotted attributes or value processors (a schema with one of these always takes
``schema.load``).  tests/test_fastload.py checks every request schema against
``Schema.load`` on valid and mutated bodies, and that none declares a hook.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any, TypedDict

import msgspec
from marshmallow import RAISE, Schema, ValidationError, fields, missing

from service.fields import Direct, Record

Convert = Callable[[Any, str, Any], Any]  # (raw value, its key, raw parent object) → loaded value


class _Slow(Exception):
    """Raised inside the fast path: let ``Schema.load`` answer."""


class _Loader:
    """The fast path of one schema instance (None plan: always ``schema.load``)."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.plan: list[tuple[str, str, fields.Field, Convert]] | None = _plan(schema)
        self.keys = frozenset(key for key, _, _, _ in self.plan or ())

    @cached_property
    def decoder(self) -> msgspec.json.Decoder[Any]:
        """A msgspec decoder of the schema's JSON (``wire``), for service/jsonio.py's
        ``loads_request``: it reads a body's card spellings as SPELLINGS' own strings.
        Made when first asked for (about a millisecond), once per schema instance."""
        return msgspec.json.Decoder(wire(self.schema))

    def load(self, data: Any) -> Any:
        if self.plan is not None:
            try:
                return self.fast(data)
            except (_Slow, ValidationError):  # anything amiss: marshmallow's own answer
                pass
        return self.schema.load(data)

    def fast(self, data: Any) -> dict[str, Any]:
        """The loaded ``data``; _Slow (or a field's ValidationError) when
        ``Schema.load`` has to decide.  A null or missing value is what
        ``Field.deserialize`` makes of it; a present one goes to the field's converter."""
        if type(data) is not dict or not self.keys.issuperset(data):
            raise _Slow
        result: dict[str, Any] = {}
        for key, attr, field, convert in self.plan or ():
            raw = data.get(key, missing)
            if raw is None:
                if not field.allow_none:
                    raise _Slow
                result[attr] = None
            elif raw is missing:
                if field.required:
                    raise _Slow
                value = field.load_default  # what Field.deserialize returns for a missing value
                if callable(value):
                    value = value()
                if value is not missing:
                    result[attr] = value
            else:
                result[attr] = convert(raw, key, data)
        return result


def _plan(schema: Schema) -> list[tuple[str, str, fields.Field, Convert]] | None:
    if schema.many or schema.partial or schema.unknown != RAISE or schema.dict_class is not dict:
        return None
    plan = []
    for key, name, field in _loaded_fields(schema):
        attr = field.attribute or name
        if "." in attr or field.pre_load or field.post_load:  # value processors: Field.deserialize runs them
            return None
        plan.append((key, attr, field, _converter(field)))
    return plan


def _loaded_fields(schema: Schema) -> list[tuple[str, str, fields.Field]]:
    """The fields ``schema`` loads (not ``dump_only``), each with the key it reads in
    a body (its ``data_key``, else its name) and its name: for the fast path's plan
    and for the msgspec type of the schema's JSON (``wire``)."""
    return [
        (field.data_key if field.data_key is not None else name, name, field)
        for name, field in schema.fields.items()
        if not field.dump_only
    ]


def _converter(field: fields.Field) -> Convert:
    """How the fast path loads a present, non-null value of ``field``: for a
    service field (``Direct``) its own loading (``Direct.load_present``), for a
    nested object or a list the same walk inside, then the field's validators;
    ``field.deserialize`` for anything else."""
    if field.pre_load or field.post_load:  # (a list's items) value processors: deserialize runs them
        return field.deserialize
    if isinstance(field, fields.Nested) and not field.many and field.unknown is None:
        inner = loader(field.schema)
        if inner.plan is None:
            return field.deserialize
        fast = inner.fast
        if isinstance(field, Record):
            make = field.make
            return _validated(field, lambda raw, key, data: make(fast(raw)))
        return _validated(field, lambda raw, key, data: fast(raw))
    if type(field) is fields.List:
        item = _converter(field.inner)

        def listed(raw: Any, key: str, data: Any) -> Any:
            if type(raw) is not list or None in raw:  # a null item: Field.deserialize decides
                raise _Slow
            return [item(each, key, data) for each in raw]

        return _validated(field, listed)
    if isinstance(field, Direct):
        return _validated(field, field.load_present)
    return field.deserialize


def _validated(field: fields.Field, convert: Convert) -> Convert:
    """``convert``, then the validators ``Field.deserialize`` runs on its result (none: ``convert`` itself)."""
    validators = field.validators
    if not validators:
        return convert

    def validated(raw: Any, key: str, data: Any) -> Any:
        value = convert(raw, key, data)
        for validator in validators:
            validator(value)  # marshmallow 4: a validator raises, its return value is ignored
        return value

    return validated


def wire(schema: Schema) -> Any:
    """The JSON a request schema takes, as a msgspec type made from its fields (no
    second statement of the request's shape): an object of the schema's keys, none of
    them required, each a field's ``wire`` (service/fields.py ``Direct``; a nested
    schema's own, a list's of its items, ``Any`` for any other field) or null.  It
    only ever narrows what msgspec reads, never what the schema takes: what does not
    fit it is read by orjson (service/jsonio.py ``loads_request``) and the schema
    decides, as for any body."""
    shape = {key: _wire(field) | None for key, _, field in _loaded_fields(schema)}
    return TypedDict("Wire", shape, total=False)  # type: ignore[operator]


def _wire(field: fields.Field[Any]) -> Any:
    if isinstance(field, Direct) and field.wire is not Any:
        return field.wire
    if isinstance(field, fields.Nested) and not field.many and isinstance(field.schema, Schema):
        return wire(field.schema)
    if type(field) is fields.List:
        return list[_wire(field.inner)]  # type: ignore[misc]
    return Any


_loaders: dict[int, tuple[Schema, _Loader]] = {}


def loader(schema: Schema) -> _Loader:
    """The (cached) fast path of ``schema``."""
    entry = _loaders.get(id(schema))
    if entry is None or entry[0] is not schema:
        entry = _loaders[id(schema)] = (schema, _Loader(schema))
    return entry[1]


def fast_load(schema: Schema, data: Any) -> Any:
    """``schema.load(data)``: the same result or the same ValidationError, sooner."""
    return loader(schema).load(data)
