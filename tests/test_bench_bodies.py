"""bench/load.py's bodies are real requests: each answers 200, as openapi.yaml says."""

from __future__ import annotations

from typing import Any

import pytest

from bench.bodies import BODIES, varied


@pytest.mark.parametrize("label", list(BODIES))
def test_every_fixed_body_is_answered(api: Any, label: str) -> None:
    path, body = BODIES[label]
    assert api.post(path, json=body).status_code == 200


@pytest.mark.parametrize("path", ["/v1/follow", "/v1/trick", "/v1/throw", "/v1/kitty"])
def test_varied_bodies_are_distinct_and_answered(api: Any, path: str) -> None:
    bodies = varied(path, count=6)
    assert len({repr(b) for b in bodies}) == 6  # a different hand or trick every time
    for body in bodies:
        assert api.post(path, json=body).status_code == 200


def test_no_varied_bodies_for_other_paths() -> None:
    with pytest.raises(KeyError):
        varied("/v1/settle")


def test_bare_ceiling_answers_healthz_as_the_service_does(api: Any) -> None:
    """bench/bare.py, the ceiling bench/load.py and bench/instructions.py measure the
    service against: the same route and the same JSON document, nothing else."""
    from bench.bare import create_app

    bare = create_app().test_client()
    got, want = bare.get("/healthz"), api.get("/healthz")
    assert got.status_code == want.status_code == 200
    assert got.mimetype == want.mimetype == "application/json"
    assert got.get_json() == want.get_json()
    assert bare.get("/v1/follow").status_code == 404  # the bare app has no rules in it
    assert "X-Request-ID" not in got.headers
