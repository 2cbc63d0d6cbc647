"""Every reference in the repository points at a document in the repository.

The rules are cited as ``docs/rules.md §N`` (N = 1..10, the sections of
docs/rules.md) and the HTTP conventions as ``docs/api.md``; the design notes the
project started from are not in the repository and must not be cited, nor the
seed files by their file names (a seed is cited as "seed 000")."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP_DIRS = {".git", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache", "build", "dist",
             "node_modules", ".venv"}  # installed tools (.ci/node) are not the project's documents
TEXT_SUFFIXES = {".py", ".md", ".yaml", ".yml", ".toml", ".txt", ".cfg", ".ini", ".lock", ".json", ".sh", ""}
THIS = Path(__file__).resolve()

# Documents that live outside the repository (names built so this file does not cite them).
OUTSIDE = [
    (re.compile(r"\b" + "RULES" + r"\b"), "the rules spec: cite docs/rules.md §N"),
    (re.compile("API" + r"\.md"), "the API notes: cite docs/api.md"),
    (re.compile("STACK" + r"\.md"), "the stack notes: cite the README or bench/RESULTS.md"),
    (re.compile(r"\.\./" + "shared|/work/" + "shared"), "a folder outside the repository"),
    (re.compile(r"\bseeds/"), "the seed folder: cite a seed as 'seed 000'"),
    (re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b"), "a seed file: cite it as 'seed 000'"),
    (re.compile(r"design folder"), "the design notes: cite docs/"),
]
MD_REFERENCE = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.md)\b")
SECTION = re.compile(r"docs/rules\.md ?§(\d+)(?:[–-]§?(\d+))?")


def _files() -> list[Path]:
    out = []
    for path in ROOT.rglob("*"):
        if any(part in SKIP_DIRS or part.endswith(".egg-info") for part in path.relative_to(ROOT).parts):
            continue
        if path.is_file() and path.suffix in TEXT_SUFFIXES and path != THIS:
            out.append(path)
    return out


def test_nothing_cites_a_document_outside_the_repository() -> None:
    found = []
    for path in _files():
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for pattern, what in OUTSIDE:
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {what}: {line.strip()[:100]}")
    assert not found, "references to documents not in the repository:\n" + "\n".join(found)


def test_every_markdown_document_referenced_exists() -> None:
    missing = []
    for path in _files():
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for name in MD_REFERENCE.findall(line):
                candidates = {ROOT / name, path.parent / name}
                if any(c.is_file() for c in candidates):
                    continue
                missing.append(f"{path.relative_to(ROOT)}:{number}: {name}")
    assert not missing, "references to markdown files that do not exist:\n" + "\n".join(missing)


def test_every_cited_section_exists() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    sections = {int(n) for n in re.findall(r'<a id="s(\d+)"></a>', text)}
    bad = []
    for path in _files():
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for first, last in SECTION.findall(line):
                if not {int(first), int(last or first)} <= sections:
                    bad.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not bad, "citations of sections docs/rules.md does not have:\n" + "\n".join(bad)
