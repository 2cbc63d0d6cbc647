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
and may cost a penalty (``throw_penalty``).  The search asks, once per other seat
and thrown shape, for the highest unit of that shape the seat can form
(``engine.suit.SuitView.highest``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache

from msgspec import Struct

from engine.cards import KINDS, card_str, check_copies, copy_counts, within_counts
from engine.errors import InvalidInput, Problem
from engine.lead import Lead, lead_of
from engine.reasons import SEAT_FACTS, Cards, Param, Reason, Suit, Team, reason
from engine.rules import Rules, ThrowForcedCards, ThrowForcedUnit, ThrowPenalty, ThrowWhenOthersVoid
from engine.shapes import Shape
from engine.suit import NO_RANK, SuitView
from engine.trump import TrumpOrder
from engine.units import Unit, mixed_suit_problems

SEATS = 4
_AFTER = tuple(tuple((leader + i) % SEATS for i in range(1, SEATS)) for leader in range(SEATS))  # in playing order
_KINDS = frozenset(range(KINDS))
_KIND_OF = {kind: kind for kind in range(KINDS)}  # a value equal to a kind → the kind (1.0 → 1)
# the facts the reasons name, one object each: facts are compared (``==``), the same object at once
_SUIT = tuple(Suit(s) for s in range(5))  # per effective suit (4: trump)
_SEAT_FACT = tuple(("seat", seat) for seat in SEAT_FACTS)  # the facts of a reason, built once
_SUIT_FACT = tuple(("suit", suit) for suit in _SUIT)
_FORCED = {policy: f"throw.forced.{policy}" for policy in ThrowForcedUnit}  # each policy's reason code
_LOWEST_CARD, _REFUSED = ThrowForcedCards.LOWEST_CARD, ThrowWhenOthersVoid.REFUSED  # read once, not per verdict


# The verdict's records, and the ``Throw`` they judge, are frozen ``msgspec.Struct``s, as
# the reasons (engine.reasons): built, hashed and compared in C, equal only to a record of
# their own type, and kept out of the garbage collector (none is part of a reference cycle).


class Blocker(Struct, frozen=True, gc=False):
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


class FailedUnit(Struct, frozen=True, gc=False):
    """A thrown unit some other seat can beat, with every seat that can."""

    unit: Unit
    beaten_by: tuple[Blocker, ...]


class Penalty(Struct, frozen=True, gc=False):
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


class ThrowVerdict(Struct, frozen=True, gc=False):
    """Does the lead stand; if not, which unit is forced and what it costs.

    ``forced_play`` is the lead itself (as given) when ``valid``, else the cards
    of ``forced_unit`` (only its lowest card under ``throw_forced_cards``
    ``lowest_card``).  ``refused`` (``throw_when_others_void`` ``refused``: nobody
    else holds the led suit): nothing is forced, ``forced_unit`` is None,
    ``forced_play`` empty, and the leader leads again.
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


# ---------------------------------------------------------------- input checks


class Throw(Struct, frozen=True, gc=False):
    """A lead to judge, its input checked: ``leader``'s ``lead``, of effective
    ``suit``, against the other seats' ``hands`` (seat → cards before the lead;
    a seat not given holds nothing that beats it).

    ``check_throw`` builds one, each hand a ``bytes`` of its kinds (the form its
    check of the cards makes, which ``SuitView.counts_in`` then reads without a
    copy); ``engine.audit`` builds one directly for a lead it has already checked
    against the hands, so it does not pay twice.
    """

    leader: int
    lead: Sequence[int]
    suit: int
    hands: Mapping[int, Sequence[int]]
    order: TrumpOrder
    rules: Rules


def _copies(lead: Sequence[int], held: Mapping[int, bytes], own: bool) -> list[int]:
    """The copies of each kind in the ``held`` hands, and in the lead unless it
    comes out of one of them (``own``: the leader's hand is given)."""
    return copy_counts(held.values() if own else [bytes(lead), *held.values()])


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
    try:  # every card a kind 0..53: ``bytes`` takes ints 0..255 (a bool too), ``copy_counts`` none above 53
        held = {}
        for seat, cards in hands.items():  # a loop: a comprehension costs a function call (3.11)
            held[seat] = bytes(cards)
        counts = _copies(lead, held, own is not None)
        cards_known = own is None or _KINDS.issuperset(lead)
    except (TypeError, ValueError, IndexError):  # some card no kind, or no int but equal to one (1.0)
        cards_known = False
    if not cards_known:  # each element that is no card, as ``x in _KINDS`` says (an unhashable one raises)
        for path, cards in (("lead",), lead), *((("hands", s), h) for s, h in hands.items()):
            bad = [(i, c) for i, c in enumerate(cards) if c not in _KINDS]
            problems += [Problem((*path, i), f"{c!r} is not a card", code="invalid_card") for i, c in bad]
    if not lead:
        problems.append(Problem(("lead",), "a lead needs at least one card", code="empty_lead"))
    if problems:
        raise InvalidInput(problems)
    suit_of = order.suit
    suit = suit_of[lead[0]]
    mixed = False
    for card in lead:  # every card ranked (one that is no int, 1.0, raises TypeError), none skipped
        if suit_of[card] != suit:
            mixed = True
    if mixed:
        raise InvalidInput(mixed_suit_problems(lead, order, ("lead",)))
    if own is not None:
        left = Counter(own)
        for i, card in enumerate(lead):
            left[card] -= 1
            if left[card] < 0:
                name = card_str(card)
                text = f"{name} is not in the leader's hand (hands/{leader}): the lead must come from it"
                problems.append(Problem(("lead", i), text, code="card_not_in_hand", params={"card": name}))
        if problems:
            raise InvalidInput(problems)
    if not cards_known:  # every card equals a kind, some are no int (1.0): each taken as its kind
        held = {seat: bytes(map(_KIND_OF.__getitem__, cards)) for seat, cards in hands.items()}
        counts = _copies(list(map(_KIND_OF.__getitem__, lead)), held, own is not None)
    if not within_counts(rules.decks, counts):
        given = [(("hands", s), h) for s, h in sorted(hands.items())]  # each excess copy reported where it is
        check_copies(given if own is not None else [(("lead",), lead), *given], rules.decks)
    return Throw(leader, lead, suit, held, order, rules)


# ---------------------------------------------------------------- the search


Facts = tuple[tuple[str, Param], ...]  # a reason's facts, or a part of them
Search = tuple[int, int, int, int, bool, tuple[tuple[int, int], ...]]
"""A thrown shape some seat might beat: (its width, its length, the lowest rank thrown
in it, the highest where a wider shape may beat it (else ``NO_RANK``), whether the
suit has a unit of it ranking above the lowest, the wider shapes of as many cards)."""


class ThrowPlan(Struct, frozen=True, gc=False):
    """What judging a throw needs of its lead under the rules, worked out once per
    lead (``_plan``): the shapes to search for (``searches``) and, per unit (by its
    place in the lead), the search of its shape (``search_of``: an index into
    ``searches``, -1 for a shape no seat can beat), the facts a reason names it by,
    as a thrown unit beaten (``thrown``: its shape, its cards) and as the unit
    forced (``named``); and the units' places in the two orders the
    ``throw_forced_unit`` policies read (§4): ``lowest_first`` (``_lowest``) and
    ``smallest_first`` (``_smallest``)."""

    searches: tuple[Search, ...]
    search_of: tuple[int, ...]
    thrown: tuple[Facts, ...]
    named: tuple[Facts, ...]
    lowest_first: tuple[int, ...]
    smallest_first: tuple[int, ...]


def _lowest(unit: Unit, at: int) -> tuple[int, int, int, int]:
    """Highest card ranking lowest, then fewer cards, then the printed suit: of units
    of equal rank and size (off-suit level cards, or constant trumps, of different
    printed suits; docs/rules.md §4) the ♦ one first, then ♣, ♥, ♠, the order in which
    ``level_suit_precedence`` ranks them lowest first (minus the lowest kind: ♠ kinds
    come first); then the last thrown (``at``: the unit's place in the lead)."""
    return (unit.rank, unit.width * unit.length, -min(unit.cards), -at)


def _smallest(unit: Unit, at: int) -> tuple[int, int, int, int]:
    """Fewest cards, then as ``_lowest``."""
    return (unit.width * unit.length, unit.rank, -min(unit.cards), -at)


@lru_cache(maxsize=512)
def _plan(lead: Lead, wider_shape_beats: bool, decks: int) -> ThrowPlan:
    """The ``ThrowPlan`` of a throw ``lead`` under the options ``wider_shape_beats``
    and ``decks`` (the widest tuple).  A shape is searched for when some seat may
    beat it: the suit has a unit of it ranking above its lowest thrown unit
    (``SuitView.tops``), or with ``wider_shape_beats`` (§3) a tractor of it has a
    wider shape of as many cards (a tuple has none)."""
    units, form, tops = lead.units, lead.form, lead.view.tops
    ranks: dict[tuple[int, int], list[int]] = {}  # each thrown shape → the ranks of its units
    for shape, unit in zip(form.shapes, units, strict=True):
        ranks.setdefault(shape, []).append(unit.rank)
    searches: list[Search] = []
    search_at: dict[tuple[int, int], int] = {}  # each shape searched → its place in ``searches``
    for (width, length), thrown in ranks.items():
        lowest, size = min(thrown), width * length
        search = lowest < tops[length]
        wider: tuple[tuple[int, int], ...] = ()
        if wider_shape_beats and length > 1:
            wider = tuple((w, size // w) for w in range(width + 1, decks + 1) if size % w == 0)
        if search or wider:
            search_at[width, length] = len(searches)
            searches.append((width, length, lowest, max(thrown) if wider else NO_RANK, search, wider))
    places = range(len(units))
    return ThrowPlan(
        searches=tuple(searches),
        search_of=tuple(search_at.get(shape, -1) for shape in form.shapes),
        thrown=tuple((("thrown", s), ("cards", c)) for s, c in zip(form.shape_facts, lead.card_facts, strict=True)),
        named=tuple((("shape", s), ("cards", c)) for s, c in zip(form.shape_facts, lead.card_facts, strict=True)),
        lowest_first=tuple(sorted(places, key=lambda k: _lowest(units[k], k))),
        smallest_first=tuple(sorted(places, key=lambda k: _smallest(units[k], k))),
    )


_NO_UNIT = (NO_RANK, ())  # what a seat holding no unit of a shape holds: below every rank, no cards
Beat = tuple[Blocker, str, Facts]  # with its reason's code and facts of what it holds
Threat = tuple[int, Beat | None, Beat | None]  # (above, same, wider): ``_threats``


def _beat(seat: int, cards: tuple[int, ...], width: int, length: int, suit: int, wider: bool) -> Beat:
    """``seat`` beats thrown units with ``cards`` (``width`` × ``length``): a
    higher unit of the same shape, or with ``wider`` a wider shape of as many
    cards (``wider_shape_beats``)."""
    held = (_SEAT_FACT[seat], _SUIT_FACT[suit], ("held", Cards(cards)))
    if not wider:
        return Blocker(seat, cards, width, length), "throw.unit_beaten", held
    return Blocker(seat, cards, width, length, True), "throw.unit_beaten_by_wider_shape", held + (
        ("shape", Shape(width, length)),
    )


def _threats(
    view: SuitView, seats: list[int], copies: list[tuple[int, ...]], searches: tuple[Search, ...]
) -> list[list[Threat]]:
    """What each seat (its ``copies`` of the led suit) holds against the thrown units
    of each shape searched for (``ThrowPlan.searches``): per search, for each seat
    that beats one of them (in playing order), (``above``, ``same``, ``wider``).  A
    thrown unit ranking below ``above``, the seat's highest unit of the shape
    (docs/rules.md §4: held in a wider tuple or a longer tractor counts), is beaten
    by ``same``; any other by ``wider``: with ``wider_shape_beats`` (§3) the seat's
    unit of as many cards and the first wider width it holds.  Each is made only if
    it beats a unit."""
    suit = view.suit
    found: list[list[Threat]] = []
    for width, length, lowest, highest, search, wider in searches:
        threats: list[Threat] = []
        found.append(threats)
        for seat, held in zip(seats, copies, strict=True):
            beats_same = beats_wider = None
            above, cards = (view.highest(held, width, length) if search else None) or _NO_UNIT
            if above > lowest:
                beats_same = _beat(seat, cards, width, length, suit, False)
            if above <= highest:
                for w, n in wider:
                    unit = view.highest(held, w, n)
                    if unit is not None:
                        beats_wider = _beat(seat, unit[1], w, n, suit, True)
                        break
            if beats_same or beats_wider:
                threats.append((above, beats_same, beats_wider))
    return found


# ---------------------------------------------------------------- forced play


_LOWEST_FAILED, _SMALLEST_UNIT, _FIRST_BLOCKED = (  # read once, not per verdict
    ThrowForcedUnit.LOWEST_FAILED, ThrowForcedUnit.SMALLEST_UNIT, ThrowForcedUnit.FIRST_BLOCKED
)


def _choose_forced(
    plan: ThrowPlan, failed: dict[int, FailedUnit], seats: list[int], policy: ThrowForcedUnit
) -> tuple[int, Reason]:
    """The place in the lead of the unit forced under ``throw_forced_unit`` ``policy``
    (docs/rules.md §4), and why: the first in the policy's order (of units alike in
    everything the order compares, the last thrown) that it may force.  ``failed``:
    each failed unit by its place in the lead."""
    order = plan.lowest_first if policy is _LOWEST_FAILED else plan.smallest_first
    if policy is _FIRST_BLOCKED:
        return _first_blocked(plan, order, failed, seats)
    at = order[0]  # smallest_unit: failed or not
    if policy is not _SMALLEST_UNIT:  # lowest_failed, smallest_failed: the first failed unit
        for at in order:
            if at in failed:
                break
    return at, Reason(_FORCED[policy], plan.named[at])


def _first_blocked(
    plan: ThrowPlan, order: tuple[int, ...], failed: dict[int, FailedUnit], seats: list[int]
) -> tuple[int, Reason]:
    """``throw_forced_unit`` ``first_blocked``: of the units the first seat in playing
    order that beats one beats, the first in ``order`` (``smallest_first``)."""
    first = next(s for s in seats if any(b.seat == s for f in failed.values() for b in f.beaten_by))
    at = next(k for k in order if k in failed and any(b.seat == first for b in failed[k].beaten_by))
    return at, Reason(_FORCED[_FIRST_BLOCKED], (_SEAT_FACT[first], *plan.named[at]))


def _penalty(throw: Throw, failed: tuple[FailedUnit, ...]) -> tuple[Penalty, Reason | None]:
    """The ``throw_penalty`` of a failed ``throw`` with the units ``failed`` (docs/rules.md §4)."""
    leader, rules = throw.leader, throw.rules
    kind = rules.throw_penalty
    if kind is _NO_PENALTY.kind:  # the usual rule, told without reading an enum member (a Python call each)
        return _NO_PENALTY, None
    if kind == ThrowPenalty.MATCH_POINT:
        return Penalty(kind, 1, leader, None), reason("throw.penalty.match_point", seat=SEAT_FACTS[leader], n=1)
    per, team = rules.throw_penalty_points_per_card, (leader + 1) % 2  # the points go to the other team
    if kind == ThrowPenalty.POINTS_PER_CARD or kind == ThrowPenalty.POINTS_PER_FAILED_CARD:
        failed_only = kind == ThrowPenalty.POINTS_PER_FAILED_CARD
        counted = sum(f.unit.size for f in failed) if failed_only else len(throw.lead)
        return Penalty(kind, per * counted, leader, team), reason(
            f"throw.penalty.{kind}", team=Team(team), per=per, cards=counted, n=per * counted
        )
    if kind == ThrowPenalty.POINTS_PER_THROW:
        return Penalty(kind, per, leader, team), reason("throw.penalty.points_per_throw", team=Team(team), n=per)
    return _NO_PENALTY, None


# ---------------------------------------------------------------- the verdict


@lru_cache(maxsize=1024)
def _single_unit(lead: Lead) -> tuple[Reason]:
    """Why a ``lead`` of one unit stands (cached per lead, which ``lead_of`` caches:
    a hand's leads recur)."""
    return (reason("throw.single_unit", shape=lead.form.shape_facts[0], cards=Cards(lead.units[0].cards)),)


def judge_throw(throw: Throw) -> ThrowVerdict:
    """Judge a lead against the other seats' hands (docs/rules.md §4): the one
    entry point of the rule (the service and the audit call it).

    ``throw_when_others_void`` ``refused`` (seed 000 四副
    "当其他三方没有自己所拿花色情况下，不能进行甩牌"): a multi-unit lead when none of
    the other three seats, all given, holds a card of its effective suit is
    refused, not forced.

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
    leader, lead, suit, hands, rules = throw.leader, throw.lead, throw.suit, throw.hands, throw.rules
    found = lead_of(tuple(sorted(lead)), throw.order, rules.follow_patterns)
    units, form = found.units, found.form
    if form.single:
        return ThrowVerdict(leader, suit, True, units, (), None, tuple(lead), _NO_PENALTY, _single_unit(found))
    view = found.view  # the led suit's view, which the lead holds
    seats = list(filter(hands.__contains__, _AFTER[leader]))  # the other seats given, in playing order
    copies = list(map(view.counts_in, map(hands.__getitem__, seats)))
    void = len(seats) == SEATS - 1 and not any(map(any, copies))  # no other seat holds the led suit
    if void and rules.throw_when_others_void is _REFUSED:
        why = reason("throw.refused_others_void", suit=_SUIT[suit], n=len(units))
        return ThrowVerdict(leader, suit, False, units, (), None, (), _NO_PENALTY, (why,), True)
    plan = _plan(found, rules.wider_shape_beats, rules.decks)
    threats = _threats(view, seats, copies, plan.searches)
    search_of = plan.search_of
    reasons: list[Reason] = []
    failed: dict[int, FailedUnit] = {}  # each failed unit by its place in the lead
    for at, unit in enumerate(units):  # each unit: every seat that beats it, in playing order
        search = search_of[at]
        if search < 0:
            continue
        threat = threats[search]
        rank, blockers, thrown = unit.rank, [], plan.thrown[at]
        for above, same, wider in threat:
            beat = same if rank < above else wider
            if beat is not None:
                blocker, code, held = beat
                blockers.append(blocker)
                reasons.append(Reason(code, held + thrown))
        if blockers:
            failed[at] = FailedUnit(unit, tuple(blockers))
    if not failed:
        reasons.append(reason("throw.stands", suit=_SUIT[suit], n=len(units)))
        return ThrowVerdict(leader, suit, True, units, (), None, tuple(lead), _NO_PENALTY, tuple(reasons))
    at, why = _choose_forced(plan, failed, seats, rules.throw_forced_unit)
    reasons.append(why)
    forced = units[at]
    play = forced.cards
    if rules.throw_forced_cards is _LOWEST_CARD and len(play) > 1:
        play = play[-1:]  # a unit's cards run high → low
        reasons.append(reason("throw.forced_lowest_card", cards=Cards(play)))
    failed_units = tuple(failed.values())
    penalty, cost = _penalty(throw, failed_units)
    if cost is not None:
        reasons.append(cost)
    return ThrowVerdict(leader, suit, False, units, failed_units, forced, play, penalty, tuple(reasons))
