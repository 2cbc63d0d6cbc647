"""openapi.yaml is valid, and it and the app describe exactly the same routes.

Also what a validator lets pass but generators, linters and readers trip on: a
plain YAML scalar with ``, `` inside ``{…}`` becomes a key of its own (the
description is cut short and the schema gains a keyword that is no keyword),
and ``allOf`` wrapped around a single ``$ref``.
"""

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


def test_served_json_spec_is_the_same_document(api: Any, spec_dict: dict[str, Any]) -> None:
    resp = api.get("/openapi.json")
    assert resp.status_code == 200 and resp.mimetype == "application/json"
    assert resp.get_json() == spec_dict


# JSON Schema 2020-12 keywords and OpenAPI 3.1's additions to a Schema Object
SCHEMA_KEYWORDS = frozenset(
    """$ref $defs $schema $id $comment $anchor $dynamicRef $dynamicAnchor $vocabulary
    type enum const title description default examples example deprecated readOnly writeOnly
    allOf anyOf oneOf not if then else properties patternProperties additionalProperties
    propertyNames unevaluatedProperties required minProperties maxProperties dependentRequired
    dependentSchemas items prefixItems contains minContains maxContains minItems maxItems
    uniqueItems unevaluatedItems minimum maximum exclusiveMinimum exclusiveMaximum multipleOf
    minLength maxLength pattern format contentEncoding contentMediaType contentSchema
    discriminator xml externalDocs""".split()
)
SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
SUBSCHEMA_MAPS = ("properties", "patternProperties", "$defs", "dependentSchemas")
SUBSCHEMAS = ("items", "additionalProperties", "not", "if", "then", "else", "contains",
              "propertyNames", "unevaluatedProperties", "unevaluatedItems", "contentSchema")


def _schemas(spec_dict: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every schema object of the document, with where it is."""
    found: list[tuple[str, dict[str, Any]]] = []

    def visit(where: str, schema: Any) -> None:
        if not isinstance(schema, dict):
            return
        found.append((where, schema))
        for key in SUBSCHEMA_LISTS:
            for i, sub in enumerate(schema.get(key, ())):
                visit(f"{where}/{key}/{i}", sub)
        for key in SUBSCHEMA_MAPS:
            for name, sub in (schema.get(key) or {}).items():
                visit(f"{where}/{key}/{name}", sub)
        for key in SUBSCHEMAS:
            visit(f"{where}/{key}", schema.get(key))

    def walk(where: str, node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "schema" or (key == "schemas" and where == "/components"):
                    if key == "schema":
                        visit(f"{where}/schema", value)
                    else:
                        for name, sub in value.items():
                            visit(f"{where}/schemas/{name}", sub)
                else:
                    walk(f"{where}/{key}", value)
        elif isinstance(node, list):
            for i, item in enumerate(node):
                walk(f"{where}/{i}", item)

    walk("", spec_dict)
    return found


def test_every_schema_key_is_a_keyword(spec_dict: dict[str, Any]) -> None:
    """A description like ``{type: integer, description: points, kitty included}``
    parses as the key ``kitty included``: quote it."""
    schemas = _schemas(spec_dict)
    assert len(schemas) > 300
    stray = [(where, key) for where, schema in schemas for key in schema
             if key not in SCHEMA_KEYWORDS and not key.startswith("x-")]
    assert stray == []


def test_no_allof_wraps_a_single_schema(spec_dict: dict[str, Any]) -> None:
    """``allOf: [{$ref: X}]`` is ``$ref: X`` (siblings such as ``description`` are
    allowed beside a ``$ref`` in OpenAPI 3.1); the wrapper only confuses generators."""
    wrapped = [where for where, schema in _schemas(spec_dict) if len(schema.get("allOf", ())) == 1]
    assert wrapped == []


def test_spec_version_is_the_package_version(spec_dict: dict[str, Any]) -> None:
    from importlib.metadata import version

    assert spec_dict["info"]["version"] == version("tractor-referee")
