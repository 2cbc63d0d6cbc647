"""Combinations (RULES.md §3) and the decomposition of a card set into units.

A *unit* is a tuple of ``width`` identical cards (single, pair 对子, triple 三条,
quad 四条) or a tractor 拖拉机: ``length`` ≥ 2 tuples of one width at
consecutive order steps of one effective suit (``TrumpOrder.chains``).

``decompose`` is the one deterministic decomposition that leads, throws,
following, trick comparison and the kitty all share (RULES §4): repeatedly take
the unit with the most cards; ties → the wider; ties → the higher.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.cards import card_str
from engine.errors import Problem
from engine.trump import SUIT_LABELS, TrumpOrder


@dataclass(frozen=True, slots=True)
class Unit:
    """One combination: ``length`` tuples of ``width`` identical cards.

    ``cards`` run high → low; ``rank`` orders units of the same shape and
    effective suit (higher wins; equal ranks tie); ``suit`` is the effective suit.
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
        """``single``, ``tuple`` or ``tractor`` (API.md analyze)."""
        if self.length > 1:
            return "tractor"
        return "single" if self.width == 1 else "tuple"

    def describe(self) -> str:
        return "".join(card_str(c) for c in self.cards)


def _pick_kind(order: TrumpOrder, kinds: tuple[int, ...], counts: dict[int, int], width: int) -> int | None:
    """Which kind of a step supplies a tuple of ``width``: the highest power
    (RULES §4 "ties → the higher"), then the tightest fit (keeping wider tuples
    whole), then the lowest kind."""
    best: tuple[int, int, int] | None = None
    for kind in kinds:
        c = counts.get(kind, 0)
        if c >= width:
            key = (-order.power[kind], c, kind)
            if best is None or key < best:
                best = key
    return None if best is None else best[2]


def _best_unit(order: TrumpOrder, suit: int, counts: dict[int, int]) -> Unit:
    """The unit with the most cards, then the widest, then the highest."""
    best_key: tuple[int, int, int, int] | None = None
    best: tuple[int, list[int], int] | None = None  # width, kinds, rank: the Unit is built for the winner only

    def offer(width: int, kinds: list[int], rank: int) -> None:
        nonlocal best_key, best
        key = (width * len(kinds), width, rank, -min(kinds))
        if best_key is None or key > best_key:
            best_key = key
            best = (width, list(kinds), rank)

    for kind, c in counts.items():
        offer(c, [kind], order.power[kind])
    widest = max(counts.values())
    step_of, steps = order.step, order.steps[suit]
    for width in range(2, widest + 1):
        wide = {step_of[kind] for kind, c in counts.items() if c >= width}  # the steps that can take part
        if len(wide) < 2:
            continue  # no tractor of this width
        for chain, values in zip(order.chains[suit], order.chain_values[suit], strict=True):
            run: list[int] = []
            top = 0
            for pos, step in enumerate(chain):
                picked = _pick_kind(order, steps[step], counts, width) if step in wide else None
                if picked is not None:
                    run.append(picked)
                    top = values[pos] * 4 + order.power[picked] % 4
                    continue
                if len(run) >= 2:
                    offer(width, run, top)
                run = []
            if len(run) >= 2:
                offer(width, run, top)
    assert best is not None
    width, kinds, rank = best
    cards = tuple(k for k in order.sorted(kinds) for _ in range(width))
    return Unit(width, len(kinds), cards, rank, suit)


@lru_cache(maxsize=65536)
def _decompose(cards: tuple[int, ...], order: TrumpOrder) -> tuple[Unit, ...]:
    counts: dict[int, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    suit = order.suit[cards[0]]
    units: list[Unit] = []
    while counts:
        unit = _best_unit(order, suit, counts)
        units.append(unit)
        for card in unit.cards:
            counts[card] -= 1
        counts = {card: n for card, n in counts.items() if n > 0}
    return tuple(units)


def decompose(cards: Iterable[int], order: TrumpOrder) -> tuple[Unit, ...]:
    """Units of a set of cards of one effective suit, largest structures first.

    RULES §4: repeatedly take the unit with the most cards, ties → the wider
    (2H2H 333 555 playing 4 is 333555 + 22), ties → the higher.  Raises
    ValueError for an empty set or one mixing effective suits.
    """
    key = tuple(sorted(cards))
    if not key:
        raise ValueError("nothing to decompose")
    if len({order.suit[c] for c in key}) != 1:
        raise ValueError("cards of several effective suits do not form units")
    return _decompose(key, order)


def effective_suits(cards: Iterable[int], order: TrumpOrder) -> set[int]:
    """The effective suits present in ``cards``."""
    return {order.suit[c] for c in cards}


def is_tractor(cards: Iterable[int], order: TrumpOrder) -> bool:
    """True iff ``cards`` are exactly one tractor (RULES §3 examples)."""
    cards = list(cards)
    if not cards or len(effective_suits(cards, order)) != 1:
        return False
    units = decompose(cards, order)
    return len(units) == 1 and units[0].length >= 2


def mixed_suit_problems(lead: Sequence[int], order: TrumpOrder, path: tuple[str | int, ...]) -> list[Problem]:
    """RULES §4: a lead is one effective suit.  One problem per card (at
    ``(*path, index)``) outside the effective suit of the lead's first card."""
    if not lead:
        return []
    first = order.suit[lead[0]]
    return [
        Problem(
            (*path, j),
            f"the lead mixes effective suits: {card_str(card)} is {SUIT_LABELS[order.suit[card]]}, but the "
            f"lead's first card {card_str(lead[0])} is {SUIT_LABELS[first]}; a lead is one effective suit "
            "(RULES §4)",
        )
        for j, card in enumerate(lead)
        if order.suit[card] != first
    ]
