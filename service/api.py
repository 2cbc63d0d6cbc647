"""The ``/v1`` blueprint and what every adjudication view shares.

A view loads its body with a marshmallow schema (into engine objects), makes
one engine call, and renders the result; errors become problem+json.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, request
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import BadRequest, UnsupportedMediaType

from engine.errors import InvalidInput, Problem
from engine.reasons import Reason
from service.errors import messages_to_problems

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
        return schema.load(data)  # type: ignore[no-any-return]
    except ValidationError as exc:
        raise InvalidInput(messages_to_problems(exc.messages)) from None


def language() -> str:
    """``zh`` when Accept-Language prefers Chinese over English, else ``en``."""
    best = request.accept_languages.best_match(["en", "zh"], default="en")
    return best or "en"


def reason_json(reason: Reason, lang: str) -> dict[str, str]:
    """A reason as the API shows it: its stable code and a message."""
    return {"code": reason.code, "message": reason.message(lang)}


def with_language(resp: Response, lang: str) -> Response:
    resp.headers["Content-Language"] = lang
    resp.vary.add("Accept-Language")
    return resp
