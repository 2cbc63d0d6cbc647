"""What is this set of cards? (docs/api.md ``/v1/analyze``; docs/rules.md §1–§4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import check_copies
from engine.rules import Rules
from engine.trump import Trump, TrumpOrder, trump_order
from engine.units import Unit, decompose


@dataclass(frozen=True, slots=True)
class Analysis:
    """Cards sorted high → low; units when they share one effective suit."""

    order: TrumpOrder
    cards: tuple[int, ...]
    units: tuple[Unit, ...] | None

    @property
    def is_throw(self) -> bool | None:
        """A lead of more than one unit is a throw 甩牌 (docs/rules.md §4)."""
        return None if self.units is None else len(self.units) > 1

    @property
    def suits(self) -> list[int]:
        """Effective suits present, in display order (trump first)."""
        return sorted({self.order.suit[c] for c in self.cards}, key=lambda s: (s != 4, s))


def analyze(cards: Sequence[int], trump: Trump, rules: Rules) -> Analysis:
    """Sort ``cards`` in trump order and decompose them if they are one suit.

    Raises InvalidInput (path ``(index,)``) for more copies of a card than decks.
    """
    check_copies([((), cards)], rules.decks)
    order = trump_order(trump, rules)
    ordered = tuple(order.sorted(cards))
    one_suit = ordered and len({order.suit[c] for c in ordered}) == 1
    return Analysis(order, ordered, decompose(ordered, order) if one_suit else None)
