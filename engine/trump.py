"""The trump context and the order of cards (docs/rules.md §2).

``TrumpOrder`` is computed once per (trump, rules) and cached.  For every card
kind it holds:

* ``suit``: the effective suit, 0..3 for a plain suit or ``TRUMP``;
* ``step``: the card's position among the distinct ranks of its effective
  suit, low → high (cards of equal order share a step: the off-suit level
  cards, the off-suit constant trumps).  Consecutive steps are what tractors
  link (docs/rules.md §3);
* ``power``: ``step`` refined by ``level_suit_precedence`` (seed 002: off-suit
  level cards rank S > H > C > D instead of tying); single cards compare by it.

Trump order, high → low (seed 000 牌的大小顺序, seed 001): BJ, SJ, level card of
the trump suit, off-suit level cards (equal), for each constant-trump rank its
trump-suit card then its off-suit cards (equal), then the trump suit's other
ranks A..2.  A plain suit runs A..2 skipping the level and constant ranks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from engine.cards import BIG_JOKER, KINDS, RANKS, SMALL_JOKER, SUITS, make, rank_of, suit_of
from engine.rules import Rules

TRUMP = 4
SUIT_LABELS: tuple[str, ...] = (*SUITS, "trump")
ACE = RANKS.index("A")


@dataclass(frozen=True, slots=True)
class Trump:
    """The level rank (0..12 for 2..A) and the trump suit (0..3, None = 无主)."""

    level: int
    suit: int | None

    def as_json(self) -> dict[str, str | None]:
        return {"level": RANKS[self.level], "suit": None if self.suit is None else SUITS[self.suit]}


@dataclass(frozen=True, slots=True, eq=False)
class TrumpOrder:
    """Precomputed order of every card kind under one trump and rule set.

    Built only by the cached ``trump_order``, so identity is equality and the
    object hashes cheaply as a cache key.
    """

    trump: Trump
    suit: tuple[int, ...]  # effective suit per kind
    step: tuple[int, ...]  # order step inside the effective suit, low → high
    power: tuple[int, ...]  # comparison value inside the effective suit
    steps: tuple[tuple[tuple[int, ...], ...], ...]  # per effective suit: kinds at each step
    chains: tuple[tuple[tuple[int, ...], ...], ...]  # per effective suit: sequences of linkable steps
    chain_values: tuple[tuple[tuple[int, ...], ...], ...]  # aligned with chains: strength of each position
    rank: tuple[int, ...]  # per kind: its place in ``sort_key`` order (``sorted`` sorts by it)

    def is_trump(self, card: int) -> bool:
        return self.suit[card] == TRUMP

    def sort_key(self, card: int) -> tuple[int, int, int]:
        """Sorts high → low: trumps first, then S, H, C, D; by power; then by kind."""
        return _display_key(self.suit[card], self.power[card], card)

    def sorted(self, cards: Iterable[int]) -> list[int]:
        """``cards`` high → low in trump order (a deterministic display order):
        by ``sort_key``, through the precomputed ``rank`` of each kind."""
        return sorted(cards, key=self.rank.__getitem__)


def _display_key(eff: int, power: int, card: int) -> tuple[int, int, int]:
    """The display order (``TrumpOrder.sort_key``): trumps first, then S, H, C, D;
    higher power first; then by kind."""
    return (0 if eff == TRUMP else 1 + eff, -power, card)


def _plain_ranks(level: int, constants: tuple[int, ...]) -> list[int]:
    """Ranks of a suit's ordinary run, low → high, skipping level and constant ranks."""
    return [r for r in range(13) if r != level and r not in constants]


@lru_cache(maxsize=512)
def trump_order(trump: Trump, rules: Rules) -> TrumpOrder:
    """Build (once) the order of every card kind for ``trump`` under ``rules``."""
    level, tsuit = trump.level, trump.suit
    constants = tuple(r for r in rules.constant_trump_ranks if r != level)
    plain = _plain_ranks(level, constants)
    # steps per effective suit, low → high, each a tuple of kinds
    steps: list[list[tuple[int, ...]]] = [[] for _ in range(5)]
    for s in range(4):
        if s != tsuit:
            steps[s] = [(make(s, r),) for r in plain]
    trump_steps: list[tuple[int, ...]] = []
    if tsuit is not None:
        trump_steps += [(make(tsuit, r),) for r in plain]
    others = [s for s in range(4) if s != tsuit]
    for rank in sorted(constants):  # lower constant ranks below higher ones
        trump_steps.append(tuple(make(s, rank) for s in others))
        if tsuit is not None:
            trump_steps.append((make(tsuit, rank),))
    trump_steps.append(tuple(make(s, level) for s in others))
    if tsuit is not None:
        trump_steps.append((make(tsuit, level),))
    trump_steps += [(SMALL_JOKER,), (BIG_JOKER,)]
    steps[TRUMP] = trump_steps

    suit = [0] * KINDS
    step = [0] * KINDS
    power = [0] * KINDS
    for eff, eff_steps in enumerate(steps):
        for i, kinds in enumerate(eff_steps):
            for kind in kinds:
                suit[kind] = eff
                step[kind] = i
                sub = 0
                if rules.level_suit_precedence and rank_of(kind) == level and suit_of(kind) != tsuit:
                    sub = 3 - (suit_of(kind) or 0)  # S > H > C > D
                power[kind] = i * 4 + sub

    chains: list[tuple[tuple[int, ...], ...]] = []
    chain_values: list[tuple[tuple[int, ...], ...]] = []
    for eff, eff_steps in enumerate(steps):
        main = tuple(range(len(eff_steps)))
        suit_chains = [main]
        values = [main]
        owner = tsuit if eff == TRUMP else eff
        if rules.ace_low_tractor and owner is not None and ACE in plain:
            # docs/rules.md §3 ace_low_tractor: A also links below the suit's lowest plain rank,
            # only at the bottom of a tractor (AA2233); it then ranks lowest.
            ace_step = step[make(owner, ACE)]
            low = tuple(range(len(plain) - 1))  # the suit's own plain ranks below A
            suit_chains.append((ace_step, *low))
            values.append((-1, *low))
        chains.append(tuple(suit_chains))
        chain_values.append(tuple(values))
    places = [0] * KINDS
    for place, kind in enumerate(sorted(range(KINDS), key=lambda k: _display_key(suit[k], power[k], k))):
        places[kind] = place
    return TrumpOrder(
        trump=trump,
        suit=tuple(suit),
        step=tuple(step),
        power=tuple(power),
        steps=tuple(tuple(s) for s in steps),
        chains=tuple(chains),
        chain_values=tuple(chain_values),
        rank=tuple(places),
    )


def suit_label(order: TrumpOrder, card: int) -> str:
    """``"trump"`` or the plain suit letter of ``card``."""
    return SUIT_LABELS[order.suit[card]]
