"""Following 跟牌: is this play legal, and what did the hand oblige? (docs/rules.md §5).

1. **Suit** (seed 000 四副 "如有此花色牌但數量不夠則必須先把此花色牌全部放上"): a
   follower holding at least n cards of the led effective suit plays n of
   them; with fewer, all of them plus any other cards.  Off-suit level cards
   and constant trumps belong to the trumps, not to their printed suit.
2. **Structure**: among the n suit cards the follower matches the lead as well
   as the hand allows; a play is legal iff no other choice of n suit cards
   from the hand matches better.  "Better" is one of two orders:

   * a seed's ordered **pattern list** (``engine.patterns``; options
     ``follow_patterns`` = ``three-deck``, ``four-deck``, ``four-deck-cgc``)
     for the single-unit leads it lists: a choice is as good as the first step
     it can form;
   * the **generic rule** for every other lead (all leads under ``classic``,
     throws, unlisted shapes): a choice is measured by its best arrangement
     into the lead (``engine.generic.Measure``): the tractor pieces it places
     inside the lead's tractors, longest first, then the lead's tuple
     positions it fills, widest first.  With two decks this is "tractors,
     longest first, then pairs" (seeds 000, 001, 003:
     有拖拉機必須出拖拉機，無拖拉機則必須出對牌); with more decks, "tractors, then
     widest tuples, then narrower tuples, as many as the lead has".

   ``follow_draw = suit_only`` keeps only the suit rule (shengji.io's
   NoFormatBasedDraw).  ``protect_longer_tuples``: when scoring what the *hand*
   could have done, a kind held three or four times never supplies a narrower
   tuple (the play itself may still break it): the hand is scored on the suit
   view with ``protect`` (``engine.suit.suit_view``), the play on the lead's.

Cost: the play is measured once and the hand once (both cached by value).
A pattern step is a depth-first search over its tractors (at most two a step
in the seeds' lists) then a greedy pass for its tuples: a few dozen
microseconds for a list of at most 19 steps.  The generic score is
``engine.generic``'s dynamic programme (its complexity is stated there),
skipped when the hand holds no two adjacent tuples; its work units are charged
to the open budget (``engine.budget``) by the verdict that uses the score,
found in a cache or not, so a request over the budget is refused
(``TooComplex``) the same way every time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar

from msgspec import Struct

from engine.budget import charge
from engine.cards import KINDS, card_str, check_copies, within_copies
from engine.errors import InvalidInput, Problem
from engine.generic import LeadShape, Measure, generic_score_work
from engine.lead import Lead, LeadForm, lead_of
from engine.patterns import PATTERN_LISTS, PATTERN_SOURCES
from engine.reasons import Pattern, Pieces, Reason, Suit, pieces, reason
from engine.records import quick_init
from engine.rules import FollowDraw, FollowPatterns, Rules
from engine.shapes import (
    FormPlan,
    Placed,
    Shape,
    fill,
    form_plan,
    form_planned,
    in_hand,
    placed_cards,
)
from engine.suit import SuitView, suit_view
from engine.trump import SUIT_LABELS, TrumpOrder
from engine.units import Unit, mixed_suit_problems


class _Structure:
    """What both kinds of structure share: the alternatives they name and their words."""

    __slots__ = ()
    alternatives: tuple[tuple[Shape, ...], ...]
    cards: int  # the play's size: the rest of an alternative is singles

    def pattern(self) -> Pattern:
        """The structure as reasons name it (``step 3 of 18: a 2-pair tractor + 2 pairs + 2 singles``)."""
        return _structure_pattern(self)

    def _pattern_json(self) -> list[dict[str, Any]]:
        return [
            {"shapes": [{"width": s.width, "length": s.length, "count": c} for s, c in alt.shapes],
             "singles": alt.singles}
            for alt in self.pattern().alternatives
        ]


@dataclass(frozen=True, slots=True)
class PatternStep(_Structure):
    """A step of a seed's pattern ladder (docs/rules.md §5): ``step`` of
    ``steps`` (1-based) of the ``patterns`` list for a lead of shape ``lead``,
    with the step's ``alternatives``.  A play matches as well as the first step
    it can form: the earlier the step, the better."""

    rule: ClassVar[str] = "pattern"
    patterns: FollowPatterns
    lead: Shape
    step: int
    steps: int
    alternatives: tuple[tuple[Shape, ...], ...]
    cards: int
    # worked out once: a structure keys the wording caches at every lookup
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        key = (self.patterns, self.lead, self.step, self.alternatives, self.cards)
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self) -> int:
        return self._hash

    def __ge__(self, owed: object) -> bool:
        """Does a play reaching this step match at least as well as the ``owed`` step?"""
        if not isinstance(owed, PatternStep):
            return NotImplemented
        return self.step <= owed.step

    def shortfall(self, reached: Structure, lead: LeadForm) -> tuple[Reason, ...]:
        """Why a play reaching ``reached`` falls short of this owed step: nothing
        when ``reached >= self`` (a TypeError for a structure of the other kind)."""
        if reached >= self or not isinstance(reached, PatternStep):
            return ()
        return (reason(
            "follow.must_match_pattern", suit=Suit(lead.suit), lead=_lead_pieces(lead),
            patterns=str(self.patterns), source=PATTERN_SOURCES[self.patterns], owed=self.pattern(),
            reached=reached.pattern(),
        ),)

    def as_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule, "patterns": self.patterns, "step": self.step, "steps": self.steps,
            "pattern": self._pattern_json(), "tractor_cards": None, "tuples": [],
        }


@dataclass(frozen=True, slots=True)
class GenericScore(_Structure):
    """The generic rule's measure of a choice of cards against a lead of shape
    ``lead`` (docs/rules.md §5): its ``measure`` (``engine.generic.Measure``: the
    tractor pieces placed into the lead's tractors, longest first, compared
    lexicographically, then the tuples); ``tractor_cards``, the pieces' cards,
    and ``tuples`` = (width, count) widest first, as the answer states them;
    ``alternatives`` holds the one arrangement that achieves it."""

    rule: ClassVar[str] = "generic"
    lead: LeadShape
    measure: Measure
    alternatives: tuple[tuple[Shape, ...], ...]
    cards: int
    # worked out once: a structure keys the wording caches at every lookup
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.lead, self.measure, self.alternatives, self.cards)))

    def __hash__(self) -> int:
        return self._hash

    @property
    def tractor_cards(self) -> int:
        return sum(cards for cards, _ in self.measure.tractors)

    @property
    def tuples(self) -> tuple[tuple[int, int], ...]:
        top = len(self.measure.tuples) + 1
        return tuple((v, self.measure.tuples[top - v]) for v in range(top, 1, -1))

    @property
    def tractors(self) -> tuple[Shape, ...]:
        """The tractor pieces of the arrangement, longest first."""
        pieces = [s for alt in self.alternatives[:1] for s in alt if s.is_tractor]
        return tuple(sorted(pieces, key=lambda s: (s.size, s.width), reverse=True))

    def __ge__(self, owed: object) -> bool:
        """Does a play of this measure match at least as well as the ``owed`` one?"""
        if not isinstance(owed, GenericScore):
            return NotImplemented
        return self.measure >= owed.measure

    def shortfall(self, reached: Structure, lead: LeadForm) -> tuple[Reason, ...]:
        """Why a play of measure ``reached`` falls short of this owed one, at the
        first place where it has less (its tractor pieces, longest first, then
        each width's tuples): nothing when ``reached >= self`` (a TypeError for a
        structure of the other kind)."""
        if reached >= self or not isinstance(reached, GenericScore):
            return ()
        suit, led = Suit(lead.suit), _lead_pieces(lead)
        if self.measure.tractors != reached.measure.tractors:
            return (reason(
                "follow.must_play_tractor", "" if reached.tractors else "none", suit=suit, lead=led,
                owed=pieces(self.tractors), example=self.pattern(), have=pieces(reached.tractors),
                n=len(self.tractors),
            ),)
        (width, want), (_, have) = next(
            (owed, got) for owed, got in zip(self.tuples, reached.tuples, strict=True) if owed[1] > got[1]
        )
        shape = Shape(width)
        form = "tractors" if lead.tractors else ""
        if not have:
            form = f"{form}_none" if form else "none"
        return (reason(
            _TUPLE_CODES.get(width, "follow.must_play_tuple"), form, suit=suit, lead=led,
            owed=Pieces(((shape, want),)), have=Pieces(((shape, have),)), n=want,
        ),)

    def as_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule, "patterns": None, "step": None, "steps": None, "pattern": self._pattern_json(),
            "tractor_cards": self.tractor_cards, "tuples": [{"width": w, "count": c} for w, c in self.tuples],
        }


# How well cards match the lead: a seed ladder's step or the generic rule's score, each
# comparing with ``>=`` against one of its own kind and wording a ``shortfall``.
Structure = PatternStep | GenericScore

_TUPLE_CODES = {2: "follow.must_play_pair", 3: "follow.must_play_triple", 4: "follow.must_play_quad"}


def _lead_pieces(lead: LeadForm) -> Pieces:
    """The lead's pairs, triples, quads and tractors (its singles left out)."""
    return pieces([Shape(w, length) for w, length in lead.shapes if w > 1])


@lru_cache(maxsize=4096)
def _structure_pattern(structure: Structure) -> Pattern:
    """``Structure.pattern``, cached by value: a few structures recur in every hand."""
    n = structure.cards
    alternatives = tuple(pieces(alt, n - sum(s.size for s in alt)) for alt in structure.alternatives)
    if isinstance(structure, PatternStep):
        return Pattern(alternatives, structure.step, structure.steps)
    return Pattern(alternatives)


@dataclass(frozen=True, slots=True)
class Requirement:
    """What the hand obliges: led-suit cards owed and the structure owed.

    ``rule``: ``all_suit_cards`` (no more suit cards than led: all must go),
    ``suit_only`` (option follow_draw), ``pattern`` or ``generic``.
    """

    suit: int
    lead_cards: int
    held: int
    cards: int
    rule: str
    structure: Structure | None
    # worked out once: a requirement keys the wording and JSON caches at every lookup
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        key = (self.suit, self.lead_cards, self.held, self.cards, self.rule, self.structure)
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self) -> int:
        return self._hash

    def describe(self) -> Reason:
        """The obligation (code ``follow.required``; forms: ``all`` every card of
        the suit and ``rest`` others, ``all_only`` every card of the suit, ``none``
        no card of the suit, ``shaped`` cards of the suit forming a pattern,
        ``any`` cards of the suit)."""
        suit = Suit(self.suit)
        if self.rule == "all_suit_cards":
            rest = self.lead_cards - self.held
            if not self.held:
                return reason("follow.required", "none", suit=suit, n=rest)
            if not rest:
                return reason("follow.required", "all_only", suit=suit, n=self.held)
            return reason("follow.required", "all", suit=suit, held=self.held, n=rest)
        owed = self.structure  # a generic score with no shape to match: any cards of the suit would do
        if owed is not None and (owed.rule == "pattern" or any(owed.alternatives)):
            return reason("follow.required", "shaped", suit=suit, n=self.cards, pattern=owed.pattern())
        return reason("follow.required", "any", suit=suit, n=self.cards)

    def as_json(self) -> dict[str, Any]:
        out = {
            "suit": SUIT_LABELS[self.suit], "lead_cards": self.lead_cards, "held": self.held,
            "cards": self.cards, "rule": self.rule,
        }
        structure = self.structure.as_json() if self.structure is not None else _NO_STRUCTURE
        return out | {key: value for key, value in structure.items() if key != "rule"}


_NO_STRUCTURE: dict[str, Any] = {
    "patterns": None, "step": None, "steps": None, "pattern": [], "tractor_cards": None, "tuples": [],
}


@quick_init
@dataclass(frozen=True, slots=True)
class FollowVerdict:
    """The verdict on one follow (``legal`` is None when no play was given).
    Compared by its ruling: the follower's ``hand`` (as given) and the trump
    ``order`` only complete the example when it is read."""

    legal: bool | None
    required: Requirement
    reasons: tuple[Reason, ...]
    suit_example: tuple[int, ...]  # the example's cards of the led suit, high → low
    lead_units: tuple[Unit, ...]
    reached: Structure | None  # what the play's suit cards form, when judged on structure
    hand: Sequence[int] = field(compare=False, repr=False)
    order: TrumpOrder = field(compare=False, repr=False)

    @property
    def example(self) -> tuple[int, ...]:
        """A legal play, high → low: the obligation's cards of the led suit and, when
        the hand is short of the suit, its lowest other cards (worked out when read:
        a trick's verdict never reads it)."""
        example, n = self.suit_example, self.required.lead_cards
        if len(example) == n:
            return example
        order = self.order
        places, by_place = _lowest_first(order, self.required.suit)
        rest = sorted(bytes(self.hand).translate(places))[: n - len(example)]
        return tuple(order.sorted([*example, *[by_place[p] for p in rest]]))


# --- what a set of suit cards reaches ------------------------------------------------------


def _measure(
    form: LeadForm, lay: SuitView, counts: tuple[int, ...]
) -> tuple[Structure, tuple[Placed, ...], int]:
    """What the led-suit cards ``counts`` reach against a lead of ``form``
    (docs/rules.md §5): the first step of its seed ladder they can form, or
    else their generic score; one arrangement reaching it, and the work units
    it took (``engine.budget``)."""
    unit, patterns, n = form.unit, form.patterns, form.cards
    if unit is None:
        score, pieces, units = generic_score_work(lay, counts, form.generic, lay.protect)
        return GenericScore(form.generic, score, (tuple([p.shape for p in pieces]),), n), pieces, units
    ladder = PATTERN_LISTS[patterns][unit]
    total, most = sum(counts), max(counts, default=0)
    for k, step in enumerate(_ladder_plans(patterns, unit)):
        for plan in step:
            got = form_planned(lay, counts, plan, total, most)
            if got is not None:
                return PatternStep(patterns, unit, k + 1, len(ladder), ladder[k], n), tuple(got), 0
    raise AssertionError("every seed list ends with all singles")  # pragma: no cover


@lru_cache(maxsize=256)
def _ladder_plans(patterns: FollowPatterns, lead: Shape) -> tuple[tuple[FormPlan, ...], ...]:
    """The ``form_plan`` of every alternative of the seed list (a table built once
    per list: cold follows under a ladder would otherwise rebuild it twice)."""
    return tuple(tuple(form_plan(alt) for alt in step) for step in PATTERN_LISTS[patterns][lead])


# --- what the hand obliges (cached) --------------------------------------------------------


@lru_cache(maxsize=512)
def _obligation_for(
    form: LeadForm, lay: SuitView, counts: tuple[int, ...], follow_draw: FollowDraw
) -> tuple[Requirement, tuple[int, ...], int]:
    """What a hand holding ``counts`` of the led suit (laid out by ``lay``, whose
    ``protect`` is the option ``protect_longer_tuples``) owes a lead of
    ``form``: the requirement, the suit cards of an example play (high → low),
    and the work units finding it took (``engine.budget``)."""
    suit, n = form.suit, form.cards
    held = sum(counts)
    if held <= n:
        return Requirement(suit, n, held, held, "all_suit_cards", None), tuple(lay.cards(counts)), 0
    if follow_draw == FollowDraw.SUIT_ONLY:
        req = Requirement(suit, n, held, n, "suit_only", None)
        return req, tuple(lay.order.sorted(fill(lay, counts, [], n))), 0
    structure, pieces, units = _measure(form, lay, counts)
    example = fill(lay, counts, placed_cards(lay, pieces), n)
    return Requirement(suit, n, held, n, structure.rule, structure), tuple(lay.order.sorted(example)), units


# --- checking the input --------------------------------------------------------------------


class Follow(Struct, frozen=True, gc=False):
    """A follow to judge, its input checked: the ``lead`` (``engine.lead.Lead``),
    the follower's whole ``hand`` before playing and the ``play`` (None: only
    what the hand obliges).  Built by ``check_follow`` (a frozen ``msgspec.Struct``,
    built in C, as the reasons); a trick checked whole rules on each follow
    without it (``rule_on_follow``)."""

    lead: Lead
    hand: Sequence[int]
    play: Sequence[int] | None
    rules: Rules


def check_follow(
    lead: Sequence[int], hand: Sequence[int], play: Sequence[int] | None, order: TrumpOrder, rules: Rules
) -> Follow:
    """The ``Follow`` to judge, after every check of its input.

    Raises InvalidInput (paths ``("lead", i)``, ``("hand",)``, ``("play", j)``)
    for an empty lead or one mixing effective suits, more copies than decks
    across lead and hand, a hand smaller than the lead, or a play of the wrong
    size or not in the hand.
    """
    problems: list[Problem] = []
    if not lead:
        raise InvalidInput(
            Problem(("lead",), "the lead is empty: give the cards the leader played", code="empty_lead")
        )
    problems += mixed_suit_problems(lead, order, ("lead",))
    if not within_copies(rules.decks, lead, hand):
        try:
            check_copies([(("lead",), lead), (("hand",), hand)], rules.decks)
        except InvalidInput as exc:
            problems += exc.problems
    if len(hand) < len(lead):
        problems.append(Problem(
            ("hand",), f"the hand holds {len(hand)} cards, fewer than the {len(lead)} led",
            code="hand_too_small",
        ))
    if play is not None and len(play) != len(lead):
        problems.append(Problem(
            ("play",), f"the play has {len(play)} cards; the lead has {len(lead)}: play as many as led",
            code="wrong_card_count", params={"count": len(play), "lead": len(lead)},
        ))
    if play is not None and not in_hand(play, hand):
        held = Counter(hand)
        left = held.copy()
        for j, card in enumerate(play):
            if left[card] <= 0:
                name = card_str(card)
                problems.append(Problem(
                    ("play", j),
                    f"the play has more {name} than the hand's {held[card]}" if held[card]
                    else f"{name} is not in the hand",
                    code="card_not_in_hand", params={"card": name},
                ))
            left[card] -= 1
    if problems:
        raise InvalidInput(problems)
    led = lead_of(tuple(sorted(lead)), order, rules.follow_patterns, rules.follow_tractors)
    return Follow(led, hand, play, rules)


# --- the verdict ---------------------------------------------------------------------------


def judge_follow(follow: Follow) -> FollowVerdict:
    """Judge a follow (docs/rules.md §5): what the hand obliges and, with a
    play, whether it is legal and why not: ``rule_on_follow``'s ruling as a
    ``FollowVerdict``, what the service answers.

    >>> from engine.rules import preset
    >>> from engine.trump import Trump, trump_order
    >>> from engine.cards import parse_card as p
    >>> order = trump_order(Trump(0, 0), preset("two-deck"))   # level 2, spades trump
    >>> lead = [p(c) for c in "3H 3H 4H 4H 5H 5H".split()]
    >>> hand = [p(c) for c in "6H 6H 7H 7H QH QH 9H 9H KS".split()]
    >>> play = [p(c) for c in "6H 6H 7H 7H 9H QH".split()]
    >>> v = judge_follow(check_follow(lead, hand, play, order, preset("two-deck")))
    >>> v.legal, v.reasons[0].code
    (False, 'follow.must_play_pair')
    >>> v.required.structure.as_json()["pattern"]  # doctest: +NORMALIZE_WHITESPACE
    [{'shapes': [{'width': 2, 'length': 2, 'count': 1}, {'width': 2, 'length': 1, 'count': 1}],
      'singles': 0}]
    """
    led, hand = follow.lead, follow.hand
    req, example, legal, reasons, reached = rule_on_follow(led, hand, follow.play, follow.rules)
    return FollowVerdict(legal, req, reasons, example, led.units, reached, hand, led.view.order)


Ruling = tuple[Requirement, tuple[int, ...], bool | None, tuple[Reason, ...], Structure | None]
"""A follow's ruling, in ``FollowVerdict``'s terms: ``required``, ``suit_example``,
``legal``, ``reasons``, ``reached``."""


def rule_on_follow(
    lead: Lead, hand: Sequence[int], play: Sequence[int] | None, rules: Rules,
    played: tuple[int, ...] | None = None,
) -> Ruling:
    """The rule of a follow (docs/rules.md §5), decided here and only here: what
    ``hand`` owes ``lead`` and, with a ``play``, whether it is legal and why not
    (``played``: the play's counts on the lead's suit view, when the caller has them).
    ``judge_follow`` makes a ``FollowVerdict`` of it; a trick reads only
    ``legal`` and ``reasons`` (``engine.trick.resolve_trick``: building neither
    the ``Follow`` nor the ``FollowVerdict`` saves some 13 kIr a follow)."""
    form, lay = lead.form, lead.view
    suit, n = form.suit, form.cards
    counts = lay.counts_in(hand)
    owes = suit_view(lay.order, suit, True) if rules.protect_longer_tuples else lay
    req, example, units = _obligation_for(form, owes, counts, rules.follow_draw)
    if units:  # found in the cache or not: the budget sees the same work (engine.budget)
        charge(units)
    if play is None:
        return req, example, None, (), None
    if not req.cards:  # a hand void of the led suit owes nothing: any play follows
        return req, example, True, (), None
    if played is None:
        played = lay.counts_in(play)  # the play's cards of the led suit
    got = sum(played)
    if got < req.cards:  # too few of the led suit (form ``all``: the hand held no more than led)
        why = (
            reason("follow.must_follow_suit", "all", suit=Suit(suit), n=req.held, led=n, got=got)
            if req.held <= n
            else reason("follow.must_follow_suit", suit=Suit(suit), held=req.held, n=n, got=got)
        )
        return req, example, False, (why,), None
    owed = req.structure
    if owed is None:
        return req, example, True, (), None
    reached, units = _reached(form, lay, played)
    if units:
        charge(units)
    reasons = owed.shortfall(reached, form)
    return req, example, not reasons, reasons, reached


@lru_cache(maxsize=4096)
def _reached(form: LeadForm, lay: SuitView, counts: tuple[int, ...]) -> tuple[Structure, int]:
    """What a play's suit cards ``counts`` reach (``_measure``), and the work units it took."""
    structure, _, units = _measure(form, lay, counts)
    return structure, units


@lru_cache(maxsize=2048)
def _lowest_first(order: TrumpOrder, suit: int) -> tuple[bytes, tuple[int, ...]]:
    """The order in which a follower short of ``suit`` adds other cards: lowest
    first, by power, then effective suit, then kind.  Returns each kind's place
    in it as a ``bytes.translate`` table (the kinds of ``suit`` last, at 255), and
    the kinds in that order."""
    kinds = tuple(sorted(range(KINDS), key=lambda c: (order.power[c], order.suit[c], c)))
    places = bytearray([255]) * 256
    for i, kind in enumerate(kinds):
        if order.suit[kind] != suit:
            places[kind] = i
    return bytes(places), kinds


__all__ = [
    "Follow", "FollowVerdict", "GenericScore", "PatternStep", "Requirement", "Structure",
    "check_follow", "judge_follow", "rule_on_follow",
]
