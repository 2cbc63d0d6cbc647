"""Every request's scope: what the service does around the Flask app for each request.

A WSGI middleware (``app.wsgi_app`` wrapped, Flask's documented place for
one) gives every request, whatever answers it (a view, an error handler, a
404):

* before the app: its id in the WSGI environ (the caller's ``X-Request-ID``
  when it is a sane token, else a fresh one: service.logs) and, when the app
  has a budget, a work budget open while the app handles it (engine.budget);
* as the app starts its response: the id in ``X-Request-ID`` and
  ``X-Content-Type-Options: nosniff`` added to the response's headers;
* at the same moment, once the app has its answer: the request's count and
  latency in the metrics (service.metrics) and its JSON access line
  (service.logs), which counts the bytes the response's ``Content-Length``
  announces (the gzipped length of a gzipped answer).

Why here and not in an ``after_request`` hook (bench/RESULTS.md, issue 22):
each header a hook sets on werkzeug's ``Headers`` is validated, looked for
by a case-insensitive walk, and validated again when werkzeug copies the
headers for the server; each read of ``Content-Length`` parses it anew.  In
the WSGI call the headers are the plain list the server receives: the
middleware reads the status and the length from it once and appends two
pairs; the route and the method are those of the request werkzeug keeps in
the environ (``environ["werkzeug.request"]``, its ``populate_request``),
read while Flask's request context still holds it (the app starts its
response before the context ends, and the context's end clears the key).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from flask import Request

from engine.budget import close_budget, open_budget
from service import logs, metrics

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

REQUEST = "werkzeug.request"
"""The environ key of the request object werkzeug's ``Request`` makes for a WSGI call."""
NOSNIFF = ("X-Content-Type-Options", "nosniff")
_REQUEST_ID = logs.REQUEST_ID_HEADER.lower()


def request_scope(wsgi_app: WSGIApplication, access: logs.AccessLog, units: int | None) -> WSGIApplication:
    """``wsgi_app`` with every request's scope around it (the module's list):
    its access lines to ``access``, a budget of ``units`` work units (None: no
    budget) for each request."""
    perf_counter, request_id_from, header = time.perf_counter, logs.request_id_from, logs.REQUEST_ID_ENVIRON
    id_key, observe, line = logs.REQUEST_ID_KEY, metrics.observe, access.line

    def scoped(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        started = perf_counter()
        request_id = environ[id_key] = request_id_from(environ.get(header))

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            """The answer's headers completed; the request counted and its access line written."""
            length = sent_headers(headers, request_id)
            seconds = perf_counter() - started
            req = environ.get(REQUEST)
            if req is None:  # the app answered without making a request object (none of Flask's paths)
                req = Request(environ, populate_request=False)
            rule = req.url_rule
            route = rule.rule if rule is not None else None
            code = int(status[:3])
            observe(route, req.method, code, seconds)
            line(req, route, code, seconds, request_id, length)
            return start_response(status, headers, exc_info)

        if units is None:
            return wsgi_app(environ, start)
        token = open_budget(units)
        try:
            return wsgi_app(environ, start)
        finally:
            close_budget(token)

    return scoped


def sent_headers(headers: list[tuple[str, str]], request_id: str) -> int | None:
    """Add ``X-Request-ID`` (replacing one the app set) and, unless the app set
    its own, ``X-Content-Type-Options: nosniff`` to a response's WSGI header
    list; return its ``Content-Length`` (None: none, or not a number)."""
    length: int | None = None
    nosniff = True
    replace = False
    for name, value in headers:
        key = name.lower()
        if key == "content-length":
            length = int(value) if value.isdigit() else None
        elif key == "x-content-type-options":
            nosniff = False
        elif key == _REQUEST_ID:
            replace = True
    if replace:
        headers[:] = [pair for pair in headers if pair[0].lower() != _REQUEST_ID]
    headers.append((logs.REQUEST_ID_HEADER, request_id))
    if nosniff:
        headers.append(NOSNIFF)
    return length
