"""The lead, worked out once: what every later rule measures a trick against
(docs/rules.md §4, §5, §6, §7).

A lead is decomposed into units (``engine.units.decompose``, §4); follows are
judged against its shapes (§5: the seed's pattern ladder for a single unit it
lists, else the generic rule's ``LeadShape``); plays are compared on its
largest shape (§6 ``largest_unit``); the throw (§4) and the kitty (§7) read
its units.  What the lead obliges a follower depends on two options:
``follow_patterns`` and ``follow_tractors`` (§5: under ``pairs_only``, the
Botzone judge, a lead's tractors oblige only their tuples, never a tractor).
``Lead`` holds all of it, built once per (cards, trump order, those options)
by ``lead_of``; ``LeadForm`` is the part that does not depend on the cards:
one object per form, shared by every lead of that form in every hand, so the
caches keyed on it stay small.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.generic import LeadShape
from engine.patterns import pattern_list
from engine.reasons import Cards, Pieces, pieces
from engine.rules import FollowPatterns, FollowTractors
from engine.shapes import Shape
from engine.suit import SuitView, suit_view
from engine.trump import TrumpOrder
from engine.units import Unit, decompose, unit_shapes

Shapes = tuple[tuple[int, int], ...]  # (width, length) of each unit, in ``decompose``'s order


@dataclass(frozen=True, slots=True, eq=False)
class LeadForm:
    """A lead less its cards: the shapes (width, length) of its units, their
    effective suit and card count; the slots of its largest shape (§6: its
    tractors, else its widest tuples, else its singles); whether it is a
    single unit (else a throw), has a tractor; its shape for
    the generic follow rule; its unit when the ``patterns`` ladder lists it;
    its shapes counted, as reasons name them (``a 2-pair tractor + 2
    singles``), and each unit's shape as a reason's fact (§4: the throw's
    reasons name them).  One object per form (compared by identity)."""

    shapes: Shapes
    suit: int
    cards: int
    largest: tuple[int, ...]
    single: bool
    tractors: bool
    generic: LeadShape
    unit: Shape | None
    patterns: FollowPatterns
    pieces: Pieces
    shape_facts: tuple[Shape, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Lead:
    """A lead: its cards (sorted), its units, its suit's view and its form;
    for a lead of several units (a throw), each unit's cards as a reason's fact
    (§4: the throw's reasons name them), else none."""

    cards: tuple[int, ...]
    units: tuple[Unit, ...]
    view: SuitView
    form: LeadForm
    card_facts: tuple[Cards, ...]


def largest(shapes: Shapes) -> tuple[int, ...]:
    """The slots of the lead's largest shape (§6 largest_unit): its tractors,
    else its widest tuples, else its singles — as indices into ``shapes``."""
    if any(length > 1 for _, length in shapes):
        return tuple(i for i, (_, length) in enumerate(shapes) if length > 1)
    widest = max(width for width, _ in shapes)
    return tuple(i for i, (width, _) in enumerate(shapes) if width == widest)


def generic_shape(shapes: Shapes, tractors: FollowTractors = FollowTractors.REQUIRED) -> LeadShape:
    """The lead as the generic follow rule sees it: its tractors and its other
    tuples; under ``follow_tractors`` ``pairs_only`` (docs/rules.md §5, the
    Botzone judge) no tractor, each tractor of length L counting as L tuples of
    its width (a 2-pair tractor obliges two pairs)."""
    if tractors is FollowTractors.PAIRS_ONLY:
        widths = [width for width, length in shapes if width > 1 for _ in range(length)]
        return LeadShape((), tuple(sorted(widths, reverse=True)))
    widths = [width for width, length in shapes if length == 1 and width > 1]
    runs = tuple(Shape(width, length) for width, length in shapes if length > 1)
    return LeadShape(runs, tuple(sorted(widths, reverse=True)))


@lru_cache(maxsize=512)
def lead_form(
    shapes: Shapes, suit: int, patterns: FollowPatterns, tractors: FollowTractors = FollowTractors.REQUIRED
) -> LeadForm:
    """The ``LeadForm`` of a lead of units of ``shapes`` in ``suit`` under the
    ``follow_patterns`` option ``patterns`` and the ``follow_tractors`` option
    ``tractors`` (``pairs_only`` obliges by the generic rule, never by a seed's
    pattern list, whose steps ask for tractors)."""
    unit: Shape | None = Shape(*shapes[0]) if len(shapes) == 1 else None
    if unit is not None and (tractors is FollowTractors.PAIRS_ONLY or pattern_list(patterns, unit) is None):
        unit = None
    return LeadForm(
        shapes=shapes,
        suit=suit,
        cards=sum(width * length for width, length in shapes),
        largest=largest(shapes),
        single=len(shapes) == 1,
        tractors=any(length > 1 for _, length in shapes),
        generic=generic_shape(shapes, tractors),
        unit=unit,
        patterns=patterns,
        pieces=pieces([Shape(*shape) for shape in shapes if shape[0] > 1], sum(w == 1 for w, _ in shapes)),
        shape_facts=tuple(Shape(*shape) for shape in shapes),
    )


@lru_cache(maxsize=1024)
def lead_of(
    cards: tuple[int, ...], order: TrumpOrder, patterns: FollowPatterns,
    tractors: FollowTractors = FollowTractors.REQUIRED,
) -> Lead:
    """The ``Lead`` of the sorted ``cards`` (one effective suit, checked by the
    caller) under ``order``, the ``follow_patterns`` option ``patterns`` and the
    ``follow_tractors`` option ``tractors`` (only what it obliges a follower
    depends on the last two)."""
    units = decompose(cards, order)
    suit = units[0].suit
    form = lead_form(unit_shapes(units), suit, patterns, tractors)
    facts = tuple([Cards(unit.cards) for unit in units]) if len(units) > 1 else ()
    return Lead(cards, units, suit_view(order, suit), form, facts)
