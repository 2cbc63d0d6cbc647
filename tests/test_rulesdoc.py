"""docs/rules.md against the data it is generated from (service.rulesdoc).

The generated blocks must be exactly what ``python -m service.rulesdoc`` writes
now: the option model, the rule book's texts and the service's real answers to
the worked examples.  A change to any of them fails here until the document is
regenerated."""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any

import pytest

from service import rulebook, rulesdoc

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs/rules.md"
TEXT = DOC.read_text(encoding="utf-8")


def test_rules_md_is_what_the_generator_writes() -> None:
    fresh = rulesdoc.render(TEXT)
    if fresh != TEXT:
        diff = "\n".join(list(difflib.unified_diff(TEXT.splitlines(), fresh.splitlines(), lineterm=""))[:40])
        pytest.fail(f"docs/rules.md disagrees with the engine, service/rulebook.toml or the service's answers;\n"
                    f"run `{rulesdoc.COMMAND}` and review the change:\n{diff}")


def test_a_changed_answer_changes_the_document() -> None:
    changed = rulesdoc.render(TEXT, run=lambda endpoint, body: {"valid": True})
    assert changed != TEXT and '"valid": true' in changed


def test_an_example_the_service_refuses_is_an_error() -> None:
    with pytest.raises(rulesdoc.ExampleFailed, match="rulebook.toml"):
        rulesdoc.answer("/v1/throw", '{"rules": "two-deck"}')


def test_every_generated_block_is_in_the_document() -> None:
    present = re.findall(r"<!-- BEGIN GENERATED: ([\w§-]+) -->", TEXT)
    sections_with_options = {f"options-§{o.section}" for o in rulebook.options()}
    expected = sections_with_options | {"preset-table", "presets", "level-tables", "planned", "sources"}
    assert expected <= set(present), expected - set(present)
    assert len(present) == len(set(present))


def test_sections_one_to_ten_have_stable_anchors_in_order() -> None:
    anchors = re.findall(r'<a id="s(\d+)"></a>\n## §(\d+) ', TEXT)
    assert [(int(a), int(b)) for a, b in anchors] == [(n, n) for n in range(1, 11)]


def test_every_option_preset_and_planned_entry_is_written_down() -> None:
    for option in rulebook.options():
        assert f'<a id="option-{option.name}"></a>' in TEXT
    for preset in rulebook.presets():
        assert f'<a id="preset-{preset.name}"></a>' in TEXT
    planned = TEXT.split('<a id="not-yet-implemented"></a>')[1]
    for name in [*rulebook.texts()["planned"]["options"], *rulebook.texts()["planned"]["presets"]]:
        assert f"`{name}`" in planned
        assert f'id="option-{name}"' not in TEXT and f'id="preset-{name}"' not in TEXT


def test_every_link_inside_the_document_has_its_anchor() -> None:
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', TEXT))
    for target in re.findall(r"\]\(#([^)]+)\)", TEXT):
        assert target in anchors, f"docs/rules.md links to #{target}, which it does not have"


def _planned_requests() -> list[tuple[str, object]]:
    """What docs/rules.md lists as not yet implemented, and one option, value and
    preset no document names at all (the same refusal; the list may be empty)."""
    planned = rulebook.texts()["planned"]
    out: list[tuple[str, object]] = [
        ("an unknown option", {"preset": "two-deck", "tractors_everywhere": True}),
        ("an unknown value", {"preset": "two-deck", "throw_penalty": "points_per_trick"}),
        ("an unknown preset", "five-deck"),
    ]
    for name, entry in planned["options"].items():
        out.append((f"option {name}", {"preset": "two-deck", name: entry["default"]}))
    for name, values in planned["values"].items():
        out += [(f"{name} = {value}", {"preset": "two-deck", name: value}) for value in values]
    out += [(f"preset {name}", name) for name in planned["presets"]]
    return out


@pytest.mark.parametrize(("what", "rules"), _planned_requests(), ids=[w for w, _ in _planned_requests()])
def test_what_is_not_yet_implemented_is_refused_not_ignored(api: Any, what: str, rules: object) -> None:
    """docs/rules.md promises a 422 for every option, value and preset it lists
    as not yet implemented, as for any the referee does not know."""
    resp = api.post("/v1/analyze", {"rules": rules, "trump": {"level": "2", "suit": "S"}, "cards": ["AS"]})
    assert resp.status_code == 422, (what, resp.json)
    assert resp.json["errors"][0]["pointer"].startswith("/rules")
