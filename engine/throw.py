"""Throws 甩牌: does a multi-unit lead stand, and what is forced if not (RULES.md §4).

A lead of one effective suit is decomposed into units (``engine.units.decompose``).
A single unit is an ordinary lead and always stands.  A throw of several units
stands iff no other player (partner included) holds, in the led effective suit,
cards forming a unit of the same shape that ranks higher than one of the thrown
units (seed 000: "98844（若其他家中無人有能大過一張9，和一對8，和一對4的牌）";
seed 002 甩牌的規則).  Containment counts: a triple or quad holds a pair, a
longer or wider tractor holds a shorter or narrower one, so a higher triple
beats a thrown pair.  With ``wider_shape_beats`` (RULES §3, seeds 000/001/002:
"4張可以吃同樣張數的2張拖拉機") a unit of the same card count and a wider width
beats a thrown unit whatever the ranks (a quad beats a thrown 2-pair tractor).
Cards of other effective suits never beat a throw.

A failed throw is replaced by one unit of it, chosen by ``throw_forced_unit``,
and may cost a penalty (``throw_penalty``).  The search works on count vectors:
for every seat, the best kind at each order step per width, then for each thrown
shape the highest unit of that shape the seat can form (one scan of the suit's
chains), so a four-deck 12-card throw is judged in well under a millisecond.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.cards import KINDS, card_str, check_copies
from engine.errors import InvalidInput, Problem
from engine.reasons import Reason
from engine.rules import Rules
from engine.trump import TRUMP, TrumpOrder
from engine.units import Unit, decompose, mixed_suit_problems
from engine.words import cards_text, shape_name, suit_name, unit_name

SEATS = 4
_KINDS = frozenset(range(KINDS))


@dataclass(frozen=True, slots=True)
class Blocker:
    """A seat that can beat a thrown unit, and the cards it would use (high → low).

    ``width`` × ``length`` is the shape of those cards; ``wider_shape`` is true
    when it is a wider shape of the same card count that beats the unit
    whatever the ranks (``wider_shape_beats``).
    """

    seat: int
    cards: tuple[int, ...]
    width: int
    length: int
    wider_shape: bool = False


@dataclass(frozen=True, slots=True)
class FailedUnit:
    """A thrown unit some other seat can beat, with every seat that can."""

    unit: Unit
    beaten_by: tuple[Blocker, ...]


@dataclass(frozen=True, slots=True)
class Penalty:
    """What a failed throw costs (RULES §4 ``throw_penalty``), for the caller to apply.

    ``kind`` is ``none`` (also whenever the throw stands), ``match_point``
    (``amount`` match points off the thrower, seed 002) or ``points_per_card``
    (``amount`` game points to the other team, ``team``: 0 = seats 0/2,
    1 = seats 1/3).  ``seat`` is the penalised thrower.
    """

    kind: str
    amount: int = 0
    seat: int | None = None
    team: int | None = None


@dataclass(frozen=True, slots=True)
class ThrowVerdict:
    """Does the lead stand; if not, which unit is forced and what it costs.

    ``forced_play`` is the lead itself (as given) when ``valid``, else the cards
    of ``forced_unit``.  ``reasons`` come from the code that decided.
    """

    leader: int
    suit: int
    valid: bool
    units: tuple[Unit, ...]
    failed_units: tuple[FailedUnit, ...]
    forced_unit: Unit | None
    forced_play: tuple[int, ...]
    penalty: Penalty
    reasons: tuple[Reason, ...]


# ---------------------------------------------------------------- explanations


# ---------------------------------------------------------------- the search


class _Seat:
    """One seat's cards of the led suit as the best kind per (width, step).

    ``best[w][step]`` is the highest-power kind at ``step`` held at least ``w``
    times, or -1.  ``unit(w, l)`` is the highest unit of shape (w, l) the seat
    can form (memoised), as (rank, its cards high → low) or None.
    """

    __slots__ = ("best", "memo", "order", "suit")

    def __init__(self, cards: Iterable[int], suit: int, order: TrumpOrder, decks: int) -> None:
        self.order = order
        self.suit = suit
        suit_of = order.suit
        counts: dict[int, int] = {}  # the seat's cards of the led suit: kind → copies
        for c in cards:
            if suit_of[c] == suit:
                counts[c] = counts.get(c, 0) + 1
        power = order.power
        steps = order.steps[suit]
        best: list[list[int]] = [[-1] * len(steps) for _ in range(decks + 1)]
        if suit != TRUMP:  # a plain suit has one kind per step: nothing to choose between
            step_of = order.step
            for kind, n in counts.items():
                i = step_of[kind]
                for w in range(1, min(n, decks) + 1):
                    best[w][i] = kind
        else:  # several kinds may share a step: the highest power, the first listed on ties
            for i, kinds in enumerate(steps):
                for kind in kinds:
                    held_copies = counts.get(kind, 0)
                    if held_copies:
                        for w in range(1, min(held_copies, decks) + 1):
                            held = best[w][i]
                            if held < 0 or power[kind] > power[held]:
                                best[w][i] = kind
        self.best = best
        self.memo: dict[tuple[int, int], tuple[int, tuple[int, ...]] | None] = {}

    def unit(self, width: int, length: int) -> tuple[int, tuple[int, ...]] | None:
        key = (width, length)
        memo = self.memo
        if key in memo:
            return memo[key]
        found = None
        if width < len(self.best):
            row = self.best[width]
            if length == 1:
                # steps rise in power (power = 4 * step + at most 3), so the highest
                # kind held ``width`` times is at the highest step that has one
                for kind in reversed(row):
                    if kind >= 0:
                        found = (self.order.power[kind], (kind,) * width)
                        break
            else:
                power = self.order.power
                rank = -(1 << 30)
                kinds: list[int] = []
                suit = self.suit
                for chain, values in zip(self.order.chains[suit], self.order.chain_values[suit], strict=True):
                    run = 0
                    for pos, step in enumerate(chain):
                        kind = row[step]
                        if kind < 0:
                            run = 0
                            continue
                        run += 1
                        if run >= length:
                            top = values[pos] * 4 + power[kind] % 4
                            if top > rank:
                                rank, kinds = top, [row[s] for s in chain[pos - length + 1 : pos + 1]]
                if kinds:
                    found = (rank, tuple(k for k in self.order.sorted(kinds) for _ in range(width)))
        memo[key] = found
        return found


def _beater(seat: int, profile: _Seat, unit: Unit, rules: Rules) -> Blocker | None:
    """How ``seat`` (its cards of the led suit in ``profile``) beats ``unit``, or None.

    RULES §4: a unit of the same shape ranking higher (held in a wider tuple or
    a longer tractor counts); RULES §3 with ``wider_shape_beats``: any unit of
    the same card count and a wider width.
    """
    same = profile.unit(unit.width, unit.length)
    if same is not None and same[0] > unit.rank:
        return Blocker(seat, same[1], unit.width, unit.length)
    if rules.wider_shape_beats:
        size = unit.size
        for width in range(unit.width + 1, rules.decks + 1):
            if size % width == 0:
                wider = profile.unit(width, size // width)
                if wider is not None:
                    return Blocker(seat, wider[1], width, size // width, True)
    return None


def _beaten_reasons(unit: Unit, blockers: list[Blocker], suit: int) -> list[Reason]:
    """One reason per seat that beats ``unit``: what it holds and why that beats it."""
    thrown_en, thrown_zh = unit_name(unit), unit_name(unit, "zh")
    suit_en, suit_zh = suit_name(suit), suit_name(suit, "zh")
    same_en = shape_name(unit.width, unit.length)
    out: list[Reason] = []
    for b in blockers:
        held = cards_text(b.cards)
        if b.wider_shape:
            out.append(
                Reason(
                    "throw.unit_beaten_by_wider_shape",
                    f"Seat {b.seat} holds the {shape_name(b.width, b.length)} {held} in {suit_en}: the same "
                    f"number of cards in a wider shape beats the thrown {thrown_en} whatever the ranks "
                    "(wider_shape_beats, RULES §3).",
                    f"{b.seat}号位有{suit_zh}{shape_name(b.width, b.length, 'zh')} {held}：同样张数时更宽的牌型"
                    f"大过甩出的{thrown_zh}，不论大小。",
                )
            )
        else:
            out.append(
                Reason(
                    "throw.unit_beaten",
                    f"Seat {b.seat} holds {held} in {suit_en}, a higher {same_en} than the thrown {thrown_en}.",
                    f"{b.seat}号位有{suit_zh} {held}，大过甩出的{thrown_zh}。",
                )
            )
    return out


# ---------------------------------------------------------------- input checks


def _check(
    leader: int, lead: Sequence[int], hands: Mapping[int, Sequence[int]], order: TrumpOrder, rules: Rules
) -> int:
    """Raise InvalidInput for anything that cannot be adjudicated; return the led suit."""
    problems: list[Problem] = []
    if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < SEATS:
        problems.append(Problem(("leader",), "the leader is a seat 0..3"))
    for seat in hands:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
            problems.append(Problem(("hands", seat), "a hand is keyed by a seat 0..3"))
    for path, cards in (("lead",), lead), *((("hands", s), h) for s, h in hands.items()):
        if not _KINDS.issuperset(cards):
            problems += [Problem((*path, i), f"{c!r} is not a card") for i, c in enumerate(cards) if c not in _KINDS]
    if not lead:
        problems.append(Problem(("lead",), "a lead needs at least one card"))
    if problems:
        raise InvalidInput(problems)
    suit = order.suit[lead[0]]
    problems += mixed_suit_problems(lead, order, ("lead",))
    if problems:
        raise InvalidInput(problems)
    own = hands.get(leader)
    if own is not None:
        left = Counter(own)
        for i, card in enumerate(lead):
            if left[card] > 0:
                left[card] -= 1
            else:
                problems.append(
                    Problem(
                        ("lead", i),
                        f"{card_str(card)} is not in the leader's hand (hands/{leader}): "
                        "the lead must come from it",
                    )
                )
        if problems:
            raise InvalidInput(problems)
    sets: list[tuple[tuple[str | int, ...], Sequence[int]]] = []
    if own is None:
        sets.append((("lead",), lead))
    sets += [(("hands", s), h) for s, h in sorted(hands.items())]
    seen: Counter[int] = Counter()
    for _, cards in sets:
        seen.update(cards)
    if seen and max(seen.values()) > rules.decks:
        check_copies(sets, rules.decks)  # reports every excess copy where it occurs
    return suit


# ---------------------------------------------------------------- forced play


def _lowest(unit: Unit, index: int) -> tuple[int, int, int]:
    """Highest card ranking lowest, then fewer cards (ties: later in the decomposition)."""
    return (unit.rank, unit.size, -index)


def _smallest(unit: Unit, index: int) -> tuple[int, int, int]:
    """Fewest cards, then lowest (ties: later in the decomposition)."""
    return (unit.size, unit.rank, -index)


def _choose_forced(
    units: tuple[Unit, ...], failed: list[tuple[int, FailedUnit]], seats: list[int], rules: Rules
) -> tuple[int, Reason]:
    """Index of the forced unit under ``throw_forced_unit`` (RULES §4), and why."""
    policy = rules.throw_forced_unit
    if policy == "smallest_failed":
        index = min(failed, key=lambda f: _smallest(f[1].unit, f[0]))[0]
        en = "of the failed units, the one with the fewest cards, then the lowest, is forced"
        zh = "出失败牌型中张数最少、其次最小的一手"
        source = "seed 002"
    elif policy == "smallest_unit":
        index = min(range(len(units)), key=lambda i: _smallest(units[i], i))
        en = "the smallest unit of the throw (fewest cards, then lowest), failed or not, is forced"
        zh = "出甩牌中最小的一手（张数最少，其次最小），无论其是否被大过"
        source = "RULES §4"
    elif policy == "first_blocked":
        blocking = {b.seat for _, f in failed for b in f.beaten_by}
        first = next(s for s in seats if s in blocking)
        mine = [(i, f) for i, f in failed if any(b.seat == first for b in f.beaten_by)]
        index = min(mine, key=lambda f: _smallest(f[1].unit, f[0]))[0]
        en = (
            f"seat {first} is the first blocking player after the leader; of the units it can beat, "
            "the smallest (fewest cards, then lowest) is forced"
        )
        zh = f"{first}号位是出牌人之后第一个能大过的玩家；出它能大过的牌型中最小的一手"
        source = "shengji.io"
    else:  # lowest_failed
        index = min(failed, key=lambda f: _lowest(f[1].unit, f[0]))[0]
        en = "of the failed units, the one whose highest card ranks lowest (then the fewest cards) is forced"
        zh = "出失败牌型中最小的一手（比最大的牌，其次张数少者）"
        source = "seeds 000, 001"
    unit = units[index]
    return index, Reason(
        f"throw.forced.{policy}",
        f"The throw fails: {en} ({policy}, {source}): {unit_name(unit)}.",
        f"甩牌失败：{zh}（{policy}）：{unit_name(unit, 'zh')}。",
    )


def _penalty(leader: int, cards: int, rules: Rules) -> tuple[Penalty, Reason | None]:
    """The ``throw_penalty`` of a failed throw of ``cards`` cards (RULES §4)."""
    kind = rules.throw_penalty
    if kind == "match_point":
        return Penalty(kind, 1, leader, None), Reason(
            "throw.penalty.match_point",
            f"Seat {leader} loses 1 match point for the failed throw (seed 002).",
            f"甩牌失败，{leader}号位扣1分（只扣本人）。",
        )
    if kind == "points_per_card":
        per = rules.throw_penalty_points_per_card
        team = (leader + 1) % 2
        amount = per * cards
        return Penalty(kind, amount, leader, team), Reason(
            "throw.penalty.points_per_card",
            f"The other team (seats {team} and {team + 2}) gains {per} × {cards} = {amount} points "
            "for the failed throw.",
            f"甩牌失败，对方（{team}号位和{team + 2}）得{per}×{cards}={amount}分。",
        )
    return Penalty("none"), None


# ---------------------------------------------------------------- the verdict


def judge_throw(
    leader: int,
    lead: Sequence[int],
    hands: Mapping[int, Sequence[int]],
    order: TrumpOrder,
    rules: Rules,
) -> ThrowVerdict:
    """Judge a lead of ``leader`` against the other seats' ``hands`` (RULES §4).

    ``hands`` maps seat → cards before the lead; the leader's own hand may be
    absent, and if present the lead must be in it.  A seat not given is taken to
    hold nothing that beats the throw.  Raises InvalidInput with paths relative
    to the arguments (``("lead", 2)``, ``("hands", 1, 4)``) for a lead mixing
    effective suits, a lead not in the leader's hand, more copies of a card than
    the decks hold, or an empty lead.

    Seed 000, playing 10 (hearts trump): 98844 of spades against a J.

    >>> from engine.cards import parse_card
    >>> from engine.rules import preset
    >>> from engine.trump import Trump, trump_order
    >>> order = trump_order(Trump(8, 1), preset("two-deck"))
    >>> cards = lambda text: [parse_card(c) for c in text.split()]
    >>> v = judge_throw(0, cards("9S 8S 8S 4S 4S"), {1: cards("JS 3S"), 2: [], 3: []},
    ...                 order, preset("two-deck"))
    >>> v.valid, [card_str(c) for c in v.forced_play], v.failed_units[0].beaten_by[0].seat
    (False, ['9S'], 1)
    """
    suit = _check(leader, lead, hands, order, rules)
    units = decompose(lead, order)
    suit_en, suit_zh = suit_name(suit), suit_name(suit, "zh")
    if len(units) == 1:
        return ThrowVerdict(
            leader, suit, True, units, (), None, tuple(lead), Penalty("none"),
            (
                Reason(
                    "throw.single_unit",
                    f"The lead is one unit ({unit_name(units[0])}), an ordinary lead: it always stands.",
                    f"首家出的是单一牌型（{unit_name(units[0], 'zh')}），不是甩牌，总是成立。",
                ),
            ),
        )
    seats = [(leader + i) % SEATS for i in range(1, SEATS) if (leader + i) % SEATS in hands]
    others = [_Seat(hands[s], suit, order, rules.decks) for s in seats]
    reasons: list[Reason] = []
    failed: list[tuple[int, FailedUnit]] = []
    for index, unit in enumerate(units):
        blockers = [b for seat, p in zip(seats, others, strict=True) if (b := _beater(seat, p, unit, rules))]
        if blockers:
            failed.append((index, FailedUnit(unit, tuple(blockers))))
            reasons += _beaten_reasons(unit, blockers, suit)
    if not failed:
        reasons.append(
            Reason(
                "throw.stands",
                f"No other player can beat any of the {len(units)} thrown units in {suit_en} "
                "with a higher unit of the same shape: the throw stands.",
                f"其他玩家的{suit_zh}都大不过甩出的{len(units)}手牌中的任何一手：甩牌成功。",
            )
        )
        return ThrowVerdict(
            leader, suit, True, units, (), None, tuple(lead), Penalty("none"), tuple(reasons)
        )
    index, why = _choose_forced(units, failed, seats, rules)
    reasons.append(why)
    penalty, cost = _penalty(leader, len(lead), rules)
    if cost is not None:
        reasons.append(cost)
    forced = units[index]
    return ThrowVerdict(
        leader, suit, False, units, tuple(f for _, f in failed), forced, forced.cards, penalty,
        tuple(reasons),
    )
