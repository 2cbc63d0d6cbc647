"""The engine's reasons in the reader's language (docs/api.md "Languages").

A reason (``engine.reasons.Reason``) is a code and typed facts; this module
words it through the message catalogs (``service.i18n``), the same catalogs
the problem documents use.  Every message is a catalog entry keyed by its
code (context ``reason``); each kind of fact has one formatter per locale,
itself made of catalog entries, so a card, a seat or a shape reads the same in
every message:

* ``card``: a card's pattern per suit (``{rank}♥`` / ``红桃{rank}``) and the
  jokers; ``list`` ``cards``: what separates the cards of a set;
* ``suit``, ``seat``, ``team``, ``side``, ``trump``, ``step`` (a bid), and the
  shapes: ``shape`` (a name), ``counted`` (a number of them), ``pattern``;
* ``number``: the number words a locale writes counts of shapes with (两对).

A message's plural form is the catalog's (its ``Plural-Forms`` rule applied to
the reason's ``n``), never chosen here.  Adding a language is adding a catalog.
"""

from __future__ import annotations

from functools import lru_cache

from engine.cards import BIG_JOKER, RANKS, SMALL_JOKER, SUITS
from engine.reasons import (
    REASONS,
    Cards,
    Level,
    Param,
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
)
from engine.settle import TEAM_NAMES
from engine.shapes import Shape
from engine.trump import TRUMP, Trump
from service import i18n


class MissingMessage(LookupError):
    """No catalog words a key, or a reason is not the one ``engine.reasons.REASONS``
    lists (the engine, the list and the catalogs out of step: a bug)."""


def _word(tag: str, context: str, key: str, n: int = 1) -> str:
    found = i18n.template(tag, context, key, n)
    if found is None:
        raise MissingMessage(f"no catalog has {context!r} {key!r}")
    return found


def check(reason: Reason) -> None:
    """Is ``reason`` one that ``engine.reasons.REASONS`` lists, with its facts?"""
    kinds = REASONS.get(reason.key)
    given = dict(reason.params)
    if kinds is None or given.keys() != kinds.keys() or not all(
        isinstance(value, kinds[name]) and not isinstance(value, bool) for name, value in given.items()
    ):
        raise MissingMessage(f"not a reason engine.reasons.REASONS lists: {reason!r}")


@lru_cache(maxsize=4096)
def render(reason: Reason, tag: str) -> str:
    """``reason`` worded in the catalog ``tag`` (cached: the same reasons recur;
    each is checked against ``engine.reasons.REASONS`` when first worded)."""
    check(reason)
    fields = {name: words(value, tag) for name, value in reason.params}
    n = reason.param("n")
    return _word(tag, "reason", reason.key, n if isinstance(n, int) else 1).format_map(fields)


@lru_cache(maxsize=1024, typed=True)
def words(value: Param, tag: str) -> str:
    """One fact of a reason in the catalog ``tag`` (cached: a verdict names a
    fact of its own beside its reasons, a bid's strength, and the same ones recur)."""
    if isinstance(value, bool):  # pragma: no cover - reasons carry no flags
        raise TypeError("a reason's fact is never a bool")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value
    if isinstance(value, Cards):
        return cards(value.cards, tag)
    if isinstance(value, Seat):
        return seat(value.seat, tag)
    if isinstance(value, Team):
        return _word(tag, "team", "team").format(team=TEAM_NAMES[value.team], a=value.team, b=value.team + 2)
    if isinstance(value, Side):
        return _word(tag, "side", value.side)
    if isinstance(value, Suit):
        return suit(value.suit, tag)
    if isinstance(value, Level):
        return RANKS[value.rank]
    if isinstance(value, Shape):
        return shape(value.width, value.length, tag)
    if isinstance(value, Pieces):
        return _pieces(value, tag)
    if isinstance(value, Pattern):
        return pattern(value, tag)
    if isinstance(value, Step):
        return step(value, tag)
    if isinstance(value, Trump):
        return trump(value, tag)
    if isinstance(value, Points):
        return _word(tag, "counted", "points", value.points).format(n=value.points)
    if isinstance(value, SeatCounts):
        return _word(tag, "list", "items").join(
            _word(tag, "seat_counts", "seat", n).format(seat=seat(s, tag), n=n) for s, n in value.counts
        )
    if isinstance(value, Reason):
        return render(value, tag)
    raise TypeError(f"not a reason's fact: {value!r}")  # pragma: no cover - Param lists every kind


@lru_cache(maxsize=64)
def _card_words(tag: str) -> tuple[tuple[str, ...], str]:
    """Every card kind's name in ``tag``, and the separator of a set of cards."""
    names = []
    for kind in range(54):
        if kind == SMALL_JOKER or kind == BIG_JOKER:
            names.append(_word(tag, "card", "SJ" if kind == SMALL_JOKER else "BJ"))
        else:
            names.append(_word(tag, "card", SUITS[kind // 13]).format(rank=RANKS[kind % 13]))
    return tuple(names), _word(tag, "list", "cards")


def cards(kinds: tuple[int, ...], tag: str) -> str:
    """A set of cards as the locale writes it: ``10♥ 10♥`` / ``红桃10、红桃10``."""
    names, sep = _card_words(tag)
    return sep.join([names[k] for k in kinds])


def seat(number: int, tag: str) -> str:
    """A seat: ``seat 3`` / ``3号位``."""
    return _word(tag, "seat", "seat").format(seat=number)


def suit(number: int, tag: str) -> str:
    """An effective suit: ``hearts`` / ``trumps`` / ``红桃`` / ``主牌``."""
    return _word(tag, "suit", "trumps" if number == TRUMP else SUITS[number])


def number(n: int, tag: str) -> str:
    """A count of shapes in words where the locale writes them so (两对), else digits."""
    return i18n.template(tag, "number", str(n)) or str(n)


def shape(width: int, length: int, tag: str, count: int | None = None) -> str:
    """A shape's name (``pair``, ``3-pair tractor``, ``triple tractor of 2`` /
    对子, 三连拖, 三条两连拖); with ``count``, that many of it (``2 pairs`` / 两对)."""
    context = "shape" if count is None else "counted"
    n = 1 if count is None else count
    if length == 1:
        key = str(width)
    else:
        key = "tractor.2" if width == 2 else "tractor"
    return _word(tag, context, key, n).format(
        n=number(n, tag), length=number(length, tag), tuple=_word(tag, "shape", str(width)), width=width
    )


def _pieces(value: Pieces, tag: str) -> str:
    parts = [shape(s.width, s.length, tag, count) for s, count in value.shapes]
    if value.singles:
        parts.append(shape(1, 1, tag, value.singles))
    if not parts:
        return _word(tag, "pattern", "nothing")
    return _word(tag, "list", "plus").join(parts)


def pattern(value: Pattern, tag: str) -> str:
    """What a follow owes or forms: ``step 3 of 18: a 2-pair tractor + 2 singles``."""
    shapes = _word(tag, "list", "or").join(_pieces(p, tag) for p in value.alternatives)
    if value.step is None:
        return shapes
    return _word(tag, "pattern", "step").format(step=value.step, steps=value.steps, shapes=shapes)


def step(value: Step, tag: str) -> str:
    """A ladder step, by kind and count (``pair of level cards in spades`` / ``两张黑桃级牌``)."""
    return _step_words(value.count, value.joker, value.suit, tag)


@lru_cache(maxsize=128)
def _step_words(count: int, joker: str | None, suit_: int | None, tag: str) -> str:
    """``step``'s words, by the step's fields (cached: every bid and fry verdict names
    its step; a catalog words at most 32 steps, 4 counts of 8 kinds)."""
    if joker is not None:
        kind = f"joker.{joker}"
    else:
        kind = "level" if suit_ is None else "level_suit"
    return _word(tag, "step", f"{kind}.{count}").format(suit="" if suit_ is None else suit(suit_, tag))


def trump(value: Trump, tag: str) -> str:
    """What is trump: ``hearts are trump at level 10`` / ``打10，红桃为主``."""
    key = "no_trump" if value.suit is None else "suit"
    return _word(tag, "trump", key).format(
        level=RANKS[value.level], suit="" if value.suit is None else suit(value.suit, tag)
    )
