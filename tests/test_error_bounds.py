"""Error bodies stay small, and a key written twice is refused (issue 21), through the real app.

- At most ``MAX_ERRORS`` entries in ``errors[]``, ``errors_omitted`` counting the rest; a
  64 KiB body of unknown keys answers a 422 of about a kilobyte (it was ~320 KB).
- A quoted input value or key longer than ``MAX_ECHO`` characters is cut, and says so.
- Any object naming a key twice, at any depth and however the key is escaped, is a 400
  naming the repeated key's pointer (hypothesis: random JSON with a key repeated anywhere).
"""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.errors import DUPLICATE_KEY_TYPE, MAX_ECHO, MAX_ERRORS, pointer
from service.jsonio import MAX_DEPTH, DuplicateKey, loads_request, repeated_key

TRUMP = {"level": "2", "suit": "S"}
FOLLOW = {"trump": TRUMP, "lead": ["AS"], "hand": ["KS", "3H"]}
LIMIT = 64 * 1024


def _post_raw(api: Any, path: str, raw: bytes) -> Any:
    return api.post(path, data=raw)


# --- errors[] bounded ---------------------------------------------------------------------------


def _unknown_keys_body(limit: int = LIMIT) -> tuple[bytes, int]:
    """A follow body padded with unknown keys to just under ``limit`` bytes, and their number."""
    body = dict(FOLLOW)
    size = len(orjson.dumps(body))
    n = 0
    while size + len(f',"k{n}":0') <= limit:
        size += len(f',"k{n}":0')
        body[f"k{n}"] = 0
        n += 1
    raw = orjson.dumps(body)
    assert len(raw) == size
    return raw, n


def test_a_64_kib_body_of_unknown_keys_answers_a_small_422(api: Any) -> None:
    raw, n = _unknown_keys_body()
    assert len(raw) <= LIMIT and n > 5000
    resp = _post_raw(api, "/v1/follow", raw)
    assert resp.status_code == 422
    assert len(resp.data) < 2048  # ~320 KB before the bound
    problem = resp.get_json()
    assert len(problem["errors"]) == MAX_ERRORS
    assert problem["errors_omitted"] == n - MAX_ERRORS
    # unknown keys in sorted order (not a set's order, which moves with the hash seed)
    assert [e["pointer"] for e in problem["errors"]] == sorted(f"/k{i}" for i in range(n))[:MAX_ERRORS]
    assert {e["message"] for e in problem["errors"]} == {"Unknown field."}
    assert problem["detail"] == f"/k0: Unknown field. (and {n - 1} more)"


@pytest.mark.parametrize("count", [1, MAX_ERRORS - 1, MAX_ERRORS, MAX_ERRORS + 1, 3 * MAX_ERRORS])
def test_errors_omitted_counts_what_is_left_out(api: Any, count: int) -> None:
    resp = api.post("/v1/follow", FOLLOW | {"hand": [f"X{i}" for i in range(count)]})
    assert resp.status_code == 422
    problem = resp.get_json()
    assert [e["pointer"] for e in problem["errors"]] == [f"/hand/{i}" for i in range(min(count, MAX_ERRORS))]
    assert problem.get("errors_omitted") == (count - MAX_ERRORS if count > MAX_ERRORS else None)
    assert problem["detail"].endswith(f"(and {count - 1} more)") if count > 1 else "more)" not in problem["detail"]


def test_unknown_keys_are_listed_in_the_same_order_on_every_call(api: Any) -> None:
    body = {"x": 1, "a": 2, "m": 3} | FOLLOW | {"b": 4}
    pointers = [[e["pointer"] for e in api.post("/v1/follow", body).get_json()["errors"]] for _ in range(3)]
    assert pointers == [["/a", "/b", "/m", "/x"]] * 3


# --- echoed values cut ------------------------------------------------------------------------


def test_a_60_kb_preset_name_is_not_echoed_back(api: Any) -> None:
    name = "x" * 60_000
    resp = api.post("/v1/follow", FOLLOW | {"rules": name})
    assert resp.status_code == 422
    assert len(resp.data) < 2048  # ~120 KB before: the name twice
    problem = resp.get_json()
    message = problem["errors"][0]["message"]
    assert problem["errors"][0]["pointer"] == "/rules"
    assert message.startswith(f"unknown preset {'x' * MAX_ECHO!r}… (cut from 60000 characters); known presets: ")
    assert problem["detail"] == f"/rules: {message}"


@pytest.mark.parametrize(
    ("body", "where", "quoted"),
    [
        ({"rules": {"preset": "y" * 500}}, "/rules/preset", "y" * 500),
        ({"rules": {"preset": "two-deck", "z" * 300: 1}}, None, "z" * 300),
        ({"lead": ["Q" * 1000]}, "/lead/0", "Q" * 1000),
        ({"trump": {"level": "L" * 100, "suit": "S"}}, "/trump/level", "L" * 100),
    ],
)
def test_long_values_and_keys_are_cut_in_messages_and_pointers(
    api: Any, body: dict[str, Any], where: str | None, quoted: str
) -> None:
    resp = api.post("/v1/follow", FOLLOW | body)
    assert resp.status_code == 422
    problem = resp.get_json()
    assert quoted not in resp.get_data(as_text=True)
    entry = problem["errors"][0]
    if where is not None:
        assert entry["pointer"] == where
    else:  # the key is in the pointer: cut there too
        assert entry["pointer"] == f"/rules/{quoted[:MAX_ECHO]}… (cut from {len(quoted)} characters)"
    assert f"… (cut from {len(quoted)} characters)" in entry["message"]


def test_a_long_list_quoted_by_a_message_is_cut(api: Any) -> None:
    resp = api.post("/v1/follow", FOLLOW | {"rules": {"preset": "two-deck", "kitty_multiplier": [1] * 5000}})
    assert resp.status_code == 422
    assert len(resp.data) < 2048
    assert "… (cut from 15000 characters)" in resp.get_json()["errors"][0]["message"]


def test_a_short_value_is_quoted_whole(api: Any) -> None:
    resp = api.post("/v1/follow", FOLLOW | {"rules": "five-deck"})
    assert resp.get_json()["errors"][0]["message"].startswith("unknown preset 'five-deck'; known presets: ")


def test_the_spec_states_the_bounds(spec_dict: dict[str, Any]) -> None:
    problem = spec_dict["components"]["schemas"]["Problem"]
    assert problem["properties"]["errors"]["maxItems"] == MAX_ERRORS
    assert "errors_omitted" in problem["properties"]
    assert f"longer than {MAX_ECHO} characters" in spec_dict["info"]["description"]


# --- duplicate keys ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "where"),
    [
        (b'{"rules":"x","rules":"four-deck","trump":{"level":"2","suit":"S"},"lead":["AS"],"hand":["KS"]}',
         "/rules"),
        (b'{"rules":"x","\\u0072ules":"four-deck","trump":{"level":"2","suit":"S"},"lead":["AS"],"hand":["KS"]}',
         "/rules"),
        (b'{"trump":{"level":"2","suit":"S","level":"3"},"lead":["AS"],"hand":["KS"]}', "/trump/level"),
        (b'{"trump":{"level":"2","suit":"S"},"lead":["AS"],"hand":["KS"],"x":[1,{"a":1},{"a":{"b":1,"b":1}}]}',
         "/x/2/a/b"),
        (b'{"a/b~":1, "a/b~" :2}', "/a~1b~0"),
        (b'{"a:":1,"a\\u003a":2}', "/a:"),
        ('{"红桃":1,"\\u7ea2\\u6843":2}'.encode(), "/红桃"),
    ],
)
def test_a_repeated_key_is_a_400_naming_its_pointer(api: Any, raw: bytes, where: str) -> None:
    resp = _post_raw(api, "/v1/follow", raw)
    assert resp.status_code == 400, resp.get_json()
    problem = resp.get_json()
    assert problem["type"] == DUPLICATE_KEY_TYPE
    assert problem["errors"] == [
        {"pointer": where, "code": "duplicate_key",
         "message": "this key appears more than once in its object; send each key once"}
    ]
    assert problem["detail"].startswith(f"{where}: ")


@pytest.mark.parametrize("path", ["/v1/analyze", "/v1/trick", "/v1/throw", "/v1/kitty", "/v1/settle", "/v1/bid",
                                  "/v1/bid/resolve", "/v1/hand"])
def test_every_endpoint_refuses_a_repeated_key(api: Any, path: str) -> None:
    assert _post_raw(api, path, b'{"dealer":0,"dealer":1}').status_code == 400


def test_keys_alike_only_once_decoded_are_not_repeats(api: Any) -> None:
    """An escaped colon in a key (the one spelling the quick count cannot see) with
    distinct keys: no 400, the unknown keys' 422."""
    resp = _post_raw(api, "/v1/follow", b'{"a\\u003a":1,"b:":2,"c\\u003A":3}')
    assert resp.status_code == 422
    assert [e["pointer"] for e in resp.get_json()["errors"]][-3:] == ["/a:", "/b:", "/c:"]


def test_a_deep_repeat_is_found() -> None:
    depth = MAX_DEPTH - 2
    raw = b'{"a":' * depth + b'[{"q":1,"q":2}]' + b"}" * depth
    with pytest.raises(DuplicateKey) as exc:
        loads_request(raw)
    assert exc.value.path == ("a",) * depth + (0, "q")
    deeper = b'{"a":' * 900 + b'[{"q":1,"q":2}]' + b"}" * 900  # the scan itself has no depth limit
    assert repeated_key(deeper) == ("a",) * 900 + (0, "q")


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, 1000])
def test_a_body_nested_too_deep_is_a_400(api: Any, depth: int) -> None:
    """Deeper than ``MAX_DEPTH`` (orjson.dumps's limit) is a 400; a message quoting a
    value 1000 levels deep was a 500 (a RecursionError in its repr)."""
    inner = b"[" * (depth - 2) + b"]" * (depth - 2)
    raw = b'{"rules":{"kitty_multiplier":' + inner + b'},"trump":{"level":"2","suit":"S"},"lead":["AS"],"hand":["KS"]}'
    resp = _post_raw(api, "/v1/follow", raw)
    if depth > MAX_DEPTH:
        assert resp.status_code == 400
        assert resp.get_json()["detail"] == f"the body nests more than {MAX_DEPTH} levels deep"
    else:
        assert resp.status_code == 422
        assert resp.get_json()["errors"][0]["pointer"] == "/rules/kitty_multiplier"


# hypothesis: objects as lists of pairs, so a key can be written twice; text with random
# blanks and escapes

KEYS = st.text(alphabet=st.sampled_from("ab:\\\"/~红 é\u2028"), min_size=0, max_size=3)
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**53), 2**53), st.floats(allow_nan=False, allow_infinity=False),
                    st.text(alphabet=st.sampled_from("ab:\"\\{}[],红"), max_size=4))


class Obj(list[tuple[str, Any]]):
    """A JSON object as written: its members in order, keys possibly repeated."""


def _objects(children: Any) -> Any:
    return st.lists(st.tuples(KEYS, children), max_size=4).map(Obj)


VALUES = st.recursive(SCALARS, lambda children: st.lists(children, max_size=3) | _objects(children), max_leaves=12)


def _text(value: Any, draw: Any) -> str:
    """JSON text of ``value``, each string spelled with or without escapes, random blanks."""
    blank = draw(st.sampled_from(["", " ", "\n", "\t "]))
    if isinstance(value, Obj):
        return "{" + ",".join(f"{blank}{_string(k, draw)}{blank}:{_text(v, draw)}" for k, v in value) + blank + "}"
    if isinstance(value, list):
        return "[" + ",".join(blank + _text(v, draw) for v in value) + "]"
    if isinstance(value, str):
        return _string(value, draw)
    return json.dumps(value)


def _string(s: str, draw: Any) -> str:
    if draw(st.booleans()):
        return json.dumps(s, ensure_ascii=False)
    return '"' + "".join(f"\\u{ord(c):04x}" if ord(c) < 0x10000 else c for c in s) + '"'


def _first_repeat(value: Any, path: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
    """The reference: the path of the first key written a second time in its object, in text order."""
    if isinstance(value, Obj):
        seen: set[str] = set()
        for key, sub in value:
            if key in seen:
                return (*path, key)
            seen.add(key)
            found = _first_repeat(sub, (*path, key))
            if found is not None:
                return found
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            found = _first_repeat(sub, (*path, i))
            if found is not None:
                return found
    return None


@st.composite
def documents(draw: Any, repeat: bool) -> tuple[bytes, Any]:
    value = draw(_objects(VALUES))
    if repeat:  # write one existing key of some object a second time
        objects = [o for o in _walk(value) if o]
        if not objects:
            value.append(("k", 1))
            objects = [value]
        target = draw(st.sampled_from(objects))
        key = draw(st.sampled_from([k for k, _ in target]))
        target.insert(draw(st.integers(0, len(target))), (key, draw(SCALARS)))
    return _text(value, draw).encode(), value


def _walk(value: Any) -> list[Obj]:
    found = []
    if isinstance(value, Obj):
        found.append(value)
        for _, sub in value:
            found += _walk(sub)
    elif isinstance(value, list):
        for sub in value:
            found += _walk(sub)
    return found


PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(documents(repeat=True))
def test_any_repeated_key_is_found_with_its_path(doc: tuple[bytes, Any]) -> None:
    raw, value = doc
    expected = _first_repeat(value)
    assert expected is not None
    with pytest.raises(DuplicateKey) as exc:
        loads_request(raw)
    assert exc.value.path == expected


@PROPERTY
@given(documents(repeat=False))
def test_a_document_without_repeats_loads_as_orjson_loads_it(doc: tuple[bytes, Any]) -> None:
    raw, value = doc
    if _first_repeat(value) is not None:  # two keys spelled alike by chance
        with pytest.raises(DuplicateKey):
            loads_request(raw)
    else:
        assert loads_request(raw) == orjson.loads(raw)


@pytest.mark.parametrize(
    ("raw", "path"),
    [
        (b'{"a":1,"a":1}', ("a",)),  # the same value twice: written back shorter
        (b'{"trump":{"level":"2","suit":"S","level":"2"},"x":[]}', ("trump", "level")),
        (b'{"a":[{"b":":","b":":"}]}', ("a", 0, "b")),
        (b'{"rules":"two-deck","trump":{"level":"2","suit":"S"}}', None),  # written back byte for byte
        (b'{"k":"\\u003a","k\\u003a":1}', None),
    ],
)
def test_a_compact_body_is_settled_exactly(raw: bytes, path: tuple[Any, ...] | None) -> None:
    """A body written as orjson writes it (compact) and read back byte for byte names
    no key twice; one with a repeated key never reads back alike and is still found."""
    if path is None:
        assert loads_request(raw) == orjson.loads(raw)
    else:
        with pytest.raises(DuplicateKey) as exc:
            loads_request(raw)
        assert exc.value.path == path


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(documents(repeat=True), st.sampled_from(["/v1/follow", "/v1/trick", "/v1/hand", "/v1/bid/resolve"]))
def test_the_app_answers_400_with_the_pointer(api: Any, doc: tuple[bytes, Any], path: str) -> None:
    raw, value = doc
    resp = _post_raw(api, path, raw)
    assert resp.status_code == 400
    assert resp.get_json()["errors"][0]["pointer"] == pointer(_first_repeat(value) or ())


def test_the_audit_command_refuses_a_repeated_key(tmp_path: Any, capsys: Any) -> None:
    from service.cli import main as cli_main

    path = tmp_path / "hand.json"
    path.write_bytes(b'{"dealer": 0, "tricks": [{"leader": 1, "leader": 2}]}')
    assert cli_main(["audit", str(path)]) == 2
    assert "/tricks/0/leader: this key appears more than once in its object" in capsys.readouterr().err
