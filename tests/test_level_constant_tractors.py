"""New adjacencies of tractors (docs/rules.md §3): ``level_constant_tractors``
(seed 000 四副 §7, seed 002 牌的大小 4) and ``tractors_through_level_cards``
(the Botzone judge).

1. Table tests: seed 002's order of two-pair trump tractors, seed 000's 主AA22,
   ♠2233 made of a suit that is not trump, ♠22♥33 not one, and the Botzone
   adjacency.
2. The follow verdicts against the brute-force oracles of
   tests/test_follow_oracle.py, on hands crowded round the level, constant-rank
   and trump-ace kinds, where the new links lie.
3. Generated four-deck deals (tests/deal.py) where such tractors are led,
   followed, ruffed, thrown and take the last trick.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

import pytest

from engine.audit import TrickRecord
from engine.cards import BIG_JOKER, RANKS, SMALL_JOKER, make, parse_card
from engine.follow import check_follow, judge_follow
from engine.kitty import check_kitty, kitty_result
from engine.patterns import PATTERN_LISTS
from engine.rules import Rules, preset, rules_from_json
from engine.shapes import Shape
from engine.suit import suit_view
from engine.throw import check_throw, judge_throw
from engine.trick import check_trick, resolve_trick
from engine.trump import TRUMP, Trump, TrumpOrder, trump_order
from engine.units import Unit, decompose, is_tractor
from tests.deal import play_hand, remaining_before
from tests.test_follow_oracle import (
    check_every_play,
    classic_quality,
    generic_quality,
    list_step,
    seed_of,
    subsets,
)

S, H, C, D = 0, 1, 2, 3
TWO, THREE = RANKS.index("2"), RANKS.index("3")


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def shapes(text: str, order: object) -> list[tuple[int, int]]:
    return [(u.width, u.length) for u in decompose(cards(text), order)]  # type: ignore[arg-type]


FOUR = preset("four-deck")
CGC = preset("four-deck-cgc")
LEVEL_3_DIAMONDS = Trump(THREE, D)  # seed 002's example: trump ♦, level 3, the 2s constant


# --- 1. tables ----------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [FOUR, CGC], ids=["four-deck", "four-deck-cgc"])
def test_level_and_constant_tuples_of_one_suit_are_a_tractor(rules: object) -> None:
    """Seed 000 四副 §7 and seed 002 牌的大小 4 (级别连拖): at level 3 with constant 2s,
    ♠2♠2♠3♠3 is a tractor in a suit that is not trump, ♦2♦2♦3♦3 in the trump suit,
    and 主AA22 (seed 000) too; ♠2♠2♥3♥3 is two pairs."""
    order = trump_order(LEVEL_3_DIAMONDS, rules)  # type: ignore[arg-type]
    assert is_tractor(cards("2S 2S 3S 3S"), order)
    assert is_tractor(cards("2H 2H 3H 3H"), order)
    assert is_tractor(cards("2D 2D 3D 3D"), order)
    assert is_tractor(cards("AD AD 2D 2D"), order)
    assert not is_tractor(cards("2S 2S 3H 3H"), order)
    assert shapes("2S 2S 3H 3H", order) == [(2, 1), (2, 1)]
    # chains run through the new links like through any other: ♦KK AA 22 33 and ♠22 33 ♦33 SJSJ
    assert is_tractor(cards("KD KD AD AD 2D 2D 3D 3D"), order)
    assert is_tractor(cards("2S 2S 3S 3S 3D 3D SJ SJ"), order)
    assert is_tractor(cards("2S 2S 2S 3S 3S 3S"), order)  # triple tractor 泰坦尼克 of them too


def test_the_new_links_are_off_without_the_option() -> None:
    """Without ``level_constant_tractors`` (two-deck-constant-2, seed 000 2 为常主) ♠2233 stays two pairs."""
    order = trump_order(LEVEL_3_DIAMONDS, preset("two-deck-constant-2"))
    assert shapes("2S 2S 3S 3S", order) == [(2, 1), (2, 1)]
    assert shapes("AD AD 2D 2D", order) == [(2, 1), (2, 1)]
    on = trump_order(LEVEL_3_DIAMONDS, replace(preset("two-deck-constant-2"), level_constant_tractors=True))
    assert shapes("2S 2S 3S 3S", on) == [(2, 2)]


def test_seed_002_order_of_trump_tractors() -> None:
    """Seed 002 牌的大小 4 主牌两连拖大小顺序, trump ♦ at level 3: joker tractors > ♦2233 (主级别连拖)
    > ♠2233 > ♥2233 > ♣2233 (副级别连拖, ♠ > ♥ > ♣ with level_suit_precedence) > 主AA22 > ♦AAKK."""
    order = trump_order(LEVEL_3_DIAMONDS, CGC)
    ladder = ["SJ SJ BJ BJ", "2D 2D 3D 3D", "2S 2S 3S 3S", "2H 2H 3H 3H", "2C 2C 3C 3C", "AD AD 2D 2D", "KD KD AD AD"]
    ranks = []
    for text in ladder:
        (unit,) = decompose(cards(text), order)
        assert unit.shape == (2, 2)
        ranks.append(unit.rank)
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks)
    # seed 000: 副主2233 beats 主AA22 and loses to 主2233; without the suit precedence the off-suit ones tie
    four = trump_order(LEVEL_3_DIAMONDS, FOUR)
    rank = {text: decompose(cards(text), four)[0].rank for text in ladder}
    assert rank["2S 2S 3S 3S"] == rank["2H 2H 3H 3H"] == rank["2C 2C 3C 3C"]
    assert rank["2D 2D 3D 3D"] > rank["2S 2S 3S 3S"] > rank["AD AD 2D 2D"] > rank["KD KD AD AD"]


def winner(rules: object, plays: list[str]) -> int:
    order = trump_order(LEVEL_3_DIAMONDS, rules)  # type: ignore[arg-type]
    return resolve_trick(check_trick(0, [cards(p) for p in plays], order, rules)).winner  # type: ignore[arg-type]


def test_a_trick_between_level_constant_tractors() -> None:
    """The trick winner (docs/rules.md §6): ♠2233 over 主AA22 led; ♦2233 over it; a quad over all
    of them under wider_shape_beats (seed 002: 四条 > 王连对 > 主级别指数连拖)."""
    assert winner(CGC, ["AD AD 2D 2D", "2S 2S 3S 3S", "2D 2D 3D 3D", "2H 2H 3H 3H"]) == 2
    assert winner(CGC, ["AD AD 2D 2D", "2H 2H 3H 3H", "2S 2S 3S 3S", "2C 2C 3C 3C"]) == 2  # ♠ > ♥ > ♣
    assert winner(FOUR, ["AD AD 2D 2D", "2H 2H 3H 3H", "2S 2S 3S 3S", "2C 2C 3C 3C"]) == 1  # equal: the earlier
    assert winner(CGC, ["2H 2H 3H 3H", "2S 2S 3S 3S", "9D 9D 9D 9D", "2C 2C 3C 3C"]) == 2
    # ♠22♥33 is two pairs, not the tractor's structure: it does not beat 主AA22
    assert winner(CGC, ["AD AD 2D 2D", "2S 2S 3H 3H", "KD KD QD QD", "4D 4D 5D 5D"]) == 0
    # a plain-suit 2-pair tractor led, ruffed by ♠2233 (trumps), over-ruffed by ♦2233
    assert winner(CGC, ["5C 5C 6C 6C", "2S 2S 3S 3S", "2D 2D 3D 3D", "AD AD 2H 2H"]) == 2


def test_the_kitty_multiplier_counts_a_level_constant_tractor() -> None:
    """Seed 000 四副 transfer (k = cards of the largest unit of the last lead): ♠2233 is one
    4-card tractor now, so k = 4 where two pairs gave 2."""
    def k(rules: object, lead: str) -> int:
        kitty = check_kitty(rules, LEVEL_3_DIAMONDS, 0, cards(lead), 1, defender_points=100)  # type: ignore[arg-type]
        return kitty_result(kitty).multiplier

    assert k(FOUR, "2S 2S 3S 3S") == 4
    assert k(FOUR, "AD AD 2D 2D") == 4
    assert k(replace(FOUR, level_constant_tractors=False), "2S 2S 3S 3S") == 2


# --- 2. the follow verdicts against brute force ---------------------------------------------------


def region_case(rng: random.Random, rules: object, lead_shapes: list[tuple[int, int]], size: int):  # type: ignore[no-untyped-def]
    """A trump with a trump suit, a trump lead of ``lead_shapes`` and a hand of ``size`` trumps
    crowded round the new links (trump K and A, every 2, every level card, the jokers)."""
    decks = rules.decks  # type: ignore[attr-defined]
    for _ in range(1000):
        level = rng.choice([r for r in range(13) if r != TWO])
        tsuit = rng.randrange(4)
        order = trump_order(Trump(level, tsuit), rules)  # type: ignore[arg-type]
        region = sorted(
            {make(tsuit, RANKS.index("K")), make(tsuit, RANKS.index("A")), SMALL_JOKER, BIG_JOKER}
            | {make(s, r) for s in range(4) for r in (TWO, level)},
            key=lambda k: (order.power[k], k),
        )
        region = [k for k in region if order.suit[k] == TRUMP]
        used: Counter[int] = Counter()
        lead: list[int] = []
        for width, length in lead_shapes:
            kinds = [k for k in region if used[k] + width <= decks]
            for _ in range(200):
                combo = sorted(rng.sample(kinds, length))
                if length == 1 or is_tractor([k for k in combo for _ in range(width)], order):
                    break
            else:
                break
            lead += [k for k in combo for _ in range(width)]
            used.update({k: width for k in combo})
        if not lead or sorted((u.width, u.length) for u in decompose(lead, order)) != sorted(lead_shapes):
            continue
        hand: list[int] = []
        # half the time, seed the hand with a tuple pair only the new links join
        s = rng.randrange(4)
        low, high = (make(s, RANKS.index("A")), make(s, TWO)) if s == tsuit and rng.random() < 0.5 else (
            make(s, TWO), make(s, level))
        width = rng.randint(2, decks)
        if rng.random() < 0.5 and used[low] + width <= decks and used[high] + width <= decks and 2 * width < size:
            hand += [low] * width + [high] * width
            used.update({low: width, high: width})
        while len(hand) < size:
            k = rng.choice(region)
            chunk = min(rng.choice([1, 2, 2, 2, 3, 4]), decks - used[k], size - len(hand))
            if chunk > 0:
                used[k] += chunk
                hand += [k] * chunk
        hand += [make((tsuit + 1) % 4, RANKS.index("5" if level != RANKS.index("5") else "6"))]
        return order, lead, hand
    raise AssertionError("no case")


def only_by_new_links(order: object, rules: object, held: list[int]) -> bool:
    """Does ``held`` hold a 2-pair tractor that only the new links make?"""
    off = trump_order(order.trump, replace(rules, level_constant_tractors=False))  # type: ignore[attr-defined,type-var]
    trumps = [c for c in held if off.suit[c] == TRUMP]
    on_view, off_view = suit_view(order, TRUMP), suit_view(off, TRUMP)  # type: ignore[arg-type]
    return len(on_view.spots(on_view.counts(trumps), 2, 2)) > len(off_view.spots(off_view.counts(trumps), 2, 2))


CLASSIC_LEADS = [[(2, 2)], [(2, 3)], [(2, 2), (2, 1)], [(2, 2), (1, 1)]]


@pytest.mark.parametrize("shapes", CLASSIC_LEADS, ids=lambda s: "+".join(f"{w}x{n}" for w, n in s))
def test_classic_follow_oracle_round_the_new_links(shapes: list[tuple[int, int]]) -> None:
    """Two decks with constant 2s and ``level_constant_tractors``: the classic rule
    (tractor cards placed in the lead's tractors, then pairs) against brute force."""
    rules = rules_from_json({"preset": "two-deck-constant-2", "level_constant_tractors": True})
    rng = random.Random(seed_of("level-constant classic", shapes))
    refused = linked = 0
    for _ in range(6):
        size = sum(w * n for w, n in shapes)
        order, lead, hand = region_case(rng, rules, shapes, rng.randint(size + 1, size + 4))
        linked += only_by_new_links(order, rules, hand)
        refused += check_every_play(order, lead, hand, rules, lambda s, o=order, le=lead: classic_quality(s, le, o))
    assert refused > 0 and linked > 0


GENERIC_LEADS = [[(2, 2), (2, 1)], [(3, 1), (2, 1)], [(2, 2), (3, 1)], [(2, 2), (2, 2)]]


@pytest.mark.parametrize("shapes", GENERIC_LEADS, ids=lambda s: "+".join(f"{w}x{n}" for w, n in s))
def test_generic_follow_oracle_round_the_new_links(shapes: list[tuple[int, int]]) -> None:
    """Four decks (throws: the generic rule) against exhaustive arrangement, on hands
    where ♠2♠3 links, 主AA22 and ♦2233 can all form."""
    rng = random.Random(seed_of("level-constant generic", shapes))
    refused = linked = 0
    for _ in range(4):
        size = sum(w * n for w, n in shapes)
        order, lead, hand = region_case(rng, FOUR, shapes, rng.randint(size + 1, min(size + 3, 10)))
        linked += only_by_new_links(order, FOUR, hand)
        refused += check_every_play(order, lead, hand, FOUR, lambda s, o=order, le=lead: generic_quality(s, le, o))
    assert refused > 0 and linked > 0


LIST_LEADS = [("four-deck", [(2, 2)]), ("four-deck", [(2, 3)]), ("four-deck-cgc", [(2, 2)]), ("four-deck-cgc", [(3, 2)])]


@pytest.mark.parametrize(("name", "shapes"), LIST_LEADS, ids=lambda v: v if isinstance(v, str) else str(v))
def test_pattern_list_oracle_round_the_new_links(name: str, shapes: list[tuple[int, int]]) -> None:
    """The seeds' follow lists (seed 000 四副, seed 002) against brute force: the first step a
    choice can form, where ♠2♠2♠3♠3 now counts as a 2-pair tractor."""
    rules = preset(name)
    ladder = PATTERN_LISTS[name][Shape(*shapes[0])]
    rng = random.Random(seed_of("level-constant lists", name, shapes))
    refused = linked = 0
    for _ in range(8):
        size = shapes[0][0] * shapes[0][1]
        order, lead, hand = region_case(rng, rules, shapes, rng.randint(size + 1, size + 4))
        linked += only_by_new_links(order, rules, hand)
        refused += check_every_play(order, lead, hand, rules, lambda s, o=order: -list_step(s, ladder, o))
    assert refused > 0 and linked > 0


# --- tractors_through_level_cards -----------------------------------------------------------------

BOTZONE_LIKE = rules_from_json({"preset": "two-deck", "tractors_through_level_cards": False})
TEN_HEARTS = Trump(RANKS.index("10"), H)


@pytest.mark.parametrize(
    ("text", "tractor"),
    [
        ("SJ SJ BJ BJ", True),  # the one joker tractor left
        ("10H 10H SJ SJ", False),  # trump level card + small joker
        ("10S 10S 10H 10H", False),  # off-suit level + trump level
        ("AH AH 10S 10S", False),  # trump A + off-suit level
        ("KH KH AH AH", True),  # the trump suit's own ranks still chain
        ("9H 9H JH JH", True),  # over the level rank, removed from the suit
        ("9S 9S JS JS", True),  # a plain suit is untouched
    ],
)
def test_no_tractors_through_level_cards(text: str, tractor: bool) -> None:
    """The Botzone judge (docs/rules.md §3 ``tractors_through_level_cards`` off): level cards and
    jokers join no tractor but SJ-pair + BJ-pair; with the option on (seed 000) all of these chain."""
    assert is_tractor(cards(text), trump_order(TEN_HEARTS, BOTZONE_LIKE)) is tractor
    assert is_tractor(cards(text), trump_order(TEN_HEARTS, preset("two-deck")))


def test_no_tractors_through_level_cards_in_no_trump_and_with_constants() -> None:
    """In no-trump only the jokers chain; constant-rank cards (like level cards) stand alone, and
    ``level_constant_tractors`` then has no link to add."""
    order = trump_order(Trump(RANKS.index("10"), None), BOTZONE_LIKE)
    assert is_tractor(cards("SJ SJ BJ BJ"), order)
    assert not is_tractor(cards("10S 10S SJ SJ"), order)
    both = replace(FOUR, tractors_through_level_cards=False)
    order = trump_order(LEVEL_3_DIAMONDS, both)
    assert not is_tractor(cards("2S 2S 3S 3S"), order)
    assert not is_tractor(cards("AD AD 2D 2D"), order)
    assert is_tractor(cards("KD KD AD AD"), order)


def test_follow_and_kitty_without_tractors_through_level_cards() -> None:
    """Without the link, 10H10H SJSJ is two pairs: a follower owes pairs, not a tractor, and the
    kitty multiplier (power_of_two) counts a pair (4), not a 4-card tractor (16)."""
    order = trump_order(TEN_HEARTS, BOTZONE_LIKE)
    lead, hand = cards("10H 10H SJ SJ"), cards("3H 3H 4H 4H 7H 7H 9C")
    assert judge_follow(check_follow(lead, hand, cards("3H 3H 7H 7H"), order, BOTZONE_LIKE)).legal
    on = trump_order(TEN_HEARTS, preset("two-deck"))
    assert not judge_follow(check_follow(lead, hand, cards("3H 3H 7H 7H"), on, preset("two-deck"))).legal

    def multiplier(rules: object) -> int:
        return kitty_result(check_kitty(rules, TEN_HEARTS, 0, lead, 1, cards("5C KC"))).multiplier  # type: ignore[arg-type]

    assert (multiplier(BOTZONE_LIKE), multiplier(preset("two-deck"))) == (4, 16)


# --- 3. generated four-deck deals -----------------------------------------------------------------


def linked_units(cards_: Sequence[int], order: TrumpOrder, rules: Rules) -> list[Unit]:
    """The tractors of ``cards_``' trumps (their decomposition) that only the new links make."""
    off = trump_order(order.trump, replace(rules, level_constant_tractors=False))
    trumps = [c for c in cards_ if order.suit[c] == TRUMP]
    return [u for u in decompose(trumps, order) if u.length > 1 and not is_tractor(u.cards, off)] if trumps else []


def follow_quality(lead: list[int], order: TrumpOrder, rules: Rules):  # type: ignore[no-untyped-def]
    """The brute-force oracle's measure of a follow to ``lead`` (tests/test_follow_oracle.py): the
    seeds' list for a single listed unit, else the generic rule."""
    units = decompose(lead, order)
    if len(units) == 1:
        ladder = PATTERN_LISTS[rules.follow_patterns].get(Shape(units[0].width, units[0].length))
        if ladder is not None:
            return lambda s: -list_step(s, ladder, order)
    return lambda s: generic_quality(s, lead, order)


@dataclass
class Seen:
    """What the generated deals exercised: counts a test insists on."""

    follows: int = 0  # follows judged against the oracle in tricks with linked tractors
    refused: int = 0  # of the oracle's other choices, refused ones
    ruffs: int = 0  # linked tractors played over a plain-suit lead
    won: int = 0  # tricks a linked tractor won
    throws: int = 0  # throws holding a linked tractor, judged against brute force
    kitty: int = 0  # last leads holding one


def check_follows(order: TrumpOrder, rules: Rules, trick: TrickRecord, before: dict[int, list[int]],
                  rng: random.Random, seen: Seen) -> None:
    """Every follow the deal made, and a few other choices of the follower's suit cards, against the
    oracle: legal iff nothing else the hand could play matches the lead better (docs/rules.md §5)."""
    lead = list(trick.plays[0])
    suit = order.suit[lead[0]]
    quality = follow_quality(lead, order, rules)
    for i in range(1, 4):
        seat = (trick.leader + i) % 4
        hand = before[seat]
        suit_cards = [c for c in hand if order.suit[c] == suit]
        if len(suit_cards) <= len(lead) or len(suit_cards) > 14 or len(lead) > 6:
            continue  # the suit rule alone decides, or too many choices for brute force
        choices = subsets(suit_cards, len(lead))
        best = max(quality(s) for s in choices)
        for play in [tuple(sorted(trick.plays[i])), *rng.sample(choices, min(6, len(choices)))]:
            expect = quality(play) >= best
            seen.refused += not expect
            assert judge_follow(check_follow(lead, hand, list(play), order, rules)).legal is expect, (lead, hand, play)
        seen.follows += 1


def best_rank(cards_: Sequence[int], shape: tuple[int, int], order: TrumpOrder) -> int | None:
    """Brute force: the highest rank of a unit of ``shape`` that ``cards_`` (one effective suit) can
    form, each set of kinds asked of the decomposition."""
    width, length = shape
    held = sorted(k for k, c in Counter(cards_).items() if c >= width)
    ranks = [
        decompose([k for k in kinds for _ in range(width)], order)[0].rank
        for kinds in combinations(held, length)
        if length == 1 or is_tractor([k for k in kinds for _ in range(width)], order)
    ]
    return max(ranks, default=None)


def expected_winner(plays: list[list[int]], order: TrumpOrder, rules: Rules) -> int:
    """Over one 2-pair tractor led (docs/rules.md §6): the play (its index) with the highest 2-pair
    tractor, all of the led suit or all trumps over a plain suit (trumps above), the earliest on a
    tie; under ``wider_shape_beats`` a quad above every such tractor."""
    led = order.suit[plays[0][0]]
    ranks: list[tuple[int, int, int]] = []
    for i, play in enumerate(plays):
        suits = {order.suit[c] for c in play}
        if suits != {led} and suits != {TRUMP}:
            continue
        trumped = 2 if suits == {TRUMP} and led != TRUMP else 1
        quad = best_rank(play, (4, 1), order) if rules.wider_shape_beats else None
        tractor = best_rank(play, (2, 2), order)
        if quad is not None:
            ranks.append((trumped, 1 << 20 | quad, -i))
        elif tractor is not None:
            ranks.append((trumped, tractor, -i))
    return -max(ranks)[2]


@pytest.mark.parametrize("name", ["four-deck", "four-deck-cgc"])
def test_generated_deals_with_level_constant_tractors(name: str) -> None:
    """Deals of tests/deal.py under the four-deck presets: wherever a tractor only the new links
    make is led, followed, ruffed or thrown, the follow verdicts agree with brute force, the trick
    goes to the highest such tractor of a valid play, a throw holding one stands iff nobody holds a
    higher unit of one of its shapes, and a last lead holding one sets the kitty by its size."""
    rules = preset(name)
    rng = random.Random(seed_of("level-constant deals", name))
    seen = Seen()
    for seed in range(60):
        deal = play_hand(rules, seed_of(name, seed), level=rng.choice([r for r in range(13) if r != TWO]))
        order = trump_order(deal.trump, rules)
        for k, trick in enumerate(deal.tricks):
            plays = [list(p) for p in trick.plays]
            units = decompose(plays[0], order)
            ruffable = len(units) == 1 and units[0].shape == (2, 2) and order.suit[plays[0][0]] != TRUMP
            if not ruffable and not any(linked_units(p, order, rules) for p in plays) and not (
                trick.attempted_throw and linked_units(trick.attempted_throw, order, rules)
            ):
                continue
            before = remaining_before(deal, k)
            check_follows(order, rules, trick, before, rng, seen)
            result = resolve_trick(check_trick(trick.leader, plays, order, rules))
            if len(units) == 1 and units[0].shape == (2, 2):
                best = expected_winner(plays, order, rules)
                assert result.winner == (trick.leader + best) % 4, plays
                seen.won += bool(linked_units(plays[best], order, rules))
                if ruffable:
                    # a follower void in the led suit ruffs with a linked tractor of his instead
                    for i in range(1, 4):
                        hand = before[(trick.leader + i) % 4]
                        mine = linked_units(hand, order, rules)
                        if mine and all(order.suit[c] != order.suit[plays[0][0]] for c in hand):
                            ruffed = [*plays[:i], list(mine[0].cards[:4]), *plays[i + 1:]]
                            best = expected_winner(ruffed, order, rules)
                            got = resolve_trick(check_trick(trick.leader, ruffed, order, rules)).winner
                            assert got == (trick.leader + best) % 4, ruffed
                            seen.ruffs += 1
            if linked_units(plays[0], order, rules):
                # this lead as the last one: the kitty counts its largest unit, a linked tractor whole
                largest = max(decompose(plays[0], order), key=lambda u: (u.size, u.width))
                kitty = kitty_result(check_kitty(rules, deal.trump, deal.dealer, plays[0], (deal.dealer + 1) % 4,
                                                 deal.kitty, defender_points=100, won_with_trumps=True))
                assert kitty.multiplier == (largest.size if rules.kitty_multiplier == "transfer" else 2**largest.width)
                seen.kitty += 1
            if trick.attempted_throw or len(units) > 1:
                throw = list(trick.attempted_throw or plays[0])
                if linked_units(throw, order, rules):
                    others = {s: before[s] for s in range(4) if s != trick.leader}
                    suit = order.suit[throw[0]]
                    beaten = any(
                        (r := best_rank([c for c in hand if order.suit[c] == suit], u.shape, order)) is not None
                        and r > u.rank
                        for hand in others.values() for u in decompose(throw, order)
                    )
                    verdict = judge_throw(check_throw(trick.leader, throw, others, order, rules))
                    assert verdict.valid is not beaten
                    seen.throws += 1
    assert seen.follows > 5 and seen.refused > 0 and seen.won > 0, seen
    assert seen.ruffs > 0 and seen.throws > 0 and seen.kitty > 0, seen


def test_the_botzone_preset_sees_two_pairs_through_level_cards() -> None:
    """The Botzone judge (docs/rules.md §10 ``botzone``): 10H10H SJSJ playing 10 in hearts is two
    pairs, so its linear kitty multiplier is 2 × 2 = 4, where two-deck's adjacency (seed 000)
    makes it one 4-card tractor (2 × 4 = 8 under the same multiplier)."""
    botzone = preset("botzone")
    assert not botzone.tractors_through_level_cards
    lead = cards("10H 10H SJ SJ")
    assert shapes("10H 10H SJ SJ", trump_order(TEN_HEARTS, botzone)) == [(2, 1), (2, 1)]
    linear = replace(preset("two-deck"), kitty_multiplier=botzone.kitty_multiplier)

    def multiplier(rules: Rules) -> int:
        return kitty_result(check_kitty(rules, TEN_HEARTS, 0, lead, 1, cards("5C KC"))).multiplier

    assert (multiplier(botzone), multiplier(linear)) == (4, 8)


@pytest.mark.parametrize("shapes", [[(2, 2)], [(2, 2), (2, 1)], [(2, 2), (1, 1)]], ids=lambda s: "+".join(f"{w}x{n}" for w, n in s))
def test_classic_follow_oracle_without_tractors_through_level_cards(shapes: list[tuple[int, int]]) -> None:
    """Two decks with ``tractors_through_level_cards`` off: the classic rule against brute force on
    trumps crowded round the level cards and jokers (the generic programme's line breaks there)."""
    rng = random.Random(seed_of("botzone-like classic", shapes))
    refused = 0
    for _ in range(6):
        size = sum(w * n for w, n in shapes)
        order, lead, hand = region_case(rng, BOTZONE_LIKE, shapes, rng.randint(size + 1, size + 4))
        refused += check_every_play(order, lead, hand, BOTZONE_LIKE, lambda s, o=order, le=lead: classic_quality(s, le, o))
    assert refused > 0
