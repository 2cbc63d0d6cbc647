"""Level changes after a hand (升级, docs/rules.md §8).

The defenders' final points p (kitty included, possibly negative when the
dealer side dug the kitty) fall in exactly one band of the rules' level table
(``engine.levels``); the band says which side wins the hand and how many levels
it gains, and past the open-ended last band every further ``step`` points is
one more level.

* The dealer side keeps the deal → the dealer's partner deals next (seed 000
  輪莊規則, seed 001 庄家规则: 莊家升級時，下一副牌由其對家當莊家).
* The defenders take over (上台) → the dealer's 下家 deals next (閒家上台時，
  下一副牌由此副牌的莊家的下家當莊家).
* Levels run 2 → A; a team that passes A wins the game (seed 001:
  先升到A的一方为赢家 read as "plays A and goes past it").  A team's level
  never goes past A: the game is then over.
* ``mandatory_levels`` (必打, docs/rules.md §8): the winning side's climb stops at
  the first mandatory level above its current one; a side goes past a mandatory
  level only by gaining levels as the dealer's side while playing it (a side at a
  mandatory level that wins as defenders stays there).  With A mandatory the game
  is won only by the dealer's side at A.  ``levels_gained`` is then the levels
  actually climbed and ``stopped_at`` the level where the climb stopped.
* ``match_points`` ``cgc`` (seed 002 胜负结算, 单局房间: "每升一級本方兩玩家各加3分，
  同時對方兩玩家各扣3分"; 僅是下莊雙方均不得分): each level gained gives each
  player of the gaining side +3 and each opponent −3; a bare takeover scores 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import RANKS
from engine.errors import InvalidInput, Problem
from engine.levels import DEALER, Band
from engine.reasons import Level, Points, Reason, Seat, Side, Team, reason
from engine.records import quick_init
from engine.rules import MatchPoints, Rules

DEALER_KEEPS = "dealer_keeps"
DEFENDERS_TAKE_OVER = "defenders_take_over"
ACE = RANKS.index("A")
TEAM_NAMES = ("A", "B")
"""The teams' names in texts (and in the API): team 0, "A", is seats 0 and 2;
team 1, "B", is seats 1 and 3 (partners sit opposite)."""


@quick_init  # built once per hand: engine.records
@dataclass(frozen=True, slots=True)
class Settlement:
    """The result of one hand.

    ``team`` (0 = seats 0/2, 1 = seats 1/3) wins the hand and deals next; it
    gains ``levels_gained`` (possibly 0).  ``new_levels`` are rank indices
    (0 = "2" .. 12 = "A") per team, never past A; ``game_won`` when ``team``
    passed A.  ``band`` is the band of the level table that applied and
    ``step_levels`` the levels its open-ended step added.
    """

    outcome: str
    team: int
    levels_gained: int
    new_levels: tuple[int, int]
    next_dealer: int
    game_won: bool
    band: Band
    step: int | None
    step_levels: int
    defender_points: int
    reasons: tuple[Reason, ...]
    stopped_at: int | None = None
    match_points: tuple[int, int, int, int] | None = None


MATCH_POINTS_PER_LEVEL = 3  # seed 002 胜负结算: 每升一級本方兩玩家各加3分


def mandatory_stop(rules: Rules, level: int, as_dealer: bool) -> int | None:
    """The mandatory level a side at ``level`` cannot climb past (docs/rules.md §8), or None.

    >>> from engine.rules import rules_from_json
    >>> rules = rules_from_json({"mandatory_levels": ["5", "A"]})
    >>> [RANKS[x] if x is not None else None for x in
    ...  (mandatory_stop(rules, 1, False), mandatory_stop(rules, 3, True), mandatory_stop(rules, 3, False))]
    ['5', 'A', '5']
    """
    stops = [m for m in rules.mandatory_levels if m > level or (m == level and not as_dealer)]
    return min(stops) if stops else None


def seat_match_points(rules: Rules, team: int, levels_gained: int) -> tuple[int, int, int, int] | None:
    """Match points by seat for ``team`` gaining ``levels_gained`` (None: ``match_points`` none).

    >>> from engine.rules import preset
    >>> seat_match_points(preset("four-deck-cgc"), 1, 2)  # seed 002: 每升一級 +3 / −3
    (-6, 6, -6, 6)
    """
    if rules.match_points is MatchPoints.NONE:
        return None
    won = MATCH_POINTS_PER_LEVEL * levels_gained
    return (won, -won, won, -won) if team == 0 else (-won, won, -won, won)


def _band_reason(band: Band) -> Reason:
    """The band as players say it (a part of the ``settle.*`` reasons), by the lowest
    and highest scores it holds (points are multiples of 5): code ``settle.band``,
    form ``any``, ``at_most``, ``at_least`` or ``range``."""
    low = None if band.start is None else -(-band.start // 5) * 5
    high = None if band.end is None else ((band.end - 1) // 5) * 5
    if low is None:
        return reason("settle.band", "any") if high is None else reason("settle.band", "at_most", high=high)
    if high is None:
        return reason("settle.band", "at_least", low=low)
    return reason("settle.band", "range", low=low, high=high)


def settle(rules: Rules, dealer: int, defender_points: int, levels: Sequence[int]) -> Settlement:
    """Apply ``rules.level_table`` to the defenders' final points (docs/rules.md §8).

    ``levels`` are the two teams' current levels as rank indices (0 = "2" ..
    12 = "A"), team 0 (seats 0/2) first.  Errors carry request paths
    (``defender_points``, ``levels/0``, ``dealer``).

    >>> from engine.rules import preset
    >>> s = settle(preset("four-deck-cgc"), 1, 320, (0, 0))  # seed 002: 320 from level 2 → 4
    >>> (s.outcome, s.team, s.levels_gained, RANKS[s.new_levels[0]], s.next_dealer)
    ('defenders_take_over', 0, 2, '4', 2)
    """
    problems: list[Problem] = []
    if not 0 <= dealer <= 3:
        problems.append(Problem(("dealer",), "a seat is an integer 0..3", code="invalid_seat"))
    if defender_points % 5:
        multiple = f"points come in multiples of 5 (5s, 10s and Ks); got {defender_points}"
        problems.append(Problem(("defender_points",), multiple, code="invalid_points"))
    if len(levels) != 2:
        problems.append(Problem(("levels",), "give the levels of both teams, \"A\" (seats 0/2) and \"B\" (seats 1/3)", code="missing_field"))
    else:
        for team, level in enumerate(levels):
            if not 0 <= level <= ACE:
                problems.append(Problem(("levels", TEAM_NAMES[team]), "a level is a rank 2..A", code="invalid_rank"))
    if problems:
        raise InvalidInput(problems)

    table = rules.level_table
    band, gained = table.levels(defender_points)
    dealer_team = dealer % 2
    if band.side == DEALER:
        outcome, team, next_dealer = DEALER_KEEPS, dealer_team, (dealer + 2) % 4
    else:
        outcome, team, next_dealer = DEFENDERS_TAKE_OVER, 1 - dealer_team, (dealer + 1) % 4
    table_gained = gained
    stop = mandatory_stop(rules, levels[team], outcome == DEALER_KEEPS)
    stopped_at = None
    if stop is not None and levels[team] + gained > stop:
        stopped_at, gained = stop, stop - levels[team]
    reached = levels[team] + gained
    game_won = reached > ACE
    new_levels = (min(reached, ACE), levels[1]) if team == 0 else (levels[0], min(reached, ACE))
    step_levels = table_gained - band.levels

    reasons = [
        reason(
            f"settle.{outcome}", "step" if step_levels else "", points=defender_points, band=_band_reason(band),
            side=Side(band.side), n=band.levels, step=Points(table.step or 0), extra=step_levels, seat=Seat(next_dealer),
        )
    ]
    if stopped_at is not None:
        reasons.append(
            reason("settle.mandatory_stop", team=Team(team), level=Level(stopped_at), gained=gained, n=table_gained)
        )
    points = seat_match_points(rules, team, gained)
    if points is not None:
        reasons.append(
            reason("settle.match_points", "" if gained else "none", team=Team(team),
                   each=MATCH_POINTS_PER_LEVEL * gained, n=MATCH_POINTS_PER_LEVEL)
        )
    if game_won:
        reasons.append(reason("settle.game_won", team=Team(team), level=Level(levels[team])))
    return Settlement(
        outcome, team, gained, new_levels, next_dealer, game_won, band,
        table.step if band.end is None else None, step_levels, defender_points, tuple(reasons),
        stopped_at, points,
    )
