"""RFC 9457 problem+json for every error the service answers.

422s carry ``errors: [{"pointer", "message"}]`` with JSON Pointers into the
request, built from marshmallow's nested messages or the engine's problem paths.

An error body stays small whatever the request: at most ``MAX_ERRORS`` entries
(``errors_omitted`` counts the rest), and an input value or key it quotes, in a
pointer or a message, is cut to ``MAX_ECHO`` characters with a note that it was
cut (a 60 KB preset name is not echoed back).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import orjson
from flask import Response
from marshmallow import Schema

from engine.errors import InvalidInput, Problem

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
    ``MAX_ECHO`` characters quoting its cut instead (only the first ``MAX_ERRORS``
    are shown, and looked at)."""
    out = []
    for i, problem in enumerate(problems):
        message = problem.message
        if i < MAX_ERRORS and len(message) > MAX_ECHO:
            for value in (*_values_at(data, problem.path), *problem.path):
                quoted = repr(value)
                if isinstance(value, str):
                    if len(value) > MAX_ECHO and quoted in message:
                        message = message.replace(quoted, f"{value[:MAX_ECHO]!r}… (cut from {len(value)} characters)")
                elif len(quoted) > MAX_ECHO and quoted in message:
                    message = message.replace(quoted, cut(quoted))
            if message is not problem.message:
                problem = Problem(problem.path, message)
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


def problem_response(
    status: int, title: str, detail: str, errors: list[dict[str, str]] | None = None,
    type_: str = "about:blank", headers: Mapping[str, str] | None = None, omitted: int = 0,
) -> Response:
    body: dict[str, Any] = {"type": type_, "title": title, "status": status, "detail": detail}
    if errors is not None:
        body["errors"] = errors
    if omitted:
        body["errors_omitted"] = omitted
    resp = Response(orjson.dumps(body), status=status, mimetype=PROBLEM_JSON)
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def messages_to_problems(messages: object, path: tuple[str | int, ...] = ()) -> list[Problem]:
    """Flatten marshmallow's nested error messages into located problems.

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


def invalid_response(problems: list[Problem]) -> Response:
    """The 422 for a request that cannot be adjudicated: the first ``MAX_ERRORS``
    problems, and how many more there were."""
    errors = [
        {"pointer": shown_pointer(p.path), "message": cut(p.message, MAX_MESSAGE)} for p in problems[:MAX_ERRORS]
    ]
    first = errors[0]
    where = first["pointer"] or "the request body"
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return problem_response(
        422, "Unprocessable request", f"{where}: {first['message']}{more}", errors, INVALID_TYPE,
        omitted=len(problems) - len(errors),
    )


def duplicate_key_response(path: tuple[str | int, ...]) -> Response:
    """The 400 for a body in which one object names a key twice."""
    where = shown_pointer(path)
    message = "this key appears more than once in its object; send each key once"
    return problem_response(
        400, "Bad Request", f"{where}: {message}", [{"pointer": where, "message": message}], DUPLICATE_KEY_TYPE
    )


def invalid(exc: InvalidInput) -> Response:
    return invalid_response(exc.problems)
