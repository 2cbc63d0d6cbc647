"""Who won this trick? (RULES.md §6, with §5.3 on trumping 斃/杀).

* The leader's play stands first.  A later play beats the best so far only if
  it has the lead's **full structure** — its cards can be arranged into the
  lead's units, a wider tuple serving as a narrower one (a pair as two singles,
  a triple as a pair and a single) and, with ``wider_shape_beats`` (seeds 000,
  001, 002 for 3–4 decks), a wider shape of the same card count serving as the
  narrower one it beats (a quad as a 2-pair tractor, a triple tractor of 2 as a
  3-pair tractor, …) — and is entirely of the led suit, or entirely trump when
  the lead was a plain suit (seed 000 "斃牌時所出的牌必須是主牌，且其拖拉機的數目不得
  少於首家…", seed 003 "若首家出包含对的付牌，其它方即使全部出了主牌，但没有对，也不能
  算大").  A discard 垫牌 never wins.
* Between two plays with the structure: a trump play beats a led-suit play;
  otherwise ``throw_comparison`` decides between multi-unit plays —
  ``largest_unit`` (seed 000 "斃牌的大小以斃牌中的拖拉機和對牌大小為準": the highest
  of the units serving the lead's tractors, else its widest tuples, else its
  singles), ``all_units`` (every unit stronger than its counterpart, units of
  each lead shape paired after sorting both sides) or ``highest_card``.  A
  single-unit lead compares that unit: a wider serving shape first (when it may
  serve at all), then its rank.  Where a play can be arranged in several ways
  every arrangement is tried, and it must beat the best play's strongest
  arrangement.  Ties go to the earlier play (seed 000 出牌時同等大小的牌以先出者為大).
* Roles: ``lead``; ``follow`` (all of the led suit); ``ruff`` (a plain suit
  led, all trump, with the lead's structure); ``discard`` (anything else).
* Points: every 5, 10 and K in the trick goes to the winner's team.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain

from engine.cards import card_str, check_copies, points
from engine.errors import InvalidInput, Problem
from engine.follow import FollowVerdict, judge_checked
from engine.reasons import Reason
from engine.rules import Rules
from engine.shapes import (
    Layout,
    Placed,
    Shape,
    describe_pieces,
    in_hand,
    layout,
    placements,
    take,
    within_copies,
)
from engine.trump import TRUMP, TrumpOrder
from engine.units import Unit, decompose, mixed_suit_problems
from engine.words import suit_name

ROLES = ("lead", "follow", "ruff", "discard")
_POINTS = tuple(points(k) for k in range(54))
Key = tuple[int, int, int]  # (trump over a plain lead, width of the serving shape, rank)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One way a play is arranged into the lead's units.

    ``units[i]`` serves ``lead_units[i]``; ``keys[i]`` is its strength there.
    """

    units: tuple[Unit, ...]
    keys: tuple[Key, ...]


@dataclass(frozen=True, slots=True)
class PlayVerdict:
    """One play of the trick."""

    seat: int
    cards: tuple[int, ...]  # high → low
    role: str
    beats_previous_best: bool
    legal: bool | None  # None: no hand given, or a throw (see /v1/throw)
    reasons: tuple[Reason, ...]
    units: tuple[Unit, ...] | None  # its strongest arrangement into the lead's units, if any
    follow: FollowVerdict | None = None


@dataclass(frozen=True, slots=True)
class TrickResult:
    """The trick's winner (a seat), its points and a verdict per play."""

    leader: int
    suit: int
    lead_units: tuple[Unit, ...]
    winner: int
    points: int
    plays: tuple[PlayVerdict, ...]


def serving_shapes(unit: Unit, rules: Rules) -> tuple[Shape, ...]:
    """The shapes that may serve a lead unit: its own, and with
    ``wider_shape_beats`` every wider one of the same card count (RULES §3)."""
    return _serving(unit.width, unit.length, rules.wider_shape_beats, rules.decks)


@lru_cache(maxsize=256)
def _serving(width: int, length: int, wider: bool, decks: int) -> tuple[Shape, ...]:
    own = Shape(width, length)
    if not wider or width == 1:
        return (own,)
    return (own, *(Shape(w, own.size // w) for w in range(width + 1, min(decks, 4) + 1) if own.size % w == 0))


def _unit(lay: Layout, placed: Placed) -> Unit:
    kinds = [lay.kinds[i] for i in reversed(placed.at)]
    cards = tuple(k for k in kinds for _ in range(placed.shape.width))
    return Unit(placed.shape.width, placed.shape.length, cards, placed.rank, lay.suit)


def arrangements(
    cards: Sequence[int], lead_units: Sequence[Unit], order: TrumpOrder, rules: Rules
) -> tuple[Arrangement, ...]:
    """Every distinct way ``cards`` can be arranged into ``lead_units`` while
    being entirely of the led suit or, under a plain-suit lead, entirely trump.
    Empty when the play lacks the lead's structure (it can then never win)."""
    if not cards or len(cards) != sum(u.size for u in lead_units):
        return ()
    return _arrangements(tuple(sorted(cards)), tuple(lead_units), order, rules.wider_shape_beats, rules.decks)


@lru_cache(maxsize=8192)
def _arrangements(
    cards: tuple[int, ...], lead_units: tuple[Unit, ...], order: TrumpOrder, wider: bool, decks: int
) -> tuple[Arrangement, ...]:
    led = lead_units[0].suit
    suit = order.suit[cards[0]]
    if any(order.suit[c] != suit for c in cards) or (suit != led and not (suit == TRUMP and led != TRUMP)):
        return ()
    bonus = 1 if suit != led else 0
    power = order.power
    slots = [i for i, u in enumerate(lead_units) if u.width > 1]
    if not slots:  # a lead of singles: every card serves, strongest first
        ranked = sorted(cards, key=lambda k: -power[k])
        return (
            Arrangement(
                tuple(Unit(1, 1, (k,), power[k], suit) for k in ranked), tuple((bonus, 1, power[k]) for k in ranked)
            ),
        )
    lay = layout(order, suit)
    counts = lay.counts(cards)
    singles = [i for i, u in enumerate(lead_units) if u.width == 1]
    found: list[Arrangement] = []

    def finish(served: dict[int, Placed], vec: tuple[int, ...]) -> None:
        units: list[Unit | None] = [None] * len(lead_units)
        keys: list[Key | None] = [None] * len(lead_units)
        for i, placed in served.items():
            units[i] = _unit(lay, placed)
            keys[i] = (bonus, placed.shape.width, placed.rank)
        rest = [lay.kinds[i] for i, c in enumerate(vec) if c for _ in range(c)]
        rest.sort(key=lambda k: -power[k])
        for i, kind in zip(singles, rest, strict=True):
            units[i] = Unit(1, 1, (kind,), order.power[kind], suit)
            keys[i] = (bonus, 1, order.power[kind])
        found.append(Arrangement(tuple(u for u in units if u), tuple(k for k in keys if k)))

    def search(k: int, served: dict[int, Placed], vec: tuple[int, ...], bound: object) -> None:
        if k == len(slots):
            finish(served, vec)
            return
        i = slots[k]
        same_as_previous = k > 0 and lead_units[slots[k - 1]].shape == lead_units[i].shape
        for shape in _serving(lead_units[i].width, lead_units[i].length, wider, decks):
            for placed in placements(lay, vec, shape):
                mark = (shape, placed.at)
                if same_as_previous and bound is not None and mark > bound:  # type: ignore[operator]
                    continue
                served[i] = placed
                search(k + 1, served, take(vec, placed), mark)
                del served[i]

    search(0, {}, counts, None)
    if len(found) <= 1:
        return tuple(found)
    distinct: dict[tuple[object, ...], Arrangement] = {}
    for arrangement in found:
        distinct.setdefault(_canonical(arrangement, lead_units), arrangement)
    return tuple(distinct[key] for key in sorted(distinct, key=repr))


def _canonical(arrangement: Arrangement, lead_units: Sequence[Unit]) -> tuple[object, ...]:
    """Units of each lead shape as a sorted multiset: input order never matters."""
    groups: dict[tuple[int, int], list[tuple[Key, tuple[int, ...]]]] = {}
    for unit, key, lead in zip(arrangement.units, arrangement.keys, lead_units, strict=True):
        groups.setdefault(lead.shape, []).append((key, unit.cards))
    return tuple((shape, tuple(sorted(v))) for shape, v in sorted(groups.items()))


def _groups(arrangement: Arrangement, lead_units: Sequence[Unit]) -> tuple[tuple[Key, ...], ...]:
    """Keys per lead shape (in a fixed shape order), strongest first."""
    groups: dict[tuple[int, int], list[Key]] = {}
    for key, lead in zip(arrangement.keys, lead_units, strict=True):
        groups.setdefault(lead.shape, []).append(key)
    return tuple(tuple(sorted(groups[s], reverse=True)) for s in sorted(groups))


def largest_slots(lead_units: Sequence[Unit]) -> tuple[int, ...]:
    """The lead's largest shape (RULES §6 largest_unit): its tractors, else its
    widest tuples, else its singles — as indices into ``lead_units``."""
    if any(u.length > 1 for u in lead_units):
        return tuple(i for i, u in enumerate(lead_units) if u.length > 1)
    widest = max(u.width for u in lead_units)
    return tuple(i for i, u in enumerate(lead_units) if u.width == widest)


@dataclass(frozen=True, slots=True)
class Strength:
    """What the comparisons need of a play with the lead's structure.

    ``value``: its strongest key on the lead's largest shape (largest_unit, and
    any single-unit lead); ``highest``: its highest card (highest_card);
    ``groups``: per arrangement, its keys per lead shape, strongest first
    (all_units pairs them with the other play's, both sides sorted).
    """

    value: Key
    highest: tuple[int, int] | None  # computed for highest_card only
    groups: tuple[tuple[tuple[Key, ...], ...], ...] | None  # computed for all_units only


def strength(
    cards: Sequence[int], lead_units: Sequence[Unit], order: TrumpOrder, rules: Rules
) -> Strength | None:
    """The play's strength over this lead, or None without the lead's structure."""
    units = tuple(lead_units)
    found = arrangements(cards, units, order, rules)
    return _strength(found, cards, units, largest_slots(units), order, rules.throw_comparison)


def _strength(
    found: tuple[Arrangement, ...],
    cards: Sequence[int],
    lead_units: tuple[Unit, ...],
    largest: tuple[int, ...],
    order: TrumpOrder,
    mode: str,
) -> Strength | None:
    if not found:
        return None
    led = lead_units[0].suit
    return Strength(
        value=max(max(a.keys[i] for i in largest) for a in found),
        highest=max((1 if order.suit[c] != led else 0, order.power[c]) for c in cards)
        if mode == "highest_card"
        else None,
        groups=tuple(_groups(a, lead_units) for a in found) if mode == "all_units" else None,
    )


def _dominates(a: tuple[tuple[Key, ...], ...], b: tuple[tuple[Key, ...], ...]) -> bool:
    return all(x > y for ga, gb in zip(a, b, strict=True) for x, y in zip(ga, gb, strict=True))


def stronger(cand: Strength | None, best: Strength | None, single_unit: bool, rules: Rules) -> bool:
    """Does a play of strength ``cand`` beat one of strength ``best``?  Strictly:
    ties go to the earlier play (RULES §2, §6)."""
    if cand is None:
        return False
    if best is None:
        return True
    mode = rules.throw_comparison
    if single_unit or mode == "largest_unit":
        return cand.value > best.value
    if mode == "highest_card":
        assert cand.highest is not None and best.highest is not None
        return cand.highest > best.highest
    assert cand.groups is not None and best.groups is not None
    return any(all(_dominates(a, b) for b in best.groups) for a in cand.groups)


def beats(
    candidate: Sequence[int], best: Sequence[int], lead_units: Sequence[Unit], order: TrumpOrder, rules: Rules
) -> bool:
    """Does ``candidate`` beat ``best`` (the lead or a later play) over a lead of
    ``lead_units``?  False when ``candidate`` lacks the lead's structure or
    suit; equal strength is False (the earlier play wins).

    >>> from engine.rules import preset
    >>> from engine.trump import Trump, trump_order
    >>> from engine.cards import parse_card as p
    >>> rules = preset("two-deck")
    >>> order = trump_order(Trump(8, 1), rules)   # playing 10, hearts trump (seed 000)
    >>> cards = lambda s: [p(c) for c in s.split()]
    >>> lead = decompose(cards("5S 4S 4S"), order)
    >>> beats(cards("9H 7H 7H"), cards("5S 4S 4S"), lead, order, rules)
    True
    >>> beats(cards("8H 8H 4H"), cards("9H 7H 7H"), lead, order, rules)
    True
    >>> lead = decompose(cards("5S 6S 7S"), order)
    >>> beats(cards("8H 8H 4H"), cards("9H 7H 7H"), lead, order, rules)
    False
    """
    units = tuple(lead_units)
    return stronger(
        strength(candidate, units, order, rules), strength(best, units, order, rules), len(units) == 1, rules
    )


# --- the whole trick -----------------------------------------------------------------------


def _check(
    leader: int,
    plays: Sequence[Sequence[int]],
    order: TrumpOrder,
    rules: Rules,
    hands: Mapping[int, Sequence[int]] | None,
) -> None:
    problems: list[Problem] = []
    if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader <= 3:
        problems.append(Problem(("leader",), "the leader is a seat 0..3"))
    if not 1 <= len(plays) <= 4:
        raise InvalidInput(problems + [Problem(("plays",), f"a trick has 1 to 4 plays, not {len(plays)}")])
    lead = plays[0]
    if not lead:
        raise InvalidInput(problems + [Problem(("plays", 0), "the lead is empty")])
    problems += mixed_suit_problems(lead, order, ("plays", 0))
    for i, play in enumerate(plays[1:], start=1):
        if len(play) != len(lead):
            problems.append(
                Problem(("plays", i), f"this play has {len(play)} cards; the lead has {len(lead)}: plays are equal in size")
            )
    if problems:
        raise InvalidInput(problems)
    sets: list[tuple[tuple[str | int, ...], Sequence[int]]] = []
    if hands is not None:
        for seat, hand in hands.items():
            if seat not in range(4):
                problems.append(Problem(("hands", seat), "a seat is 0..3"))
            else:
                sets.append((("hands", seat), hand))
    seats_with_hand = set(hands or {})
    for i, play in enumerate(plays):
        if (leader + i) % 4 not in seats_with_hand:
            sets.append((("plays", i), play))
    if not within_copies(rules.decks, *(cards for _, cards in sets)):
        try:
            check_copies(sets, rules.decks)
        except InvalidInput as exc:
            problems += exc.problems
    for i, play in enumerate(plays):
        seat = (leader + i) % 4
        if hands is None or seat not in hands or in_hand(play, hands[seat]):
            continue
        left = Counter(hands[seat])
        for j, card in enumerate(play):
            if left[card] <= 0:
                problems.append(Problem(("plays", i, j), f"{card_str(card)} is not in seat {seat}'s hand"))
            left[card] -= 1
    if problems:
        raise InvalidInput(problems)


def _role(i: int, play: Sequence[int], led: int, matched: bool, order: TrumpOrder) -> str:
    if i == 0:
        return "lead"
    suits = set(map(order.suit.__getitem__, play))
    if suits == {led}:
        return "follow"
    if led != TRUMP and suits == {TRUMP} and matched:
        return "ruff"
    return "discard"


@dataclass(frozen=True, slots=True)
class _LeadWords:
    """The lead's words, built once per trick."""

    suit_en: str
    suit_zh: str
    shape_en: str
    shape_zh: str


@lru_cache(maxsize=4096)
def _lead_words(units: tuple[Unit, ...]) -> _LeadWords:
    shapes = [Shape(u.width, u.length) for u in units if u.width > 1]
    singles = sum(1 for u in units if u.width == 1)
    suit = units[0].suit
    return _LeadWords(
        suit_name(suit, "en"),
        suit_name(suit, "zh"),
        describe_pieces(shapes, singles, "en"),
        describe_pieces(shapes, singles, "zh"),
    )


def _role_reason(role: str, words: _LeadWords, throw: bool, seat: int) -> Reason:
    if role == "lead":
        return Reason(
            "trick.lead",
            f"Seat {seat} leads {words.suit_en}: {words.shape_en}" + (" (a throw)." if throw else "."),
            f"{seat}号位首家出{words.suit_zh}：{words.shape_zh}" + ("（甩牌）。" if throw else "。"),
        )
    if role == "ruff":
        return Reason(
            "trick.ruff",
            f"Trumps the {words.suit_en} lead with its structure ({words.shape_en}): a ruff.",
            f"用主牌按首家{words.suit_zh}的牌型（{words.shape_zh}）毙牌。",
        )
    if role == "discard" and words.suit_en == "trumps":
        return Reason(
            "trick.discard",
            "Not all trumps: a discard, which never wins.",
            "没有全部出主牌：垫牌，不能获胜。",
        )
    if role == "discard":
        return Reason(
            "trick.discard",
            f"Neither all {words.suit_en} nor all trumps with the lead's structure ({words.shape_en}): "
            "a discard, which never wins.",
            f"既不全是{words.suit_zh}，也不是符合首家牌型（{words.shape_zh}）的主牌：垫牌，不能获胜。",
        )
    return Reason("trick.follow", f"Follows in {words.suit_en}.", f"跟{words.suit_zh}。")


_HOW = {
    "largest_unit": ("by its largest unit", "按最大牌型比较"),
    "all_units": ("unit by unit", "逐个牌型比较"),
    "highest_card": ("by its highest card", "按最大的一张牌比较"),
}


def _compare_reason(matched: bool, won: bool, best_seat: int, words: _LeadWords, how: tuple[str, str]) -> Reason:
    if not matched:
        return Reason(
            "trick.no_structure",
            f"Lacks the lead's structure ({words.shape_en}): it cannot win.",
            f"不具备首家的牌型（{words.shape_zh}），不能获胜。",
        )
    if won:
        return Reason(
            "trick.beats",
            f"Beats the best play so far (seat {best_seat}), compared {how[0]}.",
            f"{how[1]}，大过此前最大的{best_seat}号位。",
        )
    return Reason(
        "trick.does_not_beat",
        f"Does not beat the best play so far (seat {best_seat}), compared {how[0]}; ties go to the earlier play.",
        f"{how[1]}，没有大过此前最大的{best_seat}号位（同样大小先出者为大）。",
    )


_THROW_NOT_JUDGED = Reason(
    "trick.throw_not_judged",
    "A throw: whether it stands depends on the other hands; ask /v1/throw.",
    "甩牌：能否成功取决于其他玩家的牌，请用 /v1/throw 判定。",
)


def resolve_trick(
    leader: int,
    plays: Sequence[Sequence[int]],
    order: TrumpOrder,
    rules: Rules,
    hands: Mapping[int, Sequence[int]] | None = None,
) -> TrickResult:
    """Resolve a trick: ``plays`` in playing order from ``leader`` (1 to 4 of
    them; seat of play i is ``(leader + i) % 4``).  With ``hands`` (seat →
    cards before the trick) every follow is also judged (``judge_follow``).

    Raises InvalidInput (paths ``("leader",)``, ``("plays", i[, j])``,
    ``("hands", seat[, j])``) for a leader out of range, an empty lead or one
    mixing effective suits, plays of unequal size, more copies than decks, or
    a play not in its seat's hand.

    >>> from engine.rules import preset
    >>> from engine.trump import Trump, trump_order
    >>> from engine.cards import parse_card as p
    >>> rules = preset("two-deck")
    >>> order = trump_order(Trump(8, 1), rules)   # playing 10, hearts trump
    >>> cards = lambda s: [p(c) for c in s.split()]
    >>> t = resolve_trick(0, [cards("AS KS 5S 5S 4S 4S"), cards("9H 9H 8H 8H 7H 2H"),
    ...                       cards("AS KS QS 3S 3S 2S"), cards("JH JH QH QH 3H 2H")], order, rules)
    >>> t.winner, t.points, [p.role for p in t.plays]
    (3, 30, ['lead', 'ruff', 'follow', 'ruff'])
    """
    _check(leader, plays, order, rules, hands)
    lead = tuple(plays[0])
    lead_units = decompose(lead, order)
    led = lead_units[0].suit
    words = _lead_words(lead_units)
    single = len(lead_units) == 1
    how = _HOW[rules.throw_comparison if not single else "largest_unit"]
    found = [arrangements(p, lead_units, order, rules) for p in plays]
    largest = largest_slots(lead_units)
    mode = rules.throw_comparison
    powers = [_strength(f, p, lead_units, largest, order, mode) for f, p in zip(found, plays, strict=True)]
    best = 0
    verdicts: list[PlayVerdict] = []
    for i, play in enumerate(plays):
        seat = (leader + i) % 4
        role = _role(i, play, led, bool(found[i]), order)
        reasons = [_role_reason(role, words, not single, seat)]
        won = False
        if i > 0 and role in ("follow", "ruff"):
            won = stronger(powers[i], powers[best], single, rules)
            reasons.append(_compare_reason(bool(found[i]), won, (leader + best) % 4, words, how))
        legal: bool | None = None
        follow: FollowVerdict | None = None
        if hands is not None and seat in hands:
            if i == 0:
                if single:
                    legal = True
                else:
                    reasons.append(_THROW_NOT_JUDGED)
            else:
                follow = judge_checked(lead, tuple(hands[seat]), tuple(play), order, rules, lead_units)  # _check did
                legal = follow.legal
                reasons += follow.reasons
        verdicts.append(
            PlayVerdict(
                seat=seat,
                cards=tuple(order.sorted(play)),
                role=role,
                beats_previous_best=won,
                legal=legal,
                reasons=tuple(reasons),
                units=_strongest(found[i], largest),
                follow=follow,
            )
        )
        if won:
            best = i
    return TrickResult(
        leader=leader,
        suit=led,
        lead_units=lead_units,
        winner=(leader + best) % 4,
        points=sum(map(_POINTS.__getitem__, chain.from_iterable(plays))),
        plays=tuple(verdicts),
    )


def _strongest(found: tuple[Arrangement, ...], largest: tuple[int, ...]) -> tuple[Unit, ...] | None:
    if not found:
        return None
    if len(found) == 1:
        return found[0].units
    return max(found, key=lambda a: (max(a.keys[i] for i in largest), sorted(a.keys, reverse=True))).units
