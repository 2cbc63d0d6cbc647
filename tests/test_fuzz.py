"""Schemathesis fuzzes every operation of openapi.yaml against the app, in process.

The operations come from the spec itself, so an endpoint added to openapi.yaml
is fuzzed without touching this file.  For each one it sends the spec's
examples, boundary values and generated requests, both schema-valid and
schema-violating, and checks (schemathesis' default checks):

- no 5xx, ever;
- every status, content type, header and body conforms to the spec;
- a request that violates the spec is rejected (4xx) — the app is at least as
  strict as the spec, so the spec's ``enum``/``pattern``/``maxItems`` are real;
- a schema-valid request is answered 2xx or 422 (a valid-looking request the
  rules cannot adjudicate, e.g. five copies of a card in a two-deck game), never
  400/413/415.

Budget: ``FUZZ_EXAMPLES`` generated examples per operation and mode (default
25); runs are derandomized (reproducible in CI) unless ``FUZZ_RANDOM=1``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import schemathesis
import yaml
from hypothesis import settings
from schemathesis.config import SchemathesisConfig

from service.app import create_app

SPEC = Path(__file__).resolve().parent.parent / "openapi.yaml"
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "25"))
HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}

CONFIG = SchemathesisConfig.from_dict(
    {
        "generation": {
            "mode": "all",  # positive and negative
            "max-examples": EXAMPLES,
            "deterministic": not os.environ.get("FUZZ_RANDOM"),
        },
        "checks": {
            # the rules, not the schema, reject e.g. too many copies of a card: a 422
            "positive_data_acceptance": {"expected-statuses": ["2xx", "422"]},
        },
    }
)

schema = schemathesis.openapi.from_path(SPEC, config=CONFIG)
schema.app = create_app({"ACCESS_LOG": False})


@schema.parametrize()
@settings(deadline=None)
def test_fuzz(case: Any) -> None:
    # schemathesis calls the WSGI app directly and does not undo a gzip encoding, as an
    # HTTP client would: ask for the answers as they are (tests/test_compression.py has gzip)
    case.call_and_validate(headers={"Accept-Encoding": "identity"})


def test_fuzz_covers_every_operation() -> None:
    spec = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    in_spec = {
        (method.upper(), path)
        for path, item in spec["paths"].items()
        for method in item
        if method in HTTP_METHODS
    }
    fuzzed = {(op.ok().method.upper(), op.ok().path) for op in schema.get_all_operations()}
    assert fuzzed == in_spec
