"""Card notation (docs/api.md "Card", docs/rules.md §1): every accepted spelling, canonical printing."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import (
    BIG_JOKER,
    KINDS,
    SMALL_JOKER,
    CardError,
    card_str,
    check_copies,
    copy_counts,
    parse_card,
    points,
    within_copies,
)
from engine.errors import InvalidInput

PARSE_CASES = [
    ("10H", "10H"), ("AS", "AS"), ("2D", "2D"), ("KC", "KC"), ("SJ", "SJ"), ("BJ", "BJ"),
    ("10h", "10H"), ("as", "AS"), ("sj", "SJ"), ("bj", "BJ"), ("Bj", "BJ"),
    ("TH", "10H"), ("th", "10H"), ("Td", "10D"),
    ("A♠", "AS"), ("10♥", "10H"), ("Q♣", "QC"), ("3♦", "3D"), ("K♤", "KS"), ("J♡", "JH"),
    ("小王", "SJ"), ("大王", "BJ"),
]


@pytest.mark.parametrize(("text", "canonical"), PARSE_CASES)
def test_parse_every_notation(text: str, canonical: str) -> None:
    assert card_str(parse_card(text)) == canonical


@pytest.mark.parametrize(
    "bad", ["", "1H", "11H", "10", "H", "AX", "A S", " AS", "AS ", "JOKER", "10HH", "王", "1♠", "ZZ", "Aſ", "ſj", "ΑS"]
)
def test_reject_anything_else(bad: str) -> None:
    with pytest.raises(CardError):
        parse_card(bad)


@pytest.mark.parametrize("bad", [None, 10, 1.5, ["AS"], {"card": "AS"}, True])
def test_reject_non_strings(bad: object) -> None:
    with pytest.raises(CardError):
        parse_card(bad)


@given(st.integers(0, KINDS - 1))
def test_round_trip_canonical(kind: int) -> None:
    assert parse_card(card_str(kind)) == kind
    assert parse_card(card_str(kind).lower()) == kind


def test_all_kinds_distinct() -> None:
    names = {card_str(k) for k in range(KINDS)}
    assert len(names) == 54
    assert card_str(SMALL_JOKER) == "SJ" and card_str(BIG_JOKER) == "BJ"


@pytest.mark.parametrize(("card", "value"), [("5H", 5), ("10S", 10), ("KD", 10), ("AS", 0), ("QC", 0), ("SJ", 0), ("BJ", 0)])
def test_points(card: str, value: int) -> None:
    assert points(parse_card(card)) == value


def test_one_deck_has_100_points() -> None:
    assert sum(points(k) for k in range(KINDS)) == 100


@pytest.mark.parametrize(("decks", "copies", "ok"), [(1, 1, True), (1, 2, False), (2, 2, True), (2, 3, False), (3, 3, True), (4, 4, True), (4, 5, False)])
def test_copies_limited_by_decks(decks: int, copies: int, ok: bool) -> None:
    hands = [(("hands", 0), [parse_card("AS")] * copies)]
    if ok:
        check_copies(hands, decks)
    else:
        with pytest.raises(InvalidInput) as exc:
            check_copies(hands, decks)
        assert exc.value.problems[0].path == ("hands", 0, decks)


def test_copies_counted_across_hands() -> None:
    a = parse_card("KH")
    with pytest.raises(InvalidInput) as exc:
        check_copies([(("hands", "0"), [a]), (("hands", "1"), [a, a])], 2)
    assert exc.value.problems[0].path == ("hands", "1", 1)


# docs/api.md "Card", written out independently of engine.cards: a joker's name, or a
# rank then a suit; ASCII letters in either case (only ASCII: "ſ" is not "S").
_RANK_NAMES = {r: i for i, r in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])} | {"T": 8}
_SUIT_NAMES = {"S": 0, "♠": 0, "♤": 0, "H": 1, "♥": 1, "♡": 1, "C": 2, "♣": 2, "♧": 2, "D": 3, "♦": 3, "♢": 3}
_JOKER_NAMES = {"SJ": SMALL_JOKER, "小王": SMALL_JOKER, "BJ": BIG_JOKER, "大王": BIG_JOKER}


def _notation(text: str) -> int | None:
    """The card ``text`` spells under the notation, or None."""
    key = "".join(ch.upper() if ch.isascii() else ch for ch in text)
    if key in _JOKER_NAMES:
        return _JOKER_NAMES[key]
    rank, suit = _RANK_NAMES.get(key[:-1]), _SUIT_NAMES.get(key[-1:])
    return None if rank is None or suit is None else suit * 13 + rank


def test_parse_and_spelling_table_follow_the_notation() -> None:
    """Every string of up to three characters over the notation's alphabet (and some
    others) parses to the card the notation gives it, or is refused with CardError;
    SPELLINGS (the request path's card lookup, bench/RESULTS.md) holds exactly the
    strings that parse, each with its card."""
    from itertools import product

    from engine.cards import SPELLINGS

    alphabet = sorted(set("0123456789tjqkaTJQKAshcdSHCDbB♠♤♥♡♣♧♦♢小大王ſΑ xX"))
    seen = 0
    for n in (1, 2, 3):
        for chars in product(alphabet, repeat=n):
            text = "".join(chars)
            expected = _notation(text)
            if expected is None:
                with pytest.raises(CardError):
                    parse_card(text)
                assert text not in SPELLINGS, text
            else:
                assert parse_card(text) == SPELLINGS[text] == expected, text
                seen += 1
    assert seen == len(SPELLINGS)  # every spelling has at most three characters


# --- the copies of each card, counted (engine.cards.copy_counts / within_copies / check_copies)

_card_sets = st.lists(st.lists(st.integers(0, KINDS - 1) | st.booleans(), max_size=60), max_size=5)


@given(_card_sets)
def test_copy_counts_is_counter(card_sets: list[list[int]]) -> None:
    """The list count agrees with collections.Counter, bools counted as the ints they equal."""
    counted = Counter(card for cards in card_sets for card in cards)
    assert copy_counts(card_sets) == [counted[k] for k in range(KINDS)]


@given(_card_sets, st.integers(1, 4))
def test_within_copies_and_check_copies_agree_with_counter(card_sets: list[list[int]], decks: int) -> None:
    """within_copies says whether Counter finds more than ``decks`` copies of a card;
    check_copies raises then, one problem at the first excess copy of each such card."""
    counted = Counter(card for cards in card_sets for card in cards)
    over = {card for card, n in counted.items() if n > decks}
    assert within_copies(decks, *card_sets) is not over
    sets = [(("hands", i), cards) for i, cards in enumerate(card_sets)]
    if not over:
        check_copies(sets, decks)
        return
    with pytest.raises(InvalidInput) as exc:
        check_copies(sets, decks)
    seen: Counter[int] = Counter()
    first_excess = []
    for i, cards in enumerate(card_sets):
        for j, card in enumerate(cards):
            seen[card] += 1
            if seen[card] == decks + 1:
                first_excess.append(("hands", i, j))
    assert [p.path for p in exc.value.problems] == first_excess
    assert {p.code for p in exc.value.problems} == {"too_many_copies"}


def test_copy_counts_refuses_what_is_no_kind() -> None:
    """copy_counts takes kinds only: its callers check their cards first (a negative int
    would count as the kind it indexes)."""
    with pytest.raises(IndexError):
        copy_counts([[3, KINDS]])
    with pytest.raises(TypeError):
        copy_counts([[3, "AS"]])
