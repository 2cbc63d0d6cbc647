"""In-process cost of one request through the whole WSGI app (no server, no network).

Calls ``create_app()`` as gunicorn's sync worker would (a WSGI environ with the
body, ``start_response``, the body iterated and closed) for ``GET /healthz`` and
every body of bench/bodies.py, and prints microseconds per request (best and
median of rounds, each the mean over a batch) and the difference to
``/healthz``: the work an endpoint adds to the HTTP floor.  Far steadier than wrk on a shared
machine, so it is the figure to optimise against; bench/load.py gives the
end-to-end ratios.

    python bench/wsgi.py [--batch 200] [--rounds 15] [--profile NAME] [--vary]

``--vary`` adds a "(varied)" case for follow, trick, throw and kitty that sends
a body never seen before on every request (bench.bodies.varied: real moments
of whole hands), so the engine's per-hand caches do not help, as for a
platform asking about a new hand every time.

``--profile NAME`` runs cProfile over one body (label prefix match) and prints
the top functions by cumulative and by own time.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

try:  # python bench/X.py: bench/ is sys.path[0], and this checkout's helper is there
    from _checkout import ROOT  # noqa: F401
except ModuleNotFoundError:  # python -m bench.X, or imported: the working directory is first
    from bench._checkout import ROOT  # noqa: F401

import orjson  # noqa: E402

from bench.bodies import BODIES  # noqa: E402
from service.app import create_app  # noqa: E402


def environ_for(method: str, path: str, body: bytes | None) -> Callable[[], dict[str, Any]]:
    """A factory of fresh WSGI environs for one request (as gunicorn builds them)."""
    base = {
        "REQUEST_METHOD": method,
        "SCRIPT_NAME": "",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "REMOTE_PORT": "40000",
        "HTTP_HOST": "127.0.0.1:8000",
        "HTTP_USER_AGENT": "wrk",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if body is not None:
        base["CONTENT_TYPE"] = "application/json"
        base["CONTENT_LENGTH"] = str(len(body))

    def make() -> dict[str, Any]:
        env = dict(base)
        env["wsgi.input"] = io.BytesIO(body or b"")
        return env

    return make


def call(app: Any, make: Callable[[], dict[str, Any]]) -> str:
    status: list[str] = []

    def start_response(s: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        status.append(s)

    result = app(make(), start_response)
    try:
        for _ in result:
            pass
    finally:
        if hasattr(result, "close"):
            result.close()
    return status[0]


def warm(app: Any, make: Callable[[], dict[str, Any]], batch: int) -> None:
    status = call(app, make)
    if not status.startswith("200"):
        raise SystemExit(f"not a 200: {status}")
    for _ in range(batch // 4):
        call(app, make)


def batch_us(app: Any, make: Callable[[], dict[str, Any]], batch: int) -> float:
    """Mean microseconds per request over one batch."""
    start = time.perf_counter()
    for _ in range(batch):
        call(app, make)
    return (time.perf_counter() - start) / batch * 1e6


def cases(vary: int = 0) -> dict[str, Callable[[], dict[str, Any]]]:
    """Environ factories per label; with ``vary`` > 0 also one "(varied)" case per
    endpoint of ``bench.bodies.varied`` that hands out ``vary`` distinct bodies in turn."""
    out = {"GET /healthz (floor)": environ_for("GET", "/healthz", None)}
    for name, (path, body) in BODIES.items():
        out[name] = environ_for("POST", path, orjson.dumps(body))
    if vary:
        from bench.bodies import varied
        from bench.load import VARIED_PATHS

        for path in VARIED_PATHS:
            makers = [environ_for("POST", path, orjson.dumps(b)) for b in varied(path, vary)]
            out[f"POST {path} (varied)"] = _in_turn(makers)
    return out


def _in_turn(makers: list[Callable[[], dict[str, Any]]]) -> Callable[[], dict[str, Any]]:
    turn = iter(range(1 << 62))
    return lambda: makers[next(turn) % len(makers)]()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--profile", default=None, help="cProfile one body (label prefix)")
    parser.add_argument("--vary", action="store_true",
                        help="add varied cases: a body never sent before on every request")
    args = parser.parse_args(argv)
    # as under gunicorn: JSON access lines written (here to a discarded buffer), metrics kept
    app = create_app({"LOG_STREAM": io.StringIO()})
    # varied cases: enough distinct bodies for the warm-up, every round (or the profile) and some
    all_cases = cases((args.rounds + 7) * args.batch if args.vary else 0)
    if args.profile:
        import cProfile
        import pstats

        name = next(n for n in all_cases if n.startswith(args.profile))
        make = all_cases[name]
        for _ in range(50):
            call(app, make)
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(args.batch * 5):
            call(app, make)
        prof.disable()
        stats = pstats.Stats(prof)
        stats.sort_stats("cumulative").print_stats(40)
        stats.sort_stats("tottime").print_stats(30)
        return
    for make in all_cases.values():
        warm(app, make, args.batch)
    # rounds interleave the cases, so a busy spell of the machine touches them all alike;
    # the best round is the figure least disturbed by other processes
    times: dict[str, list[float]] = {name: [] for name in all_cases}
    for _ in range(args.rounds):
        for name, make in all_cases.items():
            times[name].append(batch_us(app, make, args.batch))
    floor = min(times["GET /healthz (floor)"])
    print(f"in-process WSGI cost, µs per request (best and median of {args.rounds} rounds of {args.batch})")
    print(f"{'request':44} {'best':>7} {'median':>7} {'best-floor':>11}")
    for name, ts in times.items():
        print(f"{name:44} {min(ts):7.0f} {statistics.median(ts):7.0f} {min(ts) - floor:11.0f}")

if __name__ == "__main__":
    main()
