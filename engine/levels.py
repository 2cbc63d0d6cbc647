"""Level tables (docs/rules.md §8): bands of the defenders' points.

A table is a list of half-open bands ``[from, to)`` of the defenders' final
points, each saying which side gains how many levels (the defenders taking
over the deal whenever the band is theirs), plus an open-ended ``step``: past
the last band's ``from``, every further ``step`` points is one more level.
The first band starts at minus infinity (``from`` None) and the last one is
open-ended (``to`` None), so every score falls in exactly one band.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import InvalidInput, Problem

SIDES = ("dealer", "defenders")
POINT_LIMIT = 1_000_000  # band bounds and steps stay far inside exact JSON integers
MAX_LEVELS = 13  # 2 → A and past it: more is never a level change


@dataclass(frozen=True, slots=True)
class Band:
    """Points in ``[start, end)`` (None = unbounded) give ``side`` ``levels``."""

    start: int | None
    end: int | None
    side: str
    levels: int

    def contains(self, points: int) -> bool:
        return (self.start is None or points >= self.start) and (
            self.end is None or points < self.end
        )

    def as_json(self) -> dict[str, Any]:
        return {"from": self.start, "to": self.end, "side": self.side, "levels": self.levels}


@dataclass(frozen=True, slots=True)
class LevelTable:
    """An ordered, gap-free list of bands plus the open-ended step."""

    bands: tuple[Band, ...]
    step: int | None
    name: str | None = None

    def band_for(self, points: int) -> Band:
        """The band ``points`` falls in (there is always exactly one)."""
        for band in self.bands:
            if band.contains(points):
                return band
        raise AssertionError("validated tables cover every score")  # pragma: no cover

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "bands": [b.as_json() for b in self.bands],
            "step": self.step,
        }


def _b(start: int | None, end: int | None, side: str, levels: int) -> Band:
    return Band(start, end, side, levels)


# Points are multiples of 5, so a band ending at 5 means "0 or less" (大光).
LEVEL_TABLES: dict[str, LevelTable] = {
    # seeds 000, 001, 003, 004: 40-point bands
    "two-deck": LevelTable(
        (
            _b(None, 5, "dealer", 3),
            _b(5, 40, "dealer", 2),
            _b(40, 80, "dealer", 1),
            _b(80, 120, "defenders", 0),
            _b(120, 160, "defenders", 1),
            _b(160, None, "defenders", 2),
        ),
        40,
        "two-deck",
    ),
    # seeds 000 and 003: 60-point bands, 120 to take over
    "three-deck": LevelTable(
        (
            _b(None, 5, "dealer", 3),
            _b(5, 60, "dealer", 2),
            _b(60, 120, "dealer", 1),
            _b(120, 180, "defenders", 0),
            _b(180, None, "defenders", 1),
        ),
        60,
        "three-deck",
    ),
    # seed 000 四副: taking over at 160 already gains a level; no cap
    "four-deck": LevelTable(
        (
            _b(None, 5, "dealer", 3),
            _b(5, 80, "dealer", 2),
            _b(80, 160, "dealer", 1),
            _b(160, None, "defenders", 1),
        ),
        80,
        "four-deck",
    ),
    # seed 002 §胜负判断: 160 takes over, 240 +1, 320 +2 (例: from 2 to 4)
    "four-deck-cgc": LevelTable(
        (
            _b(None, 5, "dealer", 3),
            _b(5, 80, "dealer", 2),
            _b(80, 160, "dealer", 1),
            _b(160, 240, "defenders", 0),
            _b(240, None, "defenders", 1),
        ),
        80,
        "four-deck-cgc",
    ),
    # seed 000: one deck in 20-point bands
    "one-deck": LevelTable(
        (
            _b(None, 5, "dealer", 3),
            _b(5, 20, "dealer", 2),
            _b(20, 40, "dealer", 1),
            _b(40, 60, "defenders", 0),
            _b(60, None, "defenders", 1),
        ),
        20,
        "one-deck",
    ),
    # seeds 001 and 003: 80-95 → +1, 100 → +2, no further step
    "one-deck-lianzhong": LevelTable(
        (
            _b(None, 5, "dealer", 2),
            _b(5, 40, "dealer", 1),
            _b(40, 80, "defenders", 0),
            _b(80, 100, "defenders", 1),
            _b(100, None, "defenders", 2),
        ),
        None,
        "one-deck-lianzhong",
    ),
    # the Botzone 双升 judge's match score read as levels: 80 takes over with a level, 160 gives 3; no step
    "botzone": LevelTable(
        (
            _b(None, 5, "dealer", 3),
            _b(5, 40, "dealer", 2),
            _b(40, 80, "dealer", 1),
            _b(80, 120, "defenders", 1),
            _b(120, 160, "defenders", 2),
            _b(160, None, "defenders", 3),
        ),
        None,
        "botzone",
    ),
}


def _int_or_none(value: object, path: tuple[str | int, ...], problems: list[Problem]) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(Problem(path, "must be an integer or null", code="invalid_level_table"))
        return None
    if not -POINT_LIMIT <= value <= POINT_LIMIT or value % 5:
        problems.append(Problem(path, f"must be a multiple of 5 between {-POINT_LIMIT} and {POINT_LIMIT}", code="invalid_level_table"))
        return None
    return value


def level_table_from_json(value: object) -> LevelTable:
    """A table by name, or a caller's own ``{"bands": [...], "step": n}``, validated.

    Paths in errors are relative to the option's value.
    """
    if isinstance(value, str):
        if value in LEVEL_TABLES:
            return LEVEL_TABLES[value]
        raise InvalidInput(
            Problem((), f"unknown level table {value!r}; known: {', '.join(LEVEL_TABLES)}", code="unknown_level_table")
        )
    if not isinstance(value, Mapping):
        raise InvalidInput(Problem((), "a level table is a table name or an object with bands and step", code="invalid_level_table"))
    problems: list[Problem] = []
    unknown = set(value) - {"bands", "step", "name"}
    problems += [Problem((k,), "unknown field of a level table", code="unknown_field") for k in sorted(unknown)]
    if "step" not in value:
        problems.append(Problem(("step",), "step is required (null for no further levels)", code="missing_field"))
    if value.get("name") is not None and not isinstance(value.get("name"), str):
        problems.append(Problem(("name",), "name must be a string or null", code="invalid_level_table"))
    raw_bands = value.get("bands")
    step = _int_or_none(value.get("step"), ("step",), problems)
    if step is not None and step <= 0:
        problems.append(Problem(("step",), "step must be positive (or null for no further levels)", code="invalid_level_table"))
    if not isinstance(raw_bands, list) or not raw_bands:
        problems.append(Problem(("bands",), "bands must be a non-empty array", code="invalid_level_table"))
        raise InvalidInput(problems)
    bands: list[Band] = []
    for i, raw in enumerate(raw_bands):
        at = ("bands", i)
        if not isinstance(raw, Mapping):
            problems.append(Problem(at, "a band is an object with from, to, side, levels", code="invalid_level_table"))
            continue
        extra = set(raw) - {"from", "to", "side", "levels"}
        problems += [Problem((*at, k), "unknown field of a band", code="unknown_field") for k in sorted(extra)]
        problems += [
            Problem((*at, k), f"{k} is required (null for unbounded)", code="missing_field") for k in ("from", "to") if k not in raw
        ]
        start = _int_or_none(raw.get("from"), (*at, "from"), problems)
        end = _int_or_none(raw.get("to"), (*at, "to"), problems)
        side = raw.get("side")
        if side not in SIDES:
            problems.append(Problem((*at, "side"), "side must be 'dealer' or 'defenders'", code="invalid_level_table"))
        levels = raw.get("levels")
        if isinstance(levels, bool) or not isinstance(levels, int) or not 0 <= levels <= MAX_LEVELS:
            problems.append(Problem((*at, "levels"), f"levels must be an integer from 0 to {MAX_LEVELS}", code="invalid_level_table"))
            levels = 0
        if start is not None and end is not None and end <= start:
            problems.append(Problem((*at, "to"), "a band must end after it starts", code="invalid_level_table"))
        bands.append(Band(start, end, str(side), levels))
    if not problems:
        if bands[0].start is not None:
            problems.append(Problem(("bands", 0, "from"), "the first band must start at null (any lower score)", code="invalid_level_table"))
        if bands[-1].end is not None:
            problems.append(
                Problem(("bands", len(bands) - 1, "to"), "the last band must be open-ended (to: null)", code="invalid_level_table")
            )
        for i in range(1, len(bands)):
            prev, cur = bands[i - 1], bands[i]
            if prev.end is None or cur.start is None:
                problems.append(Problem(("bands", i, "from"), "only the first band may start at null and only the last may end at null", code="invalid_level_table"))
            elif cur.start > prev.end:
                problems.append(Problem(("bands", i, "from"), f"gap: band {i - 1} ends at {prev.end} but band {i} starts at {cur.start}", code="invalid_level_table"))
            elif cur.start < prev.end:
                problems.append(Problem(("bands", i, "from"), f"overlap: band {i - 1} ends at {prev.end} but band {i} starts at {cur.start}", code="invalid_level_table"))
    if problems:
        raise InvalidInput(problems)
    name = value.get("name")
    return LevelTable(tuple(bands), step, name if isinstance(name, str) else None)
