"""``tractor-referee audit`` on many hands: python bench/audit.py [--hands 10000] [--jobs 2].

Deals ``--hands`` two-deck hands with the test suite's generator (tests/deal.py,
seeds ``--seed``, ``--seed`` + 1, ...: the same hands every run), writes them as
JSON Lines, and audits the file with ``python -m service.cli audit FILE --jobs N``
(the text report, to /dev/null) for ``--jobs`` and for one process.  For each it
prints the wall time of the whole command and the command's own figure (from
the audits' start: without the interpreter's start), the hands per second, and
the CPU time of the command and its workers per hand, whose inverse times the
cores is the rate on idle cores (wall-clock rates move with whatever else runs
on the machine; CPU time moves much less).  Then what parallel work adds: the
start of the command on one hand, and the pickling of a record and of its
verdict (what goes to a worker and back).

``--file PATH`` keeps the dealt hands there and deals again only when the file
is missing.  ``--instructions N`` also counts, under valgrind's callgrind, the
instructions of an audit in one process per hand (the difference between N
hands and one, over N - 1): a figure no neighbour moves.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import pickle
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:  # python bench/X.py: bench/ is sys.path[0], and this checkout's helper is there
    from _checkout import ROOT
except ModuleNotFoundError:  # python -m bench.X, or imported: the working directory is first
    from bench._checkout import ROOT

import orjson  # noqa: E402

from service.auditor import Options, read_records  # noqa: E402

PRESET = "two-deck"
AUDITED = re.compile(r"audited (\d+) hand\(s\) in ([\d.]+) s")


def deal_line(seed: int) -> bytes:
    from engine.rules import preset
    from tests.deal import hand_body, play_hand

    return orjson.dumps(hand_body(play_hand(preset(PRESET), seed)))


def deal_file(path: Path, hands: int, seed: int, jobs: int) -> float:
    """Write ``hands`` dealt hands to ``path``; the seconds it took."""
    started = time.perf_counter()
    with multiprocessing.Pool(jobs) as pool:
        lines = pool.map(deal_line, range(seed, seed + hands), chunksize=64)
    path.write_bytes(b"\n".join(lines) + b"\n")
    return time.perf_counter() - started


def audit(path: Path, jobs: int) -> dict[str, float]:
    """One run of the command: wall seconds, its own seconds, CPU seconds (with its workers)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "service.cli", "audit", str(path), "--jobs", str(jobs)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, timeout=3600,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"the audit answered {done.returncode}: {done.stderr.decode()[-2000:]}")
    found = AUDITED.search(done.stderr.decode())
    assert found, done.stderr
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"hands": int(found.group(1)), "wall": wall, "own": float(found.group(2)), "cpu": cpu}


def transport(path: Path, count: int = 500) -> tuple[float, int, int]:
    """µs to pickle and unpickle a record and its verdict, and their mean sizes in bytes."""
    from service.auditor import judge

    records = read_records(str(path), sys.stdin.buffer)[:count]
    verdicts = [judge(r, Options()) for r in records]
    started = time.perf_counter()
    sizes = [0, 0]
    for record, verdict in zip(records, verdicts, strict=True):
        a, b = pickle.dumps(record), pickle.dumps(verdict)
        pickle.loads(a), pickle.loads(b)
        sizes[0] += len(a)
        sizes[1] += len(b)
    seconds = time.perf_counter() - started
    return seconds / len(records) * 1e6, sizes[0] // len(records), sizes[1] // len(records)


def instructions(path: Path, hands: int) -> float:
    """Instructions per hand of the audit in one process (callgrind), in thousands."""
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    lines = path.read_bytes().splitlines()
    totals = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (1, hands):
            part = Path(tmp) / f"hands{n}.jsonl"
            part.write_bytes(b"\n".join(lines[:n]) + b"\n")
            out = Path(tmp) / f"callgrind.{n}"
            subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", os.path.realpath(sys.executable),
                 "-m", "service.cli", "audit", str(part), "--jobs", "1"],
                cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                env=dict(os.environ, PYTHONHASHSEED="0"),
            )
            found = re.search(r"^(?:totals|summary):\s+(\d+)", out.read_text(errors="replace"), re.M)
            assert found
            totals.append(int(found.group(1)))
    return (totals[1] - totals[0]) / (hands - 1) / 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=20_000, help="the first hand's seed")
    parser.add_argument("--jobs", type=int, default=2, help="processes of the parallel run")
    parser.add_argument("--file", type=Path, default=None, help="keep the dealt hands here (and reuse them)")
    parser.add_argument("--instructions", type=int, default=0, metavar="N",
                        help="also count instructions per hand over N hands (valgrind, ~1 min per 100)")
    args = parser.parse_args(argv)
    cores = len(os.sched_getaffinity(0))
    with tempfile.TemporaryDirectory() as tmp:
        path = args.file or Path(tmp) / "hands.jsonl"
        if path.exists():
            print(f"hands: {path} (kept from an earlier run)")
        else:
            seconds = deal_file(path, args.hands, args.seed, args.jobs)
            print(f"hands: {args.hands} {PRESET} hands, seeds {args.seed}..{args.seed + args.hands - 1},"
                  f" dealt in {seconds:.1f} s, {path.stat().st_size / 1e6:.1f} MB")
        load = os.getloadavg()[0]
        print(f"machine: {cores} CPUs, load average {load:.1f} before the runs; python {sys.version.split()[0]}")
        print()
        print(f"{'run':12} {'hands':>6} {'wall s':>7} {'own s':>7} {'hands/s':>8} {'own h/s':>8}"
              f" {'CPU ms/hand':>12} {'idle-core h/s':>14}")
        for jobs in (args.jobs, 1):
            r = audit(path, jobs)
            per_hand = r["cpu"] / r["hands"]
            print(f"{f'--jobs {jobs}':12} {r['hands']:6.0f} {r['wall']:7.1f} {r['own']:7.1f}"
                  f" {r['hands'] / r['wall']:8.0f} {r['hands'] / r['own']:8.0f} {per_hand * 1e3:12.2f}"
                  f" {min(jobs, cores) / per_hand:14.0f}")
        print(f"load average after the runs: {os.getloadavg()[0]:.1f}")
        print()
        one = Path(tmp) / "one.jsonl"
        one.write_bytes(path.read_bytes().split(b"\n", 1)[0] + b"\n")
        starts = [audit(one, 1) for _ in range(3)]
        print(f"the command on one hand: {min(s['wall'] for s in starts) * 1e3:.0f} ms wall (best of 3),"
              f" {min(s['cpu'] for s in starts) * 1e3:.0f} ms CPU")
        micros, record_bytes, verdict_bytes = transport(path)
        print(f"to a worker and back: {micros:.0f} µs per hand to pickle and unpickle a record"
              f" ({record_bytes} B) and its verdict ({verdict_bytes} B)")
        if args.instructions:
            kir = instructions(path, args.instructions)
            print(f"instructions: {kir:,.0f} kIr per hand in one process ({args.instructions} hands, callgrind)")


if __name__ == "__main__":
    main()
