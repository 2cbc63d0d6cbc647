"""Combinations (docs/rules.md §3) and the decomposition of a card set into units.

A *unit* is a tuple of ``width`` identical cards (single, pair 对子, triple 三条,
quad 四条) or a tractor 拖拉机: ``length`` ≥ 2 tuples of one width at
consecutive positions of one of the order's chains (``engine.suit``, where a
tractor is defined).

``decompose`` is the one deterministic decomposition that leads, throws,
following, trick comparison and the kitty all share (docs/rules.md §4).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from msgspec import Struct

from engine.cards import card_str
from engine.errors import Problem
from engine.suit import SuitView, suit_view, unit_rank
from engine.trump import SUIT_LABELS, TrumpOrder


class Unit(Struct, frozen=True, gc=False, cache_hash=True):
    """One combination: ``length`` tuples of ``width`` identical cards.

    ``cards`` run high → low; ``rank`` orders units of the same shape and
    effective suit (higher wins; equal ranks tie); ``suit`` is the effective suit.

    A frozen struct, like the engine's other records (``engine.reasons``): built,
    hashed and compared in C, equal only to a unit.  A lead's units come from one
    cache (``_decompose``) and are the same objects request after request, and the
    caches keyed on them (the kitty's multiplier, the service's written units)
    hash them again each time: so each keeps its hash once computed
    (``cache_hash``, msgspec's documented Struct option, "Struct Configuration").
    """

    width: int
    length: int
    cards: tuple[int, ...]
    rank: int
    suit: int

    @property
    def size(self) -> int:
        return self.width * self.length

    @property
    def shape(self) -> tuple[int, int]:
        return (self.width, self.length)

    @property
    def kind(self) -> str:
        """``single``, ``tuple`` or ``tractor`` (docs/api.md analyze)."""
        if self.length > 1:
            return "tractor"
        return "single" if self.width == 1 else "tuple"


def _pick_kind(view: SuitView, place: Sequence[int], counts: Sequence[int], width: int) -> int:
    """The kind (a view index) of a chain position that supplies a ``width``-tuple: the highest
    power (docs/rules.md §4 "ties → the higher"), the tightest fit, then the lowest kind."""
    power, kinds = view.power, view.kinds
    return min([i for i in place if counts[i] >= width], key=lambda i: (-power[i], counts[i], kinds[i]))


def _best_tractor(view: SuitView, counts: list[int]) -> Unit | None:
    """The tractor with the most cards, then the widest, then the highest, if it
    has more cards than the widest tuple (a tuple of as many cards is wider); else None.
    Each candidate is a maximal run of a chain at one width (``SuitView.runs``),
    compared by (cards, width, rank, -lowest kind); the first offered wins a
    full tie (widths rising, chains in order, runs low → high)."""
    widest = max(counts)
    best_key = (widest, widest, 0, 0)  # the widest tuple: only more cards beat it
    best: tuple[int, list[int], int] | None = None
    kinds, power = view.kinds, view.power
    for width in range(2, widest + 1):
        for c, run in view.runs(view.held(counts, width)):
            if width * len(run) < best_key[0]:  # cannot win on cards
                continue
            chain = view.chains[c]
            picked = [_pick_kind(view, chain[pos], counts, width) for pos in run]
            top = unit_rank(view.chain_values[c][run[-1]], power[picked[-1]])
            key = (width * len(run), width, top, -min([kinds[i] for i in picked]))
            if key > best_key:
                best_key, best = key, (width, picked, top)
    if best is None:
        return None
    width, picked, rank = best
    return Unit(width, len(picked), tuple(view.order.sorted([kinds[i] for i in picked] * width)), rank, view.suit)


@lru_cache(maxsize=4096)
def _decompose(cards: tuple[int, ...], order: TrumpOrder) -> tuple[Unit, ...]:
    suit = order.suit[cards[0]]
    view = suit_view(order, suit)
    counts = list(view.counts(cards))
    kinds, power = view.kinds, view.power
    units: list[Unit] = []
    while view.runs(view.held(counts, 2)):  # no run of pairs: no tractor, now or later
        unit = _best_tractor(view, counts)
        if unit is None:  # the widest tuple, the highest of them (then the lowest kind)
            widest = max(counts)
            i = min([i for i, c in enumerate(counts) if c == widest], key=lambda i: (-power[i], kinds[i]))
            unit = Unit(widest, 1, (kinds[i],) * widest, power[i], suit)
        units.append(unit)
        for kind in unit.cards[:: unit.width]:
            counts[view.index[kind]] -= unit.width
    # no tractor is left (and none can form as cards leave): each step takes the
    # whole tuple of one kind, the largest, then the highest (then the lowest kind)
    for i in sorted([i for i, c in enumerate(counts) if c], key=lambda i: (-counts[i], -power[i], kinds[i])):
        units.append(Unit(counts[i], 1, (kinds[i],) * counts[i], power[i], suit))
    return tuple(units)


def decompose(cards: Iterable[int], order: TrumpOrder) -> tuple[Unit, ...]:
    """Units of a set of cards of one effective suit, largest structures first.

    docs/rules.md §4: repeatedly take the unit with the most cards, ties → the wider
    (2H2H 333 555 playing 4 is 333555 + 22), ties → the higher.  Raises
    ValueError for an empty set or one mixing effective suits.
    """
    key = tuple(sorted(cards))
    if not key:
        raise ValueError("nothing to decompose")
    suit_of = order.suit
    if len({suit_of[c] for c in key}) != 1:
        raise ValueError("cards of several effective suits do not form units")
    return _decompose(key, order)


def unit_shapes(units: Iterable[Unit]) -> tuple[tuple[int, int], ...]:
    """The (width, length) of each unit, in order: a lead's form without its cards."""
    return tuple([(u.width, u.length) for u in units])


def is_tractor(cards: Iterable[int], order: TrumpOrder) -> bool:
    """True iff ``cards`` are exactly one tractor (docs/rules.md §3 examples)."""
    cards = list(cards)
    if not cards or len({order.suit[c] for c in cards}) != 1:
        return False
    units = decompose(cards, order)
    return len(units) == 1 and units[0].length >= 2


def mixed_suit_problems(lead: Sequence[int], order: TrumpOrder, path: tuple[str | int, ...]) -> list[Problem]:
    """docs/rules.md §4: a lead is one effective suit.  One problem per card (at
    ``(*path, index)``) outside the effective suit of the lead's first card."""
    if not lead:
        return []
    suit_of = order.suit
    first = suit_of[lead[0]]
    for card in lead:  # the usual lead, of one suit, told by a loop: no comprehension built for it
        if suit_of[card] != first:
            break
    else:
        return []
    return [
        Problem(
            (*path, j),
            f"the lead mixes effective suits: {card_str(card)} is {SUIT_LABELS[order.suit[card]]}, but the "
            f"lead's first card {card_str(lead[0])} is {SUIT_LABELS[first]}; a lead is one effective suit "
            "(docs/rules.md §4)",
            code="mixed_suit_lead",
            params={"card": card_str(card), "first": card_str(lead[0])},
        )
        for j, card in enumerate(lead)
        if order.suit[card] != first
    ]
