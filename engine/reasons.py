"""Explanations a player can read: a stable code plus English and Chinese text.

Every verdict the engine returns carries its reasons, built by the same code
that decides, so the verdict and its explanation never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.records import quick_init

LANGUAGES = ("en", "zh")


@quick_init  # every verdict makes reasons: engine.records
@dataclass(frozen=True, slots=True)
class Reason:
    """``code`` is stable snake_case with a dotted area (``follow.must_play_pair``)."""

    code: str
    en: str
    zh: str

    def message(self, language: str = "en") -> str:
        return self.zh if language == "zh" else self.en
