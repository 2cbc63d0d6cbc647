"""Engine-only timings: python bench/engine.py [--runs N] [--seed S] [--only NAME].

One function per measured operation (``follow_check``, ``trick_resolution``,
``throw_check``, ``hand_audit``; others add theirs to ``SECTIONS``), each returning table rows;
``main`` prints the table.  Every timed call gets a fresh random deal, and the engine's
per-hand caches are cleared before it, so the figures are for a hand the
engine has never seen (trump orders and suit layouts stay warm, as in a
running service).  Figures are microseconds per call: median, 90th and 99th
percentiles, maximum.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

try:  # python bench/X.py: bench/ is sys.path[0], and this checkout's helper is there
    from _checkout import ROOT  # noqa: F401
except ModuleNotFoundError:  # python -m bench.X, or imported: the working directory is first
    from bench._checkout import ROOT  # noqa: F401

from engine import follow, generic, lead, throw, trick, units  # noqa: E402
from engine.cards import KINDS, parse_card  # noqa: E402
from engine.rules import Rules, preset  # noqa: E402
from engine.trump import TRUMP, Trump, TrumpOrder, trump_order  # noqa: E402
from engine.units import decompose  # noqa: E402

Spec = tuple[tuple[int, int], ...]  # the lead's units as (width, length)


@dataclass(frozen=True)
class Row:
    operation: str
    preset: str
    case: str
    cards: int
    hand: int
    times: tuple[float, ...]  # microseconds per call

    def cells(self) -> list[str]:
        t = sorted(self.times)

        def pct(p: float) -> float:
            return t[min(len(t) - 1, int(p * len(t)))]

        return [
            self.operation,
            self.preset,
            self.case,
            str(self.cards),
            str(self.hand),
            str(len(t)),
            f"{statistics.median(t):.0f}",
            f"{pct(0.90):.0f}",
            f"{pct(0.99):.0f}",
            f"{t[-1]:.0f}",
        ]


HEADER = ["operation", "preset", "lead", "n", "hand", "runs", "median", "p90", "p99", "max"]


def cold() -> None:
    """Forget every per-hand cache of the engine (not the trump orders)."""
    for fn in (
        lead.lead_of, follow._obligation_for, follow._reached, generic._generic_score, trick._measure,
        units._decompose,
    ):
        fn.cache_clear()


def timed(fn: Callable[..., object], *args: object) -> float:
    """Microseconds for one call of ``fn(*args)`` on cold per-hand caches."""
    cold()
    start = time.perf_counter()
    fn(*args)
    return (time.perf_counter() - start) * 1e6


def _follow(*args: Any) -> object:
    return follow.judge_follow(follow.check_follow(*args))


def _resolve(*args: Any) -> object:
    """The trick as the service resolves it: checked, then resolved."""
    return trick.resolve_trick(trick.check_trick(*args))


def _judge_throw(*args: Any) -> object:
    """The throw as the service judges it: checked, then judged."""
    return throw.judge_throw(throw.check_throw(*args))


# --- random deals with a lead of a given shape ----------------------------------------------


def _deal(rng: random.Random, rules: Rules, spec: Spec, in_trumps: bool) -> tuple[TrumpOrder, list[int], list[list[int]]]:
    """A trump, a lead of the units ``spec`` and the four hands (the leader's
    holding the lead); retried until the lead decomposes as asked."""
    for _ in range(500):
        order = trump_order(Trump(rng.randrange(13), rng.choice([0, 1, 2, 3])), rules)
        suit = TRUMP if in_trumps else rng.choice([s for s in range(4) if s != order.trump.suit])
        deck = [k for k in range(54) for _ in range(rules.decks)]
        rng.shuffle(deck)
        steps = order.steps[suit]
        taken: Counter[int] = Counter()
        lead: list[int] = []
        for width, length in spec:
            starts = list(range(len(steps) - length + 1))
            rng.shuffle(starts)
            for s in starts:
                kinds = [rng.choice(steps[s + i]) for i in range(length)]
                if all(taken[k] + width <= rules.decks for k in kinds):
                    for k in kinds:
                        taken[k] += width
                        lead += [k] * width
                    break
        if sorted((u.width, u.length) for u in decompose(lead, order)) != sorted(spec) if lead else True:
            continue
        rest = list(deck)
        for card in lead:
            rest.remove(card)
        size = rules.hand_size
        hands = [lead + rest[: size - len(lead)]]
        rest = rest[size - len(lead) :]
        hands += [rest[i * size : (i + 1) * size] for i in range(3)]
        return order, lead, hands
    raise RuntimeError(f"could not deal a lead of {spec}")


def _name(spec: Spec) -> str:
    names = {1: "single", 2: "pair", 3: "triple", 4: "quad"}
    parts = []
    for w, n in spec:
        parts.append(names[w] if n == 1 else f"{w}x{n} tractor")
    return " + ".join(parts)


TWO_DECK: list[tuple[Spec, bool]] = [
    (((1, 1),), False),
    (((2, 1),), False),
    (((2, 1), (1, 1)), False),
    (((2, 2),), False),
    (((2, 2),), True),
    (((2, 3),), True),
    (((2, 2), (2, 1), (1, 1)), False),
    (((2, 4),), True),
    (((2, 3), (2, 1), (2, 1), (1, 1), (1, 1)), True),
]
FOUR_DECK: list[tuple[Spec, bool]] = [
    (((1, 1),), False),
    (((2, 1),), False),
    (((3, 1),), False),
    (((4, 1),), False),
    (((2, 2),), False),
    (((2, 3),), True),
    (((3, 2),), True),
    (((2, 4),), False),
    (((2, 4),), True),
    (((4, 2),), True),
    (((4, 2), (2, 1), (1, 1), (1, 1)), True),
    (((3, 4),), True),
]
PRESETS: list[tuple[str, list[tuple[Spec, bool]]]] = [
    ("two-deck", TWO_DECK),
    ("four-deck-cgc", FOUR_DECK),  # 52-card hands
    ("four-deck", FOUR_DECK),  # 54-card hands, seed 000's lists
]


# --- the measured operations -----------------------------------------------------------------


def follow_check(runs: int, rng: random.Random) -> list[Row]:
    """judge_follow: a follower's whole hand and a play of the lead's size
    (half the time the engine's own example, half random suit cards)."""
    rows = []
    for name, cases in PRESETS:
        rules = preset(name)
        for spec, in_trumps in cases:
            times = []
            for _ in range(runs):
                order, lead, hands = _deal(rng, rules, spec, in_trumps)
                hand = hands[1]
                suit = order.suit[lead[0]]
                mine = [c for c in hand if order.suit[c] == suit]
                if rng.random() < 0.5 and len(mine) >= len(lead):
                    play = rng.sample(mine, len(lead))
                else:
                    play = list(follow.judge_follow(follow.check_follow(lead, hand, None, order, rules)).example)
                times.append(timed(_follow, lead, hand, play, order, rules))
            label = _name(spec) + (" (trumps)" if in_trumps else "")
            rows.append(Row("follow", name, label, sum(w * n for w, n in spec), rules.hand_size, tuple(times)))
    return rows


def trick_resolution(runs: int, rng: random.Random) -> list[Row]:
    """resolve_trick: four plays (the followers' example follows), without and
    with the four hands (the latter also judges the three follows)."""
    rows = []
    for name, cases in PRESETS[:2]:
        rules = preset(name)
        for spec, in_trumps in cases:
            bare, judged = [], []
            for _ in range(runs):
                order, lead, hands = _deal(rng, rules, spec, in_trumps)
                plays = [lead] + [list(follow.judge_follow(follow.check_follow(lead, h, None, order, rules)).example) for h in hands[1:]]
                seats = dict(enumerate(hands))
                bare.append(timed(_resolve, 0, plays, order, rules))
                judged.append(timed(_resolve, 0, plays, order, rules, seats))
            label = _name(spec) + (" (trumps)" if in_trumps else "")
            n = sum(w * k for w, k in spec)
            rows.append(Row("trick", name, label, n, rules.hand_size, tuple(bare)))
            rows.append(Row("trick+hands", name, label, n, rules.hand_size, tuple(judged)))
    return rows


# docs/rules.md §4: the case, AAA KKK 99 44 7 6 of spades (five units), playing 5 with hearts trump
THROW_LEAD = "AS AS AS KS KS KS 9S 9S 4S 4S 7S 6S"
THROWS: list[tuple[str, str, Trump, int, str]] = [
    # (preset, lead, trump, hand size, label): the other seats' hands are dealt from the rest of the decks
    ("two-deck", "AS KS KS 9S 9S 4S", Trump(3, 1), 25, "pair + pair + singles"),
    ("four-deck", THROW_LEAD, Trump(3, 1), 52, "AAA KKK 99 44 7 6"),
    ("four-deck-cgc", THROW_LEAD, Trump(3, 1), 52, "AAA KKK 99 44 7 6"),
]


def throw_check(runs: int, rng: random.Random) -> list[Row]:
    """judge_throw: a fixed lead against the three other seats' whole hands,
    dealt afresh for every call from the cards the lead leaves (about half the
    deals beat the four-deck throw somewhere, so both verdicts are timed)."""
    rows = []
    for name, text, trump, size, label in THROWS:
        rules = preset(name)
        order = trump_order(trump, rules)
        lead = [parse_card(c) for c in text.split()]
        pack = [k for k in range(KINDS) for _ in range(rules.decks)]
        for card in lead:
            pack.remove(card)
        times = []
        for _ in range(runs):
            rng.shuffle(pack)
            hands = {seat: pack[(seat - 1) * size : seat * size] for seat in (1, 2, 3)}
            times.append(timed(_judge_throw, 0, lead, hands, order, rules))
        rows.append(Row("throw", name, label, len(lead), size, tuple(times)))
    return rows


def hand_audit(runs: int, rng: random.Random) -> list[Row]:
    """audit_hand: replay a whole legal hand (tests/deal.py) with every check —
    throws against the hands at that moment, every follow, winners, kitty,
    settlement.  A new hand every call (runs capped: each call is a whole game)."""
    from engine.audit import audit_hand
    from tests.deal import play_hand

    rows = []
    for name in ("two-deck", "four-deck"):
        rules = preset(name)
        times, tricks = [], 0
        for _ in range(max(1, runs // 20)):
            deal = play_hand(rules, rng.randrange(10**6))
            tricks = len(deal.tricks)
            times.append(timed(audit_hand, rules, deal.trump, deal.dealer, (0, 0), deal.hands, deal.kitty,
                               deal.tricks, True))
        rows.append(Row("audit", name, f"whole hand, ~{tricks} tricks", rules.hand_size, rules.hand_size,
                        tuple(times)))
    return rows


SECTIONS: dict[str, Callable[[int, random.Random], list[Row]]] = {
    "follow": follow_check,
    "trick": trick_resolution,
    "throw": throw_check,
    "audit": hand_audit,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200, help="calls per row, each on a fresh deal")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--only", choices=sorted(SECTIONS), action="append", help="measure only these sections")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    rows: list[Row] = []
    for name, section in SECTIONS.items():
        if args.only and name not in args.only:
            continue
        rows += section(args.runs, rng)
    table = [HEADER] + [r.cells() for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(HEADER))]
    right = {3, 4, 5, 6, 7, 8, 9}
    print(f"engine timings, microseconds per call (python {sys.version.split()[0]}, {args.runs} runs per row)")
    for i, line in enumerate(table):
        print("  ".join(c.rjust(w) if j in right else c.ljust(w) for j, (c, w) in enumerate(zip(line, widths, strict=True))))
        if i == 0:
            print("  ".join("-" * w for w in widths))


if __name__ == "__main__":
    main()
