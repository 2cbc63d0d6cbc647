"""gunicorn settings for the referee (README.md "Deployment": sync workers, preload, recycling).

``gunicorn -c gunicorn.conf.py`` serves ``service.app:create_app()`` on
127.0.0.1:8000.  The environment overrides: ``PORT`` and ``HOST`` (the
container sets ``HOST=0.0.0.0``; a platform sets ``PORT``), or ``BIND``
(gunicorn's ``host:port``, over both), ``WORKERS`` (default: the CPUs
available to the container, at least 2 — measured in bench/RESULTS.md: on two
cores, 3 workers served fewer requests per second than 2, with a longer p99),
``LOG_LEVEL`` (debug, info, warning, error, critical; default info),
``TIMEOUT`` and ``GRACEFUL_TIMEOUT`` (seconds).  A value that is not what its
variable takes stops the start with a message naming it.  JSON is orjson throughout (service/jsonio.py,
the log formatter), also chosen by measurement (bench/jsonlib.py).

Metrics are private: the app does not serve them; the master does, on a port of
its own (``when_ready`` starts prometheus-client's server on ``METRICS_BIND``
(default 127.0.0.1; the container sets 0.0.0.0 for the Prometheus scrape) and
``METRICS_PORT`` (default 9100); a port already taken is logged as an error and
the referee serves on without metrics); forked workers close that socket
(``post_fork``).  prometheus-client's multiprocess mode needs ``PROMETHEUS_MULTIPROC_DIR``
set before the app is imported, so it is set here (a fresh temporary directory
unless the environment names one) and emptied of an earlier run's values;
``child_exit`` folds a dead worker's counters into an archive file so recycled
workers neither lose counts nor pile up files; ``on_exit`` removes a directory
this file created.

Each worker reads its settings through :class:`WorkerSettings` (``post_fork``):
each one asked of gunicorn's configuration once, not some twenty times a
request at ~6,000 instructions a read.

Shutdown: SIGTERM to the master (what ``docker stop`` and Kubernetes send) is
graceful: it stops accepting, lets every in-flight request finish for up to
``graceful_timeout`` seconds, then exits.  Every log line, gunicorn's own
included, is JSON on stderr; the app writes the per-request line itself, so
gunicorn's access log stays off: ``AppWritesAccessLines`` tells gunicorn so,
which also spares it building (and dropping) a line of its own per request,
about 4 % of a worker's time (bench/RESULTS.md).
"""

import gc
import glob
import math
import os
import shutil
import tempfile
from typing import Any

from gunicorn.glogging import Logger

from service.healthcheck import bind_from_env
from service.logs import log_level

# --- the Prometheus multiprocess directory (before the app is imported) -----
_MULTIPROC = "PROMETHEUS_MULTIPROC_DIR"
_CREATED = "REFEREE_METRICS_DIR_CREATED"
_MASTER = "REFEREE_METRICS_MASTER_PID"

if not os.environ.get(_MULTIPROC):
    os.environ[_MULTIPROC] = tempfile.mkdtemp(prefix="referee-metrics-")
    os.environ[_CREATED] = "1"
metrics_dir = os.environ[_MULTIPROC]
os.makedirs(metrics_dir, exist_ok=True)
if os.environ.get(_MASTER) != str(os.getpid()):  # first load in this master, not a reload
    for _stale in glob.glob(os.path.join(metrics_dir, "*.db")):
        os.remove(_stale)
    os.environ[_MASTER] = str(os.getpid())


def available_cpus() -> int:
    """CPUs this process may use: the cgroup v2 quota when there is one."""
    try:
        with open("/sys/fs/cgroup/cpu.max", encoding="ascii") as f:
            quota, period = f.read().split()[:2]
        if quota != "max":
            return max(1, math.ceil(int(quota) / int(period)))
    except (OSError, ValueError):
        pass
    return len(os.sched_getaffinity(0))


def positive_int(name: str, default: int) -> int:
    """The environment variable ``name`` as a whole number of at least 1."""
    value = os.environ.get(name, "").strip() or str(default)
    if not (value.isdigit() and int(value) >= 1):
        raise ValueError(f"{name}: {value!r} is not a whole number of at least 1")
    return int(value)


# --- serving ------------------------------------------------------------------
wsgi_app = "service.app:create_app()"
bind = bind_from_env(os.environ)
worker_class = "sync"
workers = positive_int("WORKERS", max(2, available_cpus()))  # bench/RESULTS.md
preload_app = True
max_requests = 10000
max_requests_jitter = 1000
timeout = positive_int("TIMEOUT", 10)  # service.limits.REQUEST_TIMEOUT_SECONDS
graceful_timeout = positive_int("GRACEFUL_TIMEOUT", 10)
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
control_socket_disable = True  # no runtime control socket (also --no-control-socket in the image)
metrics_host = os.environ.get("METRICS_BIND", "127.0.0.1")
metrics_port = int(os.environ.get("METRICS_PORT", "9100"))

# --- logs: JSON lines on stderr -----------------------------------------------
class AppWritesAccessLines(Logger):
    """gunicorn's logger, minus its access lines: with a ``logconfig_dict``
    gunicorn would format one per request even though no handler takes it."""

    access_log_enabled = False  # read by gunicorn's workers before building log data

    def access(self, resp, req, environ, request_time):  # type: ignore[no-untyped-def]
        return None


logger_class = AppWritesAccessLines
accesslog = None
loglevel = log_level(os.environ.get("LOG_LEVEL"))  # the app reads the same variable (service.logs)
logconfig_dict = {
    "root": {"level": loglevel.upper(), "handlers": ["json"]},
    "loggers": {
        "gunicorn.error": {
            "level": loglevel.upper(), "handlers": ["json"], "propagate": False, "qualname": "gunicorn.error",
        },
        "gunicorn.access": {"level": "CRITICAL", "handlers": [], "propagate": False, "qualname": "gunicorn.access"},
    },
    "handlers": {"json": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}},
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.orjson.OrjsonFormatter",  # as service.logs.json_formatter
            "fmt": "{levelname}{name}{message}",
            "style": "{",
            "rename_fields": {"levelname": "level", "name": "logger"},
            "timestamp": True,
        }
    },
}


# --- hooks ----------------------------------------------------------------------
if loglevel != "debug":

    def pre_request(worker, req):
        """Before each request, below LOG_LEVEL=debug: nothing.  gunicorn's default
        hook logs ``METHOD path`` at debug level only, yet it called into logging on
        every request to find that out (bench/RESULTS.md, s6-server); the app's
        access line says it and more.  At debug level gunicorn's own hook stays."""
        return None


def when_ready(server):
    """The master serves the merged metrics on the private port (the workers
    answer on the public one).  The server is kept on the arbiter, which outlives
    a configuration reload (SIGHUP), for ``post_fork``."""
    from service.metrics import serve

    try:
        server.referee_metrics = serve(metrics_host, metrics_port)
    except OSError as exc:
        server.log.error("metrics: cannot listen on %s:%d (%s); serving without metrics", metrics_host, metrics_port, exc)
    else:
        server.log.info("metrics on http://%s:%d/metrics", metrics_host, metrics_port)


class WorkerSettings:
    """A worker's settings, each read from gunicorn's configuration once.

    gunicorn's sync worker reads its settings by attribute (``self.cfg.NAME``,
    as every subclass of ``gunicorn.workers.base.Worker`` does: the
    ``worker_class`` setting's documented override point) some twenty times a
    request: the parser's limits, the forwarding policy, the hooks, the
    environ's ``wsgi.multiprocess``...  gunicorn's ``Config`` answers each
    through ``__getattr__``, which Python calls only once its ordinary look-up
    has failed, made an ``AttributeError`` and dropped it: ~6,000 instructions
    a read, ~130,000 a request, GET or POST (bench/RESULTS.md, thirteenth pass).
    A worker's settings never change while it runs (gunicorn's documentation,
    "Signal Handling": HUP reloads the configuration by starting new workers
    with it and stopping the old ones), so this view answers every name with
    what the configuration answered the first time it was asked, kept as an
    ordinary attribute: settings, properties (``is_ssl``) and methods alike.
    A name the configuration does not know raises its ``AttributeError``, each
    time, as it did.
    """

    def __init__(self, config: Any) -> None:
        self._config = config  # not a setting's name: settings have no leading underscore

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._config, name)
        setattr(self, name, value)  # the next read finds it without coming here
        return value


def post_fork(server, worker):
    """In the new worker, before it starts (gunicorn's documented ``post_fork``
    hook): it does not serve the metrics, so it closes its copy of their socket
    (the port is free once the master is gone); and it reads its settings
    through :class:`WorkerSettings`."""
    metrics_server = getattr(server, "referee_metrics", None)
    if metrics_server is not None:
        metrics_server.socket.close()
    worker.cfg = WorkerSettings(worker.cfg)


def pre_fork(server, worker):
    """Freeze what the preloaded app made, right before a worker is forked
    (``gc.freeze``, as the Python documentation advises for fork without exec):
    a worker's garbage collections then never scan those objects, nor dirty the
    copy-on-write pages they share with the master, and a full collection walks
    only what the worker itself keeps (bench/RESULTS.md, third pass)."""
    gc.freeze()


def child_exit(server, worker):
    """A worker is gone: keep its counts, drop its files and live gauges."""
    from service.metrics import archive_dead_worker

    archive_dead_worker(worker.pid, metrics_dir)


def on_exit(server):
    if os.environ.get(_CREATED):
        shutil.rmtree(metrics_dir, ignore_errors=True)
