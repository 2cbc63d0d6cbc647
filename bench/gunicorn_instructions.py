"""Instructions per request inside a gunicorn sync worker, counted by valgrind.

bench/instructions.py counts what the WSGI app executes in process; a real
request also goes through gunicorn's sync worker, in Python: accepting the
connection, parsing the request line and the headers, reading the body
through gunicorn's ``Body`` reader, building the WSGI environ, processing the
response's headers, writing the answer and closing the connection.  That part
is in every request's cost and grows with the body, the answer and the
headers.  This serves the service (gunicorn.conf.py, one worker) and the bare
app (bench/bare.py, the same worker class and count) under
``valgrind --tool=callgrind``, sends each case's requests one at a time on a
new connection each (as wrk's connections do against gunicorn's sync workers,
which close every connection after its answer), and has callgrind dump the
worker's counts between the cases: a ``post_worker_init`` hook (added to each
server's settings in a configuration file of this tool's) makes ``SIGUSR2`` call
``os.getpgrp``, which nothing else in a worker calls, and callgrind dumps (and
resets) the counts before each such call (``--dump-before=getpgrp``; vgdb's
``callgrind_control`` does not reach a forked worker).  It prints thousands of
instructions (kIr) per request in the worker, the difference to the bare app's
``/healthz`` and, with ``--wsgi``, the same request's count in process
(bench/instructions.py's way) and the difference: what the server adds around
the app.

    apt-get install valgrind
    python bench/gunicorn_instructions.py [--requests 40] [--only LABELS] [--wsgi]

Only the worker is counted (not the master, not the client, not the kernel:
callgrind counts the instructions a process executes in user space).  The
worker's timeout is long (300 s), so it never wakes up idle inside a case.  It takes a few minutes (valgrind runs Python some fifty times slower).
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import signal
import socket
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

from bench.bodies import BODIES  # noqa: E402
from bench.instructions import dump_totals  # noqa: E402

WARM = 15  # requests per case before counting
BARE = "GET /healthz (bare Flask, bench/bare.py)"
FLOOR = "GET /healthz (floor)"
READY_SECONDS = 600  # the app is imported and warmed under valgrind before the worker is forked


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def request_bytes(method: str, path: str, port: int, body: bytes | None) -> bytes:
    """The request as wrk sends it: the request line, ``Host``, the body's type and length."""
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return (head + "\r\n").encode("ascii") + (body or b"")


def send(port: int, raw: bytes) -> bytes:
    """One request on a new connection; the answer, read until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=120) as sock:
        sock.sendall(raw)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    answer = b"".join(chunks)
    if not answer.startswith(b"HTTP/1.1 200"):
        raise SystemExit(f"not a 200: {answer[:200]!r}")
    return answer


MARKER = """
import os, signal


def post_worker_init(worker):
    # bench/gunicorn_instructions.py: SIGUSR2 calls getpgrp, before which callgrind dumps its counts
    signal.signal(signal.SIGUSR2, lambda signum, frame: os.getpgrp())
"""


def start(command: list[str], settings: str, out_dir: str, port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """gunicorn ``command`` under callgrind, with ``settings`` (a configuration file's
    text; the marker hook added), ready on ``port``."""
    config = os.path.join(out_dir, "settings.py")
    Path(config).write_text(settings + MARKER, encoding="utf-8")
    proc = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--dump-before=getpgrp", f"--callgrind-out-file={out_dir}/out.%p",
         *command, "-c", config],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + READY_SECONDS
    raw = request_bytes("GET", "/healthz", port, None)
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"gunicorn exited with {proc.returncode}")
        try:
            send(port, raw)
            return proc
        except OSError:
            time.sleep(1)
    stop(proc)
    raise SystemExit(f"gunicorn on port {port} did not become ready")


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def worker_of(master: int) -> int:
    """The pid of the master's one worker."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            children = Path(f"/proc/{master}/task/{master}/children").read_text(encoding="ascii").split()
        except OSError:
            children = []
        if children:
            return int(children[0])
        time.sleep(0.5)
    raise SystemExit("no gunicorn worker")


def dump(pid: int, out_dir: str, number: int) -> None:
    """callgrind's counts of worker ``pid`` so far written to its ``number``-th dump (and reset)."""
    os.kill(pid, signal.SIGUSR2)
    deadline = time.monotonic() + 120
    while not os.path.exists(f"{out_dir}/out.{pid}.{number}"):
        if time.monotonic() > deadline:
            raise SystemExit("callgrind wrote no dump")
        time.sleep(0.1)
    time.sleep(0.5)  # the dump written whole before the next request


def measure(
    command: list[str], settings: str, env: dict[str, str], port: int, cases: dict[str, bytes], requests: int
) -> dict[str, float]:
    """kIr per request in the worker of gunicorn ``command`` with ``settings``, for each case's raw request."""
    with tempfile.TemporaryDirectory() as out_dir:
        proc = start(command, settings, out_dir, port, env)
        try:
            worker = worker_of(proc.pid)
            for raw in cases.values():
                for _ in range(WARM):
                    send(port, raw)
            for number, raw in enumerate(cases.values(), 1):
                dump(worker, out_dir, number)  # what came before: start-up, warming, the previous case
                for _ in range(requests):
                    send(port, raw)
            dump(worker, out_dir, len(cases) + 1)
            counts = dump_totals(glob.glob(f"{out_dir}/out.{worker}.*"))
        finally:
            stop(proc)
    per_case = counts[1 : 1 + len(cases)]  # dump 1: start-up and warming
    return {name: total / requests / 1000 for name, total in zip(cases, per_case, strict=True)}


def wsgi_counts(requests: int, only: str | None) -> dict[str, float]:
    """bench/instructions.py's in-process figures for the same cases."""
    args = [sys.executable, "-m", "bench.instructions", "--requests", str(requests)]
    if only:
        args += ["--only", only]
    out = subprocess.run(args, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        match = re.match(r"^(.+?)\s+(\d+)\s+-?\d+\s+\d+%$", line)
        if match:
            found[match.group(1).strip()] = float(match.group(2))
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=40, help="counted requests per case")
    parser.add_argument("--only", default=None, help="comma-separated label prefixes (/healthz is always kept)")
    parser.add_argument("--wsgi", action="store_true", help="also count each case in process (bench/instructions.py)")
    args = parser.parse_args(argv)
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    python = os.path.realpath(sys.executable)
    service_port, bare_port = free_port(), free_port()
    prefixes = tuple(p.strip() for p in args.only.split(",") if p.strip()) if args.only else None
    service_cases = {FLOOR: request_bytes("GET", "/healthz", service_port, None)}
    for name, (path, body) in BODIES.items():
        if prefixes is None or name.startswith(prefixes):
            service_cases[name] = request_bytes("POST", path, service_port, orjson.dumps(body))
    with tempfile.TemporaryDirectory() as metrics_dir:
        env = dict(os.environ, PYTHONHASHSEED="0", PROMETHEUS_MULTIPROC_DIR=metrics_dir)
        # the same worker class (sync), count (one) and timeout for both; the service's own
        # settings otherwise (gunicorn.conf.py), gunicorn's defaults for the bare app
        timeout = "300"  # a worker under valgrind is slow to start and to answer
        bare = measure(
            [python, "-m", "gunicorn", "--workers", "1", "--worker-class", "sync", "--timeout", timeout,
             "--bind", f"127.0.0.1:{bare_port}", "--no-control-socket", "bench.bare:create_app()"],
            "", env, bare_port, {BARE: request_bytes("GET", "/healthz", bare_port, None)}, args.requests,
        )
        service = measure(
            [python, "-m", "gunicorn", "--no-control-socket"],
            "from service.gunicorn_conf import *  # noqa: F401,F403  (gunicorn.conf.py's settings)\n",
            dict(env, WORKERS="1", TIMEOUT=timeout, BIND=f"127.0.0.1:{service_port}", METRICS_PORT=str(free_port()),
                 LOG_LEVEL="info"),
            service_port, service_cases, args.requests,
        )
    figures = {**bare, **service}
    wsgi = wsgi_counts(60, args.only) if args.wsgi else {}
    print(f"instructions per request in one gunicorn sync worker (kIr), {args.requests} requests per case "
          f"after {WARM}, one connection each; python {sys.version.split()[0]}")
    print("+bare: beyond the bare app's /healthz in its worker; wsgi: in process (bench/instructions.py); "
          "server: worker - wsgi")
    print(f"{'request':44} {'worker':>8} {'+bare':>8}" + (f" {'wsgi':>8} {'server':>8}" if wsgi else ""))
    for name, k in figures.items():
        row = f"{name:44} {k:8.0f} {k - figures[BARE]:8.0f}"
        if wsgi and name in wsgi:
            row += f" {wsgi[name]:8.0f} {k - wsgi[name]:8.0f}"
        print(row)


if __name__ == "__main__":
    main()
