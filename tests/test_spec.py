"""openapi.yaml is valid, and it and the app describe exactly the same routes."""

from __future__ import annotations

import re
from typing import Any

from openapi_spec_validator import validate

METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE"}


def test_spec_is_valid_openapi(spec_dict: dict[str, Any]) -> None:
    validate(spec_dict)


def _app_routes(app: Any) -> set[tuple[str, str]]:
    routes = set()
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        for method in rule.methods & METHODS:
            routes.add((method.lower(), path))
    return routes


def _spec_routes(spec_dict: dict[str, Any]) -> set[tuple[str, str]]:
    return {
        (method, path)
        for path, item in spec_dict["paths"].items()
        for method in item
        if method.upper() in METHODS
    }


def test_every_served_route_is_in_the_spec(app: Any, spec_dict: dict[str, Any]) -> None:
    assert _app_routes(app) - _spec_routes(spec_dict) == set()


def test_every_spec_route_is_served(app: Any, spec_dict: dict[str, Any]) -> None:
    assert _spec_routes(spec_dict) - _app_routes(app) == set()


def test_served_spec_is_the_file(api: Any, spec_dict: dict[str, Any]) -> None:
    import yaml

    resp = api.get("/openapi.yaml")
    assert resp.status_code == 200
    assert yaml.safe_load(resp.get_data()) == spec_dict
