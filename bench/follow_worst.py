"""Worst cases of the generic follow rule: python bench/follow_worst.py [--runs N].

Leads of many tractors in a long suit against four-deck hands rich in quads and
tuples (found by review: they took seconds before the generic rule's dynamic
programme was made to carry interchangeable lead tractors as one state and to keep
only states that can still reach the best tractor pieces, ``engine.generic``).
Each body is posted through the Flask test client with the engine's per-hand
caches cleared before every call; figures are milliseconds per request: median
and maximum of the wall-clock time, and median of the process's CPU time (the
steadier figure on a shared machine).  Those over the service's work budget
(``engine.budget``, 640 units a request) answer 422 ``too_complex`` (status 422):
their figure is the cost of finding that out.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

try:  # python bench/X.py: bench/ is sys.path[0], and this checkout's helper is there
    from _checkout import ROOT  # noqa: F401
except ModuleNotFoundError:  # python -m bench.X, or imported: the working directory is first
    from bench._checkout import ROOT  # noqa: F401


def _cards(text: str) -> list[str]:
    return text.split()


# The cases were found (by review) with the order's links of docs/rules.md §2 alone; they
# keep them, so their figures stay comparable.  The four-deck presets now link the level
# and constant-rank tuples of a suit too (level_constant_tractors): the last cases are
# the same hands with those links, which give the programme many more tractor pieces.
OLD_LINKS = {"preset": "four-deck", "level_constant_tractors": False}

# name → (path, body)
CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "six 2-pair tractors in trumps": ("/v1/follow", {
        "rules": OLD_LINKS,
        "trump": {"level": "10", "suit": "H"},
        "lead": _cards("3H 3H 4H 4H 6H 6H 7H 7H 9H 9H JH JH KH KH AH AH 2H 2H 10S 10S SJ SJ BJ BJ"),
        "hand": _cards("3H 3H 4H 4H 5H 5H 5H 5H 6H 6H 7H 7H 8H 8H 8H 8H 9H 9H JH JH QH QH QH QH KH KH AH AH 2S 2S 2S 2S 2H 2H 10S 10S 10H 10H 10H 10H SJ SJ BJ BJ 2C 2C 2C 2C 2D 2D 2D 2D 10C 10C"),
    }),
    "2-pair and triple tractors": ("/v1/follow", {
        "rules": OLD_LINKS,
        "trump": {"level": "10", "suit": "H"},
        "lead": _cards("3H 3H 4H 4H 6H 6H 6H 7H 7H 7H 9H 9H JH JH KH KH KH AH AH AH 2H 2H 10S 10S SJ SJ SJ BJ BJ BJ"),
        "hand": _cards("3H 3H 4H 4H 5H 5H 5H 5H 6H 7H 8H 8H 8H 8H 9H 9H JH JH QH QH QH QH KH AH 2S 2S 2S 2S 2H 2H 10S 10S 10H 10H 10H 10H SJ BJ 2C 2C 2C 2C 2D 2D 2D 2D 10C 10C 10C 10C 10D 10D 10D 10D"),
    }),
    "five 2-pair tractors": ("/v1/follow", {
        "rules": OLD_LINKS,
        "trump": {"level": "10", "suit": "H"},
        "lead": _cards("3H 3H 4H 4H 6H 6H 7H 7H 9H 9H JH JH KH KH AH AH 2H 2H 10S 10S"),
        "hand": _cards("3H 3H 4H 4H 5H 5H 5H 5H 6H 6H 7H 7H 8H 8H 8H 8H 9H 9H JH JH QH QH QH QH KH KH AH AH 2S 2S 2S 2S 2H 2H 10S 10S 10H 10H 10H 10H SJ SJ SJ SJ BJ BJ BJ BJ 2C 2C 2C 2C 2D 2D"),
    }),
    "three 3-pair tractors": ("/v1/follow", {
        "rules": OLD_LINKS,
        "trump": {"level": "10", "suit": "H"},
        "lead": _cards("3H 3H 4H 4H 5H 5H 7H 7H 8H 8H 9H 9H QH QH KH KH AH AH 2H 2H 10S 10S 10H 10H"),
        "hand": _cards("3H 3H 4H 4H 5H 5H 6H 6H 6H 6H 7H 7H 8H 8H 9H 9H JH JH JH JH QH QH KH KH AH AH 2S 2S 2S 2S 2H 2H 10S 10S 10H 10H SJ SJ SJ SJ BJ BJ BJ BJ 2C 2C 2C 2C 2D 2D 2D 2D 10C 10C"),
    }),
    "seven 2-pair tractors, 60-card hand": ("/v1/follow", {
        "rules": OLD_LINKS,
        "trump": {"level": "10", "suit": "H"},
        "lead": _cards("3H 3H 4H 4H 6H 6H 7H 7H 9H 9H JH JH KH KH AH AH 2H 2H 10S 10S SJ SJ BJ BJ"),
        "hand": _cards("3H 3H 4H 4H 5H 5H 5H 5H 6H 6H 7H 7H 8H 8H 8H 8H 9H 9H JH JH QH QH QH QH KH KH AH AH 2S 2S 2S 2S 2C 2C 2C 2C 2D 2D 2D 2D 2H 2H 10S 10S 10C 10C 10C 10C 10D 10D 10D 10D 10H 10H 10H 10H SJ SJ BJ BJ"),
    }),
    "2-pair and triple tractors through /v1/trick with hands": ("/v1/trick", {
        "rules": OLD_LINKS,
        "trump": {"level": "10", "suit": "H"},
        "leader": 0,
        "plays": [_cards("3H 3H 4H 4H 6H 6H 6H 7H 7H 7H 9H 9H JH JH KH KH KH AH AH AH 2H 2H 10S 10S SJ SJ SJ BJ BJ BJ"), _cards("3H 3H 4H 4H 5H 5H 5H 5H 6H 7H 8H 8H 8H 8H 9H 9H JH JH QH QH QH QH KH AH 2S 2S 2S 2S 2H 2H"), _cards("3S 3C 3D 4S 4C 4D 5S 5C 5D 6S 6C 6D 7S 7C 7D 8S 8C 8D 9S 9C 9D JS JC JD QS QC QD KS KC KD"), _cards("4S 4C 4D 5S 5C 5D 6S 6C 6D 7S 7C 7D 8S 8C 8D 9S 9C 9D JS JC JD QS QC QD KS KC KD AS AC AD")],
        "hands": {"0": _cards("3H 3H 4H 4H 6H 6H 6H 7H 7H 7H 9H 9H JH JH KH KH KH AH AH AH 2H 2H 10S 10S SJ SJ SJ BJ BJ BJ"), "1": _cards("3H 3H 4H 4H 5H 5H 5H 5H 6H 7H 8H 8H 8H 8H 9H 9H JH JH QH QH QH QH KH AH 2S 2S 2S 2S 2H 2H 10S 10S 10H 10H 10H 10H SJ BJ 2C 2C 2C 2C 2D 2D 2D 2D 10C 10C 10C 10C 10D 10D 10D 10D"), "2": _cards("3S 3C 3D 4S 4C 4D 5S 5C 5D 6S 6C 6D 7S 7C 7D 8S 8C 8D 9S 9C 9D JS JC JD QS QC QD KS KC KD"), "3": _cards("4S 4C 4D 5S 5C 5D 6S 6C 6D 7S 7C 7D 8S 8C 8D 9S 9C 9D JS JC JD QS QC QD KS KC KD AS AC AD")},
    }),
    "36-card lead of tractors, classic patterns": ("/v1/follow", {
        "rules": {"preset": "four-deck", "follow_patterns": "classic", "level_constant_tractors": False},
        "trump": {"level": "10", "suit": "H"},
        "lead": _cards("4H 4H 2D 2D SJ SJ SJ SJ 2H 2H AH AH AH 10H 10H 10H 10H KH KH KH KH 9H 9H 10D 10D 10C 10C 5H 5H 5H 8H 8H QH QH QH QH"),
        "hand": _cards("2C 6H 2D 9H 10C 6H 10D 8H 2C 2H 2D 2S 10S 2S 10S JH BJ 6H 8H 10S 4H 3H JH 2H 3H BJ AH 2C 4H 9H 10D 2S BJ 3H JH JH 2S 7H 2C 10S 7H 6H 3H 5H 7H 7H 10C BJ"),
        "play": _cards("2C 6H 2D 9H 10C 6H 10D 8H 2C 2H 2D 2S 10S 2S 10S JH BJ 6H 8H 10S 4H 3H JH 2H 3H BJ AH 2C 4H 9H 10D 2S BJ 3H JH JH"),
    }),
    "38-card lead of tractors, level A": ("/v1/follow", {
        "rules": OLD_LINKS,
        "trump": {"level": "A", "suit": "H"},
        "lead": _cards("6H 6H 6H KH KH KH KH AC AC 7H 7H SJ SJ QH QH 2S 2S 2C 2C 2C 10H 10H 2H 2H 2H BJ BJ BJ 8H 8H 8H 8H 9H 9H 9H 9H AD AD"),
        "hand": _cards("SJ AS 4H 10H AC 2D 2S JH JH 2C 4H 2D AH 3H QH 2D AH AH 7H AD AD 5H 4H JH AH AS SJ 3H QH 2S 5H 7H 2D 4H 6H 10H 3H JH AS 2H 3H 5H AS BJ 5H AC"),
        "play": _cards("SJ AS 4H 10H AC 2D 2S JH JH 2C 4H 2D AH 3H QH 2D AH AH 7H AD AD 5H 4H JH AH AS SJ 3H QH 2S 5H 7H 2D 4H 6H 10H 3H JH"),
    }),
    "30-card lead with quad tractors, four-deck-cgc": ("/v1/follow", {
        "rules": {"preset": "four-deck-cgc", "level_constant_tractors": False},
        "trump": {"level": "10", "suit": "H"},
        "lead": _cards("BJ BJ 6H 6H 6H 6H 10C 10C 7H 7H 7H 7H 4H 4H 4H 4H 10H 10H JH JH JH 5H 5H QH QH QH 8H 8H 3H 3H"),
        "hand": _cards("2S 3H 2C 2H 5H 2H SJ 3H 9H AH 2D SJ 9H KH 9H 2D 2S 2C 10H 2S 8H AH 10D 10C 2C 10S BJ KH 2C AH 2D KH AH 2D QH 10H 10S 2H 10C 2H BJ 10D 10D 10S 9H 2S JH KH 5H 10S SJ 10D 8H SJ"),
        "play": _cards("2S 3H 2C 2H 5H 2H SJ 3H 9H AH 2D SJ 9H KH 9H 2D 2S 2C 10H 2S 8H AH 10D 10C 2C 10S BJ KH 2C AH"),
    }),
}

# The same hands under the four-deck preset itself, with the level-constant links.
CASES |= {
    f"{name}, level-constant links": (path, {**body, "rules": "four-deck"})
    for name, (path, body) in list(CASES.items())
    if name in ("six 2-pair tractors in trumps", "five 2-pair tractors")
}


def measure(runs: int) -> list[tuple[str, int, float, float, float]]:
    """(case, status, median ms, max ms, median CPU ms) per case, cold per-hand caches each call."""
    from bench.engine import cold
    from service.app import create_app

    client = create_app().test_client()
    out = []
    for name, (path, body) in CASES.items():
        times, cpu, status = [], [], 0
        for _ in range(runs):
            cold()
            start, start_cpu = time.perf_counter(), time.process_time()
            status = client.post(path, json=body).status_code
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
        out.append((name, status, statistics.median(times), max(times), statistics.median(cpu)))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="requests per case")
    args = parser.parse_args(argv)
    import logging

    logging.disable(logging.INFO)  # the access log would drown the table
    rows = measure(args.runs)
    width = max(len(r[0]) for r in rows)
    print(f"generic follow worst cases, ms per request (python {sys.version.split()[0]}, {args.runs} runs)")
    print(f"{'case':{width}}  status  median     max     cpu")
    for name, status, median, most, cpu in rows:
        print(f"{name:{width}}  {status:6d}  {median:6.1f}  {most:6.1f}  {cpu:6.1f}")


if __name__ == "__main__":
    main()
