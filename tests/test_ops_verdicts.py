"""Every adjudication counts its verdict in the metrics (referee_verdicts_total)."""

from __future__ import annotations

import re
from typing import Any

from service import metrics

TRUMP = {"level": "10", "suit": "H"}
CALLS = [
    ("/v1/throw", {"trump": TRUMP, "leader": 0, "lead": ["9S", "8S", "8S", "4S", "4S"],
                   "hands": {"1": ["JS"], "2": [], "3": []}},
     "throw.valid", "false"),
    ("/v1/follow", {"trump": TRUMP, "lead": ["9S"], "hand": ["JS", "AH"], "play": ["AH"]}, "follow.legal", "false"),
    ("/v1/trick", {"trump": TRUMP, "leader": 0, "plays": [["9S"], ["AH"], ["2S"], ["3S"]]},
     "trick.winning_role", "ruff"),
    ("/v1/bid", {"trump": {"level": "10"}, "standing": None, "bid": {"seat": 1, "cards": ["10S"]}}, "bid.valid", "true"),
    ("/v1/settle", {"dealer": 0, "defender_points": 120, "levels": {"A": "5", "B": "7"}},
     "settle.outcome", "defenders_take_over"),
    ("/v1/kitty", {"trump": TRUMP, "dealer": 0, "last_lead": ["7S", "7S"], "winner": 1,
                   "kitty": ["KS", "10D", "5C", "3C", "4C", "6C", "7C", "8C"]}, "kitty.to", "defenders"),
]


def _count(app: Any, verdict: str, value: str) -> float:
    text = metrics.exposition(None)[0].decode()
    m = re.search(rf'referee_verdicts_total\{{value="{value}",verdict="{re.escape(verdict)}"\}} ([\d.]+)', text)
    return float(m.group(1)) if m else 0.0


def test_verdicts_are_counted(app: Any, api: Any) -> None:
    for path, body, verdict, value in CALLS:
        before = _count(app, verdict, value)
        resp = api.post(path, body)
        assert resp.status_code == 200, (path, resp.get_json())
        assert _count(app, verdict, value) == before + 1, path
