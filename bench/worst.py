"""The most expensive requests a search can find: python bench/worst.py [--seconds S].

For each of /v1/follow, /v1/throw, /v1/trick, /v1/hand, /v1/bid/resolve (and
/v1/bid), a random search followed by hill-climbing over request bodies within
the service's limits (every array at most ``MAX_CARDS`` cards, no more copies of
a card than the decks hold, the body at most ``MAX_BODY_BYTES``), bounded in
time: ``--seconds`` per endpoint, the first third random bodies, the rest
mutations of the costliest so far (a mutation that costs more replaces it).

The cost of a body is the server's CPU time for one request in this process
(``time.process_time`` around the Flask test client's call) on a *cold worker*:
before every call each cache of ``engine`` and ``service`` (every module-level
function or object with ``cache_clear`` in the modules the app imported) is cleared, and the app's preload
warm-up (``warm_engine``) is restored, which is exactly what a freshly forked
gunicorn worker holds (service.metrics is left alone: what it caches are metric
registrations, not results).  The worst bodies found are measured again (the least of
five calls: CPU time on a shared machine only ever grows by neighbours' noise)
and printed with their cost; ``--save FILE`` writes them as JSON
(``{endpoint: {"cpu_ms", "status", "body"}}``), the form of
``bench/worst_bodies.json``, which tests/test_worst_bodies.py replays as
regression cases.

Every body is a valid request of its kind as far as the search can make it
(cards of the decks, counts within the decks); a 422 costs little, so the
search climbs towards 200s.  Deterministic for a given ``--seed`` and budget
apart from which mutations the time allows.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:  # python bench/X.py: bench/ is sys.path[0], and this checkout's helper is there
    from _checkout import ROOT  # noqa: F401
except ModuleNotFoundError:  # python -m bench.X, or imported: the working directory is first
    from bench._checkout import ROOT  # noqa: F401

import orjson  # noqa: E402

from engine.cards import KINDS, card_str  # noqa: E402
from engine.rules import PRESET_VALUES, preset  # noqa: E402
from engine.trump import Trump, trump_order  # noqa: E402
from service.limits import MAX_BODY_BYTES, MAX_CARDS  # noqa: E402

Body = dict[str, Any]
RANKS = "2 3 4 5 6 7 8 9 10 J Q K A".split()
SUITS = "SHCD"
MULTI_DECK = [n for n in PRESET_VALUES if preset(n).decks >= 3]


# --- the cold worker -----------------------------------------------------------------------

class ColdWorker:
    """The Flask app as a freshly forked worker has it: every cache empty but
    what the preload warm-up fills."""

    def __init__(self) -> None:
        from service.app import create_app
        from service.ops import warm_engine

        logging.disable(logging.INFO)  # no access line per request
        self.client = create_app({"ACCESS_LOG": False}).test_client()
        self.warm = warm_engine
        self.caches = [c for c in _caches()]
        for cache in self.caches:
            cache.cache_clear()
        warm_engine()
        self.warm_sizes = {id(c): _size(c) for c in self.caches}

    def chill(self) -> None:
        rewarm = False
        for cache in self.caches:
            warm = self.warm_sizes[id(cache)]
            if warm == 0 or _size(cache) != warm:
                cache.cache_clear()
                rewarm = rewarm or warm != 0
        if rewarm:
            self.warm()

    def cost(self, path: str, body: Body) -> tuple[float, int]:
        """(CPU milliseconds, status) of one request on a cold worker."""
        data = orjson.dumps(body)
        self.chill()
        start = time.process_time()
        status = self.client.post(path, data=data, content_type="application/json").status_code
        return (time.process_time() - start) * 1000, status


def _caches() -> list[Any]:
    """Every cache of the modules the app has imported (none is imported here:
    some, like service.gunicorn_conf, act on import)."""
    found: dict[int, Any] = {}
    for name, module in sorted(sys.modules.items()):
        if name.partition(".")[0] not in ("engine", "service") or module is None:
            continue
        if name == "service.metrics":  # its cached metric objects are registrations, not memos
            continue
        for value in vars(module).values():
            try:
                clear = getattr(value, "cache_clear", None)
            except RuntimeError:  # Flask's request-bound proxies (request, g)
                continue
            if callable(clear) and not isinstance(value, type):
                found[id(value)] = value
    return list(found.values())


def _size(cache: Any) -> int:
    info = getattr(cache, "cache_info", None)
    if callable(info):
        return int(info().currsize)
    return len(cache) if hasattr(cache, "__len__") else -1


# --- bodies: random ones and mutations ---------------------------------------------------

@dataclass
class Space:
    """One endpoint's bodies: ``fresh(rng)`` makes one, ``mutate(body, rng)`` changes one."""

    path: str
    fresh: Callable[[random.Random], Body]
    mutate: Callable[[Body, random.Random], Body]


def _trump(rng: random.Random) -> dict[str, str | None]:
    return {"level": rng.choice(RANKS), "suit": rng.choice([*SUITS, None])}


def _order(body: Body) -> Any:
    rules = body["rules"] if isinstance(body["rules"], str) else body["rules"]["preset"]
    t = body["trump"]
    return trump_order(Trump(RANKS.index(t["level"]), None if t["suit"] is None else SUITS.index(t["suit"])),
                       preset(rules))


def _pack(decks: int) -> list[int]:
    return [k for k in range(KINDS) for _ in range(decks)]


def _suited(order: Any, pack: list[int], suit: int, n: int, rng: random.Random) -> list[int]:
    """Up to ``n`` cards of the effective suit ``suit`` from ``pack`` (taken out of it),
    favouring runs of tuples (tractors are what the rules search through)."""
    mine = [c for c in pack if order.suit[c] == suit]
    counts = Counter(mine)
    kinds = order.sorted(counts)  # trump order: neighbours are the links of a tractor
    out: list[int] = []
    while len(out) < n and kinds:
        start = rng.randrange(len(kinds))
        width = rng.choice([2, 2, 3, 4])
        for k in kinds[start:start + rng.randint(1, 4)]:
            take = min(counts[k], width, n - len(out))
            out += [k] * take
            counts[k] -= take
        kinds = [k for k in kinds if counts[k] > 0]
    for c in out:
        pack.remove(c)
    return out


def _strs(cards: list[int]) -> list[str]:
    return [card_str(c) for c in cards]


def _ints(cards: list[str]) -> list[int]:
    from engine.cards import parse_card

    return [parse_card(c) for c in cards]


def _fresh_follow(rng: random.Random) -> Body:
    name = rng.choice(MULTI_DECK)
    body: Body = {"rules": name, "trump": _trump(rng)}
    order = _order(body)
    pack = _pack(preset(name).decks)
    rng.shuffle(pack)
    suit = rng.choice([4, 4, 0, 1, 2, 3])  # trumps (4) twice as often: the longest suit
    lead = _suited(order, pack, suit, rng.randint(4, 44), rng)
    hand = _suited(order, pack, suit, rng.randint(10, 120), rng)
    hand += pack[: rng.randint(0, max(0, MAX_CARDS - len(hand) - len(lead)))]
    body |= {"lead": _strs(lead), "hand": _strs(sorted(hand))}
    if rng.random() < 0.5 and len(hand) >= len(lead):
        body["play"] = _strs(rng.sample(hand, len(lead)))
    return body


def _swap(cards: list[int], pool: Counter[int], rng: random.Random) -> None:
    """Replace one card of ``cards`` by one from ``pool`` (the decks' remaining copies)."""
    spare = [k for k, n in pool.items() if n > 0]
    if not cards or not spare:
        return
    i = rng.randrange(len(cards))
    new = rng.choice(spare)
    pool[cards[i]] += 1
    pool[new] -= 1
    cards[i] = new


def _mutate_cards(body: Body, keys: list[str], rng: random.Random, decks: int) -> Body:
    """Add, drop or swap a card of one of the arrays ``keys`` (a path of dict keys, "a.b")."""
    def get(b: Body, key: str) -> list[str]:
        node: Any = b
        for part in key.split("."):
            node = node[part]
        return node  # type: ignore[no-any-return]

    out = json.loads(json.dumps(body))
    arrays = {k: _ints(get(out, k)) for k in keys}
    used: Counter[int] = Counter()
    for cards in arrays.values():
        used.update(cards)
    pool = Counter({k: decks for k in range(KINDS)})
    pool.subtract(used)
    key = rng.choice(keys)
    cards = arrays[key]
    move = rng.random()
    if move < 0.3 and len(cards) < MAX_CARDS:
        spare = [k for k, n in pool.items() if n > 0]
        if spare:
            near = [k for k in spare if k in cards]  # another copy of a card held: pairs, tuples
            cards.append(rng.choice(near if near and rng.random() < 0.7 else spare))
    elif move < 0.5 and len(cards) > 1:
        cards.pop(rng.randrange(len(cards)))
    else:
        _swap(cards, pool, rng)
    node: Any = out
    *parents, last = key.split(".")
    for part in parents:
        node = node[part]
    node[last] = _strs(sorted(cards))
    if rng.random() < 0.05:
        out["trump"] = _trump(rng)
    return out


def _mutate_follow(body: Body, rng: random.Random) -> Body:
    out = _mutate_cards(body, ["lead", "hand"], rng, preset(body["rules"]).decks)
    if "play" in out:
        hand = out["hand"]
        out["play"] = rng.sample(hand, len(out["lead"])) if len(hand) >= len(out["lead"]) else hand
    return out


def _fresh_throw(rng: random.Random) -> Body:
    name = rng.choice(MULTI_DECK)
    body: Body = {"rules": name, "trump": _trump(rng), "leader": 0}
    order = _order(body)
    pack = _pack(preset(name).decks)
    rng.shuffle(pack)
    suit = rng.choice([4, 0, 1, 2, 3])
    lead = _suited(order, pack, suit, rng.randint(6, 40), rng)
    hands = {}
    for seat in ("1", "2", "3"):  # the others, rich in the led suit: what a throw is judged against
        own = _suited(order, pack, suit, rng.randint(0, 50), rng)
        extra = pack[: rng.randint(0, 40)]
        del pack[: len(extra)]
        hands[seat] = _strs(sorted(own + extra))
    return body | {"lead": _strs(lead), "hands": hands}


def _mutate_throw(body: Body, rng: random.Random) -> Body:
    return _mutate_cards(body, ["lead", "hands.1", "hands.2", "hands.3"], rng, preset(body["rules"]).decks)


def _fresh_trick(rng: random.Random) -> Body:
    name = rng.choice(MULTI_DECK)
    body: Body = {"rules": name, "trump": _trump(rng), "leader": rng.randrange(4)}
    order = _order(body)
    pack = _pack(preset(name).decks)
    rng.shuffle(pack)
    suit = rng.choice([4, 0, 1, 2, 3])
    lead = _suited(order, pack, suit, rng.randint(4, 40), rng)
    n = len(lead)
    hands = [lead + _suited(order, pack, suit, rng.randint(0, 10), rng)]
    for _ in range(3):
        own = _suited(order, pack, suit, rng.randint(0, 60), rng)
        extra = pack[: max(0, n + rng.randint(0, 30) - len(own))]
        del pack[: len(extra)]
        hands.append(own + extra)
    plays = [lead] + [rng.sample(h, n) if len(h) >= n else h for h in hands[1:]]
    if any(len(p) != n for p in plays):
        return _fresh_trick(rng)
    seats = {str((body["leader"] + i) % 4): _strs(sorted(h)) for i, h in enumerate(hands)}
    body |= {"plays": [_strs(p) for p in plays]}
    if rng.random() < 0.8:
        body["hands"] = seats
    return body


def _mutate_trick(body: Body, rng: random.Random) -> Body:
    if "hands" not in body:
        return _fresh_trick(rng)
    seat = str(rng.randrange(4))
    out = _mutate_cards(body, [f"hands.{seat}"], rng, preset(body["rules"]).decks)
    i = (int(seat) - body["leader"]) % 4
    n = len(body["plays"][0])
    hand = out["hands"][seat]
    if len(hand) < n:
        return body
    if i == 0:
        return body  # the lead stays (it must be in the leader's hand)
    out["plays"][i] = rng.sample(hand, n)
    return out


def _fresh_hand(rng: random.Random) -> Body:
    from tests.deal import play_hand

    name = rng.choice(MULTI_DECK + ["two-deck"])
    deal = play_hand(preset(name), rng.randrange(1_000_000))
    return {
        "rules": name, "trump": deal.trump.as_json(), "dealer": deal.dealer, "levels": {"A": "5", "B": "7"},
        "hands": {str(s): _strs(h) for s, h in deal.hands.items()}, "kitty": _strs(deal.kitty),
        "tricks": [
            {"leader": t.leader, "plays": [_strs(list(p)) for p in t.plays]}
            | ({} if t.attempted_throw is None else {"attempted_throw": _strs(list(t.attempted_throw))})
            for t in deal.tricks
        ],
        "strict": rng.random() < 0.5,
    }


def _mutate_hand(body: Body, rng: random.Random) -> Body:
    return _fresh_hand(rng)  # a whole hand has no small legal change: another deal


def _bid_cards(rng: random.Random, level: str, decks: int) -> list[str]:
    card = rng.choice([f"{level}{s}" for s in SUITS] + ["SJ", "BJ"])
    return [card] * rng.randint(1, decks)


def _bids_fit(bids: list[Body], decks: int) -> bool:
    """No card shown by the seats together more often than the decks hold it (a seat
    showing a card again shows the same copies)."""
    shown: dict[tuple[int, str], int] = {}
    for bid in bids:
        for card, n in Counter(bid["cards"]).items():
            shown[bid["seat"], card] = max(shown.get((bid["seat"], card), 0), n)
    total: Counter[str] = Counter()
    for (_, card), n in shown.items():
        total[card] += n
    return all(n <= decks for n in total.values())


def _fresh_resolve(rng: random.Random) -> Body:
    name = rng.choice(list(PRESET_VALUES))
    decks = preset(name).decks
    level = rng.choice(RANKS)
    bids: list[Body] = []
    for _ in range(rng.randint(1, 40)):
        bid = {"seat": rng.randrange(4), "cards": _bid_cards(rng, level, decks)}
        if _bids_fit([*bids, bid], decks):
            bids.append(bid)
    return {"rules": name, "trump": {"level": level}, "bids": bids or [{"seat": 0, "cards": [f"{level}S"]}]}


def _mutate_resolve(body: Body, rng: random.Random) -> Body:
    out = json.loads(json.dumps(body))
    decks = preset(out["rules"]).decks
    bids = out["bids"]
    move = rng.random()
    new = {"seat": rng.randrange(4), "cards": _bid_cards(rng, out["trump"]["level"], decks)}
    if move < 0.4 and len(bids) < 200:
        bids.insert(rng.randrange(len(bids) + 1), new)
    elif move < 0.6 and len(bids) > 1:
        bids.pop(rng.randrange(len(bids)))
    else:
        bids[rng.randrange(len(bids))] = new
    return out if _bids_fit(bids, decks) else body


def _fresh_bid(rng: random.Random) -> Body:
    name = rng.choice(list(PRESET_VALUES))
    decks = preset(name).decks
    level = rng.choice(RANKS)
    standing = None if rng.random() < 0.3 else {"seat": rng.randrange(4), "cards": _bid_cards(rng, level, decks)}
    return {"rules": name, "trump": {"level": level}, "standing": standing,
            "bid": {"seat": rng.randrange(4), "cards": _bid_cards(rng, level, decks)}}


SPACES = {
    "/v1/follow": Space("/v1/follow", _fresh_follow, _mutate_follow),
    "/v1/throw": Space("/v1/throw", _fresh_throw, _mutate_throw),
    "/v1/trick": Space("/v1/trick", _fresh_trick, _mutate_trick),
    "/v1/hand": Space("/v1/hand", _fresh_hand, _mutate_hand),
    "/v1/bid/resolve": Space("/v1/bid/resolve", _fresh_resolve, _mutate_resolve),
    "/v1/bid": Space("/v1/bid", _fresh_bid, lambda body, rng: _fresh_bid(rng)),
}


# --- the search --------------------------------------------------------------------------------

@dataclass
class Found:
    cpu_ms: float
    status: int
    body: Body


def search(
    worker: ColdWorker, space: Space, seconds: float, rng: random.Random, starts: list[Body] | None = None
) -> tuple[Found, int]:
    """The costliest body found in ``seconds`` (random for a third, then hill-climbing,
    also from ``starts``, bodies found before); and how many bodies were tried."""
    def fits(body: Body) -> bool:
        return len(orjson.dumps(body)) <= MAX_BODY_BYTES

    best: list[Found] = []  # the few costliest, to climb from
    for body in starts or []:
        cpu, status = worker.cost(space.path, body)
        best.append(Found(cpu, status, body))
    best = sorted(best, key=lambda f: -f.cpu_ms)[:5]
    start = time.monotonic()
    tried = 0
    while time.monotonic() - start < seconds:
        climbing = best and time.monotonic() - start > seconds / 3
        if climbing:
            parent = best[0] if rng.random() < 0.7 else rng.choice(best)
            body = space.mutate(parent.body, rng)
        else:
            body = space.fresh(rng)
        if not fits(body):
            continue
        cpu, status = worker.cost(space.path, body)
        tried += 1
        if status >= 500:
            raise SystemExit(f"{space.path} answered {status}: {orjson.dumps(body).decode()}")
        if len(best) < 5 or cpu > best[-1].cpu_ms:
            best = sorted([*best, Found(cpu, status, body)], key=lambda f: -f.cpu_ms)[:5]
    # measured again: the least of five calls of each finalist
    finalists = []
    for f in best:
        costs = [worker.cost(space.path, f.body) for _ in range(5)]
        finalists.append(Found(min(c for c, _ in costs), costs[-1][1], f.body))
    return max(finalists, key=lambda f: f.cpu_ms), tried


def shape(body: Body) -> str:
    """A line saying what the body is, for the table."""
    parts = [str(body.get("rules"))]
    for key in ("lead", "hand", "play", "plays", "hands", "tricks", "bids"):
        value = body.get(key)
        if isinstance(value, list):
            inner = [len(v) if isinstance(v, list) else 1 for v in value]
            parts.append(f"{key} {len(value)}" + ("" if key in ("lead", "hand", "play", "tricks", "bids")
                                                  else f" ({max(inner)} max)"))
        elif isinstance(value, dict):
            parts.append(f"{key} " + "/".join(str(len(v)) for v in value.values()))
    return ", ".join(parts)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60, help="search time per endpoint")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--only", nargs="*", choices=sorted(SPACES), help="endpoints to search")
    parser.add_argument("--save", type=Path, help="write the worst bodies as JSON")
    parser.add_argument("--start", type=Path, nargs="*", default=[],
                        help="climb also from these bodies: files as --save writes them, or JSON lists of "
                             '{"path", "body"} (e.g. bench/soak.py --failures)')
    args = parser.parse_args(argv)
    starts: dict[str, list[Body]] = {}
    for file in args.start:
        cases = json.loads(file.read_text(encoding="utf-8"))
        items = cases.items() if isinstance(cases, dict) else [(c["path"], c) for c in cases]
        for path, case in items:
            starts.setdefault(path, []).append(case["body"])
    worker = ColdWorker()
    results: dict[str, Any] = {}
    print(f"worst requests: {args.seconds:g} s of search per endpoint, CPU ms on a cold worker "
          f"(python {sys.version.split()[0]}, seed {args.seed})")
    for path in args.only or list(SPACES):
        found, tried = search(worker, SPACES[path], args.seconds, random.Random(f"{args.seed}{path}"),
                              starts.get(path))
        size = len(orjson.dumps(found.body))
        print(f"  {path:16s} {found.cpu_ms:8.1f} ms  status {found.status}  {size:6d} bytes  "
              f"({tried} bodies tried)  {shape(found.body)}", flush=True)
        results[path] = {"cpu_ms": round(found.cpu_ms, 1), "status": found.status, "body": found.body}
    if args.save:
        args.save.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
