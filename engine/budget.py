"""A work budget for one verdict: the generic follow rule's search is bounded by it
(docs/rules.md §5, ``engine.generic``).

The generic rule's score is a dynamic programme whose size grows with the
lead's tractors and the hand's tuples; for a few long leads of many tractors
against four-deck hands rich in quads it enumerates tens of thousands of
transitions.  A caller that must answer within a bound (the HTTP service: 50 ms
of CPU a request) opens a budget of *work units*; every generic score spends
its units on it, and a verdict that would need more than is left raises
``TooComplex`` (a 422 ``too_complex``) instead of answering late.  Without an
open budget (the engine's own callers, the command-line auditor) nothing is
limited.

A unit is one transition the programme's first pass enumerates.  The units a
score needs are a function of its inputs alone and are charged whether the
score is computed or found in a cache, so the same request always gets the
same answer; a request under the budget gets exactly the verdict it would get
without one.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token

from engine.errors import InvalidInput, Problem

_LEFT: ContextVar[list[int] | None] = ContextVar("work_budget_left", default=None)


class TooComplex(InvalidInput):
    """The verdict needs more work than the budget allows (code ``too_complex``)."""

    def __init__(self, needed: int, limit: int) -> None:
        super().__init__(
            Problem(
                (),
                f"this request needs more than the {limit} units of work one request may use "
                f"(the generic follow rule's search, docs/rules.md §5); send a smaller lead or hand",
                code="too_complex",
                params={"limit": limit},
            )
        )
        self.needed = needed
        self.limit = limit


@contextmanager
def work_budget(units: int) -> Iterator[None]:
    """Bound the work of the verdicts computed inside the block to ``units``."""
    token = open_budget(units)
    try:
        yield
    finally:
        _LEFT.reset(token)


def open_budget(units: int) -> Token[list[int] | None]:
    """Open a budget of ``units`` until ``close_budget(token)`` (for callers whose
    start and end are separate hooks, like a web framework's request hooks)."""
    return _LEFT.set([units, units])  # units left, units opened


def close_budget(token: Token[list[int] | None]) -> None:
    """Close the budget ``open_budget`` returned ``token`` for (in another context
    than the one it was opened in, the budget is simply dropped)."""
    try:
        _LEFT.reset(token)
    except ValueError:
        _LEFT.set(None)


def remaining() -> int | None:
    """The units left in the open budget, or None when there is none."""
    left = _LEFT.get()
    return None if left is None else left[0]


def charge(units: int) -> None:
    """Spend ``units``; raise ``TooComplex`` when the budget left is smaller."""
    check(units)
    left = _LEFT.get()
    if left is not None:
        left[0] -= units


def check(units: int) -> None:
    """Raise ``TooComplex`` if ``units`` exceed the budget left (spending nothing:
    for a search counting its own work before it charges it all at once)."""
    left = _LEFT.get()
    if left is not None and units > left[0]:
        raise TooComplex(left[1] - left[0] + units, left[1])
