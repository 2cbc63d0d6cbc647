"""Large answers go out gzipped to a client that accepts gzip; small ones, files
and clients that do not ask, as they are (service/app.py, bench/compression.py)."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest

from service.app import DEFAULT_CONFIG

GZIP = {"Accept-Encoding": "gzip"}


@pytest.fixture()
def client(app: Any) -> Any:
    return app.test_client()


def test_a_large_answer_is_gzipped(client: Any) -> None:
    plain = client.get("/v1/rulesets")
    assert len(plain.get_data()) >= DEFAULT_CONFIG["COMPRESS_MIN_SIZE"]
    assert "Content-Encoding" not in plain.headers  # not asked for
    packed = client.get("/v1/rulesets", headers=GZIP)
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    data = packed.get_data()
    assert int(packed.headers["Content-Length"]) == len(data) < len(plain.get_data()) / 3
    assert json.loads(gzip.decompress(data)) == plain.get_json()


def test_a_large_verdict_is_gzipped(client: Any, spec_dict: dict[str, Any]) -> None:
    media = spec_dict["paths"]["/v1/hand"]["post"]["requestBody"]["content"]["application/json"]
    body = next(iter(media["examples"].values()))["value"]
    plain = client.post("/v1/hand", json=body)
    packed = client.post("/v1/hand", json=body, headers={"Accept-Encoding": "br;q=1, gzip;q=0.5"})
    assert packed.headers["Content-Encoding"] == "gzip"  # gzip is the one the referee offers
    assert json.loads(gzip.decompress(packed.get_data())) == plain.get_json()


def test_small_answers_and_refusals_go_as_they_are(client: Any) -> None:
    small = client.get("/healthz", headers=GZIP)
    assert "Content-Encoding" not in small.headers and "Vary" not in small.headers  # the same for everyone
    assert client.get("/v1/rulesets").headers["Vary"] == "Accept-Encoding"  # large: it varies even unasked
    assert "Content-Encoding" not in client.get("/v1/rulesets", headers={"Accept-Encoding": "identity"}).headers
    assert "Content-Encoding" not in client.get("/v1/rulesets/nine-deck", headers=GZIP).headers


@pytest.mark.parametrize("vary", [None, "", "Accept-Language", "Origin, accept-encoding", "Accept-Encoding"])
@pytest.mark.parametrize("accept", [None, "", "identity", "gzip"])
def test_unasked_large_answers_vary_as_flask_compress_says(app: Any, vary: str | None, accept: str | None) -> None:
    """A large answer to a request without Accept-Encoding skips flask-compress
    (Referee.process_response): its headers are those flask-compress gives it."""
    from service.answer import Answer

    def answer() -> Answer:
        resp = Answer.of_json(b"[" + b"1," * 2000 + b"1]")
        if vary is not None:
            resp.headers["Vary"] = vary
        return resp

    headers = {} if accept is None else {"Accept-Encoding": accept}
    with app.test_request_context("/v1/throw", method="POST", headers=headers):
        ours = app.process_response(answer())
        theirs = app.compress.after_request(answer())
    assert list(ours.headers) == list(theirs.headers)
    assert ours.get_data() == theirs.get_data()


def test_files_go_as_they_are(client: Any) -> None:
    resp = client.get("/docs/swagger-ui.css", headers=GZIP)
    assert resp.status_code == 200 and "Content-Encoding" not in resp.headers


def test_the_access_line_counts_the_bytes_sent() -> None:
    """bytes_out is what went out: the gzipped length of a gzipped answer, the
    length itself of one sent as it is, and a file's Content-Length."""
    import io

    from service.app import create_app

    stream = io.StringIO()
    client = create_app({"LOG_STREAM": stream}).test_client()
    sent = [client.get("/v1/rulesets", headers=GZIP), client.get("/v1/rulesets"), client.get("/healthz", headers=GZIP),
            client.get("/docs/swagger-ui.css", headers=GZIP)]
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert sent[0].headers["Content-Encoding"] == "gzip"
    assert [x["bytes_out"] for x in lines[:3]] == [len(r.get_data()) for r in sent[:3]]
    assert lines[0]["bytes_out"] < lines[1]["bytes_out"] / 3
    assert lines[3]["bytes_out"] == sent[3].content_length == len(sent[3].get_data())


@pytest.mark.parametrize(
    "extra",
    [
        [("Vary", "Accept-Language"), ("X-After", "1")],
        [("vary", "Origin"), ("X-Between", "1"), ("Vary", "Cookie")],
        [("VARY", ""), ("Vary", "Accept-Encoding")],
        [("Vary", "origin, ACCEPT-ENCODING"), ("Vary", "Cookie")],
        [("X-Only", "1")],
    ],
    ids=["one-not-last", "two", "empty-then-named", "named-then-other", "none"],
)
def test_unasked_large_answers_vary_as_flask_compress_says_whatever_the_vary_lines(
    app: Any, extra: list[tuple[str, str]]
) -> None:
    """One Vary line or several, in any case and place: the headers flask-compress gives."""
    from service.answer import Answer

    def answer() -> Answer:
        resp = Answer.of_json(b"[" + b"1," * 2000 + b"1]")
        for name, value in extra:
            resp.headers.add(name, value)
        return resp

    with app.test_request_context("/v1/throw", method="POST"):
        ours = app.process_response(answer())
        theirs = app.compress.after_request(answer())
    assert list(ours.headers) == list(theirs.headers)
