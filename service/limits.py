"""The referee's input limits, in one place (README.md "Limits", docs/api.md "Errors").

Every limit is answered with problem+json, never a 500: a body over
``MAX_BODY_BYTES`` is a 413; an array of cards over ``MAX_CARDS`` or a hand audit
with more than ``MAX_TRICKS`` tricks is a 422 pointing at the array.  With these
caps the work of one request is small and bounded; ``REQUEST_TIMEOUT_SECONDS``
(gunicorn's worker timeout) bounds its wall time in any case.  openapi.yaml
states the same numbers (``maxItems``) and tests/test_ops_limits.py checks that
the code, the spec and this module agree.
"""

from __future__ import annotations

from engine.cards import CARDS_PER_DECK

MAX_DECKS = 4
"""docs/rules.md §1: 1 to 4 decks."""

MAX_CARDS = MAX_DECKS * CARDS_PER_DECK
"""216: every card of four decks; no array of cards in a request may be longer."""

MAX_TRICKS = MAX_CARDS // 4
"""54: a hand audit (``POST /v1/hand``) has at most this many tricks: every trick
takes at least one card from each of the four seats, and four seats hold at most
216 cards between them."""

MAX_BODY_BYTES = 64 * 1024
"""Flask's ``MAX_CONTENT_LENGTH``: a four-deck hand audit is about 10 KiB."""

MAX_WORK_UNITS = 640
"""The work budget of one request (``engine.budget``): the generic follow rule's
search may enumerate at most this many transitions for all the follows one
request judges, or the request is a 422 ``too_complex``.  Measured on a cold
worker at 0.03–0.055 ms of CPU a unit (bench/RESULTS.md), so that no request
within the other limits costs more than about 50 ms of CPU (issue 21)."""

REQUEST_TIMEOUT_SECONDS = 10
"""gunicorn's ``timeout``: a sync worker silent for longer is killed and replaced."""
