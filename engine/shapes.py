"""Shapes and where a set of cards can realise them (docs/rules.md §3, §5).

A *shape* is ``width`` identical cards at each of ``length`` consecutive order
steps of one effective suit: a single (1×1), pair (2×1), triple (3×1), quad
(4×1), or a tractor (length ≥ 2; seed 000 【拖拉機的構成】, seed 002 拖拉機).

Following (§5) asks "can these cards form these shapes, disjointly?": answered
here on *count vectors* of one effective suit (``engine.suit.SuitView`` says
where a shape can be placed along the order's chains).  A wider tuple may
supply a narrower one (a triple holds a pair and a single); in a ``protect``
view (option ``protect_longer_tuples``) a kind supplies only a tuple of exactly
its own width, and a single only when it is a single.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from msgspec import Struct

from engine.records import quick_init
from engine.suit import SuitView


class Shape(Struct, frozen=True, order=True, gc=False):
    """``length`` tuples of ``width`` identical cards at consecutive steps.

    A frozen struct, like the facts of a reason (``engine.reasons``), which name
    shapes: built, hashed and compared in C, equal only to a shape.  Shapes order
    by width, then length."""

    width: int
    length: int = 1

    @property
    def size(self) -> int:
        return self.width * self.length

    @property
    def is_tractor(self) -> bool:
        return self.length > 1


def usable(count: int, width: int, protect: bool) -> bool:
    """Can a kind held ``count`` times supply a tuple of ``width``?"""
    return count == width if protect else count >= width


@quick_init
@dataclass(frozen=True, slots=True)
class Placed:
    """A shape realised by particular kinds (layout indices, low → high)."""

    shape: Shape
    at: tuple[int, ...]
    rank: int  # strength among realisations of the same shape (Unit.rank convention)


def placed_cards(lay: SuitView, pieces: Iterable[Placed]) -> list[int]:
    """The cards of realised shapes."""
    out: list[int] = []
    for p in pieces:
        for i in p.at:
            out += [lay.kinds[i]] * p.shape.width
    return out


def _tightest(counts: list[int], width: int, protect: bool) -> int | None:
    """The kind that supplies a ``width``-tuple wasting least: the smallest
    sufficient count, then the lowest card (a deterministic, cheap choice)."""
    for c in (width,) if protect else range(width, max(counts, default=0) + 1):
        if c in counts:
            return counts.index(c)
    return None


_TUPLES = {w: Shape(w) for w in range(1, 5)}  # a tuple is 1 to 4 copies of a card (at most four decks)


def place_tuples(
    lay: SuitView, counts: Sequence[int], widths: Sequence[int], protect: bool = False
) -> tuple[tuple[int, ...], list[Placed]] | None:
    """Realise tuples of ``widths`` (any order) disjointly, or None.

    Widest first, each from the tightest-fitting kind.  With widths ≤ 4 this
    greedy is exact: a kind left with c − w copies after a w-tuple can still
    give only narrower tuples, and the tightest fit keeps the most of them.
    """
    vec = list(counts)
    done: list[Placed] = []
    for w in sorted(widths, reverse=True):
        i = _tightest(vec, w, protect)
        if i is None:
            return None
        vec[i] -= w
        done.append(Placed(_TUPLES.get(w) or Shape(w), (i,), lay.power[i]))
    return tuple(vec), done


@dataclass(frozen=True, slots=True)
class FormPlan:
    """What ``form_planned`` needs of a list of shapes, worked out once: its tractors,
    largest first (the order the search places them), the widths of its other
    tuples, the cards its shapes of width 2 and more take, and the widest of them."""

    tractors: tuple[Shape, ...]
    widths: tuple[int, ...]
    cards: int
    widest: int


def form_plan(pieces: Sequence[Shape]) -> FormPlan:
    """The ``FormPlan`` of ``pieces``."""
    return FormPlan(
        tuple(sorted((p for p in pieces if p.is_tractor), key=lambda s: (-s.size, -s.width, -s.length))),
        tuple(p.width for p in pieces if not p.is_tractor and p.width > 1),
        sum(p.size for p in pieces if p.width > 1),
        max((p.width for p in pieces if p.width > 1), default=0),
    )


def form_planned(
    lay: SuitView, counts: tuple[int, ...], plan: FormPlan, total: int, most: int
) -> list[Placed] | None:
    """Can ``counts`` (of sum ``total`` and largest ``most``) supply every shape of
    ``plan`` disjointly?  One way, or None.  Tractors are placed by depth-first
    search (memoised on the count vector), then tuples greedily (``place_tuples``)."""
    if plan.cards > total or plan.widest > most:
        return None
    tractors, widths, protect = plan.tractors, plan.widths, lay.protect
    failed: set[tuple[int, tuple[int, ...]]] = set()

    def search(k: int, vec: tuple[int, ...]) -> list[Placed] | None:
        if k == len(tractors):
            done = place_tuples(lay, vec, widths, protect)
            return None if done is None else done[1]
        if (k, vec) in failed:
            return None
        tractor = tractors[k]
        for at, rank in lay.spots(vec, tractor.width, tractor.length):
            left = list(vec)
            for i in at:
                left[i] -= tractor.width
            rest = search(k + 1, tuple(left))
            if rest is not None:
                return [Placed(tractor, at, rank), *rest]
        failed.add((k, vec))
        return None

    return search(0, counts)


def fill(lay: SuitView, counts: Sequence[int], used: Sequence[int], n: int) -> list[int]:
    """``n`` cards: the cards ``used`` plus the lowest remaining ones of ``counts``."""
    out = list(used)
    if len(out) >= n:
        return out
    vec = list(counts)
    index = lay.index
    for c in used:
        vec[index[c]] -= 1
    kinds = lay.kinds
    for i, c in enumerate(vec):
        if c:
            out += [kinds[i]] * min(c, n - len(out))
            if len(out) >= n:
                break
    return out


def in_hand(cards: Sequence[int], hand: Sequence[int]) -> bool:
    """Is every card of ``cards`` in ``hand``, copies counted?  (A fast
    pre-check; the callers word a problem per missing card.)"""
    if len(cards) == 1:
        return cards[0] in hand
    left = list(hand)
    try:
        for card in cards:
            left.remove(card)
    except ValueError:
        return False
    return True

