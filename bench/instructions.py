"""Instructions per request through the WSGI app, counted by valgrind: a steady figure.

On a shared machine wall-clock figures move with the neighbours; the number of
machine instructions a request executes does not.  This runs bench/wsgi.py's
requests (``GET /healthz`` and every body of bench/bodies.py, warm) under
``valgrind --tool=callgrind``, with a marker call (``os.getppid``) between the
cases so callgrind dumps a counter per case, and prints thousands of
instructions (kIr) per request and the difference to ``/healthz``.

    apt-get install valgrind
    python bench/instructions.py [--requests 30] [--vary] [--only LABELS]

The apps are made and frozen (``gc.freeze``) before any request, as gunicorn's
workers are forked from a preloaded master (service/gunicorn_conf.py).

``--vary`` adds bench/wsgi.py's "(varied)" cases (a body never sent before on
every request, warming included); ``--only`` keeps the cases whose label starts
with one of the comma-separated prefixes (``/healthz`` is always kept).

It takes about a minute (valgrind runs Python some fifty times slower).
"""

from __future__ import annotations

import argparse
import gc
import glob
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

try:  # python bench/X.py: bench/ is sys.path[0], and this checkout's helper is there
    from _checkout import ROOT  # noqa: F401
except ModuleNotFoundError:  # python -m bench.X, or imported: the working directory is first
    from bench._checkout import ROOT  # noqa: F401


WARM = 20  # requests per case before counting
BARE = "GET /healthz (bare Flask, bench/bare.py)"


def inner(requests: int, names_file: str, vary: bool, only: str | None) -> None:
    """Under valgrind: warm every case, then run each between two markers."""
    from bench import bare
    from bench.wsgi import call, cases, environ_for
    from service.app import create_app

    app = create_app({"LOG_STREAM": io.StringIO()})
    service_cases = cases(WARM + requests if vary else 0)
    if only:
        prefixes = tuple(p.strip() for p in only.split(",") if p.strip())
        service_cases = {n: m for i, (n, m) in enumerate(service_cases.items()) if i == 0 or n.startswith(prefixes)}
    all_cases = {BARE: (bare.create_app(), environ_for("GET", "/healthz", None))}
    all_cases.update((name, (app, make)) for name, make in service_cases.items())
    # as a gunicorn worker starts (service/gunicorn_conf.py's pre_fork): what the apps made is
    # frozen, so no collection in a counted stretch walks it.  Unfrozen, which stretch a
    # collection fell in moved with any change of the allocations: the unchanged bare app
    # read 368 and 378 kIr in two runs, 366.3 and 366.9 frozen.
    gc.collect()
    gc.freeze()
    for one, make in all_cases.values():
        for _ in range(WARM):
            call(one, make)
    for one, make in all_cases.values():
        os.getppid()  # marker: callgrind dumps the counts so far
        for _ in range(requests):
            call(one, make)
    os.getppid()
    Path(names_file).write_text("\n".join(all_cases), encoding="utf-8")


def dump_totals(paths: list[str]) -> list[int]:
    """The instructions of each callgrind dump among ``paths`` (one process's
    ``out.PID.N``, the N-th dump, and ``out.PID``, written at its exit), in the
    order callgrind wrote them."""

    def part(path: str) -> int:  # out.PID.N for the N-th dump; out.PID (no N) is the last
        tail = os.path.basename(path).split(".")[2:]
        return int(tail[0]) if tail else 1 << 30

    totals = []
    for path in sorted(paths, key=part):
        text = Path(path).read_text(encoding="utf-8", errors="replace")
        found = re.search(r"^(?:totals|summary):\s+(\d+)", text, re.M)
        totals.append(int(found.group(1)) if found else 0)
    return totals


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=30, help="requests per case")
    parser.add_argument("--vary", action="store_true", help="add the varied cases of bench/wsgi.py")
    parser.add_argument("--only", default=None, help="comma-separated label prefixes")
    parser.add_argument("--inner", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inner:
        inner(args.requests, args.inner, args.vary, args.only)
        return
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as metrics_dir:
        names = os.path.join(tmp, "names.txt")
        subprocess.run(
            ["valgrind", "--tool=callgrind", "--dump-before=getppid",
             f"--callgrind-out-file={tmp}/out.%p", os.path.realpath(sys.executable), __file__,
             "--requests", str(args.requests), "--inner", names,
             *(["--vary"] if args.vary else []), *(["--only", args.only] if args.only else [])],
            check=True, capture_output=True, env=dict(os.environ, PYTHONHASHSEED="0", PROMETHEUS_MULTIPROC_DIR=metrics_dir),
        )

        totals = dump_totals(glob.glob(f"{tmp}/out.*"))
        labels = Path(names).read_text(encoding="utf-8").split("\n")
    per = [t / args.requests / 1000 for t in totals[1 : 1 + len(labels)]]  # dump 0: start-up and warming
    print(f"instructions per request (kIr), {args.requests} warm requests per case, python {sys.version.split()[0]}")
    print("+floor: beyond the service's /healthz; bare/kIr: the bare app's /healthz over the request's")
    floor = per[labels.index(next(n for n in labels if n.startswith("GET /healthz (floor)")))]
    bare_k = per[labels.index(BARE)]
    print(f"{'request':44} {'kIr':>8} {'+floor':>8} {'bare/kIr':>8}")
    for label, k in zip(labels, per, strict=True):
        print(f"{label:44} {k:8.0f} {k - floor:8.0f} {bare_k / k:8.0%}")


if __name__ == "__main__":
    main()
