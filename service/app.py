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
from collections.abc import Callable, Mapping
from functools import lru_cache
from inspect import iscoroutinefunction
from typing import TYPE_CHECKING, Any

from flask import Flask, Response, request
from flask import Request as FlaskRequest
from flask.ctx import RequestContext
from flask.sessions import NullSession, SessionInterface
from flask.signals import appcontext_tearing_down, request_tearing_down
from flask_compress import Compress
from flask_cors import CORS
from werkzeug.exceptions import HTTPException
from werkzeug.routing import Map, MapAdapter, Rule

from engine.errors import InvalidInput
from service import logs, routes  # noqa: F401  (routes registers the /v1 views)
from service.answer import Answer
from service.api import v1
from service.build import git_commit
from service.console_page import console
from service.docs import docs
from service.errors import ProblemError, invalid, problem_response
from service.jsonio import OrjsonProvider
from service.limits import MAX_BODY_BYTES, MAX_WORK_UNITS
from service.ops import ops, warm_engine
from service.scope import request_scope

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment

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
    "COMPRESS_REGISTER": False,  # Referee.process_response asks it only for large answers
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


class NoSessions(SessionInterface):
    """The referee keeps no sessions: a stateless service, no secret key, no cookies.

    Flask opens a session for every request; without a secret key its own
    interface answers each with a new, empty, read-only ``NullSession``, which
    cost every request ~15,000 instructions (bench/RESULTS.md, issue 22).  This
    interface (Flask's documented ``session_interface``) gives every request the
    same empty ``NullSession``: reading it finds nothing, writing to it fails
    with Flask's own message, and nothing is ever saved (no cookie, no
    ``Vary: Cookie``), as before."""

    null = NullSession()

    def open_session(self, app: Flask, request: Any) -> NullSession:
        return self.null

    def save_session(self, app: Flask, session: Any, response: Response) -> None:
        return None


NOT_PASSED: Any = object()
"""An argument not passed (``Referee.do_teardown_request`` and ``do_teardown_appcontext``)."""


class Referee(Flask):
    """Flask, with a large answer gzipped before the ``after_request`` hooks run,
    and no sessions (:class:`NoSessions`).

    flask-compress is asked only for answers of ``COMPRESS_MIN_SIZE`` bytes and
    more: on every answer it cost a small one ~50,000 instructions and gave it
    a ``Vary: Accept-Encoding`` (small answers are the same for everyone).
    ``process_response`` is Flask's documented place to change every response
    before it is sent; a hook would cost its dispatch on every answer.

    A large answer to a request without ``Accept-Encoding`` goes out as it is:
    flask-compress's answer to it (no coding chosen from an empty list) is
    the answer with ``Accept-Encoding`` in its ``Vary``, which
    :func:`vary_on_encoding` adds without the rest of its checks (the
    four-deck throw's answer: ~20,000 instructions fewer).

    Every request's steps, through methods Flask documents for a subclass
    (issue 22: ~115,000 instructions of a 354,000-instruction ``/healthz``, and
    of every request): the URL bound and matched once per URL
    (:meth:`create_url_adapter`, :class:`MatchedContext`), no look-up of the
    request's blueprints for hooks none registered (:meth:`preprocess_request`,
    :meth:`do_teardown_request`, :meth:`do_teardown_appcontext`), a view's
    ``async def`` asked once (:meth:`ensure_sync`).  Each answers what Flask's
    own answers (tests/test_http_layer.py compares them).
    """

    response_class = Answer  # also what jsonify and send_from_directory answer with
    session_interface = NoSessions()
    compress: Compress

    def process_response(self, response: Response) -> Response:
        length = response.headers.get("Content-Length")  # one read: werkzeug parses the header anew on each
        if length is not None and length.isdigit() and int(length) >= self.config["COMPRESS_MIN_SIZE"]:
            if request._get_current_object().environ.get("HTTP_ACCEPT_ENCODING"):  # type: ignore[attr-defined]  # one proxy look-up, not two
                response = self.compress.after_request(response)
            else:
                vary_on_encoding(response)
        return super().process_response(response)

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """Flask's: a plain function as it is, a coroutine function wrapped to
        run to its end.  ``Flask.ensure_sync`` (flask.Flask API, 3.1: "Override
        this method to change how the app runs async views"), asked for the view
        of every request: :func:`is_coroutine_function` once per function; a
        callable without a hash (a method of an object that has none): Flask's."""
        try:
            coroutine = is_coroutine_function(func)
        except TypeError:  # unhashable: not a cache key
            return super().ensure_sync(func)
        return super().ensure_sync(func) if coroutine else func

    def preprocess_request(self) -> Any:
        """Flask's: the URL value preprocessors, then the ``before_request``
        functions of the app and the request's blueprints; none registered (the
        service registers none), nothing to call and None, as Flask's answers,
        without its look-up of the request's blueprints (~18,000 instructions a
        request).  ``Flask.preprocess_request`` (flask.Flask API, 3.1): "Called
        before the request is dispatched. Calls url_value_preprocessors
        registered with the app and the current blueprint (if any). Then calls
        before_request_funcs registered with the app and the blueprint."
        """
        if self.url_value_preprocessors or self.before_request_funcs:
            return super().preprocess_request()
        return None

    def do_teardown_request(self, exc: BaseException | None = NOT_PASSED) -> None:
        """Flask's: the ``teardown_request`` functions of the app and the
        request's blueprints, then the ``request_tearing_down`` signal; none
        registered (the service registers none), the signal alone, sent as Flask
        sends it, without the look-up of the request's blueprints (~13,000
        instructions a request).  ``Flask.do_teardown_request(exc)`` (flask.Flask
        API, 3.1): "This calls all functions decorated with teardown_request ...
        Finally, the request_tearing_down signal is sent"; ``exc`` not passed
        (Flask's request context always passes it): Flask's, which reads the
        current exception.  ``_async_wrapper`` is blinker's documented argument
        of ``Signal.send`` (blinker 1.7+), passed as Flask passes it; the send
        is skipped when nothing is connected to the signal at all (blinker's
        ``Signal.receivers``, documented as "Useful to quickly check if any
        receivers are connected to the signal": its send would call no one)."""
        self._tear_down(exc, self.teardown_request_funcs, super().do_teardown_request, request_tearing_down)

    def request_context(self, environ: WSGIEnvironment) -> RequestContext:
        """Flask's request context, matching the request's URL once per URL
        (:class:`MatchedContext`).  ``Flask.request_context`` (flask.Flask API,
        3.1): "Create a RequestContext representing a WSGI environment"; Flask's
        ``wsgi_app`` and ``test_request_context`` make theirs with it."""
        return MatchedContext(self, environ)

    def do_teardown_appcontext(self, exc: BaseException | None = NOT_PASSED) -> None:
        """Flask's: the ``teardown_appcontext`` functions, then the
        ``appcontext_tearing_down`` signal, as :meth:`do_teardown_request` does
        for the request (``Flask.do_teardown_appcontext(exc)``, flask.Flask API,
        3.1: "This calls all functions decorated with teardown_appcontext. Then
        the appcontext_tearing_down signal is sent"); none registered and
        nothing connected: nothing to do (~4,500 instructions a request)."""
        self._tear_down(exc, self.teardown_appcontext_funcs, super().do_teardown_appcontext, appcontext_tearing_down)

    def _tear_down(self, exc: BaseException | None, funcs: Any, flask_way: Callable[..., None], signal: Any) -> None:
        """The rule both teardowns share: Flask's own way (``flask_way``) when teardown
        functions are registered (``funcs``) or ``exc`` was not passed; else only
        ``signal``, sent as Flask sends it, when something is connected to it."""
        if exc is NOT_PASSED or funcs:
            flask_way() if exc is NOT_PASSED else flask_way(exc)
        elif signal.receivers:
            signal.send(self, _async_wrapper=self.ensure_sync, exc=exc)

    def create_url_adapter(self, request: FlaskRequest | None) -> MapAdapter | None:
        """Flask's URL adapter for ``request``, the same one for the same URL
        (:func:`url_binding`) when the app binds as the service does: no
        ``SERVER_NAME``, no trusted hosts, no host or subdomain matching; else,
        and for a Host werkzeug rejects, Flask's own.

        ``Flask.create_url_adapter`` (flask.Flask API, 3.1: "Creates a URL
        adapter for the given request"; a method a subclass may override): for
        such an app Flask sets ``request.host`` to werkzeug's ``get_host(environ)``
        (to check the trusted hosts early: there are none) and returns
        ``url_map.bind_to_environ(environ, server_name=None,
        subdomain=url_map.default_subdomain or "")``, which reads the Host a
        second time and IDNA-encodes it in Python, ~55,000 instructions a
        request, for what is a function of a few environ values
        (:data:`URL_ENVIRON`).  ``request.host`` is left to werkzeug's
        ``Request.host``, which computes the same ``get_host`` of the same
        values when it is read.  A Host werkzeug cannot encode goes through
        Flask's own steps every time, so its ``BadHost`` (a 400) is raised as
        before, never cached.  tests/test_http_layer.py compares the adapter and
        ``request.host`` with Flask's.
        """
        if (
            request is None
            or request.trusted_hosts is not None
            or self.subdomain_matching
            or self.url_map.host_matching
            or self.config["SERVER_NAME"] is not None
            or self.config["TRUSTED_HOSTS"] is not None
        ):
            return super().create_url_adapter(request)
        url_map = self.url_map
        adapter = url_binding(url_map, url_map.default_subdomain or "", tuple(map(request.environ.get, URL_ENVIRON)))
        return super().create_url_adapter(request) if adapter is None else adapter


URL_ENVIRON = (
    "wsgi.url_scheme", "REQUEST_METHOD", "HTTP_HOST", "SERVER_NAME", "SERVER_PORT",
    "HTTP_CONNECTION", "HTTP_UPGRADE", "SCRIPT_NAME", "PATH_INFO", "QUERY_STRING",
)
"""What werkzeug binds a URL map to a request with (``Map.bind_to_environ`` and
the ``get_host`` it calls, werkzeug 3.1): the scheme, the method, the Host or
the server's address, the WebSocket upgrade headers, the script name, the path
and the query string."""


@lru_cache(maxsize=128)
def url_binding(url_map: Map, subdomain: str, values: tuple[str | None, ...]) -> MapAdapter | None:
    """``url_map`` bound to a request with the environ ``values`` (of
    :data:`URL_ENVIRON`, None: absent) as ``Referee.create_url_adapter`` binds
    it (werkzeug's documented ``Map.bind_to_environ``); None when werkzeug
    rejects the request's Host (an HTTP error: ``BadHost``).

    Bound from an environ of those values alone, so the answer is a function
    of its key whatever werkzeug reads.  A ``MapAdapter`` is not changed by
    matching or building URLs (werkzeug's routing API), so requests to the same
    URL share one.  Bounded: 128 entries of ~2,300 bytes (the key's ten strings,
    the adapter; measured with tracemalloc), ~300 KB at most."""
    environ = {name: value for name, value in zip(URL_ENVIRON, values, strict=True) if value is not None}
    try:
        return url_map.bind_to_environ(environ, server_name=None, subdomain=subdomain)
    except HTTPException:
        return None


@lru_cache(maxsize=256)
def is_coroutine_function(func: Callable[..., Any]) -> bool:
    """``inspect.iscoroutinefunction(func)``, what ``Flask.ensure_sync`` asks
    (~5,000 instructions: methods and partials unwrapped, the code's flags
    read): a function's code, and so the answer, is fixed when it is defined
    (its ``async def``, or ``inspect.markcoroutinefunction`` at decoration).
    Keyed on the function (a bound method on its object and function); bounded:
    256 entries of ~140 bytes (tracemalloc)."""
    return iscoroutinefunction(func)


class MatchedContext(RequestContext):
    """Flask's request context, whose URL match is werkzeug's for the same URL
    (:func:`url_match`).  ``RequestContext.match_request`` (flask.ctx API,
    3.1): "Can be overridden by a subclass to hook into the matching of the
    request"; Flask's sets the request's ``url_rule`` and ``view_args`` from
    ``url_adapter.match(return_rule=True)``, or its ``routing_exception``."""

    def match_request(self) -> None:
        try:
            rule, view_args = url_match(self.url_adapter)  # push matches only with one
        except HTTPException as exc:
            self.request.routing_exception = exc
        else:
            self.request.url_rule, self.request.view_args = rule, dict(view_args)


@lru_cache(maxsize=128)
def url_match(adapter: MapAdapter) -> tuple[Rule, Mapping[str, Any]]:
    """The rule werkzeug matches for ``adapter``'s request and its arguments
    (``MapAdapter.match(return_rule=True)``), for the adapter that
    :func:`url_binding` shares between requests to one URL: ~26,000
    instructions a request.  The match is a function of the adapter (the URL,
    the method) and its map's rules, which Flask fixes once the app serves (a
    setup method then raises); a 404, 405 or redirect (werkzeug's HTTP errors)
    is raised anew on every request, never cached.  Each request gets its own
    copy of the arguments (a URL value preprocessor may change them).
    Bounded: 128 entries of ~450 bytes beyond the adapter (an argument, measured
    with tracemalloc), ~60 KB at most."""
    return adapter.match(return_rule=True)


def vary_on_encoding(response: Response) -> None:
    """``Accept-Encoding`` added to the response's ``Vary`` (written as flask-compress
    writes it: appended to the names already there, once): a large answer is
    gzipped for a client that asks, so a cache must not give it to another as it is."""
    headers = response.headers
    vary = headers.get("Vary")
    if not vary:
        headers["Vary"] = "Accept-Encoding"
    elif "accept-encoding" not in vary.lower():
        headers["Vary"] = f"{vary}, Accept-Encoding"


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the referee app; ``config`` overrides ``DEFAULT_CONFIG``."""
    app = Referee(__name__, static_folder=None)
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
    access = logs.init_app(app)
    app.compress = Compress(app)

    # every request's id, headers, metrics and access line: around the WSGI call (service/scope.py)
    app.wsgi_app = request_scope(app.wsgi_app, access, app.config["MAX_WORK_UNITS"])  # type: ignore[method-assign]

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
    limit = request.max_content_length if status == 413 else None
    if limit is not None:
        return problem_response(
            413, "body_too_large", {"limit": limit, "limit_kib": f"{limit / 1024:g}"}, extra={"limit_bytes": limit}
        )
    if status == 400:
        return problem_response(400, "bad_request")
    if status == 415:
        return problem_response(415, "unsupported_media_type")
    return problem_response(status, "http_error", {"status": status})
