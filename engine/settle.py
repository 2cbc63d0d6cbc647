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
from engine.levels import Band, LevelTable
from engine.reasons import Reason
from engine.rules import MatchPoints, Rules

DEALER_KEEPS = "dealer_keeps"
DEFENDERS_TAKE_OVER = "defenders_take_over"
ACE = RANKS.index("A")
TEAM_NAMES = ("A", "B")
"""The teams' names in texts (and in the API): team 0, "A", is seats 0 and 2;
team 1, "B", is seats 1 and 3 (partners sit opposite)."""


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

    The dealer's side playing a mandatory level may pass it, so its climb stops at
    the next one above; the defenders stop at the first one at or above their level.

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
    by_seat = [won if seat % 2 == team else -won for seat in range(4)]
    return by_seat[0], by_seat[1], by_seat[2], by_seat[3]


def levels_for(table: LevelTable, points: int) -> tuple[Band, int]:
    """The band ``points`` fall in and the levels it gives, step included.

    >>> from engine.levels import LEVEL_TABLES
    >>> band, n = levels_for(LEVEL_TABLES["two-deck"], 240)
    >>> (band.side, band.start, n)
    ('defenders', 160, 4)
    """
    band = table.band_for(points)
    extra = 0
    if band.end is None and band.start is not None and table.step:
        extra = (points - band.start) // table.step
    return band, band.levels + extra


def _band_bounds(band: Band) -> tuple[int | None, int | None]:
    """The lowest and highest scores a band holds (points are multiples of 5)."""
    low = None if band.start is None else -(-band.start // 5) * 5
    high = None if band.end is None else ((band.end - 1) // 5) * 5
    return low, high


def _band_text(band: Band) -> tuple[str, str]:
    """The band as players say it, in English and Chinese."""
    low, high = _band_bounds(band)
    if low is None and high is None:
        return "any score", "任何得分"
    if low is None:
        return f"{high} or less", f"{high} 分及以下"
    if high is None:
        return f"{low} or more", f"{low} 分及以上"
    return f"{low}–{high}", f"{low}–{high} 分"


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
        problems.append(
            Problem(("defender_points",), f"points come in multiples of 5 (5s, 10s and Ks); got {defender_points}", code="invalid_points")
        )
    if len(levels) != 2:
        problems.append(Problem(("levels",), "give the levels of both teams, \"A\" (seats 0/2) and \"B\" (seats 1/3)", code="missing_field"))
    else:
        for team, level in enumerate(levels):
            if not 0 <= level <= ACE:
                problems.append(Problem(("levels", TEAM_NAMES[team]), "a level is a rank 2..A", code="invalid_rank"))
    if problems:
        raise InvalidInput(problems)

    table = rules.level_table
    band, gained = levels_for(table, defender_points)
    dealer_team = dealer % 2
    if band.side == "dealer":
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
    new_levels = [levels[0], levels[1]]
    new_levels[team] = min(reached, ACE)
    step_levels = table_gained - band.levels

    where, where_zh = _band_text(band)
    side_en = "the dealer side" if band.side == "dealer" else "the defenders"
    side_zh = "庄家方" if band.side == "dealer" else "抓分方"
    step_en = f" plus {step_levels} for every further {table.step} points" if step_levels else ""
    step_zh = f"，另每多 {table.step} 分加一级（+{step_levels}）" if step_levels else ""
    if outcome == DEALER_KEEPS:
        deal_en = f"the dealer side keeps the deal: seat {next_dealer}, the dealer's partner, deals next"
        deal_zh = f"庄家方保庄：由庄家的对家 {next_dealer} 号位坐庄"
    else:
        deal_en = f"the defenders take over (上台): seat {next_dealer}, the dealer's 下家, deals next"
        deal_zh = f"抓分方上台：由庄家的下家 {next_dealer} 号位坐庄"
    reasons = [
        Reason(
            f"settle.{outcome}",
            f"the defenders scored {defender_points}: band {where} gives {side_en} {band.levels} "
            f"level{'s' if band.levels != 1 else ''}{step_en}; {deal_en}",
            f"抓分方得 {defender_points} 分：{where_zh}，{side_zh}升 {band.levels} 级{step_zh}；{deal_zh}",
        )
    ]
    if stopped_at is not None:
        mandatory = RANKS[stopped_at]
        reasons.append(
            Reason(
                "settle.mandatory_stop",
                f"team {TEAM_NAMES[team]} stops at {mandatory}: {mandatory} must be played (a mandatory level, "
                f"passed only by winning as the dealer's side while playing it), so it climbs {gained} of the "
                f"{table_gained} level{'s' if table_gained != 1 else ''}",
                f"{TEAM_NAMES[team]} 队升到 {mandatory} 为止：{mandatory} 必打（须作为庄家方打过），"
                f"{table_gained} 级中只升 {gained} 级",
            )
        )
    points = seat_match_points(rules, team, gained)
    if points is not None:
        each = MATCH_POINTS_PER_LEVEL * gained
        reasons.append(
            Reason(
                "settle.match_points",
                f"match points: each player of team {TEAM_NAMES[team]} +{each}, each opponent −{each} "
                f"({MATCH_POINTS_PER_LEVEL} per level gained)"
                if gained
                else "match points: a takeover with no level gained scores nothing",
                f"比赛分：{TEAM_NAMES[team]} 队每人 +{each}，对方每人 −{each}（每升一级 {MATCH_POINTS_PER_LEVEL} 分）"
                if gained
                else "比赛分：仅是下庄，双方均不得分",
            )
        )
    if game_won:
        reasons.append(
            Reason(
                "settle.game_won",
                f"team {TEAM_NAMES[team]} goes from {RANKS[levels[team]]} past A: it wins the game",
                f"{TEAM_NAMES[team]} 队从 {RANKS[levels[team]]} 打过 A：赢得整局",
            )
        )
    return Settlement(
        outcome, team, gained, (new_levels[0], new_levels[1]), next_dealer, game_won, band,
        table.step if band.end is None else None, step_levels, defender_points, tuple(reasons),
        stopped_at, points,
    )
