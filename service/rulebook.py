"""The rule book: the engine's option model beside the texts that explain it.

The engine owns the options and presets (``engine.rules``: which options a
request accepts, their values, each preset's values); ``rulebook.toml`` beside
this module owns what they mean in plain language and where they come from.
This module joins the two for ``GET /v1/rulesets`` and for the generator of
``docs/rules.md`` (``service.rulesdoc``).  It reads the engine only through
its public objects and generically (an option's values from its choices,
whether those are strings or an ``Enum``; true/false for booleans), so the
texts keep matching when the engine's option types change.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from enum import Enum
from functools import cache
from importlib import resources
from typing import Any, get_type_hints

from engine import rules as engine_rules

DOC = "docs/rules.md"


@dataclass(frozen=True, slots=True)
class OptionModel:
    """One option as the engine defines it, with the rule book's texts."""

    name: str
    kind: str  # the engine's kind: int, bool, choice, ranks, level_table
    values: tuple[Any, ...] | None  # the JSON values of a choice or bool option
    minimum: int | None
    maximum: int | None
    section: int
    description: str
    value_descriptions: tuple[tuple[Any, str], ...]  # (JSON value, meaning)
    sources: tuple[str, ...]

    @property
    def anchor(self) -> str:
        return f"option-{self.name}"

    @property
    def doc(self) -> str:
        return f"{DOC}#{self.anchor}"


@dataclass(frozen=True, slots=True)
class PresetModel:
    """One preset: its values from the engine, its texts from the rule book."""

    name: str
    values: dict[str, Any]  # every option's JSON value
    description: str
    sources: tuple[str, ...]
    seeds: str  # the sources in one line, as GET /v1/rulesets gives them
    example: dict[str, str]  # text, endpoint, body (a JSON text)

    @property
    def anchor(self) -> str:
        return f"preset-{self.name}"

    @property
    def doc(self) -> str:
        return f"{DOC}#{self.anchor}"


@cache
def texts() -> dict[str, Any]:
    """``rulebook.toml``, parsed (shipped in the wheel beside this module)."""
    with resources.files("service").joinpath("rulebook.toml").open("rb") as fh:
        return tomllib.load(fh)


def _json_value(value: Any) -> Any:
    """An option value as JSON shows it (an Enum member by its value)."""
    return value.value if isinstance(value, Enum) else value


def option_names() -> list[str]:
    """The options a request may set, in the engine's order."""
    options = getattr(engine_rules, "OPTIONS", None)
    if options is not None:
        return list(options)
    return [f.name for f in fields(engine_rules.Rules) if f.compare and f.name != "preset"]


def engine_values(name: str) -> tuple[Any, ...] | None:
    """The JSON values an option takes when it has a fixed set, else None."""
    option = getattr(engine_rules, "OPTIONS", {}).get(name)
    choices = getattr(option, "choices", None)
    if choices:
        return tuple(_json_value(c) for c in choices)
    hint = get_type_hints(engine_rules.Rules).get(name)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return tuple(_json_value(m) for m in hint)
    if hint is bool or getattr(option, "kind", None) == "bool":
        return (True, False)
    return None


def _kind(name: str) -> str:
    option = getattr(engine_rules, "OPTIONS", {}).get(name)
    kind = getattr(option, "kind", None)
    if kind is not None:
        return str(kind)
    hint = get_type_hints(engine_rules.Rules).get(name)
    if hint is bool:
        return "bool"
    if hint is int:
        return "int"
    return "choice" if engine_values(name) else str(getattr(hint, "__name__", hint))


def _text_key(value: Any) -> str:
    """The key a value's meaning has in rulebook.toml (true/false as words)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@cache
def options() -> tuple[OptionModel, ...]:
    """Every engine option with its texts (KeyError: an option has no text)."""
    book = texts()["options"]
    out = []
    for name in option_names():
        entry = book[name]
        option = getattr(engine_rules, "OPTIONS", {}).get(name)
        values = engine_values(name)
        described = entry.get("values", {})
        out.append(
            OptionModel(
                name=name,
                kind=_kind(name),
                values=values,
                minimum=getattr(option, "minimum", None),
                maximum=getattr(option, "maximum", None),
                section=int(entry["section"]),
                description=entry["description"],
                value_descriptions=tuple((v, described[_text_key(v)]) for v in values or () if _text_key(v) in described),
                sources=tuple(entry["sources"]),
            )
        )
    return tuple(out)


def preset_names() -> list[str]:
    """The engine's presets, in its order."""
    return list(engine_rules.PRESET_VALUES)


def default_preset() -> str:
    return str(engine_rules.DEFAULT_PRESET)


@cache
def presets() -> tuple[PresetModel, ...]:
    """Every engine preset with its texts (KeyError: a preset has no text)."""
    book = texts()["presets"]
    return tuple(
        PresetModel(
            name=name,
            values=engine_rules.preset(name).as_json(),
            description=book[name]["description"],
            sources=tuple(book[name]["sources"]),
            seeds=book[name]["seeds"],
            example=dict(book[name]["example"]),
        )
        for name in preset_names()
    )


def option_json(option: OptionModel) -> dict[str, Any]:
    """The rule book's part of an option in ``GET /v1/rulesets``."""
    default = engine_rules.preset(default_preset()).as_json()[option.name]
    return {
        "description": option.description,
        "values": [{"value": v, "description": d} for v, d in option.value_descriptions] or None,
        "default": default,
        "sources": list(option.sources),
        "doc": option.doc,
    }


def preset_model(name: str) -> PresetModel:
    """The preset ``name`` with its texts."""
    return next(p for p in presets() if p.name == name)


def preset_json(name: str) -> dict[str, Any]:
    """The rule book's part of a preset in ``GET /v1/rulesets[/{name}]``."""
    model = preset_model(name)
    return {"description": model.description, "sources": list(model.sources), "doc": model.doc}


def sources() -> dict[str, str]:
    """What each cited source is (the seeds are not in the repository)."""
    return dict(texts()["sources"])
