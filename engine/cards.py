"""Cards and their notation (docs/rules.md §1, docs/api.md "Card").

A card *kind* is a small int: ``suit * 13 + rank`` for the 52 suited kinds
(suits S, H, C, D = 0..3; ranks 2..A = 0..12), 52 for the small joker 小王 and
53 for the big joker 大王.  Copies of a kind are simply repeated ints, so a hand
is a list (or a count vector) of kinds.  Up to ``decks`` copies of a kind exist.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.errors import InvalidInput, Problem

SUITS: tuple[str, ...] = ("S", "H", "C", "D")
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SMALL_JOKER = 52
BIG_JOKER = 53
KINDS = 54
CARDS_PER_DECK = 54
JOKERS = (SMALL_JOKER, BIG_JOKER)

_SUIT_ALIASES = {
    "S": 0, "♠": 0, "♤": 0,
    "H": 1, "♥": 1, "♡": 1,
    "C": 2, "♣": 2, "♧": 2,
    "D": 3, "♦": 3, "♢": 3,
}
_RANK_ALIASES = {r: i for i, r in enumerate(RANKS)} | {"T": RANKS.index("10")}
_JOKER_ALIASES = {"SJ": SMALL_JOKER, "小王": SMALL_JOKER, "BJ": BIG_JOKER, "大王": BIG_JOKER}


class CardError(ValueError):
    """A string that is not a card in any accepted notation."""


def make(suit: int, rank: int) -> int:
    """The kind of the card of ``suit`` (0..3) and ``rank`` (0..12)."""
    return suit * 13 + rank


def suit_of(card: int) -> int | None:
    """Printed suit 0..3, or None for a joker."""
    return None if card >= SMALL_JOKER else card // 13


def rank_of(card: int) -> int | None:
    """Printed rank 0..12 (2..A), or None for a joker."""
    return None if card >= SMALL_JOKER else card % 13


def _upper(text: str) -> str:
    """Upper-case ASCII letters only (``"ſ".upper()`` is ``"S"``: not a suit here)."""
    return "".join(ch.upper() if ch.isascii() else ch for ch in text)


def _alias(table: dict[str, int], text: str) -> int | None:
    """``text`` in an alias table: as written (the usual spelling), else upper-cased."""
    found = table.get(text)
    return found if found is not None else table.get(_upper(text))


def parse_rank(text: str) -> int:
    """``"10"``/``"T"``/``"q"`` → rank index (0 = 2, 12 = A)."""
    rank = _alias(_RANK_ALIASES, text)
    if rank is None:
        raise CardError(f"{text!r} is not a rank; use one of 2 3 4 5 6 7 8 9 10 J Q K A")
    return rank


def parse_suit(text: str) -> int:
    """``"H"``/``"h"``/``"♥"`` → suit index (S=0, H=1, C=2, D=3)."""
    suit = _alias(_SUIT_ALIASES, text)
    if suit is None:
        raise CardError(f"{text!r} is not a suit; use S, H, C or D (or ♠ ♥ ♣ ♦)")
    return suit


def parse_card(text: object) -> int:
    """Parse one card in any notation of docs/api.md.

    >>> [card_str(parse_card(t)) for t in ("10H", "th", "A♠", "小王", "bj")]
    ['10H', '10H', 'AS', 'SJ', 'BJ']
    """
    if not isinstance(text, str):
        raise CardError(f"a card must be a string such as \"10H\", not {type(text).__name__}")
    card = SPELLINGS.get(text)
    if card is not None:
        return card
    return _parse_card(text)


def _parse_card(text: str) -> int:
    """The parse itself (``parse_card`` looks the usual spellings up first)."""
    key = _upper(text)
    if key in _JOKER_ALIASES:
        return _JOKER_ALIASES[key]
    if len(key) >= 2:
        suit = _SUIT_ALIASES.get(key[-1])
        rank = _RANK_ALIASES.get(key[:-1])
        if suit is not None and rank is not None:
            return make(suit, rank)
    raise CardError(
        f"{text!r} is not a card: write rank then suit (\"10H\", \"AS\", \"TD\", \"A♠\") "
        "or a joker (\"SJ\"/小王, \"BJ\"/大王)"
    )


def _spellings() -> dict[str, int]:
    """Every spelling ``_parse_card`` accepts (rank and suit aliases in every ASCII
    case, rank first; the jokers' names), with ``_parse_card``'s own answer."""
    def cases(word: str) -> set[str]:
        out = {""}
        for ch in word:
            out = {o + c for o in out for c in {ch, ch.lower(), ch.upper()} if c.isascii() or c == ch}
        return out

    words: set[str] = set()
    for rank in _RANK_ALIASES:
        for suit in _SUIT_ALIASES:
            words |= cases(rank + suit)
    for joker in _JOKER_ALIASES:
        words |= cases(joker)
    table: dict[str, int] = {}
    for word in sorted(words):
        try:
            table[word] = _parse_card(word)
        except CardError:
            pass
    return table


def card_str(card: int) -> str:
    """Canonical notation: ``"10H"``, ``"AS"``, ``"SJ"``, ``"BJ"``."""
    if card == SMALL_JOKER:
        return "SJ"
    if card == BIG_JOKER:
        return "BJ"
    return RANKS[card % 13] + SUITS[card // 13]


CARD_NAMES: tuple[str, ...] = tuple(card_str(k) for k in range(KINDS))
"""``card_str`` of every kind, by kind (what responses print, looked up)."""

SPELLINGS: dict[str, int] = _spellings()
"""Spelling → card for every accepted notation (docs/api.md "Card"): the parse's fast path."""


def points(card: int) -> int:
    """Point value (docs/rules.md §1): 5 → 5, 10 and K → 10, others 0."""
    return 0 if card >= SMALL_JOKER else {3: 5, 8: 10, 11: 10}.get(card % 13, 0)


_POINT_VALUES = tuple(points(k) for k in range(KINDS))


def total_points(cards: Iterable[int]) -> int:
    """Sum of the point values of ``cards``."""
    return sum(map(_POINT_VALUES.__getitem__, cards))


_UP_TO = tuple(frozenset(range(decks + 1)) for decks in range(5))  # the counts allowed with 0..4 decks


def copy_counts(card_sets: Iterable[Iterable[int]]) -> list[int]:
    """How many copies of each kind the card sets hold together, by kind.

    One list step a card, the cheapest count measured (CPython 3.11, callgrind,
    the 168 cards of bench/bodies.py's four-deck throw): 60 kIr, against 71 for
    ``collections.Counter``, 101 for ``bytes.count`` per kind and 56 to 70 for a
    sorted ``bytes`` copy (before looking for a run in it).  The cards must be
    kinds (an int or a bool 0..53): anything else raises ``TypeError`` or
    ``IndexError``, and a negative int counts as the kind it indexes, so the
    callers whose cards can be anything check them first."""
    seen = [0] * KINDS
    for cards in card_sets:
        for c in cards:
            seen[c] += 1
    return seen


def within_counts(decks: int, counts: Iterable[int]) -> bool:
    """True when no count of ``copy_counts`` exceeds ``decks`` (docs/rules.md §1)."""
    allowed = _UP_TO[decks] if 0 <= decks < len(_UP_TO) else frozenset(range(decks + 1))
    return allowed.issuperset(counts)


def within_copies(decks: int, *card_sets: Sequence[int]) -> bool:
    """True when no card appears more than ``decks`` times across the sets
    (the usual answer of every entry point's copies check; ``check_copies``
    words the problems when it is False).  The cards are kinds (``copy_counts``)."""
    return within_counts(decks, copy_counts(card_sets))


def check_copies(
    hands: Sequence[tuple[tuple[str | int, ...], Sequence[int]]], decks: int
) -> None:
    """At most ``decks`` copies of one card across disjoint card sets (docs/rules.md §1).

    ``hands`` pairs each card list with its request path; every excess copy is
    reported at the element that exceeds the limit.
    """
    counts = copy_counts([cards for _, cards in hands])
    if within_counts(decks, counts):  # the usual case
        return
    seen = [0] * KINDS
    problems: list[Problem] = []
    for path, cards in hands:
        for i, card in enumerate(cards):
            seen[card] += 1
            if seen[card] == decks + 1:
                # the card sets holding it, as a reader says them (``lead``, ``hands/2``), each once
                where = list(dict.fromkeys(["/".join(map(str, p)) for p, held in hands if card in held]))
                problems.append(
                    Problem(
                        (*path, i),
                        f"{counts[card]} copies of {card_str(card)} counted {'across' if len(where) > 1 else 'in'} {' and '.join(where)}: "
                        f"a game with {decks} deck{'s' if decks > 1 else ''} has only {decks}",
                        code="too_many_copies",
                        params={"card": card_str(card), "count": counts[card], "decks": decks, "where": ", ".join(where)},
                    )
                )
    if problems:
        raise InvalidInput(problems)
