"""``GET /console``: the referee console, a web page for tournament directors.

The page (``service/console/``: one HTML file, a style sheet and ES modules, no
build step) calls this service's own ``/v1`` endpoints from the browser; it is
served from the installed package, so like ``/docs`` it needs no network but
this origin, and its Content-Security-Policy forbids any other.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory
from werkzeug.exceptions import NotFound

from service.docs import content_security_policy

console = Blueprint("console", __name__)

STATIC = Path(__file__).resolve().parent / "console"
MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
}
ASSETS: dict[str, str] = {
    path.name: MEDIA_TYPES[path.suffix]
    for path in sorted(STATIC.iterdir())
    if path.suffix in MEDIA_TYPES and path.name != "index.html"
}
"""The page's files by name → media type (``GET /console/{name}``)."""


def _send(name: str, media_type: str) -> Response:
    resp = send_from_directory(STATIC, name, max_age=0)  # revalidated (ETag): an upgrade shows at once
    resp.headers["Content-Type"] = media_type
    resp.headers["Content-Security-Policy"] = content_security_policy(None, inline_styles=False)
    return resp


@console.get("/console")
def page() -> Response:
    return _send("index.html", MEDIA_TYPES[".html"])


@console.get("/console/<name>")
def asset(name: str) -> Response:
    if name not in ASSETS:
        raise NotFound(f"no console file {name!r}")
    return _send(name, ASSETS[name])
