"""JSON in and out: orjson (bench/RESULTS.md: measured faster than the stdlib), and request
bodies that name a key twice refused.

A referee must not pick one of two values silently: ``{"rules": "x", "rules":
"four-deck"}`` means one thing to a parser that keeps the first and another to
one that keeps the last, so :func:`loads_request` answers :class:`DuplicateKey`
(the service's 400) instead, for any object at any depth, however the key is
spelled (``"rules"`` and ``"\\u0072ules"`` are the same key).

A request schema's msgspec decoder may read a compact body first, for speed only
(:func:`written_back`): what it reads is kept when orjson writes it back as the
body, byte for byte, so every body still means what orjson reads in it.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec
import orjson
from flask.json.provider import JSONProvider

from service.answer import Answer


class OrjsonProvider(JSONProvider):
    """Parse and emit JSON with orjson."""

    option = 0
    """orjson's options for every answer: none.  Every key of every answer is a
    string, so orjson's fast path for string keys serves (``OPT_NON_STR_KEYS``
    cost the four-deck throw's answer 40 % more instructions to write); a
    non-string key would be a bug, and orjson raises on it rather than write it
    (tests/test_http_layer.py)."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return orjson.dumps(obj, option=self.option).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Any:
        """``jsonify``'s answer: the object's JSON as ``Answer.of_json`` answers it
        (the same headers as werkzeug's ``mimetype`` and ``set_data``; the body handed
        to the server as its list of bytes)."""
        return Answer.of_json(orjson.dumps(response_object(args, kwargs), option=self.option))


def response_object(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """What ``jsonify(*args, **kwargs)`` serializes, as Flask documents it: nothing
    given is ``null``, one argument is itself, several are a list, keyword
    arguments an object; both at once is a ``TypeError``."""
    if args and kwargs:
        raise TypeError("jsonify() takes either args or kwargs, not both")
    if len(args) == 1:
        return args[0]
    return args or kwargs or None


MAX_DEPTH = 254
"""How deep a request body may nest (no endpoint takes more than 6 levels): the
depth ``orjson.dumps`` writes (deeper raises; 3.11.6+, tests/test_error_bounds.py
checks it), so the check costs nothing, and nothing later (a message quoting a
value, marshmallow) can run out of Python's recursion limit."""


class TooDeep(ValueError):
    """The body nests deeper than ``MAX_DEPTH`` levels."""


class DuplicateKey(ValueError):
    """A JSON object names ``path[-1]`` twice; ``path`` locates the second one."""

    def __init__(self, path: tuple[str | int, ...]) -> None:
        super().__init__(f"duplicate key at {path!r}")
        self.path = path


def loads_request(raw: bytes, decoder: msgspec.json.Decoder[Any] | None = None) -> Any:
    """``orjson.loads(raw)``, or :class:`DuplicateKey` when an object names a key twice
    (orjson, like most parsers, keeps the last value silently), or :class:`TooDeep`.

    The check costs one ``orjson.dumps`` and a comparison: a body written as orjson
    writes it (compact, as ``JSON.stringify`` and most clients' compact modes write)
    comes back byte for byte, and then it named no key twice (a repeated key would be
    missing from ``written``).  Any other body costs two byte counts and a byte search
    more.  Outside strings a colon only ever ends an object's key, so the colons of ``raw`` are its members
    plus the colons written inside its strings; ``orjson.dumps`` of the parsed value
    writes each kept member once and each string's colons as they are.  The two
    counts differ by the members a repeated key dropped, less the colons a string
    spelled as ``\\u003a`` (which ``raw`` does not show as a colon): when ``raw``
    has no such escape, equal counts mean no key repeats.  Anything else (unequal
    counts, an escape) is settled exactly by :func:`repeated_key`.

    ``decoder`` (a request schema's, service/fastload.py ``wire``) may read a compact
    body first: see :func:`written_back`.
    """
    if decoder is not None:
        data = written_back(raw, decoder)
        if data is not None:
            return data
    data = orjson.loads(raw)
    try:
        written = orjson.dumps(data)
    except orjson.JSONEncodeError:  # deeper than MAX_DEPTH
        raise TooDeep(f"the body nests more than {MAX_DEPTH} levels deep") from None
    if written != raw and (  # memcmp first, then memchr
        (b"\\" in raw and b"\\u003" in raw) or raw.count(b":") != written.count(b":")
    ):
        path = repeated_key(raw)
        if path is not None:
            raise DuplicateKey(path)
    return data


def written_back(raw: bytes, decoder: msgspec.json.Decoder[Any]) -> Any:
    """What ``decoder`` reads from ``raw`` when ``orjson.dumps`` writes it back as
    ``raw`` byte for byte, else None: then it is ``orjson.loads(raw)`` (orjson's
    documented output is RFC 8259 JSON, which ``orjson.loads`` reads back as it was
    written: the strings, the 64-bit integers, floats, null, the arrays and the
    objects with their keys in order; tests/test_written_back.py compares the two
    readings on edge and mutated bodies), and ``raw`` names no key twice (a repeated key, like an
    unknown one that the decoder skips, would be missing from what is written back).
    So the decoder decides nothing; it is there for its speed: msgspec reads a card
    spelling that its type names as a ``Literal`` as that ``Literal``'s own string
    (msgspec's documented "Supported Types"), where orjson makes a new string for
    every card, to be hashed, looked up and freed.

    A body with a space in it is left to orjson at once: compact JSON has none outside
    its strings, and every body written otherwise (Python's ``json.dumps`` by
    default, any indented one) has some, so it would not be written back alike, and
    the decoder's reading would be wasted (80 kIr on the four-deck throw; the test, a
    ``memchr``, costs 0.4).  Any other body the decoder cannot read, or that is not
    written back alike (keys repeated or unknown, numbers or escapes written
    otherwise), costs both readings."""
    if 0x20 in raw:  # b" " in raw, without bytes.__contains__ first trying the operand as an int
        return None
    try:  # msgspec documents DecodeError; it also raises RecursionError (depth) and UnicodeDecodeError
        data = decoder.decode(raw)
        if orjson.dumps(data) == raw:  # JSONEncodeError for what orjson cannot write
            return data
    except Exception:  # whatever it is, orjson reads the body and answers
        pass
    return None


# the tokens of valid JSON that matter here: strings (escapes and all) and the six
# structural characters; numbers, true, false, null and blanks hold none of them
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[{}\[\]:,]', re.S)


def repeated_key(raw: bytes) -> tuple[str | int, ...] | None:
    """The path of the first key (in the text's order) that its object names
    a second time, or None; ``raw`` is JSON that ``orjson.loads`` accepted.

    One pass over the tokens with a stack of open containers (no recursion, at
    any depth); each key is decoded (escapes and all) by orjson before it is compared.
    """
    path: list[str | int] = []  # the location of the current value
    keys: list[set[str] | None] = []  # per open container: an object's keys so far, None for an array
    last: bytes | None = None  # the string token just read, until we know if it is a key
    for match in _TOKEN.finditer(raw):
        token = match.group()
        first = token[0]
        if first == 0x22:  # '"'
            last = token
            continue
        if first == 0x3A:  # ':' — the string before it is a key of the innermost object
            key = orjson.loads(last) if last is not None else ""
            seen = keys[-1]
            assert seen is not None
            path[-1] = key
            if key in seen:
                return tuple(path)
            seen.add(key)
        elif first == 0x2C:  # ','
            if keys[-1] is None:
                index = path[-1]
                assert isinstance(index, int)
                path[-1] = index + 1
        elif first == 0x7B:  # '{'
            keys.append(set())
            path.append("")
        elif first == 0x5B:  # '['
            keys.append(None)
            path.append(0)
        else:  # '}' or ']'
            keys.pop()
            path.pop()
        last = None
    return None
