"""A lean path through a marshmallow schema for bodies that load without error.

``Schema.load`` spends most of its time on bookkeeping for errors (an error
store, a closure and a ``_call_and_store`` per field, partial loading, the
unknown-field set) that a well-formed body never needs.  :func:`fast_load`
walks the same fields in the same order and calls the same field code
(each field's ``_deserialize`` and validators; nested schemas and lists of
them recursively), then the
schema's own hooks (``@validates``, ``@validates_schema``, ``@post_load``) as
``Schema.load`` does, but at the first sign of trouble (an unknown key, a
missing required field, any ``ValidationError``) it gives up and calls
``schema.load`` itself, so every 422 is marshmallow's, with the same pointers
and messages.  A body that loads both ways loads to the same result
(tests/test_fastload.py checks both on valid and mutated bodies of every
endpoint).  Schemas using options this path does not mirror (``many``,
``partial``, an ``unknown`` other than RAISE, ``@pre_load``, dotted
attributes) always take ``schema.load``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate
from marshmallow.decorators import POST_LOAD, PRE_LOAD, VALIDATES, VALIDATES_SCHEMA
from marshmallow.error_store import ErrorStore
from marshmallow.utils import missing

Convert = Callable[[Any, Any], Any]  # (raw value, raw parent object) → loaded value


class _Slow(Exception):
    """Raised inside the fast path: let ``Schema.load`` answer."""


class _Loader:
    """The fast path of one schema instance (None plan: always ``schema.load``)."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.plan: list[tuple[str, str, fields.Field, Convert]] | None = _plan(schema)
        self.keys = frozenset(key for key, _, _, _ in self.plan or ())
        hooks = schema._hooks
        self.validates = bool(hooks[VALIDATES])
        self.validates_schema = bool(hooks[VALIDATES_SCHEMA])
        # the @post_load methods in the order Schema._invoke_load_processors calls them
        # (pass_collection ones first), each with whether it takes the original data
        self.post_load = [
            (getattr(schema, name), bool(kwargs.get("pass_original", False)))
            for collection in (True, False)
            for name, hook_many, kwargs in hooks[POST_LOAD]
            if hook_many == collection
        ]

    def load(self, data: Any) -> Any:
        if self.plan is not None:
            try:
                return self.fast(data)
            except _Slow:
                pass
        return self.schema.load(data)

    def fast(self, data: Any) -> Any:
        """The loaded ``data``, or _Slow when ``Schema.load`` has to decide."""
        if self.plan is None or not isinstance(data, dict) or not self.keys.issuperset(data):
            raise _Slow
        schema = self.schema
        result: dict[str, Any] = schema.dict_class()
        for key, attr, field, convert in self.plan:
            raw = data.get(key, missing)
            if raw is missing:
                if field.required:
                    raise _Slow
                value = field.deserialize(missing, key, data)  # its load_default, or missing
                if value is not missing:
                    result[attr] = value
                continue
            result[attr] = convert(raw, data)
        if self.validates or self.validates_schema:
            store = ErrorStore()
            if self.validates:
                schema._invoke_field_validators(error_store=store, data=result, many=False)
            if self.validates_schema:
                for collection in (True, False):
                    schema._invoke_schema_validators(
                        error_store=store, pass_collection=collection, data=result, original_data=data,
                        many=False, partial=schema.partial, unknown=schema.unknown, field_errors=False,
                    )
            if store.errors:
                raise _Slow
        if self.post_load:
            loaded: Any = result
            try:
                for processor, original in self.post_load:
                    if original:
                        loaded = processor(loaded, data, many=False, partial=schema.partial, unknown=schema.unknown)
                    else:
                        loaded = processor(loaded, many=False, partial=schema.partial, unknown=schema.unknown)
            except ValidationError:
                raise _Slow from None
            return loaded
        return result


def _plan(schema: Schema) -> list[tuple[str, str, fields.Field, Convert]] | None:
    if schema.many or schema.partial or schema.unknown != RAISE or schema._hooks[PRE_LOAD]:
        return None
    plan = []
    for name, field in schema.load_fields.items():
        attr = field.attribute or name
        if "." in attr:
            return None
        key = field.data_key if field.data_key is not None else name
        plan.append((key, attr, field, _converter(field, key)))
    return plan


def _converter(field: fields.Field, key: str) -> Convert:
    """How the fast path loads a present value of ``field``: as ``field.deserialize``
    (``_deserialize`` then the validators), minus its bookkeeping."""
    if field.pre_load or field.post_load:  # field-level processors: let deserialize run them
        def generic(raw: Any, data: Any) -> Any:
            try:
                return field.deserialize(raw, key, data)
            except ValidationError:
                raise _Slow from None

        return generic
    allow_none = field.allow_none
    validators = field.validators
    if isinstance(field, fields.Nested) and not field.many and field.unknown is None \
            and not field.only and not field.exclude and isinstance(field.schema, Schema) \
            and loader(field.schema).plan is not None:
        inner = loader(field.schema)

        def nested(raw: Any, data: Any) -> Any:
            if raw is None:
                if allow_none:
                    return None
                raise _Slow
            value = inner.fast(raw)
            if validators:
                _validate(field, value)
            return value

        return nested
    if type(field) is fields.List:
        item = _converter(field.inner, key)

        def listed(raw: Any, data: Any) -> Any:
            if raw is None:
                if allow_none:
                    return None
                raise _Slow
            if type(raw) is not list:
                raise _Slow
            value = [item(each, data) for each in raw]
            if validators:
                _validate(field, value)
            return value

        return listed
    if isinstance(field, fields.Integer) and field.strict and type(field)._deserialize is fields.Integer._deserialize \
            and type(field)._validated is fields.Integer._validated \
            and all(type(v) is validate.Range for v in validators):
        # a strict Integer takes exactly the ints (not bools); Range checks its bounds
        bounds = [(v.min, v.max, v.min_inclusive, v.max_inclusive) for v in validators]

        def integer(raw: Any, data: Any) -> Any:
            if type(raw) is not int:
                raise _Slow
            for lo, hi, lo_in, hi_in in bounds:
                if lo is not None and (raw < lo if lo_in else raw <= lo):
                    raise _Slow
                if hi is not None and (raw > hi if hi_in else raw >= hi):
                    raise _Slow
            return raw

        return integer

    def direct(raw: Any, data: Any) -> Any:
        if raw is None:
            if allow_none:
                return None
            raise _Slow
        try:
            value = field._deserialize(raw, key, data)
            if validators:
                field._validate(value)
        except ValidationError:
            raise _Slow from None
        return value

    return direct


def _validate(field: fields.Field, value: Any) -> None:
    try:
        field._validate(value)
    except ValidationError:
        raise _Slow from None


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
