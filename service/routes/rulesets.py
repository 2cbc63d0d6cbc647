"""``GET /v1/rulesets`` and ``GET /v1/rulesets/{name}``: the presets as data.

Option values come from the engine (``engine.rules``); what each option and
preset means, and its sources, from the rule book (``service.rulebook``).
"""

from __future__ import annotations

from typing import Any

from flask import jsonify

from engine.rules import OPTIONS, PRESET_VALUES, preset
from service import rulebook
from service.api import v1
from service.errors import ProblemError


def _ruleset(name: str) -> dict[str, Any]:
    seeds = rulebook.preset_model(name).seeds
    return {"name": name, "seeds": seeds, "options": preset(name).as_json()} | rulebook.preset_json(name)


@v1.get("/rulesets")
def get_rulesets() -> Any:
    described = {option.name: rulebook.option_json(option) for option in rulebook.options()}
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
                | described[name]
                for name, o in OPTIONS.items()
            },
            "sources": rulebook.sources(),
        }
    )


@v1.get("/rulesets/<name>")
def get_ruleset(name: str) -> Any:
    if name not in PRESET_VALUES:
        raise ProblemError(404, "not_found", {"name": name}, detail="unknown_preset")
    return jsonify(_ruleset(name))
