"""Whole-hand audit for tournaments (docs/api.md ``/v1/hand``).

Replays a finished hand from the four starting hands (after the kitty
exchange), the kitty and the tricks in order, with the engine's own rules —
nothing here re-decides a rule:

* the deal: each seat holds ``rules.hand_size`` cards and the kitty
  ``rules.kitty_size`` (docs/rules.md §7); with ``strict`` the hands and kitty make up
  the ``decks`` full decks exactly (docs/rules.md §1);
* each trick is led by the previous trick's winner, the first by the dealer
  (seed 001 出牌规则 1–2);
* every play is in its player's remaining hand, and of the lead's size;
* a multi-unit lead is a throw judged against the other hands at that moment
  (``engine.throw.judge_throw``, docs/rules.md §4); a failed throw recorded as if it
  stood is a violation, reported with its forced play and penalty.  A trick may
  instead record the ``attempted_throw`` with the forced play as its lead: the
  audit then checks that the throw did fail, that the forced play is right, and
  applies the penalty;
* each follow's legality (``engine.follow.judge_follow``, docs/rules.md §5), the winner
  and points (``engine.trick.resolve_trick``, docs/rules.md §6);
* the kitty on the last trick (``engine.kitty.kitty_result``, docs/rules.md §7) and the
  level changes (``engine.settle.settle``, docs/rules.md §8).

A violation does not stop the replay: the audit goes on as far as the record
allows, so the totals stay meaningful; ``first_violation`` is the earliest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engine.cards import KINDS, check_copies, copy_counts
from engine.errors import InvalidInput, Problem
from engine.kitty import KittyResult, check_kitty, kitty_result, played_with_trumps, side_of
from engine.levels import DEFENDERS
from engine.reasons import Cards, Param, Reason, Seat, SeatCounts, reason
from engine.rules import MatchPoints, Rules, ThrowPenalty
from engine.settle import Settlement, settle
from engine.throw import Penalty, Throw, ThrowVerdict, judge_throw
from engine.trick import Trick, TrickResult, resolve_trick
from engine.trump import Trump, TrumpOrder, trump_order

SEATS = 4


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """One trick as recorded: ``plays`` in playing order from ``leader``.

    ``attempted_throw``: the throw the leader tried first, when it failed and
    ``plays[0]`` is the forced play that replaced it.
    """

    leader: int
    plays: tuple[tuple[int, ...], ...]
    attempted_throw: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Violation:
    """A rule broken in the record: where (trick index, seat) and why."""

    trick: int | None
    seat: int | None
    reason: Reason


@dataclass(frozen=True, slots=True)
class TrickAudit:
    """The verdict on one trick; ``result`` is None when it could not be resolved."""

    index: int
    leader: int
    expected_leader: int
    result: TrickResult | None
    throw: ThrowVerdict | None
    violations: tuple[Violation, ...]
    defender_points: int  # running total after this trick


@dataclass(frozen=True, slots=True)
class HandAudit:
    """The whole verdict; ``valid`` iff nothing was violated."""

    tricks: tuple[TrickAudit, ...]
    deal_violations: tuple[Violation, ...]
    end_violations: tuple[Violation, ...]
    trick_points: int  # the defenders' points from tricks (and throw penalties)
    penalties: tuple[Penalty, ...]
    kitty: KittyResult | None
    defender_points: int  # kitty included
    settlement: Settlement | None
    match_points: tuple[int, int, int, int] | None = None

    @property
    def violations(self) -> tuple[Violation, ...]:
        return (*self.deal_violations, *(v for t in self.tricks for v in t.violations), *self.end_violations)

    @property
    def valid(self) -> bool:
        return not self.violations

    @property
    def first_violation(self) -> Violation | None:
        return next(iter(self.violations), None)


def _missing(play: Sequence[int], hand: Sequence[int]) -> list[int]:
    """The cards of ``play`` that ``hand`` lacks (each copy beyond the hand's)."""
    if len(play) == 1:
        return [] if play[0] in hand else list(play)
    return sorted(c for c in set(play) for _ in range(play.count(c) - hand.count(c)))


def _without(hand: list[int], play: Sequence[int]) -> list[int]:
    """A new list: ``hand`` less the cards of ``play`` it holds."""
    left = hand.copy()
    for card in play:
        if card in left:
            left.remove(card)
    return left


def _deal_violations(
    rules: Rules, hands: Mapping[int, Sequence[int]], kitty: Sequence[int], strict: bool
) -> list[Violation]:
    found: list[Violation] = []
    for seat in range(SEATS):
        n = len(hands[seat])
        if n != rules.hand_size:
            why = reason("deal.hand_size", seat=Seat(seat), n=n, decks=rules.decks, kitty=rules.kitty_size,
                         hand=rules.hand_size)
            found.append(Violation(None, seat, why))
    if len(kitty) != rules.kitty_size:
        found.append(Violation(None, None, reason("deal.kitty_size", n=len(kitty), size=rules.kitty_size)))
    if strict:
        seen = copy_counts([*(hands[s] for s in range(SEATS)), kitty])
        short = [k for k in range(KINDS) if seen[k] < rules.decks]
        if short:
            missing = tuple(sorted(c for c in short for _ in range(rules.decks - seen[c])))
            found.append(Violation(None, None, reason("deal.incomplete", n=rules.decks, cards=Cards(missing))))
    return found


def audit_hand(
    rules: Rules, trump: Trump, dealer: int, levels: tuple[int, int], hands: Mapping[int, Sequence[int]],
    kitty: Sequence[int], tricks: Sequence[TrickRecord], strict: bool = False,
) -> HandAudit:
    """Replay a finished hand and judge every step (see the module docstring).

    Raises InvalidInput (paths ``("hands", seat, j)``, ``("kitty", j)``,
    ``("tricks", i, ...)``) only for records that cannot be replayed at all:
    a seat's hand missing, more copies of a card than the decks hold, a trick
    without four plays.
    """
    problems = [
        Problem(("hands", str(s)), "every seat's starting hand is needed", code="hand_required", params={"seat": s}) for s in range(SEATS) if s not in hands
    ]
    for i, t in enumerate(tricks):
        if isinstance(t.leader, bool) or not isinstance(t.leader, int) or not 0 <= t.leader < SEATS:
            problems.append(Problem(("tricks", i, "leader"), "the leader is a seat 0..3", code="invalid_seat"))
        if len(t.plays) != SEATS:
            problems.append(Problem(("tricks", i, "plays"), "a trick has four plays, in playing order from the leader", code="wrong_play_count"))
    if problems:
        raise InvalidInput(problems)
    check_copies([(("hands", str(s)), hands[s]) for s in range(SEATS)] + [(("kitty",), kitty)], rules.decks)
    order = trump_order(trump, rules)
    deal = _deal_violations(rules, hands, kitty, strict)
    remaining = {s: list(hands[s]) for s in range(SEATS)}  # each trick replaces the lists it changes
    expected = dealer
    trick_points = 0
    penalties: list[Penalty] = []
    audits: list[TrickAudit] = []
    for index, record in enumerate(tricks):
        audit, penalty = _replay_trick(index, record, expected, remaining, dealer, order, rules, trick_points)
        trick_points = audit.defender_points
        if penalty is not None:
            penalties.append(penalty)
        audits.append(audit)
        expected = audit.result.winner if audit.result else record.leader
    end = _end_violations(len(tricks), expected, remaining)
    finished = not end and len(kitty) <= rules.kitty_size
    kitty_res, final = _kitty(audits, tricks, rules, trump, dealer, kitty, trick_points, order, finished)
    settlement = settle(rules, dealer, final, levels) if final is not None and final % 5 == 0 else None
    return HandAudit(
        tuple(audits), tuple(deal), tuple(end), trick_points, tuple(penalties), kitty_res,
        trick_points if final is None else final, settlement, _match_points(rules, settlement, penalties),
    )


def _match_points(
    rules: Rules, settlement: Settlement | None, penalties: Sequence[Penalty]
) -> tuple[int, int, int, int] | None:
    """The hand's match points by seat (docs/rules.md §8 ``match_points``): the
    settlement's, plus the failed-throw penalties (seed 002: 甩牌甩錯1次扣1分，只扣本人).
    None when the rules keep no match points and no throw cost any."""
    charged = [(p.seat, p.amount) for p in penalties if p.kind is ThrowPenalty.MATCH_POINT and p.seat is not None]
    if rules.match_points is MatchPoints.NONE and not charged:
        return None
    total = list(settlement.match_points if settlement and settlement.match_points else (0, 0, 0, 0))
    for seat, amount in charged:
        total[seat] -= amount
    return total[0], total[1], total[2], total[3]


# the throw penalties paid in game points to the other team (docs/rules.md §4)
_GAME_POINT_PENALTIES = (
    ThrowPenalty.POINTS_PER_CARD, ThrowPenalty.POINTS_PER_FAILED_CARD, ThrowPenalty.POINTS_PER_THROW,
)


def _replay_trick(
    index: int, record: TrickRecord, expected: int, remaining: dict[int, list[int]], dealer: int,
    order: TrumpOrder, rules: Rules, points_before: int,
) -> tuple[TrickAudit, Penalty | None]:
    """Judge one trick against the hands as they stand; remove what was played.

    Every check ``resolve_trick`` and ``judge_throw`` would make is made here
    first (reported as a violation, not raised), so when none fails they are
    called on checked input (a ``Throw`` and a ``Trick`` built here)."""
    found: list[Violation] = []
    leader = record.leader
    plays = record.plays
    lead = plays[0]

    def violate(seat: int, code: str, form: str = "", **facts: Param) -> None:
        """A violation by ``seat`` in this trick (its reason names the trick and the seat first)."""
        found.append(Violation(index, seat, reason(code, form, trick=index + 1, seat=Seat(seat), **facts)))

    if leader != expected:
        violate(leader, "hand.wrong_leader", "first" if index == 0 else "", expected=Seat(expected))
    held = True
    for i, play in enumerate(plays):
        seat = (leader + i) % SEATS
        missing = _missing(play, remaining[seat])
        if missing:
            held = False
            violate(seat, "play.not_held", cards=Cards(tuple(missing)))
        if i and len(play) != len(lead):
            held = False
            violate(seat, "play.wrong_count", n=len(play), led=len(lead))
    if len({order.suit[c] for c in lead}) != 1:
        held = False
        violate(leader, "lead.mixed_suits" if lead else "lead.empty")
    before = dict(remaining)  # the hands before the trick (the lists are replaced, never changed)
    throw: ThrowVerdict | None = None
    result: TrickResult | None = None
    penalty: Penalty | None = None
    gained = 0
    attempted = record.attempted_throw
    if attempted is not None:
        missing = _missing(attempted, remaining[leader])
        if missing or len({order.suit[c] for c in attempted}) != 1:
            held = False
            violate(
                leader, "throw.attempt_impossible", "not_held" if missing else "mixed_suits",
                cards=Cards(tuple(attempted)), missing=Cards(tuple(missing)),
            )
    if held:
        others = {s: before[s] for s in range(SEATS) if s != leader}
        thrown = attempted or lead
        throw = judge_throw(Throw(leader, thrown, order.suit[thrown[0]], others, order, rules))
        if throw.refused:  # throw_when_others_void: not forced, refused (docs/rules.md §4)
            violate(leader, "throw.into_void", cards=Cards(tuple(thrown)))
        elif attempted is not None:
            penalty = _check_attempt(leader, attempted, lead, throw, violate)
        elif not throw.valid:
            forced = Cards(tuple(throw.forced_play))
            violate(leader, "throw.failed", cards=Cards(tuple(lead)), forced=forced, why=throw.reasons[0])
        result = resolve_trick(Trick(leader, plays, order, rules, before))
        for verdict in result.plays[1:]:
            if verdict.legal is False:
                why = next((r for r in verdict.reasons if r.code.startswith("follow.")), verdict.reasons[-1])
                violate(verdict.seat, "follow.illegal", cards=Cards(tuple(verdict.cards)), why=why)
        if side_of(result.winner, dealer) == DEFENDERS:
            gained += result.points
    if penalty is not None and penalty.kind in _GAME_POINT_PENALTIES and penalty.seat is not None:
        gained += penalty.amount if side_of(penalty.seat, dealer) != DEFENDERS else -penalty.amount
    for i, play in enumerate(plays):
        seat = (leader + i) % SEATS
        remaining[seat] = _without(remaining[seat], play)
    return TrickAudit(index, leader, expected, result, throw, tuple(found), points_before + gained), penalty


def _check_attempt(
    leader: int, attempted: Sequence[int], lead: Sequence[int], throw: ThrowVerdict,
    violate: Callable[..., None],
) -> Penalty | None:
    """A recorded failed throw: it must have failed, and the lead must be its forced play."""
    if throw.valid:
        violate(leader, "throw.wrongly_refused", cards=Cards(tuple(attempted)))
        return None
    if Counter(lead) != Counter(throw.forced_play):
        cards, forced, played = Cards(tuple(attempted)), Cards(tuple(throw.forced_play)), Cards(tuple(lead))
        violate(leader, "throw.wrong_forced_play", cards=cards, forced=forced, played=played)
    return throw.penalty


def _end_violations(played: int, expected: int, remaining: dict[int, list[int]]) -> list[Violation]:
    """Every card must have been played: a record that stops early is unfinished."""
    left = tuple((s, len(cards)) for s, cards in remaining.items() if cards)
    if not left:
        return []
    return [Violation(played, expected, reason("hand.unfinished", n=played, left=SeatCounts(left)))]


def _kitty(
    audits: Sequence[TrickAudit], tricks: Sequence[TrickRecord], rules: Rules, trump: Trump, dealer: int,
    kitty: Sequence[int], trick_points: int, order: TrumpOrder, finished: bool,
) -> tuple[KittyResult | None, int | None]:
    """The kitty on the last trick and the defenders' final points (None when the
    record does not allow it: unfinished, last trick unresolved, kitty oversized)."""
    result = audits[-1].result if finished and audits else None
    if result is None:
        return None, None
    last = tricks[-1]
    winning = last.plays[(result.winner - last.leader) % SEATS]
    try:
        k = kitty_result(check_kitty(
            rules, trump, dealer, list(last.plays[0]), result.winner, list(kitty),
            defender_points=trick_points, won_with_trumps=played_with_trumps(winning, order),
        ))
    except InvalidInput:
        return None, None
    return k, k.defender_points_after
