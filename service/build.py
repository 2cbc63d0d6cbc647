"""What is running: the package version and, when known, the git commit.

``GET /version`` answers them with the preset count, and the metrics carry
them as ``referee_build_info{version, commit}``.  The commit comes from the
``GIT_COMMIT`` environment variable (the Dockerfile sets it from its build
argument: ``docker build --build-arg GIT_COMMIT=$(git rev-parse HEAD) .``),
else from ``git rev-parse HEAD`` when the service runs from a checkout, else
it is unknown (null).  Both are read once per process.
"""

from __future__ import annotations

import os
import re
import subprocess
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

DISTRIBUTION = "tractor-referee"
COMMIT_ENV = "GIT_COMMIT"
CHECKOUT = Path(__file__).resolve().parent.parent
_COMMIT = re.compile(r"^[0-9a-f]{7,40}$")


@cache
def package_version() -> str:
    """The installed distribution's version (pyproject.toml's ``version``)."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:  # pragma: no cover - run from a copy that was never installed
        return "0+unknown"


def commit_from(value: str | None) -> str | None:
    """A commit id as given (lower-cased hex, 7 to 40 digits), else None.

    >>> commit_from(" C9172EA ")
    'c9172ea'
    >>> commit_from("main") is None and commit_from("") is None
    True
    """
    value = (value or "").strip().lower()
    return value if _COMMIT.match(value) else None


@cache
def git_commit() -> str | None:
    """``GIT_COMMIT``, else the checkout's HEAD, else None."""
    if os.environ.get(COMMIT_ENV):
        return commit_from(os.environ[COMMIT_ENV])
    if not (CHECKOUT / ".git").exists():
        return None
    try:
        done = subprocess.run(
            ["git", "-C", str(CHECKOUT), "rev-parse", "HEAD"],
            capture_output=True, text=True, timeout=5, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return commit_from(done.stdout) if done.returncode == 0 else None
