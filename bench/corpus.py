"""A recorded corpus of answers: the engine must give the same bytes after a refactor.

Generates a fixed (seeded) set of requests for every endpoint — every body of
bench/bodies.py (and its varied bodies), the table cases of the test suite
(follow, trick, throw), whole hands dealt for every preset by tests/deal.py
with their legal and illegal follows, throws, tricks, kitties, settlements,
bids, bid sequences and audits (clean and tampered), rule-option variants,
and invalid inputs that must be 422s — posts each through the Flask test
client in English and Chinese, and writes one JSON line per (request,
language): the path, the language, the status and the answer's body text.

    python bench/corpus.py record OUT.jsonl [--scale N]
    python bench/corpus.py diff A.jsonl B.jsonl [--show 5] [--ignore-texts]

``diff`` prints the number of lines that differ and the first few; with
``--ignore-texts`` only codes, verdicts, cards and numbers count (a change of
wording shows no difference).  A
recording is a few tens of megabytes: keep it outside the repository.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

try:  # python bench/X.py: bench/ is sys.path[0], and this checkout's helper is there
    from _checkout import ROOT  # noqa: F401
except ModuleNotFoundError:  # python -m bench.X, or imported: the working directory is first
    from bench._checkout import ROOT  # noqa: F401

from engine.cards import KINDS, RANKS, card_str  # noqa: E402
from engine.rules import PRESET_VALUES, preset  # noqa: E402

Body = Any
Request = tuple[str, Body]
LANGUAGES = ("en", "zh")
SUITS = ("S", "H", "C", "D")


def _strs(cards: Any) -> list[str]:
    return [card_str(c) for c in cards]


def _trump_json(level: str, suit: str | None) -> dict[str, Any]:
    return {"level": level, "suit": suit}


# --- the bench bodies and the test tables ------------------------------------------------------


def bench_bodies() -> Iterator[Request]:
    from bench.bodies import BODIES, varied

    for path, body in BODIES.values():
        yield path, body
    for path in ("/v1/trick", "/v1/follow", "/v1/kitty", "/v1/throw"):
        for body in varied(path, 64):
            yield path, body


def table_cases() -> Iterator[Request]:
    from tests import test_follow_table, test_throw, test_trick_table

    for _, rules, (level, suit), lead, hand, play, *_ in test_follow_table.CASES:
        trump = _trump_json(level, suit)
        yield "/v1/follow", {"rules": rules, "trump": trump, "lead": lead.split(), "hand": hand.split(),
                             "play": play.split()}
        yield "/v1/follow", {"rules": rules, "trump": trump, "lead": lead.split(), "hand": hand.split()}
        yield "/v1/analyze", {"rules": rules, "trump": trump, "cards": lead.split()}
    for _, rules, (level, suit), leader, plays, *_ in test_trick_table.CASES:
        yield "/v1/trick", {"rules": rules, "trump": _trump_json(level, suit), "leader": leader,
                            "plays": [p.split() for p in plays]}
    for _, _, lead, hands, rules, level, suit, *_ in test_throw.CASES:
        yield "/v1/throw", {"rules": rules, "trump": _trump_json(level, suit), "leader": 0,
                            "lead": lead.split(), "hands": {str(s): h.split() for s, h in hands.items()}}


# --- generated deals ---------------------------------------------------------------------------

# Option variants on top of each preset: the options that change follows,
# tricks, throws and kitties (the engine branches on them).
VARIANTS: list[dict[str, Any]] = [
    {},
    {"protect_longer_tuples": True},
    {"follow_draw": "suit_only"},
    {"throw_comparison": "all_units"},
    {"throw_comparison": "highest_card"},
    {"ace_low_tractor": True, "level_suit_precedence": True},
    {"wider_shape_beats": True, "throw_forced_unit": "first_blocked", "throw_penalty": "points_per_card"},
    {"throw_forced_unit": "smallest_unit", "throw_penalty": "match_point", "kitty_dig_by_dealer": True},
]


def _rules_json(name: str, variant: dict[str, Any]) -> Any:
    return name if not variant else {"preset": name, **variant}


def _minus(hand: list[int], play: Any) -> list[int]:
    return sorted((Counter(hand) - Counter(play)).elements())


def deal_requests(name: str, seed: int, variant: dict[str, Any]) -> Iterator[Request]:
    """Every kind of request around one hand of ``name`` dealt from ``seed``."""
    from engine.rules import rules_from_json
    from tests.deal import play_hand

    rules = rules_from_json(_rules_json(name, variant))
    rj = _rules_json(name, variant)
    rng = random.Random(seed * 7919 + len(json.dumps(variant)))
    deal = play_hand(rules, seed)
    trump = deal.trump.as_json()
    hands = {s: list(h) for s, h in deal.hands.items()}
    tricks = deal.tricks
    picked = set(rng.sample(range(len(tricks)), min(4, len(tricks))))
    for index, t in enumerate(tricks):
        plays = [list(p) for p in t.plays]
        lead = plays[0]
        if index in picked or index == len(tricks) - 1:
            yield "/v1/trick", {"rules": rj, "trump": trump, "leader": t.leader, "plays": [_strs(p) for p in plays],
                                "hands": {str(s): _strs(h) for s, h in hands.items()}}
            yield "/v1/trick", {"rules": rj, "trump": trump, "leader": t.leader, "plays": [_strs(p) for p in plays]}
            for i in (1, 2, 3):
                hand = hands[(t.leader + i) % 4]
                yield "/v1/follow", {"rules": rj, "trump": trump, "lead": _strs(lead), "hand": _strs(hand),
                                     "play": _strs(plays[i])}
                if len(hand) >= len(lead):  # an illegal (or lucky) follow: random cards of the hand
                    other = rng.sample(hand, len(lead))
                    yield "/v1/follow", {"rules": rj, "trump": trump, "lead": _strs(lead), "hand": _strs(hand),
                                         "play": _strs(other)}
                    # a trick where the follower plays those random cards instead
                    bad = [list(p) for p in plays]
                    bad[i] = other
                    yield "/v1/trick", {"rules": rj, "trump": trump, "leader": t.leader,
                                        "plays": [_strs(p) for p in bad],
                                        "hands": {str(s): _strs(h) for s, h in hands.items()}}
            yield "/v1/follow", {"rules": rj, "trump": trump, "lead": _strs(lead),
                                 "hand": _strs(hands[(t.leader + 1) % 4])}
            others = {str(s): _strs(h) for s, h in hands.items() if s != t.leader}
            yield "/v1/throw", {"rules": rj, "trump": trump, "leader": t.leader, "lead": _strs(lead), "hands": others}
            if t.attempted_throw is not None:
                yield "/v1/throw", {"rules": rj, "trump": trump, "leader": t.leader,
                                    "lead": _strs(t.attempted_throw), "hands": others}
            # a throw of a few random cards of one suit of the leader's hand
            mine = hands[t.leader]
            suit = rng.choice(SUITS)
            same = [c for c in mine if c < 52 and card_str(c).endswith(suit)]
            if len(same) >= 2:
                throw = rng.sample(same, rng.randint(2, min(8, len(same))))
                yield "/v1/throw", {"rules": rj, "trump": trump, "leader": t.leader, "lead": _strs(throw),
                                    "hands": others}
                yield "/v1/analyze", {"rules": rj, "trump": trump, "cards": _strs(throw)}
            yield "/v1/analyze", {"rules": rj, "trump": trump, "cards": _strs(mine[: rng.randint(1, len(mine))])}
        for i, play in enumerate(plays):
            seat = (t.leader + i) % 4
            hands[seat] = _minus(hands[seat], play)
    last = tricks[-1]
    kitty = _strs(deal.kitty)
    for dealer in (deal.dealer, (deal.dealer + 1) % 4):
        yield "/v1/kitty", {"rules": rj, "trump": trump, "dealer": dealer, "kitty": kitty,
                            "last_trick": {"leader": last.leader, "plays": [_strs(p) for p in last.plays]}}
        for points in (None, 0, 35, 80, 120):
            body = {"rules": rj, "trump": trump, "dealer": dealer, "kitty": kitty,
                    "last_lead": _strs(last.plays[0]), "winner": rng.randrange(4)}
            if points is not None:
                body["defender_points"] = points
            if rng.random() < 0.5:
                body["won_with_trumps"] = rng.random() < 0.5
            yield "/v1/kitty", body
    levels = {"A": rng.choice(RANKS), "B": rng.choice(RANKS)}
    record = {
        "rules": rj, "trump": trump, "dealer": deal.dealer, "levels": levels,
        "hands": {str(s): _strs(h) for s, h in deal.hands.items()}, "kitty": kitty,
        "tricks": [
            {"leader": t.leader, "plays": [_strs(p) for p in t.plays]}
            | ({} if t.attempted_throw is None else {"attempted_throw": _strs(t.attempted_throw)})
            for t in tricks
        ],
    }
    yield "/v1/hand", record | {"strict": True}
    yield "/v1/hand", record | {"strict": False}
    # tampered: two plays of one trick swapped between seats, or a trick dropped
    tampered = json.loads(json.dumps(record))
    k = rng.randrange(len(tampered["tricks"]))
    plays = tampered["tricks"][k]["plays"]
    plays[1], plays[2] = plays[2], plays[1]
    yield "/v1/hand", tampered
    dropped = json.loads(json.dumps(record))
    del dropped["tricks"][rng.randrange(len(dropped["tricks"]))]
    yield "/v1/hand", dropped | {"strict": True}


def settle_requests(name: str, rng: random.Random) -> Iterator[Request]:
    for points in range(0, 205 if PRESET_VALUES[name]["decks"] < 3 else 405, 5):
        yield "/v1/settle", {"rules": name, "dealer": rng.randrange(4), "defender_points": points,
                             "levels": {"A": rng.choice(RANKS), "B": rng.choice(RANKS)}}


def bid_requests(name: str, rng: random.Random, count: int) -> Iterator[Request]:
    decks = PRESET_VALUES[name]["decks"]
    for _ in range(count):
        level = rng.randrange(13)
        pool = [k for k in range(KINDS) if k >= 52 or k % 13 == level]

        def bid(seat: int, pool: list[int] = pool) -> dict[str, Any]:
            kind = rng.choice(pool)
            n = rng.randint(1, decks + (1 if rng.random() < 0.1 else 0))
            cards = [kind] * n if rng.random() < 0.9 else rng.sample(range(KINDS), n)
            return {"seat": seat, "cards": _strs(cards)}

        standing = None if rng.random() < 0.2 else bid(rng.randrange(4))
        yield "/v1/bid", {"rules": name, "trump": {"level": RANKS[level]}, "standing": standing, "bid": bid(rng.randrange(4))}
        bids = [bid(rng.randrange(4)) for _ in range(rng.randint(0, 6))]
        body: dict[str, Any] = {"rules": name, "trump": {"level": RANKS[level]}, "bids": bids}
        if rng.random() < 0.8:  # the rules that redeal a first hand nobody bid in need to know (docs/api.md)
            body["first_hand"] = rng.random() < 0.3
        if rng.random() < 0.7:
            body["kitty"] = _strs(rng.sample(range(KINDS), PRESET_VALUES[name]["kitty_size"] or 8))
        yield "/v1/bid/resolve", body


# --- invalid inputs ----------------------------------------------------------------------------


def invalid_requests() -> Iterator[Request]:
    """Bodies that must be 422s (or 400/404/413/415): pointers and messages matter."""
    t = {"level": "10", "suit": "H"}
    yield "/v1/follow", {"rules": "two-deck", "trump": t, "lead": ["XX"], "hand": ["3S"]}
    yield "/v1/follow", {"rules": "two-deck", "trump": t, "lead": ["3S"], "hand": ["3S"], "play": ["4S"]}
    yield "/v1/follow", {"rules": "two-deck", "trump": t, "lead": ["3S", "4S"], "hand": ["3S"], "play": ["3S"]}
    yield "/v1/follow", {"rules": "one-deck", "trump": t, "lead": ["3S"], "hand": ["4S", "4S"], "play": ["4S"]}
    yield "/v1/follow", {"rules": "nope", "trump": t, "lead": ["3S"], "hand": ["4S"]}
    yield "/v1/follow", {"rules": {"preset": "two-deck", "decks": 9}, "trump": t, "lead": ["3S"], "hand": ["4S"]}
    yield "/v1/follow", {"rules": {"preset": "two-deck", "bogus": 1}, "trump": t, "lead": ["3S"], "hand": ["4S"]}
    yield "/v1/follow", {"rules": {"preset": "two-deck", "follow_draw": "x"}, "trump": t, "lead": ["3S"], "hand": ["4S"]}
    yield "/v1/follow", {"rules": "two-deck", "trump": {"level": "1", "suit": "Q"}, "lead": ["3S"], "hand": ["4S"]}
    yield "/v1/follow", {"rules": "two-deck", "trump": t, "lead": [], "hand": ["4S"]}
    yield "/v1/follow", {"rules": "two-deck", "trump": t, "lead": ["3S", "4H"], "hand": ["4S", "5S"]}
    yield "/v1/follow", {"trump": t, "lead": "3S", "hand": 5}
    yield "/v1/follow", []
    yield "/v1/follow", "text"
    yield "/v1/trick", {"rules": "two-deck", "trump": t, "leader": 5, "plays": [["3S"]] * 4}
    yield "/v1/trick", {"rules": "two-deck", "trump": t, "leader": 0, "plays": [["3S"]] * 3}
    yield "/v1/trick", {"rules": "two-deck", "trump": t, "leader": 0, "plays": [["3S"], ["3S", "4S"], ["5S"], ["6S"]]}
    yield "/v1/trick", {"rules": "two-deck", "trump": t, "leader": 0, "plays": [["3S"], ["3S"], ["3S"], ["6S"]]}
    yield "/v1/trick", {"rules": "two-deck", "trump": t, "leader": 0, "plays": [["3S"], ["4S"], ["5S"], ["6S"]],
                        "hands": {"1": ["7S"], "2": ["5S"]}}
    yield "/v1/trick", {"rules": "two-deck", "trump": t, "leader": 0, "plays": [["3S"], ["4S"], ["5S"], ["6S"]],
                        "hands": {"9": ["7S"]}}
    yield "/v1/throw", {"rules": "two-deck", "trump": t, "leader": 0, "lead": ["3S", "4H"], "hands": {"1": ["5S"]}}
    yield "/v1/throw", {"rules": "two-deck", "trump": t, "leader": 0, "lead": ["3S"], "hands": {"0": ["5S"]}}
    yield "/v1/throw", {"rules": "two-deck", "trump": t, "leader": 0, "lead": ["3S", "3S", "3S"], "hands": {}}
    yield "/v1/kitty", {"rules": "two-deck", "trump": t, "dealer": 0, "kitty": ["3S"]}
    yield "/v1/kitty", {"rules": "two-deck", "trump": t, "dealer": 0, "last_lead": ["3S"]}
    yield "/v1/kitty", {"rules": "two-deck", "trump": t, "dealer": 0, "last_lead": ["3S"], "winner": 1,
                        "last_trick": {"leader": 0, "plays": [["3S"]] * 4}}
    yield "/v1/kitty", {"rules": "two-deck", "trump": t, "dealer": 0, "kitty": ["3S"] * 9, "last_lead": ["3S"],
                        "winner": 1}
    yield "/v1/settle", {"rules": "two-deck", "dealer": 0, "defender_points": -5, "levels": {"A": "5", "B": "7"}}
    yield "/v1/settle", {"rules": "two-deck", "dealer": 0, "defender_points": 7, "levels": {"A": "5"}}
    yield "/v1/settle", {"rules": "two-deck", "dealer": 0, "defender_points": 900, "levels": {"A": "5", "B": "Z"}}
    yield "/v1/bid", {"rules": "two-deck", "trump": {"level": "1"}, "bid": {"seat": 0, "cards": ["10H"]}}
    yield "/v1/bid", {"rules": "two-deck", "trump": {"level": "10"}, "bid": {"seat": 0, "cards": ["10H"] * 9}}
    yield "/v1/bid", {"rules": "two-deck", "trump": {"level": "10"}, "bid": {"seat": 0, "cards": ["10H"] * 3}}
    yield "/v1/bid/resolve", {"rules": "two-deck", "trump": {"level": "10"}, "bids": [{"seat": 7, "cards": []}]}
    yield "/v1/hand", {"rules": "two-deck", "trump": t, "dealer": 0, "levels": {"A": "5", "B": "7"},
                       "hands": {"0": ["3S"]}, "kitty": [], "tricks": []}
    yield "/v1/hand", {"rules": "two-deck", "trump": t, "dealer": 0, "levels": {"A": "5", "B": "7"},
                       "hands": {str(s): ["3S"] for s in range(4)}, "kitty": [],
                       "tricks": [{"leader": 0, "plays": [["3S"], ["3S"], ["3S"], ["4S"]]}]}
    yield "/v1/analyze", {"rules": "two-deck", "trump": t, "cards": ["3S"] * 3}
    yield "/v1/analyze", {"rules": "two-deck", "trump": t, "cards": ["3S", "4H", "BJ"]}


def invalid_mutations(requests: list[Request], rng: random.Random, count: int) -> Iterator[Request]:
    """Valid bodies with one field broken: a card misspelt, a field dropped, a wrong type."""
    for _ in range(count):
        path, body = rng.choice(requests)
        if not isinstance(body, dict) or not body:
            continue
        broken = json.loads(json.dumps(body))
        key = rng.choice(sorted(broken))
        how = rng.randrange(4)
        if how == 0:
            del broken[key]
        elif how == 1:
            broken[key] = rng.choice([None, 3, "x", [], {}, True, [["XX"]], ["ZZ"]])
        elif how == 2 and isinstance(broken[key], list) and broken[key] and isinstance(broken[key][0], str):
            broken[key][rng.randrange(len(broken[key]))] = rng.choice(["1S", "ZZ", "", "sj", "10♥", "BJX"])
        else:
            broken["extra_field"] = 1
        yield path, broken


# --- the corpus --------------------------------------------------------------------------------


def corpus(scale: int = 1) -> list[Request]:
    """The whole corpus, in a fixed order."""
    out: list[Request] = []
    out += bench_bodies()
    out += table_cases()
    rng = random.Random(15)
    names = sorted(PRESET_VALUES)
    for name in names:
        seeds = 6 * scale if preset(name).decks < 4 else 2 * scale
        for seed in range(seeds):
            for v, variant in enumerate(VARIANTS):
                if (seed + v) % 2 and variant:  # every variant, on every other deal
                    continue
                out += deal_requests(name, 100 * seed + v, variant)
        out += settle_requests(name, rng)
        out += bid_requests(name, rng, 150 * scale)
    out += invalid_requests()
    out += invalid_mutations(list(out), rng, 1500 * scale)
    return out


def record(path: str, scale: int) -> None:
    from service.app import create_app

    started = time.perf_counter()
    requests = corpus(scale)
    made = time.perf_counter()
    app = create_app({"LOG_STREAM": io.StringIO(), "ACCESS_LOG": False})
    client = app.test_client()
    with open(path, "w", encoding="utf-8") as out:
        for i, (url, body) in enumerate(requests):
            for lang in LANGUAGES:
                resp = client.post(url, json=body, headers={"Accept-Language": lang})
                out.write(json.dumps({"i": i, "path": url, "lang": lang, "status": resp.status_code,
                                      "body": resp.get_data(as_text=True)}, ensure_ascii=False) + "\n")
    statuses = Counter()
    print(f"{len(requests)} requests ({len(requests) * len(LANGUAGES)} answers) → {path}: "
          f"generated in {made - started:.0f} s, answered in {time.perf_counter() - made:.0f} s")
    by_path = Counter(url for url, _ in requests)
    for line in open(path, encoding="utf-8"):
        rec = json.loads(line)
        statuses[(rec["path"], rec["status"])] += 1
    for url in sorted(by_path):
        print(f"  {url:18} {by_path[url]:6}  " + " ".join(
            f"{s}:{n // len(LANGUAGES)}" for (p, s), n in sorted(statuses.items()) if p == url))


TEXTS = frozenset({"message", "text", "title", "detail"})
"""The keys of an answer that hold words for people (docs/api.md "Languages")."""


def verdict_only(line: str) -> Any:
    """A recorded answer less its words: every code, verdict, card and number, no
    ``message``/``text``/``title``/``detail`` and no ladder step's ``name``."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            step = value.keys() == {"rank", "of", "name"}
            return {k: strip(v) for k, v in value.items() if k not in TEXTS and not (step and k == "name")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    rec = json.loads(line)
    try:
        body = json.loads(rec["body"])
    except ValueError:
        body = rec["body"]
    return rec["i"], rec["path"], rec["lang"], rec["status"], strip(body)


def diff(a: str, b: str, show: int, texts: bool = True) -> int:
    """The answers that differ (``texts`` False: ignoring the words, ``verdict_only``)."""
    with open(a, encoding="utf-8") as fa, open(b, encoding="utf-8") as fb:
        left, right = fa.readlines(), fb.readlines()
    if texts:
        differences = [(x, y) for x, y in zip(left, right, strict=False) if x != y]
    else:
        differences = [(x, y) for x, y in zip(left, right, strict=False) if verdict_only(x) != verdict_only(y)]
    if len(left) != len(right):
        print(f"the recordings have {len(left)} and {len(right)} lines")
    print(f"{len(differences)} differences in {min(len(left), len(right))} answers")
    requests = corpus() if differences else []
    for x, y in differences[:show]:
        rx, ry = json.loads(x), json.loads(y)
        print(f"--- answer {rx['i']} ({rx['path']}, {rx['lang']})")
        if requests and rx["i"] < len(requests):
            print("request:", json.dumps(requests[rx["i"]][1], ensure_ascii=False)[:2000])
        print("A:", rx["status"], rx["body"][:2000])
        print("B:", ry["status"], ry["body"][:2000])
    return 1 if differences or len(left) != len(right) else 0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("out")
    rec.add_argument("--scale", type=int, default=1, help="deals and bids per preset, in multiples")
    dif = sub.add_parser("diff")
    dif.add_argument("a")
    dif.add_argument("b")
    dif.add_argument("--show", type=int, default=5)
    dif.add_argument("--ignore-texts", action="store_true",
                     help="compare codes, verdicts, cards and numbers only (a change of wording)")
    args = parser.parse_args(argv)
    if args.mode == "record":
        record(args.out, args.scale)
    else:
        raise SystemExit(diff(args.a, args.b, args.show, texts=not args.ignore_texts))


if __name__ == "__main__":
    main()
