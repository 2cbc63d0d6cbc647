"""engine/ is a pure rules library: no web framework, no schema library, no I/O."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "engine"
BANNED = {"flask", "marshmallow", "werkzeug", "gunicorn", "orjson", "service", "socket", "requests"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_no_framework() -> None:
    offenders = {
        str(p.relative_to(ENGINE)): sorted(_imports(p) & BANNED) for p in sorted(ENGINE.rglob("*.py"))
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_engine_opens_no_files() -> None:
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = [
            n for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in {"open", "print", "input"}
        ]
        assert not calls, f"{path.name} does I/O"


def test_engine_is_strictly_typed() -> None:
    """mypy --strict over engine/ (pyproject.toml [tool.mypy]): the rules text keeps its types honest."""
    from mypy import api

    out, err, status = api.run(["--config-file", str(ENGINE.parent / "pyproject.toml"), str(ENGINE)])
    assert status == 0, out + err


def test_ruff_is_clean() -> None:
    """The lint rules in pyproject.toml (including the ban on web imports in engine/)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--quiet", str(ENGINE.parent)],
                          capture_output=True, text=True, cwd=ENGINE.parent)
    assert done.returncode == 0, done.stdout + done.stderr
