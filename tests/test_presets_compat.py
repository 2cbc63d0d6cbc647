"""The compatibility presets ``shengji-io`` and ``botzone`` (docs/rules.md §10).

``shengji-io``: situations transcribed from rbtying/shengji's own unit tests
(core/src/trick.rs), each case naming the test it comes from.  Its tests
play level 4 with spades trump unless they say otherwise; players P1..P4
are seats 0..3, P1 leading.  Where a test holds more copies of a card than
four decks (shengji.io allows more decks), the case keeps the situation and
says what it left out; ``decks`` is raised to 4 (with its kitty of 8) where
the cards need it.  Not transcribed: test_play_throw_trick and
test_play_throw_tractor_extra_cards (their plays hold five or more copies of
one card), test_throw_evaluation_policy_trick_unit_length (six 5♠, and a
comparison no option here expresses), test_protected_tractor_triple (a
tractor of one rank, which the referee does not form).

``botzone``: the Botzone 双升 judge's behaviour as docs/rules.md §10 lists it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.cards import card_str, parse_card, parse_rank, parse_suit
from engine.follow import check_follow, judge_follow
from engine.kitty import check_kitty, kitty_result
from engine.rules import rules_from_json
from engine.settle import settle
from engine.throw import check_throw, judge_throw
from engine.trick import check_trick, resolve_trick
from engine.trump import Trump, trump_order
from engine.units import decompose

SHENGJI = "shengji-io"
SHENGJI_4 = {"preset": "shengji-io", "decks": 4}  # the test holds more than two copies of a card
LEVEL_4_SPADES = ("4", "S")  # the TRUMP of rbtying/shengji's trick tests


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def text(cs: Any) -> str:
    return " ".join(card_str(c) for c in cs)


def order_of(rules: Any, trump: tuple[str, str | None]) -> Any:
    level, suit = trump
    return trump_order(Trump(parse_rank(level), None if suit is None else parse_suit(suit)), rules)


# ---------------------------------------------------------------- shengji-io: trick winners

# (test name, rules, trump, plays from P1, winner seat, points)
SHENGJI_TRICKS = [
    ("test_play_singles_trick", SHENGJI_4, LEVEL_4_SPADES, ["2S", "5S", "3S", "5S"], 1, 10),
    ("test_play_trump_trick: the trump-suit level card 4S wins", SHENGJI_4, LEVEL_4_SPADES,
     ["2S", "4S", "3S", "5S"], 1, 5),
    ("test_play_pairs_trick: 33 would be a pair, 34 is not; 55 wins", SHENGJI_4, LEVEL_4_SPADES,
     ["2S 2S", "3S 4S", "5S 5S", "3S 5S"], 2, 15),
    # P4's 6666 would make six 6S with P2's: the first three plays, as the test has them
    ("test_play_tractor_trick: 6677 wins, 2 555 lacks the tractor", SHENGJI_4, LEVEL_4_SPADES,
     ["2S 2S 3S 3S", "6S 6S 7S 7S", "2S 5S 5S 5S"], 1, 15),
    ("test_play_throw_trick_failure: after the forced 2H, P3 ruffs with 3S", SHENGJI_4, LEVEL_4_SPADES,
     ["2H", "2H", "3S", "3H"], 2, 0),
    ("test_throw_of_trump_rank_in_trump: 4H 4S stands against 4D 2S and both 33",
     SHENGJI_4, LEVEL_4_SPADES, ["4H 4S", "4D 2S", "3S 3S", "3S 3S"], 0, 0),
    ("test_throw_evaluation_policy_highest_card (all units): P3 keeps the trick", SHENGJI, ("K", "S"),
     ["4C 6C", "2S 3S", "3S 4S", "2S BJ"], 2, 0),
    ("test_throw_evaluation_policy_highest_card (highest card): P4's big joker wins",
     {"preset": "shengji-io", "throw_comparison": "highest_card"}, ("K", "S"),
     ["4C 6C", "2S 3S", "3S 4S", "2S BJ"], 3, 0),
    # P4's five 3S are beyond four decks: the first three plays, as the test has them
    ("test_play_throw_tractor_with_other_tractor_in_game: hearts trump, 2233 A ruffs QQKK A",
     SHENGJI_4, ("4", "H"), ["QS QS KS KS AS", "2H 2H 3H AH 3H", "AS AS 3S 3S 3S"], 1, 20),
]


@pytest.mark.parametrize(("rules", "trump", "plays", "winner", "points"), [c[1:] for c in SHENGJI_TRICKS],
                         ids=[c[0] for c in SHENGJI_TRICKS])
def test_shengji_io_trick(rules: Any, trump: Any, plays: list[str], winner: int, points: int) -> None:
    r = rules_from_json(rules)
    result = resolve_trick(check_trick(0, [cards(p) for p in plays], order_of(r, trump), r))
    assert (result.winner, result.points) == (winner, points)


def test_shengji_io_trick_unit_sizes() -> None:
    """test_play_tractor_trick and test_play_throw_trick: the largest trick unit (4, then 2) sets
    shengji.io's kitty multiplier, 2 × its cards (linear, uncapped)."""
    r = rules_from_json(SHENGJI_4)
    order = order_of(r, LEVEL_4_SPADES)
    for lead, largest, multiplier in (("2S 2S 3S 3S", 4, 8), ("8H 8H 7H 2H", 2, 4), ("2S", 1, 2)):
        k = kitty_result(check_kitty(r, Trump(2, 0), 0, cards(lead), 1, cards("KC 10D 5C 3C 4C 6C 7C 8C"),
                                     defender_points=0, won_with_trumps=True))
        assert max(u.size for u in decompose(cards(lead), order)) == largest
        assert k.multiplier == multiplier and k.awarded == 25 * multiplier


# ---------------------------------------------------------------- shengji-io: decompositions

# test_play_formats / test_trick_format_*: the single decomposition shengji.io finds for these cards
SHENGJI_FORMATS = [
    ("test_play_formats: 2H 3H 7H are three singles", "2H 3H 7H", ["7H", "3H", "2H"]),
    ("test_play_formats: 2H2H3H3H is a tractor", "2H 2H 3H 3H", ["3H 3H 2H 2H"]),
    ("test_play_formats: off-suit and trump-suit level pairs are a tractor", "4H 4H 4S 4S", ["4S 4S 4H 4H"]),
    ("test_play_formats: the off-suit level pair and the trump ace pair are a tractor", "4H 4H AS AS",
     ["4H 4H AS AS"]),
    ("test_play_formats: QQKK A", "QS QS KS KS AS", ["KS KS QS QS", "AS"]),
    ("test_play_formats: 333555 hearts is a triple tractor (4 is the level)", "3H 3H 3H 5H 5H 5H",
     ["5H 5H 5H 3H 3H 3H"]),
    ("test_trick_format_basic: a triple", "2S 2S 2S", ["2S 2S 2S"]),
    ("test_trick_format_tractor: 222333555 is one triple tractor", "2S 2S 2S 3S 3S 3S 5S 5S 5S",
     ["5S 5S 5S 3S 3S 3S 2S 2S 2S"]),
    ("test_trick_simple_throw: 222 3 555 is two triples and a single", "2S 2S 2S 3S 5S 5S 5S",
     ["5S 5S 5S", "2S 2S 2S", "3S"]),
]


@pytest.mark.parametrize(("lead", "units"), [c[1:] for c in SHENGJI_FORMATS], ids=[c[0] for c in SHENGJI_FORMATS])
def test_shengji_io_decomposition(lead: str, units: list[str]) -> None:
    r = rules_from_json(SHENGJI_4)
    got = decompose(cards(lead), order_of(r, LEVEL_4_SPADES))
    assert Counter(text(u.cards) for u in got) == Counter(units)


@pytest.mark.parametrize(
    ("lead", "play", "matches"),
    [
        ("2S 2S 2S 3S 3S 3S 5S 5S 5S", "3S 3S 3S 5S 5S 5S 6S 6S 6S", True),
        ("2S 2S 2S 3S 3S 3S 5S 5S 5S", "2S 2S 2S 3S 3S 3S 6S 6S 6S", False),
    ],
    ids=["test_trick_format_tractor: 333555666 matches", "test_trick_format_tractor: 222333666 does not"],
)
def test_shengji_io_format_match(lead: str, play: str, matches: bool) -> None:
    """A play matches the lead's format when it can be arranged into the lead's units
    (the trick then gives its strongest arrangement; the two plays together hold more
    copies than four decks, so only the comparison is asked for)."""
    r = rules_from_json(SHENGJI_4)
    order = order_of(r, LEVEL_4_SPADES)
    result = resolve_trick(check_trick(0, [cards(lead), cards(play)], order, r, copies=False))
    assert (result.plays[1].units is not None) is matches


# ---------------------------------------------------------------- shengji-io: follows

PROTECTED = {"preset": "shengji-io", "decks": 4, "protect_longer_tuples": True}

# (test name, rules, trump, lead, hand, play, legal); the lead's own cards never matter to the
# follow, so a lead is moved to other ranks where the test's hand holds its cards already
SHENGJI_FOLLOWS = [
    ("test_legal_play_pairs: 22 answers a pair", SHENGJI_4, LEVEL_4_SPADES, "3S 3S", "2S 2S 3S 3S 5S 5S", "2S 2S", True),
    ("test_legal_play_pairs: 23 does not", SHENGJI_4, LEVEL_4_SPADES, "3S 3S", "2S 2S 3S 3S 5S 5S", "2S 3S", False),
    ("test_legal_play_pairs: a triple held owes the pair", SHENGJI_4, LEVEL_4_SPADES, "3S 3S", "2S 2S 2S 3S 5S", "3S 5S", False),
    ("test_legal_play_pairs: LongerTuplesProtected keeps the triple whole", PROTECTED, LEVEL_4_SPADES, "3S 3S",
     "2S 2S 2S 3S 5S", "3S 5S", True),
    ("test_legal_play_pairs: a triple lead, 22 5 is as good as the hand gets", SHENGJI_4, LEVEL_4_SPADES,
     "6S 6S 6S", "2S 2S 3S 3S 5S 5S", "2S 2S 5S", True),
    ("test_legal_play_pairs: a triple lead, 2 3 5 breaks every pair", SHENGJI_4, LEVEL_4_SPADES,
     "6S 6S 6S", "2S 2S 3S 3S 5S 5S", "2S 3S 5S", False),
    ("test_legal_play_pairs: tractor lead, 2222 is no tractor where 2233 can be", SHENGJI_4, LEVEL_4_SPADES,
     "6S 6S 7S 7S", "2S 2S 2S 2S 3S 3S 5S 5S", "2S 2S 2S 2S", False),
    ("test_legal_play_pairs: tractor lead, 2233", SHENGJI_4, LEVEL_4_SPADES,
     "6S 6S 7S 7S", "2S 2S 2S 2S 3S 3S 5S 5S", "2S 2S 3S 3S", True),
    ("test_legal_play_pairs: tractor lead, 3355 (the level 4 is out of the suit)", SHENGJI_4, LEVEL_4_SPADES,
     "6S 6S 7S 7S", "2S 2S 2S 2S 3S 3S 5S 5S", "3S 3S 5S 5S", True),
    ("test_legal_play_pairs: no tractor possible, 2222 is two pairs", SHENGJI_4, LEVEL_4_SPADES,
     "6S 6S 7S 7S", "2S 2S 2S 2S 3S 5S 5S", "2S 2S 2S 2S", True),
    ("test_legal_play_pairs: no tractor possible, 22 55", SHENGJI_4, LEVEL_4_SPADES,
     "6S 6S 7S 7S", "2S 2S 2S 2S 3S 5S 5S", "2S 2S 5S 5S", True),
    ("test_legal_play_pairs: no tractor possible, 22 5 3 leaves a pair", SHENGJI_4, LEVEL_4_SPADES,
     "6S 6S 7S 7S", "2S 2S 2S 2S 3S 5S 5S", "2S 2S 5S 3S", False),
    ("test_legal_play_pairs: protected 2222, 22 5 3 is tenuously legal", PROTECTED, LEVEL_4_SPADES,
     "6S 6S 7S 7S", "2S 2S 2S 2S 3S 5S 5S", "2S 2S 5S 3S", True),
    ("test_legal_play_pairs: pair + single lead, 222", SHENGJI_4, LEVEL_4_SPADES, "6S 6S 7S", "2S 2S 2S 5S",
     "2S 2S 2S", True),
    ("test_legal_play_pairs: pair + single lead, 22 5", SHENGJI_4, LEVEL_4_SPADES, "6S 6S 7S", "2S 2S 2S 5S",
     "2S 2S 5S", True),
    ("test_protected_tuple: 678 breaks the quad's triple", SHENGJI_4, LEVEL_4_SPADES, "3S 3S 3S",
     "2S 2S 2S 2S 5S 6S 7S 8S", "6S 7S 8S", False),
    ("test_protected_tuple: protected, 678", PROTECTED, LEVEL_4_SPADES, "3S 3S 3S",
     "2S 2S 2S 2S 5S 6S 7S 8S", "6S 7S 8S", True),
    ("test_protected_tuple: 556 against a quad held", SHENGJI_4, LEVEL_4_SPADES, "3S 3S 3S",
     "2S 2S 2S 2S 5S 5S 6S 7S 8S", "5S 5S 6S", False),
    ("test_protected_tuple: protected, 556", PROTECTED, LEVEL_4_SPADES, "3S 3S 3S",
     "2S 2S 2S 2S 5S 5S 6S 7S 8S", "5S 5S 6S", True),
    ("test_protected_tuple: protected, 678 still leaves the pair 55", PROTECTED, LEVEL_4_SPADES, "3S 3S 3S",
     "2S 2S 2S 2S 5S 5S 6S 7S 8S", "6S 7S 8S", False),
    ("test_protected_wider_tractor: 5678 against 222333", SHENGJI_4, LEVEL_4_SPADES, "6S 6S 7S 7S",
     "2S 2S 2S 3S 3S 3S 5S 6S 7S 8S", "5S 6S 7S 8S", False),
    ("test_protected_wider_tractor: protected, 5678", PROTECTED, LEVEL_4_SPADES, "6S 6S 7S 7S",
     "2S 2S 2S 3S 3S 3S 5S 6S 7S 8S", "5S 6S 7S 8S", True),
    ("test_long_tractor_decomposition_draws_pairs: P2 must play its KK", SHENGJI, ("K", "S"),
     "7S 7S 8S 8S 9S 9S", "4S 10S AS KH KD KC KS KS", "4S 10S AS KH KD KC", False),
    ("test_long_tractor_decomposition_draws_pairs: P2 with KK", SHENGJI, ("K", "S"),
     "7S 7S 8S 8S 9S 9S", "4S 10S AS KH KD KC KS KS", "4S 10S AS KH KS KS", True),
    ("test_long_tractor_decomposition_draws_pairs: P3 has no pair", SHENGJI, ("K", "S"),
     "7S 7S 8S 8S 9S 9S", "2S 6S JS QS KH KC 10C SJ", "2S 6S JS QS KH KC", True),
    ("test_long_tractor_decomposition_draws_pairs: P4 plays all its trumps", SHENGJI, ("K", "S"),
     "7S 7S 8S 8S 9S 9S", "4C 6C 7C 3S 3S BJ 5C 8C", "4C 6C 7C 3S 3S BJ", True),
]


@pytest.mark.parametrize(("rules", "trump", "lead", "hand", "play", "legal"), [c[1:] for c in SHENGJI_FOLLOWS],
                         ids=[c[0] for c in SHENGJI_FOLLOWS])
def test_shengji_io_follow(rules: Any, trump: Any, lead: str, hand: str, play: str, legal: bool) -> None:
    r = rules_from_json(rules)
    assert judge_follow(check_follow(cards(lead), cards(hand), cards(play), order_of(r, trump), r)).legal is legal


# ---------------------------------------------------------------- shengji-io: throws


def test_shengji_io_throw_trick_failure() -> None:
    """test_play_throw_trick_failure: P1 throws 88 7 2 of hearts; P4 holds 3H, which beats the single
    2H, so the 2H is forced and the other three cards go back (failed_throw_size 3).  The spades the
    test's hands also hold are trumps, beyond four decks with the rest, and play no part."""
    r = rules_from_json(SHENGJI_4)
    order = order_of(r, LEVEL_4_SPADES)
    v = judge_throw(check_throw(0, cards("8H 8H 7H 2H"), {1: cards("2H"), 2: [], 3: cards("3H")}, order, r))
    assert not v.valid and text(v.forced_play) == "2H"
    assert len(v.units) == 3 and sum(u.size for u in v.units) - len(v.forced_play) == 3
    assert [b.seat for f in v.failed_units for b in f.beaten_by] == [3]


def test_shengji_io_throw_stands() -> None:
    """test_play_throw_trick and test_play_throw_tractor_with_other_tractor_in_game: nobody holds a
    higher unit of the led suit, so the throw stands (failed_throw_size 0)."""
    r = rules_from_json(SHENGJI_4)
    v = judge_throw(check_throw(0, cards("8H 8H 7H 2H"), {1: cards("2H 2S"), 2: cards("2S 3S"), 3: cards("4S")},
                                order_of(r, LEVEL_4_SPADES), r))
    assert v.valid
    v = judge_throw(check_throw(0, cards("QS QS KS KS AS"), {1: cards("2H 2H 3H 3H AH"), 2: cards("AS AS 3S"),
                                                               3: cards("3S 3S")}, order_of(r, ("4", "H")), r))
    assert v.valid


def test_shengji_io_first_blocked() -> None:
    """shengji.io's throw check walks the other players in seat order and, for the first who can beat
    any unit, forces the first (smallest) unit that player beats: P2 beats only the single K with
    the other A, P3 only the pair 99, so the K is forced although 99 ranks lower (two-deck would
    force the 99)."""
    order_rules = rules_from_json(SHENGJI)
    order = order_of(order_rules, ("2", "H"))
    hands = {1: cards("AS"), 2: cards("JS JS"), 3: []}
    v = judge_throw(check_throw(0, cards("AS KS 9S 9S"), hands, order, order_rules))
    assert text(v.forced_play) == "KS"
    two_deck = rules_from_json("two-deck")
    assert text(judge_throw(check_throw(0, cards("AS KS 9S 9S"), hands, order, two_deck)).forced_play) == "9S 9S"


# ---------------------------------------------------------------- botzone

BOTZONE = "botzone"


def test_botzone_follow_pairs_only() -> None:
    """The judge asks for as many pairs as the lead holds, never a tractor."""
    r = rules_from_json(BOTZONE)
    order = order_of(r, ("2", "S"))
    lead, hand = cards("3H 3H 4H 4H"), cards("6H 6H 7H 7H 9H 9H KS")
    assert judge_follow(check_follow(lead, hand, cards("6H 6H 9H 9H"), order, r)).legal is True
    assert judge_follow(check_follow(lead, hand, cards("6H 6H 7H 9H"), order, r)).legal is False
    two_deck = rules_from_json("two-deck")
    assert judge_follow(check_follow(lead, hand, cards("6H 6H 9H 9H"), order, two_deck)).legal is False


def test_botzone_failed_throw() -> None:
    """A failed throw: the lowest failed unit is chosen, only its lowest card is played, and the other
    team gains 10 per card of the failed units."""
    r = rules_from_json(BOTZONE)
    order = order_of(r, ("10", "H"))
    v = judge_throw(check_throw(1, cards("AS KS KS QS QS 3S 3S"), {0: [], 2: cards("5S 5S"), 3: []}, order, r))
    # 55 beats the pair 33 only: 2 failed cards
    assert text(v.forced_unit.cards) == "3S 3S" and text(v.forced_play) == "3S"
    assert (v.penalty.kind, v.penalty.amount, v.penalty.seat, v.penalty.team) == ("points_per_failed_card", 20, 1, 0)


def test_botzone_kitty_and_settle() -> None:
    """The kitty is 2 × the cards of the last lead's largest unit; the score reads as levels."""
    r = rules_from_json(BOTZONE)
    k = kitty_result(check_kitty(r, Trump(0, 1), 0, cards("4S 4S 5S 5S"), 1, cards("KC 10D 5C 3C 4C 6C 7C 8C"),
                                 defender_points=40, won_with_trumps=False))
    assert (k.multiplier, k.awarded, k.defender_points_after) == (8, 200, 240)
    s = settle(r, 0, 240, (0, 0))
    assert (s.team, s.levels_gained, s.new_levels, s.next_dealer) == (1, 3, (0, 3), 1)
    s = settle(r, 0, 80, (0, 0))
    assert (s.team, s.levels_gained) == (1, 1)
    s = settle(r, 0, 0, (0, 0))
    assert (s.team, s.levels_gained) == (0, 3)


# rbtying/shengji core/src/scoring.rs test_level_deltas, two decks, no bonus level: the attackers'
# points → (attackers' levels, landlord's levels, landlord won).  Its negative scores (-40 → 4,
# -80 → 5) cannot arise under the preset's rules (no dealer dig, no throw penalty): not transcribed.
SHENGJI_LEVELS = [
    (0, 0, 3, True), (5, 0, 2, True), (35, 0, 2, True), (40, 0, 1, True), (75, 0, 1, True),
    (80, 0, 0, False), (115, 0, 0, False), (120, 1, 0, False), (155, 1, 0, False), (160, 2, 0, False),
    (195, 2, 0, False), (200, 3, 0, False), (235, 3, 0, False), (240, 4, 0, False), (280, 5, 0, False),
]


@pytest.mark.parametrize(("points", "attackers", "landlord", "landlord_won"), SHENGJI_LEVELS,
                         ids=[f"test_level_deltas: {c[0]}" for c in SHENGJI_LEVELS])
def test_shengji_io_level_deltas(points: int, attackers: int, landlord: int, landlord_won: bool) -> None:
    s = settle(rules_from_json(SHENGJI), 0, points, (0, 0))
    assert (s.team == 0) is landlord_won
    assert s.levels_gained == (landlord if landlord_won else attackers)
