"""bench/gunicorn_instructions.py stays usable without valgrind's run: its requests
are what wrk sends, and its marker hook makes SIGUSR2 call ``os.getpgrp`` (callgrind's
dump point) in a worker and nothing else."""

from __future__ import annotations

import os
import signal
from typing import Any

import pytest
from gunicorn.config import Config

from bench import gunicorn_instructions as tool


def test_a_request_is_what_wrk_sends() -> None:
    assert tool.request_bytes("GET", "/healthz", 8000, None) == b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n\r\n"
    raw = tool.request_bytes("POST", "/v1/trick", 8000, b'{"a":1}')
    head, body = raw.split(b"\r\n\r\n")
    assert body == b'{"a":1}'
    assert head.split(b"\r\n") == [
        b"POST /v1/trick HTTP/1.1", b"Host: 127.0.0.1:8000", b"Content-Type: application/json", b"Content-Length: 7",
    ]


def test_the_marker_hook_calls_getpgrp_on_sigusr2(monkeypatch: pytest.MonkeyPatch) -> None:
    settings: dict[str, Any] = {}
    exec(compile(tool.MARKER, "settings.py", "exec"), settings)  # noqa: S102  (the tool's own text)
    cfg = Config()
    cfg.set("post_worker_init", settings["post_worker_init"])  # gunicorn takes it as that hook
    called: list[int] = []
    monkeypatch.setattr(os, "getpgrp", lambda: called.append(1) or 0)
    previous = signal.getsignal(signal.SIGUSR2)
    try:
        cfg.post_worker_init(None)
        os.kill(os.getpid(), signal.SIGUSR2)
    finally:
        signal.signal(signal.SIGUSR2, previous)
    assert called == [1]
