"""The reasons' message catalogs (docs/api.md "Languages"): every reason the engine
can give (engine.reasons.REASONS) is worded in every catalog, no catalog words a
reason the engine cannot give, counts agree with their nouns, and the wording of
every message in every language is the reviewed one (tests/golden/reasons.txt).

After a deliberate change of wording, rewrite the golden file and review its diff:

    GOLDEN_WRITE=1 python -m pytest tests/test_messages.py
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_card
from engine.reasons import (
    REASONS,
    Cards,
    Level,
    Pattern,
    Pieces,
    Points,
    Reason,
    Seat,
    SeatCounts,
    Side,
    Step,
    Suit,
    Team,
    pieces,
    reason,
)
from engine.shapes import Shape
from engine.trump import Trump
from service import i18n
from service.explain import MissingMessage, render

GOLDEN = Path(__file__).parent / "golden" / "reasons.txt"
TAGS = sorted(i18n.CATALOGS)


def _cards(text: str) -> Cards:
    return Cards(tuple(parse_card(c) for c in text.split()))


# a representative fact for each name a reason uses (by kind, then by name where it differs)
BY_NAME: dict[str, Any] = {
    "seat": Seat(1), "expected": Seat(0), "held_by": Seat(2), "declarer": Seat(3),
    "cards": _cards("10H 10H"), "held": _cards("QH QH"), "missing": _cards("SJ"), "forced": _cards("9H"),
    "played": _cards("3H 3H"), "declaration": _cards("10S 10S"),
    "shape": Shape(2, 2), "thrown": Shape(2, 1),
    "against": Step(1), "loser": Side("dealer"),
    "why": reason("throw.stands", suit=Suit(0), n=2),
    "band": reason("settle.band", "range", low=80, high=115),
    "patterns": "four-deck", "source": "seed 000 四副牌規則 3.4.5",
    "trick": 3,
}
BY_KIND: dict[type, Any] = {
    Suit: Suit(1), Cards: _cards("10H 10H"), Shape: Shape(2, 1),
    Pieces: pieces([Shape(2, 2), Shape(2)], 2),
    Pattern: Pattern((pieces([Shape(2, 2)]), pieces([Shape(4)])), 1, 4),
    Step: Step(2, None, 0), Trump: Trump(8, 1), Team: Team(1), Side: Side("defenders"), Level: Level(12),
    SeatCounts: SeatCounts(((1, 3), (2, 1))), Seat: Seat(1), Points: Points(20), int: 2, str: "x",
}


def example(key: str, n: int = 2, count: int | None = None) -> Reason:
    """The reason ``key`` with representative facts: ``n`` for its ``n``,
    ``count`` (when given) for every other count."""
    code, _, form = key.partition("/")
    facts: dict[str, Any] = {}
    for name, kind in REASONS[key].items():
        if name == "n":
            facts[name] = n
        elif kind is int and count is not None:
            facts[name] = count
        elif kind is Points and count is not None:
            facts[name] = Points(count)
        elif name in BY_NAME and isinstance(BY_NAME[name], kind):
            facts[name] = BY_NAME[name]
        else:
            facts[name] = BY_KIND[kind]
    return reason(code, form, **facts)


def _catalog_reasons(tag: str) -> set[str]:
    return {key for context, key in i18n.KEYS[tag] if context == "reason"}


@pytest.mark.parametrize("tag", TAGS)
def test_every_reason_the_engine_gives_is_worded_in_every_catalog_and_no_other(tag: str) -> None:
    assert _catalog_reasons(tag) == set(REASONS)


@pytest.mark.parametrize("tag", TAGS)
def test_every_catalog_has_the_parts_of_the_english_one(tag: str) -> None:
    parts = {(c, k) for c, k in i18n.KEYS["en"] if c not in ("title", "detail", "error", "error+params")}
    assert parts <= i18n.KEYS[tag]


def _golden() -> str:
    lines = []
    for key in sorted(REASONS):
        counts = (1, 2) if "n" in REASONS[key] else (2,)
        for n in counts:
            for tag in TAGS:
                label = f"{key} n={n}" if len(counts) > 1 else key
                lines.append(f"{label} [{tag}] {render(example(key, n), tag)}")
        lines.append("")
    return "\n".join(lines)


def test_every_message_in_every_language_is_the_reviewed_one() -> None:
    text = _golden()
    if os.environ.get("GOLDEN_WRITE"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8"), "wording changed: GOLDEN_WRITE=1 and review the diff"


NOUNS = "card|level|point|trick|pair|single|triple|quad|deck|joker|match point|unit"
AGREEMENT = re.compile(rf"\b(?:1 (?:{NOUNS})s|(?:0|[2-9]|\d\d+) (?:{NOUNS})(?!s|-))\b")


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(REASONS)), st.sampled_from([0, 1, 2, 5]), st.sampled_from([0, 1, 2, 5]),
       st.sampled_from(TAGS))
def test_no_message_leaves_a_placeholder_or_a_count_its_noun_disagrees_with(
    key: str, n: int, count: int, tag: str
) -> None:
    text = render(example(key, n, count), tag)
    assert "{" not in text and "}" not in text, text
    if tag == "en":
        assert not AGREEMENT.search(text), text


def test_every_message_is_a_sentence_and_every_phrase_is_not() -> None:
    phrases = {key for key in REASONS if key.startswith(("follow.required/", "settle.band/"))}
    for key in REASONS:
        for tag in TAGS:
            text = render(example(key), tag)
            if key in phrases:
                assert not text.endswith((".", "。")), (key, tag, text)
            elif tag == "en":
                assert text[0].isupper() and text.endswith("."), (key, text)
            else:
                assert text.endswith("。"), (key, tag, text)


def test_a_reason_the_engine_does_not_list_is_a_bug_not_a_guess() -> None:
    with pytest.raises(MissingMessage):
        render(reason("throw.stands", suit=Suit(0)), "en")  # a fact missing
    with pytest.raises(MissingMessage):
        render(reason("throw.stands", suit=Seat(0), n=2), "en")  # a fact of the wrong kind
    with pytest.raises(MissingMessage):
        render(reason("throw.nowhere"), "en")


def test_the_cards_and_seats_read_as_each_language_writes_them() -> None:
    why = reason("play.not_held", trick=2, seat=Seat(3), cards=_cards("10H 10H SJ BJ"))
    assert render(why, "en") == "Trick 2: seat 3 plays 10♥ 10♥ SJ BJ, which it does not hold."
    assert render(why, "zh-Hans") == "第2轮：3号位出了手中没有的牌：红桃10、红桃10、小王、大王。"
    assert render(why, "zh-Hant") == "第2輪：3號位出了手中沒有的牌：紅桃10、紅桃10、小王、大王。"
