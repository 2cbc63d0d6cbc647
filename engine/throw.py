"""Throws 甩牌: does a multi-unit lead stand, and what is forced if not (docs/rules.md §4).

A lead of one effective suit is decomposed into units (``engine.units.decompose``).
A single unit is an ordinary lead and always stands.  A throw of several units
stands iff no other player (partner included) holds, in the led effective suit,
cards forming a unit of the same shape that ranks higher than one of the thrown
units (seed 000: "98844（若其他家中無人有能大過一張9，和一對8，和一對4的牌）";
seed 002 甩牌的規則).  Containment counts: a triple or quad holds a pair, a
longer or wider tractor holds a shorter or narrower one, so a higher triple
beats a thrown pair.  With ``wider_shape_beats`` (docs/rules.md §3, seeds 000/001/002:
"4張可以吃同樣張數的2張拖拉機") a unit of the same card count and a wider width
beats a thrown unit whatever the ranks (a quad beats a thrown 2-pair tractor).
Cards of other effective suits never beat a throw.

A failed throw is replaced by one unit of it, chosen by ``throw_forced_unit``,
and may cost a penalty (``throw_penalty``).  The search works on count vectors
(``engine.suit.SuitView``): for every seat, its copies of each kind of the led
suit, then for each thrown shape, once, the highest unit of that shape the seat
can form (``SuitView.highest``; not at all when the lowest thrown unit of the
shape is the highest the suit has, ``SuitView.tops``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain

from engine.cards import KINDS, card_str, check_copies
from engine.errors import InvalidInput, Problem
from engine.lead import lead_of
from engine.reasons import Reason
from engine.records import quick_init
from engine.rules import Rules, ThrowForcedCards, ThrowForcedUnit, ThrowPenalty, ThrowWhenOthersVoid
from engine.suit import NO_RANK, SuitView, suit_view
from engine.trump import TrumpOrder
from engine.units import Unit, mixed_suit_problems
from engine.words import cards_text, shape_name, suit_name, unit_name

SEATS = 4
_AFTER = tuple(tuple((leader + i) % SEATS for i in range(1, SEATS)) for leader in range(SEATS))  # in playing order
_KINDS = frozenset(range(KINDS))
_SUIT_NAMES = tuple((suit_name(s), suit_name(s, "zh")) for s in range(5))  # per effective suit


def _suit_names(suit: int) -> tuple[str, str]:
    """The effective suit's name in English and Chinese (``suit_name``)."""
    return _SUIT_NAMES[suit]


@quick_init  # a verdict makes many: engine.records
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


@quick_init  # a verdict makes many: engine.records
@dataclass(frozen=True, slots=True)
class FailedUnit:
    """A thrown unit some other seat can beat, with every seat that can."""

    unit: Unit
    beaten_by: tuple[Blocker, ...]


@dataclass(frozen=True, slots=True)
class Penalty:
    """What a failed throw costs (docs/rules.md §4 ``throw_penalty``), for the caller to apply.

    ``kind`` is ``none`` (also whenever the throw stands), ``match_point``
    (``amount`` match points off the thrower, seed 002) or one of the game-point
    kinds ``points_per_card``, ``points_per_failed_card``, ``points_per_throw``
    (``amount`` game points to the other team, ``team``: 0 = seats 0/2,
    1 = seats 1/3).  ``seat`` is the penalised thrower.
    """

    kind: ThrowPenalty
    amount: int = 0
    seat: int | None = None
    team: int | None = None


_NO_PENALTY = Penalty(ThrowPenalty.NONE)


@quick_init  # a verdict makes many: engine.records
@dataclass(frozen=True, slots=True)
class ThrowVerdict:
    """Does the lead stand; if not, which unit is forced and what it costs.

    ``forced_play`` is the lead itself (as given) when ``valid``, else the cards
    of ``forced_unit`` (only its lowest card under ``throw_forced_cards``
    ``lowest_card``).  ``refused``: the throw is not allowed at all
    (``throw_when_others_void`` ``refused``: nobody else holds the led suit), so
    nothing is forced: ``valid`` is false, ``forced_unit`` None and
    ``forced_play`` empty; the leader leads again.  ``reasons`` come from the
    code that decided.
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
    refused: bool = False


# ---------------------------------------------------------------- explanations

# ``cards_text`` of every tuple (single, pair, triple, quad), written once: most
# units and blockers are tuples
_TUPLE_TEXT = {(kind,) * width: cards_text((kind,) * width) for kind in range(KINDS) for width in range(1, 5)}
_SHAPE_NAMES = {(w, n): (shape_name(w, n), shape_name(w, n, "zh")) for w in range(1, 5) for n in range(1, KINDS)}


def _cards_text(cards: tuple[int, ...]) -> str:
    """``cards_text``, looked up for a tuple (written once in ``_TUPLE_TEXT``)."""
    return _TUPLE_TEXT.get(cards) or cards_text(cards)


def _shape_names(width: int, length: int) -> tuple[str, str]:
    """``shape_name`` in English and Chinese (every shape of up to 4 decks named once)."""
    return _SHAPE_NAMES.get((width, length)) or (shape_name(width, length), shape_name(width, length, "zh"))


def _holding(blocker: Blocker, suit_en: str, suit_zh: str) -> tuple[Blocker, str, str]:
    """A blocker with what its seat holds in the led suit (named ``suit_en``/``suit_zh``):
    the start of each of its reasons (English, Chinese)."""
    held = _cards_text(blocker.cards)
    if blocker.wider_shape:
        return (
            blocker,
            f"Seat {blocker.seat} holds the {shape_name(blocker.width, blocker.length)} {held} in {suit_en}",
            f"{blocker.seat}号位有{suit_zh}{shape_name(blocker.width, blocker.length, 'zh')} {held}",
        )
    return blocker, f"Seat {blocker.seat} holds {held} in {suit_en}", f"{blocker.seat}号位有{suit_zh} {held}"


def _beaten_reasons(unit: Unit, blockers: list[tuple[Blocker, str, str]]) -> list[Reason]:
    """One reason per seat that beats ``unit``: what it holds (its Blocker and
    ``_holding``) and why that beats the thrown unit."""
    thrown = _cards_text(unit.cards)
    shape_en, shape_zh = _shape_names(unit.width, unit.length)
    # the thrown unit is named as unit_name(unit) / unit_name(unit, "zh"): shape, then cards
    higher_en = f", a higher {shape_en} than the thrown {shape_en} {thrown}."
    higher_zh = f"，大过甩出的{shape_zh} {thrown}。"
    out: list[Reason] = []
    wider_en = wider_zh = ""
    for b, en, zh in blockers:
        if not b.wider_shape:
            out.append(Reason("throw.unit_beaten", en + higher_en, zh + higher_zh))
            continue
        if not wider_en:
            wider_en = (
                f": the same number of cards in a wider shape beats the thrown {shape_en} {thrown} whatever the "
                "ranks (wider_shape_beats, docs/rules.md §3)."
            )
            wider_zh = f"：同样张数时更宽的牌型大过甩出的{shape_zh} {thrown}，不论大小。"
        out.append(Reason("throw.unit_beaten_by_wider_shape", en + wider_en, zh + wider_zh))
    return out


# ---------------------------------------------------------------- the search


class _Seat:
    """One seat's cards of the led suit (a count vector of its ``SuitView``).

    ``threat`` is what the seat can beat a thrown shape with: its highest unit
    of that shape (``SuitView.highest``), or a wider shape of as many cards.
    """

    __slots__ = ("copies", "seat", "suit_en", "suit_zh", "view")

    def __init__(self, seat: int, cards: Sequence[int], view: SuitView, suit_en: str, suit_zh: str) -> None:
        self.seat = seat
        self.view = view
        self.copies = view.counts_in(cards)  # cards are kinds 0..53 (checked)
        self.suit_en, self.suit_zh = suit_en, suit_zh

    def threat(
        self, width: int, length: int, lowest: int, highest: int, rules: Rules
    ) -> tuple[int, tuple[Blocker, str, str] | None, tuple[Blocker, str, str] | None]:
        """What this seat holds against the thrown units of shape (width, length),
        ranking ``lowest`` to ``highest``: (``above``, ``same``, ``wider``).  A
        thrown unit ranking below ``above`` (the rank of the seat's highest unit
        of that shape) is beaten by ``same`` (docs/rules.md §4: held in a wider tuple or
        a longer tractor counts); any other by ``wider``, if not None: with
        ``wider_shape_beats`` (docs/rules.md §3) the seat's unit of the same card count
        and the first wider width it holds.  Each is the Blocker and its
        ``_holding``, made only if it beats a thrown unit.  No unit of the shape
        is searched for when none in the suit ranks above ``lowest``
        (``SuitView.tops``): then ``above`` is below every rank.
        """
        view = self.view
        # no search when no unit of the shape in the suit ranks above ``lowest``
        same = view.highest(self.copies, width, length) if lowest < view.tops[length] else None
        above = NO_RANK if same is None else same[0]  # below every rank when the seat has no such unit
        beats_same = None
        if same is not None and above > lowest:
            beats_same = _holding(Blocker(self.seat, same[1], width, length), self.suit_en, self.suit_zh)
        beats_wider = None
        if rules.wider_shape_beats and length > 1 and above <= highest:  # a tuple has no wider shape
            size = width * length
            for wide in range(width + 1, rules.decks + 1):
                if size % wide == 0:
                    wider = view.highest(self.copies, wide, size // wide)
                    if wider is not None:
                        blocker = Blocker(self.seat, wider[1], wide, size // wide, True)
                        beats_wider = _holding(blocker, self.suit_en, self.suit_zh)
                        break
        return above, beats_same, beats_wider


# ---------------------------------------------------------------- input checks


@quick_init  # built once per request: engine.records
@dataclass(frozen=True, slots=True)
class Throw:
    """A lead to judge, its input checked: ``leader``'s ``lead``, of effective
    ``suit``, against the other seats' ``hands`` (seat → cards before the lead;
    a seat not given holds nothing that beats it).

    ``check_throw`` builds one; ``engine.audit`` builds one directly for a lead
    it has already checked against the hands, so it does not pay twice.
    """

    leader: int
    lead: Sequence[int]
    suit: int
    hands: Mapping[int, Sequence[int]]
    order: TrumpOrder
    rules: Rules


def check_throw(
    leader: int, lead: Sequence[int], hands: Mapping[int, Sequence[int]], order: TrumpOrder, rules: Rules
) -> Throw:
    """The ``Throw`` to judge, after every check of its input.

    The leader's own hand may be in ``hands``; then the lead must be in it.
    Raises InvalidInput with paths relative to the arguments (``("lead", 2)``,
    ``("hands", 1, 4)``) for a lead mixing effective suits, a lead not in the
    leader's hand, more copies of a card than the decks hold, or an empty lead.
    """
    problems: list[Problem] = []
    own = None  # the leader's hand, if given: the lead comes out of it
    if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < SEATS:
        problems.append(Problem(("leader",), "the leader is a seat 0..3", code="invalid_seat"))
    else:
        own = hands.get(leader)
    for seat in hands:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
            problems.append(Problem(("hands", seat), "a hand is keyed by a seat 0..3", code="invalid_seat"))
    try:  # one count of every card (the lead's too, unless it is in ``own``); its (at most 54) keys checked
        seen = Counter(chain.from_iterable(hands.values()) if own is not None else chain(lead, *hands.values()))
        cards_known = _KINDS.issuperset(seen) and (own is None or _KINDS.issuperset(lead))
    except TypeError:  # an unhashable element: the checks below raise for it as for any other input
        cards_known = False
    if not cards_known:
        for path, cards in (("lead",), lead), *((("hands", s), h) for s, h in hands.items()):
            if not _KINDS.issuperset(cards):
                problems += [
                    Problem((*path, i), f"{c!r} is not a card", code="invalid_card") for i, c in enumerate(cards) if c not in _KINDS
                ]
    if not lead:
        problems.append(Problem(("lead",), "a lead needs at least one card", code="empty_lead"))
    if problems:
        raise InvalidInput(problems)
    suit = order.suit[lead[0]]
    if len({order.suit[c] for c in lead}) > 1:
        raise InvalidInput(mixed_suit_problems(lead, order, ("lead",)))
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
                        code="card_not_in_hand",
                        params={"card": card_str(card)},
                    )
                )
        if problems:
            raise InvalidInput(problems)
    if seen and max(seen.values()) > rules.decks:
        sets: list[tuple[tuple[str | int, ...], Sequence[int]]] = []
        if own is None:
            sets.append((("lead",), lead))
        sets += [(("hands", s), h) for s, h in sorted(hands.items())]
        check_copies(sets, rules.decks)  # reports every excess copy where it occurs
    return Throw(leader, lead, suit, hands, order, rules)


# ---------------------------------------------------------------- forced play


def _tie(unit: Unit) -> int:
    """The tie-break between units of equal rank and size (off-suit level cards,
    or constant trumps, of different printed suits; docs/rules.md §4): the one
    whose printed suit comes last in ♠ ♥ ♣ ♦ goes first — the ♦ one, then ♣, then
    ♥, then ♠, the order in which ``level_suit_precedence`` ranks them lowest
    first.  As a key for ``min``: minus the unit's lowest card kind (kinds run
    suit by suit, ♠ first)."""
    return -min(unit.cards)


def _lowest(entry: tuple[int, Unit]) -> tuple[int, int, int, int]:
    """For (index, unit): highest card ranking lowest, then fewer cards, then ``_tie``."""
    index, unit = entry
    return (unit.rank, unit.width * unit.length, _tie(unit), -index)


def _smallest(entry: tuple[int, Unit]) -> tuple[int, int, int, int]:
    """For (index, unit): fewest cards, then lowest, then ``_tie``."""
    index, unit = entry
    return (unit.width * unit.length, unit.rank, _tie(unit), -index)


def _choose_forced(
    units: tuple[Unit, ...], failed: list[tuple[int, FailedUnit]], seats: list[int], rules: Rules
) -> tuple[int, Reason]:
    """Index of the forced unit under ``throw_forced_unit`` (docs/rules.md §4), and why."""
    policy = rules.throw_forced_unit
    if policy == ThrowForcedUnit.SMALLEST_FAILED:
        index = min([(i, f.unit) for i, f in failed], key=_smallest)[0]
        en = "of the failed units, the one with the fewest cards, then the lowest, is forced"
        zh = "出失败牌型中张数最少、其次最小的一手"
        source = "seed 002"
    elif policy == ThrowForcedUnit.SMALLEST_UNIT:
        index = min(enumerate(units), key=_smallest)[0]
        en = "the smallest unit of the throw (fewest cards, then lowest), failed or not, is forced"
        zh = "出甩牌中最小的一手（张数最少，其次最小），无论其是否被大过"
        source = "docs/rules.md §4"
    elif policy == ThrowForcedUnit.FIRST_BLOCKED:
        blocking = {b.seat for _, f in failed for b in f.beaten_by}
        first = next(s for s in seats if s in blocking)
        mine = [(i, f.unit) for i, f in failed if any(b.seat == first for b in f.beaten_by)]
        index = min(mine, key=_smallest)[0]
        en = (
            f"seat {first} is the first blocking player after the leader; of the units it can beat, "
            "the smallest (fewest cards, then lowest) is forced"
        )
        zh = f"{first}号位是出牌人之后第一个能大过的玩家；出它能大过的牌型中最小的一手"
        source = "shengji.io"
    else:  # lowest_failed
        index = min([(i, f.unit) for i, f in failed], key=_lowest)[0]
        en = "of the failed units, the one whose highest card ranks lowest (then the fewest cards) is forced"
        zh = "出失败牌型中最小的一手（比最大的牌，其次张数少者）"
        source = "seeds 000, 001"
    unit = units[index]
    cards = _cards_text(unit.cards)  # the unit named as unit_name(unit) / unit_name(unit, "zh")
    shape_en, shape_zh = _shape_names(unit.width, unit.length)
    return index, Reason(
        f"throw.forced.{policy}",
        f"The throw fails: {en} ({policy}, {source}): {shape_en} {cards}.",
        f"甩牌失败：{zh}（{policy}）：{shape_zh} {cards}。",
    )


def _penalty(leader: int, cards: int, failed_cards: int, rules: Rules) -> tuple[Penalty, Reason | None]:
    """The ``throw_penalty`` of a failed throw of ``cards`` cards, ``failed_cards``
    of them in its failed units (docs/rules.md §4)."""
    kind = rules.throw_penalty
    if kind == ThrowPenalty.MATCH_POINT:
        return Penalty(kind, 1, leader, None), Reason(
            "throw.penalty.match_point",
            f"Seat {leader} loses 1 match point for the failed throw (seed 002).",
            f"甩牌失败，{leader}号位扣1分（只扣本人）。",
        )
    if kind == ThrowPenalty.POINTS_PER_CARD:
        per = rules.throw_penalty_points_per_card
        team = (leader + 1) % 2
        amount = per * cards
        return Penalty(kind, amount, leader, team), Reason(
            "throw.penalty.points_per_card",
            f"The other team (seats {team} and {team + 2}) gains {per} × {cards} = {amount} points "
            "for the failed throw.",
            f"甩牌失败，对方（{team}号位和{team + 2}）得{per}×{cards}={amount}分。",
        )
    if kind == ThrowPenalty.POINTS_PER_FAILED_CARD:
        per = rules.throw_penalty_points_per_card
        team = (leader + 1) % 2
        amount = per * failed_cards
        return Penalty(kind, amount, leader, team), Reason(
            "throw.penalty.points_per_failed_card",
            f"The other team (seats {team} and {team + 2}) gains {per} × {failed_cards} = {amount} points, "
            "for the cards of the failed units (the Botzone judge).",
            f"甩牌失败，对方（{team}号位和{team + 2}）按失败牌型的张数得{per}×{failed_cards}={amount}分。",
        )
    if kind == ThrowPenalty.POINTS_PER_THROW:
        amount = rules.throw_penalty_points_per_card
        team = (leader + 1) % 2
        return Penalty(kind, amount, leader, team), Reason(
            "throw.penalty.points_per_throw",
            f"The other team (seats {team} and {team + 2}) gains {amount} points for the failed throw, "
            "whatever its size.",
            f"甩牌失败，对方（{team}号位和{team + 2}）得{amount}分（每次失败的甩牌）。",
        )
    return _NO_PENALTY, None


def _others_void(throw: Throw, units: tuple[Unit, ...]) -> ThrowVerdict | None:
    """``throw_when_others_void`` ``refused`` (docs/rules.md §4; seed 000 四副
    "当其他三方没有自己所拿花色情况下，不能进行甩牌"): a multi-unit lead when none
    of the other three seats holds a card of its effective suit is refused, not
    forced.  Judged only when all three hands are given; else None, as when the
    option allows it or someone holds the suit."""
    if throw.rules.throw_when_others_void is not ThrowWhenOthersVoid.REFUSED:
        return None
    others = _AFTER[throw.leader]
    if not all(s in throw.hands for s in others):
        return None
    suit_of, suit = throw.order.suit, throw.suit
    if any(suit_of[c] == suit for s in others for c in throw.hands[s]):
        return None
    suit_en, suit_zh = _suit_names(suit)
    why = Reason(
        "throw.refused_others_void",
        f"None of the other three players holds {suit_en}: a lead of {len(units)} units is not allowed "
        "(throw_when_others_void, seed 000); it is refused, not forced: lead again.",
        f"其他三家都没有{suit_zh}，不能甩牌（{len(units)}手牌）；不是强制出小，而是重新出牌。",
    )
    return ThrowVerdict(throw.leader, suit, False, units, (), None, (), _NO_PENALTY, (why,), True)


# ---------------------------------------------------------------- the verdict


@lru_cache(maxsize=1024)
def _single_unit(unit: Unit) -> tuple[Reason]:
    """Why a lead of one unit stands (cached by value: a hand's leads recur)."""
    return (
        Reason(
            "throw.single_unit",
            f"The lead is one unit ({unit_name(unit)}), an ordinary lead: it always stands.",
            f"首家出的是单一牌型（{unit_name(unit, 'zh')}），不是甩牌，总是成立。",
        ),
    )


def judge_throw(throw: Throw) -> ThrowVerdict:
    """Judge a lead against the other seats' hands (docs/rules.md §4): the one
    entry point of the rule (the service and the audit call it).

    Seed 000, playing 10 (hearts trump): 98844 of spades against a J.

    >>> from engine.cards import parse_card
    >>> from engine.rules import preset
    >>> from engine.trump import Trump, trump_order
    >>> order = trump_order(Trump(8, 1), preset("two-deck"))
    >>> cards = lambda text: [parse_card(c) for c in text.split()]
    >>> v = judge_throw(check_throw(0, cards("9S 8S 8S 4S 4S"), {1: cards("JS 3S"), 2: [], 3: []},
    ...                             order, preset("two-deck")))
    >>> v.valid, [card_str(c) for c in v.forced_play], v.failed_units[0].beaten_by[0].seat
    (False, ['9S'], 1)
    """
    leader, lead, suit, hands, order, rules = throw.leader, throw.lead, throw.suit, throw.hands, throw.order, throw.rules
    units = lead_of(tuple(sorted(lead)), order, rules.follow_patterns).units
    if len(units) == 1:
        return ThrowVerdict(leader, suit, True, units, (), None, tuple(lead), _NO_PENALTY, _single_unit(units[0]))
    refused = _others_void(throw, units)
    if refused is not None:
        return refused
    seats = [s for s in _AFTER[leader] if s in hands]
    view = suit_view(order, suit)
    suit_en, suit_zh = _suit_names(suit)
    others = [_Seat(s, hands[s], view, suit_en, suit_zh) for s in seats]
    ranks: dict[tuple[int, int], list[int]] = {}  # each thrown shape → the ranks of its units
    for unit in units:
        ranks.setdefault((unit.width, unit.length), []).append(unit.rank)
    threats = {}  # each thrown shape → each other seat's threat to it
    for (width, length), r in ranks.items():
        lowest, highest = min(r), max(r)
        threats[width, length] = [p.threat(width, length, lowest, highest, rules) for p in others]
    reasons: list[Reason] = []
    failed: list[tuple[int, FailedUnit]] = []
    for index, unit in enumerate(units):
        rank = unit.rank
        blockers = [
            b for above, same, wider in threats[unit.width, unit.length] if (b := same if rank < above else wider)
        ]
        if blockers:
            failed.append((index, FailedUnit(unit, tuple([b for b, _, _ in blockers]))))
            reasons += _beaten_reasons(unit, blockers)
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
            leader, suit, True, units, (), None, tuple(lead), _NO_PENALTY, tuple(reasons)
        )
    index, why = _choose_forced(units, failed, seats, rules)
    reasons.append(why)
    forced = units[index]
    play = forced.cards
    if rules.throw_forced_cards is ThrowForcedCards.LOWEST_CARD and len(play) > 1:
        play = play[-1:]  # a unit's cards run high → low
        reasons.append(
            Reason(
                "throw.forced_lowest_card",
                f"Only the lowest card of the forced unit is played: {_cards_text(play)} "
                "(throw_forced_cards lowest_card, the Botzone judge).",
                f"只出被强制的一手中最小的一张：{_cards_text(play)}。",
            )
        )
    penalty, cost = _penalty(leader, len(lead), sum([f.unit.size for _, f in failed]), rules)
    if cost is not None:
        reasons.append(cost)
    return ThrowVerdict(
        leader, suit, False, units, tuple([f for _, f in failed]), forced, play, penalty,
        tuple(reasons),
    )
