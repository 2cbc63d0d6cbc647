"""A client generated from openapi.yaml drives every endpoint of the running service.

``openapi-python-client`` generates a Python client into a temporary folder
(with ``--fail-on-warning``, and any warning in its output fails the test: an
operation or schema the generator cannot read is left out of the client); the
app is served on 127.0.0.1 on a free port; every operation of the spec is
called through the generated client with its example request, and the parsed
answer must be the service's JSON (and, where the spec shows the answer, that
example).  A request body goes in as the generated model built from the
example, and must come back out of the model unchanged.
"""

from __future__ import annotations

import enum
import importlib
import json
import re
import subprocess
import sys
import types
import typing
from collections.abc import Iterator
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import served
from tools import spec_examples as tool

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "tests" / "openapi-python-client.yaml"
PACKAGE = "referee_client"
SPEC = tool.load_spec()
OPERATIONS = list(tool.operations(SPEC))


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[types.ModuleType]:
    out = tmp_path_factory.mktemp("generated") / PACKAGE
    done = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(tool.SPEC_PATH),
         "--meta", "none", "--output-path", str(out), "--config", str(CONFIG), "--fail-on-warning"],
        capture_output=True, text=True, timeout=300,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert not re.search(r"(?i)warning|unable to|could not|will not be generated|error", output), output
    sys.path.insert(0, str(out.parent))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out.parent))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def base_url(app: Any) -> Iterator[str]:
    with served(app) as url:
        yield url


@pytest.fixture(scope="module")
def client(generated: types.ModuleType, base_url: str) -> Any:
    return generated.Client(base_url=base_url, raise_on_unexpected_status=True, timeout=30.0)


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def endpoint(generated: types.ModuleType, op: dict[str, Any]) -> types.ModuleType:
    (tag,) = op["tags"]
    return importlib.import_module(f"{generated.__name__}.api.{tag}.{snake(op['operationId'])}")


def as_model(annotation: Any, example: Any) -> Any:
    """The generated model (of the body's possible types) that carries the example unchanged."""
    for candidate in typing.get_args(annotation) or (annotation,):
        try:
            model = candidate.from_dict(example)
        except (KeyError, TypeError, ValueError):
            continue
        if model.to_dict() == example:
            return model
    raise AssertionError(f"no generated model of {annotation} carries {example}")


def call(module: types.ModuleType, client: Any, op: dict[str, Any], body: Any) -> Any:
    hints = typing.get_type_hints(module.sync_detailed)
    kwargs: dict[str, Any] = {"client": client}
    for param in op.get("parameters", ()):
        if "$ref" not in param and param["in"] == "path":
            kind = hints[param["name"]]
            value = param["example"]
            kwargs[param["name"]] = kind(value) if isinstance(kind, type) and issubclass(kind, enum.Enum) else value
    if "requestBody" in op:
        kwargs["body"] = as_model(hints["body"], body)
    return module.sync_detailed(**kwargs)


def test_every_operation_is_in_the_generated_client(generated: types.ModuleType) -> None:
    for _method, _path, op in OPERATIONS:
        assert hasattr(endpoint(generated, op), "sync_detailed"), op["operationId"]


CALLS = [(m, p, op, name, body) for m, p, op in OPERATIONS for name, body in tool.request_examples(op)]


@pytest.mark.parametrize(("method", "path", "op", "name", "body"), CALLS,
                         ids=[f"{m} {p} {n}".strip() for m, p, _, n, _ in CALLS])
def test_every_endpoint_answers_through_the_generated_client(
    generated: types.ModuleType, client: Any, method: str, path: str, op: dict[str, Any], name: str, body: Any,
) -> None:
    resp = call(endpoint(generated, op), client, op, body)
    assert resp.status_code == HTTPStatus.OK, resp.content[:500]
    media_type, media = tool.success(op)
    if media_type == "application/json":
        answer = json.loads(resp.content)
        assert resp.parsed.to_dict() == answer  # parsed into the generated model, nothing lost
        if "example" not in media:
            ref = media["examples"][name or "answer"]["$ref"]  # the answer the spec shows for this request
            shown = SPEC["components"]["examples"][ref.removeprefix("#/components/examples/")]
            assert answer == shown["value"]
    elif "schema" in media:  # text: parsed as the text itself
        assert resp.parsed == resp.content.decode("utf-8") and resp.parsed
    else:  # a file without a schema: the generator leaves the bytes to the caller
        assert resp.parsed is None and resp.content


def test_a_problem_is_parsed_as_a_problem(generated: types.ModuleType, client: Any) -> None:
    from_spec = SPEC["components"]["examples"]["UnprocessableAnswer"]["value"]
    module = importlib.import_module(f"{generated.__name__}.api.adjudication.analyze")
    request = json.loads(tool.PROBLEMS["Unprocessable"].body or b"")
    resp = call(module, client, {"requestBody": {}}, request)
    assert resp.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert type(resp.parsed).__name__ == "Problem"
    assert resp.parsed.to_dict() == json.loads(resp.content) == from_spec
