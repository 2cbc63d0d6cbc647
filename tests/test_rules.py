"""Presets as data and the option model (docs/rules.md §10)."""

from __future__ import annotations

import pytest

from engine.errors import InvalidInput
from engine.levels import LEVEL_TABLES, level_table_from_json
from engine.rules import OPTIONS, PRESET_VALUES, preset, rules_from_json

# docs/rules.md §10 table: preset → (decks, kitty, constant ranks, kitty kind, level table, follow patterns)
TABLE = {
    "one-deck": (1, 6, (), "power_of_two", "one-deck", "classic"),
    "one-deck-lianzhong": (1, 6, (), "linear", "one-deck-lianzhong", "classic"),
    "two-deck": (2, 8, (), "power_of_two", "two-deck", "classic"),
    "two-deck-constant-2": (2, 8, (0,), "power_of_two", "two-deck", "classic"),
    "two-deck-lianzhong": (2, 8, (), "lianzhong", "two-deck", "classic"),
    "three-deck": (3, 6, (), "lianzhong", "three-deck", "three-deck"),
    "four-deck": (4, 0, (0,), "transfer", "four-deck", "four-deck"),
    "four-deck-cgc": (4, 8, (0,), "cgc", "four-deck-cgc", "four-deck-cgc"),
}


@pytest.mark.parametrize("name", list(TABLE))
def test_preset_rows(name: str) -> None:
    r = preset(name)
    assert (r.decks, r.kitty_size, r.constant_trump_ranks, r.kitty_multiplier,
            r.level_table.name, r.follow_patterns) == TABLE[name]
    assert (54 * r.decks - r.kitty_size) % 4 == 0
    four = r.decks == 4
    cgc = name == "four-deck-cgc"
    assert r.wider_shape_beats is (r.decks >= 3)
    assert r.level_suit_precedence is cgc and r.bid_suit_precedence is cgc
    assert r.throw_forced_unit == ("smallest_failed" if cgc else "lowest_failed")
    assert r.throw_penalty == ("match_point" if cgc else "none")
    assert r.no_trump_bid_min_jokers == (4 if cgc else 2)
    assert r.kitty_dig_by_dealer is cgc
    assert r.self_overturn is (not four) and r.self_reinforce is True
    assert r.no_bid_fallback == ("kitty_first_card" if cgc else "spades" if name == "four-deck" else "no_trump")
    assert r.throw_comparison == "largest_unit" and r.follow_draw == "format"
    assert r.protect_longer_tuples is False and r.ace_low_tractor is False and r.kitty_cap == 64
    # docs/rules.md §10 "Other defaults": the compatibility presets' options stay off in the seeds' presets
    assert r.throw_when_others_void == ("refused" if name == "four-deck" else "allowed")
    assert (r.follow_tractors, r.throw_forced_cards, r.ruff_shape) == ("required", "unit", "structure")


# docs/rules.md §10, the compatibility presets: every value that differs from two-deck
COMPAT = {
    "shengji-io": {
        "kitty_multiplier": "linear", "throw_forced_unit": "first_blocked", "throw_comparison": "all_units",
        "self_overturn": False, "mandatory_levels": ["A"],
    },
    "botzone": {
        "kitty_multiplier": "linear", "level_table": LEVEL_TABLES["botzone"].as_json(),
        "follow_tractors": "pairs_only", "throw_forced_cards": "lowest_card",
        "throw_penalty": "points_per_failed_card", "tractors_through_level_cards": False,
    },
}


@pytest.mark.parametrize("name", list(COMPAT))
def test_compatibility_presets_are_two_deck_with_their_differences(name: str) -> None:
    base = preset("two-deck").as_json()
    got = preset(name).as_json()
    differ = {k: v for k, v in got.items() if base[k] != v and k != "preset"}
    assert differ == COMPAT[name]
    assert preset(name).throw_penalty_points_per_card == 10  # Botzone: 10 a card of the failed units


def test_botzone_level_table() -> None:
    """docs/rules.md §8: p < 5 → dealer 3; < 40 → 2; < 80 → 1; 80–119 → defenders 1; 120–159 → 2; 160+ → 3."""
    table = LEVEL_TABLES["botzone"]
    got = {p: (table.band_for(p).side, table.band_for(p).levels) for p in (0, 5, 35, 40, 75, 80, 115, 120, 155, 160, 200)}
    assert got == {
        0: ("dealer", 3), 5: ("dealer", 2), 35: ("dealer", 2), 40: ("dealer", 1), 75: ("dealer", 1),
        80: ("defenders", 1), 115: ("defenders", 1), 120: ("defenders", 2), 155: ("defenders", 2),
        160: ("defenders", 3), 200: ("defenders", 3),
    }
    assert table.step is None


def test_every_preset_names_every_option() -> None:
    assert set(TABLE) | set(COMPAT) == set(PRESET_VALUES)
    for name in PRESET_VALUES:
        assert set(preset(name).as_json()) == set(OPTIONS) | {"preset"}


def test_hand_sizes() -> None:
    assert [preset(n).hand_size for n in ("one-deck", "two-deck", "three-deck", "four-deck", "four-deck-cgc")] == [12, 25, 39, 54, 52]


def test_default_and_forms() -> None:
    assert rules_from_json(None) is preset("two-deck")
    assert rules_from_json("three-deck") is preset("three-deck")
    assert rules_from_json({"preset": "three-deck"}) is preset("three-deck")
    r = rules_from_json({"preset": "four-deck", "throw_penalty": "points_per_card", "throw_penalty_points_per_card": 5})
    assert (r.decks, r.throw_penalty, r.throw_penalty_points_per_card) == (4, "points_per_card", 5)
    assert rules_from_json({"wider_shape_beats": True}).decks == 2


def test_overriding_decks_changes_nothing_else() -> None:
    r = rules_from_json({"preset": "two-deck", "decks": 4})
    assert r.decks == 4 and r.kitty_size == 8 and r.follow_patterns == "classic" and r.wider_shape_beats is False


@pytest.mark.parametrize(
    ("spec", "path"),
    [
        ("five-deck", ()),
        ({"preset": "nope"}, ("preset",)),
        ({"preset": 3}, ("preset",)),
        ({"colour": "red"}, ("colour",)),
        ({"decks": 5}, ("decks",)),
        ({"decks": 0}, ("decks",)),
        ({"decks": "2"}, ("decks",)),
        ({"decks": True}, ("decks",)),
        ({"wider_shape_beats": "yes"}, ("wider_shape_beats",)),
        ({"throw_forced_unit": "random"}, ("throw_forced_unit",)),
        ({"constant_trump_ranks": ["2", "2"]}, ("constant_trump_ranks", 1)),
        ({"constant_trump_ranks": ["1"]}, ("constant_trump_ranks", 0)),
        ({"constant_trump_ranks": "2"}, ("constant_trump_ranks",)),
        ({"decks": 3}, ("kitty_size",)),
        ({"preset": "one-deck", "no_trump_bid_min_jokers": 4}, ("no_trump_bid_min_jokers",)),
        ({"preset": "two-deck", "no_trump_bid_min_jokers": 3}, ("no_trump_bid_min_jokers",)),
        ({"throw_penalty_points_per_card": 3}, ("throw_penalty_points_per_card",)),
        ({"level_table": "five-deck"}, ("level_table",)),
        (42, ()),
    ],
)
def test_bad_rules_name_the_problem(spec: object, path: tuple[object, ...]) -> None:
    with pytest.raises(InvalidInput) as exc:
        rules_from_json(spec)
    assert exc.value.problems[0].path == path


def _table(bands: list[tuple[object, object, str, int]], step: object = 40) -> dict[str, object]:
    return {"bands": [{"from": a, "to": b, "side": s, "levels": n} for a, b, s, n in bands], "step": step}


def test_custom_level_table() -> None:
    t = level_table_from_json(_table([(None, 80, "dealer", 1), (80, None, "defenders", 0)]))
    assert t.band_for(75).side == "dealer" and t.band_for(80).side == "defenders"
    r = rules_from_json({"level_table": _table([(None, 80, "dealer", 1), (80, None, "defenders", 0)])})
    assert r.level_table == t


@pytest.mark.parametrize(
    ("bands", "path"),
    [
        ([(None, 80, "dealer", 1), (90, None, "defenders", 0)], ("bands", 1, "from")),  # gap
        ([(None, 80, "dealer", 1), (70, None, "defenders", 0)], ("bands", 1, "from")),  # overlap
        ([(0, 80, "dealer", 1), (80, None, "defenders", 0)], ("bands", 0, "from")),  # not from -inf
        ([(None, 80, "dealer", 1), (80, 120, "defenders", 0)], ("bands", 1, "to")),  # not open-ended
        ([(None, 80, "nobody", 1), (80, None, "defenders", 0)], ("bands", 0, "side")),
        ([(None, 80, "dealer", -1), (80, None, "defenders", 0)], ("bands", 0, "levels")),
        ([(None, 80, "dealer", 1), (80, 60, "defenders", 0), (60, None, "defenders", 1)], ("bands", 1, "to")),
        ([(None, 80, "dealer", 14), (80, None, "defenders", 0)], ("bands", 0, "levels")),
        ([(None, -2**63, "dealer", 1), (-2**63, None, "defenders", 0)], ("bands", 0, "to")),
        ([(None, 82, "dealer", 1), (82, None, "defenders", 0)], ("bands", 0, "to")),
    ],
)
def test_bad_level_tables(bands: list[tuple[object, object, str, int]], path: tuple[object, ...]) -> None:
    with pytest.raises(InvalidInput) as exc:
        level_table_from_json(_table(bands))
    assert exc.value.problems[0].path == path


def test_band_bounds_and_step_are_required() -> None:
    with pytest.raises(InvalidInput) as exc:
        level_table_from_json({"bands": [{"side": "dealer", "levels": 1}]})
    assert {p.path for p in exc.value.problems} >= {("step",), ("bands", 0, "from"), ("bands", 0, "to")}


def test_preset_level_tables_are_valid() -> None:
    for name, table in LEVEL_TABLES.items():
        assert level_table_from_json(table.as_json() | {"name": name}) == table
