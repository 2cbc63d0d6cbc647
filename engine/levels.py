"""Level tables (docs/rules.md §8): bands of the defenders' points.

A table is a list of half-open bands ``[from, to)`` of the defenders' final
points, each saying which side gains how many levels (the defenders taking
over the deal whenever the band is theirs), plus an open-ended ``step``: past
the last band's ``from``, every further ``step`` points is one more level.
The first band starts at minus infinity (``from`` None) and the last one is
open-ended (``to`` None), so every score falls in exactly one band.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from operator import attrgetter
from typing import Any

from engine.errors import InvalidInput, Problem

DEALER, DEFENDERS = "dealer", "defenders"
SIDES = (DEALER, DEFENDERS)
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
        return (self.start is None or points >= self.start) and (self.end is None or points < self.end)

    def as_json(self) -> dict[str, Any]:
        return {"from": self.start, "to": self.end, "side": self.side, "levels": self.levels}


_start = attrgetter("start")  # the key the bands are ordered by (the first one's, None, is never read)


@dataclass(frozen=True, slots=True)
class LevelTable:
    """An ordered, gap-free list of bands plus the open-ended step."""

    bands: tuple[Band, ...]
    step: int | None
    name: str | None = None

    def band_for(self, points: int) -> Band:
        """The band ``points`` falls in (there is always exactly one: the bands are
        ordered and gap-free, so it is the last one starting at or below ``points``)."""
        return self.bands[bisect_right(self.bands, points, 1, key=_start) - 1]

    def levels(self, points: int) -> tuple[Band, int]:
        """The band ``points`` fall in and the levels it gives, the step's included.

        >>> band, n = LEVEL_TABLES["two-deck"].levels(240)
        >>> (band.side, band.start, n)
        ('defenders', 160, 4)
        """
        band = self.band_for(points)
        if band.end is None and band.start is not None and self.step:
            return band, band.levels + (points - band.start) // self.step
        return band, band.levels

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "bands": [b.as_json() for b in self.bands], "step": self.step}


def _table(
    name: str, step: int | None, edges: tuple[int, ...], dealer: tuple[int, ...], defenders: tuple[int, ...]
) -> LevelTable:
    """A named table written as its band edges and, band by band from the lowest
    score, the levels the dealer's side gains and then the levels the defenders gain."""
    sides = (DEALER,) * len(dealer) + (DEFENDERS,) * len(defenders)
    bands = map(Band, (None, *edges), (*edges, None), sides, dealer + defenders)
    return LevelTable(tuple(bands), step, name)


# Points are multiples of 5, so a band ending at 5 means "0 or less" (大光).
LEVEL_TABLES: dict[str, LevelTable] = {
    table.name or "": table
    for table in (
        # seeds 000, 001, 003, 004: 40-point bands
        _table("two-deck", 40, (5, 40, 80, 120, 160), dealer=(3, 2, 1), defenders=(0, 1, 2)),
        # seeds 000 and 003: 60-point bands, 120 to take over
        _table("three-deck", 60, (5, 60, 120, 180), dealer=(3, 2, 1), defenders=(0, 1)),
        # seed 000 四副: taking over at 160 already gains a level; no cap
        _table("four-deck", 80, (5, 80, 160), dealer=(3, 2, 1), defenders=(1,)),
        # seed 002 §胜负判断: 160 takes over, 240 +1, 320 +2 (例: from 2 to 4)
        _table("four-deck-cgc", 80, (5, 80, 160, 240), dealer=(3, 2, 1), defenders=(0, 1)),
        # seed 000: one deck in 20-point bands
        _table("one-deck", 20, (5, 20, 40, 60), dealer=(3, 2, 1), defenders=(0, 1)),
        # seeds 001 and 003: 80-95 → +1, 100 → +2, no further step
        _table("one-deck-lianzhong", None, (5, 40, 80, 100), dealer=(2, 1), defenders=(0, 1, 2)),
        # the Botzone 双升 judge's match score read as levels: 80 takes over with a level, 160 gives 3;
        # no step
        _table("botzone", None, (5, 40, 80, 120, 160), dealer=(3, 2, 1), defenders=(1, 2, 3)),
    )
}


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
        table = "a level table is a table name or an object with bands and step"
        raise InvalidInput(Problem((), table, code="invalid_level_table"))
    problems: list[Problem] = []

    def bad(path: tuple[str | int, ...], text: str, code: str = "invalid_level_table") -> None:
        problems.append(Problem(path, text, code=code))

    def points(raw: Mapping[str, object], key: str, *at: str | int) -> int | None:
        found = raw.get(key)
        if found is None:
            return None
        if isinstance(found, bool) or not isinstance(found, int):
            bad((*at, key), "must be an integer or null")
        elif not -POINT_LIMIT <= found <= POINT_LIMIT or found % 5:
            bad((*at, key), f"must be a multiple of 5 between {-POINT_LIMIT} and {POINT_LIMIT}")
        else:
            return found
        return None

    for key in sorted(set(value) - {"bands", "step", "name"}):
        bad((key,), "unknown field of a level table", "unknown_field")
    if "step" not in value:
        bad(("step",), "step is required (null for no further levels)", "missing_field")
    name = value.get("name")
    if name is not None and not isinstance(name, str):
        bad(("name",), "name must be a string or null")
    raw_bands = value.get("bands")
    step = points(value, "step")
    if step is not None and step <= 0:
        bad(("step",), "step must be positive (or null for no further levels)")
    if not isinstance(raw_bands, list) or not raw_bands:
        bad(("bands",), "bands must be a non-empty array")
        raise InvalidInput(problems)
    bands: list[Band] = []
    for i, raw in enumerate(raw_bands):
        if not isinstance(raw, Mapping):
            bad(("bands", i), "a band is an object with from, to, side, levels")
            continue
        for key in sorted(set(raw) - {"from", "to", "side", "levels"}):
            bad(("bands", i, key), "unknown field of a band", "unknown_field")
        for key in ("from", "to"):
            if key not in raw:
                bad(("bands", i, key), f"{key} is required (null for unbounded)", "missing_field")
        start, end = points(raw, "from", "bands", i), points(raw, "to", "bands", i)
        side, levels = raw.get("side"), raw.get("levels")
        if side not in SIDES:
            bad(("bands", i, "side"), "side must be 'dealer' or 'defenders'")
        if isinstance(levels, bool) or not isinstance(levels, int) or not 0 <= levels <= MAX_LEVELS:
            bad(("bands", i, "levels"), f"levels must be an integer from 0 to {MAX_LEVELS}")
            levels = 0
        if start is not None and end is not None and end <= start:
            bad(("bands", i, "to"), "a band must end after it starts")
        bands.append(Band(start, end, str(side), levels))
    if not problems:
        if bands[0].start is not None:
            bad(("bands", 0, "from"), "the first band must start at null (any lower score)")
        if bands[-1].end is not None:
            bad(("bands", len(bands) - 1, "to"), "the last band must be open-ended (to: null)")
        for i, (prev, cur) in enumerate(pairwise(bands), 1):
            if prev.end is None or cur.start is None:
                only = "only the first band may start at null and only the last may end at null"
                bad(("bands", i, "from"), only)
            elif cur.start != prev.end:
                gap = "gap" if cur.start > prev.end else "overlap"
                at = f"band {i - 1} ends at {prev.end} but band {i} starts at {cur.start}"
                bad(("bands", i, "from"), f"{gap}: {at}")
    if problems:
        raise InvalidInput(problems)
    return LevelTable(tuple(bands), step, name if isinstance(name, str) else None)
