"""The costliest requests bench/worst.py found, replayed as regression cases.

``bench/worst_bodies.json`` holds, per endpoint, the body a bounded random
search plus hill-climbing found most expensive on a cold worker, and the CPU
time it took then.  Each must still be answered (200 or 422, never a 500) and
within a generous 1 s of CPU on a cold worker (every engine cache cleared, the
preload warm-up restored: ``bench.worst.ColdWorker``).  The target for every
request is 50 ms (issue 21), met since the work budget (``engine.budget``): the
worst found cost 25–35 ms (bench/RESULTS.md), the follow and trick ones being
refused 422 ``too_complex`` at the budget.  The limit catches a regression (a
search no longer bounded, or a body the engine can no longer answer), not the
target: CPU time on a shared machine is too noisy for 50 ms."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import orjson
import pytest

from bench.worst import SPACES, ColdWorker, search
from service.limits import MAX_BODY_BYTES

SAVED = Path(__file__).resolve().parent.parent / "bench" / "worst_bodies.json"
CASES: dict[str, dict[str, Any]] = json.loads(SAVED.read_text(encoding="utf-8"))
LIMIT_MS = 1000.0


@pytest.fixture(scope="module")
def worker() -> ColdWorker:
    return ColdWorker()


def test_every_searched_endpoint_has_its_worst_case() -> None:
    assert set(CASES) == set(SPACES)


@pytest.mark.parametrize("path", sorted(CASES))
def test_the_worst_body_found_is_answered_within_the_limit(worker: ColdWorker, path: str) -> None:
    case = CASES[path]
    assert len(json.dumps(case["body"], separators=(",", ":"), ensure_ascii=False).encode()) <= MAX_BODY_BYTES
    cpu_ms, status = min(worker.cost(path, case["body"]) for _ in range(2))
    assert status in (200, 422), (path, status)  # a 422 too_complex is a fair answer, a 500 never
    assert cpu_ms < LIMIT_MS, f"{path}: {cpu_ms:.0f} ms of CPU (found at {case['cpu_ms']} ms)"


@pytest.mark.parametrize("path", sorted(SPACES))
def test_the_search_keeps_within_the_limits(worker: ColdWorker, path: str) -> None:
    """bench/worst.py itself: a short search gives a body of the limits, answered."""
    found, tried = search(worker, SPACES[path], 0.2, random.Random(f"test{path}"))
    assert tried >= 1 and found.status in (200, 422) and found.cpu_ms > 0
    assert len(orjson.dumps(found.body)) <= MAX_BODY_BYTES
