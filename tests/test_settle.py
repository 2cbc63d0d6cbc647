"""Level changes (engine.settle, engine.levels; docs/rules.md §8): every band boundary of
every preset's table, the next dealer, passing A, callers' own tables, and the
hypothesis invariants of the issue."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import RANKS
from engine.errors import InvalidInput
from engine.levels import LEVEL_TABLES, level_table_from_json
from engine.rules import PRESET_VALUES, Rules, preset, rules_from_json
from engine.settle import settle
from tests.helpers import said

D, F = "dealer", "defenders"

# (defender points, side that wins the hand, levels it gains), per table, at every
# band boundary (first and last score of each band) and at the open-ended steps.
BOUNDARIES: dict[str, list[tuple[int, str, int]]] = {
    # seeds 000 (記分規則), 001 (升级规则: 0 / 5～35 / 40～75 / 80～115 / 120～155 / 160～195 / 200+), 003, 004
    "two-deck": [
        (-40, D, 3), (0, D, 3), (5, D, 2), (35, D, 2), (40, D, 1), (75, D, 1), (80, F, 0), (115, F, 0),
        (120, F, 1), (155, F, 1), (160, F, 2), (195, F, 2), (200, F, 3), (235, F, 3), (240, F, 4),
        (280, F, 5),
    ],
    # seeds 000 and 003: 0 大光, 不足60 小光, 120 上台, 180 +1, 240 +2, 每满60加一级
    "three-deck": [
        (-5, D, 3), (0, D, 3), (5, D, 2), (55, D, 2), (60, D, 1), (115, D, 1), (120, F, 0), (175, F, 0),
        (180, F, 1), (235, F, 1), (240, F, 2), (295, F, 2), (300, F, 3),
    ],
    # seed 000 四副 勝負規則 2: 0 or negative +3, <80 +2, 80–159 +1, 160–239 take over and +1,
    # 240–319 +2, each further 80 +1, no cap (升級不做封頂限制)
    "four-deck": [
        (-200, D, 3), (0, D, 3), (5, D, 2), (75, D, 2), (80, D, 1), (155, D, 1), (160, F, 1), (235, F, 1),
        (240, F, 2), (315, F, 2), (320, F, 3), (400, F, 4), (1200, F, 14),
    ],
    # seed 002 胜负判断 2: 0 大光, 0-75 小光, 80-160 dealer, ≥160 上台, 240 +1, 320 +2 (例: 2 → 4)
    "four-deck-cgc": [
        (-5, D, 3), (0, D, 3), (5, D, 2), (75, D, 2), (80, D, 1), (155, D, 1), (160, F, 0), (235, F, 0),
        (240, F, 1), (315, F, 1), (320, F, 2), (400, F, 3),
    ],
    # seed 000: one deck in 20-point bands
    "one-deck": [
        (0, D, 3), (5, D, 2), (15, D, 2), (20, D, 1), (35, D, 1), (40, F, 0), (55, F, 0), (60, F, 1),
        (75, F, 1), (80, F, 2), (95, F, 2), (100, F, 3),
    ],
    # seeds 001 and 003 (一副牌): 0 → +2, <40 → +1, 40–79 → 换庄, 80–95 → +1, 100 → +2
    "one-deck-lianzhong": [
        (-20, D, 2), (0, D, 2), (5, D, 1), (35, D, 1), (40, F, 0), (75, F, 0), (80, F, 1), (95, F, 1),
        (100, F, 2), (200, F, 2), (1000, F, 2),
    ],
    # the Botzone 双升 judge's score as levels (docs/rules.md §8): <5 +3, <40 +2, <80 +1, then the
    # defenders 80 +1, 120 +2, 160 +3, no step
    "botzone": [
        (-10, D, 3), (0, D, 3), (5, D, 2), (35, D, 2), (40, D, 1), (75, D, 1), (80, F, 1), (115, F, 1),
        (120, F, 2), (155, F, 2), (160, F, 3), (200, F, 3), (400, F, 3),
    ],
}

BOUNDARY_CASES = [(table, p, side, n) for table, rows in BOUNDARIES.items() for p, side, n in rows]


def test_every_preset_table_is_covered() -> None:
    assert set(BOUNDARIES) == set(LEVEL_TABLES)
    assert {preset(name).level_table.name for name in PRESET_VALUES} <= set(BOUNDARIES)


def test_boundaries_cover_every_band() -> None:
    """Each band's first and (for closed bands) last score appears in the table above."""
    for name, table in LEVEL_TABLES.items():
        scores = {p for p, _, _ in BOUNDARIES[name]}
        for band in table.bands:
            if band.start is not None:
                assert band.start in scores, (name, band)
            if band.end is not None:
                assert band.end - 5 in scores, (name, band)


def _preset_with(table: str) -> Rules:
    return next(preset(n) for n in PRESET_VALUES if preset(n).level_table.name == table)


@pytest.mark.parametrize(("table", "points", "side", "levels"), BOUNDARY_CASES)
def test_band_boundaries(table: str, points: int, side: str, levels: int) -> None:
    rules = _preset_with(table)
    for dealer in range(4):
        s = settle(rules, dealer, points, (0, 0))
        assert s.band.side == side
        assert s.levels_gained == levels
        assert s.outcome == ("dealer_keeps" if side == D else "defenders_take_over")
        assert s.team == (dealer % 2 if side == D else 1 - dealer % 2)
        assert s.next_dealer == ((dealer + 2) % 4 if side == D else (dealer + 1) % 4)
        assert s.new_levels[s.team] == min(levels, 12)
        assert s.new_levels[1 - s.team] == 0
        assert s.band.contains(points)


def test_presets_sharing_the_two_deck_table() -> None:
    for name in ("two-deck", "two-deck-constant-2", "two-deck-lianzhong"):
        assert preset(name).level_table is LEVEL_TABLES["two-deck"]


def test_seed_002_example_320_from_level_2() -> None:
    """Seed 002: 抓分方原本打2，本局得320分。則上臺作莊並且打4 (constant 2s: the team is at level 2)."""
    s = settle(preset("four-deck-cgc"), 3, 320, (0, 5))
    assert (s.outcome, s.team, s.levels_gained, RANKS[s.new_levels[0]], s.next_dealer) == (
        "defenders_take_over", 0, 2, "4", 0,
    )
    assert RANKS[s.new_levels[1]] == "7"  # the dealer side keeps its level
    assert (s.band.start, s.step, s.step_levels) == (240, 80, 1)


def test_next_dealer_seed_000_rules() -> None:
    """Seed 000 輪莊規則: 莊家升級 → 對家; 閒家上台 → 莊家的下家."""
    assert settle(preset("two-deck"), 3, 40, (0, 0)).next_dealer == 1
    assert settle(preset("two-deck"), 3, 80, (0, 0)).next_dealer == 0


@pytest.mark.parametrize(
    ("level", "points", "new", "won"),
    [
        ("K", 40, "A", False),   # dealer side +1 from K: plays A next
        ("A", 40, "A", True),    # +1 from A: passes A, wins
        ("Q", 0, "A", True),     # +3 from Q: past A
        ("J", 0, "A", False),    # +3 from J: exactly A
        ("A", 80, "A", False),   # the defenders (at A) take over with +0: they must still play A
    ],
)
def test_passing_a_wins(level: str, points: int, new: str, won: bool) -> None:
    rank = RANKS.index(level)
    s = settle(preset("two-deck"), 0, points, (rank, rank))
    assert (RANKS[s.new_levels[s.team]], s.game_won) == (new, won)
    assert any(r.code == "settle.game_won" for r in s.reasons) == won


def test_reasons_name_the_band() -> None:
    s = settle(preset("two-deck"), 0, 85, (0, 0))
    assert s.reasons[0].code == "settle.defenders_take_over"
    assert "80–115" in said(s.reasons[0]) and "80–115" in said(s.reasons[0], "zh-Hans")


@pytest.mark.parametrize(
    ("points", "levels", "dealer", "paths"),
    [
        (42, (0, 0), 0, [("defender_points",)]),
        (40, (0, 13), 0, [("levels", "B")]),
        (40, (-1, 0), 0, [("levels", "A")]),
        (40, (0, 0), 4, [("dealer",)]),
        (3, (0, 0, 0), 0, [("defender_points",), ("levels",)]),
    ],
)
def test_bad_input(points: int, levels: tuple[int, ...], dealer: int, paths: list[tuple[Any, ...]]) -> None:
    with pytest.raises(InvalidInput) as err:
        settle(preset("two-deck"), dealer, points, levels)
    assert [p.path for p in err.value.problems] == paths


# --- a caller's own table ---------------------------------------------------------------

OWN_TABLE = {
    "bands": [
        {"from": None, "to": 50, "side": "dealer", "levels": 2},
        {"from": 50, "to": 100, "side": "dealer", "levels": 1},
        {"from": 100, "to": None, "side": "defenders", "levels": 0},
    ],
    "step": 50,
}


@pytest.mark.parametrize(("points", "side", "levels"), [(45, D, 2), (50, D, 1), (95, D, 1), (100, F, 0),
                                                       (145, F, 0), (150, F, 1), (260, F, 3)])
def test_own_level_table(points: int, side: str, levels: int) -> None:
    rules = rules_from_json({"preset": "two-deck", "level_table": OWN_TABLE})
    s = settle(rules, 0, points, (0, 0))
    assert (s.band.side, s.levels_gained) == (side, levels)


@pytest.mark.parametrize(
    ("bands", "path"),
    [
        # a gap between 50 and 60
        ([{"from": None, "to": 50, "side": "dealer", "levels": 1},
          {"from": 60, "to": None, "side": "defenders", "levels": 0}], ("bands", 1, "from")),
        # an overlap
        ([{"from": None, "to": 50, "side": "dealer", "levels": 1},
          {"from": 40, "to": None, "side": "defenders", "levels": 0}], ("bands", 1, "from")),
        # out of order (the second band starts below the first's end)
        ([{"from": None, "to": 80, "side": "dealer", "levels": 1},
          {"from": 120, "to": None, "side": "defenders", "levels": 1},
          {"from": 80, "to": 120, "side": "defenders", "levels": 0}], ("bands", 1, "from")),
        # no open-ended last band
        ([{"from": None, "to": 50, "side": "dealer", "levels": 1},
          {"from": 50, "to": 100, "side": "defenders", "levels": 0}], ("bands", 1, "to")),
        ([{"from": None, "to": 50, "side": "both", "levels": 1}], ("bands", 0, "side")),
    ],
)
def test_own_table_is_validated(bands: list[dict[str, Any]], path: tuple[Any, ...]) -> None:
    with pytest.raises(InvalidInput) as err:
        rules_from_json({"preset": "two-deck", "level_table": {"bands": bands, "step": 40}})
    assert ("level_table", *path) in [p.path for p in err.value.problems]


# --- hypothesis invariants (the "done means") ---------------------------------


@st.composite
def monotone_tables(draw: st.DrawFn) -> Rules:
    """A caller's table of the usual kind: dealer bands gaining fewer and fewer
    levels, then defender bands gaining more and more."""
    cuts = sorted(draw(st.sets(st.integers(-10, 100).map(lambda x: 5 * x), min_size=1, max_size=7)))
    n_dealer = draw(st.integers(0, len(cuts)))
    bands: list[dict[str, Any]] = []
    edges = [None, *cuts, None]
    dealer_levels = sorted(draw(st.lists(st.integers(0, 4), min_size=n_dealer, max_size=n_dealer)), reverse=True)
    n_def = len(cuts) + 1 - n_dealer
    defender_levels = sorted(draw(st.lists(st.integers(0, 4), min_size=n_def, max_size=n_def)))
    for i, (side, levels) in enumerate([(D, x) for x in dealer_levels] + [(F, x) for x in defender_levels]):
        bands.append({"from": edges[i], "to": edges[i + 1], "side": side, "levels": levels})
    step = draw(st.one_of(st.none(), st.integers(1, 30).map(lambda x: 5 * x)))
    table = {"bands": bands, "step": step}
    level_table_from_json(table)  # valid by construction
    return rules_from_json({"preset": "two-deck", "level_table": table})


RULESETS = st.one_of(st.sampled_from([preset(n) for n in PRESET_VALUES]), monotone_tables())
POINTS = st.integers(-100, 400).map(lambda x: 5 * x)


def _dealer_value(s: Any) -> tuple[int, int]:
    """How good the result is for the dealer side (larger is better)."""
    return (1, s.levels_gained) if s.outcome == "dealer_keeps" else (0, -s.levels_gained)


@settings(max_examples=300, deadline=None)
@given(RULESETS, st.integers(0, 3), POINTS, POINTS, st.tuples(st.integers(0, 12), st.integers(0, 12)))
def test_settle_invariants(rules: Rules, dealer: int, p1: int, p2: int, levels: tuple[int, int]) -> None:
    low, high = sorted((p1, p2))
    a, b = settle(rules, dealer, low, levels), settle(rules, dealer, high, levels)
    for s in (a, b):
        # levels gained never negative
        assert s.levels_gained >= 0
        # the next dealer is on the team that goes up
        assert s.next_dealer % 2 == s.team
        assert (s.team == dealer % 2) == (s.outcome == "dealer_keeps")
        # levels only ever go up, for the winning team only, and never past A
        assert s.new_levels[1 - s.team] == levels[1 - s.team]
        assert levels[s.team] <= s.new_levels[s.team] <= 12
        assert s.game_won == (levels[s.team] + s.levels_gained > 12)
    # more defender points never help the dealer side
    assert _dealer_value(a) >= _dealer_value(b)


@settings(max_examples=300, deadline=None)
@given(RULESETS, st.integers(-1_000_000, 1_000_000))
def test_the_band_found_is_the_one_band_holding_the_points(rules: Rules, points: int) -> None:
    """``band_for`` (a search of the band starts) finds the table's only band holding the points."""
    table = rules.level_table
    assert [band for band in table.bands if band.contains(points)] == [table.band_for(points)]
