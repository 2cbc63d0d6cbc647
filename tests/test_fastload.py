"""service.fastload: the lean path through the request schemas loads exactly as
``Schema.load`` does (the same result, or the same ValidationError messages, so
the same 422 pointers), for every schema of every endpoint, on valid bodies and
on bodies mutated at random (hypothesis); a valid body takes the lean path (the
schema's ``load`` is never called), any other falls back to ``load`` once; and
each endpoint of the real app answers a body ``Schema.load`` refuses with exactly
those messages at those pointers.  Public calls only: ``fast_load``, the request
schemas' classes, ``Schema.load``, the app's routes."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError, fields

from bench.bodies import BODIES
from service.app import create_app
from service.fastload import fast_load
from service.routes.analyze import AnalyzeRequest
from service.routes.bid import BidRequest, ResolveRequest
from service.routes.follow import FollowRequest
from service.routes.hand import HandRequest
from service.routes.kitty import KittyRequest
from service.routes.settle import SettleRequest
from service.routes.throw import ThrowRequest
from service.routes.trick import TrickRequest

BY_PATH: dict[str, type[Schema]] = {
    "/v1/analyze": AnalyzeRequest,
    "/v1/follow": FollowRequest,
    "/v1/trick": TrickRequest,
    "/v1/throw": ThrowRequest,
    "/v1/kitty": KittyRequest,
    "/v1/settle": SettleRequest,
    "/v1/bid": BidRequest,
    "/v1/bid/resolve": ResolveRequest,
    "/v1/hand": HandRequest,
}
PATH_OF = {cls.__name__: path for path, cls in BY_PATH.items()}


class Counted:
    """Per request class, a subclass whose public ``load`` counts its calls: the lean
    path never calls it, the fallback calls it once."""

    def __init__(self, cls: type[Schema]) -> None:
        counter = self

        class Counting(cls):  # type: ignore[valid-type, misc]
            def load(self, *args: Any, **kwargs: Any) -> Any:
                counter.calls += 1
                return super().load(*args, **kwargs)

        Counting.__name__ = cls.__name__
        self.calls = 0
        self.schema = Counting()


SCHEMAS: dict[str, Schema] = {cls.__name__: cls() for cls in BY_PATH.values()}
COUNTED = {name: Counted(type(schema)) for name, schema in SCHEMAS.items()}
APP = create_app()


def schemas_within(schema: Schema) -> list[Schema]:
    """``schema`` and every schema nested in it (in a list or not)."""
    found = [schema]
    for field in schema.fields.values():
        while isinstance(field, fields.List):
            field = field.inner
        if isinstance(field, fields.Nested):
            found += schemas_within(field.schema)
    return found


# valid bodies beyond bench/bodies.py: the other request forms and optional fields
EXTRA: list[tuple[str, dict[str, Any]]] = [
    ("KittyRequest", {"trump": {"level": "2", "suit": None}, "dealer": 1, "kitty": ["5S", "10S"],
                       "last_lead": ["AS", "AS"], "winner": 2, "won_with_trumps": False,
                       "defender_points": 60}),
    ("TrickRequest", {"rules": {"preset": "four-deck", "throw_comparison": "largest_unit"},
                       "trump": {"level": "A", "suit": "S"}, "leader": 3,
                       "plays": [["3h"], ["A♥"], ["th"], ["小王"]], "hands": None}),
    ("BidRequest", {"trump": {"level": "2"}, "standing": None, "bid": {"seat": 3, "cards": ["2D"]}}),
    ("ResolveRequest", {"rules": "three-deck", "trump": {"level": "K"}, "bids": [], "kitty": None}),
    ("FollowRequest", {"trump": {"level": "10", "suit": "H"}, "lead": ["AS"], "hand": ["KS", "2H"]}),
]


def _valid() -> list[tuple[str, dict[str, Any]]]:
    bodies = [(BY_PATH[path].__name__, body) for path, body in BODIES.values()]
    return bodies + EXTRA


VALID = _valid()


def _outcome(load: Any, data: Any) -> tuple[str, Any]:
    try:
        return ("ok", load(data))
    except ValidationError as exc:
        return ("error", exc.messages)


def _same(name: str, data: Any) -> tuple[str, Any]:
    """``fast_load``'s outcome on ``data``, checked equal to ``Schema.load``'s."""
    schema = SCHEMAS[name]
    slow = _outcome(schema.load, copy.deepcopy(data))
    fast = _outcome(lambda d: fast_load(schema, d), copy.deepcopy(data))
    assert fast == slow
    return slow


def _load_calls(name: str, data: Any) -> int:
    """How often ``fast_load`` calls the schema's own ``load`` for ``data``."""
    counted = COUNTED[name]
    counted.calls = 0
    try:
        fast_load(counted.schema, copy.deepcopy(data))
    except ValidationError:
        pass
    return counted.calls


OBJECT_ITSELF = ValidationError("").field_name  # marshmallow's key for an error of the object itself


def _pointed(messages: Any, path: tuple[Any, ...] = ()) -> list[tuple[str, str]]:
    """marshmallow's nested messages as (JSON pointer, message) pairs."""
    if isinstance(messages, dict):
        return [pair for key, inner in messages.items()
                for pair in _pointed(inner, path if key == OBJECT_ITSELF else (*path, key))]
    pointer = "".join(f"/{key}" for key in path)
    return [(pointer, str(message)) for message in (messages if isinstance(messages, list) else [messages])]


def _app_agrees(name: str, data: Any, outcome: tuple[str, Any]) -> None:
    """The app's answer to ``data`` on the endpoint of ``name``: a 422 with exactly
    ``Schema.load``'s messages at their pointers when it refused the body, else never
    a load error's 4xx nor a 500."""
    resp = APP.test_client().post(PATH_OF[name], json=data)
    if outcome[0] == "error":
        assert resp.status_code == 422, resp.get_json()
        got = sorted((e["pointer"], e["message"]) for e in resp.get_json()["errors"])
        expected = sorted(_pointed(outcome[1]))
        assert [pointer for pointer, _ in got] == [pointer for pointer, _ in expected]
        for (_, shown), (_, message) in zip(got, expected, strict=True):
            # a long quoted value is shown cut (docs/api.md "Errors"), every other message as it is
            head = shown.split("… (cut from ")[0]  # the message up to the cut (a cut string: and its closing quote)
            assert shown == message or (head != shown and message.startswith(head[:-1])), (shown, message)
    else:
        assert resp.status_code in (200, 422), resp.get_json()


def test_every_endpoint_is_covered() -> None:
    posted = {rule.rule for rule in APP.url_map.iter_rules() if "POST" in (rule.methods or ())}
    assert posted == set(BY_PATH)
    assert {name for name, _ in VALID} == set(SCHEMAS)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_request_schemas_declare_no_hooks(name: str) -> None:
    """The fast path does not run schema hooks: an engine object is made by a
    ``Record`` field and a check across fields is the route's.  (marshmallow marks
    a hook method with ``__marshmallow_hook__``; only this test looks.)"""
    for schema in schemas_within(SCHEMAS[name]):
        hooks = [n for n in dir(type(schema)) if getattr(getattr(type(schema), n, None), "__marshmallow_hook__", None)]
        assert hooks == [], f"{type(schema).__name__} declares hooks {hooks}"


@pytest.mark.parametrize(("name", "body"), VALID, ids=[f"{n}-{i}" for i, (n, _) in enumerate(VALID)])
def test_valid_bodies_take_the_fast_path_to_the_same_result(name: str, body: dict[str, Any]) -> None:
    assert _same(name, body)[0] == "ok"
    assert _load_calls(name, body) == 0


@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("FollowRequest", {"trump": {"level": "10", "suit": "H"}, "lead": ["AS"], "hand": ["KS"], "x": 1}),
        ("FollowRequest", {"trump": {"level": "10", "suit": "H"}, "lead": ["AS"]}),
        ("FollowRequest", {"trump": {"level": "10", "suit": "H"}, "lead": ["AS", "1S"], "hand": ["KS"]}),
        ("TrickRequest", {"trump": {"level": "10", "suit": "H"}, "leader": True, "plays": [[], [], [], []]}),
        ("TrickRequest", {"trump": {"level": "10", "suit": "H"}, "leader": 4, "plays": [[], [], [], []]}),
        ("SettleRequest", {"dealer": 0, "defender_points": 2_000_000, "levels": {"A": "5", "B": "7"}}),
        ("BidRequest", {"trump": {"level": "2"}, "bid": None}),
        ("ResolveRequest", {"trump": {"level": "2"}, "bids": [{"seat": 0, "cards": ["2S"], "extra": 1}]}),
        ("ResolveRequest", {"trump": {"level": "2"}, "bids": [{"seat": 0, "cards": ["2S"]}] * 101}),
        ("KittyRequest", {"trump": {"level": "2", "suit": "S"}, "dealer": 0, "last_lead": ["AS"], "winner": 5}),
        ("KittyRequest", {"trump": {"level": "2", "suit": "S"}, "dealer": 0, "last_trick": {"leader": 0}}),
        ("HandRequest", {"trump": {"level": "2", "suit": "S"}, "dealer": 0, "levels": {"A": "2", "B": "2"},
                          "hands": {}, "kitty": [], "tricks": [{"leader": 0, "plays": [[], [], []]}]}),
    ],
)
def test_invalid_bodies_fall_back_to_marshmallow(name: str, body: dict[str, Any]) -> None:
    assert _load_calls(name, body) == 1
    outcome = _same(name, body)
    assert outcome[0] == "error"
    _app_agrees(name, body, outcome)


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
    outcome = _same(name, data)
    assert _load_calls(name, data) == (outcome[0] == "error")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_the_app_answers_mutated_bodies_as_schema_load(case: tuple[str, Any]) -> None:
    name, data = case
    try:  # what the app can be sent: JSON (no NaN or infinity)
        data = json.loads(json.dumps(data, allow_nan=False))
    except ValueError:
        assume(False)
    _app_agrees(name, data, _same(name, data))


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
