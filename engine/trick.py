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

from msgspec import Struct

from engine.cards import card_str, check_copies, total_points, within_copies
from engine.errors import InvalidInput, Problem
from engine.follow import rule_on_follow
from engine.lead import Lead, LeadForm, lead_of
from engine.reasons import Reason, Seat, Suit, reason
from engine.rules import RuffShape, Rules, ThrowComparison
from engine.shapes import Shape, in_hand
from engine.suit import SuitView, suit_view
from engine.trump import TRUMP, TrumpOrder
from engine.units import Unit, decompose, mixed_suit_problems, unit_shapes

Key = tuple[int, int, int]  # (trump over a plain lead, width of the serving shape, rank)
Groups = tuple[tuple[Key, ...], ...]  # a play's keys per lead shape (in a fixed order), strongest first


class PlayVerdict(Struct, frozen=True, gc=False):
    """One play of the trick.  A frozen ``msgspec.Struct``, as the reasons
    (``engine.reasons``): one is built per play of every trick, in C; it is equal
    only to a record of its own type."""

    seat: int
    cards: tuple[int, ...]  # high → low
    role: str
    beats_previous_best: bool
    legal: bool | None  # None: no hand given, or a throw (see /v1/throw)
    reasons: tuple[Reason, ...]
    units: tuple[Unit, ...] | None  # its strongest arrangement into the lead's units, if any


class TrickResult(Struct, frozen=True, gc=False):
    """The trick's winner (a seat), its points and a verdict per play (a frozen
    struct, as ``PlayVerdict``)."""

    leader: int
    suit: int
    lead_units: tuple[Unit, ...]
    winner: int
    points: int
    plays: tuple[PlayVerdict, ...]


# --- one play against the lead ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Measure:
    """A play against the lead: its ``cards`` high → low, its ``role`` unless it
    leads and, with the lead's structure and suit (else ``units`` None: it never
    wins), its strongest arrangement's units and its strength: ``value`` (largest_unit
    and any single-unit lead: its strongest key on the lead's largest shape;
    highest_card: (trumps a plain lead, highest power)) or ``groups`` (all_units,
    dominance: per arrangement, its keys per lead shape, strongest first); its
    ``points`` (every 5, 10 and K in it); and, for a play of one suit that may
    serve, its ``counts`` on that suit's view (a follow's are what the follow
    rule reads of it: ``engine.follow.rule_on_follow``)."""

    cards: tuple[int, ...]
    role: str
    points: int
    units: tuple[Unit, ...] | None
    value: tuple[int, ...] = ()
    groups: tuple[Groups, ...] = ()
    counts: tuple[int, ...] | None = None


def _serving(width: int, length: int, wider: bool, decks: int) -> tuple[Shape, ...]:
    """The shapes that may serve a lead unit of ``width`` × ``length``: its own,
    and with ``wider_shape_beats`` every wider one of the same card count (docs/rules.md §3)."""
    own = Shape(width, length)
    if not wider or width == 1:
        return (own,)
    return (own, *(Shape(w, own.size // w) for w in range(width + 1, min(decks, 4) + 1) if own.size % w == 0))


def _arrangements(
    lay: SuitView, counts: tuple[int, ...], shapes: tuple[tuple[int, int], ...], led: int, wider: bool, decks: int
) -> list[tuple[tuple[Unit, ...], tuple[Key, ...], Groups]]:
    """Every distinct way cards of one suit that may serve (the led one, or
    trumps over a plain lead), ``counts`` on its view ``lay``, are arranged
    into a lead of units of ``shapes`` (width, length), as (units, keys,
    groups): ``units[i]`` serves the lead's unit i with strength ``keys[i]``;
    ``groups``: the keys per lead shape.
    A depth-first search places a serving shape in each of the lead's tuple and
    tractor slots (alike slots in a fixed order); the cards left serve its
    singles, strongest first.  Arrangements with the same units per lead shape
    count once, in a fixed order."""
    suit = lay.suit
    bonus = int(suit != led)
    kinds, power = lay.kinds, lay.power
    slots = [i for i, (width, _) in enumerate(shapes) if width > 1]
    singles = [i for i, (width, _) in enumerate(shapes) if width == 1]
    # each arrangement by its (key, cards) per lead shape
    found: dict[tuple[object, ...], tuple[tuple[Unit, ...], tuple[Key, ...], Groups]] = {}
    served: dict[int, tuple[Unit, Key]] = {}

    def search(k: int, vec: tuple[int, ...], bound: tuple[Shape, tuple[int, ...]] | None) -> None:
        if k == len(slots):
            rest = sorted((i for i, c in enumerate(vec) for _ in range(c)), key=lambda i: -power[i])
            for slot, i in zip(singles, rest, strict=True):
                served[slot] = (Unit(1, 1, (kinds[i],), power[i], suit), (bonus, 1, power[i]))
            units = tuple([served[slot][0] for slot in range(len(shapes))])
            keys = tuple([served[slot][1] for slot in range(len(shapes))])
            groups: dict[tuple[int, int], list[tuple[Key, tuple[int, ...]]]] = {}
            for unit, key, of in zip(units, keys, shapes, strict=True):
                groups.setdefault(of, []).append((key, unit.cards))
            per_shape = tuple((of, tuple(sorted(v))) for of, v in sorted(groups.items()))
            if per_shape not in found:
                strongest_first = tuple(tuple(key for key, _ in reversed(v)) for _, v in per_shape)
                found[per_shape] = (units, keys, strongest_first)
            return
        i = slots[k]
        alike = k > 0 and shapes[slots[k - 1]] == shapes[i]
        for shape in _serving(*shapes[i], wider, decks):
            for at, rank in lay.spots(vec, shape.width, shape.length):
                mark = (shape, at)
                if alike and bound is not None and mark > bound:
                    continue
                unit_cards = tuple([kinds[j] for j in reversed(at) for _ in range(shape.width)])
                unit = Unit(shape.width, shape.length, unit_cards, rank, suit)
                served[i] = (unit, (bonus, shape.width, rank))
                left = list(vec)
                for j in at:
                    left[j] -= shape.width
                search(k + 1, tuple(left), mark)

    search(0, counts, None)
    return [found[per_shape] for per_shape in sorted(found, key=repr)]


@lru_cache(maxsize=4096)
def _measure(
    cards: tuple[int, ...], form: LeadForm, order: TrumpOrder, ruff: RuffShape, wider: bool, decks: int,
    mode: ThrowComparison,
) -> _Measure:
    """The ``_Measure`` of a play's ``cards`` against a lead of ``form`` (cached per play as
    played, whose order it does not depend on, and lead form, not the lead's cards) under ``ruff_shape`` (``exact``: a ruff must decompose
    into exactly the lead's units), ``wider_shape_beats``, the decks and the comparison ``mode``."""
    suit_of, led = order.suit, form.suit
    shown = cards if len(cards) == 1 else tuple(order.sorted(cards))
    points = total_points(cards)
    suit = suit_of[cards[0]]
    if any(suit_of[c] != suit for c in cards) or (suit != led and (suit != TRUMP or led == TRUMP)):
        return _Measure(shown, "discard", points, None)
    role = "follow" if suit == led else "ruff"
    exact = ruff is RuffShape.EXACT and role == "ruff"
    lay = suit_view(order, suit)
    counts = lay.counts(cards)
    found = _arrangements(lay, counts, form.shapes, led, wider, decks)
    if not found or (exact and sorted(unit_shapes(decompose(cards, order))) != sorted(form.shapes)):
        return _Measure(shown, "discard" if role == "ruff" else role, points, None, counts=counts)
    largest = form.largest
    tops = [max([keys[i] for i in largest]) for _, keys, _ in found]
    best = max(range(len(found)), key=lambda a: (tops[a], sorted(found[a][1], reverse=True)))
    units = found[best][0]
    if mode in _BY_UNITS:
        return _Measure(shown, role, points, units, groups=tuple(groups for _, _, groups in found), counts=counts)
    if mode is ThrowComparison.HIGHEST_CARD:
        value = (int(suit != led), max([order.power[c] for c in cards]))
        return _Measure(shown, role, points, units, value, counts=counts)
    return _Measure(shown, role, points, units, max(tops), counts=counts)


# the comparisons that pair the units of both plays (``_Measure.groups``)
_BY_UNITS = frozenset((ThrowComparison.ALL_UNITS, ThrowComparison.DOMINANCE))


def _beats(cand: _Measure, best: _Measure, mode: ThrowComparison) -> bool:
    """Does ``cand`` beat ``best`` (both with the lead's structure) under the
    comparison ``mode``, strictly (docs/rules.md §2, §6)?  Under all_units and
    dominance, one arrangement of ``cand`` must beat every arrangement of ``best``."""
    if mode not in _BY_UNITS:
        return cand.value > best.value
    return any(all(_dominates(mine, theirs, mode) for theirs in best.groups) for mine in cand.groups)


def _dominates(a: Groups, b: Groups, mode: ThrowComparison) -> bool:
    pairs = [(x, y) for ga, gb in zip(a, b, strict=True) for x, y in zip(ga, gb, strict=True)]
    if mode is ThrowComparison.DOMINANCE:
        return all(x >= y for x, y in pairs) and any(x > y for x, y in pairs)
    return all(x > y for x, y in pairs)


# --- the whole trick -----------------------------------------------------------------------


class Trick(Struct, frozen=True, gc=False):
    """A trick to resolve, its input checked: ``plays`` in playing order from
    ``leader`` (1 to 4 of them; seat of play i is ``(leader + i) % 4``) and,
    optionally, ``hands`` (seat → cards before the trick) to judge every follow.
    ``check_trick`` builds one; ``engine.audit`` too, for a trick whose every
    play it has already checked against the hands.  A frozen ``msgspec.Struct``
    (built in C, as ``Follow``: it holds the request's lists, never hashed)."""

    leader: int
    plays: Sequence[Sequence[int]]
    order: TrumpOrder
    rules: Rules
    hands: Mapping[int, Sequence[int]] | None = None


_SEATS = range(4)


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
    if not plays[0]:
        raise InvalidInput(problems + [Problem(("plays", 0), "the lead is empty", code="empty_lead")])
    problems += mixed_suit_problems(plays[0], order, ("plays", 0))
    size = len(plays[0])
    for i, play in enumerate(plays):
        if len(play) != size:
            problems.append(
                Problem(("plays", i), f"this play has {len(play)} cards; the lead has {size}: "
                        "plays are equal in size", code="wrong_card_count", params={"count": len(play), "lead": size})
            )
    if problems:
        raise InvalidInput(problems)
    given = hands or {}
    held: list[Sequence[int]] = []  # every card in the trick's seats: the hands, and the plays without one
    for seat, hand in given.items():
        if seat in _SEATS:
            held.append(hand)
        else:
            problems.append(Problem(("hands", seat), "a seat is 0..3", code="invalid_seat"))
    unheld: list[int] = []  # the plays not in their seat's hand
    for i, play in enumerate(plays):  # one pass: each play goes to ``held``, or is looked for in its hand
        seat = (leader + i) % 4
        if seat not in given:
            held.append(play)
        elif not in_hand(play, given[seat]):
            unheld.append(i)
    if copies and not within_copies(rules.decks, *held):
        sets = [(("hands", seat), hand) for seat, hand in given.items() if seat in _SEATS]
        sets += [(("plays", i), play) for i, play in enumerate(plays) if (leader + i) % 4 not in given]
        try:
            check_copies(sets, rules.decks)
        except InvalidInput as exc:
            problems += exc.problems
    for i in unheld:
        seat, play = (leader + i) % 4, plays[i]
        left = Counter(given[seat])
        for j, card in enumerate(play):
            if left[card] <= 0:
                problems.append(Problem(("plays", i, j), f"{card_str(card)} is not in seat {seat}'s hand",
                                        code="card_not_in_hand", params={"card": card_str(card)}))
            left[card] -= 1
    if problems:
        raise InvalidInput(problems)
    return Trick(leader, plays, order, rules, hands)


@lru_cache(maxsize=4096)
def _play_reasons(
    role: str, form: LeadForm, seat: int, matched: bool, won: bool, best_seat: int, mode: ThrowComparison
) -> tuple[Reason, ...]:
    """A play's reasons: its role (``trick.lead``, form ``throw`` for a throw;
    ``trick.discard``, form ``trumps`` when trumps were led; ``trick.follow``;
    ``trick.ruff``) and for a follow or a ruff how it compared with the best play
    so far, form: the comparison ``mode`` (a few dozen per lead form)."""
    suit, lead = Suit(form.suit), form.pieces
    if role == "lead":
        return (reason("trick.lead", "" if form.single else "throw", seat=Seat(seat), suit=suit, lead=lead),)
    if role == "discard":
        return (reason("trick.discard", "trumps" if form.suit == TRUMP else "", suit=suit, lead=lead),)
    if role == "follow":
        played = reason("trick.follow", suit=suit)
    else:
        played = reason("trick.ruff", suit=suit, lead=lead)
    if not matched:
        return (played, reason("trick.no_structure", lead=lead))
    return (played, reason("trick.beats" if won else "trick.does_not_beat", str(mode), seat=Seat(best_seat)))


_THROW_NOT_JUDGED = reason("trick.throw_not_judged")


Contest = tuple[Lead, ThrowComparison, list[_Measure], list[bool], int]

# how plays against a single-unit lead compare: that unit (its serving shape, then its rank)
_ONE_UNIT = ThrowComparison.LARGEST_UNIT


def _contest(trick: Trick) -> Contest:
    """Who beats whom in ``trick`` (docs/rules.md §6), the one place the winner is
    decided: its lead, the comparison ``mode`` between plays, every play's measure
    in playing order, whether each beat the best play before it, the winner's seat."""
    leader, plays, order, rules = trick.leader, trick.plays, trick.order, trick.rules
    lead = lead_of(tuple(sorted(plays[0])), order, rules.follow_patterns, rules.follow_tractors)
    form = lead.form
    mode = _ONE_UNIT if form.single else rules.throw_comparison
    options = (order, rules.ruff_shape, rules.wider_shape_beats, rules.decks, mode)
    best = _measure(lead.cards, form, *options)  # the lead stands first
    measures, wins, winner = [best], [False], leader
    for i in range(1, len(plays)):
        measure = _measure(tuple(plays[i]), form, *options)
        won = measure.units is not None and _beats(measure, best, mode)
        if won:
            best, winner = measure, (leader + i) % 4
        measures.append(measure)
        wins.append(won)
    return lead, mode, measures, wins, winner


def trick_winner(trick: Trick) -> tuple[int, tuple[Unit, ...], bool]:
    """The seat that wins ``trick``, its lead's units and whether the winning play is
    all trumps (docs/rules.md §6: trumps were led, or it ruffed: a play that wins
    has the lead's suit or ruffs), without the verdict on each play: what the kitty
    (``engine.kitty.check_kitty_trick``) reads."""
    lead, _, measures, _, winner = _contest(trick)
    trumps = lead.form.suit == TRUMP or measures[(winner - trick.leader) % 4].role == "ruff"
    return winner, lead.units, trumps


def resolve_trick(trick: Trick) -> TrickResult:
    """Resolve a trick (docs/rules.md §6): its winner, points and a verdict per
    play; with the trick's ``hands`` every follow is also judged
    (``engine.follow.rule_on_follow``, the rule ``judge_follow`` answers).  The
    one entry point of the rule for a verdict per play: the service and the
    audit call it (the kitty reads only ``trick_winner``).

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
    leader, plays, rules, hands = trick.leader, trick.plays, trick.rules, trick.hands
    lead, mode, measures, wins, winner = _contest(trick)
    form = lead.form
    best_seat = leader  # the seat of the best play so far
    points = 0
    verdicts: list[PlayVerdict] = []
    for i, (measure, won) in enumerate(zip(measures, wins, strict=True)):
        seat = (leader + i) % 4
        matched = measure.units is not None
        role = "lead" if i == 0 else measure.role
        reasons = _play_reasons(role, form, seat, matched, won, best_seat, mode)
        legal: bool | None = None
        if hands is not None and seat in hands:
            if i > 0:  # a follow's counts on the led suit's view: counted once, by its measure
                counted = measure.counts if measure.role == "follow" else None
                _, _, legal, why, _ = rule_on_follow(lead, hands[seat], plays[i], rules, counted)
                reasons += why
            elif form.single:
                legal = True
            else:
                reasons += (_THROW_NOT_JUDGED,)
        verdicts.append(PlayVerdict(seat, measure.cards, role, won, legal, reasons, measure.units))
        points += measure.points
        if won:
            best_seat = seat
    return TrickResult(leader, form.suit, lead.units, winner, points, tuple(verdicts))
