"""Shared fixtures: the real app, and a client whose every response is checked
against openapi.yaml (openapi-core) before a test sees it; and how the suite is
shared between pytest-xdist's workers (``-n 2 --dist loadgroup``, pyproject.toml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml
from openapi_core import OpenAPI
from openapi_core.testing import MockRequest, MockResponse

from service.app import create_app

ROOT = Path(__file__).resolve().parent.parent
SPEC_PATH = ROOT / "openapi.yaml"

# Modules whose tests go to whichever xdist worker is free, one by one: each is
# dominated by a few slow, independent tests (schemathesis' operations, hypothesis
# properties, generated deals) and has no module-scoped fixture, so spreading them
# evens out the two workers' loads. Every other module runs whole on one worker:
# its module fixtures (a browser, a generated client, a served app) start once and
# its tests keep their order.
SPREAD = frozenset({
    "test_fuzz.py", "test_trick_properties.py", "test_follow_properties.py", "test_units.py",
    "test_fields_fast_paths.py", "test_error_bounds.py", "test_throw_properties.py", "test_fastload.py",
    "test_level_constant_tractors.py",
})


@pytest.hookimpl(tryfirst=True)  # before xdist's worker reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Group each test by its file for ``--dist loadgroup``, except in SPREAD."""
    for item in items:
        if item.path.name not in SPREAD:
            item.add_marker(pytest.mark.xdist_group(str(item.path.relative_to(ROOT))))


@pytest.fixture(scope="session")
def spec_dict() -> dict[str, Any]:
    return yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def openapi(spec_dict: dict[str, Any]) -> OpenAPI:
    api = OpenAPI.from_dict(spec_dict)
    deserializers = {
        "application/problem+json": orjson.loads,
        "application/yaml": yaml.safe_load,
    }
    api.config.extra_media_type_deserializers = deserializers  # type: ignore[attr-defined]
    return OpenAPI.from_dict(spec_dict, config=api.config)


@pytest.fixture(scope="session")
def app() -> Any:
    return create_app({"TESTING": True})


class SpecClient:
    """Sends requests through the Flask test client and validates each
    response (and, for 2xx, the request) against the OpenAPI document."""

    def __init__(self, app: Any, openapi: OpenAPI) -> None:
        self.client = app.test_client()
        self.openapi = openapi

    def request(
        self, method: str, path: str, json: Any = None, *, data: bytes | str | None = None,
        content_type: str = "application/json", headers: dict[str, str] | None = None,
        validate_request: bool | None = None,
    ) -> Any:
        body: bytes | str | None = data
        if json is not None:
            body = orjson.dumps(json)
        resp = self.client.open(
            path, method=method, data=body,
            content_type=content_type if body is not None else None, headers=headers or {},
        )
        mock_req = MockRequest(
            "http://localhost", method.lower(), path,
            data=body if isinstance(body, bytes) else (body or "").encode(),
            content_type=content_type if body is not None else "application/json",
        )
        mock_resp = MockResponse(resp.get_data(), status_code=resp.status_code,
                                 content_type=resp.mimetype)
        self.openapi.validate_response(mock_req, mock_resp)
        if validate_request or (validate_request is None and resp.status_code < 300 and method != "GET"):
            self.openapi.validate_request(mock_req)
        return resp

    def post(self, path: str, json: Any = None, **kw: Any) -> Any:
        return self.request("POST", path, json, **kw)

    def get(self, path: str, **kw: Any) -> Any:
        return self.request("GET", path, **kw)


@pytest.fixture()
def api(app: Any, openapi: OpenAPI) -> SpecClient:
    return SpecClient(app, openapi)
