"""RFC 9457 problem+json for every error the service answers.

Every problem has a stable machine ``code`` and its title and detail in the
negotiated language (service/i18n.py, ``Content-Language`` on the answer).
422s carry ``errors: [{"pointer", "code", "message"}]`` with JSON Pointers into
the request, built from marshmallow's nested messages or the engine's problem
paths; docs/api.md "Errors" lists every code.

An error body stays small whatever the request: at most ``MAX_ERRORS`` entries
(``errors_omitted`` counts the rest), and an input value or key it quotes, in a
pointer or a message, is cut to ``MAX_ECHO`` characters with a note that it was
cut (a 60 KB preset name is not echoed back).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import orjson
from flask import Response, has_request_context, request
from marshmallow import Schema

from engine.errors import InvalidInput, Problem
from engine.rules import OPTIONS
from service import i18n
from service.answer import Answer

PROBLEM_JSON = "application/problem+json"
INVALID_TYPE = "urn:tractor-referee:problem:invalid-request"
DUPLICATE_KEY_TYPE = "urn:tractor-referee:problem:duplicate-key"

MAX_ERRORS = 20
"""At most this many entries in a problem's ``errors[]``; ``errors_omitted`` counts the rest."""

MAX_ECHO = 64
"""An input value or key quoted in an error is cut to this many characters."""

MAX_MESSAGE = 512
"""No message is longer than this (plus the note that it was cut), whatever it quotes."""

# marshmallow's message for a key the schema does not declare
UNKNOWN_FIELD = Schema().error_messages["unknown"]


def cut(text: str, limit: int = MAX_ECHO) -> str:
    """``text``, or its first ``limit`` characters and a note that it was cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… (cut from {len(text)} characters)"


class Coded(str):
    """A marshmallow message that keeps its machine code and parameters through
    marshmallow's message trees (a ``str``, so marshmallow handles it as any message)."""

    code: str
    params: Mapping[str, str | int]

    def __new__(cls, text: str, code: str, params: Mapping[str, str | int] | None = None) -> Coded:
        obj = super().__new__(cls, text)
        obj.code = code
        obj.params = params or {}
        return obj


def coded(code: str, text: str | None = None, **params: str | int) -> Coded:
    """A message by code: ``text`` (English) if given, else the English catalog's."""
    if text is None:
        text = i18n.message(Problem((), "", code, params), i18n.DEFAULT)
    return Coded(text, code, params)


MARSHMALLOW_CODES = {
    "Unknown field.": "unknown_field",
    "Missing data for required field.": "missing_field",
    "Field may not be null.": "null_value",
    "Invalid input type.": "invalid_type",
    "Not a valid list.": "invalid_type",
    "Not a valid integer.": "invalid_type",
    "Not a valid boolean.": "invalid_type",
    "Not a valid string.": "invalid_type",
    "Not a valid mapping type.": "invalid_type",
}
"""Fixed message texts → codes: marshmallow's own messages, and the service's
messages that marshmallow validators format (``register_message``)."""

MESSAGE_PARAMS: dict[str, dict[str, str | int]] = {}


def register_message(text: str, code: str, **params: str | int) -> str:
    """Give a fixed validator message (``validate.Range(error=text)``) its code; returns ``text``."""
    MARSHMALLOW_CODES[text] = code
    MESSAGE_PARAMS[text] = params
    return text

BELONGS_INSIDE: dict[str, str] = {name: "rules" for name in OPTIONS} | {
    "preset": "rules", "level": "trump", "suit": "trump",
}
"""Fields that are known one level down: an unknown top-level ``decks`` says it
belongs inside ``rules``."""

RENAMED = {"trump_level": 'trump: {"level": ...}'}
"""Top-level fields of earlier versions of the API → what replaced them."""


def pointer(path: Iterable[str | int]) -> str:
    """JSON Pointer (RFC 6901) of a path of keys and indices."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def shown_pointer(path: Iterable[str | int]) -> str:
    """The pointer an error shows: ``pointer(path)`` with every key longer than
    ``MAX_ECHO`` characters cut (and saying so), ``MAX_MESSAGE`` characters at most."""
    return cut(pointer(cut(p) if isinstance(p, str) else p for p in path), MAX_MESSAGE)


def cut_quotes(problems: list[Problem], data: Any) -> list[Problem]:
    """``problems`` about the request ``data``, a message that quotes an input
    value (the one at the problem's path) or key (one of the path's) longer than
    ``MAX_ECHO`` characters quoting its cut instead, and every text parameter cut
    the same way (only the first ``MAX_ERRORS`` are shown, and looked at)."""
    out = []
    for i, problem in enumerate(problems):
        message, params = problem.message, problem.params
        if i < MAX_ERRORS and len(message) > MAX_ECHO:
            for value in (*_values_at(data, problem.path), *problem.path):
                quoted = repr(value)
                if isinstance(value, str):
                    if len(value) > MAX_ECHO and quoted in message:
                        message = message.replace(quoted, f"{value[:MAX_ECHO]!r}… (cut from {len(value)} characters)")
                elif len(quoted) > MAX_ECHO and quoted in message:
                    message = message.replace(quoted, cut(quoted))
        if i < MAX_ERRORS and params and any(isinstance(v, str) and len(v) > MAX_ECHO for v in params.values()):
            params = {k: cut(v) if isinstance(v, str) else v for k, v in params.items()}
        if message is not problem.message or params is not problem.params:
            problem = Problem(problem.path, message, problem.code, params)
        out.append(problem)
    return out


def _values_at(data: Any, path: tuple[str | int, ...]) -> tuple[Any, ...]:
    """The value at ``path`` in ``data`` (in a 1-tuple), or () if there is none."""
    for key in path:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return ()
    return (data,)


def request_language() -> str:
    """The catalog the current request negotiated (``en`` outside a request)."""
    if not has_request_context():
        return i18n.DEFAULT
    environ = request._get_current_object().environ  # type: ignore[attr-defined]
    return i18n.negotiate(environ.get("HTTP_ACCEPT_LANGUAGE"))


def problem_body(
    status: int, code: str, params: Mapping[str, Any] | None = None, *,
    detail: str | None = None, errors: list[dict[str, str]] | None = None,
    type_: str = "about:blank", extra: Mapping[str, Any] | None = None, lang: str = i18n.DEFAULT,
) -> dict[str, Any]:
    """The problem+json document of ``code`` in ``lang`` (also what ``tractor-referee
    audit --json`` prints for a record it cannot adjudicate): title and detail from
    the catalogs (``detail`` names another detail text than the code's own)."""
    params = dict(params or {})
    title = i18n.text(lang, "title", code, params) or code
    body: dict[str, Any] = {
        "type": type_, "title": title, "status": status,
        "detail": i18n.text(lang, "detail", detail or code, params) or title,
        "code": code,
    }
    if extra:
        body.update(extra)
    if errors is not None:
        body["errors"] = errors
    return body


def problem_response(
    status: int, code: str, params: Mapping[str, Any] | None = None, *,
    detail: str | None = None, errors: list[dict[str, str]] | None = None,
    type_: str = "about:blank", headers: Mapping[str, str] | None = None,
    extra: Mapping[str, Any] | None = None, lang: str | None = None,
) -> Response:
    """A problem by ``code`` in the request's language (``problem_body``)."""
    if lang is None:
        lang = request_language()
    body = problem_body(status, code, params, detail=detail, errors=errors, type_=type_, extra=extra, lang=lang)
    return problem_json(body, lang, headers)


def problem_json(body: dict[str, Any], lang: str, headers: Mapping[str, str] | None = None) -> Response:
    """A problem document as the answer: problem+json, its language, ``headers``."""
    resp = Answer(orjson.dumps(body), status=body["status"], mimetype=PROBLEM_JSON).in_language(lang)
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


class ProblemError(Exception):
    """Answer the request with the problem ``code`` (app.py turns it into the response)."""

    def __init__(
        self, status: int, code: str, params: Mapping[str, Any] | None = None, *, detail: str | None = None
    ) -> None:
        super().__init__(code)
        self.status, self.code, self.params, self.detail = status, code, dict(params or {}), detail

    def response(self) -> Response:
        return problem_response(self.status, self.code, self.params, detail=self.detail)


def _marshmallow_problem(path: tuple[str | int, ...], message: object) -> Problem:
    if isinstance(message, Coded):
        return Problem(path, str(message), message.code, message.params)
    text = str(message)
    code = MARSHMALLOW_CODES.get(text, "invalid_value")
    if MESSAGE_PARAMS.get(text):
        return Problem(path, text, code, MESSAGE_PARAMS[text])
    if code == "unknown_field" and len(path) == 1 and path[0] in RENAMED:
        params = {"field": str(path[0]), "new": RENAMED[str(path[0])]}
        english = i18n.text(i18n.DEFAULT, "error+params", "renamed_field", params) or text
        return Problem(path, english, code="renamed_field", params=params)
    if code == "unknown_field" and len(path) == 1 and path[0] in BELONGS_INSIDE:
        params = {"field": str(path[0]), "parent": BELONGS_INSIDE[str(path[0])]}
        return Problem(path, i18n.text(i18n.DEFAULT, "error+params", code, params) or text, code, params)
    return Problem(path, text, code)


def messages_to_problems(messages: object, path: tuple[str | int, ...] = ()) -> list[Problem]:
    """Flatten marshmallow's nested error messages into located, coded problems.

    Unknown keys of one object are listed in sorted order (marshmallow lists them
    in the order of a set, which changes with the interpreter's hash seed), in the
    places marshmallow gave them, so the answer is the same on every worker.
    """
    if isinstance(messages, Mapping):
        out: list[Problem] = []
        items = list(messages.items())
        unknown = [i for i, (_, sub) in enumerate(items) if sub == [UNKNOWN_FIELD]]
        for i, item in zip(unknown, sorted((items[i] for i in unknown), key=lambda kv: str(kv[0])), strict=True):
            items[i] = item
        for key, sub in items:
            if key == "_schema":
                out += messages_to_problems(sub, path)
            else:
                out += messages_to_problems(sub, (*path, key))
        return out
    if isinstance(messages, list):
        out = []
        for item in messages:
            out += messages_to_problems(item, path)
        return out
    return [_marshmallow_problem(path, messages)]


def problems_to_messages(problems: list[Problem]) -> Any:
    """Engine problems (paths relative to one field) → marshmallow messages
    (``Coded``: the code and parameters travel with the text)."""
    if any(not p.path for p in problems):
        return [
            Coded(p.message if not p.path else f"{pointer(p.path)}: {p.message}", p.code, p.params)
            for p in problems
        ]
    tree: dict[Any, Any] = {}
    for p in problems:
        node = tree
        for key in p.path[:-1]:
            node = node.setdefault(key, {})
            if not isinstance(node, dict):  # pragma: no cover - leaf and branch at once
                break
        else:
            node.setdefault(p.path[-1], []).append(Coded(p.message, p.code, p.params))
    return tree


def invalid_body(problems: list[Problem], lang: str = i18n.DEFAULT) -> dict[str, Any]:
    """The 422 document for a request that cannot be adjudicated: the first
    ``MAX_ERRORS`` problems, and how many more there were."""
    errors = [
        {"pointer": shown_pointer(p.path), "code": p.code, "message": cut(i18n.message(p, lang), MAX_MESSAGE)}
        for p in problems[:MAX_ERRORS]
    ]
    first = errors[0]
    params: dict[str, Any] = {
        "where": first["pointer"] or i18n.text(lang, "detail", "request_body"),
        "message": first["message"],
        "more": len(problems) - 1,
    }
    omitted = len(problems) - len(errors)
    return problem_body(
        422, "invalid_request", params, detail="invalid_request_more" if len(problems) > 1 else None,
        errors=errors, type_=INVALID_TYPE, lang=lang, extra={"errors_omitted": omitted} if omitted else None,
    )


def invalid_response(problems: list[Problem], lang: str | None = None) -> Response:
    """The 422 for a request that cannot be adjudicated."""
    if lang is None:
        lang = request_language()
    return problem_json(invalid_body(problems, lang), lang)


def duplicate_key_body(path: tuple[str | int, ...], lang: str = i18n.DEFAULT) -> dict[str, Any]:
    """The 400 document for a body in which one object names a key twice."""
    where = shown_pointer(path)
    problem = Problem(path, "this key appears more than once in its object; send each key once", code="duplicate_key")
    return problem_body(
        400, "duplicate_key", {"pointer": where},
        errors=[{"pointer": where, "code": "duplicate_key", "message": i18n.message(problem, lang)}],
        type_=DUPLICATE_KEY_TYPE, lang=lang,
    )


def duplicate_key_response(path: tuple[str | int, ...]) -> Response:
    """The 400 for a body in which one object names a key twice."""
    lang = request_language()
    return problem_json(duplicate_key_body(path, lang), lang)


def invalid(exc: InvalidInput) -> Response:
    return invalid_response(exc.problems)
