"""HTTP throughput and latency of every adjudication endpoint against two ceilings.

Starts gunicorn with the project's own gunicorn.conf.py on a free loopback port,
loads each endpoint with wrk (Debian package ``wrk``) for a bounded time with
realistic bodies (bench/bodies.py), and in the same run loads two ceilings: the
service's own ``GET /healthz`` (the HTTP stack with the service's access log,
metrics and request id) and the bare Flask app's ``GET /healthz`` (bench/bare.py,
served by a second gunicorn with the same number of workers and gunicorn's
defaults otherwise).  Prints requests/s, p50 and p99 per endpoint and every
ratio against both ceilings, then stops both gunicorns by their PIDs.

How the figures are read (a machine shared with other work moves a single wrk
run by ±10–20 points, so no figure here is one run):

* Every endpoint is measured in ``--rounds`` triples, each a run of the bare
  ceiling, of the service's ``/healthz`` and of the endpoint, back to back
  (``--seconds`` each; the order reversed every other round, so a drift of the
  machine within a triple favours neither side).  A ratio is computed within
  each triple, and what is printed is the median over the triples with its
  interquartile range (``q1–q3``: half the triples fall inside).  Many short
  triples give a steadier median than a few long ones in the same time.
* ``bare`` is the req/s ratio to the bare app's ``/healthz``: what issue 22's
  targets are stated in (≥ 90 % for the service's ``/healthz``, ≥ 65 % for
  every per-play adjudication).  ``ratio`` is the same against the service's
  own ``/healthz``.
* ``cpu`` and ``bare cpu`` are the same ratios read from CPU time instead of
  req/s: the CPU per request of the server's processes and of wrk, ceiling
  over endpoint, within each triple.  On two otherwise idle cores it is what
  the req/s ratio is; it moves less when other processes take CPU time from
  the run, so it is the figure to compare two runs with; where it and ``bare``
  disagree by more than their ranges, the machine was busy.
* p50 and p99 are medians over the rounds of wrk's percentiles.
* Each server and body is warmed by one unrecorded run first.

``--json PATH`` writes the figures; ``--compare PATH`` (an earlier run's
``--json``) prints, per row, how far this run's median ratios are from that
run's: the reproducibility of the figures on this machine.

With ``--vary`` the follow, trick, throw and kitty endpoints are also loaded
with a different body on every request (64 of each, ``bench.bodies.varied``:
real moments of whole hands), so the engine's per-hand caches help no more
than they help a platform asking about a new hand each time; those rows are
marked "(varied)".

    python bench/load.py [--seconds 1] [--rounds 7] [--connections 8] [--workers N] [--only LABELS] [--vary]
                         [--json PATH] [--compare PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bodies import BODIES, varied  # noqa: E402

VARIED_PATHS = ("/v1/follow", "/v1/trick", "/v1/throw", "/v1/kitty")
SLICE = 6000  # varied bodies handed to one wrk run: more than a 3 s run sends at 2,000 req/s


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_gunicorn(port: int, workers: int | None, log: Path | None = None) -> subprocess.Popen[bytes]:
    """The service, as deployed (gunicorn.conf.py), on ``port``; its log lines to ``log`` (else dropped)."""
    env = dict(os.environ, BIND=f"127.0.0.1:{port}", METRICS_PORT=str(free_port()))  # 9100 may be taken
    if workers:
        env["WORKERS"] = str(workers)
    out = open(log, "ab") if log else subprocess.DEVNULL  # the child holds it open
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "--no-control-socket"],
        cwd=ROOT, env=env, stdout=out, stderr=out,
    )
    return wait_ready(proc, f"http://127.0.0.1:{port}/readyz")


def start_bare(port: int, workers: int) -> subprocess.Popen[bytes]:
    """bench/bare.py on ``port``: gunicorn's defaults (sync workers, no access log)
    but the service's number of workers."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--workers", str(workers), "--bind", f"127.0.0.1:{port}",
         "--no-control-socket", "bench.bare:create_app()"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    return wait_ready(proc, f"http://127.0.0.1:{port}/healthz")


def wait_ready(proc: subprocess.Popen[bytes], url: str) -> subprocess.Popen[bytes]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    proc.wait(timeout=30)
    raise SystemExit(f"gunicorn did not become ready ({url})")


def gunicorn_workers(master: int) -> list[int]:
    """PIDs of the master's worker processes (its children)."""
    try:
        with open(f"/proc/{master}/task/{master}/children", encoding="ascii") as f:
            return [int(p) for p in f.read().split()]
    except OSError:  # no /proc: unknown
        return []


def server_cpu_seconds(master: int) -> float:
    """CPU time of the gunicorn master and all its workers, the dead ones
    included (a reaped worker's time is in the master's cutime/cstime)."""
    tick = os.sysconf("SC_CLK_TCK")

    def times(pid: int, children: bool) -> int:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            return 0
        # fields[11:15] = utime stime cutime cstime (stat fields 14-17)
        return sum(int(x) for x in fields[11 : 15 if children else 13])

    return (times(master, True) + sum(times(w, False) for w in gunicorn_workers(master))) / tick


def _ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()  # type: ignore[union-attr]
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def run_wrk(
    url: str, body: dict | list[dict] | None, seconds: int, connections: int, master: int, start: int = 0
) -> dict[str, float]:
    """One wrk run: req/s, p50 and p99 (ms), non-2xx count, and the CPU time
    per request of the server (all gunicorn processes) and of wrk itself, in µs.
    ``body``: one body sent every time, or a list of bodies sent in turn from
    index ``start`` on (wrk's ``-t2``: the two threads take alternate bodies)."""
    bodies_file = None
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as lua:
        if body is not None:
            lua.write('wrk.method = "POST"\n')
            lua.write('wrk.headers["Content-Type"] = "application/json"\n')
        if isinstance(body, dict):
            lua.write(f"wrk.body = {json.dumps(json.dumps(body))}\n")
        elif isinstance(body, list):
            # Each wrk thread reads its share of the bodies from a file at start-up (thread t:
            # start + t, start + t + 2, …, SLICE of them), formats each once, and sends them in
            # turn: no body goes out twice in a run unless more than SLICE requests are made.
            # A file, not a Lua literal: wrk would parse a literal in every Lua state it makes.
            with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as data:
                n = len(body)
                for k in range(start, start + min(n, SLICE)):
                    data.write(json.dumps(body[k % n]) + "\n")
                bodies_file = data.name
            lua.write(f"local path = {json.dumps(bodies_file)}\n")
            lua.write("local threads = 0\n")
            lua.write("setup = function(thread)\n  thread:set('tid', threads)\n  threads = threads + 1\nend\n")
            lua.write("local requests, i = {}, 0\n")
            lua.write("init = function(args)\n  local k = 0\n  for line in io.lines(path) do\n")
            lua.write("    if k % 2 == tid then requests[#requests + 1] = wrk.format(nil, nil, nil, line) end\n")
            lua.write("    k = k + 1\n  end\nend\n")
            lua.write("request = function()\n  i = i % #requests + 1\n  return requests[i]\nend\n")
        script = lua.name
    server0 = server_cpu_seconds(master)
    wrk0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        out = subprocess.run(
            ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", script, url],
            check=True, capture_output=True, text=True,
        ).stdout
    finally:
        os.unlink(script)
        if bodies_file:
            os.unlink(bodies_file)
    wrk1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    server = server_cpu_seconds(master) - server0
    client = (wrk1.ru_utime + wrk1.ru_stime) - (wrk0.ru_utime + wrk0.ru_stime)
    done = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"^\s*50%[ \t]+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"^\s*99%[ \t]+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return {
        "done": float(done),
        "rps": rps, "p50": p50, "p99": p99, "errors": float(non2xx.group(1)) if non2xx else 0.0,
        "server_us": server / done * 1e6, "wrk_us": client / done * 1e6,
    }


def median(values: list[float]) -> float:
    return statistics.median(values)


def quartiles(values: list[float]) -> tuple[float, float, float]:
    """First quartile, median and third quartile of ``values`` (all three the value itself for one)."""
    if len(values) < 2:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


def cpu_us(run: dict[str, float]) -> float:
    """CPU per request of one run: the server's processes and wrk's, µs."""
    return run["server_us"] + run["wrk_us"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=1, help="wrk duration of each measurement")
    parser.add_argument("--rounds", type=int, default=7, help="(bare, ceiling, endpoint) triples per endpoint")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=None, help="default: gunicorn.conf.py's")
    parser.add_argument("--only", default=None, help="comma-separated label prefixes of bench/bodies.py")
    parser.add_argument("--vary", action="store_true", help="also load follow/trick/throw/kitty with varied bodies")
    parser.add_argument("--vary-count", type=int, default=12000, help="distinct bodies per varied endpoint")
    parser.add_argument("--json", default=None, help="write the figures to this file")
    parser.add_argument("--compare", default=None, help="an earlier run's --json: print how far the ratios moved")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed (apt-get install wrk)")
    wanted = [w.strip() for w in args.only.split(",")] if args.only else None
    bodies: dict[str, tuple[str, dict | list[dict]]] = {
        name: pb for name, pb in BODIES.items() if not wanted or any(name.startswith(w) for w in wanted)
    }
    if args.vary:
        for path in VARIED_PATHS:
            label = f"POST {path} (varied)"
            if not wanted or any(label.startswith(w) for w in wanted):
                bodies[label] = (path, varied(path, args.vary_count))
    runs_total = len(bodies) * 3 * args.rounds + len(bodies) + 2
    print(f"{runs_total} wrk runs of {args.seconds} s: about {runs_total * (args.seconds + 0.3) / 60:.1f} min",
          file=sys.stderr)
    port = free_port()
    proc = start_gunicorn(port, args.workers)
    base = f"http://127.0.0.1:{port}"
    workers = len(gunicorn_workers(proc.pid)) or args.workers or 2
    bare_port = free_port()
    try:
        bare = start_bare(bare_port, workers)
    except BaseException:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        raise
    bare_url, top_url = f"http://127.0.0.1:{bare_port}/healthz", base + "/healthz"
    ceiling: list[dict[str, float]] = []
    bare_runs: list[dict[str, float]] = []
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in bodies}
    # per endpoint, one value per triple: req/s and CPU ratios to the service's /healthz and to the bare app's
    ratios: dict[str, dict[str, list[float]]] = {
        name: {"ratio": [], "bare": [], "cpu": [], "bare cpu": []} for name in [*bodies, "ceiling"]
    }
    sent = {name: 0 for name in bodies}  # varied bodies: where the next run starts
    try:
        for path, body in bodies.values():  # every body must be a 200 before we time it
            # (of varied bodies only the last few, which a run rarely reaches: the rest stay
            # unseen; tests/test_bench_bodies.py checks them, and wrk counts non-2xx answers)
            for one in body[-5:] if isinstance(body, list) else [body]:
                req = urllib.request.Request(base + path, data=json.dumps(one).encode(),
                                             headers={"Content-Type": "application/json"})
                urllib.request.urlopen(req, timeout=5).read()
        # warm-up, unrecorded: each server, then each body (the workers' caches, the kernel's sockets)
        run_wrk(bare_url, None, 1, args.connections, bare.pid)
        run_wrk(top_url, None, 1, args.connections, proc.pid)
        for name, (path, body) in bodies.items():
            sent[name] += int(run_wrk(base + path, body, 1, args.connections, proc.pid, sent[name])["done"])
        for round_no in range(args.rounds):
            for name, (path, body) in bodies.items():
                order = ("bare", "top", "got") if round_no % 2 == 0 else ("got", "top", "bare")
                triple: dict[str, dict[str, float]] = {}
                for which in order:
                    if which == "bare":
                        triple[which] = run_wrk(bare_url, None, args.seconds, args.connections, bare.pid)
                    elif which == "top":
                        triple[which] = run_wrk(top_url, None, args.seconds, args.connections, proc.pid)
                    else:
                        triple[which] = run_wrk(base + path, body, args.seconds, args.connections, proc.pid, sent[name])
                        sent[name] += int(triple[which]["done"])
                low, top, got = triple["bare"], triple["top"], triple["got"]
                bare_runs.append(low)
                ceiling.append(top)
                runs[name].append(got)
                for key, one, other in (("ratio", got, top), ("bare", got, low), ("ceiling", top, low)):
                    into = ratios["ceiling"] if key == "ceiling" else ratios[name]
                    kind = "bare" if key == "ceiling" else key
                    into[kind].append(one["rps"] / other["rps"])
                    into["bare cpu" if kind == "bare" else "cpu"].append(cpu_us(other) / cpu_us(one))
    finally:
        for server in (proc, bare):
            server.send_signal(signal.SIGTERM)
        for server in (proc, bare):
            server.wait(timeout=30)
    print(f"gunicorn workers: {workers} (the service and the bare app alike); wrk -t2 -c{args.connections}, "
          f"{args.seconds} s per measurement, {args.rounds} rounds of (bare, ceiling, endpoint) triples "
          "(order reversed every other round)")
    print("bare: req/s over the bare Flask app's /healthz (bench/bare.py) in the same triple; ratio: over the "
          "service's /healthz; bare cpu, cpu: the same from (server + wrk) CPU per request, ceiling over endpoint; "
          "each the median over the triples with its interquartile range; req/s, p50, p99, µs: medians over the runs")
    print(f"{'endpoint':44} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'bare':>5} {'q1–q3':>9} {'bare cpu':>8} "
          f"{'q1–q3':>9} {'ratio':>6} {'q1–q3':>9} {'cpu':>5} {'q1–q3':>9} {'server µs':>9} {'wrk µs':>7} "
          f"{'non-2xx':>7}")
    figures: dict[str, dict[str, float]] = {}

    def span(values: list[float], width: int) -> str:
        if not values:
            return f"{'':>{width}} {'':>9}"
        q1, q2, q3 = quartiles(values)
        return f"{q2:{width}.0%} {f'{q1:.0%}–{q3:.0%}':>9}"

    def row(name: str, rs: list[dict[str, float]], rat: dict[str, list[float]] | None) -> None:
        r = {k: median([x[k] for x in rs]) for k in ("rps", "p50", "p99", "server_us", "wrk_us")}
        errors = sum(x["errors"] for x in rs)
        rat = rat or {"ratio": [], "bare": [], "cpu": [], "bare cpu": []}
        print(f"{name:44} {r['rps']:7.0f} {r['p50']:7.2f} {r['p99']:7.2f} {span(rat['bare'], 5)} "
              f"{span(rat['bare cpu'], 8)} {span(rat['ratio'], 6)} {span(rat['cpu'], 5)} "
              f"{r['server_us']:9.0f} {r['wrk_us']:7.0f} {errors:7.0f}")
        figures[name] = {**r, "errors": errors, **{k: median(v) for k, v in rat.items() if v},
                         **{f"{k} q1": quartiles(v)[0] for k, v in rat.items() if v},
                         **{f"{k} q3": quartiles(v)[2] for k, v in rat.items() if v}}

    row("GET /healthz (bare Flask, bench/bare.py)", bare_runs, None)
    row("GET /healthz (ceiling)", ceiling, ratios["ceiling"])
    for name in bodies:
        row(name, runs[name], ratios[name])
    top_server = median([x["server_us"] for x in ceiling])
    for name, (path, body) in bodies.items():
        if path == "/v1/hand" and isinstance(body, dict):  # a whole hand: its cost per trick, for scale
            per = (median([x["server_us"] for x in runs[name]]) - top_server) / len(body["tricks"])
            trick = [n for n, (p, _) in bodies.items() if p == "/v1/trick" and n in runs and not n.endswith("(varied)")]
            than = (f" (one {trick[0]} request: {median([x['server_us'] for x in runs[trick[0]]]) - top_server:.0f} µs)"
                    if trick else "")
            print(f"{name}: {len(body['tricks'])} tricks; server CPU beyond the ceiling {per:.0f} µs per trick{than}")
    for name, (_, body) in bodies.items():
        if isinstance(body, list):
            repeats = max(0, sent[name] - len(body))
            print(f"{name}: {sent[name]} requests over {len(body)} distinct bodies"
                  + (f" ({repeats} repeats: raise --vary-count)" if repeats else ", none repeated"))
    if args.json:
        Path(args.json).write_text(json.dumps({
            "connections": args.connections, "seconds": args.seconds, "rounds": args.rounds, "workers": workers,
            "rows": figures,
        }, indent=1), encoding="utf-8")
    if args.compare:
        compare(json.loads(Path(args.compare).read_text(encoding="utf-8"))["rows"], figures, args.compare)


def compare(old: dict[str, dict[str, float]], new: dict[str, dict[str, float]], source: str) -> None:
    """Per row both runs have: each median ratio of ``source``'s run and of this one, and the
    difference in points (this run's minus that run's)."""
    print(f"against {source}: median ratios there → here (points)")
    keys = ("bare", "bare cpu", "ratio", "cpu")
    print(f"{'endpoint':44} " + " ".join(f"{k:>18}" for k in keys))
    for name, here in new.items():
        there = old.get(name)
        if there is None:
            continue
        cells = []
        for k in keys:
            if k in here and k in there:
                cells.append(f"{f'{there[k]:.0%} → {here[k]:.0%} ({(here[k] - there[k]) * 100:+.0f})':>18}")
            else:
                cells.append(f"{'':>18}")
        print(f"{name:44} " + " ".join(cells))


if __name__ == "__main__":
    main()
