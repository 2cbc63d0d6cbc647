"""Every cache of the engine, in one place: what it keys on and how many entries it keeps.

A cache is a ``functools.lru_cache`` on a function of plain values, so its key
is every argument the function takes and its result depends on nothing else
(no global state, no argument left out of the key).  The boundaries a request
crosses are the big ones: the trump order (per trump and rules), the suit view
(per order and suit), the lead (per cards, order and ``follow_patterns``), the
obligation of a hand (per lead form, suit view, counts and options) and the
measure of a play (per play, lead form, order and options).  The rest are
small caches of words and of the generic programme's transitions, keyed by
value.  tests/test_caches.py checks that this list names every cache of the
engine with its bound.

The bounds count entries; what a worker's memory feels is bytes.  Each cache's
bytes per entry were measured under heavy traffic (bench/cache_memory.py: the
soak's mix with thousands of fresh heavy bodies, ``tracemalloc``, each cache
emptied in turn, both orders, the larger figure kept) and are recorded in
``ENTRY_BYTES``; the bounds are set so that every cache full at that size
stays within ``BYTE_BUDGET`` (tests/test_caches.py checks it), which keeps a
worker under the 120 MB of issue 21 (bench/soak.py; bench/RESULTS.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import bidding, follow, generic, kitty, lead, rules, shapes, suit, throw, trick, trump, units


@dataclass(frozen=True, slots=True)
class Cache:
    """One cache: its function, what it keys on, its bound (None: the presets, a closed set)."""

    function: Callable[..., Any]
    key: str
    bound: int | None


CACHES: tuple[Cache, ...] = (
    # the boundaries
    Cache(rules.preset, "preset name", None),
    Cache(trump.trump_order, "(trump, rules)", 512),
    Cache(suit.suit_view, "(trump order, effective suit, protect)", 512),
    Cache(units._decompose, "(sorted cards, trump order)", 4096),
    Cache(lead.lead_of, "(sorted cards, trump order, follow_patterns)", 1024),
    Cache(lead.lead_form, "(unit shapes, suit, follow_patterns)", 512),
    Cache(follow._obligation_for, "(lead form, suit view (with protect), counts, follow_draw)", 512),
    Cache(follow._reached, "(lead form, suit view, play counts): the measure of a follow", 4096),
    Cache(trick._arrangements, "(sorted play, lead form, trump order, wider_shape_beats, decks, comparison)", 4096),
    Cache(trick._single_arrangements, "(sorted play, lead form, powers, suit, comparison): a lead of singles", 2048),
    # follow: pattern ladders and the generic programme
    Cache(follow._first_step, "(suit view (with protect), counts, follow_patterns, lead shape)", 1024),
    Cache(follow._ladder_plans, "(follow_patterns, lead shape)", 256),
    Cache(follow._lowest_first, "(trump order, suit)", 2048),
    Cache(generic._generic_score, "(suit view, counts, lead shape, protect)", 1024),
    Cache(generic._position, "(kinds, copies, bottom, limit, links two steps up, linked below)", 2048),
    Cache(generic._closings, "(frame)", 2048),
    Cache(generic._moves, "(free lead tractors, open pieces, copies, bottom, late, protect, widest, links two steps up)", 2048),
    Cache(generic._bound, "(frame, copies left, limits of the runs ahead, lead shape)", 2048),
    Cache(generic._reach, "(frame, gap, copies, bottom, late, links two steps up, protect, widest)", 2048),
    Cache(generic._tail, "(histogram, free lead tractors, tuples, widest, protect)", 4096),
    # trick, throw, kitty, bids
    Cache(trick._serving, "(width, length, wider_shape_beats, decks)", 256),
    Cache(trick._single, "(card, power, suit)", 1024),
    Cache(kitty._kitty_multiplier, "(lead units, kitty_multiplier, kitty_cap, trumps)", 1024),
    Cache(bidding._ladder, "(decks, bid_suit_precedence, no_trump_bid_min_jokers)", 64),
    Cache(bidding._steps, "(decks, bid_suit_precedence, no_trump_bid_min_jokers)", 64),
    # words
    Cache(lead._words, "(unit shapes, suit)", 256),
    Cache(shapes._describe_pieces, "(pieces, singles, language)", 4096),
    Cache(follow._structure_text, "(structure, language)", 4096),
    Cache(follow._alternative_shapes, "(alternative, cards)", 4096),
    Cache(follow._describe_requirement, "(requirement)", 4096),
    Cache(follow._suit_reason, "(suit, held, lead cards, played)", 4096),
    Cache(throw._single_unit, "(unit)", 1024),
    Cache(trick._play_reasons, "(role, lead words, throw, seat, matched, won, best seat, comparison)", 4096),
)


# Bytes per entry, measured (bench/cache_memory.py, 2026-12-01: 2,100 and 3,150 fresh
# heavy requests, before and after these bounds, and after the generic rule's keys
# gained the links two steps up): Python's allocations for the key,
# the result and the cache's own link, the largest of the runs, both orders of
# emptying (objects shared between caches counted with each), rounded up to 8 bytes.
ENTRY_BYTES: dict[str, int] = {
    "trump.trump_order": 6536,  # measured alone (520 orders built afresh): its orders are also held by the suit views
    "suit.suit_view": 4408,
    "units._decompose": 248,
    "lead.lead_of": 528,
    "lead.lead_form": 712,
    "follow._obligation_for": 344,
    "follow._reached": 800,  # estimated (bench/cache_memory.py not re-run): a count vector and a structure
    "trick._arrangements": 680,
    "trick._single_arrangements": 328,
    "follow._first_step": 648,
    "follow._ladder_plans": 752,
    "follow._lowest_first": 416,
    "generic._generic_score": 680,
    "generic._position": 440,
    "generic._closings": 664,
    "generic._moves": 2344,
    "generic._bound": 640,  # estimated: _frame_room's measured entry and its limits (two small tuples) in the key
    "generic._reach": 1128,
    "generic._tail": 344,
    "trick._serving": 168,
    "trick._single": 16,
    "kitty._kitty_multiplier": 608,
    "bidding._ladder": 1960,
    "bidding._steps": 16216,
    "lead._words": 304,
    "shapes._describe_pieces": 352,
    "follow._structure_text": 264,
    "follow._alternative_shapes": 392,
    "follow._describe_requirement": 288,
    "follow._suit_reason": 480,
    "throw._single_unit": 552,
    "trick._play_reasons": 552,
}

BYTE_BUDGET = 40 * 1024 * 1024
"""What every bounded cache may hold at once, full at its measured entry size."""


def cache_name(cache: Cache) -> str:
    """``module.function`` (``generic._moves``): a cache's name in ``ENTRY_BYTES``."""
    return f"{cache.function.__module__.removeprefix('engine.')}.{cache.function.__name__}"


def byte_bound() -> int:
    """Bytes the bounded caches hold when every one is full (bound x ENTRY_BYTES)."""
    return sum(c.bound * ENTRY_BYTES[cache_name(c)] for c in CACHES if c.bound is not None)


def clear() -> None:
    """Empty every cache (benchmarks measure cold requests with it)."""
    for cache in CACHES:
        cache.function.cache_clear()  # type: ignore[attr-defined]
