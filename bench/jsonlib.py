"""orjson against the standard library's json on the referee's own bodies.

For every body of bench/bodies.py: parsing the request body and writing the
response body (the response the app really sends, parsed back to objects),
with orjson (service.jsonio) and with ``json`` as Flask's default provider
calls it (compact, ASCII-escaped).  Prints microseconds per request, best of
several rounds.

    python bench/jsonlib.py [--number 2000]
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import timeit

try:  # python bench/X.py: bench/ is sys.path[0], and this checkout's helper is there
    from _checkout import ROOT  # noqa: F401
except ModuleNotFoundError:  # python -m bench.X, or imported: the working directory is first
    from bench._checkout import ROOT  # noqa: F401

import orjson  # noqa: E402

from bench.bodies import BODIES  # noqa: E402
from service.app import create_app  # noqa: E402


def best_us(fn: object, number: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=5)) / number * 1e6  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=2000)
    args = parser.parse_args(argv)
    client = create_app({"LOG_STREAM": io.StringIO()}).test_client()
    print(f"µs per request, best of 5 x {args.number} (orjson {orjson.__version__}, python {sys.version.split()[0]})")
    print(f"{'body':44} {'bytes in/out':>13} {'orjson':>7} {'json':>7}")
    for name, (path, body) in BODIES.items():
        raw = orjson.dumps(body)
        answer = client.post(path, json=body).get_json()
        out = orjson.dumps(answer)
        fast = best_us(lambda raw=raw, answer=answer: (orjson.loads(raw), orjson.dumps(answer)), args.number)
        slow = best_us(
            lambda raw=raw, answer=answer: (json.loads(raw), json.dumps(answer, separators=(",", ":"))),
            args.number,
        )
        print(f"{name:44} {len(raw):6}/{len(out):<6} {fast:7.1f} {slow:7.1f}")


if __name__ == "__main__":
    main()
