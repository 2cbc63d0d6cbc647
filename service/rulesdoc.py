"""Write the generated parts of ``docs/rules.md`` from the engine and the rule book.

``python -m service.rulesdoc`` rewrites, between the markers
``<!-- BEGIN GENERATED: name -->`` and ``<!-- END GENERATED: name -->``, every
part that data decides: each section's option entries (values, default, the
presets' values, sources), the option values of every preset, the level tables,
each preset with its worked example (the request is sent to the service and its
real answer written down), what is not yet implemented and the sources.
``python -m service.rulesdoc --check`` only says whether the file is current
(tests/test_rulesdoc.py runs the same check).  The prose outside the markers is
written by hand.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from collections.abc import Callable
from functools import cache, partial
from pathlib import Path
from typing import Any

from service import rulebook

DEFAULT_PATH = Path("docs/rules.md")
COMMAND = "python -m service.rulesdoc"
_BLOCK = re.compile(
    r"(<!-- BEGIN GENERATED: (?P<name>[\w§-]+) -->\n)(?P<body>.*?)(<!-- END GENERATED: (?P=name) -->)",
    re.S,
)
WIDTH = 96  # a JSON value longer than this is spread over lines


class ExampleFailed(Exception):
    """A preset's example request is no longer answered 200."""


# ---------------------------------------------------------------- values


def show(value: Any) -> str:
    """An option value as the document shows it."""
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if isinstance(value, dict) and "bands" in value:
        name = value.get("name")
        return f"[`{name}`](#table-{name})" if name else "a custom table"
    if isinstance(value, list):
        return ", ".join(f"`{v}`" for v in value) if value else "none"
    return f"`{value}`"


def _by_preset(name: str) -> dict[str, list[str]]:
    """The option's value in each preset, grouped: shown value → preset names."""
    groups: dict[str, list[str]] = {}
    for preset in rulebook.presets():
        groups.setdefault(show(preset.values[name]), []).append(preset.name)
    return groups


_OPTION_NAME = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def linked(text: str) -> str:
    """A rule book text with each option it names linked to that option's entry."""
    implemented = set(rulebook.option_names())
    planned = set(rulebook.texts()["planned"]["options"])

    def link(match: re.Match[str]) -> str:
        name = match[0]
        if name in implemented:
            return f"[`{name}`](#option-{name})"
        if name in planned:
            return f"[`{name}`](#not-yet-implemented)"
        return name

    return _OPTION_NAME.sub(link, text)


def _presets_text(names: list[str]) -> str:
    every = rulebook.preset_names()
    if len(names) == len(every):
        return "every preset"
    if len(names) > len(every) // 2:
        others = [n for n in every if n not in names]
        return "every preset but " + ", ".join(f"[`{n}`](#preset-{n})" for n in others)
    return ", ".join(f"[`{n}`](#preset-{n})" for n in names)


def _range_text(option: rulebook.OptionModel) -> str:
    if option.kind == "int":
        low, high = option.minimum, option.maximum
        if low is not None and high is not None:
            return f"an integer from {low} to {high}"
        return f"an integer, at least {low}" if low is not None else "an integer"
    if option.kind == "ranks":
        return 'a list of ranks such as `["2"]` (empty: none)'
    if option.kind == "level_table":
        names = sorted({p.values[option.name].get("name") for p in rulebook.presets()} - {None})
        listed = ", ".join(f"[`{n}`](#table-{n})" for n in names)
        return f"a table's name ({listed}) or a table of its own (`bands` and `step`, §8)"
    return option.kind


def _default(option: rulebook.OptionModel) -> Any:
    return next(p for p in rulebook.presets() if p.name == rulebook.default_preset()).values[option.name]


def option_entry(option: rulebook.OptionModel) -> str:
    """One option: what it does, its values, its default, each preset's value, its sources."""
    lines = [f'<a id="{option.anchor}"></a>', f"#### `{option.name}`", "", linked(option.description), ""]
    default = show(_default(option))
    groups = _by_preset(option.name)
    if option.value_descriptions:
        lines += ["| value | meaning | presets |", "|---|---|---|"]
        for value, meaning in option.value_descriptions:
            shown = show(value)
            mark = " (default)" if shown == default else ""
            lines.append(f"| {shown}{mark} | {linked(meaning)} | {_presets_text(groups.get(shown, [])) or '–'} |")
        lines.append("")
    else:
        lines.append(f"Values: {_range_text(option)}. Default: {default}.")
        lines.append("By preset: " + "; ".join(f"{v} in {_presets_text(n)}" for v, n in groups.items()) + ".")
        lines.append("")
    lines.append(f"Sources: {_sources_text(option.sources)}.")
    return "\n".join(lines)


def _sources_text(sources: tuple[str, ...] | list[str]) -> str:
    return ", ".join(sources) if sources else "a house option, in none of the sources"


def options_block(section: int) -> str:
    entries = [option_entry(o) for o in rulebook.options() if o.section == section]
    return "\n\n".join(entries)


# ---------------------------------------------------------------- presets


def preset_table() -> str:
    """Every option's value in every preset (the defaults first)."""
    presets = rulebook.presets()
    head = "| option | " + " | ".join(f"[`{p.name}`](#preset-{p.name})" for p in presets) + " |"
    lines = [head, "|---" * (len(presets) + 1) + "|"]
    for option in rulebook.options():
        cells = [show(p.values[option.name]) for p in presets]
        lines.append(f"| [`{option.name}`](#{option.anchor}) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def pretty(value: Any, indent: int = 0) -> str:
    """JSON, one line where it fits in WIDTH, else one member per line."""
    text = _compact(value)
    if len(text) + indent <= WIDTH or not isinstance(value, (dict, list)) or not value:
        return text
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{_compact(k)}: {pretty(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + pretty(v, indent + 2) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


@cache
def _client() -> Any:
    """One test client of the real app for every example (built on first use)."""
    from service.app import create_app

    return create_app({"TESTING": True, "ACCESS_LOG": False}).test_client()


def answer(endpoint: str, body: str) -> dict[str, Any]:
    """The service's real answer to an example request (English)."""
    resp = _client().post(endpoint, data=body, content_type="application/json", headers={"Accept-Language": "en"})
    if resp.status_code != 200:
        raise ExampleFailed(
            f"POST {endpoint} {body} is answered {resp.status_code}: {resp.get_data(as_text=True)}; "
            f"fix the example request in service/rulebook.toml, then run {COMMAND}"
        )
    result: dict[str, Any] = resp.get_json()
    return result


def _differences(preset: rulebook.PresetModel) -> str:
    default = next(p for p in rulebook.presets() if p.name == rulebook.default_preset())
    changed = [
        f"[`{o.name}`](#{o.anchor}) {show(preset.values[o.name])}"
        for o in rulebook.options()
        if preset.values[o.name] != default.values[o.name]
    ]
    if preset.name == default.name:
        return "This is the default preset: a request without `rules` gets it."
    return f"Differs from [`{default.name}`](#preset-{default.name}) in: " + "; ".join(changed) + "."


def presets_block(run: Callable[[str, str], dict[str, Any]] = answer) -> str:
    parts = []
    for preset in rulebook.presets():
        example = preset.example
        request = json.loads(example["body"])
        parts.append(
            "\n".join(
                [
                    f'<a id="{preset.anchor}"></a>',
                    f"### `{preset.name}`",
                    "",
                    linked(preset.description),
                    "",
                    _differences(preset),
                    "",
                    f"Sources: {_sources_text(preset.sources)}.",
                    "",
                    f"**Example.** {linked(example['text'])}",
                    "",
                    f"`POST {example['endpoint']}`",
                    "",
                    "```json",
                    pretty(request),
                    "```",
                    "",
                    "answers `200`:",
                    "",
                    "```json",
                    pretty(run(example["endpoint"], example["body"])),
                    "```",
                ]
            )
        )
    return "\n\n".join(parts)


def _points(band: dict[str, Any]) -> str:
    start, end = band["from"], band["to"]
    if start is None:
        return f"{end - 5} or less"
    if end is None:
        return f"{start} or more"
    return f"{start}–{end - 5}"


def _outcome(band: dict[str, Any]) -> str:
    if band["side"] == "dealer":
        return f"the dealer's side keeps the deal, +{band['levels']}"
    return f"the defenders take over, +{band['levels']}"


def level_tables_block() -> str:
    tables: dict[str, tuple[dict[str, Any], list[str]]] = {}
    for preset in rulebook.presets():
        table = preset.values["level_table"]
        tables.setdefault(table["name"], (table, []))[1].append(preset.name)
    parts = []
    for name, (table, users) in tables.items():
        lines = [
            f'<a id="table-{name}"></a>',
            f"#### Level table `{name}` (used by {_presets_text(users)})",
            "",
            "| defenders' points | result |",
            "|---|---|",
        ]
        lines += [f"| {_points(b)} | {_outcome(b)} |" for b in table["bands"]]
        if table["step"]:
            last = table["bands"][-1]
            lines += ["", f"From {last['from']} on, every further {table['step']} points is one more level."]
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


# ---------------------------------------------------------------- not yet implemented, sources


def planned_block() -> str:
    planned = rulebook.texts()["planned"]
    if not (planned["options"] or any(planned["values"].values()) or planned["presets"]):
        return "Nothing at present: every option, value and preset the sources describe is implemented."
    lines = ["| option | § | what it will do | values | default | sources |", "|---|---|---|---|---|---|"]
    for name, entry in planned["options"].items():
        values = "<br>".join(f"`{v}`: {linked(d)}" for v, d in entry.get("values", {}).items()) or "–"
        lines.append(
            f"| `{name}` | [§{entry['section']}](#s{entry['section']}) | {linked(entry['description'])} | {values} "
            f"| {show(entry['default'])} | {_sources_text(entry['sources'])} |"
        )
    if any(planned["values"].values()):
        lines += ["", "New values of implemented options:", "", "| option | value | what it will do |", "|---|---|---|"]
        for name, values in planned["values"].items():
            for value, meaning in values.items():
                lines.append(f"| [`{name}`](#option-{name}) | `{value}` | {linked(meaning)} |")
    if planned["presets"]:
        lines += ["", "Presets:", "", "| preset | what it will be | sources |", "|---|---|---|"]
        for name, entry in planned["presets"].items():
            lines.append(f"| `{name}` | {linked(entry['description'])} | {_sources_text(entry['sources'])} |")
    return "\n".join(lines)


def sources_block() -> str:
    return "\n".join(f"- **{name}**: {text}." for name, text in rulebook.sources().items())


def blocks(run: Callable[[str, str], dict[str, Any]] = answer) -> dict[str, Callable[[], str]]:
    """Every generated block by its marker name (built lazily)."""
    out: dict[str, Callable[[], str]] = {f"options-§{n}": partial(options_block, n) for n in range(1, 11)}
    out.update(
        {
            "preset-table": preset_table,
            "presets": lambda: presets_block(run),
            "level-tables": level_tables_block,
            "planned": planned_block,
            "sources": sources_block,
        }
    )
    return out


def render(text: str, run: Callable[[str, str], dict[str, Any]] = answer) -> str:
    """``text`` with every generated block rewritten (unknown markers are an error)."""
    known = blocks(run)

    def fill(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in known:
            raise KeyError(f"docs/rules.md has a block {name!r} that {COMMAND} does not know")
        body = known[name]()
        return f"{match[1]}{body}\n{match[4]}" if body else f"{match[1]}{match[4]}"

    return _BLOCK.sub(fill, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n")[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT_PATH)
    parser.add_argument("--check", action="store_true", help="only report whether the file is current")
    args = parser.parse_args(argv)
    current = args.path.read_text(encoding="utf-8")
    fresh = render(current)
    if fresh == current:
        print(f"{args.path} is current")
        return 0
    if args.check:
        diff = difflib.unified_diff(current.splitlines(), fresh.splitlines(), "written", "generated", lineterm="")
        print("\n".join(list(diff)[:60]))
        print(f"{args.path} is out of date: run {COMMAND}", file=sys.stderr)
        return 1
    args.path.write_text(fresh, encoding="utf-8")
    print(f"{args.path} rewritten")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
