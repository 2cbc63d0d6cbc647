"""How the engine names things in its explanations, in English and Chinese.

One vocabulary for every verdict (follow, trick, throw, kitty, audit), so the
same shape or suit reads the same everywhere: ``3-pair tractor`` / 三连拖,
``triple tractor of 2`` / 三条两连拖 (泰坦尼克), ``trumps`` / 主牌.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import KINDS, card_name_zh, card_str
from engine.trump import TRUMP
from engine.units import Unit

ZH_NUMBERS = ("零", "一", "两", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三")
_SUITS_EN = ("spades", "hearts", "clubs", "diamonds")
_SUITS_ZH = ("黑桃", "红桃", "梅花", "方块")
_TUPLE_EN = {1: "single", 2: "pair", 3: "triple", 4: "quad"}
_TUPLE_ZH = {1: "单张", 2: "对子", 3: "三条", 4: "四条"}
_CARD_TEXT = tuple(card_str(k) for k in range(KINDS))


def zh_number(n: int) -> str:
    """A small count in Chinese (两 for 2, as in 两对)."""
    return ZH_NUMBERS[n] if 0 <= n < len(ZH_NUMBERS) else str(n)


def suit_name(suit: int, language: str = "en") -> str:
    """An effective suit: ``hearts`` / ``trumps`` / 红桃 / 主牌."""
    if language == "zh":
        return "主牌" if suit == TRUMP else _SUITS_ZH[suit]
    return "trumps" if suit == TRUMP else _SUITS_EN[suit]


def shape_name(width: int, length: int = 1, language: str = "en") -> str:
    """``pair``, ``3-pair tractor``, ``triple tractor of 2`` / 对子, 三连拖, 三条两连拖."""
    name = _SHAPE_NAMES.get((width, length, language))  # every shape of up to 4 decks, named once
    return _shape_name(width, length, language) if name is None else name


def _shape_name(width: int, length: int, language: str) -> str:
    """``shape_name`` itself (spelled out for every shape of up to 4 decks in ``_SHAPE_NAMES``)."""
    if language == "zh":
        if length == 1:
            return _TUPLE_ZH.get(width, f"{width}张同牌")
        if width == 2:
            return f"{zh_number(length)}连拖"
        return f"{_TUPLE_ZH.get(width, str(width))}{zh_number(length)}连拖"
    if length == 1:
        return _TUPLE_EN.get(width, f"{width}-tuple")
    if width == 2:
        return f"{length}-pair tractor"
    return f"{_TUPLE_EN.get(width, str(width))} tractor of {length}"


_SHAPE_NAMES = {
    (width, length, language): _shape_name(width, length, language)
    for width in range(1, 5)
    for length in range(1, 28)
    for language in ("en", "zh")
}


def cards_text(cards: Iterable[int]) -> str:
    """``10H 10H SJ`` (canonical notation, as given)."""
    return " ".join([_CARD_TEXT[c] for c in cards])


def cards_zh(cards: Iterable[int]) -> str:
    """``红桃10、红桃10、小王``."""
    return "、".join(card_name_zh(c) for c in cards)


def unit_name(unit: Unit, language: str = "en") -> str:
    """A unit with its cards: ``3-pair tractor QS QS JS JS 10S 10S`` / ``三连拖 QS QS …``."""
    return f"{shape_name(unit.width, unit.length, language)} {cards_text(unit.cards)}"
