"""Every cache of the engine, in one place: its key, its bound in entries, its bytes per entry.

A cache is a ``functools.lru_cache`` on a function of plain values: its key is
every argument the function takes and its result depends on nothing else.  The
big ones sit at the boundaries a request crosses (the trump order, the suit
view, the lead, the obligation of a hand, the measure of a play); the rest hold
words, the generic programme's transitions, the seed ladders' plans, and two
that carry more than 2 % of an endpoint's instructions (bench/instructions.py,
noted at each).

The bounds keep every cache, full at its measured size, within ``BYTE_BUDGET``,
which keeps a worker under the 120 MB of issue 21 (bench/soak.py;
bench/RESULTS.md).  tests/test_caches.py checks the list and the budget.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import bidding, follow, generic, kitty, lead, rules, suit, throw, trick, trump, units


@dataclass(frozen=True, slots=True)
class Cache:
    """One cache: its function, what it keys on, its bound (None: the presets, a
    closed set) and ``entry_bytes``, what Python allocates for one entry (key,
    result, the cache's own link): measured by bench/cache_memory.py under heavy
    traffic (2026-12-01; those found above it re-measured 2026-12-02), the larger
    of its two orders of emptying, rounded up to 8 bytes."""

    function: Callable[..., Any]
    key: str
    bound: int | None
    entry_bytes: int = 0

    @property
    def name(self) -> str:
        """``module.function`` (``generic._moves``)."""
        return f"{self.function.__module__.removeprefix('engine.')}.{self.function.__name__}"


CACHES: tuple[Cache, ...] = (
    # the boundaries
    Cache(rules.preset, "preset name", None),
    # its orders are also held by the suit views: measured alone (520 orders built afresh)
    Cache(trump.trump_order, "(trump, rules)", 512, 6536),
    # with the order a seat takes kinds in (``preferred``, ``chains_preferred``) and its kinds as a
    # frozenset (counts_in's void test)
    Cache(suit.suit_view, "(trump order, effective suit, protect)", 512, 5968),
    # the lead's units (without it /v1/analyze +18 %)
    Cache(units._decompose, "(sorted cards, trump order)", 4096, 288),  # units as msgspec Structs: 2026-12-02
    Cache(lead.lead_of, "(sorted cards, trump order, follow_patterns)", 1024, 528),
    Cache(lead.lead_form, "(unit shapes, suit, follow_patterns)", 512, 1872),
    Cache(follow._obligation_for, "(lead form, suit view (with protect), counts, follow_draw)", 512, 576),
    Cache(follow._reached, "(lead form, suit view, play counts): the measure of a follow", 4096, 632),
    Cache(
        trick._measure,
        "(play as played, lead form, trump order, ruff_shape, wider_shape_beats, decks, comparison)", 4096, 680,
    ),
    # follow: pattern ladders and the generic programme
    Cache(follow._ladder_plans, "(follow_patterns, lead shape)", 256, 752),
    # the order a follower short of the suit adds other cards in (without it /v1/trick +23 %, /v1/hand +13 %)
    Cache(follow._lowest_first, "(trump order, suit)", 2048, 416),
    Cache(generic._generic_score, "(suit view, counts, lead shape, protect)", 1024, 904),
    Cache(generic._closings, "(frame)", 2048, 704),
    Cache(
        generic._moves,
        "(free lead tractors, open pieces, copies, bottom, late, protect, widest, links two steps up)",
        2048, 2344,
    ),
    # estimated, not measured: a frame's entry and its limits (two small tuples) in the key
    Cache(generic._bound, "(frame, copies left, limits of the runs ahead, lead shape)", 2048, 640),
    Cache(
        generic._reach, "(frame, gap, copies, bottom, late, links two steps up, protect, widest)", 2048, 1384,
    ),
    # trick, throw, kitty (its multiplier: without it /v1/kitty +2.7 %), bids
    Cache(kitty._kitty_multiplier, "(lead units, kitty_multiplier, kitty_cap, trumps)", 1024, 656),
    # the steps (1,960 bytes) and their table by (card, copies) (16,216), measured apart
    Cache(bidding._ladder, "(decks, bid_suit_precedence, fewest jokers a bid shows)", 64, 18176),
    # reasons: the obligation's pattern, and the words of a lead and of a play against its lead form
    Cache(follow._structure_pattern, "(structure)", 4096, 368),  # measured alone (14 structures)
    Cache(throw._single_unit, "(lead)", 1024, 840),  # without it /v1/hand +4 %
    # a throw's shapes to search for, its units' facts and forced orders (without it the four-deck
    # throw +89 kIr, 9 % of /v1/throw); an entry holds its lead after lead_of has let it go
    Cache(throw._plan, "(lead, wider_shape_beats, decks)", 512, 6456),
    # without it /v1/trick +7 %, /v1/hand +19 %
    Cache(trick._play_reasons, "(role, lead form, seat, matched, won, best seat, comparison)", 4096, 592),
)

BYTE_BUDGET = 40 * 1024 * 1024
"""What every bounded cache may hold at once, full at its measured entry size."""


def byte_bound() -> int:
    """Bytes the bounded caches hold when every one is full (bound x entry_bytes)."""
    return sum(c.bound * c.entry_bytes for c in CACHES if c.bound is not None)


def clear() -> None:
    """Empty every cache (benchmarks measure cold requests with it)."""
    for cache in CACHES:
        cache.function.cache_clear()  # type: ignore[attr-defined]
