"""``python -m service.healthcheck``: the container's HEALTHCHECK, in Python.

Asks ``/healthz`` on the port gunicorn binds (``BIND``, as gunicorn.conf.py
reads it) over loopback; exit status 0 when it answers 200, 1 otherwise.  The
slim image has no curl, and this needs nothing but the standard library.
"""

from __future__ import annotations

import os
import sys
import urllib.request

DEFAULT_BIND = "127.0.0.1:8000"


def health_url(bind: str | None = None) -> str:
    """``http://127.0.0.1:<port>/healthz`` for a gunicorn bind such as ``0.0.0.0:8000``.

    >>> health_url("0.0.0.0:8000")
    'http://127.0.0.1:8000/healthz'
    >>> health_url("[::]:9000")
    'http://127.0.0.1:9000/healthz'
    """
    bind = (bind or os.environ.get("BIND") or DEFAULT_BIND).split(",")[0].strip()
    port = bind.rsplit(":", 1)[1] if ":" in bind else "8000"
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
