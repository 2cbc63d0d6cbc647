"""A small deal generator: random legal hands of Tractor for 1 to 4 decks.

Deals the decks, then plays every trick with the engine itself: the leader
leads a random unit of a random suit (now and then a throw that the engine
says stands), and every follower plays the engine's own ``example`` follow.
The result is a complete, legal hand record for the auditor to replay.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.audit import TrickRecord
from engine.cards import KINDS, card_str
from engine.follow import check_follow, judge_follow
from engine.rules import Rules
from engine.throw import check_throw, judge_throw
from engine.trick import check_trick, resolve_trick
from engine.trump import Trump, TrumpOrder, trump_order
from engine.units import decompose


@dataclass(frozen=True)
class Deal:
    rules: Rules
    trump: Trump
    dealer: int
    hands: dict[int, list[int]]
    kitty: list[int]
    tricks: list[TrickRecord]


def deal_cards(rules: Rules, rng: random.Random) -> tuple[dict[int, list[int]], list[int]]:
    deck = [k for k in range(KINDS) for _ in range(rules.decks)]
    rng.shuffle(deck)
    kitty, rest = deck[: rules.kitty_size], deck[rules.kitty_size:]
    n = rules.hand_size
    return {s: sorted(rest[s * n:(s + 1) * n]) for s in range(4)}, sorted(kitty)


def choose_lead(hand: list[int], others: dict[int, list[int]], leader: int, order: TrumpOrder,
                rules: Rules, rng: random.Random) -> tuple[list[int], list[int] | None]:
    """A lead, and the failed throw it replaces (None when there was none).

    A random unit of a random suit; now and then a throw of two or three
    units: played whole when the engine says it stands, else replaced by the
    engine's forced play (and recorded as the attempt); a throw the rules
    refuse outright (``throw_when_others_void``) becomes a single unit.
    """
    suits = sorted({order.suit[c] for c in hand})
    suit = rng.choice(suits)
    units = decompose([c for c in hand if order.suit[c] == suit], order)
    if len(units) > 1 and rng.random() < 0.3:
        chosen = rng.sample(list(units), rng.randint(2, min(3, len(units))))
        throw = [c for u in chosen for c in u.cards]
        verdict = judge_throw(check_throw(leader, throw, others, order, rules))
        if verdict.valid:
            return throw, None
        if verdict.refused:  # throw_when_others_void: refused, not forced; lead a single unit instead
            return list(rng.choice(units).cards), None
        if rng.random() < 0.5:
            return list(verdict.forced_play), throw
    return list(rng.choice(units).cards), None


def play_hand(rules: Rules, seed: int, level: int | None = None) -> Deal:
    rng = random.Random(seed)
    trump = Trump(level if level is not None else rng.randrange(13), rng.choice([None, 0, 1, 2, 3]))
    order = trump_order(trump, rules)
    hands, kitty = deal_cards(rules, rng)
    dealer = rng.randrange(4)
    remaining = {s: list(h) for s, h in hands.items()}
    tricks: list[TrickRecord] = []
    leader = dealer
    while remaining[leader]:
        others = {s: remaining[s] for s in range(4) if s != leader}
        lead, attempted = choose_lead(remaining[leader], others, leader, order, rules, rng)
        plays = [lead]
        for i in range(1, 4):
            seat = (leader + i) % 4
            plays.append(list(judge_follow(check_follow(lead, remaining[seat], None, order, rules)).example))
        result = resolve_trick(check_trick(leader, plays, order, rules))
        for i, play in enumerate(plays):
            seat = (leader + i) % 4
            left = Counter(remaining[seat]) - Counter(play)
            remaining[seat] = sorted(left.elements())
        tricks.append(TrickRecord(leader, tuple(tuple(p) for p in plays),
                                  None if attempted is None else tuple(attempted)))
        leader = result.winner
    return Deal(rules, trump, dealer, hands, kitty, tricks)


def hand_body(deal: Deal, tricks: Sequence[TrickRecord] | None = None,
              levels: tuple[str, str] = ("2", "2")) -> dict[str, Any]:
    """The deal as a ``POST /v1/hand`` body (a record for ``tractor-referee audit``),
    with ``tricks`` in place of its own when given; strict."""
    def names(cards: Sequence[int]) -> list[str]:
        return [card_str(c) for c in cards]

    return {
        "rules": deal.rules.preset, "trump": deal.trump.as_json(), "dealer": deal.dealer,
        "levels": {"A": levels[0], "B": levels[1]},
        "hands": {str(s): names(h) for s, h in deal.hands.items()},
        "kitty": names(deal.kitty),
        "tricks": [
            {"leader": t.leader, "plays": [names(p) for p in t.plays]}
            | ({} if t.attempted_throw is None else {"attempted_throw": names(t.attempted_throw)})
            for t in (deal.tricks if tricks is None else tricks)
        ],
        "strict": True,
    }


def remaining_before(deal: Deal, k: int) -> dict[int, list[int]]:
    """Each seat's hand before trick ``k`` of the generated record."""
    left = {s: Counter(h) for s, h in deal.hands.items()}
    for t in deal.tricks[:k]:
        for i, play in enumerate(t.plays):
            left[(t.leader + i) % 4] -= Counter(play)
    return {s: sorted(c.elements()) for s, c in left.items()}


def illegal_follow(deal: Deal) -> tuple[int, int, list[TrickRecord]]:
    """The deal's tricks with one illegal follow injected: (trick, seat, tricks).

    The first follow of the led suit whose seat held a card of another suit
    it could have kept: that card replaces the play's first card.
    """
    order = trump_order(deal.trump, deal.rules)
    for k, t in enumerate(deal.tricks):
        before = remaining_before(deal, k)
        led = order.suit[t.plays[0][0]]
        for i in range(1, 4):
            seat = (t.leader + i) % 4
            play = t.plays[i]
            if not all(order.suit[c] == led for c in play):
                continue
            spare = [c for c in (Counter(before[seat]) - Counter(play)).elements() if order.suit[c] != led]
            if spare:
                plays = list(t.plays)
                plays[i] = (spare[0], *play[1:])
                tricks = list(deal.tricks)
                tricks[k] = replace(t, plays=tuple(plays))
                return k, seat, tricks
    raise AssertionError("no follow to corrupt")  # pragma: no cover
