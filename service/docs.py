"""``GET /docs``: interactive documentation of openapi.yaml that works offline.

Swagger UI 5 (it renders OpenAPI 3.1) comes from the flask-swagger-ui package
and is served from here, so the page needs nothing but this service: no CDN,
no online validator (``validatorUrl: null``), and a Content-Security-Policy
that lets the browser fetch from this origin only.  Every operation's example
request (openapi.yaml) appears under "Try it out", and its example answer (the
service's own, tests/test_spec_examples.py) under its responses.
"""

from __future__ import annotations

import json
import secrets
from functools import cache
from html import escape
from importlib.metadata import version
from pathlib import Path

import flask_swagger_ui
from flask import Blueprint, Response, send_from_directory, url_for
from werkzeug.exceptions import NotFound

from service.answer import Answer

docs = Blueprint("docs", __name__)

DIST = Path(flask_swagger_ui.__file__).resolve().parent / "dist"
ASSETS: dict[str, str] = {
    "swagger-ui.css": "text/css; charset=utf-8",
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "favicon-32x32.png": "image/png",
}
ASSET_MAX_AGE = 24 * 3600

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>tractor-referee API</title>
  <link rel="stylesheet" href="{css}">
  <link rel="icon" type="image/png" href="{icon}">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="{bundle}"></script>
  <script nonce="{nonce}">
    window.ui = SwaggerUIBundle(Object.assign({config}, {{
      presets: [SwaggerUIBundle.presets.apis],
      layout: "BaseLayout"
    }}));
  </script>
</body>
</html>
"""


@cache
def swagger_ui_version() -> str:
    """The bundled Swagger UI version (cache-busts the asset URLs)."""
    path = DIST / "VERSION"
    return path.read_text(encoding="utf-8").strip().lstrip("v") if path.is_file() else version("flask-swagger-ui")


def content_security_policy(nonce: str | None, inline_styles: bool = True) -> str:
    """Only this origin: the page works, and stays working, with the network off.

    ``nonce`` admits the page's one inline script (None: scripts from files only);
    ``inline_styles`` admits style attributes (Swagger UI writes them)."""
    scripts = "script-src 'self'" + (f" 'nonce-{nonce}'" if nonce else "")
    styles = "style-src 'self'" + (" 'unsafe-inline'" if inline_styles else "")
    return "; ".join(
        [
            "default-src 'self'",
            scripts,
            styles,
            "img-src 'self' data: blob:",
            "connect-src 'self'",
            "font-src 'self' data:",
            "object-src 'none'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
            "form-action 'none'",
        ]
    )


def _asset_url(name: str) -> str:
    return url_for("docs.asset", name=name, v=swagger_ui_version())


@docs.get("/docs")
def page() -> Response:
    nonce = secrets.token_urlsafe(16)
    config = {
        "url": url_for("ops.openapi_yaml"),
        "dom_id": "#swagger-ui",
        "deepLinking": True,
        "validatorUrl": None,
        "tryItOutEnabled": True,
        "displayRequestDuration": True,
        "defaultModelsExpandDepth": 0,
        "docExpansion": "list",
    }
    html = _PAGE.format(
        css=escape(_asset_url("swagger-ui.css")),
        icon=escape(_asset_url("favicon-32x32.png")),
        bundle=escape(_asset_url("swagger-ui-bundle.js")),
        nonce=nonce,
        config=json.dumps(config).replace("</", "<\\/"),
    )
    resp = Answer(html, mimetype="text/html")
    resp.headers["Content-Security-Policy"] = content_security_policy(nonce)
    resp.headers["Cache-Control"] = "no-store"
    return resp


@docs.get("/docs/<name>")
def asset(name: str) -> Response:
    if name not in ASSETS:
        raise NotFound(f"no documentation asset {name!r}")
    resp = send_from_directory(DIST, name, max_age=ASSET_MAX_AGE)
    resp.headers["Content-Type"] = ASSETS[name]
    return resp
