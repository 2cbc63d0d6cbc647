"""service/jsonio.py ``written_back``: a request schema's msgspec decoder (service/fastload.py
``wire``) reads a body only when orjson writes what it read back byte for byte, so
``loads_request`` with the decoder answers exactly as without it (the same value, or the
same error) on every body; and the usual compact body takes it (its card spellings come
back as engine.cards.SPELLINGS' own strings, where orjson makes new ones)."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import Schema

from bench.bodies import BODIES
from engine.cards import SPELLINGS
from service.fastload import loader
from service.jsonio import loads_request, written_back
from service.routes.analyze import AnalyzeRequest
from service.routes.bid import BidRequest, ResolveRequest
from service.routes.follow import FollowRequest
from service.routes.hand import HandRequest
from service.routes.kitty import KittyRequest
from service.routes.settle import SettleRequest
from service.routes.throw import ThrowRequest
from service.routes.trick import TrickRequest

SCHEMAS: dict[str, Schema] = {
    "/v1/analyze": AnalyzeRequest(),
    "/v1/follow": FollowRequest(),
    "/v1/trick": TrickRequest(),
    "/v1/throw": ThrowRequest(),
    "/v1/kitty": KittyRequest(),
    "/v1/settle": SettleRequest(),
    "/v1/bid": BidRequest(),
    "/v1/bid/resolve": ResolveRequest(),
    "/v1/hand": HandRequest(),
}
SPELLED = {word: word for word in SPELLINGS}  # each spelling → SPELLINGS' own string


def _outcome(raw: bytes, schema: Schema | None) -> tuple[str, Any]:
    """What ``loads_request`` makes of ``raw``, with the schema's decoder or without one."""
    try:
        return ("value", loads_request(raw, None if schema is None else loader(schema).decoder))
    except Exception as exc:  # noqa: BLE001 — the error is the outcome compared
        return ("error", (type(exc), getattr(exc, "path", None), str(exc)))


def _same_either_way(raw: bytes, schema: Schema) -> None:
    with_decoder, without = _outcome(raw, schema), _outcome(raw, None)
    assert with_decoder == without
    if with_decoder[0] == "value":  # equal and of the same types (1 is 1.0, True is 1 to ==)
        assert orjson.dumps(with_decoder[1]) == orjson.dumps(without[1])


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


@pytest.mark.parametrize("label", sorted(BODIES))
def test_a_compact_body_is_read_by_its_schemas_decoder(label: str) -> None:
    """Every bench body: the path this module is for is the one its requests take."""
    path, body = BODIES[label]
    raw = orjson.dumps(body)
    schema = SCHEMAS[path]
    data = written_back(raw, loader(schema).decoder)
    assert data == orjson.loads(raw)
    assert orjson.dumps(data) == raw
    cards = [s for s in _strings(data) if s in SPELLINGS]
    assert cards or path == "/v1/settle"  # every other body holds cards
    assert all(s is SPELLED[s] for s in cards), "a card spelling read as a new string"
    _same_either_way(raw, schema)


@pytest.mark.parametrize(
    "raw",
    [
        b'{"trump":{"level":"2","suit":"S"},"leader":0,"lead":["AS"],"hands":{"1":["KS"],"1":["QS"]}}',  # a repeat
        b'{"trump":{"level":"2","suit":"S"},"leader":0,"lead":["AS"],"hands":{"1":["KS"]},"x":1}',  # unknown key
        b'{"trump":{"level":"2","suit":"S"},"leader":0,"lead":["AS"],"hands":{"1":["KS"]},"x":"\xff"}',  # bad UTF-8
        b'{"trump": {"level": "2", "suit": "S"}, "leader": 0, "lead": ["AS"], "hands": {"1": ["KS"]}}',  # not compact
        b'{"trump":{"level":"2","suit":"S"},"leader":0,"lead":["AS"],"hands":{"1":["KS"]},"rules":"two deck"}',
        b'{"trump":{"level":"2","suit":"S"},"leader":0,"lead":["AS"],"hands":{"1":["KS"]}}\n',
        b'{"trump":{"level":"2","suit":"S"},"leader":0,"lead":["\\u0041S"],"hands":{"1":["KS"]}}',  # an escape
        b'{"trump":{"level":"2","suit":"S"},"leader":0,"lead":["\\u5c0f\\u738b"],"hands":{"1":["KS"]}}',
        b'{"trump":{"level":"2","suit":"S"},"leader":0,"lead":["\xe5\xb0\x8f\xe7\x8e\x8b","A\xe2\x99\xa0"],"hands":{}}',
        b'{"rules":"\\ud800","trump":{"level":"2","suit":"S"},"leader":0,"lead":["AS"],"hands":{}}',  # lone surrogate
        b'{"trump":{"level":"2","suit":"S"},"leader":123456789012345678901234567890,"lead":["AS"],"hands":{}}',
        b'{"trump":{"level":"2","suit":"S"},"leader":1.0,"lead":["AS"],"hands":{}}',
        b'{"trump":{"level":"2","suit":"S"},"leader":-0.0,"lead":["AS"],"hands":{}}',
        b'{"trump":{"level":"2","suit":"S"},"leader":1e400,"lead":["AS"],"hands":{}}',
        b'{"trump":{"level":"2","suit":"S"},"leader":NaN,"lead":["AS"],"hands":{}}',
        b'{"trump":{"level":"2","suit":"S"},"leader":0,"lead":["AS"],"hands":null}',
        b'{"trump":{"level":"2","suit":"S"},"leader":0,"lead":["XX"],"hands":{"4":["AS"]}}',
        b'{"trump":{"level":"2","suit":"S"},"leader":0,"lead":[true],"hands":{"1":[null]}}',
        b'{"rules":' + b"[" * 300 + b"]" * 300 + b',"leader":0}',  # deeper than MAX_DEPTH
        b'{"rules":' + b"[" * 200 + b"]" * 200 + b',"leader":0}',
        b'{"rules":' + b"[" * 20000 + b"]" * 20000 + b"}",  # deeper than msgspec reads
        b'{"rules":"two-deck"',  # malformed
        b"[]",
        b'"AS"',
        b"",
    ],
)
@pytest.mark.parametrize("path", ["/v1/throw", "/v1/trick", "/v1/hand"])
def test_any_other_body_reads_as_orjson_reads_it(raw: bytes, path: str) -> None:
    _same_either_way(raw, SCHEMAS[path])


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=4)
    | st.sampled_from(sorted(SPELLINGS)),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=12,
)


@st.composite
def bodies(draw: Any) -> tuple[bytes, str]:
    """A bench body with some of its values replaced, keys added or repeated, written
    compactly or not."""
    label = draw(st.sampled_from(sorted(BODIES)))
    path, body = BODIES[label]
    members = [[k, v] for k, v in body.items()]
    for member in members:
        if draw(st.integers(0, 3)) == 0:
            member[1] = _write(draw(_JSON))
        elif isinstance(member[1], dict) and draw(st.booleans()):
            inner = [f"{_write(k)}:{_write(v)}" for k, v in member[1].items()]
            if inner and draw(st.booleans()):
                inner.append(inner[0])  # a repeated key inside
            member[1] = "{" + ",".join(inner) + "}"
        else:
            member[1] = _write(member[1])
    if draw(st.integers(0, 4)) == 0:
        members.append([draw(st.sampled_from([k for k, _ in members] + ["x"])), _write(draw(_JSON))])
    written = "{" + ",".join(f"{_write(k)}:{v}" for k, v in members) + "}"
    if draw(st.integers(0, 4)) == 0:
        written = written.replace('":', '": ', 1)
    return written.encode("utf-8", "surrogatepass"), path


def _write(value: Any) -> str:
    """JSON as compact as orjson's (big integers, NaN and lone surrogates as Python writes them)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bodies())
def test_a_mutated_body_reads_as_orjson_reads_it(body: tuple[bytes, str]) -> None:
    raw, path = body
    _same_either_way(raw, SCHEMAS[path])
