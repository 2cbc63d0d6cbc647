"""The ``/v1`` blueprint and what every adjudication view shares.

A view loads its body with a marshmallow schema (into engine objects), makes
one engine call, and renders the result; errors become problem+json.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import orjson
from flask import Blueprint, Response, request
from marshmallow import Schema, ValidationError
from werkzeug.datastructures import LanguageAccept
from werkzeug.exceptions import BadRequest, UnsupportedMediaType
from werkzeug.http import parse_accept_header

from engine.errors import InvalidInput, Problem
from engine.reasons import Reason
from service.errors import messages_to_problems
from service.fastload import fast_load
from service.jsonio import OrjsonProvider

v1 = Blueprint("v1", __name__, url_prefix="/v1")


def load(schema: Schema) -> dict[str, Any]:
    """The request body, validated and converted by ``schema``.

    415 when the body is not JSON, 400 when it does not parse, 422 (with
    pointers) when it is not what the endpoint takes.
    """
    if not request.is_json:
        raise UnsupportedMediaType("send the body as application/json")
    try:
        data = request.get_json()
    except BadRequest:
        raise BadRequest("the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise InvalidInput(Problem((), "the request body must be a JSON object"))
    try:
        return fast_load(schema, data)  # type: ignore[no-any-return]
    except ValidationError as exc:
        raise InvalidInput(messages_to_problems(exc.messages)) from None


def language() -> str:
    """``zh`` when Accept-Language prefers Chinese over English, else ``en``."""
    return language_of(request.headers.get("Accept-Language"))


@lru_cache(maxsize=256)
def language_of(header: str | None) -> str:
    """The language for one Accept-Language value (cached: clients send a few
    values over and over); exactly ``request.accept_languages.best_match``."""
    best = parse_accept_header(header, LanguageAccept).best_match(["en", "zh"], default="en")
    return best or "en"


def reason_json(reason: Reason, lang: str) -> dict[str, str]:
    """A reason as the API shows it: its stable code and a message."""
    return {"code": reason.code, "message": reason.message(lang)}


def json_response(obj: Any) -> Response:
    """``jsonify(obj)`` without the app lookups: orjson bytes, application/json."""
    return Response(orjson.dumps(obj, option=OrjsonProvider.option), content_type="application/json")


def with_language(resp: Response, lang: str) -> Response:
    headers = resp.headers
    headers["Content-Language"] = lang
    if "Vary" in headers:
        resp.vary.add("Accept-Language")
    else:  # what vary.add writes on a response without Vary, without parsing a header set
        headers["Vary"] = "Accept-Language"
    return resp
