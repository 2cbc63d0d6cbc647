"""Timing of throw checks (RULES §4, engine.throw.judge_throw); prints figures, asserts nothing.

The case the issue asks for: a four-deck 12-card throw (AAA KKK 99 44 7 6 of
spades, five units) against three 52-card hands dealt from the rest of the
cards, under the ``four-deck`` preset.  Reported: the median engine time with
the decomposition cache cold (every request a new lead) and warm, over many
runs and many deals, and the whole ``POST /v1/throw`` through the Flask test
client.

Run from the project root: ``python bench/throw.py [runs]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import KINDS, card_str, parse_card  # noqa: E402
from engine.rules import preset  # noqa: E402
from engine.throw import judge_throw  # noqa: E402
from engine.trump import Trump, trump_order  # noqa: E402
from engine.units import _decompose  # noqa: E402

LEAD = "AS AS AS KS KS KS 9S 9S 4S 4S 7S 6S"


def deal(rng: random.Random, lead: list[int], decks: int) -> dict[int, list[int]]:
    """Three 52-card hands (seats 1..3) from the cards not in the lead."""
    pack = [k for k in range(KINDS) for _ in range(decks)]
    for card in lead:
        pack.remove(card)
    rng.shuffle(pack)
    return {1: pack[:52], 2: pack[52:104], 3: pack[104:156]}


def median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def main(runs: int = 2000) -> None:
    rules = preset("four-deck")
    order = trump_order(Trump(level=3, suit=1), rules)  # playing 5, hearts trump, 2s constant
    lead = [parse_card(c) for c in LEAD.split()]
    rng = random.Random(8)
    deals = [deal(rng, lead, rules.decks) for _ in range(50)]
    verdicts = [judge_throw(0, lead, hands, order, rules) for hands in deals]
    failed = sum(not v.valid for v in verdicts)

    cold: list[float] = []
    warm: list[float] = []
    per_deal = max(1, runs // len(deals))
    for hands in deals:
        for _ in range(per_deal):
            _decompose.cache_clear()
            t0 = time.perf_counter()
            judge_throw(0, lead, hands, order, rules)
            cold.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            judge_throw(0, lead, hands, order, rules)
            warm.append(time.perf_counter() - t0)

    from service.app import create_app

    client = create_app({"TESTING": True}).test_client()
    bodies = [
        {
            "rules": "four-deck",
            "trump": {"level": "5", "suit": "H"},
            "leader": 0,
            "lead": LEAD.split(),
            "hands": {str(s): [card_str(c) for c in h] for s, h in hands.items()},
        }
        for hands in deals
    ]
    http: list[float] = []
    for i in range(max(50, runs // 4)):
        body = bodies[i % len(bodies)]
        t0 = time.perf_counter()
        resp = client.post("/v1/throw", json=body)
        http.append(time.perf_counter() - t0)
        assert resp.status_code == 200, resp.get_data(as_text=True)

    units = " + ".join(u.describe() for u in verdicts[0].units)
    print(f"four-deck 12-card throw {units} against three 52-card hands")
    print(f"  {len(deals)} deals, {failed} with the throw failing; {len(cold)} runs each figure")
    print(f"  engine judge_throw, decomposition cache cold: median {median_us(cold):7.1f} µs")
    print(f"  engine judge_throw, decomposition cache warm: median {median_us(warm):7.1f} µs")
    print(f"  POST /v1/throw via the Flask test client:     median {median_us(http):7.1f} µs")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
