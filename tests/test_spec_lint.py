"""``redocly lint`` (npm ``@redocly/cli``, pinned in ``.ci/node/package.json``)
finds nothing in openapi.yaml under ``redocly.yaml`` (the recommended rules,
warnings as errors).

``.ci/run`` installs the tool into ``.ci/node/node_modules`` when npm is there
(``npm ci --prefix .ci/node``); without node and npm, or before that install,
the test is skipped and says how to run it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NODE_TOOLS = ROOT / ".ci" / "node"
REDOCLY = NODE_TOOLS / "node_modules" / ".bin" / "redocly"
PINNED = json.loads((NODE_TOOLS / "package.json").read_text(encoding="utf-8"))["devDependencies"]["@redocly/cli"]


def _redocly() -> str:
    if REDOCLY.exists() and shutil.which("node"):
        return str(REDOCLY)
    if not (shutil.which("node") and shutil.which("npm")):
        pytest.skip("redocly lint needs node and npm (not found): install them, then `npm ci --prefix .ci/node`")
    pytest.skip("redocly is not installed: run `npm ci --prefix .ci/node` (.ci/run does)")


def lint(path: Path) -> dict[str, object]:
    """redocly's JSON report on ``path`` under the project's redocly.yaml."""
    env = {**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true", "NO_COLOR": "1"}
    done = subprocess.run(
        [_redocly(), "lint", str(path), "--config", str(ROOT / "redocly.yaml"), "--format", "json"],
        capture_output=True, text=True, timeout=120, env=env, cwd=ROOT,
    )
    start = done.stdout.find("{")
    assert start >= 0, (done.returncode, done.stdout, done.stderr)
    report: dict[str, object] = json.loads(done.stdout[start:])
    return report


def test_the_spec_lints_clean() -> None:
    report = lint(ROOT / "openapi.yaml")
    assert report["version"] == PINNED
    problems = [(p["ruleId"], p["message"], p["location"][0]["pointer"]) for p in report["problems"]]  # type: ignore[attr-defined,index]
    assert problems == []
    assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}


def test_the_linter_finds_a_cut_description(tmp_path: Path) -> None:
    """The check can fail: a description cut at a comma (the bug it is here for)."""
    spec = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    plain = "{type: integer, minimum: 0}"
    assert plain in spec
    broken = tmp_path / "openapi.yaml"
    cut = "{type: integer, minimum: 0, description: points, kitty included}"
    broken.write_text(spec.replace(plain, cut, 1), encoding="utf-8")
    report = lint(broken)
    assert "struct" in {p["ruleId"] for p in report["problems"]}  # type: ignore[attr-defined]
