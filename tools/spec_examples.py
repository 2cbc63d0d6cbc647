"""openapi.yaml's response examples are the service's own answers.

Every operation's example request (its request body examples, its required
parameters' examples) is sent to the app; each JSON answer is an entry of the
``components/examples`` block that ends openapi.yaml, named after the operation
and the request example (``KittyLastLeadAnswer``), and each problem response
(``components/responses``) has the answer to a request that provokes it.
``tests/test_spec_examples.py`` checks that the block is exactly these answers;
after a change to an answer::

    python -m tools.spec_examples --write

rewrites the block (nothing else in the file).  An operation whose answer
varies (the docs page, the metrics, the version) carries an excerpt as an
inline ``example`` instead, checked by the test.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
SPEC_PATH = ROOT / "openapi.yaml"
MARKER = "  # --- examples: the service's own answers (python -m tools.spec_examples --write) ---\n"
WIDTH = 100
HTTP_METHODS = ("get", "put", "post", "delete", "patch")


@dataclass(frozen=True)
class Exchange:
    """One example request and the name of the example its answer is."""

    name: str
    source: str  # the operationId, or the problem response's name
    summary: str
    method: str
    url: str
    body: bytes | None = None
    content_type: str | None = "application/json"


def _problem(name: str, summary: str, method: str, url: str, body: bytes | None = None,
             content_type: str = "application/json") -> Exchange:
    return Exchange(f"{name}Answer", name, summary, method, url, body, content_type)


# a request that provokes each shared problem response (components/responses)
PROBLEMS: dict[str, Exchange] = {
    ex.source: ex
    for ex in (
        _problem("ClientError", "a method the path does not take", "DELETE", "/healthz"),
        _problem("BadRequest", "a body that is not JSON", "POST", "/v1/analyze", b"{"),
        _problem("NotFound", "a preset that does not exist", "GET", "/v1/rulesets/five-deck"),
        _problem("TooLarge", "a body over the limit", "POST", "/v1/analyze", b" " * 70_000),
        _problem("UnsupportedMediaType", "a body sent as text/plain", "POST", "/v1/analyze", b"{}", "text/plain"),
        _problem("Unprocessable", "a card that does not exist", "POST", "/v1/analyze",
                 json.dumps({"trump": {"level": "2", "suit": "S"}, "cards": ["AS", "1S"]}).encode()),
    )
}


def load_spec(path: Path = SPEC_PATH) -> dict[str, Any]:
    spec: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return spec


def operations(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method in HTTP_METHODS:
                yield method.upper(), path, op


def success(op: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The first 2xx response's first media type and its media object."""
    status = min(code for code in op["responses"] if str(code).startswith("2"))
    content = op["responses"][status].get("content") or {}
    media_type = next(iter(content))
    return media_type, content[media_type]


def _title(word: str) -> str:
    return word[:1].upper() + word[1:]


def request_examples(op: dict[str, Any]) -> list[tuple[str, Any]]:
    """(name, value) of each request body example; ("", value) for a lone ``example``."""
    if "requestBody" not in op:
        return [("", None)]
    media = op["requestBody"]["content"]["application/json"]
    if "example" in media:
        return [("", media["example"])]
    return [(name, ex["value"]) for name, ex in media["examples"].items()]


def path_url(path: str, op: dict[str, Any]) -> str:
    for param in op.get("parameters", ()):
        if "$ref" not in param and param["in"] == "path":
            path = path.replace("{" + param["name"] + "}", str(param["example"]))
    return path


def exchanges(spec: dict[str, Any]) -> list[Exchange]:
    """Every example request whose answer belongs in the examples block."""
    found = []
    for method, path, op in operations(spec):
        media_type, media = success(op)
        if media_type != "application/json" or "example" in media:  # an excerpt, written by hand
            continue
        for name, body in request_examples(op):
            found.append(Exchange(
                f"{_title(op['operationId'])}{_title(name)}Answer", op["operationId"],
                f"the answer to the {name or 'example'} request of {op['operationId']}",
                method, path_url(path, op),
                None if body is None else json.dumps(body, ensure_ascii=False).encode(),
            ))
    return found + list(PROBLEMS.values())


def answer(client: Any, exchange: Exchange) -> Any:
    resp = client.open(exchange.url, method=exchange.method, data=exchange.body,
                       content_type=exchange.content_type if exchange.body is not None else None)
    return json.loads(resp.get_data())


def answers(spec: dict[str, Any]) -> dict[str, tuple[str, Any]]:
    """Example name → (summary, the service's answer)."""
    from service.app import create_app

    client = create_app({"TESTING": True, "ACCESS_LOG": False}).test_client()
    return {ex.name: (ex.summary, answer(client, ex)) for ex in exchanges(spec)}


def _flow(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def flow_yaml(value: Any, indent: int) -> str:
    """YAML of ``value``: a collection that fits on its line stays on it (in JSON
    flow style, which is YAML), a longer one is broken into block style."""
    pad = " " * indent
    out = []
    items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
    for key, item in items:
        head = pad + ("- " if key is None else (key if key.isidentifier() else _flow(key)) + ": ")
        text = _flow(item)
        if not isinstance(item, dict | list) or not item or len(head) + len(text) <= WIDTH:
            out.append(head + text + "\n")
        elif key is None:
            out.append(head + flow_yaml(item, indent + 2)[indent + 2:])
        else:
            out.append(head.rstrip() + "\n" + flow_yaml(item, indent + 2))
    return "".join(out)


def block(found: dict[str, tuple[str, Any]]) -> str:
    """The ``components/examples`` block, from its marker to the end of the file."""
    parts = [MARKER, "  examples:\n"]
    for name, (summary, value) in found.items():
        parts.append(f"    {name}:\n      summary: {_flow(summary)}\n")
        if isinstance(value, dict | list) and value:
            parts.append("      value:\n" + flow_yaml(value, 8))
        else:
            parts.append(f"      value: {_flow(value)}\n")
    return "".join(parts)


def current_block(text: str) -> str:
    return text[text.index(MARKER):] if MARKER in text else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the examples block of openapi.yaml")
    args = parser.parse_args(argv)
    text = SPEC_PATH.read_text(encoding="utf-8")
    new = block(answers(load_spec()))
    if current_block(text) == new:
        print("openapi.yaml: the examples are the service's answers")
        return 0
    if not args.write:
        print("openapi.yaml: examples differ from the answers; run python -m tools.spec_examples --write")
        return 1
    head = text[: text.index(MARKER)] if MARKER in text else text.rstrip("\n") + "\n"
    SPEC_PATH.write_text(head + new, encoding="utf-8")
    print("openapi.yaml: examples rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
