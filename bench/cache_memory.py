"""Bytes per entry of every engine cache under heavy traffic: python bench/cache_memory.py.

The engine's caches (engine/caches.py) are bounded by entries; what bounds a
worker's memory is entries times bytes per entry.  This script sends, in
process through the WSGI app (as a gunicorn worker runs it), the soak's request
mix with ``--heavy`` fresh heavy bodies (bench/soak.py: four-deck follows of long
tractor leads against hands of up to 216 cards, throws, tricks with hands,
whole-hand audits) and ``--ordinary`` ordinary ones, with ``tracemalloc``
tracing every allocation; then it empties the caches one at a time (in
engine/caches.py's order, ``cache_clear``, then a garbage collection) and
reads how many traced bytes each one freed.  Bytes per entry is that over the
entries the cache held; at its bound a cache would hold about bound times
that.  Objects several caches share are freed with the last of them to let go
(so a boundary cache such as the trump order reads less than it holds when it
is emptied first): ``--order reverse`` empties them in the opposite order, and
the figure engine/caches.py records for a cache (its ``entry_bytes``) is the larger
of the two runs' (shared objects counted with every cache that holds them, an
overestimate of the total).  The sum over all caches in one run is what
emptying them all frees.

    python bench/cache_memory.py [--heavy 3000] [--ordinary 3000] [--seed 21] [--order reverse]

It prints, per cache: entries held, bound, freed KiB, bytes per entry, and the
estimate at the bound (MiB); then the totals, against the byte budget
engine/caches.py states (``BYTE_BUDGET``).  tracemalloc counts what Python asked
the allocator for; a worker's RSS is more (the interpreter, the imports, the
allocator's free lists and fragmentation): bench/soak.py measures that.
"""

from __future__ import annotations

import argparse
import gc
import io
import time
import tracemalloc

try:  # python bench/X.py: bench/ is sys.path[0], and this checkout's helper is there
    from _checkout import ROOT  # noqa: F401
except ModuleNotFoundError:  # python -m bench.X, or imported: the working directory is first
    from bench._checkout import ROOT  # noqa: F401

MIB = 1024 * 1024


def rss_mib() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heavy", type=int, default=3000, help="fresh heavy bodies sent")
    parser.add_argument("--ordinary", type=int, default=3000, help="ordinary bodies sent")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--order", choices=("forward", "reverse"), default="forward",
                        help="empty the caches in engine/caches.py's order or the opposite one")
    args = parser.parse_args(argv)

    from bench.soak import bodies
    from bench.wsgi import call, environ_for
    from engine.caches import BYTE_BUDGET, CACHES, byte_bound
    from service.app import create_app

    app = create_app({"LOG_STREAM": io.StringIO()})
    plain, heavy = bodies(args.ordinary, args.heavy, args.seed)
    requests = [*heavy[: args.heavy + args.heavy // 20], *plain[: args.ordinary]]
    print(f"{len(requests)} requests ({min(len(heavy), args.heavy + args.heavy // 20)} heavy, fresh), "
          f"tracemalloc on; RSS at the start {rss_mib():.1f} MiB", flush=True)
    tracemalloc.start()
    started = time.monotonic()
    statuses: dict[str, int] = {}
    for i, (path, data) in enumerate(requests):
        status = call(app, environ_for("POST", path, data))[:3]
        statuses[status] = statuses.get(status, 0) + 1
        if i % 1000 == 999:
            print(f"  {i + 1} requests, {time.monotonic() - started:.0f} s, traced "
                  f"{tracemalloc.get_traced_memory()[0] / MIB:.1f} MiB, RSS {rss_mib():.1f} MiB", flush=True)
    gc.collect()
    traced_full = tracemalloc.get_traced_memory()[0]
    rss_full = rss_mib()
    print(f"answers by status {dict(sorted(statuses.items()))}; traced {traced_full / MIB:.1f} MiB, "
          f"RSS {rss_full:.1f} MiB\n")
    print(f"{'cache':36} {'entries':>8} {'bound':>6} {'freed KiB':>10} {'B/entry':>8} {'at bound MiB':>13}")
    total_freed = total_at_bound = 0.0
    measured: dict[str, float] = {}
    for cache in CACHES if args.order == "forward" else CACHES[::-1]:
        info = cache.function.cache_info()
        before = tracemalloc.get_traced_memory()[0]
        cache.function.cache_clear()  # type: ignore[attr-defined]
        gc.collect()
        freed = before - tracemalloc.get_traced_memory()[0]
        per = freed / info.currsize if info.currsize else 0.0
        if cache.bound is not None:
            measured[cache.name] = per
        at_bound = per * (cache.bound or info.currsize)
        total_freed += freed
        total_at_bound += at_bound
        print(f"{cache.name:36} {info.currsize:8d} {cache.bound or 0:6d} {freed / 1024:10.0f} {per:8.0f} "
              f"{at_bound / MIB:13.2f}")
    print(f"{'all caches':36} {'':8} {'':6} {total_freed / 1024:10.0f} {'':8} {total_at_bound / MIB:13.2f}")
    print(f"\nfreed by emptying every cache: {total_freed / MIB:.1f} MiB of {traced_full / MIB:.1f} MiB traced; "
          f"RSS {rss_full:.1f} -> {rss_mib():.1f} MiB (the allocator keeps much of what is freed)")
    print(f"estimate with every cache at its bound: {total_at_bound / MIB:.1f} MiB; with engine/caches.py's "
          f"entry_bytes: {byte_bound() / MIB:.1f} MiB (BYTE_BUDGET {BYTE_BUDGET / MIB:.0f} MiB)")
    recorded = {c.name: c.entry_bytes for c in CACHES}
    over = [n for n, b in measured.items() if b > recorded[n]]
    if over:
        print(f"measured above entry_bytes: {', '.join(f'{n} {measured[n]:.0f}' for n in over)}")


if __name__ == "__main__":
    main()
