"""Realistic request bodies for the HTTP benchmark, one or two per endpoint.

Hands are dealt from a fixed seed (the same bodies on every run), around the
cards a case needs: a tractor lead and the follower's holding of the led suit.
Follows and trick plays are real plays (the engine's own example follow where
a play must be legal), so the engine does the work of a real table.

``BODIES`` maps a label to ``(path, body)``; bench/load.py loads every one.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine.cards import KINDS, card_str, parse_card

Body = dict[str, Any]


def _cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def _strs(cards: list[int]) -> list[str]:
    return [card_str(c) for c in cards]


def _deal(seed: int, decks: int, fixed: list[list[int]], sizes: list[int], avoid: int | None = None) -> list[list[int]]:
    """Hands of ``sizes`` cards, hand i holding ``fixed[i]`` plus cards dealt at
    random (seeded) from what the decks have left, none of the printed suit
    ``avoid`` (so a case's holding of the led suit is exactly what it says)."""
    pack = Counter({k: decks for k in range(KINDS)})
    for cards in fixed:
        pack.subtract(cards)
    assert min(pack.values()) >= 0, "a case uses more copies than the decks hold"
    rest = [c for c in sorted(pack.elements()) if avoid is None or c >= 52 or c // 13 != avoid]
    random.Random(seed).shuffle(rest)
    hands = []
    for cards, size in zip(fixed, sizes, strict=True):
        take = size - len(cards)
        hands.append(cards + rest[:take])
        rest = rest[take:]
    return hands


# --- /v1/follow --------------------------------------------------------------------------------

# Two decks, playing 5 with hearts trump: a 2-pair tractor 9S9S 10S10S led; the
# follower's 25 cards hold a pair and three more spades (a pair must follow).
FOLLOW_2_LEAD = "9S 9S 10S 10S"
FOLLOW_2_HAND, = _deal(25, 2, [_cards("KS KS 7S 4S 3S JH JH 5C 5C QD")], [25], avoid=0)

# Four decks (four-deck-cgc, 52-card hands), playing 3 with clubs trump: a
# 2-pair x 4 tractor 6S..9S led (8 cards); the follower holds a triple, pairs
# and singles of spades.
FOLLOW_4_LEAD = "6S 6S 7S 7S 8S 8S 9S 9S"
FOLLOW_4_HAND, = _deal(52, 4, [_cards("AS AS AS QS QS JS JS 10S 5S 5S 4S 2S KH KH KH")], [52], avoid=0)

# --- /v1/throw ---------------------------------------------------------------------------------

# Four decks, playing 5 with hearts trump: AAA KKK 99 44 7 6 of spades (five
# units) thrown against three 52-card hands (as bench/engine.py's throw rows).
THROW_LEAD = "AS AS AS KS KS KS 9S 9S 4S 4S 7S 6S"
THROW_HANDS = _deal(12, 4, [[], [], [], _cards(THROW_LEAD)], [52, 52, 52, 12])[:3]

# --- /v1/trick ---------------------------------------------------------------------------------

# Two decks, playing 10 with hearts trump: seat 1 leads a tractor 7D7D 8D8D;
# seat 2 follows with a pair and two singles, seat 3 ruffs with a trump
# tractor, seat 0 discards.  With the four hands (25 cards) every follow is judged.
TRICK_PLAYS = ["7D 7D 8D 8D", "QD QD 3D 5D", "JH JH QH QH", "4S 5C 6C 9C"]
TRICK_HANDS = _deal(
    10, 2,
    [_cards("4S 5C 6C 9C"), _cards("7D 7D 8D 8D"), _cards("QD QD 3D 5D"), _cards("JH JH QH QH")],
    [25, 25, 25, 25], avoid=3,
)


def _hand_body(preset_name: str, seed: int) -> Body:
    """A whole legal hand from the test suite's deal generator (tests/deal.py)."""
    from engine.rules import preset
    from tests.deal import hand_body, play_hand

    return hand_body(play_hand(preset(preset_name), seed), levels=("5", "7"))


HAND_2 = _hand_body("two-deck", 3)
HAND_4 = _hand_body("four-deck", 3)


BODIES: dict[str, tuple[str, Body]] = {
    "POST /v1/analyze (two-deck throw)": (
        "/v1/analyze",
        {"rules": "two-deck", "trump": {"level": "10", "suit": "H"},
         "cards": ["10H", "10H", "10S", "10S", "AH", "AH", "BJ", "KH", "QH", "QH"]},
    ),
    "POST /v1/follow (two-deck, 25-card hand)": (
        "/v1/follow",
        {"rules": "two-deck", "trump": {"level": "5", "suit": "H"},
         "lead": FOLLOW_2_LEAD.split(), "hand": _strs(FOLLOW_2_HAND),
         "play": ["KS", "KS", "7S", "4S"]},
    ),
    "POST /v1/follow (four-deck, 52-card hand)": (
        "/v1/follow",
        {"rules": "four-deck-cgc", "trump": {"level": "3", "suit": "C"},
         "lead": FOLLOW_4_LEAD.split(), "hand": _strs(FOLLOW_4_HAND),
         "play": ["AS", "AS", "QS", "QS", "JS", "JS", "5S", "5S"]},
    ),
    "POST /v1/trick (two-deck, with hands)": (
        "/v1/trick",
        {"rules": "two-deck", "trump": {"level": "10", "suit": "H"}, "leader": 1,
         "plays": [p.split() for p in TRICK_PLAYS], "hands": {str(s): _strs(h) for s, h in enumerate(TRICK_HANDS)}},
    ),
    "POST /v1/throw (four-deck, 12 cards)": (
        "/v1/throw",
        {"rules": "four-deck", "trump": {"level": "5", "suit": "H"}, "leader": 0,
         "lead": THROW_LEAD.split(),
         "hands": {str(s + 1): _strs(h) for s, h in enumerate(THROW_HANDS)}},
    ),
    # two decks, playing 10 with hearts trump: seat 3 (a defender) ruffs the last trick's
    # pair of clubs and digs a 25-point kitty
    "POST /v1/kitty (last trick)": (
        "/v1/kitty",
        {"rules": "two-deck", "trump": {"level": "10", "suit": "H"}, "dealer": 0,
         "kitty": ["KS", "10D", "5C", "3C", "4D", "6S", "7S", "8C"],
         "last_trick": {"leader": 1, "plays": [["AC", "AC"], ["3C", "4C"], ["2H", "2H"], ["9C", "JC"]]}},
    ),
    "POST /v1/settle": (
        "/v1/settle",
        {"rules": "two-deck", "dealer": 0, "defender_points": 85, "levels": {"A": "5", "B": "7"}},
    ),
    "POST /v1/bid (overcall with a pair)": (
        "/v1/bid",
        {"rules": "two-deck", "trump": {"level": "10"}, "standing": {"seat": 0, "cards": ["10H"]},
         "bid": {"seat": 1, "cards": ["10S", "10S"]}},
    ),
    "POST /v1/bid/resolve (four bids)": (
        "/v1/bid/resolve",
        {"rules": "two-deck", "trump": {"level": "10"},
         "bids": [{"seat": 0, "cards": ["10H"]}, {"seat": 1, "cards": ["10S", "10S"]},
                  {"seat": 2, "cards": ["10C"]}, {"seat": 3, "cards": ["SJ", "SJ"]}],
         "kitty": ["3S", "4S", "5H", "6H", "7C", "8C", "9D", "JD"]},
    ),
    "POST /v1/hand (two-deck, whole hand)": ("/v1/hand", HAND_2),
}


# --- varied bodies: a different hand on every request ---------------------------------------
#
# A platform asks about a new hand on almost every call, so the engine's
# per-hand caches (decompositions, arrangements, obligations) rarely help it.
# ``varied(path, count)`` gives ``count`` bodies of one endpoint's kind, each
# another moment of another deal, for bench/load.py --vary (which sends each
# at most once per run, so no request finds its hand in a cache): trick, follow
# and kitty bodies are real moments of whole hands played by tests/deal.py
# (the hands before a trick and its plays; a kitty body is a trick of a deal
# with that deal's kitty), throw bodies the 12-card throw above against
# freshly dealt hands.


def _moments(preset_name: str, count: int, first_seed: int) -> list[tuple[Any, int, list[list[int]], dict[int, list[int]]]]:
    """(deal, leader, plays, hands before the trick) for ``count`` tricks of
    the hands dealt from ``first_seed`` on, every trick of a hand in turn."""
    from engine.rules import preset
    from tests.deal import play_hand

    out: list[tuple[Any, int, list[list[int]], dict[int, list[int]]]] = []
    seed = first_seed
    while len(out) < count:
        deal = play_hand(preset(preset_name), seed)
        seed += 1
        hands = {s: list(h) for s, h in deal.hands.items()}
        for t in deal.tricks:
            plays = [list(p) for p in t.plays]
            out.append((deal, t.leader, plays, {s: list(h) for s, h in hands.items()}))
            for i, play in enumerate(plays):
                seat = (t.leader + i) % 4
                hands[seat] = sorted((Counter(hands[seat]) - Counter(play)).elements())
    return out[:count]


def varied(path: str, count: int = 64, seed: int = 7) -> list[Body]:
    """``count`` bodies for ``path``, each from a different trick or deal."""
    rng = random.Random(seed)
    if path == "/v1/trick":
        return [
            {"rules": "two-deck", "trump": d.trump.as_json(), "leader": leader,
             "plays": [_strs(p) for p in plays], "hands": {str(s): _strs(h) for s, h in hands.items()}}
            for d, leader, plays, hands in _moments("two-deck", count, 1000)
        ]
    if path == "/v1/follow":  # four decks: each trick's three follows are three bodies
        name = "four-deck-cgc"
        bodies = []
        for d, leader, plays, hands in _moments(name, (count + 2) // 3, 2000):
            for i in (1, 2, 3):
                bodies.append({"rules": name, "trump": d.trump.as_json(), "lead": _strs(plays[0]),
                               "hand": _strs(hands[(leader + i) % 4]), "play": _strs(plays[i])})
        return bodies[:count]
    if path == "/v1/kitty":
        return [
            {"rules": "two-deck", "trump": d.trump.as_json(), "dealer": d.dealer, "kitty": _strs(d.kitty),
             "last_trick": {"leader": leader, "plays": [_strs(p) for p in plays]}}
            for d, leader, plays, _ in _moments("two-deck", count, 3000)
        ]
    if path == "/v1/throw":
        pack = [k for k in range(KINDS) for _ in range(4)]
        for card in _cards(THROW_LEAD):
            pack.remove(card)
        bodies = []
        for _ in range(count):
            rng.shuffle(pack)
            bodies.append({"rules": "four-deck", "trump": {"level": "5", "suit": "H"}, "leader": 0,
                           "lead": THROW_LEAD.split(),
                           "hands": {str(s): _strs(pack[(s - 1) * 52 : s * 52]) for s in (1, 2, 3)}})
        return bodies
    raise KeyError(f"no varied bodies for {path}")
