"""Shapes and where a set of cards can realise them (docs/rules.md §3, §5, §6).

A *shape* is ``width`` identical cards at each of ``length`` consecutive order
steps of one effective suit: a single (1×1), pair (2×1), triple (3×1), quad
(4×1), or a tractor (length ≥ 2; seed 000 【拖拉機的構成】, seed 002 拖拉機).

Following (docs/rules.md §5) asks "can these cards form these shapes, disjointly?";
the trick (docs/rules.md §6) asks "in how many ways can this play be arranged into the
lead's units?".  Both questions are answered here on *count vectors*: a
``Layout`` numbers the card kinds of one effective suit, and a count vector
says how many copies of each kind a hand or play holds.  The order itself
(steps, chains, powers) comes from ``engine.trump.TrumpOrder``; nothing here
re-implements it.

A wider tuple may supply a narrower one (a triple holds a pair and a single);
with ``protect`` (option ``protect_longer_tuples``) a kind may only supply a
tuple of exactly its own width, and a single only when it is a single.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from engine.records import quick_init
from engine.trump import TrumpOrder
from engine.words import shape_name, zh_number


@dataclass(frozen=True, slots=True, order=True)
class Shape:
    """``length`` tuples of ``width`` identical cards at consecutive steps."""

    width: int
    length: int = 1

    @property
    def size(self) -> int:
        return self.width * self.length

    @property
    def is_tractor(self) -> bool:
        return self.length > 1

    def name(self, language: str = "en") -> str:
        """``pair``, ``3-pair tractor``, ``triple tractor of 2`` / 对子, 三连拖, 三条两连拖."""
        return shape_name(self.width, self.length, language)

    def counted(self, count: int, language: str = "en") -> str:
        """``a pair``, ``2 pairs``, ``a 2-pair tractor`` / 一对, 两对, 一个两连拖."""
        if language == "zh":
            if self.width == 1:
                return f"{zh_number(count)}张单牌"
            if self.width == 2 and self.length == 1:
                return f"{zh_number(count)}对"
            return f"{zh_number(count) if count != 1 else '一'}个{self.name('zh')}"
        name = self.name("en")
        if count == 1:
            return f"an {name}" if name[0] in "aeiou" else f"a {name}"
        plural = name.replace("tractor", "tractors") if self.length > 1 else name + "s"
        return f"{count} {plural}"


SINGLE = Shape(1, 1)


def describe_pieces(pieces: Iterable[Shape], singles: int, language: str = "en") -> str:
    """``a 2-pair tractor + a pair + 2 singles`` / ``一个两连拖 + 一对 + 两张单牌``."""
    return _describe_pieces(tuple(pieces), singles, language)


@lru_cache(maxsize=4096)
def _describe_pieces(pieces: tuple[Shape, ...], singles: int, language: str) -> str:
    """``describe_pieces``, cached: the same few descriptions recur in every hand."""
    counts: dict[Shape, int] = {}
    for piece in pieces:
        counts[piece] = counts.get(piece, 0) + 1
    parts = [s.counted(c, language) for s, c in sorted(counts.items(), key=lambda kv: (-kv[0].size, -kv[0].width))]
    if singles:
        parts.append(SINGLE.counted(singles, language))
    if not parts:
        return "nothing" if language != "zh" else "无"
    return " + ".join(parts)


@dataclass(frozen=True, slots=True, eq=False)
class Layout:
    """The card kinds of one effective suit, numbered 0..k-1 low → high.

    ``steps[s]`` lists the indices at order step ``s`` (several for the
    off-suit level cards); ``chains``/``chain_values`` are the order's chains
    of linkable steps with their strengths (``TrumpOrder.chains``).
    """

    order: TrumpOrder
    suit: int
    kinds: tuple[int, ...]
    index: dict[int, int]
    power: tuple[int, ...]
    steps: tuple[tuple[int, ...], ...]
    chains: tuple[tuple[int, ...], ...]
    chain_values: tuple[tuple[int, ...], ...]
    step_of: tuple[int, ...]  # per index: its order step
    chain_pos: tuple[dict[int, int], ...]  # per chain: step → position on it
    index_table: bytes  # ``bytes.translate`` table: kind of this suit → its index
    others: bytes  # the kinds of the other effective suits

    def counts_in(self, cards: Sequence[int]) -> tuple[int, ...]:
        """Count vector of the cards of this suit among ``cards`` (the others
        dropped by one ``bytes.translate``, which costs less than testing each card)."""
        vec = [0] * len(self.kinds)
        for i in bytes(cards).translate(self.index_table, self.others):
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


@lru_cache(maxsize=512)
def layout(order: TrumpOrder, suit: int) -> Layout:
    """The (cached) layout of effective suit ``suit`` under ``order``."""
    steps_kinds = order.steps[suit]
    kinds: list[int] = []
    steps: list[tuple[int, ...]] = []
    for step_kinds in steps_kinds:
        ordered = sorted(step_kinds, key=lambda k: (order.power[k], k))
        steps.append(tuple(range(len(kinds), len(kinds) + len(ordered))))
        kinds += ordered
    return Layout(
        order=order,
        suit=suit,
        kinds=tuple(kinds),
        index={k: i for i, k in enumerate(kinds)},
        power=tuple(order.power[k] for k in kinds),
        steps=tuple(steps),
        chains=order.chains[suit],
        chain_values=order.chain_values[suit],
        step_of=tuple(s for s, members in enumerate(steps) for _ in members),
        chain_pos=tuple({step: pos for pos, step in enumerate(chain)} for chain in order.chains[suit]),
        index_table=bytes(kinds.index(k) if k in kinds else 0 for k in range(256)),
        others=bytes(k for k in range(len(order.suit)) if k not in kinds),
    )


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


def placements(lay: Layout, counts: Sequence[int], shape: Shape, protect: bool = False) -> list[Placed]:
    """Every way ``counts`` can realise ``shape`` (a tuple or a tractor).

    A tractor runs over ``length`` consecutive positions of one of the order's
    chains; at a step with several kinds (off-suit level cards) any one kind
    may serve.  Results are distinct and ordered low → high.
    """
    return [Placed(shape, at, rank) for at, rank in spots(lay, counts, shape, protect)]


def spots(lay: Layout, counts: Sequence[int], shape: Shape, protect: bool = False) -> list[tuple[tuple[int, ...], int]]:
    """``placements`` as (kinds, rank) pairs: what a search tries before it keeps one."""
    w, n = shape.width, shape.length
    if n == 1:  # as usable(c, w, protect), inline
        power = lay.power
        if protect:
            return [((i,), power[i]) for i, c in enumerate(counts) if c == w]
        return [((i,), power[i]) for i, c in enumerate(counts) if c >= w]
    held = [i for i, c in enumerate(counts) if c == w] if protect else [i for i, c in enumerate(counts) if c >= w]
    if len(held) < n:
        return []
    at_step: dict[int, list[int]] = {}
    step_of = lay.step_of
    for i in held:
        at_step.setdefault(step_of[i], []).append(i)
    if len(at_step) < n:
        return []
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[tuple[int, ...], int]] = []
    power = lay.power
    for chain, values, pos_of in zip(lay.chains, lay.chain_values, lay.chain_pos, strict=True):
        marks = sorted([pos_of[step] for step in at_step if step in pos_of])
        run = 0
        for k, pos in enumerate(marks):
            run = run + 1 if k and marks[k - 1] == pos - 1 else 1
            if run < n:
                continue
            window = [at_step[chain[p]] for p in range(pos - n + 1, pos + 1)]
            for combo in product(*window):
                if combo in seen:
                    continue
                seen.add(combo)
                out.append((combo, values[pos] * 4 + power[combo[-1]] % 4))
    return out


def can_place(lay: Layout, counts: Sequence[int], shape: Shape) -> bool:
    """``bool(placements(lay, counts, shape))``, without building the placements:
    does some chain hold ``shape.length`` consecutive steps each with a kind of
    at least ``shape.width`` copies?"""
    w, n = shape.width, shape.length
    if max(counts, default=0) < w:
        return False
    if n == 1:
        return True
    step_of = lay.step_of
    steps = {step_of[i] for i, c in enumerate(counts) if c >= w}
    if len(steps) < n:
        return False
    for pos_of in lay.chain_pos:
        marks = sorted([pos_of[step] for step in steps if step in pos_of])
        run = 0
        for k, pos in enumerate(marks):
            run = run + 1 if k and marks[k - 1] == pos - 1 else 1
            if run >= n:
                return True
    return False


def take(counts: Sequence[int], placed: Placed) -> tuple[int, ...]:
    """``counts`` less the cards of ``placed``."""
    vec = list(counts)
    for i in placed.at:
        vec[i] -= placed.shape.width
    return tuple(vec)


def placed_cards(lay: Layout, pieces: Iterable[Placed]) -> list[int]:
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
    lay: Layout, counts: Sequence[int], widths: Sequence[int], protect: bool = False
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
    """What ``form`` needs of a list of shapes, worked out once: its tractors,
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


def form(
    lay: Layout, counts: tuple[int, ...], pieces: Sequence[Shape], protect: bool = False
) -> list[Placed] | None:
    """Can ``counts`` supply every shape of ``pieces`` disjointly?  One way, or None.

    Tractors are placed by depth-first search (memoised on the count vector),
    tuples greedily (``place_tuples``) once only tuples are left.
    """
    return form_planned(lay, counts, form_plan(pieces), protect, sum(counts), max(counts, default=0))


def form_planned(
    lay: Layout, counts: tuple[int, ...], plan: FormPlan, protect: bool, total: int, most: int
) -> list[Placed] | None:
    """``form`` of the shapes of ``plan``; ``total`` and ``most`` are the sum and
    the largest of ``counts`` (a first look rejects what cannot fit at all)."""
    if plan.cards > total or plan.widest > most:
        return None
    tractors, widths = plan.tractors, plan.widths
    failed: set[tuple[int, tuple[int, ...]]] = set()

    def search(k: int, vec: tuple[int, ...]) -> list[Placed] | None:
        if k == len(tractors):
            done = place_tuples(lay, vec, widths, protect)
            return None if done is None else done[1]
        if (k, vec) in failed:
            return None
        tractor = tractors[k]
        for at, rank in spots(lay, vec, tractor, protect):
            left = list(vec)
            for i in at:
                left[i] -= tractor.width
            rest = search(k + 1, tuple(left))
            if rest is not None:
                return [Placed(tractor, at, rank), *rest]
        failed.add((k, vec))
        return None

    return search(0, counts)


def fill(lay: Layout, counts: Sequence[int], used: Sequence[int], n: int) -> list[int]:
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


def within_copies(decks: int, *card_sets: Sequence[int]) -> bool:
    """True when no card appears more than ``decks`` times across the sets
    (a fast pre-check; ``engine.cards.check_copies`` words the problems)."""
    seen = [0] * 54
    for cards in card_sets:
        for c in cards:
            seen[c] += 1
    return max(seen) <= decks


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

