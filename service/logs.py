"""One JSON log line per request, tied together by a request id.

The id is the caller's ``X-Request-ID`` when it is a sane token (visible ASCII,
at most 128 characters), else a fresh one; either way it is echoed in the
response's ``X-Request-ID`` and carried by every log record written while the
request is handled (the access line and any error), so a game platform can
quote it when it reports a dispute.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import IO, Any

import orjson
from flask import Flask, has_request_context, request
from pythonjsonlogger.orjson import OrjsonFormatter
from werkzeug.wrappers import Request
from werkzeug.wsgi import get_content_length

LEVELS = ("debug", "info", "warning", "error", "critical")
REQUEST_ID_HEADER = "X-Request-ID"
REQUEST_ID_ENVIRON = "HTTP_X_REQUEST_ID"  # the header in the WSGI environ (PEP 3333)
REQUEST_ID_KEY = "tractor_referee.request_id"  # the request's id in the WSGI environ (service.scope)
ACCESS_LOGGER = "tractor_referee.access"
_SANE_ID = re.compile(r"^[\x21-\x7e]{1,128}$")


def log_level(value: str | None) -> str:
    """``LOG_LEVEL`` (any case; default info): the least severe line logged, by
    gunicorn and by the app (its access lines are info).  Anything else is a
    ValueError, so a typo stops the start.

    >>> log_level("Warning"), log_level(None)
    ('warning', 'info')
    """
    name = (value or "info").strip().lower()
    if name not in LEVELS:
        raise ValueError(f"LOG_LEVEL: {value!r} is not one of {', '.join(LEVELS)}")
    return name


def request_id_from(header: str | None) -> str:
    """The caller's id if it is a sane token, else a new random one: 32 hex digits,
    128 bits from the operating system's random source (``os.urandom``, what
    ``secrets.token_hex(16)`` returns without its two calls in between; a
    quarter of ``uuid4().hex``)."""
    if header and _SANE_ID.match(header):
        return header
    return os.urandom(16).hex()


def current_request_id() -> str | None:
    return request.environ.get(REQUEST_ID_KEY) if has_request_context() else None


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to records logged inside a request."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current_request_id()
        return True


def json_formatter() -> OrjsonFormatter:
    """The one JSON line format: level, logger, message, extras, timestamp.

    python-json-logger 4 with orjson (faster than its stdlib-json formatter);
    gunicorn.conf.py formats gunicorn's own lines the same way.
    """
    return OrjsonFormatter(
        "{levelname}{name}{message}",
        style="{",
        rename_fields={"levelname": "level", "name": "logger"},
        timestamp=True,
    )


class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """A stream handler on whatever ``sys.stderr`` is at the time of the record."""

    @property  # type: ignore[override]
    def stream(self) -> IO[str]:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


def json_handler(stream: IO[str] | None = None) -> logging.StreamHandler[IO[str]]:
    handler: logging.StreamHandler[IO[str]] = logging.StreamHandler(stream) if stream is not None else _StderrHandler()
    handler.setFormatter(json_formatter())
    handler.addFilter(RequestIdFilter())
    return handler


@dataclass(frozen=True, slots=True)
class AccessLog:
    """Where the access lines go: the JSON handler of the app's logs, or nowhere.

    The access line is the one record whose fields are all known in advance
    (plain strings, numbers and nulls), so it skips the logging machinery's
    generic steps, which cost two thirds of the line (bench/RESULTS.md, issue
    22): no ``LogRecord`` (its caller, thread and process look-ups), no walk of
    the record's attributes by python-json-logger.  :func:`access_text` writes
    the same JSON text python-json-logger's formatter (:func:`json_formatter`)
    writes for a record of those fields, key for key and byte for byte
    (tests/test_ops.py compares them), and :meth:`write` hands it to the same
    handler's stream under the handler's lock, as ``StreamHandler.emit`` does
    (its write and flush, the stream looked up once).  The line's ``pid`` is read
    once per process (``_pid``).
    """

    handler: logging.StreamHandler[IO[str]] | None  # None: access lines off

    def write(self, text: str) -> None:
        """Hand one line (its terminator added) to the handler's stream, as
        ``StreamHandler.emit`` does: under the handler's lock, written and flushed
        (every line is out of the process before the request's answer is sent, so
        none is lost or delayed past a worker's exit or a crash)."""
        handler = self.handler
        if handler is None:
            return
        handler.acquire()
        try:
            stream = handler.stream
            stream.write(text + handler.terminator)
            stream.flush()
        except Exception:  # a broken stream: the stdlib's own error path (handleError), as for any record
            record = logging.makeLogRecord({"name": ACCESS_LOGGER, "levelno": logging.INFO, "levelname": "INFO"})
            handler.handleError(record)
        finally:
            handler.release()

    def line(
        self, req: Request, route: str | None, status: int, seconds: float, request_id: str, bytes_out: int | None
    ) -> None:
        """Log one answered request: werkzeug's request object, its matched
        route (None: none matched), the answer's status, the seconds it took,
        the request's id and the bytes the answer announced (None: unknown)."""
        if self.handler is None:
            return
        environ = req.environ  # REMOTE_ADDR and the User-Agent header, as req.remote_addr/headers read them
        method, path = req.method, req.path
        self.write(access_text(
            f"{method} {path} {status}", request_id, method, path, route, status,
            int(seconds * 1e6 + 0.5) / 1000,  # to the microsecond: round(x, 3) costs 3 times more
            bytes_in(environ), bytes_out, environ.get("REMOTE_ADDR"), environ.get("HTTP_USER_AGENT"), _pid,
            datetime.now(UTC),
        ))


def plain_length(environ: dict[str, Any]) -> int | None:
    """The ``Content-Length`` of an ordinary request as its number: a plain length
    (ASCII digits) and no ``Transfer-Encoding``, what werkzeug's ``get_content_length``
    (werkzeug.wsgi API) parses it to; None for anything else (absent, chunked, odd),
    which werkzeug's own reading handles.  The access line's ``bytes_in`` and the
    reading of a body (service/api.py ``_plain_body``) both start from it."""
    length = environ.get("CONTENT_LENGTH")
    if length and length.isascii() and length.isdigit() and "HTTP_TRANSFER_ENCODING" not in environ:
        return int(length)
    return None


def bytes_in(environ: dict[str, Any]) -> int:
    """The request's ``req.content_length or 0``: werkzeug's ``get_content_length``
    (the ``Content-Length`` as an int, None when it is absent or the body is
    chunked, 0 when it is not a number), without its header look-ups; a plain
    length (:func:`plain_length`), the common case, read as the number it is
    (~5,000 instructions fewer a request with a body); anything else is
    werkzeug's.  tests/test_ops.py compares both on odd lengths."""
    if not environ.get("CONTENT_LENGTH"):
        return 0
    length = plain_length(environ)
    return (get_content_length(environ) or 0) if length is None else length


def access_text(
    message: str, request_id: str, method: str, path: str, endpoint: str | None, status: int,
    duration_ms: float, bytes_in: int, bytes_out: int | None, remote_addr: str | None, user_agent: str | None,
    pid: int, timestamp: datetime,
) -> str:
    """The access line of one request logged at ``timestamp`` (UTC): ``level``,
    ``logger``, the fields in this order, ``timestamp`` (ISO 8601), serialised by
    orjson as python-json-logger's ``OrjsonFormatter`` does for a record whose
    message is a dict of those fields (and whose ``created`` is that moment).
    One dict of constant keys, built in one step (two dicts merged cost a
    quarter of the line more); :meth:`AccessLog.line` passes the fields by
    position (by name, the call cost a tenth of the line more)."""
    return orjson.dumps({
        "level": "INFO",
        "logger": ACCESS_LOGGER,
        "message": message,
        "request_id": request_id,
        "method": method,
        "path": path,
        "endpoint": endpoint,
        "status": status,
        "duration_ms": duration_ms,
        "bytes_in": bytes_in,
        "bytes_out": bytes_out,
        "remote_addr": remote_addr,
        "user_agent": user_agent,
        "pid": pid,
        "timestamp": timestamp,
    }).decode()


_pid = os.getpid()
"""This process's id, for its access lines: read once, and again in a child
forked from it (gunicorn's workers), rather than by a ``getpid`` system call
per request (issue 22)."""


def _read_pid() -> None:
    global _pid
    _pid = os.getpid()


os.register_at_fork(after_in_child=_read_pid)


def init_app(app: Flask) -> AccessLog:
    """JSON logs for ``app``: its access lines and ``app.logger``.

    ``ACCESS_LOG`` (default true) switches the per-request line off;
    ``LOG_STREAM`` (default stderr) is where the lines go; ``LOG_LEVEL``
    (default: the ``LOG_LEVEL`` environment variable, else info) the least
    severe line written: above info, no access lines.
    """
    handler = json_handler(app.config.get("LOG_STREAM"))
    level = getattr(logging, log_level(app.config.get("LOG_LEVEL") or os.environ.get("LOG_LEVEL")).upper())
    enabled = app.config.get("ACCESS_LOG", True) and level <= logging.INFO
    access = AccessLog(handler if enabled else None)
    app.logger.handlers[:] = [handler]
    app.logger.setLevel(level)
    app.logger.propagate = False
    app.extensions["access_log"] = access
    return access
