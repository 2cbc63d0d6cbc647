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
    Cache(trump.trump_order, "(trump, rules)", 4096),
    Cache(suit.suit_view, "(trump order, effective suit)", 512),
    Cache(units._decompose, "(sorted cards, trump order)", 4096),
    Cache(lead.lead_of, "(sorted cards, trump order, follow_patterns)", 1024),
    Cache(lead.lead_form, "(unit shapes, suit, follow_patterns)", 512),
    Cache(follow._obligation_for, "(lead form, suit view, counts, follow_draw, protect)", 512),
    Cache(trick._arrangements, "(sorted play, lead form, trump order, wider_shape_beats, decks, comparison)", 4096),
    Cache(trick._single_arrangements, "(sorted play, lead form, powers, suit, comparison): a lead of singles", 2048),
    # follow: pattern ladders and the generic programme
    Cache(follow._first_step, "(suit view, counts, follow_patterns, lead shape, protect)", 1024),
    Cache(follow._ladder_plans, "(follow_patterns, lead shape)", 256),
    Cache(follow._pattern_structure, "(step, follow_patterns, lead shape, cards)", 4096),
    Cache(follow._generic_structure_of, "(score, piece shapes, cards)", 4096),
    Cache(follow._requirement, "(suit, lead cards, held, cards, rule, structure)", 4096),
    Cache(follow._lowest_first, "(trump order, suit)", 4096),
    Cache(generic._generic_score, "(suit view, counts, lead shape, protect)", 1024),
    Cache(generic._position, "(kinds, copies, bottom, limit)", 4096),
    Cache(generic._closings, "(frame)", 16384),
    Cache(generic._moves, "(free lead tractors, open pieces, copies, bottom, late, protect, widest)", 16384),
    Cache(generic._bound, "(frame, copies left, lead shape)", 16384),
    Cache(generic._reach, "(frame, gap, copies, bottom, late, protect, widest)", 16384),
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


def clear() -> None:
    """Empty every cache (benchmarks measure cold requests with it)."""
    for cache in CACHES:
        cache.function.cache_clear()  # type: ignore[attr-defined]
