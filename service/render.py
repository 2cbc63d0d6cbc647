"""Engine objects → the JSON shapes of docs/api.md (plain functions: the hot path).

A part of an answer that recurs from request to request (a lead's units, a
reason's code and words: service/api.py) is cached *written*: an
``orjson.Fragment``, orjson's documented way to place JSON already written
into a document, which ``orjson.dumps`` copies as it is.  An answer holding
one is only ever written by orjson (``json_response``, the auditor's JSON
lines), with the options every answer is written with, so the bytes are the
ones the part would have been written as in place.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from operator import itemgetter
from typing import Any

import orjson

from engine.cards import CARD_NAMES, KINDS, points
from engine.units import Unit
from service.jsonio import OrjsonProvider

CARD_POINTS: tuple[int, ...] = tuple(points(k) for k in range(KINDS))
"""``engine.cards.points`` of every kind, by kind (what responses print, looked up)."""


def cards_json(cards: Sequence[int]) -> Sequence[str]:
    """Cards by name (docs/api.md "Cards"), in their order: a JSON array.  Two or
    more are looked up in one call (``itemgetter``, a tuple, which orjson writes
    as the same array as a list; ~1,000 instructions fewer a set than a list
    comprehension); a single card, or none, is a list."""
    if len(cards) > 1:
        return itemgetter(*cards)(CARD_NAMES)  # type: ignore[no-any-return]
    return [CARD_NAMES[c] for c in cards]


def unit_json(unit: Unit) -> dict[str, Any]:
    return {
        "type": unit.kind,
        "width": unit.width,
        "length": unit.length,
        "cards": cards_json(unit.cards),
    }


def written(obj: Any) -> orjson.Fragment:
    """``obj`` written as JSON once, to be placed into answers as it is (the module's note).

    Kept as a copy of its exact size (``memoryview.tobytes``): the ``bytes`` that
    ``orjson.dumps`` returns keeps the whole buffer it was written in, at least
    4 KB whatever its length (measured: 100,000 results of a few bytes raise a
    process's resident memory by 4,120 bytes each, their copies by 58), and a
    cache keeps what it is given."""
    return orjson.Fragment(memoryview(orjson.dumps(obj, option=OrjsonProvider.option)).tobytes())


@lru_cache(maxsize=1024)
def units_json(units: tuple[Unit, ...]) -> list[orjson.Fragment]:
    """Units as docs/api.md shows them, each written (``written``), cached by value:
    the units of a lead or of a play's arrangement recur from hand to hand, and a
    response only reads them."""
    return [written(unit_json(u)) for u in units]
