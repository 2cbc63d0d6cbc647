"""Prometheus metrics: requests, latency, per-worker load and adjudication verdicts.

The metrics are private: the public port (the app) has no ``/metrics`` route
(a 404 there); they are served on a port of their own by the gunicorn master
(:func:`serve`, started by the ``when_ready`` hook of service/gunicorn_conf.py
on ``METRICS_BIND``:``METRICS_PORT``, default 127.0.0.1:9100).  The workers
answer requests and the master scrapes nothing itself, so the values live in
prometheus-client's multiprocess mode: ``PROMETHEUS_MULTIPROC_DIR`` is set
(gunicorn.conf.py sets it before the app is imported), every worker writes its
values to files there, and a scrape merges them.  Without it (``flask run``, the
tests) :func:`registry` is the ordinary in-process registry.

Endpoints count their verdicts with :func:`count_verdict`::

    from service.metrics import count_verdict
    count_verdict("follow.legal", verdict.legal)     # true / false / null
    count_verdict("throw.valid", result.valid)

Labels are bounded: the endpoint is the matched route (``/v1/rulesets/<name>``,
never the raw path; ``<unmatched>`` for a 404), methods outside the usual few
are ``OTHER``, and a verdict value is a boolean, null, a small integer or a
short stable code.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Iterable
from functools import cache
from typing import Any

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    start_http_server,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder
from prometheus_client.mmap_dict import MmapedDict
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from prometheus_client.registry import Collector

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
UNMATCHED = "<unmatched>"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

_VERDICT_NAME = re.compile(r"^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*$")
_VERDICT_VALUE = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


def multiproc_dir() -> str | None:
    """The multiprocess directory, created if named but missing; None outside it."""
    path = os.environ.get(MULTIPROC_ENV)
    if not path:
        return None
    os.makedirs(path, exist_ok=True)
    return path


# Decided once, at import, as prometheus-client decides how it stores values;
# the directory must exist before the first value is written.
MULTIPROC_DIR = multiproc_dir()

ROUTE_LABELS = ("endpoint", "method", "status")
LATENCY_NAME = "referee_http_request_duration_seconds"
LATENCY = Histogram(
    LATENCY_NAME,
    "Time from the start of the request to the response, by matched route, method and status.",
    ROUTE_LABELS,
    buckets=LATENCY_BUCKETS,
)
REQUESTS = ("referee_http_requests", "HTTP requests answered, by matched route, method and status.")
"""The request counter's name and help: a scrape derives it from ``LATENCY`` (:func:`with_request_counts`)."""
VERDICTS = Counter(
    "referee_verdicts",
    "Adjudication outcomes, e.g. verdict=\"follow.legal\" value=\"false\" for an illegal follow.",
    ["verdict", "value"],
)


WORKER_REQUESTS = (
    "referee_worker_requests",
    "Requests served by each live worker process (label pid under gunicorn).",
)
"""The per-worker request gauge's name and help: a scrape reads it from each live
worker's latency histogram (:func:`worker_requests`), no value written per request."""


@cache
def publish_build_info() -> None:
    """``referee_build_info{version, commit} 1``: what this process runs (the
    commit ``unknown`` when service.build cannot tell).  Once per process, at
    its first answered request (:func:`observe`), so a gunicorn master that
    preloads the app but serves nothing does not publish it: ``livemax`` merges
    the live workers' samples into one and a dead worker's file goes with it."""
    from service.build import git_commit, package_version

    Gauge(
        "referee_build_info",
        "The running build: the package version and the git commit (always 1).",
        ["version", "commit"],
        multiprocess_mode="livemax",
    ).labels(package_version(), git_commit() or "unknown").set(1)


def _label_value(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if not -1000 <= value <= 1000:
            raise ValueError(f"verdict value {value} is out of range for a metric label")
        return str(value)
    if isinstance(value, str) and _VERDICT_VALUE.match(value):
        return value
    raise ValueError(f"verdict value {value!r} is not a boolean, null, small integer or short code")


def count_verdict(name: str, value: object = True, amount: int = 1) -> None:
    """Count one adjudication outcome: ``count_verdict("follow.legal", False)``.

    ``name`` is a dotted snake_case verdict name (``throw.valid``, ``bid.reason``);
    ``value`` a bool, None, a small int or a stable code such as a reason code.
    A malformed name or value is a programming error (ValueError), never a
    label that grows without bound.
    """
    kind = value.__class__
    key = (name, kind, value)
    child = _verdicts.get(key) if kind in _KEYABLE else None
    if child is None:  # first sight of this label pair: check it once (the pairs are bounded)
        if not _VERDICT_NAME.match(name):
            raise ValueError(f"verdict name {name!r} is not dotted snake_case")
        child = VERDICTS.labels(name, _label_value(value))
        _verdicts[key] = child
    child.inc(amount)


# (name, value's type, value) → its counter child: ``labels()`` takes a lock and
# builds the label tuple on every call, and the pairs are few and never change.
# The type is part of the key, so ``True`` and ``1`` stay different labels.
_KEYABLE = frozenset({bool, int, str, type(None)})
_verdicts: dict[tuple[str, type, object], Any] = {}


def with_request_counts(families: Iterable[Metric]) -> list[Metric]:
    """``families`` with ``referee_http_requests_total{endpoint, method,
    status}``, the requests answered, before the latency histogram it is read
    from (the histogram's ``_count``, and its ``_created`` where the samples
    have one); no histogram, no counter.

    Every answered request is observed once by the histogram under the same
    labels, so its count is the request count; a counter of its own was one
    more value written to the metrics files on every request, ~9,000
    instructions of a 430,000-instruction ``/healthz`` (bench/RESULTS.md,
    issue 22).  A scrape reads the same metric as before: a counter, its name,
    help, labels and values.
    """
    out: list[Metric] = []
    for family in families:
        if family.name == LATENCY_NAME:
            counts = CounterMetricFamily(*REQUESTS, labels=ROUTE_LABELS)
            created = {_route(s.labels): s.value for s in family.samples if s.name == f"{LATENCY_NAME}_created"}
            for sample in family.samples:
                if sample.name == f"{LATENCY_NAME}_count":
                    route = _route(sample.labels)
                    counts.add_metric(route, sample.value, created=created.get(route))
            out.append(counts)
        out.append(family)
    return out


def _route(labels: dict[str, str]) -> tuple[str, ...]:
    return tuple(labels[name] for name in ROUTE_LABELS)


def worker_requests(counts: dict[str, float]) -> GaugeMetricFamily | None:
    """``referee_worker_requests``, the requests each live worker has served,
    from ``counts`` (the ``_count`` samples of a worker's latency histogram,
    summed, by worker pid; the key ``""``: this process, outside gunicorn, no
    ``pid`` label); None when no worker has served a request yet.

    Every answered request is observed once by the histogram of the process
    that served it, so its count is what a gauge of the worker's own, set on
    every request, held (issue 22: one more value written to the metrics files
    on every request, ~9,000 instructions and one ``getpid`` system call); a
    scrape reads the same gauge as before: its name, help, ``pid`` label and
    values, a live worker only (a dead worker's histogram file is folded into
    the archive, :func:`archive_dead_worker`).
    """
    if not counts:
        return None
    per_worker = "" not in counts
    family = GaugeMetricFamily(*WORKER_REQUESTS, labels=("pid",) if per_worker else None)
    for pid, count in sorted(counts.items()):
        family.add_metric((pid,) if per_worker else (), count)
    return family


def _count(family: Metric) -> float:
    return sum(s.value for s in family.samples if s.name == f"{LATENCY_NAME}_count")


class RequestCounts(Collector):
    """The request counter and the worker gauge of this process's histogram
    (:func:`with_request_counts`, :func:`worker_requests`), for a registry
    without the multiprocess files."""

    def collect(self) -> list[Metric]:
        counter, latency = with_request_counts(LATENCY.collect())
        served = worker_requests({"": _count(latency)} if counter.samples else {})
        return [counter] if served is None else [counter, served]

    def describe(self) -> list[Metric]:
        return [CounterMetricFamily(*REQUESTS, labels=ROUTE_LABELS)]


REGISTRY.register(RequestCounts())


class MergedFiles(Collector):
    """The workers' metrics files, merged, the request counter they imply
    (:func:`with_request_counts`) and each live worker's requests
    (:func:`worker_requests`, from its own histogram file); read again when a
    file vanishes mid-read (a dead worker's counts folded into the archive,
    :func:`archive_dead_worker`)."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._files = MultiProcessCollector(None, path)  # None: not registered anywhere

    def collect(self) -> list[Metric]:
        for attempt in range(3):
            try:
                families = with_request_counts(self._files.collect())
                served = worker_requests(self._worker_counts())
            except FileNotFoundError:
                if attempt == 2:
                    raise
            else:
                return families if served is None else [*families, served]
        raise AssertionError("unreachable")  # pragma: no cover

    def _worker_counts(self) -> dict[str, float]:
        """Requests per live worker pid: the ``_count`` of its histogram file."""
        counts: dict[str, float] = {}
        for path in glob.glob(os.path.join(self._path, "histogram_*.db")):
            pid = os.path.basename(path)[len("histogram_"):-len(".db")]
            if pid.isdigit():  # not the archive of the dead workers
                latency = [f for f in MultiProcessCollector.merge([path]) if f.name == LATENCY_NAME]
                counts[pid] = sum(_count(f) for f in latency)
        return counts


def registry() -> CollectorRegistry:
    """What a scrape exposes: the merged worker files, or this process."""
    if MULTIPROC_DIR is None:
        return REGISTRY
    merged = CollectorRegistry()
    merged.register(MergedFiles(MULTIPROC_DIR))
    return merged


def exposition(accept: str | None) -> tuple[bytes, str]:
    """The metrics in the format ``accept`` asks for (Prometheus text by default)."""
    encoder, content_type = choose_encoder(accept or "")
    return encoder(registry()), content_type


def serve(host: str, port: int) -> Any:
    """Serve the metrics on ``host:port`` from a daemon thread of this process
    (prometheus-client's own server: Prometheus text, or OpenMetrics when the
    ``Accept`` header asks for it, on any path); returns the server, whose
    ``socket`` a forked worker closes.  Raises OSError when the port is taken."""
    server, _thread = start_http_server(port, addr=host, registry=registry())
    return server


# (route, method, status) → its histogram child, resolved once (``labels()`` takes a
# lock and builds the label tuple on every call)
_children: dict[tuple[str | None, str, int], Any] = {}


def observe(route: str | None, method: str, status: int, seconds: float) -> None:
    """Record one answered request: its matched route (None: no route matched),
    its method, its status and how long it took (service.scope calls it once a
    request is answered)."""
    key = (route, method if method in METHODS else "OTHER", status)
    latency = _children.get(key)
    if latency is None:  # label sets are bounded: routes x methods x statuses
        publish_build_info()
        labels = (UNMATCHED if route is None else route, key[1], str(status))
        latency = _children[key] = LATENCY.labels(*labels)
    latency.observe(seconds)


# --- gunicorn master side (called from gunicorn.conf.py hooks) ---------------

ADDITIVE_TYPES = ("counter", "histogram", "summary")


def clear_dir(path: str) -> None:
    """Remove every metrics file in ``path`` (stale values of an earlier run)."""
    for f in glob.glob(os.path.join(path, "*.db")):
        os.remove(f)


def archive_dead_worker(pid: int, path: str) -> None:
    """Fold a dead worker's files into one archive file per metric type.

    Counters and histograms of a dead worker must keep counting in the totals,
    but one file per worker ever started would pile up as workers are recycled
    (``max_requests``) and slow every scrape.  Their values are added into
    ``<type>_archive.db`` and the worker's files removed; its live gauges
    simply disappear (``mark_process_dead``).
    """
    mark_process_dead(pid, path)
    for typ in ADDITIVE_TYPES:
        src = os.path.join(path, f"{typ}_{pid}.db")
        if not os.path.exists(src):
            continue
        archive = MmapedDict(os.path.join(path, f"{typ}_archive.db"))
        try:
            for key, value, timestamp, _ in MmapedDict.read_all_values_from_file(src):
                current, _ts = archive.read_value(key)
                archive.write_value(key, current + value, timestamp)
        finally:
            archive.close()
        os.remove(src)


def sample_values(text: str, name: str) -> list[tuple[dict[str, str], float]]:
    """Samples of metric ``name`` in Prometheus text (for tests and bench scripts)."""
    from prometheus_client.parser import text_string_to_metric_families

    out: list[tuple[dict[str, str], float]] = []
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name:
                out.append((dict(sample.labels), float(sample.value)))
    return out

