"""``python -m service.healthcheck``: the container's HEALTHCHECK, in Python.

Asks ``/healthz`` on the port gunicorn binds (:func:`bind_from_env`, which
gunicorn.conf.py uses too) over loopback; exit status 0 when it answers 200, 1
otherwise.  The slim image has no curl, and this needs nothing but the
standard library.
"""

from __future__ import annotations

import os
import sys
import urllib.request
from collections.abc import Mapping

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = "8000"


def bind_from_env(env: Mapping[str, str] = os.environ) -> str:
    """Where gunicorn listens: ``BIND`` (``host:port``, gunicorn's own syntax)
    when set, else ``HOST`` (default 127.0.0.1) and ``PORT`` (default 8000,
    what platforms such as Cloud Run or Heroku set).

    >>> bind_from_env({})
    '127.0.0.1:8000'
    >>> bind_from_env({"HOST": "::", "PORT": "9000"})
    '[::]:9000'
    """
    if env.get("BIND"):
        return env["BIND"]
    port = (env.get("PORT") or DEFAULT_PORT).strip()
    if not (port.isdigit() and 0 < int(port) < 65536):
        raise ValueError(f"PORT: {port!r} is not a port number (1 to 65535)")
    host = (env.get("HOST") or DEFAULT_HOST).strip()
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def health_url(bind: str | None = None) -> str:
    """``http://127.0.0.1:<port>/healthz`` for a gunicorn bind such as ``0.0.0.0:8000``.

    >>> health_url("0.0.0.0:8000")
    'http://127.0.0.1:8000/healthz'
    >>> health_url("[::]:9000")
    'http://127.0.0.1:9000/healthz'
    """
    bind = (bind or bind_from_env()).split(",")[0].strip()
    port = bind.rsplit(":", 1)[1] if ":" in bind else DEFAULT_PORT
    return f"http://127.0.0.1:{port}/healthz"


def main(argv: list[str] | None = None) -> int:
    url = health_url((argv or [None])[0])
    try:
        with urllib.request.urlopen(url, timeout=2) as resp:  # noqa: S310 - loopback only
            return 0 if resp.status == 200 else 1
    except OSError as exc:
        print(f"unhealthy: {url}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
