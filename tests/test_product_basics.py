"""Product basics: ``GET /version``, the ``referee_build_info`` metric and CORS.

The version is the installed package's, the commit the ``GIT_COMMIT``
environment variable's (the image's build argument), else the checkout's HEAD;
CORS is off unless ``CORS_ORIGINS`` names the origins a browser may call from.
"""

from __future__ import annotations

import os
import re
import subprocess
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

from engine.rules import PRESET_VALUES
from service import build, metrics
from service.app import cors_origins, create_app
from service.metrics import sample_values

ROOT = Path(__file__).resolve().parent.parent


# --- /version ---------------------------------------------------------------------------

def test_version_names_the_package_the_commit_and_the_presets(api: Any) -> None:
    body = api.get("/version").get_json()
    assert body["version"] == version("tractor-referee")
    assert body["presets"] == len(PRESET_VALUES) == len(api.get("/v1/rulesets").get_json()["rulesets"])
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True)
    if head.returncode == 0 and not os.environ.get(build.COMMIT_ENV):
        assert body["commit"] == head.stdout.strip()


def test_the_commit_comes_from_the_environment_first(monkeypatch: pytest.MonkeyPatch) -> None:
    build.git_commit.cache_clear()
    try:
        monkeypatch.setenv("GIT_COMMIT", "0123456789ABCDEF0123456789abcdef01234567")
        assert build.git_commit() == "0123456789abcdef0123456789abcdef01234567"
        build.git_commit.cache_clear()
        monkeypatch.setenv("GIT_COMMIT", "not a commit")
        assert build.git_commit() is None  # never a made-up value
        build.git_commit.cache_clear()
        monkeypatch.delenv("GIT_COMMIT")
        monkeypatch.setattr(build, "CHECKOUT", ROOT / "no-such-checkout")
        assert build.git_commit() is None  # an installed package outside a checkout
    finally:
        build.git_commit.cache_clear()


def test_the_image_passes_its_commit_in() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    run_stage = dockerfile[dockerfile.rindex("\nFROM "):]
    assert re.search(r"^ARG GIT_COMMIT\b", run_stage, re.M)
    assert re.search(r"GIT_COMMIT=\$\{?GIT_COMMIT\}?", run_stage)


def test_build_info_is_a_metric(api: Any) -> None:
    body = api.get("/version").get_json()  # a worker publishes its build info with its first request
    text = metrics.exposition(None)[0].decode()  # what a scrape of the private port reads
    ((labels, value),) = sample_values(text, "referee_build_info")
    assert value == 1 and labels == {"version": body["version"], "commit": body["commit"] or "unknown"}


# --- CORS -------------------------------------------------------------------------------

PREFLIGHT = {
    "Origin": "https://play.example",
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "Content-Type, Accept-Language",
}
ANALYZE = {"trump": {"level": "2", "suit": "S"}, "cards": ["AS"]}


def test_cors_is_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CORS_ORIGINS", raising=False)
    client = create_app({"TESTING": True, "ACCESS_LOG": False}).test_client()
    resp = client.post("/v1/analyze", json=ANALYZE, headers={"Origin": "https://play.example"})
    assert resp.status_code == 200 and "Access-Control-Allow-Origin" not in resp.headers
    assert "Access-Control-Allow-Origin" not in client.options("/v1/analyze", headers=PREFLIGHT).headers


def test_cors_lets_the_named_origins_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CORS_ORIGINS", "https://play.example, http://localhost:3000")
    client = create_app({"TESTING": True, "ACCESS_LOG": False}).test_client()
    pre = client.options("/v1/analyze", headers=PREFLIGHT)
    assert pre.status_code == 200
    assert pre.headers["Access-Control-Allow-Origin"] == "https://play.example"
    assert "POST" in pre.headers["Access-Control-Allow-Methods"]
    assert {"content-type", "accept-language"} <= {
        h.strip().lower() for h in pre.headers["Access-Control-Allow-Headers"].split(",")
    }
    resp = client.post("/v1/analyze", json=ANALYZE, headers={"Origin": "https://play.example"})
    assert resp.headers["Access-Control-Allow-Origin"] == "https://play.example"
    assert "X-Request-ID" in resp.headers["Access-Control-Expose-Headers"]
    problem = client.post("/v1/analyze", json={}, headers={"Origin": "http://localhost:3000"})
    assert problem.status_code == 422 and problem.headers["Access-Control-Allow-Origin"] == "http://localhost:3000"
    other = client.post("/v1/analyze", json=ANALYZE, headers={"Origin": "https://evil.example"})
    assert other.status_code == 200 and "Access-Control-Allow-Origin" not in other.headers


def test_cors_any_origin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CORS_ORIGINS", "*")
    client = create_app({"TESTING": True, "ACCESS_LOG": False}).test_client()
    resp = client.get("/v1/rulesets", headers={"Origin": "https://anyone.example"})
    assert resp.headers["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize("value", ["play.example", "https://play.example/path", "https://a.example,*", "ftp://x"])
def test_a_malformed_cors_setting_stops_the_start(value: str) -> None:
    with pytest.raises(ValueError, match="CORS_ORIGINS"):
        cors_origins(value)


def test_cors_origins_parse() -> None:
    assert cors_origins(None) is None and cors_origins(" ") is None
    assert cors_origins("*") == "*"
    assert cors_origins("https://a.example, http://localhost:8080/") == ["https://a.example", "http://localhost:8080"]
