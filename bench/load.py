"""HTTP throughput and latency of every adjudication endpoint against the ceiling.

Starts gunicorn with the project's own gunicorn.conf.py on a free loopback port,
loads each endpoint with wrk (Debian package ``wrk``) for a bounded time with
realistic bodies (bench/bodies.py), and in the same run loads ``GET /healthz``
as the ceiling of the HTTP stack.  Prints requests/s, p50 and p99 per endpoint
and each endpoint's ratio to the ceiling, then stops gunicorn by its PID.

    python bench/load.py [--seconds 10] [--connections 16] [--workers N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bodies import BODIES  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_gunicorn(port: int, workers: int | None) -> subprocess.Popen[bytes]:
    env = dict(os.environ, BIND=f"127.0.0.1:{port}")
    if workers:
        env["WORKERS"] = str(workers)
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "--no-control-socket"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1).read()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("gunicorn did not become ready")


def _ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()  # type: ignore[union-attr]
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def run_wrk(url: str, body: dict | None, seconds: int, connections: int) -> dict[str, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as lua:
        if body is not None:
            lua.write('wrk.method = "POST"\n')
            lua.write('wrk.headers["Content-Type"] = "application/json"\n')
            lua.write(f"wrk.body = {json.dumps(json.dumps(body))}\n")
        script = lua.name
    try:
        out = subprocess.run(
            ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", script, url],
            check=True, capture_output=True, text=True,
        ).stdout
    finally:
        os.unlink(script)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"50%\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"99%\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return {"rps": rps, "p50": p50, "p99": p99, "errors": float(non2xx.group(1)) if non2xx else 0.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--only", default=None, help="comma-separated body names")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed (apt-get install wrk)")
    port = free_port()
    proc = start_gunicorn(port, args.workers)
    base = f"http://127.0.0.1:{port}"
    try:
        for path, body in BODIES.values():  # every body must be a 200 before we time it
            req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
            urllib.request.urlopen(req, timeout=5).read()
        rows = [("GET /healthz (ceiling)", run_wrk(base + "/healthz", None, args.seconds, args.connections))]
        wanted = set(args.only.split(",")) if args.only else None
        for name, (path, body) in BODIES.items():
            if wanted and name not in wanted:
                continue
            rows.append((name, run_wrk(base + path, body, args.seconds, args.connections)))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    ceiling = rows[0][1]["rps"]
    print(f"{'endpoint':44} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'ratio':>7} {'non-2xx':>8}")
    for name, r in rows:
        print(f"{name:44} {r['rps']:9.0f} {r['p50']:8.2f} {r['p99']:8.2f} {r['rps'] / ceiling:7.0%} {r['errors']:8.0f}")


if __name__ == "__main__":
    main()
