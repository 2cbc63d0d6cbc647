"""service.api's short cuts through flask and werkzeug answer what the plain calls answer.

json_response builds the headers with fewer werkzeug calls, and they are exactly what
werkzeug's setters give (names, values, order); every adjudication endpoint's 200 carries the same header list (the Vary /
Content-Language contract of docs/api.md).  body_limit is flask's request.max_content_length
and language() its Accept-Language choice, each with fewer proxy look-ups."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from flask import Response, request

from bench.bodies import BODIES
from service.api import body_limit, json_response, language
from service.app import create_app
from service.jsonio import OrjsonProvider


def reference_json_response(obj: Any) -> Response:
    """json_response as it was first written: orjson bytes, application/json."""
    return Response(orjson.dumps(obj, option=OrjsonProvider.option), content_type="application/json")


def reference_with_language(resp: Response, lang: str) -> Response:
    """The language headers as first written, through werkzeug's own setters (what the
    service must keep answering)."""
    headers = resp.headers
    headers["Content-Language"] = lang
    if "Vary" in headers:
        resp.vary.add("Accept-Language")
    else:
        headers["Vary"] = "Accept-Language"
    return resp


OBJ = {"valid": True, "reasons": [{"code": "x.y", "message": "红桃10"}], "n": None}


def _headers(resp: Response) -> list[tuple[str, str]]:
    return list(resp.headers.items())


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
def test_json_response_with_a_language_is_the_response_with_language(lang: str) -> None:
    fast = json_response(OBJ, lang)
    slow = reference_with_language(reference_json_response(OBJ), lang)
    assert _headers(fast) == _headers(slow)
    assert fast.get_data() == slow.get_data() and fast.status == slow.status == "200 OK"


def test_json_response_without_a_language_adds_no_language_header() -> None:
    assert _headers(json_response(OBJ)) == _headers(reference_json_response(OBJ))


@pytest.mark.parametrize("obj", [{1: "x"}, {"units": [{"cards": ["AS"], (2, 1): "pair"}]}, {"n": {None: 1}}])
def test_an_answer_with_a_key_that_is_not_a_string_is_refused_not_written(obj: Any) -> None:
    """Every key of every answer is a string, so answers are written without orjson's
    OPT_NON_STR_KEYS (service/jsonio.py): a route that made another key fails (a 500
    in the suite's endpoint tests, and here) rather than answering a key orjson made up."""
    with pytest.raises(TypeError):
        json_response(obj, "en")
    assert json_response({"1": "x"}).get_data() == b'{"1":"x"}'


@pytest.mark.parametrize("accept_encoding", [None, "gzip"])
def test_a_json_answer_goes_to_the_server_as_its_list_of_bytes(accept_encoding: str | None) -> None:
    """Answer.of_json's body is the WSGI iterable itself (direct_passthrough); a gzipped
    one (flask-compress turns the pass-through off) goes through werkzeug's iterator."""
    from bench.wsgi import environ_for

    path, body = BODIES["POST /v1/throw (four-deck, 12 cards)"]  # over COMPRESS_MIN_SIZE
    env = environ_for("POST", path, orjson.dumps(body))()
    if accept_encoding:
        env["HTTP_ACCEPT_ENCODING"] = accept_encoding
    sent: list[Any] = []
    chunks = create_app()(env, lambda status, headers, exc_info=None: sent.append((status, dict(headers))))
    try:
        data = b"".join(chunks)
    finally:
        getattr(chunks, "close", lambda: None)()
    status, headers = sent[0]
    assert status == "200 OK" and headers["Content-Length"] == str(len(data))
    if accept_encoding:
        assert headers["Content-Encoding"] == "gzip" and not isinstance(chunks, list)
    else:
        assert isinstance(chunks, list) and len(chunks) == 1 and orjson.loads(data)["valid"] is False


EXPECTED_200_HEADERS = ["Content-Type", "Content-Length", "Content-Language", "Vary", "X-Request-ID",
                        "X-Content-Type-Options"]


@pytest.mark.parametrize(("label", "case"), list(BODIES.items()), ids=list(BODIES))
def test_every_endpoint_answers_the_same_header_list(label: str, case: tuple[str, Any], api: Any) -> None:
    path, body = case
    resp = api.post(path, body, headers={"Accept-Language": "zh", "X-Request-ID": "req-1"})
    assert resp.status_code == 200
    names = [key for key, _ in resp.headers.items()]
    if path == "/v1/analyze":  # no reasons, so no language
        assert names == [n for n in EXPECTED_200_HEADERS if n not in ("Content-Language", "Vary")]
    else:
        assert names == EXPECTED_200_HEADERS
        large = len(resp.get_data()) >= 2048  # may be gzipped (service/app.py), so it varies by encoding too
        assert resp.headers["Content-Language"] == "zh-Hans"
        assert resp.headers["Vary"] == ("Accept-Language, Accept-Encoding" if large else "Accept-Language")
    assert resp.headers["Content-Type"] == "application/json"
    assert resp.headers["Content-Length"] == str(len(resp.get_data()))
    assert resp.headers["X-Request-ID"] == "req-1" and resp.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("config", [None, {"MAX_CONTENT_LENGTH": 100}, {"MAX_CONTENT_LENGTH": None}])
def test_body_limit_is_flask_max_content_length(config: dict[str, Any] | None) -> None:
    app = create_app(config)
    with app.test_request_context("/v1/settle", method="POST", data=b"{}", content_type="application/json"):
        req = request._get_current_object()  # type: ignore[attr-defined]
        assert body_limit() == req.max_content_length == app.config["MAX_CONTENT_LENGTH"]


def test_a_body_over_the_app_limit_is_413() -> None:
    app = create_app({"MAX_CONTENT_LENGTH": 100})
    body = orjson.dumps({"dealer": 0, "defender_points": 85, "levels": {"A": "5", "B": "7"}, "rules": "two-deck"})
    small = app.test_client().post("/v1/settle", data=body, content_type="application/json")
    assert small.status_code == 200
    big = app.test_client().post("/v1/settle", data=body + b" " * 100, content_type="application/json")
    assert big.status_code == 413


@pytest.mark.parametrize(("header", "lang"), [(None, "en"), ("zh", "zh-Hans"), ("zh-CN,en;q=0.5", "zh-Hans"),
                                               ("zh-CN", "zh-Hans"), ("zh-SG", "zh-Hans"), ("zh-Hans", "zh-Hans"),
                                               ("zh-TW", "zh-Hant"), ("zh-HK", "zh-Hant"), ("zh-Hant", "zh-Hant"),
                                               ("zh-MO", "zh-Hant"), ("en,zh;q=0.9", "en"), ("fr", "en"),
                                               ("*", "en"), ("zh;q=0, en", "en"), ("zh-TW;q=0.5, zh-CN", "zh-Hans")])
def test_language_is_the_accept_language_choice(header: str | None, lang: str, app: Any) -> None:
    """Traditional Chinese for zh-TW, zh-HK, zh-MO and zh-Hant; Simplified for zh,
    zh-CN, zh-SG and zh-Hans; else English (q-values decide the order)."""
    headers = {} if header is None else {"Accept-Language": header}
    with app.test_request_context("/v1/settle", headers=headers):
        assert language() == lang


# --- service.answer: the headers handed to the server ------------------------------------

WSGI_ENV = {"REQUEST_METHOD": "GET", "SERVER_NAME": "referee.example", "SERVER_PORT": "80", "wsgi.url_scheme": "http",
            "PATH_INFO": "/v1/x", "SCRIPT_NAME": "", "HTTP_HOST": "referee.example"}


@pytest.mark.parametrize("status", [100, 200, 201, 204, 206, 301, 304, 400, 404, 413, 422, 500, 503])
@pytest.mark.parametrize(
    "extra",
    [
        [],
        [("Content-Language", "zh-Hans"), ("Vary", "Accept-Language")],
        [("Location", "/v1/rulesets/ünï")],
        [("content-location", "/docs/x y")],
        [("X-Other", "1"), ("LOCATION", "https://elsewhere.example/a")],
    ],
    ids=["plain", "language", "location", "content-location", "absolute-location"],
)
@pytest.mark.parametrize("sized", [True, False], ids=["sized", "streamed"])
def test_answer_hands_the_server_what_werkzeug_would(status: int, extra: list[tuple[str, str]], sized: bool) -> None:
    """service.answer.Answer skips werkzeug's copy of the headers only when the
    copy would change nothing: the server gets the same list in every case."""
    from service.answer import Answer

    def build(cls: type[Response]) -> Response:
        body: Any = b'{"status":"ok"}' if sized else iter([b'{"status":', b'"ok"}'])
        resp = cls(body, status=status, content_type="application/json")
        for name, value in extra:
            resp.headers.add(name, value)
        return resp

    ours, werkzeugs = build(Answer), build(Response)
    assert list(ours.get_wsgi_headers(dict(WSGI_ENV))) == list(werkzeugs.get_wsgi_headers(dict(WSGI_ENV)))
    assert list(ours.headers) == list(werkzeugs.headers)  # the response itself is left as it was


@pytest.mark.parametrize("method", ["GET", "HEAD"])
@pytest.mark.parametrize("status", [100, 200, 204, 304, 404, 422])
@pytest.mark.parametrize(
    "extra",
    [[], [("Content-Language", "en"), ("Vary", "Accept-Language")], [("Location", "/v1/ünï")],
     [("content-LOCATION", "/docs/x y")]],
    ids=["plain", "language", "location", "content-location"],
)
@pytest.mark.parametrize("form", ["passed-through", "set-data", "passed-through-unsized"])
def test_answer_hands_the_server_the_response_werkzeug_would(
    form: str, extra: list[tuple[str, str]], status: int, method: str
) -> None:
    """Answer.get_wsgi_response (one step for a body passed through, sent as it is)
    answers what werkzeug's three steps answer: the body, the status, the headers."""
    from service.answer import Answer

    def build(cls: type[Response]) -> Response:
        if form == "set-data":
            resp = cls(b'{"status":"ok"}', status=status, content_type="application/json")
        else:
            resp = cls([b'{"status":', b'"ok"}'], status=status, content_type="application/json",
                       direct_passthrough=True)
            if form == "passed-through":
                resp.headers.add("Content-Length", "15")
        for name, value in extra:
            resp.headers.add(name, value)
        return resp

    env = dict(WSGI_ENV, REQUEST_METHOD=method)
    ours, werkzeugs = build(Answer).get_wsgi_response(dict(env)), build(Response).get_wsgi_response(dict(env))
    assert [b"".join(ours[0]), *ours[1:]] == [b"".join(werkzeugs[0]), *werkzeugs[1:]]


def test_jsonify_answers_as_json_response_does() -> None:
    """The app's jsonify (/healthz) answers as Answer.of_json: werkzeug's headers for
    the JSON bytes, and the body handed to the server as its list of bytes."""
    app = create_app()
    with app.test_request_context("/healthz"):
        from flask import jsonify

        ours = jsonify({"status": "ok"})
        theirs = Response(b'{"status":"ok"}', mimetype="application/json")
    assert list(ours.headers) == list(theirs.headers) and ours.get_data() == theirs.get_data()
    assert ours.direct_passthrough and ours.get_app_iter(dict(WSGI_ENV)) == [b'{"status":"ok"}']


def test_every_answer_of_the_app_is_an_answer() -> None:
    """The app's own responses, its jsonify and its files all take the short cut's class."""
    from service.answer import Answer

    app = create_app()
    client = app.test_client()
    assert app.response_class is Answer
    for path in ("/healthz", "/v1/rulesets", "/nowhere", "/docs", "/docs/swagger-ui.css", "/console", "/openapi.json"):
        resp = client.get(path)
        assert resp.headers["X-Content-Type-Options"] == "nosniff" and len(resp.headers["X-Request-ID"]) == 32
        with app.test_request_context(path):
            assert isinstance(app.full_dispatch_request(), Answer)


def test_the_scope_owns_the_request_id_and_keeps_a_view_s_own_nosniff() -> None:
    """service.scope adds X-Request-ID (replacing any a view set) and nosniff
    (unless the answer has its own), once each, at the end of the header list."""
    app = create_app()

    @app.get("/own-headers")
    def own() -> Any:
        return Response(b"x", headers={"x-request-id": "from-view", "X-Content-Type-Options": "other"})

    resp = app.test_client().get("/own-headers", headers={"X-Request-ID": "caller-1"})
    assert resp.headers.getlist("X-Request-ID") == ["caller-1"]
    assert resp.headers.getlist("X-Content-Type-Options") == ["other"]
    assert [name for name, _ in resp.headers.items()][-1] == "X-Request-ID"


def test_the_app_keeps_no_sessions_as_flask_keeps_none_without_a_secret_key() -> None:
    """service.app.NoSessions: every request reads the same empty, read-only
    session Flask's own interface gives a request when no secret key is set
    (a new one each time); writing to it fails with Flask's message, and no
    answer sets a cookie or varies on one."""
    from flask import Flask, session
    from flask.sessions import NullSession

    app = create_app()
    plain = Flask(__name__)
    seen: list[object] = []
    for one in (app, plain):

        @one.get("/read-session")
        def read() -> Any:
            seen.append(session._get_current_object())  # type: ignore[attr-defined]
            return {"keys": sorted(session), "new": session.new, "permanent": session.permanent}

        @one.get("/write-session")
        def write() -> Any:
            try:
                session["seat"] = 1
            except RuntimeError as exc:
                return {"error": str(exc)}
            return {"error": None}

    answers = []
    for one in (app, plain):
        client = one.test_client()
        for path in ("/read-session", "/read-session", "/write-session"):
            resp = client.get(path)
            assert "Set-Cookie" not in resp.headers and "Cookie" not in resp.headers.get("Vary", "")
            answers.append(resp.get_json())
    assert answers[:3] == answers[3:]
    assert answers[0] == {"keys": [], "new": False, "permanent": False}
    assert answers[2]["error"] and "secret key" in answers[2]["error"]
    assert all(isinstance(s, NullSession) for s in seen)
    assert seen[0] is seen[1] and seen[2] is not seen[3]  # one shared here, a new one each in plain Flask


def test_no_view_sets_a_body_limit_of_its_own() -> None:
    """body_limit reads the app's limit: it is the request's only while no view sets
    ``request.max_content_length`` (flask 3.1 allows it)."""
    service = Path(__file__).resolve().parent.parent / "service"
    setters = [p.name for p in service.rglob("*.py") if re.search(r"max_content_length\s*=[^=]", p.read_text("utf-8"))]
    assert setters == []


def test_jsonify_serializes_what_flask_documents() -> None:
    """The app's JSON provider answers ``jsonify`` as Flask documents it, without
    Flask's private helper: none, one, several and keyword arguments."""
    from flask import jsonify

    from service.app import create_app

    app = create_app({"LOG_STREAM": io.StringIO()})
    with app.app_context():
        assert jsonify().get_data() == b"null"
        assert jsonify({"a": 1}).get_data() == b'{"a":1}'
        assert jsonify(1, 2).get_data() == b"[1,2]"
        assert jsonify(a=1).get_data() == b'{"a":1}'
        assert jsonify().mimetype == "application/json"
        with pytest.raises(TypeError):
            jsonify(1, a=2)


# --- service.app.Referee: Flask's request steps, with less work ----------------------------

URL_ENVIRONS = [
    {},
    {"HTTP_HOST": "Referee.Example:8000"},
    {"HTTP_HOST": "bücher.example"},  # IDNA-encoded for the adapter
    {"HTTP_HOST": "a..b"},  # an empty label: werkzeug's BadHost, a 400
    {"HTTP_HOST": "bad host!"},  # invalid characters: werkzeug's empty host
    {"HTTP_HOST": "[::1]:8000"},
    {"HTTP_HOST": None, "SERVER_NAME": "10.0.0.1", "SERVER_PORT": "443", "wsgi.url_scheme": "https"},
    {"HTTP_HOST": None, "SERVER_NAME": "::1", "SERVER_PORT": "8080"},
    {"HTTP_HOST": None, "SERVER_PORT": None},
    {"SCRIPT_NAME": None, "PATH_INFO": None, "QUERY_STRING": None},
    {"SCRIPT_NAME": "/app//", "PATH_INFO": "//v1//ünï".encode().decode("latin1"), "QUERY_STRING": "a=1&b=%20"},
    {"PATH_INFO": "/v1/\xff\xfe"},  # not UTF-8: replaced, as werkzeug decodes it
    {"HTTP_CONNECTION": "keep-alive, Upgrade", "HTTP_UPGRADE": "websocket"},
    {"HTTP_CONNECTION": "upgrade", "HTTP_UPGRADE": "WebSocket", "wsgi.url_scheme": "https"},
    {"HTTP_CONNECTION": "close"},
    {"REQUEST_METHOD": "POST", "PATH_INFO": "/v1/throw"},
]


def _environ(changes: dict[str, Any]) -> dict[str, Any]:
    environ = {**WSGI_ENV, "QUERY_STRING": "", "wsgi.input": io.BytesIO(b"")}
    for name, value in changes.items():
        if value is None:
            environ.pop(name, None)
        else:
            environ[name] = value
    return environ


def _adapter_or_error(bind: Any, request: Any) -> Any:
    from werkzeug.exceptions import HTTPException

    try:
        adapter = bind(request)
    except HTTPException as exc:
        return type(exc), request.__dict__.get("host")  # what Flask set before the error, if anything
    return (
        adapter.server_name, adapter.script_name, adapter.subdomain, adapter.url_scheme, adapter.path_info,
        adapter.default_method, adapter.query_args, adapter.websocket, request.host,
    )


@pytest.mark.parametrize("changes", URL_ENVIRONS, ids=lambda c: ",".join(f"{k}={v!r}" for k, v in c.items()) or "plain")
def test_url_adapter_is_flasks(changes: dict[str, Any]) -> None:
    """Referee.create_url_adapter binds the URL map as Flask does (server name,
    script name, subdomain, scheme, path, method, query, WebSocket) and sets the
    same ``request.host``, or raises the same error, first time and cached."""
    from flask import Flask

    app = create_app()
    for _ in range(2):  # the first binding, then the cached one
        ours = _adapter_or_error(app.create_url_adapter, app.request_class(_environ(changes)))
        flasks = _adapter_or_error(lambda r: Flask.create_url_adapter(app, r), app.request_class(_environ(changes)))
        assert ours == flasks


@pytest.mark.parametrize(
    "config", [{"SERVER_NAME": "referee.example"}, {"TRUSTED_HOSTS": ["referee.example"]}],
    ids=["server-name", "trusted-hosts"],
)
@pytest.mark.parametrize("host", ["referee.example", "elsewhere.example"])
def test_url_adapter_is_flasks_when_the_app_names_its_host(config: dict[str, Any], host: str) -> None:
    """With ``SERVER_NAME`` or ``TRUSTED_HOSTS`` set, the binding is Flask's own."""
    from flask import Flask

    app = create_app(config)
    ours = _adapter_or_error(app.create_url_adapter, app.request_class(_environ({"HTTP_HOST": host})))
    flasks = _adapter_or_error(lambda r: Flask.create_url_adapter(app, r), app.request_class(_environ({"HTTP_HOST": host})))
    assert ours == flasks
    assert (app.create_url_adapter(None) is not None) == ("SERVER_NAME" in config)  # an app context can build URLs
    assert create_app().create_url_adapter(None) is None


def test_a_bad_host_is_a_400_and_builds_redirects_from_the_host() -> None:
    """A Host werkzeug cannot encode is a 400 problem, every time (the error is not
    cached); a good one is what external URLs are built from."""
    app = create_app({"ACCESS_LOG": False})
    client = app.test_client()
    for _ in range(2):
        resp = client.get("/healthz", headers={"Host": "a..b"})
        assert resp.status_code == 400 and resp.json["code"] == "bad_request"  # type: ignore[index]
    with app.test_request_context("/healthz", headers={"Host": "Referee.Example:8000"}):
        from flask import url_for

        assert url_for("ops.healthz", _external=True) == "http://referee.example:8000/healthz"


def test_hooks_are_called_in_flasks_order() -> None:
    """Referee's request steps skip only what no hook is registered for: a
    ``url_value_preprocessor``, ``before_request``, ``teardown_request`` and
    ``teardown_appcontext`` function of the app or a blueprint runs, in Flask's
    order, and the ``request_tearing_down`` and ``appcontext_tearing_down``
    signals reach their receivers with the exception (None) either way."""
    from flask import appcontext_tearing_down, request_tearing_down

    from service.ops import ops

    received: list[Any] = []

    def on_request_teardown(sender: Any, exc: Any) -> None:
        received.append(("request", sender, exc))

    def on_app_teardown(sender: Any, exc: Any) -> None:
        received.append(("app", sender, exc))

    plain, hooked = create_app({"ACCESS_LOG": False}), create_app({"ACCESS_LOG": False})
    calls: list[str] = []
    hooked.url_value_preprocessor(lambda endpoint, values: calls.append(f"preprocess {endpoint}"))
    hooked.before_request(lambda: calls.append("before app"))
    hooked.before_request_funcs.setdefault(ops.name, []).append(lambda: calls.append("before ops"))
    hooked.teardown_request(lambda exc: calls.append(f"teardown app {exc}"))
    hooked.teardown_request_funcs.setdefault(ops.name, []).append(lambda exc: calls.append(f"teardown ops {exc}"))
    hooked.teardown_appcontext(lambda exc: calls.append(f"teardown app context {exc}"))
    assert plain.test_client().get("/healthz").status_code == 200  # nothing connected, nothing registered
    for app in (plain, hooked):
        request_tearing_down.connect(on_request_teardown, app)
        appcontext_tearing_down.connect(on_app_teardown, app)
    try:
        assert plain.test_client().get("/healthz").status_code == 200
        assert hooked.test_client().get("/healthz").status_code == 200
    finally:
        for app in (plain, hooked):
            request_tearing_down.disconnect(on_request_teardown, app)
            appcontext_tearing_down.disconnect(on_app_teardown, app)
    assert calls == [
        "preprocess ops.healthz", "before app", "before ops", "teardown ops None", "teardown app None",
        "teardown app context None",
    ]
    assert received == [("request", plain, None), ("app", plain, None), ("request", hooked, None), ("app", hooked, None)]


def test_a_before_request_answer_is_the_answer() -> None:
    """A ``before_request`` function that returns a value answers the request (Flask's rule)."""
    app = create_app({"ACCESS_LOG": False})
    app.before_request(lambda: ({"status": "early"}, 200))
    assert app.test_client().get("/healthz").json == {"status": "early"}


def _match(ctx: Any) -> Any:
    ctx.match_request()
    req, exc = ctx.request, ctx.request.routing_exception
    if exc is not None:
        return type(exc), exc.code, getattr(exc, "valid_methods", None), getattr(exc, "new_url", None)
    return req.url_rule, req.view_args


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/healthz"), ("HEAD", "/healthz"), ("OPTIONS", "/healthz"), ("POST", "/healthz"),
        ("POST", "/v1/throw"), ("GET", "/v1/throw"), ("POST", "/v1/throw/"), ("POST", "//v1/throw"),
        ("GET", "/v1/rulesets/tractor"), ("GET", "/v1/rulesets/ünï"), ("GET", "/v1/rulesets/a%2Fb"),
        ("GET", "/docs/"), ("GET", "/docs//x"), ("GET", "/nowhere"), ("DELETE", "/v1/trick"), ("GET", "/"),
    ],
)
def test_url_match_is_werkzeugs(method: str, path: str) -> None:
    """Referee's request context matches a URL as Flask's does (the rule, its
    arguments, or the same 404 / 405 / redirect), the first time and cached, and
    each request gets arguments of its own."""
    from flask.ctx import RequestContext

    app = create_app({"ACCESS_LOG": False})

    def environ() -> dict[str, Any]:
        return _environ({"REQUEST_METHOD": method, "PATH_INFO": path.encode().decode("latin1")})

    for _ in range(2):
        ours, flasks = app.request_context(environ()), RequestContext(app, environ())
        assert type(ours).__name__ == "MatchedContext"
        assert _match(ours) == _match(flasks)
    matched = _match(app.request_context(environ()))
    if isinstance(matched[1], dict) and matched[1]:
        matched[1].clear()  # a preprocessor's change stays in its own request
        assert _match(app.request_context(environ()))[1]


def test_ensure_sync_is_flasks() -> None:
    """Referee.ensure_sync answers as Flask's: a plain function, a method and a
    partial as they are; a coroutine function (and a partial of one) to Flask's
    wrapper, which without asgiref is Flask's RuntimeError; asked twice (cached)."""
    import functools

    from flask import Flask

    app = create_app({"ACCESS_LOG": False})

    def plain() -> None:
        return None

    async def coroutine() -> None:
        return None

    class Views:
        def method(self) -> None:
            return None

        async def async_method(self) -> None:
            return None

    class Unhashable(Views):
        __hash__ = None  # type: ignore[assignment]

    views, unhashable = Views(), Unhashable()
    cases: list[Any] = [
        plain, views.method, functools.partial(plain), unhashable.method,
        coroutine, views.async_method, functools.partial(coroutine), unhashable.async_method,
    ]

    def outcome(ensure: Any, func: Any) -> Any:
        try:
            found = ensure(func)
        except RuntimeError as exc:
            return RuntimeError, str(exc)
        return "as is" if found is func else "wrapped"

    for _ in range(2):
        for func in cases:
            assert outcome(app.ensure_sync, func) == outcome(lambda f: Flask.ensure_sync(app, f), func)
    assert [outcome(app.ensure_sync, f) == "as is" for f in cases] == [True] * 4 + [False] * 4
