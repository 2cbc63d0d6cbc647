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
from itertools import pairwise

from msgspec import Struct

from engine.cards import BIG_JOKER, KINDS, RANKS, SMALL_JOKER, SUITS, make, rank_of, suit_of
from engine.rules import Rules

TRUMP = 4
Chain = tuple[tuple[int, ...], ...]
"""A chain: positions low → high, each the kinds (of one order step) that may
serve there; every kind of a position links to every kind of the next."""
SUIT_LABELS: tuple[str, ...] = (*SUITS, "trump")
ACE = RANKS.index("A")


class Trump(Struct, frozen=True, gc=False):
    """The level rank (0..12 for 2..A) and the trump suit (0..3, None = 无主).

    A frozen ``msgspec.Struct``, as the reasons (``engine.reasons``): one is loaded
    per request and keys ``trump_order``'s cache, so it is built, hashed and
    compared in C (a dataclass does all three in Python)."""

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
    chains: tuple[tuple[Chain, ...], ...]  # per effective suit: sequences of linked positions
    chain_values: tuple[tuple[tuple[int, ...], ...], ...]  # aligned with chains: strength of each position
    rank: tuple[int, ...]  # per kind: its place in the display order (``sorted`` sorts by it)

    def sorted(self, cards: Iterable[int]) -> list[int]:
        """``cards`` high → low, the display order: trumps first, then S, H, C, D;
        higher power first; then by kind (through the precomputed ``rank`` of each kind)."""
        return sorted(cards, key=self.rank.__getitem__)


@lru_cache(maxsize=512)
def trump_order(trump: Trump, rules: Rules) -> TrumpOrder:
    """Build (once) the order of every card kind for ``trump`` under ``rules``."""
    level, tsuit = trump.level, trump.suit
    constants = tuple(r for r in rules.constant_trump_ranks if r != level)
    plain = [r for r in range(13) if r != level and r not in constants]  # a suit's ordinary run, low → high
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

    chains: list[tuple[Chain, ...]] = []
    chain_values: list[tuple[tuple[int, ...], ...]] = []
    for eff, eff_steps in enumerate(steps):
        owner = tsuit if eff == TRUMP else eff
        found = _suit_chains(eff_steps, eff == TRUMP, rules, level, constants, tsuit, len(plain))
        if rules.ace_low_tractor and owner is not None and ACE in plain and eff_steps:
            # docs/rules.md §3 ace_low_tractor: A also links below the suit's lowest plain rank,
            # only at the bottom of a tractor (AA2233); it then ranks lowest.
            low = tuple(range(len(plain) - 1))  # the suit's own plain ranks below A
            found.append((((make(owner, ACE),), *[eff_steps[i] for i in low]), (-1, *low)))
        chains.append(tuple(c for c, _ in found))
        chain_values.append(tuple(v for _, v in found))
    display = sorted(range(KINDS), key=lambda k: (0 if suit[k] == TRUMP else 1 + suit[k], -power[k], k))
    places = [0] * KINDS
    for place, kind in enumerate(display):
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


def _suit_chains(
    steps: list[tuple[int, ...]], is_trump: bool, rules: Rules, level: int, constants: tuple[int, ...],
    tsuit: int | None, plain: int,
) -> list[tuple[Chain, tuple[int, ...]]]:
    """The chains of one effective suit with the strength of each position (its
    order step), before ``ace_low_tractor``'s bottom link (docs/rules.md §3).

    A plain suit is one chain through its steps.  The trump suit's main chain runs
    through every step, jokers and level cards included; with
    ``tractors_through_level_cards`` off it breaks into the trump suit's own ranks
    and the joker pair (the level and constant-rank cards link to nothing).  With
    ``level_constant_tractors`` the tuples of one suit's trump-A (in the trump
    suit), constant ranks and level rank link in that order too, kind by kind: one
    more chain per path that takes such a link (``_linked_paths``)."""
    whole = tuple(range(len(steps)))
    if not is_trump:
        return [(tuple(steps), whole)]
    if not rules.tractors_through_level_cards:
        # Botzone: the trump suit's own ranks chain (A..2 skipping level and constants), and SJ-BJ
        own = tuple(range(plain if tsuit is not None else 0))
        out = [(tuple(steps[i] for i in own), own)] if own else []
        return [*out, ((steps[-2], steps[-1]), (len(steps) - 2, len(steps) - 1))]
    found = [(tuple(steps), whole)]
    if rules.level_constant_tractors and constants:
        found += _linked_paths(steps, _same_suit_links(steps, level, constants, tsuit))
    return found


def _same_suit_links(
    steps: list[tuple[int, ...]], level: int, constants: tuple[int, ...], tsuit: int | None
) -> set[tuple[int, int]]:
    """``level_constant_tractors`` (seed 000 四副 §7 主AA22, 级别连拖; seed 002 牌的大小 4):
    for each suit, its trump-A (trump suit only), its constant ranks low → high and
    its level rank link in that order, kind to kind.  Only the links that skip an
    order step are new (the others are the main chain's already)."""
    step_of = {k: i for i, kinds in enumerate(steps) for k in kinds}
    links: set[tuple[int, int]] = set()
    for s in range(4):
        ladder = [make(s, r) for r in sorted(constants)] + [make(s, level)]
        if s == tsuit and ACE != level and ACE not in constants:
            ladder.insert(0, make(s, ACE))
        ladder = [k for k in ladder if k in step_of]
        for low, high in pairwise(ladder):
            if step_of[high] > step_of[low] + 1:
                links.add((low, high))
    return links


def _linked_paths(steps: list[tuple[int, ...]], links: set[tuple[int, int]]) -> list[tuple[Chain, tuple[int, ...]]]:
    """Every maximal path up the steps that takes at least one of ``links``, as a
    chain with its strengths.  A position is a whole step, or a single kind where a
    link enters or leaves it; a path may switch between links and the main chain's
    consecutive steps as often as it likes (♦AA→♦22→♠33→♦33 is one)."""
    step_of = {k: i for i, kinds in enumerate(steps) for k in kinds}
    out: list[tuple[Chain, tuple[int, ...]]] = []

    def grow(path: list[tuple[int, tuple[int, ...]]], linked: bool, must_link: bool) -> None:
        step, kinds = path[-1]
        onward: list[tuple[int, tuple[int, ...], bool, bool]] = []  # (step, kinds, by a link, must link next)
        if len(kinds) == 1:
            onward += [(step_of[b], (b,), True, False) for a, b in sorted(links) if a == kinds[0]]
        if step + 1 < len(steps) and not must_link:
            nxt = steps[step + 1]
            onward.append((step + 1, nxt, False, False))
            if len(nxt) > 1:  # a single kind of the next step, entered to leave it by a link
                onward += [(step + 1, (k,), False, True) for k in nxt if any(a == k for a, _ in links)]
        for at, kinds_at, by_link, must in onward:
            path.append((at, kinds_at))
            grow(path, linked or by_link, must)
            path.pop()
        if not onward and linked:
            out.append((tuple(k for _, k in path), tuple(s for s, _ in path)))

    grow([(0, steps[0])], False, False)
    return out

