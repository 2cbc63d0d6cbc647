"""Memory under a long varied load: python bench/soak.py [--requests N] [--seconds S].

Starts gunicorn with the repo's config (``gunicorn.conf.py``: 2 sync workers,
preloaded, workers recycled after ~10,000 requests) on a free loopback port and
sends ``--requests`` (default 100,000) requests from ``--connections`` keep-alive
clients, bounded by ``--seconds``; then stops gunicorn by its PID.

The bodies vary as a platform's do: every body of bench/bodies.py, thousands of
different moments of dealt hands (``bench.bodies.varied``: follows, tricks,
throws, kitties), and a share (``--heavy``, default 3 %) of the heavy kinds, fresh
bodies (as many as will be sent, up to 5,000: each new to the caches) from
bench/worst.py's generators (four-deck follows of long tractor
leads against hands of up to 216 cards, throws, tricks with hands, whole-hand
audits) plus the worst bodies it saved (bench/worst_bodies.json), so the
engine's caches fill with what costs them most.

Every ``--every`` seconds a line: requests done, the rate, each worker's RSS
(MiB), the master's, and the Pss of master and workers together (shared pages
counted once: what the pod's memory accounting sees).  At the end: the peak and
final figures, and the answers by status (anything but 200 and 422 is a failure).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import signal
import threading
import time
from collections import Counter
from pathlib import Path

try:  # python bench/X.py: bench/ is sys.path[0], and this checkout's helper is there
    from _checkout import ROOT
except ModuleNotFoundError:  # python -m bench.X, or imported: the working directory is first
    from bench._checkout import ROOT

import orjson  # noqa: E402

from bench.bodies import BODIES, varied  # noqa: E402
from bench.load import free_port, gunicorn_workers, start_gunicorn  # noqa: E402

MIB = 1024 * 1024


def _kib(pid: int, path: str, field: str) -> int:
    try:
        with open(f"/proc/{pid}/{path}", encoding="ascii") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def rss_mib(pid: int) -> float:
    return _kib(pid, "status", "VmRSS") / 1024


def pss_mib(pid: int) -> float:
    return _kib(pid, "smaps_rollup", "Pss") / 1024


def bodies(ordinary: int, heavy: int, seed: int) -> tuple[list[tuple[str, bytes]], list[tuple[str, bytes]]]:
    """(ordinary, heavy) request bodies, encoded once."""
    from bench import worst

    rng = random.Random(seed)
    plain = [(path, orjson.dumps(body)) for path, body in BODIES.values()]
    per = max(1, ordinary // 4)
    for path in ("/v1/follow", "/v1/trick", "/v1/throw", "/v1/kitty"):
        plain += [(path, orjson.dumps(b)) for b in varied(path, per, seed)]
    heavy_bodies: list[tuple[str, bytes]] = []
    saved = ROOT / "bench" / "worst_bodies.json"
    if saved.is_file():
        heavy_bodies += [(path, orjson.dumps(case["body"])) for path, case in json.loads(saved.read_text()).items()]
    kinds = ["/v1/follow", "/v1/follow", "/v1/throw", "/v1/trick"]
    while len(heavy_bodies) < heavy:
        path = rng.choice(kinds)
        body = worst.SPACES[path].fresh(rng)
        data = orjson.dumps(body)
        if len(data) <= worst.MAX_BODY_BYTES:
            heavy_bodies.append((path, data))
    heavy_bodies += [("/v1/hand", orjson.dumps(worst.SPACES["/v1/hand"].fresh(rng))) for _ in range(max(1, heavy // 20))]
    return plain, heavy_bodies


class Load:
    def __init__(self, port: int, plain: list[tuple[str, bytes]], heavy: list[tuple[str, bytes]],
                 share: float, total: int, deadline: float) -> None:
        self.port, self.plain, self.heavy, self.share = port, plain, heavy, share
        self.total, self.deadline = total, deadline
        self.sent = 0
        self.statuses: Counter[int] = Counter()
        self.failures: list[tuple[int, str, bytes]] = []  # (status, path, body) of each answer but 200/422
        self.lock = threading.Lock()

    def take(self) -> bool:
        with self.lock:
            if self.sent >= self.total or time.monotonic() > self.deadline:
                return False
            self.sent += 1
            return True

    def client(self, seed: int) -> None:
        rng = random.Random(seed)
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        while self.take():
            path, data = rng.choice(self.heavy if rng.random() < self.share else self.plain)
            try:
                conn.request("POST", path, body=data, headers={"Content-Type": "application/json"})
                resp = conn.getresponse()
                resp.read()
                status = resp.status
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                status = 0
            with self.lock:
                self.statuses[status] += 1
                if status not in (200, 422):
                    self.failures.append((status, path, data))
        conn.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=1800, help="stop after this long in any case")
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--heavy", type=float, default=0.03, help="share of heavy bodies")
    parser.add_argument("--every", type=float, default=10, help="seconds between memory lines")
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers (default: the config's)")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--log", type=Path, help="gunicorn's log lines (JSON) to this file")
    parser.add_argument("--failures", type=Path, help="the failed requests to this file (JSON; bench/worst.py --start reads it)")
    args = parser.parse_args(argv)

    # heavy bodies: as many as will be sent (up to 5,000), so each is new to the caches
    plain, heavy = bodies(4000, min(5000, max(400, int(args.requests * args.heavy))), args.seed)
    print(f"soak: {args.requests} requests ({args.heavy:.0%} heavy) from {args.connections} connections, "
          f"{len(plain)} ordinary and {len(heavy)} heavy bodies, at most {args.seconds:g} s", flush=True)
    port = free_port()
    proc = start_gunicorn(port, args.workers, args.log)
    load = Load(port, plain, heavy, args.heavy, args.requests, time.monotonic() + args.seconds)
    clients = [threading.Thread(target=load.client, args=(args.seed + i,), daemon=True)
               for i in range(args.connections)]
    start = time.monotonic()
    peak_worker = peak_pss = 0.0
    seen_workers: set[int] = set()
    try:
        for c in clients:
            c.start()
        last_sent, last_t = 0, start
        print(f"{'s':>6} {'requests':>9} {'req/s':>7}  workers RSS MiB          master  Pss all", flush=True)
        while any(c.is_alive() for c in clients):
            time.sleep(min(args.every, 1.0))
            now = time.monotonic()
            workers = gunicorn_workers(proc.pid)
            seen_workers |= set(workers)
            rss = [rss_mib(w) for w in workers]
            pss = pss_mib(proc.pid) + sum(pss_mib(w) for w in workers)
            peak_worker = max([peak_worker, *rss])
            peak_pss = max(peak_pss, pss)
            if now - last_t >= args.every or not any(c.is_alive() for c in clients):
                rate = (load.sent - last_sent) / (now - last_t)
                print(f"{now - start:6.0f} {load.sent:9d} {rate:7.0f}  "
                      f"{' '.join(f'{r:6.1f}' for r in rss):24s} {rss_mib(proc.pid):6.1f}  {pss:7.1f}", flush=True)
                last_sent, last_t = load.sent, now
        final = [rss_mib(w) for w in gunicorn_workers(proc.pid)]
        final_pss = pss_mib(proc.pid) + sum(pss_mib(w) for w in gunicorn_workers(proc.pid))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    elapsed = time.monotonic() - start
    print(f"done: {sum(load.statuses.values())} answers in {elapsed:.0f} s, by status {dict(sorted(load.statuses.items()))}")
    print(f"worker RSS at the end {' '.join(f'{r:.1f}' for r in final)} MiB, peak {peak_worker:.1f} MiB; "
          f"Pss of master and workers at the end {final_pss:.1f} MiB, peak {peak_pss:.1f} MiB; "
          f"{len(seen_workers)} worker processes seen (recycled after ~10,000 requests each)")
    if args.failures:
        failed = [{"status": status, "path": path, "body": orjson.loads(data)} for status, path, data in load.failures]
        args.failures.write_text(json.dumps(failed, indent=1) + "\n", encoding="utf-8")
    for status, path, data in load.failures[:3]:
        print(f"failed: {status} {path} {data[:300].decode()}...")
    if load.failures:
        raise SystemExit(f"{len(load.failures)} requests failed (status 0: the connection dropped)")


if __name__ == "__main__":
    main()
