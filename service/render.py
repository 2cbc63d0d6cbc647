"""Engine objects → the JSON shapes of docs/api.md (plain functions: the hot path)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from engine.cards import CARD_NAMES, KINDS, points
from engine.units import Unit

CARD_POINTS: tuple[int, ...] = tuple(points(k) for k in range(KINDS))
"""``engine.cards.points`` of every kind, by kind (what responses print, looked up)."""


def cards_json(cards: Iterable[int]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def unit_json(unit: Unit) -> dict[str, Any]:
    return {
        "type": unit.kind,
        "width": unit.width,
        "length": unit.length,
        "cards": cards_json(unit.cards),
    }


@lru_cache(maxsize=1024)
def units_json(units: tuple[Unit, ...]) -> list[dict[str, Any]]:
    """Units as docs/api.md shows them, cached by value: the units of a lead or of a
    play's arrangement recur from hand to hand, and a response only reads them."""
    return [unit_json(u) for u in units]
