"""Every operation of openapi.yaml shows a response example, and each is the
service's own answer to the operation's example request.

The JSON answers live in the ``components/examples`` block that ends the file
(``tools/spec_examples.py`` writes it: ``python -m tools.spec_examples --write``);
an answer that varies from run to run (the docs page's nonce, the metrics, the
commit in the version, the document itself) is shown by an inline excerpt
instead: an object whose keys the answer has with the same values, or text
whose lines appear in the answer in that order (``…`` stands for anything).
"""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema
import pytest
import yaml

from tools import spec_examples as tool

SPEC = tool.load_spec()
EXCHANGES = tool.exchanges(SPEC)
OPERATIONS = list(tool.operations(SPEC))
IDS = [f"{m} {p}" for m, p, _ in OPERATIONS]


@pytest.fixture(scope="module")
def client(app: Any) -> Any:
    c = app.test_client()
    c.get("/healthz")  # the metrics excerpt shows this request's count
    return c


def _deref(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        *_, section, name = node["$ref"].split("/")
        node = SPEC["components"][section][name]
    return node


def _validate(value: Any, schema: dict[str, Any]) -> None:
    jsonschema.validate(value, {**schema, "components": SPEC["components"]}, cls=jsonschema.Draft202012Validator)


def _examples(media: dict[str, Any]) -> dict[str, Any]:
    if "example" in media:
        return {"": media["example"]}
    return {name: _deref(ex)["value"] for name, ex in media.get("examples", {}).items()}


@pytest.mark.parametrize(("method", "path", "op"), OPERATIONS, ids=IDS)
def test_every_operation_shows_an_answer_that_fits_its_schema(method: str, path: str, op: dict[str, Any]) -> None:
    media_type, media = tool.success(op)
    examples = _examples(media)
    assert examples, f"{method} {path}: no response example ({media_type})"
    for value in examples.values():
        if "example" not in media:  # an excerpt is a part of an answer, not one
            _validate(value, media["schema"])
    if media_type == "application/json" and "example" not in media:
        refs = {_ref_name(ex) for ex in media["examples"].values()}
        assert refs == {ex.name for ex in EXCHANGES if ex.source == op["operationId"]}


def _ref_name(example: dict[str, Any]) -> str:
    return str(example["$ref"]).rsplit("/", 1)[1]


@pytest.mark.parametrize("name", list(tool.PROBLEMS))
def test_every_problem_response_shows_an_answer(name: str) -> None:
    (media,) = SPEC["components"]["responses"][name]["content"].values()
    (example,) = media["examples"].values()
    assert _ref_name(example) == tool.PROBLEMS[name].name and tool.PROBLEMS[name].source == name
    _validate(_deref(example)["value"], media["schema"])


def test_the_examples_block_is_exactly_the_answers() -> None:
    """No stale example is left, and the block is what the tool writes."""
    assert list(SPEC["components"]["examples"]) == [ex.name for ex in EXCHANGES]
    text = tool.SPEC_PATH.read_text(encoding="utf-8")
    assert tool.current_block(text) == tool.block(tool.answers(SPEC)), "run python -m tools.spec_examples --write"


@pytest.mark.parametrize("exchange", EXCHANGES, ids=[ex.name for ex in EXCHANGES])
def test_each_example_is_the_answer_to_its_request(client: Any, exchange: tool.Exchange) -> None:
    shown = SPEC["components"]["examples"][exchange.name]["value"]
    answer = tool.answer(client, exchange)
    assert shown == answer, (
        f"openapi.yaml's {exchange.name} is not what {exchange.method} {exchange.url} answers; "
        "run python -m tools.spec_examples --write\n" + tool.flow_yaml({"value": answer}, 6)
    )


EXCERPTS = [(m, p, op) for m, p, op in OPERATIONS if "example" in tool.success(op)[1]]


@pytest.mark.parametrize(("method", "path", "op"), EXCERPTS, ids=[f"{m} {p}" for m, p, _ in EXCERPTS])
def test_each_excerpt_is_in_the_answer(client: Any, method: str, path: str, op: dict[str, Any]) -> None:
    media_type, media = tool.success(op)
    resp = client.open(tool.path_url(path, op), method=method)
    assert resp.status_code == 200 and resp.mimetype == media_type
    excerpt = media["example"]
    if isinstance(excerpt, dict):
        answer = json.loads(resp.get_data()) if media_type == "application/json" else yaml.safe_load(resp.get_data())
        assert_part_of(excerpt, answer)
    else:
        assert_lines_in_order(excerpt, resp.get_data(as_text=True))


def assert_part_of(excerpt: Any, answer: Any, where: str = "") -> None:
    """Every key of the excerpt is in the answer with the same value (recursively)."""
    if isinstance(excerpt, dict):
        assert isinstance(answer, dict), where
        for key, value in excerpt.items():
            assert key in answer, f"{where}/{key}"
            assert_part_of(value, answer[key], f"{where}/{key}")
    elif excerpt != "…":  # "…": any value
        assert excerpt == answer, where


def assert_lines_in_order(excerpt: str, text: str) -> None:
    lines = text.splitlines()
    at = 0
    for line in excerpt.splitlines():
        if line == "…":
            continue
        pattern = re.compile(".*".join(re.escape(part) for part in line.split("…")))
        for i in range(at, len(lines)):
            if pattern.fullmatch(lines[i]):
                at = i + 1
                break
        else:
            raise AssertionError(f"not in the answer (after line {at}): {line!r}")


def test_an_excerpt_line_that_is_not_there_is_found_missing() -> None:
    assert_lines_in_order("a\n…\nc…", "a\nb\ncd")
    with pytest.raises(AssertionError):
        assert_lines_in_order("c\na", "a\nb\nc")
    with pytest.raises(AssertionError):
        assert_lines_in_order("b…x", "a\nb\nc")


def test_an_excerpt_value_that_differs_is_found() -> None:
    assert_part_of({"info": {"version": "1"}}, {"info": {"version": "1", "title": "t"}, "openapi": "3.1.0"})
    assert_part_of({"commit": "…"}, {"commit": "c9172ea"})
    with pytest.raises(AssertionError):
        assert_part_of({"info": {"version": "2"}}, {"info": {"version": "1"}})
    with pytest.raises(AssertionError):
        assert_part_of({"commit": "…"}, {})
