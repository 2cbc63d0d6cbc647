"""``GET /docs``: Swagger UI served offline, and an example for every operation.

"Offline" is checked three ways: the page references nothing but this origin,
every file it references is served by the app itself (byte for byte the
package's copy), and its Content-Security-Policy forbids the browser any other
origin (no CDN, no online validator).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jsonschema
import pytest
import yaml

from service.docs import ASSETS, DIST

SPEC = yaml.safe_load((Path(__file__).resolve().parent.parent / "openapi.yaml").read_text(encoding="utf-8"))
HTTP_METHODS = ("get", "put", "post", "delete", "patch")


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.nonces: list[str] = []
        self.inline: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        for key in ("src", "href"):
            if a.get(key):
                self.refs.append(str(a[key]))
        if tag == "script":
            self._in_script = "src" not in a
            if a.get("nonce"):
                self.nonces.append(str(a["nonce"]))

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.inline.append(data)


@pytest.fixture()
def page(api: Any) -> tuple[Any, _Refs]:
    resp = api.get("/docs")
    assert resp.status_code == 200 and resp.mimetype == "text/html"
    refs = _Refs()
    refs.feed(resp.get_data(as_text=True))
    return resp, refs


def test_page_references_only_this_origin(page: tuple[Any, _Refs]) -> None:
    resp, refs = page
    html = resp.get_data(as_text=True)
    assert not re.search(r"(?i)\b(?:https?:)?//[a-z0-9.-]+", html), "an external URL in the page"
    assert refs.refs
    for ref in refs.refs:
        parts = urlsplit(ref)
        assert not parts.scheme and not parts.netloc and ref.startswith("/"), ref


def test_every_referenced_file_is_served_by_the_app(api: Any, page: tuple[Any, _Refs]) -> None:
    _, refs = page
    served = set()
    for ref in refs.refs:
        resp = api.client.get(ref)
        assert resp.status_code == 200, ref
        name = urlsplit(ref).path.rsplit("/", 1)[1]
        assert resp.get_data() == (DIST / name).read_bytes()
        assert resp.headers["Content-Type"] == ASSETS[name]
        served.add(name)
    assert "swagger-ui-bundle.js" in served and "swagger-ui.css" in served


def test_swagger_ui_is_told_to_stay_offline(page: tuple[Any, _Refs]) -> None:
    resp, refs = page
    (script,) = refs.inline
    assert '"validatorUrl": null' in script  # no badge from validator.swagger.io
    assert '"url": "/openapi.yaml"' in script
    csp = dict(part.strip().split(" ", 1) for part in resp.headers["Content-Security-Policy"].split(";"))
    assert csp["default-src"] == "'self'" and csp["connect-src"] == "'self'"
    assert csp["script-src"] == f"'self' 'nonce-{refs.nonces[0]}'"
    assert not re.search(r"https?:|\*", resp.headers["Content-Security-Policy"])


def test_the_documented_spec_is_served(api: Any) -> None:
    assert yaml.safe_load(api.get("/openapi.yaml").get_data()) == SPEC


def test_an_unknown_asset_is_a_404_problem(api: Any) -> None:
    resp = api.get("/docs/index.html")
    assert resp.status_code == 404 and resp.mimetype == "application/problem+json"


def test_every_bundled_asset_exists() -> None:
    for name in ASSETS:
        assert (DIST / name).is_file(), name
    assert SPEC["components"]["schemas"]["DocsAsset"]["enum"] == list(ASSETS)


# --- an example request for every operation -------------------------------------------

def _operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, op)
        for path, item in SPEC["paths"].items()
        for method, op in item.items()
        if method in HTTP_METHODS
    ]


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with every local $ref inlined into a registry-free form."""
    return {**schema, "components": SPEC["components"]}


def _request_examples(op: dict[str, Any]) -> list[Any]:
    media = op["requestBody"]["content"]["application/json"]
    found = [media["example"]] if "example" in media else []
    found += [e["value"] for e in media.get("examples", {}).values() if "value" in e]
    return found


BODIES = [(m, p, op) for m, p, op in _operations() if "requestBody" in op]
PARAMETERS = [(m, p, op) for m, p, op in _operations() if op.get("parameters")]


@pytest.mark.parametrize(("method", "path", "op"), BODIES, ids=[f"{m} {p}" for m, p, _ in BODIES])
def test_every_request_body_has_an_example_that_is_answered(api: Any, method: str, path: str,
                                                           op: dict[str, Any]) -> None:
    examples = _request_examples(op)
    assert examples, f"{method} {path}: add an `example` to its application/json request body"
    schema = op["requestBody"]["content"]["application/json"]["schema"]
    for example in examples:
        jsonschema.validate(example, _resolve(schema), cls=jsonschema.Draft202012Validator)
        resp = api.request(method, path, example, validate_request=True)
        assert resp.status_code == 200, (path, resp.get_json())


@pytest.mark.parametrize(("method", "path", "op"), PARAMETERS, ids=[f"{m} {p}" for m, p, _ in PARAMETERS])
def test_every_parameter_has_an_example_that_is_answered(api: Any, method: str, path: str,
                                                         op: dict[str, Any]) -> None:
    url = path
    for param in op["parameters"]:
        if "$ref" in param:  # '#/components/parameters/Name'
            param = SPEC["components"]["parameters"][param["$ref"].rsplit("/", 1)[1]]
        if not param.get("required"):
            # Swagger UI's "Try it out" would send an optional parameter's example
            # (Accept-Language: zh-CN turned every tried answer Chinese)
            assert "example" not in param and "examples" not in param, f"{method} {path}: {param['name']}"
            continue
        assert "example" in param or "examples" in param, f"{method} {path}: parameter {param['name']}"
        value = param["example"] if "example" in param else next(iter(param["examples"].values()))["value"]
        if param["in"] == "path":
            url = url.replace("{" + param["name"] + "}", str(value))
    assert "{" not in url
    if "requestBody" not in op:  # bodies are sent by the test above
        assert api.request(method, url, None).status_code == 200


def test_there_are_operations_to_document() -> None:
    assert ("POST", "/v1/analyze") in [(m, p) for m, p, _ in BODIES]
    assert ("GET", "/v1/rulesets/{name}") in [(m, p) for m, p, _ in PARAMETERS]
