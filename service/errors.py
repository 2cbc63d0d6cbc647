"""RFC 9457 problem+json for every error the service answers.

422s carry ``errors: [{"pointer", "message"}]`` with JSON Pointers into the
request, built from marshmallow's nested messages or the engine's problem paths.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import orjson
from flask import Response

from engine.errors import InvalidInput, Problem

PROBLEM_JSON = "application/problem+json"
INVALID_TYPE = "urn:tractor-referee:problem:invalid-request"


def pointer(path: Iterable[str | int]) -> str:
    """JSON Pointer (RFC 6901) of a path of keys and indices."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def problem_body(
    status: int, title: str, detail: str, errors: list[dict[str, str]] | None = None,
    type_: str = "about:blank",
) -> dict[str, Any]:
    """The problem+json document (also what ``tractor-referee audit --json`` prints
    for a record it cannot adjudicate)."""
    body: dict[str, Any] = {"type": type_, "title": title, "status": status, "detail": detail}
    if errors is not None:
        body["errors"] = errors
    return body


def problem_response(
    status: int, title: str, detail: str, errors: list[dict[str, str]] | None = None,
    type_: str = "about:blank", headers: Mapping[str, str] | None = None,
) -> Response:
    body = problem_body(status, title, detail, errors, type_)
    resp = Response(orjson.dumps(body), status=status, mimetype=PROBLEM_JSON)
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def messages_to_problems(messages: object, path: tuple[str | int, ...] = ()) -> list[Problem]:
    """Flatten marshmallow's nested error messages into located problems."""
    if isinstance(messages, Mapping):
        out: list[Problem] = []
        for key, sub in messages.items():
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
    return [Problem(path, str(messages))]


def problems_to_messages(problems: list[Problem]) -> Any:
    """Engine problems (paths relative to one field) → marshmallow messages."""
    if any(not p.path for p in problems):
        return [p.message if not p.path else f"{pointer(p.path)}: {p.message}" for p in problems]
    tree: dict[Any, Any] = {}
    for p in problems:
        node = tree
        for key in p.path[:-1]:
            node = node.setdefault(key, {})
            if not isinstance(node, dict):  # pragma: no cover - leaf and branch at once
                break
        else:
            node.setdefault(p.path[-1], []).append(p.message)
    return tree


def invalid_body(problems: list[Problem]) -> dict[str, Any]:
    """The 422 document for a request that cannot be adjudicated."""
    errors = [{"pointer": pointer(p.path), "message": p.message} for p in problems]
    first = errors[0]
    where = first["pointer"] or "the request body"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return problem_body(422, "Unprocessable request", f"{where}: {first['message']}{more}", errors, INVALID_TYPE)


def invalid_response(problems: list[Problem]) -> Response:
    """The 422 for a request that cannot be adjudicated."""
    return Response(orjson.dumps(invalid_body(problems)), status=422, mimetype=PROBLEM_JSON)


def invalid(exc: InvalidInput) -> Response:
    return invalid_response(exc.problems)
