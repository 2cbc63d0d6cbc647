"""The service under real gunicorn: several workers, merged metrics on the
private port (none on the public one), JSON logs, worker recycling, graceful shutdown.

Each test starts ``gunicorn -c gunicorn.conf.py`` on a free loopback port (a
port picked through a socket first: gunicorn cannot bind port 0) and stops it
by its own PID with SIGTERM.  A request is held in flight by sending its body
in two parts, so no test-only slow endpoint is needed: a sync worker reading a
body is busy, exactly as a worker computing an answer is.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import orjson
from prometheus_client.mmap_dict import MmapedDict, mmap_key

from service.metrics import sample_values

ROOT = Path(__file__).resolve().parent.parent
ANALYZE = {"rules": "two-deck", "trump": {"level": "10", "suit": "H"}, "cards": ["10H", "10H", "AH", "AH", "BJ"]}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    proc: subprocess.Popen[bytes]
    port: int
    metrics_port: int
    metrics_dir: Path
    log: Path

    def get(
        self, path: str, headers: dict[str, str] | None = None, port: int | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", port or self.port, timeout=10)
        try:
            conn.request("GET", path, headers=headers or {})
            resp = conn.getresponse()
            return resp.status, dict(resp.getheaders()), resp.read()
        finally:
            conn.close()

    def metrics(self) -> str:
        """A scrape of the private metrics port, as Prometheus makes it."""
        status, _, body = self.get("/metrics", port=self.metrics_port)
        assert status == 200
        return body.decode()

    def log_lines(self) -> list[dict[str, object]]:
        lines = [line for line in self.log.read_text(encoding="utf-8").splitlines() if line.strip()]
        return [json.loads(line) for line in lines]  # every line is JSON, gunicorn's own too

    def stop(self) -> int:
        """SIGTERM to the master's own PID; its exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:  # pragma: no cover - a hung server
            self.proc.kill()
            self.proc.wait()
            raise


def wait_ready(proc: subprocess.Popen[bytes], log: Path, status: Callable[[], int], seconds: float) -> None:
    """Until ``status()`` (a probe's HTTP status) is 200; fails, with ``log``, if
    the server exits or ``seconds`` pass first."""
    deadline = time.monotonic() + seconds
    while True:
        assert proc.poll() is None, f"{proc.args[0]} exited:\n{log.read_text()}"
        try:
            if status() == 200:
                return
        except OSError:
            pass
        assert time.monotonic() < deadline, f"{proc.args[0]} not ready:\n{log.read_text()}"
        time.sleep(0.05)


@contextmanager
def gunicorn(tmp_path: Path, workers: int, *args: str) -> Iterator[Server]:
    port, metrics_port = free_port(), free_port()
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir(exist_ok=True)
    log = tmp_path / "gunicorn.log"
    env = {
        **os.environ,
        "BIND": f"127.0.0.1:{port}",
        "METRICS_BIND": "127.0.0.1",
        "METRICS_PORT": str(metrics_port),
        "WORKERS": str(workers),
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
        "PYTHONPATH": str(ROOT),
    }
    for var in ("REFEREE_METRICS_MASTER_PID", "REFEREE_METRICS_DIR_CREATED", "TIMEOUT", "GRACEFUL_TIMEOUT"):
        env.pop(var, None)
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "--no-control-socket", *args],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    server = Server(proc, port, metrics_port, metrics_dir, log)
    try:
        wait_ready(proc, log, lambda: server.get("/readyz")[0], 30)
        yield server
    finally:
        server.stop()


class HeldRequest:
    """A POST whose body arrives in two parts: in flight until ``finish()``."""

    def __init__(self, port: int, body: dict[str, object], request_id: str) -> None:
        self.body = orjson.dumps(body)
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=15)
        head = (
            "POST /v1/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(self.body)}\r\nX-Request-ID: {request_id}\r\nConnection: close\r\n\r\n"
        )
        self.sock.sendall(head.encode() + self.body[:5])

    def finish(self) -> tuple[int, dict[str, object]]:
        self.sock.sendall(self.body[5:])
        data = b""
        while chunk := self.sock.recv(65536):
            data += chunk
        self.sock.close()
        assert data, "the connection closed without a response"
        head, _, payload = data.partition(b"\r\n\r\n")
        return int(head.split()[1]), orjson.loads(payload)


def _access_pids(server: Server, request_ids: set[str]) -> dict[str, int]:
    return {
        str(line["request_id"]): int(str(line["pid"]))
        for line in server.log_lines()
        if line.get("logger") == "tractor_referee.access" and line.get("request_id") in request_ids
    }


def test_two_workers_merged_metrics_and_graceful_shutdown(tmp_path: Path) -> None:
    with gunicorn(tmp_path, 2) as server:
        # Two requests in flight at once: each of the two sync workers holds one.
        held = [HeldRequest(server.port, ANALYZE, f"held-{i}") for i in range(2)]
        time.sleep(0.5)
        for h in held:
            status, body = h.finish()
            assert status == 200 and body["is_throw"] is True
        for i in range(6):
            assert server.get("/healthz", {"X-Request-ID": f"quick-{i}"})[0] == 200

        text = server.metrics()
        public = server.get("/metrics")
        assert public[0] == 404 and public[1]["Content-Type"] == "application/problem+json"
        assert b"referee_" not in public[2]
        per_worker = {labels["pid"]: value for labels, value in sample_values(text, "referee_worker_requests")}
        assert len([v for v in per_worker.values() if v >= 1]) >= 2, per_worker
        requests = {
            (labels["endpoint"], labels["status"]): value
            for labels, value in sample_values(text, "referee_http_requests_total")
        }
        assert requests[("/v1/analyze", "200")] == 2
        ((build, one),) = sample_values(text, "referee_build_info")  # merged over the workers: one sample
        assert one == 1 and set(build) == {"version", "commit"}
        assert requests[("/healthz", "200")] == 6
        assert _healthcheck(server.port).returncode == 0
        latency = sample_values(text, "referee_http_request_duration_seconds_count")
        assert {"endpoint": "/v1/analyze", "method": "POST", "status": "200"} in [labels for labels, _ in latency]

        # only the master listens on the metrics port: the workers closed their copy
        master_ports = _listening_ports(server.proc.pid)
        assert {server.port, server.metrics_port} <= master_ports
        for pid in per_worker:
            assert server.metrics_port not in _listening_ports(int(pid)), pid
            assert server.port in _listening_ports(int(pid))

        pids = _access_pids(server, {"held-0", "held-1"})
        assert len(set(pids.values())) == 2, pids  # the JSON log tells the two workers apart too
        assert set(pids.values()) <= {int(p) for p in per_worker}

        # Graceful shutdown: SIGTERM while a request is in flight; it still completes.
        last = HeldRequest(server.port, ANALYZE, "in-flight")
        time.sleep(0.5)
        server.proc.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        status, body = last.finish()
        assert status == 200 and body["points"] == 20
        assert server.stop() == 0

    down = _healthcheck(server.port)
    assert down.returncode == 1 and b"unhealthy" in down.stderr
    lines = server.log_lines()
    assert any(line.get("request_id") == "in-flight" and line.get("status") == 200 for line in lines)
    # gunicorn's own lines are JSON too; its access lines are off (the app writes one per request)
    assert any(line.get("logger") == "gunicorn.error" for line in lines)
    assert not [line for line in lines if line.get("logger") == "gunicorn.access"]
    assert not [line for line in lines if "SIGKILL" in str(line.get("message")) or "TIMEOUT" in str(line.get("message"))]
    # Every worker's counts were folded into the archives on its way out (the request
    # counts are the latency histogram's; no verdict was counted, so no counter file).
    assert sorted(p.name for p in server.metrics_dir.iterdir()) == ["histogram_archive.db"]


def _stale_count(metrics_dir: Path) -> None:
    """A counter file as an earlier run would have left it."""
    stale = MmapedDict(str(metrics_dir / "counter_99999.db"))
    key = mmap_key(
        "referee_http_requests", "referee_http_requests_total",
        ["endpoint", "method", "status"], ["/healthz", "GET", "200"], "stale",
    )
    stale.write_value(key, 1000.0, 0.0)
    stale.close()


def test_recycled_workers_keep_their_counts(tmp_path: Path) -> None:
    (tmp_path / "metrics").mkdir()
    _stale_count(tmp_path / "metrics")
    with gunicorn(tmp_path, 1, "--max-requests", "3", "--max-requests-jitter", "0") as server:
        for _ in range(10):
            assert server.get("/healthz")[0] == 200
        text = server.metrics()
        counts = {
            labels["endpoint"]: value
            for labels, value in sample_values(text, "referee_http_requests_total")
            if labels["status"] == "200"
        }
        # the stale run's 1000 were wiped at start; no recycled worker's count was lost
        assert counts["/healthz"] == 10
        files = {p.name for p in server.metrics_dir.iterdir()}
        per_pid = {f for f in files if not f.endswith("_archive.db")}
        assert {f.split("_")[-1] for f in per_pid} <= {f"{p}.db" for p in _live_worker_pids(text)}
        assert "histogram_archive.db" in files  # where the request counts are read from


def _listening_ports(pid: int) -> set[int]:
    """The TCP ports ``pid`` holds a listening socket on (Linux /proc)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:  # closed meanwhile
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = set()
    for line in Path(f"/proc/{pid}/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
            ports.add(int(fields[1].split(":")[1], 16))
    return ports


def _live_worker_pids(text: str) -> set[str]:
    return {labels["pid"] for labels, _ in sample_values(text, "referee_worker_requests")}


def _healthcheck(port: int) -> subprocess.CompletedProcess[bytes]:
    """``python -m service.healthcheck``, the image's HEALTHCHECK, as the container runs it."""
    env = {**os.environ, "BIND": f"0.0.0.0:{port}", "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "service.healthcheck"], cwd=ROOT, env=env, timeout=20, capture_output=True
    )
