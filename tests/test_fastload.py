"""service.fastload: the lean path through the request schemas loads exactly as
``Schema.load`` does (the same result, or the same ValidationError messages, so
the same 422 pointers), for every schema of every endpoint, on valid bodies and
on bodies mutated at random (hypothesis)."""

from __future__ import annotations

import copy
from importlib import import_module
from pkgutil import iter_modules
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError, fields

import service.routes
from bench.bodies import BODIES
from service.fastload import _Slow, fast_load, loader


def _schemas() -> dict[str, Schema]:
    """Every schema instance a route module loads bodies with."""
    found: dict[str, Schema] = {}
    for info in iter_modules(service.routes.__path__):
        module = import_module(f"service.routes.{info.name}")
        for name, value in vars(module).items():
            if isinstance(value, Schema):
                found[f"{info.name}.{name}"] = value
    return found


SCHEMAS = _schemas()
BY_PATH = {
    "/v1/analyze": "analyze._schema",
    "/v1/follow": "follow._schema",
    "/v1/trick": "trick._schema",
    "/v1/throw": "throw._schema",
    "/v1/kitty": "kitty._schema",
    "/v1/settle": "settle._schema",
    "/v1/bid": "bid._bid_schema",
    "/v1/bid/resolve": "bid._resolve_schema",
    "/v1/hand": "hand._schema",
}

# valid bodies beyond bench/bodies.py: the other request forms and optional fields
EXTRA: list[tuple[str, dict[str, Any]]] = [
    ("kitty._schema", {"trump": {"level": "2", "suit": None}, "dealer": 1, "kitty": ["5S", "10S"],
                       "last_lead": ["AS", "AS"], "winner": 2, "won_with_trumps": False,
                       "defender_points": 60}),
    ("trick._schema", {"rules": {"preset": "four-deck", "throw_comparison": "largest_unit"},
                       "trump": {"level": "A", "suit": "S"}, "leader": 3,
                       "plays": [["3h"], ["A♥"], ["th"], ["小王"]], "hands": None}),
    ("bid._bid_schema", {"trump": {"level": "2"}, "standing": None, "bid": {"seat": 3, "cards": ["2D"]}}),
    ("bid._resolve_schema", {"rules": "three-deck", "trump": {"level": "K"}, "bids": [], "kitty": None}),
    ("follow._schema", {"trump": {"level": "10", "suit": "H"}, "lead": ["AS"], "hand": ["KS", "2H"]}),
]


def _valid() -> list[tuple[str, dict[str, Any]]]:
    bodies = [(BY_PATH[path], body) for path, body in BODIES.values()]
    return bodies + EXTRA


VALID = _valid()


def _outcome(load: Any, schema: Schema, data: Any) -> tuple[str, Any]:
    try:
        return ("ok", load(schema, data))
    except ValidationError as exc:
        return ("error", exc.messages)


def _same(schema: Schema, data: Any) -> None:
    slow = _outcome(lambda s, d: s.load(d), schema, copy.deepcopy(data))
    fast = _outcome(fast_load, schema, copy.deepcopy(data))
    assert fast == slow


def test_every_endpoint_schema_is_covered() -> None:
    assert set(BY_PATH.values()) <= set(SCHEMAS)
    assert {name for name, _ in VALID} == set(SCHEMAS)


def _schemas_within(schema: Schema) -> list[Schema]:
    """``schema`` and every schema nested in it (in a list or not)."""
    found = [schema]
    for field in schema.fields.values():
        while isinstance(field, fields.List):
            field = field.inner
        if isinstance(field, fields.Nested):
            found += _schemas_within(field.schema)
    return found


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_request_schemas_declare_no_hooks(name: str) -> None:
    """The fast path does not run schema hooks: an engine object is made by a
    ``Record`` field and a check across fields is the route's.  (marshmallow marks
    a hook method with ``__marshmallow_hook__``; only this test looks.)"""
    for schema in _schemas_within(SCHEMAS[name]):
        hooks = [n for n in dir(type(schema)) if getattr(getattr(type(schema), n, None), "__marshmallow_hook__", None)]
        assert hooks == [], f"{type(schema).__name__} declares hooks {hooks}"


@pytest.mark.parametrize(("name", "body"), VALID, ids=[f"{n}-{i}" for i, (n, _) in enumerate(VALID)])
def test_valid_bodies_take_the_fast_path_to_the_same_result(name: str, body: dict[str, Any]) -> None:
    schema = SCHEMAS[name]
    fast = loader(schema).fast(copy.deepcopy(body))  # raises if the fast path gave up
    assert fast == schema.load(copy.deepcopy(body))


@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("follow._schema", {"trump": {"level": "10", "suit": "H"}, "lead": ["AS"], "hand": ["KS"], "x": 1}),
        ("follow._schema", {"trump": {"level": "10", "suit": "H"}, "lead": ["AS"]}),
        ("follow._schema", {"trump": {"level": "10", "suit": "H"}, "lead": ["AS", "1S"], "hand": ["KS"]}),
        ("trick._schema", {"trump": {"level": "10", "suit": "H"}, "leader": True, "plays": [[], [], [], []]}),
        ("trick._schema", {"trump": {"level": "10", "suit": "H"}, "leader": 4, "plays": [[], [], [], []]}),
        ("settle._schema", {"dealer": 0, "defender_points": 2_000_000, "levels": {"A": "5", "B": "7"}}),
        ("bid._bid_schema", {"trump": {"level": "2"}, "bid": None}),
        ("bid._resolve_schema", {"trump": {"level": "2"}, "bids": [{"seat": 0, "cards": ["2S"], "extra": 1}]}),
        ("bid._resolve_schema", {"trump": {"level": "2"}, "bids": [{"seat": 0, "cards": ["2S"]}] * 101}),
        ("kitty._schema", {"trump": {"level": "2", "suit": "S"}, "dealer": 0, "last_lead": ["AS"], "winner": 5}),
        ("kitty._schema", {"trump": {"level": "2", "suit": "S"}, "dealer": 0, "last_trick": {"leader": 0}}),
        ("hand._schema", {"trump": {"level": "2", "suit": "S"}, "dealer": 0, "levels": {"A": "2", "B": "2"},
                          "hands": {}, "kitty": [], "tricks": [{"leader": 0, "plays": [[], [], []]}]}),
    ],
)
def test_invalid_bodies_fall_back_to_marshmallow(name: str, body: dict[str, Any]) -> None:
    schema = SCHEMAS[name]
    with pytest.raises((_Slow, ValidationError)):
        loader(schema).fast(copy.deepcopy(body))
    _same(schema, body)


# --- random mutations of the valid bodies ------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.floats(allow_nan=False, width=32)
    | st.sampled_from(["", "AS", "as", "10H", "T♥", "1S", "SJ", "大王", "two-deck", "nope", "0", "3", "H", "10"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["0", "1", "2", "3", "4", "seat", "cards", "level", "suit", "leader", "plays", "x"]),
        inner, max_size=4,
    ),
    max_leaves=8,
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:6]):
            out += _paths(v, (*path, i))
    return out


@st.composite
def mutated(draw: Any) -> tuple[str, Any]:
    name, body = draw(st.sampled_from(VALID))
    data = copy.deepcopy(body)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        path = draw(st.sampled_from(paths))
        if not path:
            continue
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        action = draw(st.sampled_from(["replace", "delete", "add"]))
        last = path[-1]
        if action == "replace":
            parent[last] = draw(JSON)
        elif action == "delete":
            del parent[last]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["x", "seat", "rules", "hands", "play", "0", "4"]))] = draw(JSON)
        else:
            parent.append(draw(JSON))
    return name, data


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_bodies_load_alike(case: tuple[str, Any]) -> None:
    name, data = case
    _same(SCHEMAS[name], data)


# --- marshmallow's public API only -------------------------------------------------------------


def test_the_fast_path_uses_only_marshmallows_public_api() -> None:
    """service/fastload.py imports only names marshmallow exports (``marshmallow.__all__``,
    its ``fields`` module's public classes) and reads no underscored attribute: a change
    inside marshmallow cannot turn it into a TypeError, only into a slower ``Schema.load``."""
    import ast
    import inspect

    import marshmallow

    import service.fastload

    tree = ast.parse(inspect.getsource(service.fastload))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("marshmallow"):
            assert node.module == "marshmallow", f"imports from {node.module}"
            assert {alias.name for alias in node.names} <= set(marshmallow.__all__)
        if isinstance(node, ast.Attribute):
            assert not node.attr.startswith("_"), f"reads {node.attr} (line {node.lineno})"
