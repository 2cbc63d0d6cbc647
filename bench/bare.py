"""The bare ceiling: a minimal Flask app with the service's ``GET /healthz`` and nothing else.

No access log, no metrics, no request id, no error handlers, no compression or
CORS: what Flask itself costs per request on the same gunicorn, so the service's
own ``/healthz`` and every endpoint can be measured against it (bench/load.py
serves it beside the service with the same worker count; bench/instructions.py
counts its instructions beside the service's).  The body is the service's
(``{"status":"ok"}``, JSON), built the same way (Flask's ``jsonify``).

    gunicorn -w 2 --bind 127.0.0.1:8001 'bench.bare:create_app()'
"""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify


def create_app() -> Flask:
    app = Flask(__name__, static_folder=None)

    @app.get("/healthz")
    def healthz() -> Any:
        return jsonify({"status": "ok"})

    return app
