"""Combinations (docs/rules.md §3) and the decomposition of a card set into units.

A *unit* is a tuple of ``width`` identical cards (single, pair 对子, triple 三条,
quad 四条) or a tractor 拖拉机: ``length`` ≥ 2 tuples of one width at
consecutive order steps of one effective suit (``TrumpOrder.chains``).

``decompose`` is the one deterministic decomposition that leads, throws,
following, trick comparison and the kitty all share (docs/rules.md §4): repeatedly take
the unit with the most cards; ties → the wider; ties → the higher.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.cards import card_str
from engine.errors import Problem
from engine.records import quick_init
from engine.trump import SUIT_LABELS, TrumpOrder


@quick_init
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
        """``single``, ``tuple`` or ``tractor`` (docs/api.md analyze)."""
        if self.length > 1:
            return "tractor"
        return "single" if self.width == 1 else "tuple"

    def describe(self) -> str:
        return "".join(card_str(c) for c in self.cards)


def _pick_kind(order: TrumpOrder, kinds: Iterable[int], counts: Mapping[int, int], width: int) -> int | None:
    """Which kind of a step supplies a tuple of ``width``: the highest power
    (docs/rules.md §4 "ties → the higher"), then the tightest fit (keeping wider tuples
    whole), then the lowest kind."""
    best: tuple[int, int, int] | None = None
    for kind in kinds:
        c = counts.get(kind, 0)
        if c >= width:
            key = (-order.power[kind], c, kind)
            if best is None or key < best:
                best = key
    return None if best is None else best[2]


Chains = tuple[tuple[dict[int, int], tuple[int, ...], tuple[int, ...]], ...]


@lru_cache(maxsize=4096)
def _chain_places(order: TrumpOrder, suit: int) -> Chains:
    """Per chain of ``suit``: each step's position in it, the chain, its values."""
    return tuple(
        ({step: pos for pos, step in enumerate(chain)}, chain, values)
        for chain, values in zip(order.chains[suit], order.chain_values[suit], strict=True)
    )


Span = tuple[tuple[int, ...], tuple[int, ...], list[int]]  # a chain, its values, consecutive positions in it


def _pair_spans(order: TrumpOrder, counts: dict[int, int], chains: Chains) -> tuple[dict[int, list[int]], list[Span]]:
    """The kinds held at least twice at each order step, and the maximal runs of
    such steps along each chain (chains in order, runs low → high).  Every
    tractor lies in one of these spans (a wider tuple holds a pair); with none,
    ``counts`` hold no tractor, and taking cards away never makes one."""
    step_of = order.step
    held: dict[int, list[int]] = {}
    for kind, c in counts.items():
        if c >= 2:
            held.setdefault(step_of[kind], []).append(kind)
    spans: list[Span] = []
    if len(held) >= 2:
        for places, chain, values in chains:
            span: list[int] = []
            last = -2
            for pos in sorted([places[step] for step in held if step in places]):
                if pos != last + 1:
                    if len(span) >= 2:
                        spans.append((chain, values, span))
                    span = []
                span.append(pos)
                last = pos
            if len(span) >= 2:
                spans.append((chain, values, span))
    return held, spans


def _best_tractor(
    order: TrumpOrder, suit: int, counts: dict[int, int], held: dict[int, list[int]], spans: list[Span]
) -> Unit | None:
    """The tractor with the most cards, then the widest, then the highest, if it
    has more cards than the widest tuple (a tuple beats a tractor of as many
    cards: it is wider); None if there is none such.

    Each candidate is a maximal run of a chain at one width, compared by
    (cards, width, rank, -lowest kind); the first offered wins a full tie
    (widths rising, chains in order, runs low → high).  Only the spans of
    pairs (``_pair_spans``) are searched, and a span too short to reach as
    many cards as the best so far offers nothing better.
    """
    power = order.power
    widest = max(counts.values())
    best_key = (widest, widest, 0, 0)  # the widest tuple: only more cards beat it
    best_width, best_kinds, best_rank = 0, [0], 0
    for width in range(2, widest + 1):
        for chain, values, span in spans:
            if width * len(span) < best_key[0]:
                continue
            run: list[int] = []
            top = 0
            for pos in span:
                kinds = held[chain[pos]]
                if len(kinds) == 1:
                    picked = kinds[0] if counts[kinds[0]] >= width else None
                else:
                    picked = _pick_kind(order, kinds, counts, width)
                if picked is not None:
                    run.append(picked)
                    top = values[pos] * 4 + power[picked] % 4
                    continue
                if len(run) >= 2:
                    key = (width * len(run), width, top, -min(run))
                    if key > best_key:
                        best_key, best_width, best_kinds, best_rank = key, width, run, top
                run = []
            if len(run) >= 2:
                key = (width * len(run), width, top, -min(run))
                if key > best_key:
                    best_key, best_width, best_kinds, best_rank = key, width, run, top
    if not best_width:
        return None
    return Unit(best_width, len(best_kinds), tuple(order.sorted(best_kinds * best_width)), best_rank, suit)


@lru_cache(maxsize=4096)
def _decompose(cards: tuple[int, ...], order: TrumpOrder) -> tuple[Unit, ...]:
    counts: dict[int, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    suit = order.suit[cards[0]]
    chains = _chain_places(order, suit)
    power = order.power
    units: list[Unit] = []
    while counts:
        held, spans = _pair_spans(order, counts, chains)
        if not spans:
            break
        unit = _best_tractor(order, suit, counts, held, spans)
        if unit is None:  # the widest tuple, the highest of them (then the lowest kind)
            widest = max(counts.values())
            kind = min([k for k, c in counts.items() if c == widest], key=lambda k: (-power[k], k))
            unit = Unit(widest, 1, (kind,) * widest, power[kind], suit)
        units.append(unit)
        width = unit.width
        for kind in unit.cards[::width]:
            left = counts[kind] - width
            if left:
                counts[kind] = left
            else:
                del counts[kind]
    units += _tuples(counts, power, suit)
    return tuple(units)


def _tuples(counts: Mapping[int, int], power: Mapping[int, int] | Sequence[int], suit: int) -> list[Unit]:
    """No tractor is left (and none can form as cards leave): each step takes the
    whole tuple of one kind, the largest, then the highest (then the lowest kind)."""
    return [
        Unit(counts[kind], 1, (kind,) * counts[kind], power[kind], suit)
        for _, _, kind in sorted([(-c, -power[k], k) for k, c in counts.items()])
    ]


@lru_cache(maxsize=1024)
def _tuples_only(cards: tuple[int, ...], powers: tuple[int, ...], suit: int) -> tuple[Unit, ...]:
    """``_decompose`` of sorted ``cards`` (``powers`` aligned) holding at most one
    kind twice: no tractor can form, so only the cards' powers matter, not the
    order's steps — cached by those values, which recur across hands and trumps."""
    counts: dict[int, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return tuple(_tuples(counts, dict(zip(cards, powers, strict=True)), suit))


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
    if len(key) - len(set(key)) <= 1:  # a tractor needs two kinds held twice
        power = order.power
        return _tuples_only(key, tuple([power[c] for c in key]), suit_of[key[0]])
    return _decompose(key, order)


def unit_shapes(units: Iterable[Unit]) -> tuple[tuple[int, int], ...]:
    """The (width, length) of each unit, in order: a lead's form without its cards."""
    return tuple([(u.width, u.length) for u in units])


def effective_suits(cards: Iterable[int], order: TrumpOrder) -> set[int]:
    """The effective suits present in ``cards``."""
    return {order.suit[c] for c in cards}


def is_tractor(cards: Iterable[int], order: TrumpOrder) -> bool:
    """True iff ``cards`` are exactly one tractor (docs/rules.md §3 examples)."""
    cards = list(cards)
    if not cards or len(effective_suits(cards, order)) != 1:
        return False
    units = decompose(cards, order)
    return len(units) == 1 and units[0].length >= 2


def mixed_suit_problems(lead: Sequence[int], order: TrumpOrder, path: tuple[str | int, ...]) -> list[Problem]:
    """docs/rules.md §4: a lead is one effective suit.  One problem per card (at
    ``(*path, index)``) outside the effective suit of the lead's first card."""
    if not lead:
        return []
    first = order.suit[lead[0]]
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
