"""engine/caches.py names every cache of the engine, with its bound."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import engine
from engine.caches import BYTE_BUDGET, CACHES, byte_bound


def _engine_caches() -> dict[str, Any]:
    found = {}
    for info in pkgutil.iter_modules(engine.__path__):
        module = importlib.import_module(f"engine.{info.name}")
        for name, value in vars(module).items():
            if callable(getattr(value, "cache_info", None)) and value.__module__ == module.__name__:
                found[f"{module.__name__}.{name}"] = value
    return found


def test_every_cache_is_listed_with_its_bound() -> None:
    listed = {f"{c.function.__module__}.{c.function.__name__}": c for c in CACHES}
    found = _engine_caches()
    assert sorted(found) == sorted(listed)
    for name, function in found.items():
        assert function.cache_info().maxsize == listed[name].bound, name


def test_only_the_presets_are_unbounded() -> None:
    assert [c.function.__name__ for c in CACHES if c.bound is None] == ["preset"]


def test_every_bounded_cache_has_a_measured_entry_size() -> None:
    """bench/cache_memory.py measures them; a new cache needs its figure."""
    assert [c.name for c in CACHES if c.entry_bytes > 0] == [c.name for c in CACHES if c.bound is not None]


def test_the_caches_full_stay_within_the_byte_budget() -> None:
    assert byte_bound() <= BYTE_BUDGET
