"""The service's response class: Flask's, handed to the server in one step when
werkzeug would change nothing.

Right before a response is sent, werkzeug's ``get_wsgi_response`` (documented:
"the final WSGI response", made "specially for the given environment") asks
three methods: ``get_wsgi_headers`` copies every header into a new
``Headers``, validating each value again, so that it can fix what needs
fixing (a relative ``Location`` or ``Content-Location`` made absolute, no
``Content-Length`` on a 1xx or 204, no entity headers on a 304, a missing
``Content-Length`` computed); ``get_app_iter`` gives no body to a ``HEAD``
(and to a 1xx, 204 or 304), else the body (as it is when it is passed
through); ``to_wsgi_list`` lists the headers for the server.  For an answer
that needs none of these fixes (:meth:`Answer.as_is`: a 2xx–5xx but 204 and
304, with its length and no location; the service's JSON answers and
problems) the copy equals the original and the list is the response's own,
which :class:`Answer` hands the server then; every other response is left
to werkzeug.  tests/test_http_layer.py checks both give the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Response
from werkzeug.datastructures import Headers

if TYPE_CHECKING:
    from collections.abc import Iterable

    from _typeshed.wsgi import WSGIEnvironment

_FIXED = frozenset({"location", "content-location"})
"""Headers werkzeug rewrites for the request (made absolute, IRIs quoted)."""


class Answer(Response):
    """Flask's response; it goes to the server without werkzeug's copy of its
    headers when werkzeug's would be the same (the module's note)."""

    def as_is(self) -> bool:
        """Would werkzeug send this response's headers as they are?  Its status
        is 2xx–5xx but 204 and 304, it has a ``Content-Length`` and no
        ``Location`` or ``Content-Location`` (the module's note)."""
        status = self.status_code
        if status < 200 or status == 204 or status == 304:
            return False
        sized = False
        for name, _ in self.headers:
            key = name.lower()
            if key == "content-length":
                sized = True
            elif key in _FIXED:
                return False
        return sized

    def get_wsgi_headers(self, environ: WSGIEnvironment) -> Headers:
        return self.headers if self.as_is() else super().get_wsgi_headers(environ)

    def get_wsgi_response(self, environ: WSGIEnvironment) -> tuple[Iterable[bytes], str, list[tuple[str, str]]]:
        """werkzeug's answer for the server, in one step for a body passed through
        (``direct_passthrough``: what ``get_app_iter`` hands on as it is) to any
        request but ``HEAD``, with headers sent :meth:`as_is`."""
        if self.direct_passthrough and environ["REQUEST_METHOD"] != "HEAD" and self.as_is():
            return self.response, self.status, self.headers.to_wsgi_list()
        return super().get_wsgi_response(environ)

    @classmethod
    def of_json(cls, body: bytes, lang: str | None = None) -> Answer:
        """A new 200 of JSON bytes: ``cls(body, content_type="application/json")``,
        then with ``lang`` :meth:`in_language`, with the same headers in the
        same order (tests/test_http_layer.py).  The body is given as the
        documented ``response`` list and its ``Content-Length`` added, where
        ``set_data`` would first look for an earlier ``Content-Length`` in the
        new list (a fifth of the cost of building the answer).  The list of
        bytes is what the server iterates (werkzeug's ``direct_passthrough``),
        not an encoding generator behind a closing iterator (~15,000
        instructions a request; a list has nothing to close); flask-compress
        turns it off when it gzips the body."""
        answer = cls(None, content_type="application/json", direct_passthrough=True)
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
