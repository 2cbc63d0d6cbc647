"""The rule book (service/rulebook.toml) against the engine's option model, and
what GET /v1/rulesets answers from it.

Every engine option, option value and preset has a text; every text names an
option, value or preset the engine has (or is listed as not yet implemented,
and then the engine must not have it yet)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import pytest

from engine import rules as engine_rules
from service import rulebook

BOOK = rulebook.texts()
TOML = "service/rulebook.toml"


def _key(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def test_every_engine_option_has_a_text_and_every_text_an_option() -> None:
    engine = set(rulebook.option_names())
    book = set(BOOK["options"])
    assert not engine - book, f"engine options without a text in {TOML}: {sorted(engine - book)}"
    assert not book - engine, f"texts in {TOML} for options the engine does not have: {sorted(book - engine)}"


def test_every_engine_preset_has_a_text_and_every_text_a_preset() -> None:
    engine = set(rulebook.preset_names())
    book = set(BOOK["presets"])
    assert not engine - book, f"engine presets without a text in {TOML}: {sorted(engine - book)}"
    assert not book - engine, f"texts in {TOML} for presets the engine does not have: {sorted(book - engine)}"


@pytest.mark.parametrize("name", rulebook.option_names())
def test_every_value_of_an_option_is_described_and_nothing_else(name: str) -> None:
    values = rulebook.engine_values(name)
    described = set(BOOK["options"][name].get("values", {}))
    expected = {_key(v) for v in values or ()}
    assert described == expected, (
        f"{name}: the engine's values {sorted(expected)}, {TOML} describes {sorted(described)}"
    )


def test_option_texts_are_complete() -> None:
    for option in rulebook.options():
        assert 1 <= option.section <= 10, option.name
        assert option.description.strip(), option.name
        unknown = set(option.sources) - set(BOOK["sources"])
        assert not unknown, f"{option.name} cites sources {TOML} does not describe: {unknown}"
    for preset in rulebook.presets():
        assert preset.description.strip() and preset.sources and preset.seeds.strip(), preset.name
        assert set(preset.sources) <= set(BOOK["sources"]), preset.name
        assert {"text", "endpoint", "body"} <= set(preset.example), preset.name


def test_planned_entries_are_not_implemented_yet() -> None:
    """What docs/rules.md lists as not yet implemented must really be absent:
    once the engine has it, its text moves to [options]/[presets]."""
    planned = BOOK["planned"]
    implemented = set(planned["options"]) & set(rulebook.option_names())
    assert not implemented, f"implemented now, move their texts out of [planned.options]: {implemented}"
    for name, values in planned["values"].items():
        done = {v for v in values if v in {_key(x) for x in rulebook.engine_values(name) or ()}}
        assert not done, f"{name}: values implemented now, move them to [options.{name}.values]: {done}"
    assert not set(planned["presets"]) & set(rulebook.preset_names())
    for entry in [*planned["options"].values(), *planned["presets"].values()]:
        assert set(entry["sources"]) <= set(BOOK["sources"])


def _texts() -> list[str]:
    out = []
    for entry in [*BOOK["options"].values(), *BOOK["planned"]["options"].values()]:
        out += [entry["description"], *entry.get("values", {}).values()]
    for entry in [*BOOK["presets"].values(), *BOOK["planned"]["presets"].values()]:
        out += [entry["description"], entry.get("example", {}).get("text", "")]
    for values in BOOK["planned"]["values"].values():
        out += list(values.values())
    return out


def test_every_option_name_a_text_mentions_exists() -> None:
    """A text that mentions an option or value by its snake_case name names a
    real one (an engine option or value, or a planned one)."""
    known = set(rulebook.option_names()) | set(BOOK["planned"]["options"])
    for name in rulebook.option_names():
        known |= {_key(v) for v in rulebook.engine_values(name) or ()}
    for values in [*(e.get("values", {}) for e in BOOK["planned"]["options"].values()), *BOOK["planned"]["values"].values()]:
        known |= set(values)
    for text in _texts():
        for word in re.findall(r"\b[a-z]+(?:_[a-z]+)+\b", text):
            assert word in known, f"{TOML} mentions {word!r}, which is no option or value: {text!r}"


def test_rulesets_answer_the_texts(api: Any) -> None:
    body = api.get("/v1/rulesets").json
    assert body["sources"] == BOOK["sources"]
    for name, option in body["options"].items():
        entry = BOOK["options"][name]
        assert option["description"] == entry["description"]
        assert option["sources"] == entry["sources"]
        assert option["doc"] == f"docs/rules.md#option-{name}"
        assert option["default"] == engine_rules.preset(body["default"]).as_json()[name]
        if option["choices"]:
            assert [v["value"] for v in option["values"]] == option["choices"]
    assert body["options"]["self_overturn"]["values"] == [
        {"value": True, "description": BOOK["options"]["self_overturn"]["values"]["true"]},
        {"value": False, "description": BOOK["options"]["self_overturn"]["values"]["false"]},
    ]
    assert body["options"]["decks"]["values"] is None
    for ruleset in body["rulesets"]:
        entry = BOOK["presets"][ruleset["name"]]
        assert ruleset["description"] == entry["description"]
        assert ruleset["sources"] == entry["sources"]
        assert ruleset["doc"] == f"docs/rules.md#preset-{ruleset['name']}"
    one = api.get("/v1/rulesets/four-deck-cgc").json
    assert one["sources"] == ["seed 002"] and one["description"] == BOOK["presets"]["four-deck-cgc"]["description"]



class _ThrowPenalty(StrEnum):
    NONE = "none"
    MATCH_POINT = "match_point"
    POINTS_PER_CARD = "points_per_card"


@dataclass(frozen=True)
class _TypedRules:
    throw_penalty: _ThrowPenalty
    self_reinforce: bool
    decks: int


class _TypedEngine:  # an engine whose Rules are typed, with no OPTIONS table
    Rules = _TypedRules


def test_the_option_model_is_read_generically_from_enums(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the engine's options become enums (StrEnum choices or Enum-typed
    Rules fields), the rule book reads the same JSON values."""
    option = engine_rules.OPTIONS["throw_penalty"]
    as_enum = engine_rules.Option(option.kind, _ThrowPenalty, help=option.help)
    monkeypatch.setitem(engine_rules.OPTIONS, "throw_penalty", as_enum)
    assert rulebook.engine_values("throw_penalty") == ("none", "match_point", "points_per_card")

    monkeypatch.setattr(rulebook, "engine_rules", _TypedEngine)
    assert rulebook.option_names() == ["throw_penalty", "self_reinforce", "decks"]
    assert rulebook.engine_values("throw_penalty") == ("none", "match_point", "points_per_card")
    assert rulebook.engine_values("self_reinforce") == (True, False)
    assert rulebook.engine_values("decks") is None
