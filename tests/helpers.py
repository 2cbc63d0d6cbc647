"""Small helpers for writing engine cases as readable card strings, and a loopback server."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from engine.cards import card_str, parse_card, parse_rank, parse_suit
from engine.rules import Rules, preset, rules_from_json
from engine.trump import Trump, TrumpOrder, trump_order


def cards(text: str) -> list[int]:
    """``"10H 10H SJ"`` → card kinds."""
    return [parse_card(t) for t in text.split()]


def names(kinds: object) -> str:
    return " ".join(card_str(k) for k in kinds)  # type: ignore[attr-defined]


def trump(level: str, suit: str | None) -> Trump:
    return Trump(parse_rank(level), None if suit is None else parse_suit(suit))


def order(level: str, suit: str | None, rules: str | dict | Rules = "two-deck") -> TrumpOrder:
    if isinstance(rules, Rules):
        r = rules
    elif isinstance(rules, str):
        r = preset(rules)
    else:
        r = rules_from_json(rules)
    return trump_order(trump(level, suit), r)


def ladder(o: TrumpOrder, eff: int) -> list[list[str]]:
    """The steps of one effective suit, high → low, each a sorted list of card names."""
    return [sorted(card_str(k) for k in kinds) for kinds in reversed(o.steps[eff])]


@contextmanager
def served(app: Any) -> Iterator[str]:
    """``app`` served by werkzeug on 127.0.0.1 at a free port, in a thread, for
    tests that need a real HTTP client (a browser, a generated client); yields the
    base URL and stops the server (its own thread) afterwards."""
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


def said(reason: Any, lang: str = "en") -> str:
    """A reason as the service words it in ``lang`` (``en``, ``zh-Hans``, ``zh-Hant``)."""
    from service.explain import render

    return render(reason, lang)
