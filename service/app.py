"""Flask app factory: ``service.app:create_app(config=None)``.

Besides the ``/v1`` rules endpoints and the ops endpoints, every request gets a
request id (``X-Request-ID``, echoed), one JSON access log line and its count
and latency in the Prometheus metrics (served on a private port by the gunicorn
master, never by this app: ``/metrics`` is a 404 here, service/metrics.py);
``/docs`` serves the interactive documentation offline and ``/console`` the
referee console.
Browsers on other origins may call the service when ``CORS_ORIGINS`` names
them (off by default).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, g, request
from flask_compress import Compress
from flask_cors import CORS
from werkzeug.exceptions import HTTPException

from engine.budget import close_budget, open_budget
from engine.errors import InvalidInput
from service import logs, metrics, routes  # noqa: F401  (routes registers the /v1 views)
from service.api import body_limit, v1
from service.build import git_commit
from service.console_page import console
from service.docs import docs
from service.errors import ProblemError, invalid, problem_response
from service.jsonio import OrjsonProvider
from service.limits import MAX_BODY_BYTES, MAX_WORK_UNITS
from service.ops import ops, warm_engine

DEFAULT_CONFIG: dict[str, Any] = {
    "MAX_CONTENT_LENGTH": MAX_BODY_BYTES,  # a four-deck hand audit is ~10 KiB
    "JSON_SORT_KEYS": False,
    "ACCESS_LOG": True,  # one JSON line per request
    "MAX_WORK_UNITS": MAX_WORK_UNITS,  # engine.budget per request (None: unbounded, for tests and tools)
    "LOG_STREAM": None,  # None: stderr
    # gzip for answers of 2 KiB and more, when the client accepts it: level 1 takes 70-90 %
    # off them for 3-7 % of a warm request's CPU (python -m bench.compression; level 6 saves a few
    # points more for two to three times the CPU)
    "COMPRESS_ALGORITHM": ["gzip"],
    "COMPRESS_LEVEL": 1,
    "COMPRESS_MIN_SIZE": 2048,
    "COMPRESS_STREAMS": False,  # files (the docs' assets) go out as they are, cacheable
    "COMPRESS_REGISTER": False,  # finish_request below asks it only for large answers
    "COMPRESS_MIMETYPES": [
        "application/json", "application/problem+json", "application/yaml",
        "text/html", "text/plain", "application/openmetrics-text",
    ],
}


CORS_ENV = "CORS_ORIGINS"
_ORIGIN = re.compile(r"^https?://[^/\s,*]+$")


def cors_origins(value: str | None) -> str | list[str] | None:
    """``CORS_ORIGINS``: unset or blank is no CORS at all; ``*`` lets any origin
    in; else the origins a browser may call from, separated by commas
    (``https://play.example, http://localhost:3000``).  Anything else stops the
    start (ValueError) rather than opening the service to a guess."""
    text = (value or "").strip()
    if not text:
        return None
    if text == "*":
        return "*"
    origins = [part.strip().rstrip("/") for part in text.split(",") if part.strip()]
    for origin in origins:
        if not _ORIGIN.match(origin):
            raise ValueError(
                f"{CORS_ENV}: {origin!r} is not an origin (scheme://host[:port], no path); "
                "give origins separated by commas, or * alone"
            )
    return origins


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the referee app; ``config`` overrides ``DEFAULT_CONFIG``."""
    app = Flask(__name__, static_folder=None)
    app.url_map.merge_slashes = False  # a redirect would be an HTML page, not problem+json
    app.url_map.strict_slashes = False
    app.json_provider_class = OrjsonProvider
    app.json = OrjsonProvider(app)
    app.config.update(DEFAULT_CONFIG)
    if config:
        app.config.update(config)
    app.register_blueprint(v1)
    app.register_blueprint(ops)
    origins = cors_origins(app.config.get(CORS_ENV) or os.environ.get(CORS_ENV))
    if origins is not None:  # answers preflights and adds the headers, to problems too
        CORS(
            app,
            origins=origins,
            send_wildcard=origins == "*",  # "*" itself, not the caller's origin echoed
            methods=["GET", "POST", "OPTIONS"],
            allow_headers=["Content-Type", "Accept-Language", "X-Request-ID"],
            expose_headers=["X-Request-ID", "Content-Language"],
            max_age=600,
        )
    app.register_blueprint(docs)
    app.register_blueprint(console)
    logs.init_app(app)
    compress = Compress(app)
    min_size = app.config["COMPRESS_MIN_SIZE"]

    # The request's state lives in ``g``, resolved once per hook (every ``g.x`` is a
    # proxy look-up), and the caller's id is read from the WSGI environ as
    # ``request.headers`` would read it: the hooks are every request's cost
    # (bench/RESULTS.md, issue 22).
    @app.before_request
    def start_request() -> None:
        state = g._get_current_object()
        state.request_started = time.perf_counter()
        state.request_id = logs.request_id_from(request.environ.get(logs.REQUEST_ID_ENVIRON))
        units = app.config["MAX_WORK_UNITS"]
        if units is not None:
            state.work_budget = open_budget(units)  # engine.budget: bounded work per request

    @app.teardown_request
    def end_request(_exc: BaseException | None) -> None:
        token = g.pop("work_budget", None)
        if token is not None:
            close_budget(token)

    @app.after_request
    def finish_request(resp: Response) -> Response:
        """gzip a large answer, then the request id and nosniff headers, the
        metrics and the access line (which counts the bytes sent).  One hook, not
        two: flask-compress is asked only for answers of ``COMPRESS_MIN_SIZE``
        and more (on every answer it cost a small one ~50,000 instructions, 8 %
        of /healthz), so small answers carry no ``Vary: Accept-Encoding``."""
        length = resp.content_length
        if length is not None and length >= min_size:
            resp = compress.after_request(resp)
            length = resp.content_length  # gzipped (or not, when the client takes no gzip)
        state = g._get_current_object()
        started = getattr(state, "request_started", None)
        seconds = time.perf_counter() - started if started is not None else 0.0
        request_id = getattr(state, "request_id", None)
        if request_id is None:  # answered before start_request ran
            request_id = state.request_id = logs.request_id_from(request.environ.get(logs.REQUEST_ID_ENVIRON))
        headers = resp.headers
        headers[logs.REQUEST_ID_HEADER] = request_id
        headers.setdefault("X-Content-Type-Options", "nosniff")
        metrics.observe(resp.status_code, seconds)
        logs.access_line(app, resp, seconds, request_id, length)
        return resp

    @app.errorhandler(InvalidInput)
    def on_invalid(exc: InvalidInput) -> Response:
        return invalid(exc)

    @app.errorhandler(ProblemError)
    def on_problem(exc: ProblemError) -> Response:
        return exc.response()

    @app.errorhandler(HTTPException)
    def on_http(exc: HTTPException) -> Response:
        return http_problem(exc)

    @app.errorhandler(Exception)
    def on_error(exc: Exception) -> Response:  # pragma: no cover - a bug, never input
        app.logger.exception("unhandled error")
        return problem_response(500, "internal_error")

    warm_engine()
    git_commit()  # asked once, before gunicorn forks the workers
    return app


def http_problem(exc: HTTPException) -> Response:
    """A werkzeug HTTP error (routing, size limit...) as a coded problem."""
    status = exc.code or 500
    if status == 404:
        return problem_response(404, "not_found", {"path": request.path})
    if status == 405:
        # werkzeug builds Allow from a set: sorted, so the answer is the same in every process
        allow = ", ".join(sorted(m.strip() for m in exc.get_response().headers.get("Allow", "").split(",") if m.strip()))
        return problem_response(
            405, "method_not_allowed", {"method": request.method, "path": request.path, "allowed": allow},
            headers={"Allow": allow} if allow else None,
        )
    limit = body_limit(request._get_current_object()) if status == 413 else None  # type: ignore[attr-defined]
    if limit is not None:
        return problem_response(
            413, "body_too_large", {"limit": limit, "limit_kib": f"{limit / 1024:g}"}, extra={"limit_bytes": limit}
        )
    if status == 400:
        return problem_response(400, "bad_request")
    if status == 415:
        return problem_response(415, "unsupported_media_type")
    return problem_response(status, "http_error", {"status": status})
