"""What gzip costs and saves on the referee's answers (service/app.py's setting).

For every example answer of openapi.yaml (tools/spec_examples.py: one per
operation and per problem), and the documents the service serves: its size,
the CPU time of the request through the WSGI app (warm: the same request
again, so the engine's caches answer) and of gzip at levels 1 and 6, with the
compressed sizes.  CPU time (``time.process_time``), so neighbours on a busy
machine disturb it less than wall-clock time; best of several rounds.

    python -m bench.compression [--rounds 5]
"""

from __future__ import annotations

import argparse
import gzip
import time
from collections.abc import Callable

from service.app import create_app
from tools import spec_examples


def cpu_ms(fn: Callable[[], object], rounds: int) -> float:
    """Best of ``rounds`` rounds of CPU milliseconds per call."""
    best = float("inf")
    for _ in range(rounds):
        n = 20
        start = time.process_time()
        for _ in range(n):
            fn()
        best = min(best, (time.process_time() - start) / n)
    return best * 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    client = create_app({"TESTING": True, "ACCESS_LOG": False}).test_client()
    cases = [(ex.name, ex) for ex in spec_examples.exchanges(spec_examples.load_spec())]
    cases += [(path, spec_examples.Exchange(path, path, path, "GET", path)) for path in ("/openapi.yaml", "/metrics")]
    print(f"{'answer':30} {'bytes':>7} {'request ms':>10} {'gzip-1 ms':>9} {'bytes':>6} {'gzip-6 ms':>9} {'bytes':>6}")
    for name, ex in cases:
        def request(ex: spec_examples.Exchange = ex) -> bytes:
            return bytes(client.open(ex.url, method=ex.method, data=ex.body,
                                     content_type=ex.content_type if ex.body is not None else None).get_data())
        body = request()
        req = cpu_ms(request, args.rounds)
        fast = cpu_ms(lambda body=body: gzip.compress(body, 1), args.rounds)
        best = cpu_ms(lambda body=body: gzip.compress(body, 6), args.rounds)
        print(f"{name:30} {len(body):7d} {req:10.3f} {fast:9.3f} {len(gzip.compress(body, 1)):6d}"
              f" {best:9.3f} {len(gzip.compress(body, 6)):6d}")


if __name__ == "__main__":
    main()
