"""Who won this trick? (docs/rules.md §6, with §5.3 on trumping 斃/杀).

* The leader's play stands first.  A later play beats the best so far only if
  it has the lead's **full structure** — its cards can be arranged into the
  lead's units, a wider tuple serving as a narrower one (a pair as two singles,
  a triple as a pair and a single) and, with ``wider_shape_beats`` (seeds 000,
  001, 002 for 3–4 decks), a wider shape of the same card count serving as the
  narrower one it beats (a quad as a 2-pair tractor, a triple tractor of 2 as a
  3-pair tractor, …) — and is entirely of the led suit, or entirely trump when
  the lead was a plain suit (seed 000 "斃牌時所出的牌必須是主牌，且其拖拉機的數目不得
  少於首家…", seed 003 "若首家出包含对的付牌，其它方即使全部出了主牌，但没有对，也不能
  算大").  A discard 垫牌 never wins.
* Between two plays with the structure: a trump play beats a led-suit play;
  otherwise ``throw_comparison`` decides between multi-unit plays —
  ``largest_unit`` (seed 000 "斃牌的大小以斃牌中的拖拉機和對牌大小為準": the highest
  of the units serving the lead's tractors, else its widest tuples, else its
  singles), ``all_units`` (every unit stronger than its counterpart, units of
  each lead shape paired after sorting both sides), ``dominance`` (no unit
  weaker than its counterpart, at least one stronger) or ``highest_card``.  A
  single-unit lead compares that unit: a wider serving shape first (when it may
  serve at all), then its rank.  Where a play can be arranged in several ways
  every arrangement is tried, and it must beat the best play's strongest
  arrangement.  Ties go to the earlier play (seed 000 出牌時同等大小的牌以先出者為大).
* ``ruff_shape`` ``exact`` (jding92/shengji-online): a ruff (or over-ruff) has the
  lead's structure only if it decomposes into exactly the lead's units; a pair
  does not ruff two singles.
* Roles: ``lead``; ``follow`` (all of the led suit); ``ruff`` (a plain suit
  led, all trump, with the lead's structure); ``discard`` (anything else).
* Points: every 5, 10 and K in the trick goes to the winner's team.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.cards import card_str, check_copies, points
from engine.errors import InvalidInput, Problem
from engine.follow import Follow, FollowVerdict, judge_follow
from engine.lead import LeadForm, lead_of
from engine.reasons import Reason, Seat, Suit, reason
from engine.records import quick_init
from engine.rules import RuffShape, Rules, ThrowComparison
from engine.shapes import (
    Shape,
    in_hand,
    within_copies,
)
from engine.suit import SuitView, suit_view
from engine.trump import TRUMP, TrumpOrder
from engine.units import Unit, decompose, mixed_suit_problems, unit_shapes

_POINTS = tuple(points(k) for k in range(54))
Key = tuple[int, int, int]  # (trump over a plain lead, width of the serving shape, rank)


@quick_init
@dataclass(frozen=True, slots=True)
class Arrangement:
    """One way a play is arranged into the lead's units.

    ``units[i]`` serves ``lead_units[i]``; ``keys[i]`` is its strength there.
    """

    units: tuple[Unit, ...]
    keys: tuple[Key, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class PlayVerdict:
    """One play of the trick."""

    seat: int
    cards: tuple[int, ...]  # high → low
    role: str
    beats_previous_best: bool
    legal: bool | None  # None: no hand given, or a throw (see /v1/throw)
    reasons: tuple[Reason, ...]
    units: tuple[Unit, ...] | None  # its strongest arrangement into the lead's units, if any
    follow: FollowVerdict | None = None


@quick_init
@dataclass(frozen=True, slots=True)
class TrickResult:
    """The trick's winner (a seat), its points and a verdict per play."""

    leader: int
    suit: int
    lead_units: tuple[Unit, ...]
    winner: int
    points: int
    plays: tuple[PlayVerdict, ...]


def _serving(width: int, length: int, wider: bool, decks: int) -> tuple[Shape, ...]:
    """The shapes that may serve a lead unit of ``width`` × ``length``: its own,
    and with ``wider_shape_beats`` every wider one of the same card count (docs/rules.md §3)."""
    own = Shape(width, length)
    if not wider or width == 1:
        return (own,)
    return (own, *(Shape(w, own.size // w) for w in range(width + 1, min(decks, 4) + 1) if own.size % w == 0))


def _unit(lay: SuitView, shape: Shape, at: tuple[int, ...], rank: int) -> Unit:
    """The unit of ``shape`` placed at the layout's kinds ``at`` (low → high)."""
    kinds = [lay.kinds[i] for i in reversed(at)]
    cards = tuple([k for k in kinds for _ in range(shape.width)])
    return Unit(shape.width, shape.length, cards, rank, lay.suit)


def _may_serve(cards: Sequence[int], led: int, order: TrumpOrder) -> bool:
    """Are ``cards`` all of the led suit or, under a plain-suit lead, all trumps?"""
    suit_of = order.suit
    suit = suit_of[cards[0]]
    if suit != led and (suit != TRUMP or led == TRUMP):
        return False
    for card in cards:
        if suit_of[card] != suit:
            return False
    return True


def _singles(cards: Sequence[int], powers: Sequence[int], suit: int, bonus: int) -> Arrangement:
    """A play over a lead of singles (``powers`` aligned with ``cards``, all of
    effective suit ``suit``): every card serves a single, strongest first."""
    if len(cards) == 1:
        return Arrangement((Unit(1, 1, (cards[0],), powers[0], suit),), ((bonus, 1, powers[0]),))
    ranked = sorted(zip(cards, powers, strict=True), key=lambda kp: -kp[1])
    return Arrangement(tuple([Unit(1, 1, (k,), p, suit) for k, p in ranked]), tuple([(bonus, 1, p) for _, p in ranked]))


def _search(
    cards: tuple[int, ...], shapes: tuple[tuple[int, int], ...], led: int, order: TrumpOrder, wider: bool, decks: int
) -> tuple[Arrangement, ...]:
    """Every distinct arrangement of sorted ``cards`` that ``_may_serve`` a lead of units of
    ``shapes`` (width, length) in suit ``led``: a depth-first search placing a
    serving shape in each of the lead's tuple and tractor slots (alike slots in
    a fixed order), the rest of the cards as its singles."""
    suit = order.suit[cards[0]]
    bonus = 1 if suit != led else 0
    power = order.power
    slots = [i for i, (width, _) in enumerate(shapes) if width > 1]
    if not slots:  # a lead of singles: every card serves, strongest first
        return (_singles(cards, [power[k] for k in cards], suit, bonus),)
    lay = suit_view(order, suit)
    counts = lay.counts(cards)
    singles = [i for i, (width, _) in enumerate(shapes) if width == 1]
    found: list[Arrangement] = []

    def finish(served: dict[int, tuple[Shape, tuple[int, ...], int]], vec: tuple[int, ...]) -> None:
        units: list[Unit | None] = [None] * len(shapes)
        keys: list[Key | None] = [None] * len(shapes)
        for i, (shape, at, rank) in served.items():
            units[i] = _unit(lay, shape, at, rank)
            keys[i] = (bonus, shape.width, rank)
        if singles:  # the cards left over serve the lead's singles, strongest first
            rest = [lay.kinds[i] for i, c in enumerate(vec) if c for _ in range(c)]
            rest.sort(key=lambda k: -power[k])
            for i, kind in zip(singles, rest, strict=True):
                units[i] = Unit(1, 1, (kind,), power[kind], suit)
                keys[i] = (bonus, 1, power[kind])
        found.append(Arrangement(tuple([u for u in units if u]), tuple([k for k in keys if k])))

    def search(
        k: int, served: dict[int, tuple[Shape, tuple[int, ...], int]], vec: tuple[int, ...], bound: object
    ) -> None:
        if k == len(slots):
            finish(served, vec)
            return
        i = slots[k]
        same_as_previous = k > 0 and shapes[slots[k - 1]] == shapes[i]
        for shape in _serving(shapes[i][0], shapes[i][1], wider, decks):
            for at, rank in lay.spots(vec, shape.width, shape.length):
                mark = (shape, at)
                if same_as_previous and bound is not None and mark > bound:  # type: ignore[operator]
                    continue
                served[i] = (shape, at, rank)
                left = list(vec)
                for j in at:
                    left[j] -= shape.width
                search(k + 1, served, tuple(left), mark)
                del served[i]

    search(0, {}, counts, None)
    if len(found) <= 1:
        return tuple(found)
    distinct: dict[tuple[object, ...], Arrangement] = {}
    for arrangement in found:
        distinct.setdefault(_canonical(arrangement, shapes), arrangement)
    return tuple(distinct[key] for key in sorted(distinct, key=repr))


def _canonical(arrangement: Arrangement, shapes: Sequence[tuple[int, int]]) -> tuple[object, ...]:
    """Units of each lead shape as a sorted multiset: input order never matters."""
    groups: dict[tuple[int, int], list[tuple[Key, tuple[int, ...]]]] = {}
    for unit, key, shape in zip(arrangement.units, arrangement.keys, shapes, strict=True):
        groups.setdefault(shape, []).append((key, unit.cards))
    return tuple((shape, tuple(sorted(v))) for shape, v in sorted(groups.items()))


def _groups(arrangement: Arrangement, shapes: Sequence[tuple[int, int]]) -> tuple[tuple[Key, ...], ...]:
    """Keys per lead shape (in a fixed shape order), strongest first."""
    groups: dict[tuple[int, int], list[Key]] = {}
    for key, shape in zip(arrangement.keys, shapes, strict=True):
        groups.setdefault(shape, []).append(key)
    return tuple(tuple(sorted(groups[s], reverse=True)) for s in sorted(groups))


@quick_init
@dataclass(frozen=True, slots=True)
class Strength:
    """What the comparisons need of a play with the lead's structure.

    ``value``: its strongest key on the lead's largest shape (largest_unit, and
    any single-unit lead); ``highest``: its highest card (highest_card);
    ``groups``: per arrangement, its keys per lead shape, strongest first
    (all_units pairs them with the other play's, both sides sorted).
    """

    value: Key
    highest: tuple[int, int] | None  # computed for highest_card only
    groups: tuple[tuple[tuple[Key, ...], ...], ...] | None  # computed for all_units only


def _highest(cards: Sequence[int], led: int, order: TrumpOrder, mode: ThrowComparison) -> tuple[int, int] | None:
    """``Strength.highest`` of a play that may serve (all of one suit): whether it
    trumps a plain lead, and its highest power; computed for highest_card only."""
    if mode != ThrowComparison.HIGHEST_CARD:
        return None
    power = order.power
    return (1 if order.suit[cards[0]] != led else 0, max([power[c] for c in cards]))


def _strength(
    found: tuple[Arrangement, ...],
    shapes: Sequence[tuple[int, int]],
    largest: tuple[int, ...],
    highest: tuple[int, int] | None,
    mode: ThrowComparison,
) -> Strength:
    if len(largest) == 1 and len(found) == 1:
        value = found[0].keys[largest[0]]
    else:
        value = max([max([a.keys[i] for i in largest]) for a in found])
    return Strength(
        value=value,
        highest=highest,
        groups=tuple(_groups(a, shapes) for a in found) if mode in _BY_UNITS else None,
    )


# the comparisons that pair the units of both plays (``Strength.groups``)
_BY_UNITS = frozenset((ThrowComparison.ALL_UNITS, ThrowComparison.DOMINANCE))


def _dominates(a: tuple[tuple[Key, ...], ...], b: tuple[tuple[Key, ...], ...]) -> bool:
    """all_units: every unit of ``a`` stronger than its counterpart in ``b``."""
    return all(x > y for ga, gb in zip(a, b, strict=True) for x, y in zip(ga, gb, strict=True))


def _weakly_dominates(a: tuple[tuple[Key, ...], ...], b: tuple[tuple[Key, ...], ...]) -> bool:
    """dominance: no unit of ``a`` weaker than its counterpart in ``b``, at least one stronger."""
    pairs = [(x, y) for ga, gb in zip(a, b, strict=True) for x, y in zip(ga, gb, strict=True)]
    return all(x >= y for x, y in pairs) and any(x > y for x, y in pairs)


def stronger(cand: Strength | None, best: Strength | None, single_unit: bool, rules: Rules) -> bool:
    """Does a play of strength ``cand`` beat one of strength ``best``?  Strictly:
    ties go to the earlier play (docs/rules.md §2, §6)."""
    if cand is None:
        return False
    if best is None:
        return True
    mode = rules.throw_comparison
    if single_unit or mode == ThrowComparison.LARGEST_UNIT:
        return cand.value > best.value
    if mode == ThrowComparison.HIGHEST_CARD:
        assert cand.highest is not None and best.highest is not None
        return cand.highest > best.highest
    assert cand.groups is not None and best.groups is not None
    wins = _weakly_dominates if mode == ThrowComparison.DOMINANCE else _dominates
    return any(all(wins(a, b) for b in best.groups) for a in cand.groups)


# --- the whole trick -----------------------------------------------------------------------


_SEATS = range(4)


@quick_init  # built once per request: engine.records
@dataclass(frozen=True, slots=True)
class Trick:
    """A trick to resolve, its input checked: ``plays`` in playing order from
    ``leader`` (1 to 4 of them; seat of play i is ``(leader + i) % 4``) and,
    optionally, ``hands`` (seat → cards before the trick) to judge every follow.

    ``check_trick`` builds one; ``engine.audit`` builds one directly for a trick
    whose every play it has already checked against the hands (the leader a
    seat, four plays of the lead's size from the hands, the lead of one suit,
    no more copies than decks), so it does not pay for the checks twice.
    """

    leader: int
    plays: Sequence[Sequence[int]]
    order: TrumpOrder
    rules: Rules
    hands: Mapping[int, Sequence[int]] | None = None


def check_trick(
    leader: int,
    plays: Sequence[Sequence[int]],
    order: TrumpOrder,
    rules: Rules,
    hands: Mapping[int, Sequence[int]] | None = None,
    *,
    copies: bool = True,
) -> Trick:
    """The ``Trick`` to resolve, after every check of its input.

    Raises InvalidInput (paths ``("leader",)``, ``("plays", i[, j])``,
    ``("hands", seat[, j])``) for a leader out of range, an empty lead or one
    mixing effective suits, plays of unequal size, more copies than decks, or
    a play not in its seat's hand.  ``copies`` False when the caller has
    already counted the copies of every card (``engine.kitty.check_kitty_trick``).
    """
    problems: list[Problem] = []
    if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader <= 3:
        problems.append(Problem(("leader",), "the leader is a seat 0..3", code="invalid_seat"))
    if not 1 <= len(plays) <= 4:
        raise InvalidInput(problems + [Problem(("plays",), f"a trick has 1 to 4 plays, not {len(plays)}", code="wrong_play_count")])
    lead = plays[0]
    if not lead:
        raise InvalidInput(problems + [Problem(("plays", 0), "the lead is empty", code="empty_lead")])
    problems += mixed_suit_problems(lead, order, ("plays", 0))
    size = len(lead)
    for i in range(1, len(plays)):
        if len(plays[i]) != size:
            problems.append(
                Problem(("plays", i), f"this play has {len(plays[i])} cards; the lead has {size}: plays are equal in size", code="wrong_card_count",
                        params={"count": len(plays[i]), "lead": size})
            )
    if problems:
        raise InvalidInput(problems)
    if hands is None:
        if copies and not within_copies(rules.decks, *plays):
            check_copies([(("plays", i), play) for i, play in enumerate(plays)], rules.decks)
        return Trick(leader, plays, order, rules)
    held: list[Sequence[int]] = []  # every card in the trick's seats: the hands, and plays without one
    for seat, hand in hands.items():
        if seat in _SEATS:
            held.append(hand)
        else:
            problems.append(Problem(("hands", seat), "a seat is 0..3", code="invalid_seat"))
    for i, play in enumerate(plays):
        if (leader + i) % 4 not in hands:
            held.append(play)
    if copies and not within_copies(rules.decks, *held):
        sets = [(("hands", seat), hand) for seat, hand in hands.items() if seat in _SEATS]
        sets += [(("plays", i), play) for i, play in enumerate(plays) if (leader + i) % 4 not in hands]
        try:
            check_copies(sets, rules.decks)
        except InvalidInput as exc:
            problems += exc.problems
    for i, play in enumerate(plays):
        seat = (leader + i) % 4
        if seat not in hands or in_hand(play, hands[seat]):
            continue
        left = Counter(hands[seat])
        for j, card in enumerate(play):
            if left[card] <= 0:
                problems.append(Problem(("plays", i, j), f"{card_str(card)} is not in seat {seat}'s hand", code="card_not_in_hand",
                                        params={"card": card_str(card)}))
            left[card] -= 1
    if problems:
        raise InvalidInput(problems)
    return Trick(leader, plays, order, rules, hands)


@quick_init
@dataclass(frozen=True, slots=True)
class _Measure:
    """A play measured against the lead: its ``arrangements`` (empty without the
    lead's structure and suit: it can never win), its ``Strength`` (None then)
    and the units of its strongest arrangement (None then)."""

    found: tuple[Arrangement, ...]
    strength: Strength | None
    units: tuple[Unit, ...] | None


_UNMATCHED = _Measure((), None, None)


def _measure(play: Sequence[int], form: LeadForm, order: TrumpOrder, rules: Rules) -> _Measure:
    """The play's ``_Measure`` against a lead of ``form`` (cached by the play,
    the lead's form, the order and the options the comparison reads)."""
    if not _may_serve(play, form.suit, order):
        return _UNMATCHED
    cards = tuple(sorted(play)) if len(play) > 1 else tuple(play)
    if rules.ruff_shape is RuffShape.EXACT and order.suit[cards[0]] != form.suit and not _exact(cards, form, order):
        return _UNMATCHED
    return _arrangements(cards, form, order, rules.wider_shape_beats, rules.decks, rules.throw_comparison)


def _exact(cards: tuple[int, ...], form: LeadForm, order: TrumpOrder) -> bool:
    """``ruff_shape`` ``exact`` (docs/rules.md §6): do the ruff's sorted ``cards``
    decompose into exactly the lead's units (the same shapes, as many of each)?"""
    return sorted(unit_shapes(decompose(cards, order))) == sorted(form.shapes)


@lru_cache(maxsize=4096)
def _arrangements(
    cards: tuple[int, ...], form: LeadForm, order: TrumpOrder, wider: bool, decks: int, mode: ThrowComparison
) -> _Measure:
    """``_measure`` of sorted ``cards`` that ``_may_serve`` a lead of ``form``,
    by ``_search``; cached per play and lead form, not the lead's cards."""
    found = _search(cards, form.shapes, form.suit, order, wider, decks)
    if not found:
        return _UNMATCHED
    strength = _strength(found, form.shapes, form.largest, _highest(cards, form.suit, order, mode), mode)
    return _Measure(found, strength, _strongest(found, form.largest))


def _contest(
    plays: Sequence[Sequence[int]], form: LeadForm, order: TrumpOrder, rules: Rules
) -> tuple[list[_Measure], list[bool], int]:
    """Who wins (docs/rules.md §6), on input ``check_trick`` passed.

    Returns each play's ``_Measure``, whether each beat the best play before it,
    and the index of the winning play.  The lead stands first; a later play
    takes over only if it is strictly ``stronger`` (ties go to the earlier play).
    """
    measures = [_measure(play, form, order, rules) for play in plays]
    top = measures[0].strength
    won = [False] * len(plays)
    best = 0
    for i in range(1, len(plays)):
        power = measures[i].strength
        if power is not None and stronger(power, top, form.single, rules):
            won[i], best, top = True, i, power
    return measures, won, best


def _role(i: int, play: Sequence[int], led: int, matched: bool, suit_of: tuple[int, ...]) -> str:
    """``lead``; ``follow`` (all of the led suit); ``ruff`` (a plain suit led, all
    trump with the lead's structure); ``discard`` (anything else)."""
    if i == 0:
        return "lead"
    if matched:  # all of one suit that may serve: the led one, or trumps over a plain lead
        return "follow" if suit_of[play[0]] == led else "ruff"
    for card in play:
        if suit_of[card] != led:
            return "discard"
    return "follow"


@lru_cache(maxsize=4096)
def _play_reasons(
    role: str, form: LeadForm, seat: int, matched: bool, won: bool, best_seat: int, mode: ThrowComparison
) -> tuple[Reason, ...]:
    """A play's reasons in the trick: its role and, for a follow or a ruff, how
    it compared with the best play so far (cached by value: a few dozen per lead form)."""
    role_reason = _role_reason(role, form, seat)
    if role == "follow" or role == "ruff":
        return (role_reason, _compare_reason(matched, won, best_seat, form, mode))
    return (role_reason,)


def _role_reason(role: str, form: LeadForm, seat: int) -> Reason:
    """The reason for a play's role: ``trick.lead`` (form ``throw`` for a throw),
    ``trick.ruff``, ``trick.discard`` (form ``trumps`` when trumps were led), ``trick.follow``."""
    suit = Suit(form.suit)
    if role == "lead":
        return reason("trick.lead", "" if form.single else "throw", seat=Seat(seat), suit=suit, lead=form.pieces)
    if role == "ruff":
        return reason("trick.ruff", suit=suit, lead=form.pieces)
    if role == "discard":
        return reason("trick.discard", "trumps" if form.suit == TRUMP else "", suit=suit, lead=form.pieces)
    return reason("trick.follow", suit=suit)


def _compare_reason(matched: bool, won: bool, best_seat: int, form: LeadForm, mode: ThrowComparison) -> Reason:
    """How a follow or ruff compared with the best play so far (form: the ``throw_comparison``)."""
    if not matched:
        return reason("trick.no_structure", lead=form.pieces)
    return reason("trick.beats" if won else "trick.does_not_beat", str(mode), seat=Seat(best_seat))


_THROW_NOT_JUDGED = reason("trick.throw_not_judged")


def resolve_trick(trick: Trick) -> TrickResult:
    """Resolve a trick (docs/rules.md §6): its winner, points and a verdict per
    play; with the trick's ``hands`` every follow is also judged
    (``engine.follow.judge_follow``).  The one entry point of the rule: the
    service, the kitty (``engine.kitty.check_kitty_trick``) and the audit call it.

    >>> from engine.rules import preset
    >>> from engine.trump import Trump, trump_order
    >>> from engine.cards import parse_card as p
    >>> rules = preset("two-deck")
    >>> order = trump_order(Trump(8, 1), rules)   # playing 10, hearts trump
    >>> cards = lambda s: [p(c) for c in s.split()]
    >>> t = resolve_trick(check_trick(0, [cards("AS KS 5S 5S 4S 4S"), cards("9H 9H 8H 8H 7H 2H"),
    ...                                   cards("AS KS QS 3S 3S 2S"), cards("JH JH QH QH 3H 2H")], order, rules))
    >>> t.winner, t.points, [p.role for p in t.plays]
    (3, 30, ['lead', 'ruff', 'follow', 'ruff'])
    """
    leader, plays, order, rules, hands = trick.leader, trick.plays, trick.order, trick.rules, trick.hands
    lead_key = tuple(sorted(plays[0]))
    lead = lead_of(lead_key, order, rules.follow_patterns, rules.follow_tractors)
    form = lead.form
    measures, won, best = _contest(plays, form, order, rules)
    led, single = form.suit, form.single
    mode = ThrowComparison.LARGEST_UNIT if single else rules.throw_comparison
    suit_of = order.suit
    best_so_far = leader  # the seat of the best play before the current one
    verdicts: list[PlayVerdict] = []
    for i, play in enumerate(plays):
        seat = (leader + i) % 4
        measure = measures[i]
        matched = measure.strength is not None
        role = _role(i, play, led, matched, suit_of)
        reasons = _play_reasons(role, form, seat, matched, won[i], best_so_far, mode)
        legal: bool | None = None
        follow: FollowVerdict | None = None
        if hands is not None and seat in hands:
            if i == 0:
                if single:
                    legal = True
                else:
                    reasons += (_THROW_NOT_JUDGED,)
            else:
                follow = judge_follow(Follow(lead, hands[seat], play, rules))
                legal = follow.legal
                reasons += follow.reasons
        verdicts.append(
            PlayVerdict(
                seat, tuple(play) if len(play) == 1 else tuple(order.sorted(play)), role, won[i], legal, reasons,
                measure.units, follow,
            )
        )
        if won[i]:
            best_so_far = seat
    return TrickResult(
        leader, led, lead.units, (leader + best) % 4, sum([_POINTS[c] for play in plays for c in play]), tuple(verdicts)
    )


def _strongest(found: tuple[Arrangement, ...], largest: tuple[int, ...]) -> tuple[Unit, ...] | None:
    if not found:
        return None
    if len(found) == 1:
        return found[0].units
    return max(found, key=lambda a: (max(a.keys[i] for i in largest), sorted(a.keys, reverse=True))).units
