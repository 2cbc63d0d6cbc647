"""The environment variables the gunicorn config honours: ``PORT`` (with
``HOST``; ``BIND`` wins over both), ``WORKERS`` and ``LOG_LEVEL``, each checked
when the config loads, so a typo stops the start with a message instead of
serving with a default nobody asked for."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.healthcheck import bind_from_env, health_url

ROOT = Path(__file__).resolve().parent.parent
VARS = ("BIND", "HOST", "PORT", "WORKERS", "LOG_LEVEL", "TIMEOUT", "GRACEFUL_TIMEOUT")


def load_conf(tmp_path: Path, **env: str) -> dict[str, Any]:
    """gunicorn.conf.py's settings under ``env`` (nothing else of the caller's)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path / "metrics"))
    for var in ("REFEREE_METRICS_MASTER_PID", "REFEREE_METRICS_DIR_CREATED", *VARS):
        mp.delenv(var, raising=False)
    for name, value in env.items():
        mp.setenv(name, value)
    cached = sys.modules.pop("service.gunicorn_conf", None)  # run it afresh, and leave no copy behind
    try:
        return runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    finally:
        sys.modules.pop("service.gunicorn_conf", None)
        if cached is not None:
            sys.modules["service.gunicorn_conf"] = cached
        mp.undo()


def test_defaults(tmp_path: Path) -> None:
    conf = load_conf(tmp_path)
    assert conf["bind"] == "127.0.0.1:8000"
    assert conf["workers"] >= 2
    assert conf["loglevel"] == "info" and conf["logconfig_dict"]["root"]["level"] == "INFO"


def test_port_and_host(tmp_path: Path) -> None:
    assert load_conf(tmp_path, PORT="9123")["bind"] == "127.0.0.1:9123"
    assert load_conf(tmp_path, PORT="9123", HOST="0.0.0.0")["bind"] == "0.0.0.0:9123"
    assert load_conf(tmp_path, PORT="9123", HOST="::")["bind"] == "[::]:9123"
    assert load_conf(tmp_path, PORT="9123", BIND="127.0.0.1:9999")["bind"] == "127.0.0.1:9999"  # BIND wins


def test_workers_and_log_level(tmp_path: Path) -> None:
    conf = load_conf(tmp_path, WORKERS="3", LOG_LEVEL="Warning")
    assert conf["workers"] == 3
    assert conf["loglevel"] == "warning"
    assert conf["logconfig_dict"]["root"]["level"] == "WARNING"
    assert conf["logconfig_dict"]["loggers"]["gunicorn.error"]["level"] == "WARNING"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"PORT": "http"}, "PORT"),
        ({"PORT": "70000"}, "PORT"),
        ({"WORKERS": "0"}, "WORKERS"),
        ({"WORKERS": "two"}, "WORKERS"),
        ({"LOG_LEVEL": "verbose"}, "LOG_LEVEL"),
    ],
)
def test_a_bad_value_stops_the_start(tmp_path: Path, env: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load_conf(tmp_path, **env)


def test_the_healthcheck_asks_the_same_port() -> None:
    assert bind_from_env({"PORT": "9123", "HOST": "0.0.0.0"}) == "0.0.0.0:9123"
    assert health_url(bind_from_env({"PORT": "9123", "HOST": "0.0.0.0"})) == "http://127.0.0.1:9123/healthz"


@pytest.fixture()
def served_on_port(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], int, Path]]:
    from tests.test_gunicorn import free_port  # the suite's one way to pick a loopback port

    port = free_port()
    log = tmp_path / "gunicorn.log"
    env = {k: v for k, v in os.environ.items() if k not in VARS and not k.startswith("REFEREE_METRICS_")}
    env.update(PORT=str(port), WORKERS="1", LOG_LEVEL="warning", PYTHONPATH=str(ROOT),
               PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"))
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "--no-control-socket"],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        yield proc, port, log
    finally:
        if proc.poll() is None:
            proc.terminate()  # SIGTERM to this gunicorn's own PID
        proc.wait(timeout=30)


def test_gunicorn_serves_on_port_and_logs_from_log_level(
    served_on_port: tuple[subprocess.Popen[bytes], int, Path],
) -> None:
    proc, port, log = served_on_port
    env = {"BIND": f"127.0.0.1:{port}", "PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)}
    deadline = time.monotonic() + 30
    while subprocess.run([sys.executable, "-m", "service.healthcheck"], cwd=ROOT, env=env,
                         capture_output=True, timeout=20).returncode != 0:
        assert proc.poll() is None, log.read_text()
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.2)
    proc.terminate()
    assert proc.wait(timeout=30) == 0
    text = log.read_text(encoding="utf-8")
    # LOG_LEVEL=warning: neither gunicorn's INFO lines ("Listening at") nor the app's access lines
    assert "Listening at" not in text and "GET /healthz" not in text
