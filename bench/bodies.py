"""Realistic request bodies for the HTTP benchmark, one per endpoint."""

from __future__ import annotations

from typing import Any

BODIES: dict[str, tuple[str, dict[str, Any]]] = {
    "POST /v1/analyze (two-deck throw)": (
        "/v1/analyze",
        {"rules": "two-deck", "trump": {"level": "10", "suit": "H"},
         "cards": ["10H", "10H", "10S", "10S", "AH", "AH", "BJ", "KH", "QH", "QH"]},
    ),
}
