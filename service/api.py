"""The ``/v1`` blueprint and what every adjudication view shares.

A view loads its body with a marshmallow schema (into engine objects), makes
one engine call, and renders the result; errors become problem+json.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import orjson
from flask import Blueprint, Response, current_app, request
from marshmallow import Schema, ValidationError

from engine.errors import InvalidInput, Problem
from engine.reasons import Reason
from service.answer import Answer
from service.errors import ProblemError, cut_quotes, duplicate_key_response, messages_to_problems
from service.explain import render
from service.fastload import loader
from service.i18n import negotiate
from service.jsonio import MAX_DEPTH, DuplicateKey, OrjsonProvider, TooDeep, loads_request
from service.logs import plain_length
from service.render import written

v1 = Blueprint("v1", __name__, url_prefix="/v1")


@v1.errorhandler(DuplicateKey)
def on_duplicate_key(exc: DuplicateKey) -> Response:
    return duplicate_key_response(exc.path)


def load(schema: Schema) -> dict[str, Any]:
    """The request body, validated and converted by ``schema``.

    415 when the body is not JSON, 400 when it does not parse, nests too deep or
    names a key twice in one object (with the key's pointer), 413 when it is over
    ``MAX_CONTENT_LENGTH``, 422 (with pointers) when it is not what the endpoint
    takes.
    """
    req = request._get_current_object()  # type: ignore[attr-defined]  # one proxy lookup
    if req.environ.get("CONTENT_TYPE") != "application/json" and not req.is_json:
        raise ProblemError(415, "unsupported_media_type")
    raw = _plain_body(req)
    if raw is None:
        raw = req.get_data()  # 413 over the limit; chunked bodies
    reader = loader(schema)
    try:
        data = loads_request(raw, reader.decoder)
    except orjson.JSONDecodeError:
        raise ProblemError(400, "malformed_json") from None
    except TooDeep:
        raise ProblemError(400, "too_deep", {"depth": MAX_DEPTH}) from None
    if not isinstance(data, dict):
        raise InvalidInput(Problem((), "the request body must be a JSON object", code="body_not_object"))
    try:
        return reader.load(data)  # type: ignore[no-any-return]  # service/fastload.py fast_load
    except ValidationError as exc:
        raise InvalidInput(cut_quotes(messages_to_problems(exc.messages), data)) from None


def _plain_body(req: Any) -> bytes | None:
    """The body of an ordinary request (a plain Content-Length within the limit,
    no transfer coding), read straight from the WSGI input: what
    ``request.get_data()`` returns for it, without building werkzeug's stream
    wrappers.  None for anything else, which ``get_data`` handles (413s, chunks)."""
    env = req.environ
    size = plain_length(env)
    if size is None:
        return None
    limit = body_limit()
    if limit is not None and size > limit:
        return None
    return env["wsgi.input"].read(size)  # type: ignore[no-any-return]


def body_limit() -> int | None:
    """The largest body the app reads: its ``MAX_CONTENT_LENGTH``.  That is what
    flask's ``request.max_content_length`` answers, since no view of the service
    sets a limit of its own (tests/test_http_layer.py pins the equality), read
    with one look-up through the ``current_app`` proxy instead of the property's
    two."""
    return current_app._get_current_object().config["MAX_CONTENT_LENGTH"]  # type: ignore[attr-defined,no-any-return]


def language() -> str:
    """The catalog a verdict's reasons are worded in: the one Accept-Language
    negotiates (``en``, ``zh-Hans``, ``zh-Hant``; docs/api.md "Languages")."""
    # = request.headers.get("Accept-Language"), through one proxy look-up rather than two
    environ = request._get_current_object().environ  # type: ignore[attr-defined]
    return negotiate(environ.get("HTTP_ACCEPT_LANGUAGE"))


@lru_cache(maxsize=4096)
def reason_json(reason: Reason, lang: str) -> orjson.Fragment:
    """A reason as the API shows it, ``{"code", "message"}`` with its message in ``lang``,
    written (service/render.py ``written``): cached as ``render`` is, by the reason's value."""
    return written({"code": reason.code, "message": render(reason, lang)})


def reasons_json(reasons: Iterable[Reason], lang: str) -> list[orjson.Fragment]:
    """A list of reasons as ``reason_json`` shows each (one call per list: the hot path;
    a loop, as a list comprehension would build a function and a cell for ``lang`` on
    every call, CPython 3.11: 1.8 kIr fewer a list, callgrind)."""
    out = []
    for r in reasons:
        out.append(reason_json(r, lang))
    return out


def json_response(obj: Any, lang: str | None = None) -> Response:
    """``jsonify(obj)`` without the app lookups: orjson bytes, application/json.

    With ``lang`` (a catalog tag), also ``Content-Language`` (the tag) and
    ``Vary: Accept-Language`` (``Answer.in_language``).
    """
    return Answer.of_json(orjson.dumps(obj, option=OrjsonProvider.option), lang)
