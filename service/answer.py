"""The service's response class: Flask's, minus a copy of the headers werkzeug
would not change.

Right before a response is sent, werkzeug's ``get_wsgi_headers`` (documented
as the place that adapts the headers to the request) copies every header into
a new ``Headers``, validating each value again, so that it can fix what needs
fixing: a relative ``Location`` or ``Content-Location`` made absolute, no
``Content-Length`` on a 1xx or 204, no entity headers on a 304, a missing
``Content-Length`` computed.  For an answer that needs none of these (the
service's own JSON answers and problems: a 2xx–5xx with its length and no
location) the copy equals the original, and cost a small answer about a
tenth of a ``/healthz`` (bench/RESULTS.md, issue 22); :class:`Answer` hands
werkzeug the response's own headers then (werkzeug turns them into a new list
for the server either way), and leaves every other response to werkzeug.
tests/test_http_layer.py checks both give the same headers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Response
from werkzeug.datastructures import Headers

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment

_FIXED = frozenset({"location", "content-location"})
"""Headers werkzeug rewrites for the request (made absolute, IRIs quoted)."""


class Answer(Response):
    """Flask's response; its headers go to the server without a copy when
    werkzeug's would be the same (the module's note)."""

    def get_wsgi_headers(self, environ: WSGIEnvironment) -> Headers:
        status = self.status_code
        if 200 <= status and status not in (204, 304):
            sized = False
            for name, _ in self.headers:
                key = name.lower()
                if key == "content-length":
                    sized = True
                elif key in _FIXED:
                    return super().get_wsgi_headers(environ)
            if sized:
                return self.headers
        return super().get_wsgi_headers(environ)

    @classmethod
    def of_json(cls, body: bytes, lang: str | None = None) -> Answer:
        """A new 200 of JSON bytes: ``cls(body, content_type="application/json")``,
        then with ``lang`` :meth:`in_language`, with the same headers in the
        same order (tests/test_http_layer.py).  The body is given as the
        documented ``response`` list and its ``Content-Length`` added, where
        ``set_data`` would first look for an earlier ``Content-Length`` in the
        new list (a fifth of the cost of building the answer)."""
        answer = cls(None, content_type="application/json")
        answer.response = [body]
        headers = answer.headers
        headers.add("Content-Length", str(len(body)))
        return answer if lang is None else answer.in_language(lang)

    def in_language(self, lang: str) -> Answer:
        """This new answer, worded in ``lang`` (a catalog tag): ``Content-Language``
        and ``Vary: Accept-Language`` added at once (a new answer has neither, so
        nothing to replace or merge)."""
        headers = self.headers
        headers.add("Content-Language", lang)
        headers.add("Vary", "Accept-Language")
        return self
