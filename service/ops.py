"""Operations endpoints: health, readiness, the version and the OpenAPI document (YAML and JSON)."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import orjson
import yaml
from flask import Blueprint, Response, jsonify

from engine.rules import PRESET_VALUES, preset
from engine.trump import Trump, trump_order
from service.answer import Answer
from service.build import git_commit, package_version

ops = Blueprint("ops", __name__)


def spec_text() -> bytes:
    """``openapi.yaml``: beside the package in a checkout, inside it when installed."""
    local = Path(__file__).resolve().parent.parent / "openapi.yaml"
    if local.is_file():
        return local.read_bytes()
    return resources.files("service").joinpath("openapi.yaml").read_bytes()


@cache
def spec_json() -> bytes:
    """``openapi.yaml`` as JSON: the same document, read once per process."""
    return orjson.dumps(yaml.safe_load(spec_text()))


def warm_engine() -> None:
    """Load every preset and its trump orders (what /readyz reports)."""
    for name in PRESET_VALUES:
        rules = preset(name)
        for level in range(13):
            for suit in (None, 0, 1, 2, 3):
                trump_order(Trump(level, suit), rules)


@ops.get("/healthz")
def healthz() -> Any:
    return jsonify({"status": "ok"})


@ops.get("/readyz")
def readyz() -> Any:
    warm_engine()  # cached after the first call: a no-op once ready
    return jsonify({"status": "ready", "presets": len(PRESET_VALUES)})


@ops.get("/version")
def version() -> Any:
    return jsonify({"version": package_version(), "commit": git_commit(), "presets": len(PRESET_VALUES)})


@ops.get("/openapi.yaml")
def openapi_yaml() -> Response:
    return Answer(spec_text(), mimetype="application/yaml")


@ops.get("/openapi.json")
def openapi_json() -> Response:
    return Answer(spec_json(), mimetype="application/json")
