"""Observability in process: request ids, JSON log lines, Prometheus metrics.

(The same under gunicorn's several workers: tests/test_gunicorn.py.)
"""

from __future__ import annotations

import http.client
import io
import json
import logging
import os
import socket
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest, values
from prometheus_client.multiprocess import MultiProcessCollector

from service import metrics
from service.app import create_app
from service.healthcheck import health_url
from service.logs import ACCESS_LOGGER, access_text, json_formatter, request_id_from
from service.metrics import archive_dead_worker, count_verdict, sample_values

ANALYZE = {"rules": "two-deck", "trump": {"level": "10", "suit": "H"}, "cards": ["10H", "10H", "BJ"]}


def _metric(api: Any, name: str, **labels: str) -> float:
    text = metrics.exposition(None)[0].decode()  # what a scrape of the private port reads
    return sum(v for got, v in sample_values(text, name) if all(got.get(k) == x for k, x in labels.items()))


# --- request ids ------------------------------------------------------------------

@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("3f2c9a7e-0b1d-4c55-9a1e-2d8f6b7c1a00", True),  # a UUID
        ("tournament-42/hand-7/trick-3", True),
        ("x" * 128, True),
        ("x" * 129, False),  # too long
        ("has space", False),
        ("", False),
        ("tab\there", False),
        ("é", False),  # non-ASCII
    ],
)
def test_request_id_is_honoured_when_sane(sent: str, kept: bool) -> None:
    got = request_id_from(sent)
    assert (got == sent) is kept
    if not kept:
        assert len(got) == 32 and got.isalnum()


def test_request_id_is_echoed_on_success_and_on_errors(api: Any) -> None:
    ok = api.post("/v1/analyze", ANALYZE, headers={"X-Request-ID": "platform-abc-1"})
    assert ok.status_code == 200 and ok.headers["X-Request-ID"] == "platform-abc-1"
    for resp in (
        api.post("/v1/analyze", {"trump": {"level": "10", "suit": "H"}, "cards": ["XX"]},
                 headers={"X-Request-ID": "bad-card"}),  # 422
        api.get("/v1/rulesets/no-such-preset", headers={"X-Request-ID": "bad-card"}),  # 404
    ):
        assert resp.status_code in (404, 422) and resp.headers["X-Request-ID"] == "bad-card"


def test_request_id_is_generated_when_missing(api: Any) -> None:
    first = api.get("/healthz").headers["X-Request-ID"]
    second = api.get("/healthz").headers["X-Request-ID"]
    assert first != second and len(first) == 32


# --- JSON logs ----------------------------------------------------------------------

@pytest.fixture()
def logged() -> tuple[Any, io.StringIO]:
    stream = io.StringIO()
    app = create_app({"TESTING": True, "LOG_STREAM": stream})

    @app.get("/boom")  # a bug, to see the error log
    def boom() -> Any:
        raise RuntimeError("deliberate")

    return app.test_client(), stream


def _lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_one_json_line_per_request(logged: tuple[Any, io.StringIO]) -> None:
    client, stream = logged
    client.post("/v1/analyze", json=ANALYZE, headers={"X-Request-ID": "r-1"})
    client.get("/v1/rulesets/two-deck", headers={"X-Request-ID": "r-2"})
    client.get("/nowhere", headers={"X-Request-ID": "r-3"})
    lines = _lines(stream)
    assert [(x["request_id"], x["method"], x["path"], x["endpoint"], x["status"]) for x in lines] == [
        ("r-1", "POST", "/v1/analyze", "/v1/analyze", 200),
        ("r-2", "GET", "/v1/rulesets/two-deck", "/v1/rulesets/<name>", 200),
        ("r-3", "GET", "/nowhere", None, 404),
    ]
    for line in lines:
        assert line["logger"] == "tractor_referee.access" and line["level"] == "INFO"
        assert line["duration_ms"] >= 0 and line["timestamp"].endswith("+00:00")
    assert lines[0]["bytes_in"] > 0 and lines[0]["bytes_out"] > 0


def test_the_access_line_has_every_field_in_order(logged: tuple[Any, io.StringIO]) -> None:
    """The whole access line, key by key: what a log pipeline parses (bench/RESULTS.md's
    cuts to the line's cost keep it exactly)."""
    import os

    client, stream = logged
    body = json.dumps(ANALYZE).encode()
    resp = client.post("/v1/analyze", data=body, content_type="application/json",
                       headers={"X-Request-ID": "r-9", "User-Agent": "platform/1.0"},
                       environ_base={"REMOTE_ADDR": "10.1.2.3"})
    client.get("/healthz", environ_base={"REMOTE_ADDR": "10.1.2.4"})
    first, second = _lines(stream)
    assert list(first) == [
        "level", "logger", "message", "request_id", "method", "path", "endpoint", "status", "duration_ms",
        "bytes_in", "bytes_out", "remote_addr", "user_agent", "pid", "timestamp",
    ]
    assert {k: v for k, v in first.items() if k not in ("duration_ms", "timestamp")} == {
        "level": "INFO", "logger": "tractor_referee.access", "message": "POST /v1/analyze 200",
        "request_id": "r-9", "method": "POST", "path": "/v1/analyze", "endpoint": "/v1/analyze", "status": 200,
        "bytes_in": len(body), "bytes_out": len(resp.data), "remote_addr": "10.1.2.3",
        "user_agent": "platform/1.0", "pid": os.getpid(),
    }
    assert isinstance(first["duration_ms"], float) and first["duration_ms"] >= 0
    assert list(second) == list(first)
    assert len(second["request_id"]) == 32  # a fresh id, none was sent
    assert (second["message"], second["bytes_in"], second["remote_addr"]) == ("GET /healthz 200", 0, "10.1.2.4")
    assert second["user_agent"].startswith("Werkzeug/")


@pytest.mark.parametrize(
    "fields",
    [
        {"message": "GET /healthz 200", "request_id": "0" * 32, "method": "GET", "path": "/healthz",
         "endpoint": "/healthz", "status": 200, "duration_ms": 0.123, "bytes_in": 0, "bytes_out": 16,
         "remote_addr": "127.0.0.1", "user_agent": None, "pid": 4242},
        {"message": "POST /v1/follow/ 404", "request_id": "é\"\\<>\u2028", "method": "OTHER", "path": "/v1/\u6e38\t",
         "endpoint": None, "status": 404, "duration_ms": 12345.0, "bytes_in": 10 ** 6, "bytes_out": None,
         "remote_addr": None, "user_agent": "\x00\x1f 牌/1.0 \ud7ff", "pid": 1},
    ],
)
@pytest.mark.parametrize("created", [0.0, 1764620000.5, 1764620000.000001, 1764620000.999999])
def test_the_access_line_is_what_python_json_logger_writes(fields: dict[str, Any], created: float) -> None:
    """The access line skips the logging machinery (service.logs.AccessLog); its text
    is the formatter's for the same fields, byte for byte, timestamp included."""
    record = logging.Logger(ACCESS_LOGGER).makeRecord(
        ACCESS_LOGGER, logging.INFO, __file__, 0, fields, (), None, extra={"request_id": fields["request_id"]}
    )
    record.created = created
    assert access_text(**fields, timestamp=datetime.fromtimestamp(created, tz=UTC)) == json_formatter().format(record)


def test_the_access_lines_pid_is_the_forked_workers_own(tmp_path: Path) -> None:
    """The pid is read once per process (service.logs._pid), and again in a
    forked child: a gunicorn worker's lines carry its own pid, not the master's."""
    stream = io.StringIO()
    client = create_app({"LOG_STREAM": stream}).test_client()
    client.get("/healthz")
    assert _lines(stream)[-1]["pid"] == os.getpid()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports by its exit status
        client.get("/healthz")
        os._exit(0 if _lines(stream)[-1]["pid"] == os.getpid() != os.getppid() else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_an_unhandled_error_is_a_logged_problem_with_the_request_id(logged: tuple[Any, io.StringIO]) -> None:
    client, stream = logged
    resp = client.get("/boom", headers={"X-Request-ID": "bug-1"})
    assert resp.status_code == 500 and resp.mimetype == "application/problem+json"
    assert resp.headers["X-Request-ID"] == "bug-1"
    lines = _lines(stream)
    error = next(x for x in lines if x["level"] == "ERROR")
    assert error["request_id"] == "bug-1" and "RuntimeError: deliberate" in error["exc_info"]
    assert lines[-1]["status"] == 500 and lines[-1]["request_id"] == "bug-1"


def test_access_log_can_be_switched_off() -> None:
    stream = io.StringIO()
    create_app({"LOG_STREAM": stream, "ACCESS_LOG": False}).test_client().get("/healthz")
    assert stream.getvalue() == ""


def test_the_app_logger_writes_json_only_once() -> None:
    stream = io.StringIO()
    app = create_app({"LOG_STREAM": stream})
    with app.test_request_context():
        app.logger.warning("careful")
    assert [x["message"] for x in _lines(stream)] == ["careful"]
    assert app.logger.propagate is False and len(app.logger.handlers) == 1
    assert logging.getLogger("tractor_referee.access").handlers == []  # nothing global


# --- metrics ------------------------------------------------------------------------

def test_requests_are_counted_by_route_method_and_status(api: Any) -> None:
    route = {"endpoint": "/v1/rulesets/<name>", "method": "GET"}
    before_ok = _metric(api, "referee_http_requests_total", status="200", **route)
    before_404 = _metric(api, "referee_http_requests_total", status="404", **route)
    before_unmatched = _metric(api, "referee_http_requests_total", endpoint="<unmatched>", status="404")
    before_hist = _metric(api, "referee_http_request_duration_seconds_count", status="200", **route)
    api.get("/v1/rulesets/two-deck")
    api.get("/v1/rulesets/four-deck")
    api.get("/v1/rulesets/five-deck")
    api.client.get("/no/such/path/12345")
    assert _metric(api, "referee_http_requests_total", status="200", **route) == before_ok + 2
    assert _metric(api, "referee_http_requests_total", status="404", **route) == before_404 + 1
    assert _metric(api, "referee_http_requests_total", endpoint="<unmatched>", status="404") == before_unmatched + 1
    assert _metric(api, "referee_http_request_duration_seconds_count", status="200", **route) == before_hist + 2
    text = metrics.exposition(None)[0].decode()
    assert "/no/such/path" not in text and "five-deck" not in text  # routes, never raw paths


def test_the_public_app_has_no_metrics(api: Any) -> None:
    for path in ("/metrics", "/metrics/", "/v1/metrics"):
        resp = api.client.get(path)
        assert resp.status_code == 404 and resp.mimetype == "application/problem+json", path
        assert b"referee_" not in resp.data


def _scrape(port: int, accept: str | None = None) -> tuple[str, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", "/metrics", headers={"Accept": accept} if accept else {})
        resp = conn.getresponse()
        assert resp.status == 200
        return resp.getheader("Content-Type") or "", resp.read().decode()
    finally:
        conn.close()


@pytest.mark.parametrize("multiprocess", [False, True], ids=["process", "files"])
def test_the_request_counter_is_the_latency_histograms_count(
    multiprocess: bool, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """referee_http_requests_total is read from the histogram at each scrape
    (service.metrics.with_request_counts): a counter with its help, one sample
    per label set the histogram has, equal to its _count, in both registries."""
    if multiprocess:
        monkeypatch.setattr(metrics, "MULTIPROC_DIR", str(tmp_path))
        monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
        monkeypatch.setattr(values, "ValueClass", values.MultiProcessValue(lambda: 301))
        histogram = Histogram("referee_http_request_duration_seconds", "t", metrics.ROUTE_LABELS, registry=None)
        for seconds in (0.001, 0.002, 0.3):
            histogram.labels("/healthz", "GET", "200").observe(seconds)
        histogram.labels("<unmatched>", "OTHER", "404").observe(0.001)
    else:
        client = create_app().test_client()
        client.get("/healthz")
        client.open("/nowhere", method="BREW")
    text = metrics.exposition(None)[0].decode()
    assert "# HELP referee_http_requests_total HTTP requests answered, by matched route, method and status." in text
    assert "# TYPE referee_http_requests_total counter" in text
    counts = sample_values(text, "referee_http_requests_total")
    assert counts == sample_values(text, "referee_http_request_duration_seconds_count") and len(counts) >= 2
    if multiprocess:
        assert sorted(counts, key=str) == [({"endpoint": "/healthz", "method": "GET", "status": "200"}, 3.0),
                                           ({"endpoint": "<unmatched>", "method": "OTHER", "status": "404"}, 1.0)]
    else:
        created = sample_values(text, "referee_http_requests_created")
        assert [labels for labels, _ in created] == [labels for labels, _ in counts]
        assert created == sample_values(text, "referee_http_request_duration_seconds_created")


@pytest.mark.parametrize("multiprocess", [False, True], ids=["process", "files"])
def test_the_worker_gauge_is_each_live_workers_histogram_count(
    multiprocess: bool, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """referee_worker_requests is read from the latency histogram at each scrape
    (service.metrics.worker_requests): a gauge with its help, one sample per live
    worker (label pid) equal to the requests it answered; a dead worker's goes
    with its files into the archive.  Outside gunicorn: one sample, no pid."""
    if multiprocess:
        monkeypatch.setattr(metrics, "MULTIPROC_DIR", str(tmp_path))
        monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
        assert "referee_worker_requests" not in metrics.exposition(None)[0].decode()  # no request yet: no gauge
        for pid, routes in ((401, ["/healthz", "/healthz", "/version"]), (402, ["/healthz"]), (403, ["/healthz"] * 5)):
            monkeypatch.setattr(values, "ValueClass", values.MultiProcessValue(lambda pid=pid: pid))
            histogram = Histogram("referee_http_request_duration_seconds", "t", metrics.ROUTE_LABELS, registry=None)
            for route in routes:
                histogram.labels(route, "GET", "200").observe(0.001)
        archive_dead_worker(403, str(tmp_path))
    else:
        create_app().test_client().get("/healthz")
    text = metrics.exposition(None)[0].decode()
    assert "# HELP referee_worker_requests Requests served by each live worker process (label pid under gunicorn)." in text
    assert "# TYPE referee_worker_requests gauge" in text
    served = sample_values(text, "referee_worker_requests")
    if multiprocess:
        assert served == [({"pid": "401"}, 3.0), ({"pid": "402"}, 1.0)]
        assert sum(v for _, v in sample_values(text, "referee_http_requests_total")) == 9  # the dead one's counted
    else:
        assert served == [({}, sum(v for _, v in sample_values(text, "referee_http_requests_total")))]


def test_the_private_port_serves_prometheus_text_or_openmetrics(api: Any) -> None:
    api.get("/healthz")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = metrics.serve("127.0.0.1", port)
    try:
        ctype, text = _scrape(port)
        assert ctype.startswith("text/plain")
        assert "# TYPE referee_http_requests_total counter" in text
        assert 'endpoint="/healthz"' in text
        ctype, text = _scrape(port, "application/openmetrics-text; version=1.0.0")
        assert ctype.startswith("application/openmetrics-text") and text.endswith("# EOF\n")
        with pytest.raises(OSError):  # the port is taken: a second server cannot have it
            metrics.serve("127.0.0.1", port)
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(
    ("value", "label"),
    [(True, "true"), (False, "false"), (None, "null"), (3, "3"), ("follow.must_play_pair", "follow.must_play_pair")],
)
def test_count_verdict(api: Any, value: object, label: str) -> None:
    before = _metric(api, "referee_verdicts_total", verdict="test.verdict", value=label)
    count_verdict("test.verdict", value)
    assert _metric(api, "referee_verdicts_total", verdict="test.verdict", value=label) == before + 1


@pytest.mark.parametrize(
    ("name", "value"),
    [("Follow.Legal", True), ("follow legal", True), ("", True), ("ok.name", 1.5), ("ok.name", "x" * 65),
     ("ok.name", "two words"), ("ok.name", 10**6), ("ok.name", ["list"])],
)
def test_count_verdict_refuses_unbounded_labels(name: str, value: object) -> None:
    with pytest.raises(ValueError):
        count_verdict(name, value)


def test_outside_gunicorn_the_process_registry_is_exposed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(metrics, "MULTIPROC_DIR", None)
    assert metrics.registry() is metrics.REGISTRY


def test_with_a_multiprocess_dir_the_files_are_merged(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(metrics, "MULTIPROC_DIR", str(tmp_path))
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))  # where the fake worker writes
    reg = metrics.registry()
    assert reg is not metrics.REGISTRY
    assert generate_latest(reg) == b""  # no worker has written anything yet
    _worker_values(monkeypatch, 201, 2)
    assert b't_requests_total{endpoint="/healthz"} 2.0' in generate_latest(reg)


def test_the_multiprocess_dir_is_made_when_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path / "made" / "on-demand"))
    assert metrics.multiproc_dir() == str(tmp_path / "made" / "on-demand")
    assert (tmp_path / "made" / "on-demand").is_dir()
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR")
    assert metrics.multiproc_dir() is None


def _worker_values(monkeypatch: pytest.MonkeyPatch, pid: int, requests: int) -> None:
    """Write a fake worker's values the way prometheus-client does under gunicorn."""
    monkeypatch.setattr(values, "ValueClass", values.MultiProcessValue(lambda: pid))
    Counter("t_requests", "test", ["endpoint"], registry=None).labels("/healthz").inc(requests)
    Gauge("t_live", "test", registry=None, multiprocess_mode="liveall").set(requests)


def _merged(path: Path) -> dict[str, list[tuple[dict[str, str], float]]]:
    reg = CollectorRegistry()
    MultiProcessCollector(reg, str(path))
    text = generate_latest(reg).decode()
    return {name: sample_values(text, name) for name in ("t_requests_total", "t_live")}


def test_a_dead_workers_counts_are_archived_not_lost(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    _worker_values(monkeypatch, 101, 3)
    _worker_values(monkeypatch, 102, 4)
    assert _merged(tmp_path)["t_requests_total"] == [({"endpoint": "/healthz"}, 7.0)]

    archive_dead_worker(101, str(tmp_path))
    merged = _merged(tmp_path)
    assert merged["t_requests_total"] == [({"endpoint": "/healthz"}, 7.0)]
    assert merged["t_live"] == [({"pid": "102"}, 4.0)]  # the dead worker's live gauge is gone

    _worker_values(monkeypatch, 103, 5)
    archive_dead_worker(102, str(tmp_path))
    archive_dead_worker(103, str(tmp_path))
    assert _merged(tmp_path)["t_requests_total"] == [({"endpoint": "/healthz"}, 12.0)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["counter_archive.db"]


# --- the container's health check -------------------------------------------------------

@pytest.mark.parametrize(
    ("bind", "url"),
    [
        ("0.0.0.0:8000", "http://127.0.0.1:8000/healthz"),
        ("127.0.0.1:9001", "http://127.0.0.1:9001/healthz"),
        ("[::]:8080", "http://127.0.0.1:8080/healthz"),
        ("0.0.0.0:8000,unix:/tmp/x.sock", "http://127.0.0.1:8000/healthz"),
    ],
)
def test_health_url(bind: str, url: str) -> None:
    assert health_url(bind) == url


@pytest.mark.parametrize(
    "length", [None, "", "0", "12", "0012", " 12", "12 ", "-3", "+5", "1_0", "abc", "١٢", "²", "9" * 30],
)
@pytest.mark.parametrize("coding", [None, "chunked", "gzip"])
def test_bytes_in_is_werkzeugs_content_length(length: str | None, coding: str | None) -> None:
    """The access line's bytes_in is werkzeug's ``request.content_length or 0``
    for plain, padded, signed, non-ASCII and absurd lengths, with and without a
    transfer coding."""
    from werkzeug.wrappers import Request

    from service.logs import bytes_in

    environ: dict[str, Any] = {"REQUEST_METHOD": "POST", "wsgi.input": io.BytesIO(b"")}
    if length is not None:
        environ["CONTENT_LENGTH"] = length
    if coding is not None:
        environ["HTTP_TRANSFER_ENCODING"] = coding
    assert bytes_in(environ) == (Request(environ).content_length or 0)
