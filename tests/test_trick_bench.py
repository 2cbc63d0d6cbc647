"""bench/engine.py stays runnable: every section on one deal per row, and main's table."""

from __future__ import annotations

import importlib.util
import random
import sys
from typing import Any

from tests.conftest import ROOT


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_engine", ROOT / "bench" / "engine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_engine"] = module
    spec.loader.exec_module(module)
    return module


def test_every_section_yields_rows(capsys: Any) -> None:
    bench = _bench()
    for name, section in bench.SECTIONS.items():
        rows = section(1, random.Random(7))
        assert rows, name
        assert all(len(r.times) == 1 and r.times[0] > 0 for r in rows)
    bench.main(["--runs", "1", "--only", "trick"])
    out = capsys.readouterr().out
    assert "trick+hands" in out and "median" in out
