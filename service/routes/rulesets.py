"""``GET /v1/rulesets`` and ``GET /v1/rulesets/{name}``: the presets as data."""

from __future__ import annotations

from typing import Any

from flask import jsonify

from engine.rules import OPTIONS, PRESET_SEEDS, PRESET_VALUES, preset
from service.api import v1
from service.errors import ProblemError


def _ruleset(name: str) -> dict[str, Any]:
    return {"name": name, "seeds": PRESET_SEEDS[name], "options": preset(name).as_json()}


@v1.get("/rulesets")
def get_rulesets() -> Any:
    return jsonify(
        {
            "default": "two-deck",
            "rulesets": [_ruleset(name) for name in PRESET_VALUES],
            "options": {
                name: {
                    "kind": o.kind,
                    "choices": list(o.choices) or None,
                    "minimum": o.minimum,
                    "maximum": o.maximum,
                    "help": o.help,
                }
                for name, o in OPTIONS.items()
            },
        }
    )


@v1.get("/rulesets/<name>")
def get_ruleset(name: str) -> Any:
    if name not in PRESET_VALUES:
        raise ProblemError(404, "not_found", {"name": name}, detail="unknown_preset")
    return jsonify(_ruleset(name))
