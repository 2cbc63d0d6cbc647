"""Brute-force oracles for the follow rule (docs/rules.md §5.2: "a play is legal iff no
other choice of n suit cards from the hand matches better").

Every play of the lead's size is enumerated from small random hands and the
engine's verdict is compared with the oracle's, which scores every choice of
cards by brute force straight from the rule text:

* classic, two decks (seeds 000/001/003): quality = (the lengths of the
  tractors placed inside the lead's tractors, longest first, compared
  lexicographically; then pairs up to the lead's);
* the seeds' pattern lists (three-deck, four-deck, four-deck-cgc): a choice is
  worth the first step it can form, optionally with protect_longer_tuples;
* the generic rule with three decks (a throw): (the tractors placed inside
  the lead's tractors, longest first — by cards, then width —, then tuples by
  width, widest first), one tuple per lead position.

The oracle shares nothing with ``engine.shapes``/``engine.follow`` but the
foundation: it recognises a tractor by asking ``engine.units.decompose``
whether a card set is one unit of the wanted shape, and enumerates everything.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import combinations
from typing import Any

import pytest

from engine.follow import check_follow, judge_follow
from engine.patterns import PATTERN_LISTS
from engine.rules import Rules, preset, rules_from_json
from engine.shapes import Shape
from engine.trump import TRUMP, Trump, TrumpOrder, trump_order
from engine.units import decompose

# --- brute-force building blocks ----------------------------------------------------------


def subsets(cards: list[int], n: int) -> list[tuple[int, ...]]:
    """Every distinct multiset of n cards out of ``cards``."""
    return sorted({tuple(sorted(c)) for c in combinations(cards, n)})


@cache
def is_shape(kinds: tuple[int, ...], width: int, order: TrumpOrder) -> bool:
    """Do ``width`` copies of each of ``kinds`` form exactly one unit of length
    len(kinds) (a tractor when len > 1)?  Asked of the foundation's decompose."""
    cards = [k for k in kinds for _ in range(width)]
    if len({order.suit[c] for c in cards}) != 1:
        return False
    units = decompose(cards, order)
    return len(units) == 1 and units[0].width == width and units[0].length == len(kinds)


def realisations(
    counts: Counter[int], shape: Shape, order: TrumpOrder, ok: object = None
) -> Iterator[tuple[int, ...]]:
    """Every set of kinds realising ``shape`` from ``counts``; ``ok(kind, width)``
    may forbid kinds (protect_longer_tuples)."""
    allowed = [k for k, c in counts.items() if c >= shape.width and (ok is None or ok(k, shape.width))]  # type: ignore[operator]
    for kinds in combinations(sorted(allowed), shape.length):
        if shape.length == 1 or is_shape(kinds, shape.width, order):
            yield kinds


def can_form(counts: Counter[int], pieces: list[Shape], order: TrumpOrder, ok: object = None) -> bool:
    """Brute force: try every realisation of every piece, in turn."""
    if not pieces:
        return True
    first, rest = pieces[0], pieces[1:]
    for kinds in realisations(counts, first, order, ok):
        left = counts.copy()
        for k in kinds:
            left[k] -= first.width
        if can_form(left, rest, order, ok):
            return True
    return False


# --- oracle 1: classic two-deck quality ---------------------------------------------------


def tractors_in(counts: Counter[int], order: TrumpOrder) -> list[tuple[int, ...]]:
    pairs = sorted(k for k, c in counts.items() if c >= 2)
    return [
        kinds for n in range(2, len(pairs) + 1) for kinds in combinations(pairs, n) if is_shape(kinds, 2, order)
    ]


def packable(lengths: list[int], slots: list[int]) -> bool:
    """Can tractors of ``lengths`` share the lead's tractors (capacities ``slots``)?"""
    if not lengths:
        return True
    head, rest = lengths[0], lengths[1:]
    for i, room in enumerate(slots):
        if room >= head:
            if packable(rest, slots[:i] + [room - head] + slots[i + 1 :]):
                return True
    return False


def classic_quality(
    play: tuple[int, ...], lead: list[int], order: TrumpOrder
) -> tuple[tuple[int, ...], int]:
    units = decompose(lead, order)
    slots = [u.length for u in units if u.length > 1]
    lead_pairs = sum(u.length for u in units if u.width == 2)
    counts = Counter(play)
    candidates = tractors_in(counts, order)
    best_t: tuple[int, ...] = ()

    def grow(start: int, used: set[int], lengths: list[int]) -> None:
        nonlocal best_t
        longest_first = tuple(sorted(lengths, reverse=True))
        if packable(list(longest_first), slots):
            best_t = max(best_t, longest_first)
        for i in range(start, len(candidates)):
            kinds = candidates[i]
            if used.isdisjoint(kinds):
                grow(i + 1, used | set(kinds), lengths + [len(kinds)])

    grow(0, set(), [])
    pairs = sum(1 for c in counts.values() if c >= 2)
    return best_t, min(pairs, lead_pairs)


# --- oracle 2: the pattern lists ----------------------------------------------------------


def list_step(
    play: tuple[int, ...], ladder: tuple, order: TrumpOrder, held: Counter[int] | None = None
) -> int:
    """First step of ``ladder`` that ``play`` can form (1-based).  ``held``:
    protect_longer_tuples, a kind only supplying a tuple of its held width."""
    counts = Counter(play)
    ok = None if held is None else (lambda k, w: held[k] == w)
    for k, step in enumerate(ladder, start=1):
        if any(can_form(counts, list(alt), order, ok) for alt in step):
            return k
    raise AssertionError("the last step is all singles")


# --- oracle 3: the generic rule, by exhaustive arrangement ---------------------------------


def generic_quality(
    play: tuple[int, ...], lead: list[int], order: TrumpOrder, held: Counter[int] | None = None
) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """Best (tractors, (N_W, ..., N_2)) over every arrangement, the tractors as
    (cards, width) longest first; ``held``: protect_longer_tuples, a kind
    supplying only tuples of its held width."""

    def ok(kind: int, width: int) -> bool:
        return held is None or held[kind] == width

    units = decompose(lead, order)
    slots = [(u.width, u.length) for u in units if u.length > 1]
    tuples = [u.width for u in units if u.length == 1 and u.width > 1]
    top = max([w for w, _ in slots] + tuples + [1])
    if top < 2:
        return (), ()
    best: tuple[tuple[tuple[int, int], ...], tuple[int, ...]] = ((), (0,) * (top - 1))
    pieces: list[tuple[int, int]] = []

    def tuple_part(counts: Counter[int], positions: list[int], score: list[int]) -> None:
        nonlocal best
        if not positions:
            best = max(best, (tuple(sorted(pieces, reverse=True)), tuple(score[1:])))
            return
        p, rest = positions[0], positions[1:]
        tuple_part(counts, rest, score)  # leave the position empty
        for kind, c in list(counts.items()):
            for v in range(2, min(p, c) + 1):
                if not ok(kind, v):
                    continue
                counts[kind] -= v
                score[1 + top - v] += 1
                tuple_part(counts, rest, score)
                score[1 + top - v] -= 1
                counts[kind] += v

    def tractor_part(counts: Counter[int], room: list[int], score: list[int]) -> None:
        free = [w for (w, _), r in zip(slots, room, strict=True) for _ in range(r)] + tuples
        tuple_part(counts, free, score)
        for s, (w, _) in enumerate(slots):
            for m in range(2, room[s] + 1):
                for v in range(2, w + 1):
                    for kinds in realisations(counts, Shape(v, m), order, ok):
                        for k in kinds:
                            counts[k] -= v
                        room[s] -= m
                        pieces.append((v * m, v))
                        score[1 + top - v] += m
                        tractor_part(counts, room, score)
                        pieces.pop()
                        score[1 + top - v] -= m
                        room[s] += m
                        for k in kinds:
                            counts[k] += v

    tractor_part(Counter(play), [n for _, n in slots], [0] * top)
    return best


# --- random deals ---------------------------------------------------------------------------


def suit_kinds(order: TrumpOrder, suit: int) -> list[int]:
    return [k for k in range(54) if order.suit[k] == suit]


def random_case(rng: random.Random, rules: Rules, lead_shapes: list[tuple[int, int]], suit_cards: int):
    """A trump, a lead built from ``lead_shapes`` (width, length) in one suit,
    and a hand with ``suit_cards`` cards of it (rich in tuples) + a few others."""
    decks = rules.decks
    for _ in range(1000):
        level = rng.randrange(13)
        tsuit = rng.choice([None, 0, 1, 2, 3])
        order = trump_order(Trump(level, tsuit), rules)
        suit = rng.choice([TRUMP, 0, 1, 2, 3])
        kinds = suit_kinds(order, suit)
        if len(kinds) < 6:
            continue
        used: Counter[int] = Counter()
        lead: list[int] = []
        ok = True
        for width, length in lead_shapes:
            if length == 1:
                choices = [k for k in kinds if used[k] + width <= decks]
                if not choices:
                    ok = False
                    break
                k = rng.choice(choices)
                lead += [k] * width
                used[k] += width
            else:
                runs = [
                    combo for combo in combinations(sorted(kinds, key=lambda k: order.power[k]), length)
                    if all(used[k] + width <= decks for k in combo) and is_shape(combo, width, order)
                ]
                if not runs:
                    ok = False
                    break
                combo = rng.choice(runs)
                lead += [k for k in combo for _ in range(width)]
                used.update({k: width for k in combo})
        if not ok or len({order.suit[c] for c in lead}) != 1:
            continue
        # the lead must decompose into the shapes asked for (else the case is elsewhere)
        got = sorted((u.width, u.length) for u in decompose(lead, order))
        if got != sorted(lead_shapes):
            continue
        hand: list[int] = []
        ranked = sorted(kinds, key=lambda k: (order.power[k], k))
        start = rng.randrange(len(ranked))
        window = ranked[start : start + rng.randint(4, 7)]  # neighbours: tractors are likely
        while len(hand) < suit_cards:
            k = rng.choice(window)
            chunk = min(rng.choice([1, 2, 2, 2, 3, 4]), decks - used[k], suit_cards - len(hand))
            if chunk > 0:
                used[k] += chunk
                hand += [k] * chunk
            elif all(used[x] >= decks for x in window):
                spare = [x for x in kinds if used[x] < decks and x not in window]
                if not spare:
                    break
                window.append(rng.choice(spare))
        others = [k for k in range(54) if order.suit[k] != suit]
        hand += rng.sample(others, max(rng.randint(0, 2), len(lead) - len(hand)))
        return order, lead, hand
    raise AssertionError("no case")


def check_every_play(order, lead, hand, rules, quality, hand_quality=None) -> int:
    """Compare the engine with the oracle on every play; return how many plays
    had enough suit cards yet were refused on structure (so a test can insist
    that its cases exercised the structure rule at all)."""
    n = len(lead)
    suit = order.suit[lead[0]]
    suit_cards = [c for c in hand if order.suit[c] == suit]
    owed = min(n, len(suit_cards))
    best = None
    if len(suit_cards) > n:
        best = max((hand_quality or quality)(s) for s in subsets(suit_cards, n))
    refused = 0
    for play in subsets(hand, n):
        in_suit = tuple(sorted(c for c in play if order.suit[c] == suit))
        if len(in_suit) < owed:
            expect = False
        elif best is None:
            expect = True
        else:
            expect = quality(in_suit) >= best
            refused += not expect
        verdict = judge_follow(check_follow(lead, hand, list(play), order, rules))
        assert verdict.legal is expect, (lead, hand, play, verdict.required, verdict.reached)
    example = judge_follow(check_follow(lead, hand, None, order, rules)).example
    assert judge_follow(check_follow(lead, hand, list(example), order, rules)).legal is True
    return refused


# --- the tests ------------------------------------------------------------------------------


def seed_of(*parts: object) -> int:
    """A stable seed per case (str hashes vary between runs; crc32 does not)."""
    return zlib.crc32(repr(parts).encode())


TWO_DECK_LEADS = [
    [(2, 1)],
    [(2, 2)],
    [(2, 3)],
    [(2, 2), (1, 1)],
    [(2, 1), (2, 1)],
    [(2, 2), (2, 1)],
    [(2, 1), (1, 1), (1, 1)],
    [(2, 2), (2, 2)],
    [(2, 4)],
    [(2, 5)],
    [(2, 3), (2, 2)],
]


@pytest.mark.parametrize("ace_low", [False, True], ids=["", "ace-low"])
@pytest.mark.parametrize("shapes", TWO_DECK_LEADS, ids=lambda s: "+".join(f"{w}x{n}" for w, n in s))
def test_classic_two_deck_oracle(shapes: list[tuple[int, int]], ace_low: bool) -> None:
    """Seeds 000/001/003 classic rule against brute force, 5 random hands per lead
    shape; also with ace_low_tractor (seed 002 AA2233)."""
    rules = rules_from_json({"preset": "two-deck", "ace_low_tractor": ace_low})
    rng = random.Random(seed_of("classic", shapes, ace_low))
    refused = 0
    size = sum(w * n for w, n in shapes)
    for _ in range(5):
        order, lead, hand = random_case(rng, rules, shapes, rng.randint(6, 10) if size < 10 else size + rng.randint(1, 3))
        refused += check_every_play(order, lead, hand, rules, lambda s, o=order, le=lead: classic_quality(s, le, o))
    assert refused > 0, "the random hands never exercised the structure rule"


def test_classic_oracle_agrees_with_the_seed_example() -> None:
    """The oracle itself: lead 334455 vs 6677 QQ 99 (seed 002 三连拖 → 连拖+1对)."""
    rules = preset("two-deck")
    order = trump_order(Trump(0, 0), rules)
    def c(text: str) -> list[int]:
        from engine.cards import parse_card

        return [parse_card(t) for t in text.split()]

    lead = c("3H 3H 4H 4H 5H 5H")
    assert classic_quality(tuple(c("6H 6H 7H 7H QH QH")), lead, order) == ((2,), 3)
    assert classic_quality(tuple(c("6H 6H 7H 7H 8H 9H")), lead, order) == ((2,), 2)
    assert classic_quality(tuple(c("6H 6H 9H 9H QH QH")), lead, order) == ((), 3)


def test_classic_oracle_puts_the_longest_tractor_first() -> None:
    """The oracle itself: against a 4-pair tractor, a 3-pair tractor + a pair beats two
    2-pair tractors (docs/rules.md §5; seed 000 四副 "1连3+1对子" before "1连对+两对子")."""
    rules = preset("two-deck")
    order = trump_order(Trump(0, 0), rules)
    lead = _c("3H 3H 4H 4H 5H 5H 6H 6H")
    assert classic_quality(tuple(_c("7H 7H 8H 8H 9H 9H QH QH")), lead, order) == ((3,), 4)
    assert classic_quality(tuple(_c("7H 7H 8H 8H JH JH QH QH")), lead, order) == ((2, 2), 4)
    assert classic_quality(tuple(_c("7H 7H 8H 8H 9H 9H QH QH")), lead, order) > classic_quality(
        tuple(_c("7H 7H 8H 8H JH JH QH QH")), lead, order
    )


LIST_CASES = [
    ("three-deck", [(3, 2)]),
    ("three-deck", [(3, 1)]),
    ("four-deck", [(2, 2)]),
    ("four-deck", [(4, 1)]),
    ("four-deck", [(2, 3)]),
    ("four-deck", [(3, 2)]),
    ("four-deck", [(2, 4)]),
    ("four-deck", [(4, 2)]),
    ("four-deck-cgc", [(2, 2)]),
    ("four-deck-cgc", [(4, 1)]),
    ("four-deck-cgc", [(2, 3)]),
    ("four-deck-cgc", [(3, 2)]),
    ("four-deck-cgc", [(4, 2)]),
]


@pytest.mark.parametrize("protect", [False, True], ids=["plain", "protect"])
@pytest.mark.parametrize(("name", "shapes"), LIST_CASES, ids=lambda v: v if isinstance(v, str) else str(v))
def test_pattern_list_oracle(name: str, shapes: list[tuple[int, int]], protect: bool) -> None:
    """The seeds' lists against brute force, 6 random hands per lead shape;
    with protect_longer_tuples, what the hand could form counts a kind only
    for a tuple of exactly its held width."""
    rules = rules_from_json({"preset": name, "protect_longer_tuples": protect})
    ladder = PATTERN_LISTS[name][Shape(*shapes[0])]
    rng = random.Random(seed_of(name, shapes, protect))
    refused = 0
    for _ in range(6):
        size = shapes[0][0] * shapes[0][1]
        order, lead, hand = random_case(rng, rules, shapes, rng.randint(size + 1, size + 4))
        suit = order.suit[lead[0]]
        held = Counter(c for c in hand if order.suit[c] == suit) if protect else None
        refused += check_every_play(
            order, lead, hand, rules,
            lambda s, o=order: -list_step(s, ladder, o),
            hand_quality=lambda s, o=order, h=held: -list_step(s, ladder, o, h),
        )
    assert refused > 0, "the random hands never exercised the structure rule"


GENERIC_CASES = [
    ("three-deck", [(3, 1), (2, 1)]),
    ("three-deck", [(2, 2), (3, 1)]),
    ("three-deck", [(3, 2), (1, 1)]),
    ("four-deck", [(4, 1), (2, 1)]),
    ("four-deck", [(3, 1)]),
    ("classic-3", [(3, 1), (1, 1)]),
]


@pytest.mark.parametrize(("name", "shapes"), GENERIC_CASES, ids=lambda v: v if isinstance(v, str) else str(v))
def test_generic_rule_oracle(name: str, shapes: list[tuple[int, int]]) -> None:
    """The generic rule (throws, unlisted shapes, classic with 3 decks) against
    exhaustive arrangement, 3 random hands per lead."""
    if name == "classic-3":
        rules = rules_from_json({"preset": "two-deck", "decks": 3, "kitty_size": 6})
    else:
        rules = preset(name)
    rng = random.Random(seed_of(name, shapes))
    refused = 0
    for _ in range(3):
        size = sum(w * n for w, n in shapes)
        order, lead, hand = random_case(rng, rules, shapes, rng.randint(size + 1, min(size + 4, 9)))
        refused += check_every_play(order, lead, hand, rules, lambda s, o=order, le=lead: generic_quality(s, le, o))
    assert refused > 0, "the random hands never exercised the structure rule"


def _c(text: str) -> list[int]:
    from engine.cards import parse_card

    return [parse_card(t) for t in text.split()]


CRAFTED = [
    # two disjoint 2-pair tractors both fit inside a 4-pair tractor lead (docs/rules.md §5)
    ("two-deck", (0, 0), "3H 3H 4H 4H 5H 5H 6H 6H", "7H 7H 8H 8H JH JH QH QH AH AH 5C", "classic"),
    # longest first (seed 000 四副 "1连3+1对子" before "1连对+两对子"): against a 4-pair tractor
    # the 3-pair tractor 7788 99 + a pair is owed, not the two 2-pair tractors JJQQ + KKAA
    ("two-deck", (0, 0), "3H 3H 4H 4H 5H 5H 6H 6H", "7H 7H 8H 8H 9H 9H JH JH QH QH KH KH AH AH 5C", "classic"),
    # two lead tractors (3 and 2): 667788 fills the 3-pair one and KKAA the 2-pair one; plays
    # of two 2-pair tractors (6677 + KKAA) fall short at the longest
    ("two-deck", (0, 0), "3H 3H 4H 4H 5H 5H 9H 9H 10H 10H", "6H 6H 7H 7H 8H 8H JH JH KH KH AH AH 2C", "classic"),
    # a 3-pair tractor and a 2-pair tractor lead against two 3-pair runs: a 3-pair and a 2-pair tractor
    ("two-deck", (0, 0), "3H 3H 4H 4H 5H 5H 9H 9H 10H 10H",
     "6H 6H 7H 7H 8H 8H JH JH QH QH KH KH 2C", "classic"),
    # tractors through the level cards and jokers (seed 000): trump pairs BJ SJ AH(level) AS(level) KH
    ("two-deck", (12, 1), "3H 3H 4H 4H 5H 5H",
     "BJ BJ SJ SJ AH AH AS AS KH KH QH 2C", "classic"),
    # a triple + two pairs thrown in four decks against a quad and a triple: the triple serves
    # as the triple and the quad gives both pairs (tightest fit), so 999 + QQ + ... is refused
    ("four-deck", (6, 0), "7H 7H 7H 5H 5H 3H 3H", "9H 9H 9H 9H QH QH QH 4H 6C", "generic"),
    # ace_low_tractor (seed 002 AA2233): AA2233 is the longest tractor the hand holds
    ("two-deck+acelow", (8, 1), "5S 5S 6S 6S 7S 7S", "KS KS AS AS 2S 2S 3S 3S 9D", "classic"),
    # the generic rule with four decks, longest first too: 778899 + JJ before JJQQ + KKAA
    ("four-classic", (0, 0), "3H 3H 4H 4H 5H 5H 6H 6H", "7H 7H 8H 8H 9H 9H JH JH QH QH KH KH AH AH 5C", "generic"),
    # ace_low_tractor with four decks: the four aces split between KKAA and AA22
    ("four-classic+acelow", (8, 1), "5S 5S 6S 6S 7S 7S 8S 8S", "KS KS AS AS AS AS 2S 2S 9S 9S 9D", "generic"),
    # protect_longer_tuples: the hand's quad supplies no triple or pair, so QQQ + 44 is what it owes
    ("four-deck+protect", (6, 0), "7H 7H 7H 5H 5H", "9H 9H 9H 9H QH QH QH 4H 4H 6H 6C", "generic"),
]


@pytest.mark.parametrize(("name", "trump", "lead", "hand", "kind"), CRAFTED)
def test_oracle_on_crafted_hands(name: str, trump: tuple[int, int], lead: str, hand: str, kind: str) -> None:
    base, _, extra = name.partition("+")
    spec: dict[str, Any] = {"preset": base, "protect_longer_tuples": extra == "protect"}
    if base == "four-classic":
        spec = {"preset": "two-deck", "decks": 4, "kitty_size": 8}
    if extra == "acelow":
        spec["ace_low_tractor"] = True
    rules = rules_from_json(spec)
    order = trump_order(Trump(*trump), rules)
    lead_cards, hand_cards = _c(lead), _c(hand)
    suit = order.suit[lead_cards[0]]
    if kind == "classic":
        def quality(s: tuple[int, ...]) -> tuple[int, ...]:
            return classic_quality(s, lead_cards, order)
        hand_quality = None
    else:
        def quality(s: tuple[int, ...]) -> tuple[int, ...]:
            return generic_quality(s, lead_cards, order)
        held = Counter(c for c in hand_cards if order.suit[c] == suit)
        hand_quality = None if extra != "protect" else (lambda s: generic_quality(s, lead_cards, order, held))
    refused = check_every_play(order, lead_cards, hand_cards, rules, quality, hand_quality)
    assert refused > 0
