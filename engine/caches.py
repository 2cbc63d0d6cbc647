"""Every cache of the engine, in one place: what it keys on and how many entries it keeps.

A cache is a ``functools.lru_cache`` on a function of plain values, so its key
is every argument the function takes and its result depends on nothing else
(no global state, no argument left out of the key).  The boundaries a request
crosses are the big ones: the trump order (per trump and rules), the suit view
(per order, suit and ``protect_longer_tuples``), the lead (per cards, order and
options; its decomposition and form), the obligation of a hand (per lead form,
suit view, counts and options) and the measure of a play (per play, lead form,
order and options; a follow's per lead form, suit view and counts).  The rest
are small caches of words and of the generic programme's transitions, keyed by
value, the seed ladders' plans (a table per list), and two that
bench/instructions.py shows carry more than 2 % of an endpoint's instructions:
the order in which a follower short of the suit adds other cards (without it
/v1/trick +23 %, /v1/hand +13 %) and the kitty's multiplier (/v1/kitty +2.7 %).
tests/test_caches.py checks that this list names every cache of the engine
with its bound.

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

from engine import bidding, follow, generic, kitty, lead, rules, suit, throw, trick, trump, units


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
    Cache(units._decompose, "(sorted cards, trump order)", 4096),  # the lead's units (without it /v1/analyze +18 %)
    Cache(lead.lead_of, "(sorted cards, trump order, follow_patterns)", 1024),
    Cache(lead.lead_form, "(unit shapes, suit, follow_patterns)", 512),
    Cache(follow._obligation_for, "(lead form, suit view (with protect), counts, follow_draw)", 512),
    Cache(follow._reached, "(lead form, suit view, play counts): the measure of a follow", 4096),
    Cache(trick._arrangements, "(sorted play, lead form, trump order, wider_shape_beats, decks, comparison)", 4096),
    # follow: pattern ladders and the generic programme
    Cache(follow._ladder_plans, "(follow_patterns, lead shape)", 256),
    Cache(follow._lowest_first, "(trump order, suit)", 2048),
    Cache(generic._generic_score, "(suit view, counts, lead shape, protect)", 1024),
    Cache(generic._closings, "(frame)", 2048),
    Cache(generic._moves, "(free lead tractors, open pieces, copies, bottom, late, protect, widest, links two steps up)", 2048),
    Cache(generic._bound, "(frame, copies left, limits of the runs ahead, lead shape)", 2048),
    Cache(generic._reach, "(frame, gap, copies, bottom, late, links two steps up, protect, widest)", 2048),
    # trick, throw, kitty, bids
    Cache(kitty._kitty_multiplier, "(lead units, kitty_multiplier, kitty_cap, trumps)", 1024),
    Cache(bidding._ladder, "(decks, bid_suit_precedence, no_trump_bid_min_jokers)", 64),
    Cache(bidding._steps, "(decks, bid_suit_precedence, no_trump_bid_min_jokers)", 64),
    # reasons
    Cache(follow._structure_pattern, "(structure)", 4096),
    Cache(throw._single_unit, "(unit)", 1024),
    Cache(trick._play_reasons, "(role, lead form, seat, matched, won, best seat, comparison)", 4096),
)


# Bytes per entry, measured (bench/cache_memory.py, 2026-12-01: 2,100 and 3,150 fresh
# heavy requests, before and after these bounds, after the generic rule's keys gained
# the links two steps up and after follow._reached came): Python's allocations for the key,
# the result and the cache's own link, the largest of the runs, both orders of
# emptying (objects shared between caches counted with each), rounded up to 8 bytes.
ENTRY_BYTES: dict[str, int] = {
    "trump.trump_order": 6536,  # measured alone (520 orders built afresh): its orders are also held by the suit views
    "suit.suit_view": 4408,
    "units._decompose": 248,
    "lead.lead_of": 528,
    "lead.lead_form": 712,
    "follow._obligation_for": 528,
    "follow._reached": 632,
    "trick._arrangements": 680,
    "follow._ladder_plans": 752,
    "follow._lowest_first": 416,
    "generic._generic_score": 904,
    "generic._closings": 664,
    "generic._moves": 2344,
    "generic._bound": 640,  # estimated: _frame_room's measured entry and its limits (two small tuples) in the key
    "generic._reach": 1384,
    "kitty._kitty_multiplier": 616,
    "bidding._ladder": 1960,
    "bidding._steps": 16216,
    "follow._structure_pattern": 256,  # measured alone (tracemalloc, 14 structures of random follows); the Reason entries below predate reasons as facts
    "throw._single_unit": 560,
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
