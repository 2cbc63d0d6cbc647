"""One effective suit under a trump order: the suit model (docs/rules.md §2, §3).

A ``SuitView`` numbers the card kinds of one effective suit 0..k-1, low → high
(by order step, then power, then kind), and answers every question that needs
the suit's shape:

* **counts**: a hand or play as a count vector (how many copies of each kind);
* **runs**: the one walker along the order's chains.  What a tractor is lives
  here and nowhere else: ``width`` identical cards at each of ``length`` ≥ 2
  *consecutive positions of one chain* (seed 000 【拖拉機的構成】, seed 002
  拖拉機); a position is the kinds of one order step that may serve there
  (all of them, or one where a kind-to-kind link enters or leaves it).
  Decomposition (``engine.units``), placements (``spots``), the
  throw's search (``highest``) and the generic rule's ``line`` all read the chains
  through it;
* **ranks**: ``unit_rank``, the one rank formula (a tuple's rank is its kind's power).

The chains themselves are built in one place, ``engine.trump.trump_order``: a new
adjacency is one new or longer chain there, and every walk above follows it
unchanged.  One reader is narrower: the generic follow rule (``engine.generic``)
walks a single *line* (``line``: every step, neighbours linked wholly or not at all,
kind-to-kind links two steps up, and a step linked again below the lowest, which
is what ``ace_low_tractor`` adds); a chain of another form makes ``line`` raise
``NotImplementedError`` rather than score silently wrong.

The view is cached per (order, suit, protect): a ``TrumpOrder`` is itself built
once per (trump, rules), so the key is whole.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import pairwise, product

from engine.cards import KINDS
from engine.trump import TrumpOrder

NO_RANK = -(1 << 30)
"""Below every rank: what a suit holding no unit of a shape ranks."""


def unit_rank(value: int, power: int) -> int:
    """The rank of a unit whose top position on its chain has strength ``value``
    and whose top kind has ``power`` (docs/rules.md §3): units of one shape
    compare by it.  ``power % 4`` is the kind's refinement within its step."""
    return value * 4 + power % 4


Run = tuple[int, list[int]]  # (chain index, consecutive positions on it, low → high)


@dataclass(frozen=True, slots=True, eq=False)
class SuitView:
    """The card kinds of one effective suit, numbered 0..k-1 low → high.

    ``steps[s]`` lists the indices at order step ``s`` (several for the off-suit
    level cards, by power then kind); ``chains`` and ``chain_values`` are the
    order's chains (each position the indices that may serve there) with their
    strengths; ``tops[n]`` ranks the highest run of ``n`` positions (or ``NO_RANK``).
    ``preferred`` and ``chains_preferred`` hold the same indices in the order a seat
    takes kinds for a tuple (``_preferred``): every index of the suit, and each
    chain position's.
    """

    order: TrumpOrder
    suit: int
    kinds: tuple[int, ...]
    index: dict[int, int]
    power: tuple[int, ...]
    steps: tuple[tuple[int, ...], ...]
    chains: tuple[tuple[tuple[int, ...], ...], ...]  # per chain, per position: its indices
    chain_values: tuple[tuple[int, ...], ...]
    step_of: tuple[int, ...]  # per index: its order step
    chain_pos: tuple[dict[int, int], ...]  # per chain: index → its position on it
    index_table: bytes  # ``bytes.translate`` table: kind of this suit → its index (a byte no kind: 255)
    others: bytes  # the kinds 0..53 not of this suit (what ``counts_in`` drops; fewer bytes to drop cost less)
    members: frozenset[int]  # the kinds of this suit
    void: tuple[int, ...]  # the count vector of cards holding none of them
    tops: tuple[int, ...]  # indexed by length (0: none)
    preferred: tuple[int, ...]  # every index, the highest power first, then the lowest kind
    chains_preferred: tuple[tuple[tuple[int, ...], ...], ...]  # per chain, per position: its indices so
    read_line: Line | str  # the chains as the generic rule's line, or why they cannot be one
    protect: bool = False  # option protect_longer_tuples, for placing what a hand could play (``spots``)

    def counts_in(self, cards: Sequence[int]) -> tuple[int, ...]:
        """Count vector of the cards of this suit among ``cards`` (kinds 0..53: the
        others dropped by one ``translate``, which costs less than testing each
        card; ``cards`` already a ``bytes``, as ``check_throw`` hands them, is read as
        it is; a list is copied into a ``bytearray``, 1 to 2 kIr fewer than a ``bytes``
        for 25 to 52 cards, callgrind).
        Cards holding none of the suit (a follower who ruffs or discards) are told
        by one ``frozenset.isdisjoint``, which stops at the first card of the suit:
        a quarter of the copy and the table's cost."""
        if self.members.isdisjoint(cards):
            return self.void
        vec = [0] * len(self.kinds)
        for i in (cards if isinstance(cards, bytes) else bytearray(cards)).translate(self.index_table, self.others):
            vec[i] += 1
        return tuple(vec)

    def counts(self, cards: Iterable[int]) -> tuple[int, ...]:
        """Count vector of ``cards`` (all of this suit)."""
        vec = [0] * len(self.kinds)
        for c in cards:
            vec[self.index[c]] += 1
        return tuple(vec)

    def cards(self, counts: Sequence[int]) -> list[int]:
        """The cards of a count vector, high → low."""
        kinds = self.kinds
        return self.order.sorted([kinds[i] for i, c in enumerate(counts) if c for _ in range(c)])

    def held(self, counts: Sequence[int], width: int) -> set[int]:
        """The indices that can supply a tuple of ``width``."""
        return {i for i, c in enumerate(counts) if c >= width}

    def runs(self, held: Collection[int], shortest: int = 2) -> list[Run]:
        """The maximal runs of consecutive chain positions holding one of the
        indices ``held``, at least ``shortest`` long: (chain index, positions low
        → high), chains in order, each chain's runs low → high.  Every tractor
        lies inside one of them (docs/rules.md §3)."""
        out: list[Run] = []
        if len(held) < shortest:
            return out
        for c, pos_of in enumerate(self.chain_pos):
            run: list[int] = []
            last = -2
            for pos in sorted({pos_of[i] for i in held if i in pos_of}):
                if pos != last + 1:
                    if len(run) >= shortest:
                        out.append((c, run))
                    run = []
                run.append(pos)
                last = pos
            if len(run) >= shortest:
                out.append((c, run))
        return out

    def best_at(self, place: Sequence[int], counts: Sequence[int], width: int) -> int:
        """The index of ``place`` a seat uses for a ``width``-tuple: the first of
        them held ``width`` times, ``place`` given in the order a seat takes kinds
        (``_preferred``: the highest power, then the lowest kind); -1 if none."""
        for i in place:
            if counts[i] >= width:
                return i
        return -1

    def spots(self, counts: Sequence[int], width: int, length: int) -> list[tuple[tuple[int, ...], int]]:
        """Every way ``counts`` can realise ``length`` tuples of ``width`` (a
        tuple or a tractor), as (indices low → high, rank), distinct, low → high.
        At a step with several kinds (off-suit level cards) any one may serve;
        in a ``protect`` view a kind supplies only a tuple of exactly its width."""
        power = self.power
        if self.protect:
            held = [i for i, c in enumerate(counts) if c == width]
        else:
            held = [i for i, c in enumerate(counts) if c >= width]
        if length == 1:
            return [((i,), power[i]) for i in held]
        if len(held) < length:
            return []
        have = set(held)
        seen: set[tuple[int, ...]] = set()
        out: list[tuple[tuple[int, ...], int]] = []
        for c, run in self.runs(have, length):
            chain, values = self.chains[c], self.chain_values[c]
            for top in range(length - 1, len(run)):
                window = [[i for i in chain[p] if i in have] for p in run[top - length + 1 : top + 1]]
                for combo in product(*window):
                    if combo in seen:
                        continue
                    seen.add(combo)
                    out.append((combo, unit_rank(values[run[top]], power[combo[-1]])))
        return out

    def highest(self, counts: Sequence[int], width: int, length: int) -> tuple[int, tuple[int, ...]] | None:
        """The highest unit of ``length`` tuples of ``width`` that ``counts``
        hold, as (rank, its cards high → low), or None.  At each step the kind
        used is ``best_at``'s; on a tie of ranks the first chain's run wins."""
        if length == 1:  # the suit's first kind in a seat's order held ``width`` times: the highest
            i = self.best_at(self.preferred, counts, width)  # step held so, and ``best_at``'s kind at it
            if i < 0:
                return None
            return self.power[i], (self.kinds[i],) * width
        power = self.power
        held = self.held(counts, width)
        rank = NO_RANK
        best: list[int] = []
        for c, run in self.runs(held, length):
            chain, window = self.chains_preferred[c], []
            for p in run[-length:]:  # a loop: a comprehension would make the arguments cells (3.11), on every call
                window.append(self.best_at(chain[p], counts, width))
            top = unit_rank(self.chain_values[c][run[-1]], power[window[-1]])
            if top > rank:
                rank, best = top, window
        if not best:
            return None
        return rank, tuple(self.order.sorted(list(map(self.kinds.__getitem__, best)) * width))

    @property
    def line(self) -> Line:
        """The suit's chains read as the generic rule's ``Line``; ``NotImplementedError``
        for chains of any other form (the programme would score them wrongly)."""
        if isinstance(self.read_line, str):
            raise NotImplementedError(self.read_line)
        return self.read_line


@dataclass(frozen=True, slots=True)
class Line:
    """The generic rule's line of a suit (``SuitView.line``).

    ``steps``: every order step's indices, low → high; ``apart``: the steps p
    that do not link to step p + 1; ``skips``: (index, index) links from a kind
    to a kind two steps up (``level_constant_tractors``: ♠2 → ♠3 over ♦2);
    ``below``: the index linked again below the lowest step (``ace_low_tractor``),
    or None, and ``low``: how many of the lowest steps that bottom link continues into.
    """

    steps: tuple[tuple[int, ...], ...]
    apart: frozenset[int]
    skips: tuple[tuple[int, int], ...]
    below: int | None
    low: int


def _line(view: SuitView) -> Line | str:
    """``SuitView.line``, read once from the view's chains (or why it cannot be)."""
    step_of = view.step_of
    links: set[tuple[int, int]] = set()
    below: int | None = None
    low = 0
    for chain in view.chains:
        if len(chain) > 1 and step_of[chain[0][0]] > step_of[chain[1][0]]:  # the ace below the lowest
            if below is not None or len(chain[0]) != 1 or [step_of[p[0]] for p in chain[1:]] != list(range(len(chain) - 1)):
                return "the generic follow rule knows one bottom link, to the lowest steps"
            below, low = chain[0][0], len(chain) - 1
            chain = chain[1:]
        for here, there in pairwise(chain):
            links.update((a, b) for a in here for b in there)
    apart: set[int] = set()
    for p in range(len(view.steps) - 1):
        pairs = {(a, b) for a in view.steps[p] for b in view.steps[p + 1]}
        if not pairs & links:
            apart.add(p)
        elif not pairs <= links:
            return "the generic follow rule links neighbouring steps wholly or not at all"
    skips = sorted((a, b) for a, b in links if step_of[b] != step_of[a] + 1)
    if any(step_of[b] != step_of[a] + 2 for a, b in skips):
        return "the generic follow rule knows links of one or two steps"
    return Line(view.steps, frozenset(apart), tuple(skips), below, low)


def _preferred(indices: Iterable[int], power: Sequence[int]) -> tuple[int, ...]:
    """``indices`` in the order a seat takes kinds for a tuple (``best_at``): the
    highest power first (docs/rules.md §2: a higher step, or at one step a higher
    ``level_suit_precedence`` suit), then the lowest kind (of kinds of equal power,
    the one numbered first).  A power is its step's times four plus less than four,
    so over the whole suit this is also the highest step first."""
    return tuple(sorted(indices, key=lambda i: (-power[i], i)))


@lru_cache(maxsize=512)
def suit_view(order: TrumpOrder, suit: int, protect: bool = False) -> SuitView:
    """The (cached) view of effective suit ``suit`` under ``order``; with
    ``protect`` (option ``protect_longer_tuples``: what a follower's hand could
    have played, docs/rules.md §5) its ``spots`` take a kind only for a tuple of
    exactly its width."""
    if protect:
        return replace(suit_view(order, suit), protect=True)
    kinds: list[int] = []
    steps: list[tuple[int, ...]] = []
    for step_kinds in order.steps[suit]:
        ordered = sorted(step_kinds, key=lambda k: (order.power[k], k))
        steps.append(tuple(range(len(kinds), len(kinds) + len(ordered))))
        kinds += ordered
    index = {k: i for i, k in enumerate(kinds)}
    chains = tuple(
        tuple(tuple(sorted([index[k] for k in place])) for place in chain) for chain in order.chains[suit]
    )
    power = tuple(order.power[k] for k in kinds)
    view = SuitView(
        order=order,
        suit=suit,
        kinds=tuple(kinds),
        index=index,
        power=power,
        steps=tuple(steps),
        chains=chains,
        chain_values=order.chain_values[suit],
        step_of=tuple(s for s, members in enumerate(steps) for _ in members),
        chain_pos=tuple({i: pos for pos, place in enumerate(chain) for i in place} for chain in chains),
        index_table=bytes(kinds.index(k) if k in kinds else 0 if k < KINDS else 255 for k in range(256)),
        others=bytes(k for k in range(KINDS) if k not in kinds),
        members=frozenset(kinds),
        void=(0,) * len(kinds),
        tops=(),
        preferred=_preferred(range(len(kinds)), power),
        chains_preferred=tuple(tuple(_preferred(place, power) for place in chain) for chain in chains),
        read_line="",
    )
    every = [1] * len(kinds)  # the highest run of each length: with every kind held
    tops = [NO_RANK] * (len(kinds) + 1)
    for length in range(1, len(kinds) + 1):
        found = view.highest(every, 1, length)
        if found is not None:
            tops[length] = found[0]
    object.__setattr__(view, "tops", tuple(tops))
    object.__setattr__(view, "read_line", _line(view))
    return view
