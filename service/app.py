"""Flask app factory: ``service.app:create_app(config=None)``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, Response
from werkzeug.exceptions import HTTPException

from engine.errors import InvalidInput
from service import routes  # noqa: F401  (registers the /v1 views)
from service.api import v1
from service.errors import invalid, problem_response
from service.jsonio import OrjsonProvider
from service.ops import ops, warm_engine

DEFAULT_CONFIG: dict[str, Any] = {
    "MAX_CONTENT_LENGTH": 64 * 1024,  # a four-deck hand audit is ~10 KiB
    "JSON_SORT_KEYS": False,
}


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

    @app.errorhandler(InvalidInput)
    def on_invalid(exc: InvalidInput) -> Response:
        return invalid(exc)

    @app.errorhandler(HTTPException)
    def on_http(exc: HTTPException) -> Response:
        code = exc.code or 500
        headers = {}
        if code == 405 and exc.get_response().headers.get("Allow"):
            headers["Allow"] = exc.get_response().headers["Allow"]
        return problem_response(code, exc.name, exc.description or exc.name, headers=headers)

    @app.errorhandler(Exception)
    def on_error(exc: Exception) -> Response:  # pragma: no cover - a bug, never input
        app.logger.exception("unhandled error")
        return problem_response(500, "Internal Server Error", "the referee failed; this is a bug")

    warm_engine()
    return app
