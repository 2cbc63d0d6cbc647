"""Explanations a player can read: a stable code plus English and Chinese text.

Every verdict the engine returns carries its reasons, built by the same code
that decides, so the verdict and its explanation never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

LANGUAGES = ("en", "zh")


@dataclass(frozen=True, slots=True, init=False)
class Reason:
    """``code`` is stable snake_case with a dotted area (``follow.must_play_pair``)."""

    code: str
    en: str
    zh: str

    def __init__(self, code: str, en: str, zh: str) -> None:
        # what the generated __init__ of a frozen dataclass does (an object.__setattr__
        # per field), through the slots' own setters: a verdict makes many reasons
        _set_code(self, code)
        _set_en(self, en)
        _set_zh(self, zh)

    def message(self, language: str = "en") -> str:
        return self.zh if language == "zh" else self.en


_set_code, _set_en, _set_zh = (vars(Reason)[name].__set__ for name in ("code", "en", "zh"))
