"""What the per-request operations work costs: request id, metrics, JSON log line.

Times each hook piece inside one request context (no HTTP server, no test
client, whose own overhead would drown the figures) and prints microseconds
per request.  Measured on these machines: gunicorn costs ~400 µs of CPU per request, so every
100 µs of work is ~20 % of throughput.  Run the metrics as under gunicorn with
``PROMETHEUS_MULTIPROC_DIR=$(mktemp -d) python bench/ops_overhead.py``.
"""

from __future__ import annotations

import io
import os
import timeit

try:  # python bench/X.py: bench/ is sys.path[0], and this checkout's helper is there
    from _checkout import ROOT  # noqa: F401
except ModuleNotFoundError:  # python -m bench.X, or imported: the working directory is first
    from bench._checkout import ROOT  # noqa: F401

from service import logs, metrics  # noqa: E402
from service.app import create_app  # noqa: E402


def main() -> None:
    n = int(os.environ.get("N", "20000"))
    mode = "multiprocess (files)" if os.environ.get("PROMETHEUS_MULTIPROC_DIR") else "single-process"
    app = create_app({"LOG_STREAM": io.StringIO()})
    print(f"metrics {mode}; µs per request, best of 5 x {n}")
    with app.test_request_context("/v1/rulesets/two-deck", headers={"X-Request-ID": "bench-1"}):
        from flask import request

        req = request._get_current_object()  # type: ignore[attr-defined]
        access: logs.AccessLog = app.extensions["access_log"]
        pieces = {
            "request id (honoured)": lambda: logs.request_id_from("bench-1"),
            "request id (generated)": lambda: logs.request_id_from(None),
            "metrics.observe": lambda: metrics.observe("/v1/rulesets/<name>", "GET", 200, 0.001),
            "count_verdict": lambda: metrics.count_verdict("bench.legal", False),
            "JSON access line": lambda: access.line(req, "/v1/rulesets/<name>", 200, 0.001, "bench-1", 16),
        }
        total = 0.0
        for name, fn in pieces.items():
            us = min(timeit.repeat(fn, number=n, repeat=5)) / n * 1e6
            if name != "count_verdict" and name != "request id (honoured)":
                total += us
            print(f"  {name:24s} {us:7.2f}")
        print(f"  {'per request (generated id, observe, log line)':24s} {total:7.2f}")
        body, _ = metrics.exposition(None)
        us = min(timeit.repeat(lambda: metrics.exposition(None), number=200, repeat=3)) / 200 * 1e6
        print(f"  a metrics scrape ({len(body)} bytes)  {us:7.1f}")


if __name__ == "__main__":
    main()
