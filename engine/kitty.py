"""The kitty 底牌 at the end of a hand: the 抠底 multiplier (docs/rules.md §7).

When the side that wins the last trick may dig (抠底), the kitty's points are
multiplied by a factor that the *last trick's lead* decides, and moved to that
side.  Option ``kitty_multiplier`` picks the formula:

* ``power_of_two`` (seed 001 second rule, seed 004): 2^k, k = cards in the
  largest unit of the lead (a throw counts its largest unit), capped by
  ``kitty_cap``: single 2, pair 4, triple 8, 4455 16, 445566 / 444555 64.
* ``linear`` (seed 001 first rule): 2 × cards of the largest unit.
* ``flat`` (jding92/shengji-online): a tractor anywhere in the lead ×8, else a
  tuple ×4, else ×2.
* ``lianzhong`` (seed 003 扣底): a triple tractor of length L 2·3^L (and no
  other shape counts), else a triple 6, else a pair tractor 2·2^L, else a
  pair 4, else 2.
* ``cgc`` (seed 002 摳底): 2^width of the largest unit, only when the last
  trick was won with trumps; 副牌扣底不翻倍 (won in a plain suit) → ×1.
* ``transfer`` (seed 000 四副, seed 002 §胜负判断 3): no kitty multiplier; the
  side that wins the last trick takes the other side's captured points × k,
  k = cards in the largest unit of the lead (每多抓一张多乘1).

``kitty_dig_by_dealer`` (seed 002, seed 000 四副): the dealer side digs too; what
it digs counts against the defenders, whose points may go below zero.  In
``transfer`` both sides always dig.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from msgspec import Struct

from engine.cards import check_copies, total_points, within_copies
from engine.errors import InvalidInput, Problem
from engine.lead import lead_of
from engine.levels import DEALER, DEFENDERS
from engine.reasons import SEAT_FACTS, Cards, Param, Reason, Seat, Side, reason
from engine.rules import KittyMultiplier, Rules
from engine.shapes import Shape
from engine.trick import check_trick, trick_winner
from engine.trump import TRUMP, Trump, TrumpOrder, trump_order
from engine.units import Unit

NONE = "none"

# A multiplier beyond this could not be reported exactly to every JSON client
# (2^53 is the largest integer a double holds); only a huge ``kitty_cap`` gets there.
MAX_MULTIPLIER = 2**40


@dataclass(frozen=True, slots=True)
class Transfer:
    """What moves under the ``transfer`` kind (seed 000 四副): ``amount`` = ``points`` (the
    captured points of the side that lost the last trick) × ``multiplier``, from
    ``from_side`` to ``to_side``."""

    from_side: str
    to_side: str
    points: int
    multiplier: int
    amount: int


class KittyResult(Struct, frozen=True, gc=False):
    """The verdict on the kitty.

    ``awarded`` points go ``to`` ``"defenders"``, ``"dealer"`` or ``"none"``
    (``awarded`` is 0 exactly when ``to`` is ``"none"``).  Except for
    ``transfer``, ``awarded`` = ``multiplier`` × ``kitty_points``; the multiplier
    is 0 when the winning side may not dig.  ``won_with_trumps`` is None when
    neither given nor implied by a trump lead.  ``unit`` is the unit of the last
    lead that set the multiplier (None when none did).  ``defender_points_after``
    is the defenders' score after the adjustment, when their score was given.
    A frozen ``msgspec.Struct``, as the reasons (``engine.reasons``): built in C.
    """

    kind: KittyMultiplier
    multiplier: int
    kitty_points: int
    awarded: int
    to: str
    winner: int
    winner_side: str
    won_with_trumps: bool | None
    unit: Unit | None
    lead_units: tuple[Unit, ...]
    transfer: Transfer | None
    defender_points_after: int | None
    reasons: tuple[Reason, ...]


def side_of(seat: int, dealer: int) -> str:
    """``"dealer"`` for the dealer and the dealer's partner, else ``"defenders"``."""
    return DEALER if seat % 2 == dealer % 2 else DEFENDERS


def played_with_trumps(play: Sequence[int], order: TrumpOrder) -> bool:
    """True iff the winning play of a trick is all trumps (seed 002 用主牌扣底)."""
    return bool(play) and all(order.suit[c] == TRUMP for c in play)


# seed 003 扣底: the first of these shapes the lead holds decides, nothing else counts
# (a quad counts as a triple, as it contains one): (form, width, length) at least,
# and the multiplier 2 × width^length of the longest such unit.
_LIANZHONG = (
    ("triple_tractor", 3, 2), ("triple", 3, 1), ("pair_tractor", 2, 2), ("pair", 2, 1), ("singles", 1, 1),
)


def _unit_reason(code: str, unit: Unit, form: str = "", **params: Param) -> Reason:
    """A multiplier's reason naming the unit that set it (its shape, cards and length)."""
    return reason(
        code, form, shape=Shape(unit.width, unit.length), cards=Cards(unit.cards), length=unit.length,
        size=unit.size, width=unit.width, **params,
    )


@lru_cache(maxsize=1024)
def _kitty_multiplier(
    units: tuple[Unit, ...], kind: KittyMultiplier, cap: int, trumps: bool
) -> tuple[int, Unit | None, tuple[Reason, ...]]:
    """The multiplier the last lead's ``units`` give under option
    ``kitty_multiplier`` = ``kind`` and ``kitty_cap`` = ``cap``, the unit that
    set it and the reasons; ``trumps``: the last trick was won with trumps (only
    ``cgc`` reads it).  For ``transfer`` the multiplier is the k applied to the
    losing side's points.  Cached by value: last leads recur from hand to hand.

    >>> from engine.cards import parse_card
    >>> from engine.rules import preset
    >>> from engine.units import decompose
    >>> order = trump_order(Trump(0, 1), preset("two-deck"))
    >>> lead = decompose([parse_card(c) for c in "4S 4S 5S 5S".split()], order)
    >>> _kitty_multiplier(lead, KittyMultiplier.POWER_OF_TWO, preset("two-deck").kitty_cap, False)[0]
    16
    """
    largest = units[0]  # decompose takes the largest unit first (docs/rules.md §4)
    code = f"kitty.multiplier.{kind}"
    if kind == KittyMultiplier.LIANZHONG:
        for form, width, length in _LIANZHONG:
            found = [u for u in units if u.width >= width and u.length >= length]
            if found:
                unit = max(found, key=lambda u: u.length)
                m = 2 * width**unit.length
                return m, unit, (_unit_reason(code, unit, form, n=m),)
    if kind == KittyMultiplier.POWER_OF_TWO:
        full = 2**largest.size
        why = _unit_reason(code, largest, n=full)
        if cap < full:
            return cap, largest, (why, reason("kitty.multiplier.capped", n=cap))
        return full, largest, (why,)
    if kind == KittyMultiplier.FLAT:
        unit = next((u for u in units if u.length > 1), None) or next((u for u in units if u.width > 1), largest)
        m = 8 if unit.length > 1 else 4 if unit.width > 1 else 2
        form = "tractor" if m == 8 else "tuple" if m == 4 else "singles"
        return m, unit, (_unit_reason(code, unit, form, n=m),)
    if kind == KittyMultiplier.CGC and not trumps:
        return 1, None, (reason("kitty.multiplier.cgc_plain_suit", n=1),)
    m = {
        KittyMultiplier.LINEAR: 2 * largest.size, KittyMultiplier.CGC: 2**largest.width,
        KittyMultiplier.TRANSFER: largest.size,
    }[kind]
    return m, largest, (_unit_reason(code, largest, n=m),)


class Kitty(Struct, frozen=True, gc=False):
    """The end of a hand to judge, its input checked: the last trick's lead
    (``units``), its ``winner``, whether it was won with trumps (True whenever
    the lead was in trumps; None when not known), the ``kitty`` and the
    defenders' points before the adjustment (None when not given).  A frozen
    ``msgspec.Struct``, as the reasons (``engine.reasons``): built in C."""

    rules: Rules
    dealer: int
    winner: int
    kitty: Sequence[int]
    defender_points: int | None
    won_with_trumps: bool | None
    units: tuple[Unit, ...]


def check_kitty(
    rules: Rules, trump: Trump, dealer: int, last_lead: Sequence[int], winner: int, kitty: Sequence[int] = (),
    *, defender_points: int | None = None, won_with_trumps: bool | None = None,
    lead_path: tuple[str | int, ...] = ("last_lead",),
) -> Kitty:
    """The ``Kitty`` to judge from the last trick's lead and its winner.

    ``defender_points`` are the defenders' points before the kitty adjustment
    (needed by ``transfer``; when given, ``defender_points_after`` is filled).
    ``won_with_trumps`` says the winning play was all trumps; ``cgc`` needs it
    unless the lead itself is in trumps (then it is true).  Errors carry paths
    named like the request fields (``kitty``, ``defender_points``, ...; the lead
    at ``lead_path``).
    """
    copies = [(("kitty",), kitty), (lead_path, last_lead)]
    return _checked(
        rules, trump_order(trump, rules), dealer, last_lead, winner, kitty, defender_points, lead_path,
        won_with_trumps, copies=copies,
    )


def kitty_result(kitty: Kitty) -> KittyResult:
    """The kitty verdict (docs/rules.md §7): the one entry point of the rule
    (the service and the audit call it).

    >>> from engine.rules import preset
    >>> from engine.cards import parse_card
    >>> r = kitty_result(check_kitty(preset("two-deck"), Trump(0, 1), 0, [parse_card("7S")] * 2, 1,
    ...                              [parse_card(c) for c in "KS 10D 5C 3C 4C 6C 7C 8C".split()]))
    >>> (r.multiplier, r.kitty_points, r.awarded, r.to)
    (4, 25, 100, 'defenders')
    """
    rules, dealer, winner, units = kitty.rules, kitty.dealer, kitty.winner, kitty.units
    defender_points, trumps = kitty.defender_points, kitty.won_with_trumps
    kind = rules.kitty_multiplier
    kitty_pts = total_points(kitty.kitty)
    winner_side = side_of(winner, dealer)
    multiplier, unit, found = _kitty_multiplier(units, kind, rules.kitty_cap, bool(trumps))
    reasons = list(found)
    if multiplier > MAX_MULTIPLIER:
        too_large = f"a multiplier of {multiplier} is too large to report; lower kitty_cap"
        raise InvalidInput(Problem(("rules", "kitty_cap"), too_large, code="multiplier_too_large"))
    if kind == KittyMultiplier.TRANSFER:
        return _transfer(kitty, winner_side, unit, multiplier, kitty_pts, reasons)
    if winner_side == DEFENDERS or rules.kitty_dig_by_dealer:
        dug = "kitty.dug_by_defenders" if winner_side == DEFENDERS else "kitty.dug_by_dealer"
        reasons.insert(0, Reason(dug, (("seat", SEAT_FACTS[winner]),)))
    else:
        multiplier, unit, reasons = 0, None, [Reason("kitty.kept_by_dealer", (("seat", SEAT_FACTS[winner]),))]
    awarded = multiplier * kitty_pts
    to = winner_side if awarded else NONE
    after = None
    if defender_points is not None:
        after = defender_points + (awarded if winner_side == DEFENDERS else -awarded)
    return KittyResult(
        kind, multiplier, kitty_pts, awarded, to, winner, winner_side, trumps, unit, units, None, after,
        tuple(reasons),
    )


def _checked(
    rules: Rules, order: TrumpOrder, dealer: int, last_lead: Sequence[int], winner: int, kitty: Sequence[int],
    defender_points: int | None, lead_path: tuple[str | int, ...], won_with_trumps: bool | None,
    units: tuple[Unit, ...] | None = None, copies: Sequence[tuple[tuple[str | int, ...], Sequence[int]]] = (),
) -> Kitty:
    """The ``Kitty`` with its input checked: every problem but the copies of each
    card at once, then the copies in ``copies``, then whether the trick was won
    with trumps against the lead (``units``: the last lead's, when the caller has
    already decomposed it, and so checked it: not empty, one effective suit)."""
    problems: list[Problem] = []
    for name, seat in (("dealer", dealer), ("winner", winner)):
        if not 0 <= seat <= 3:
            problems.append(Problem((name,), "a seat is an integer 0..3", code="invalid_seat"))
    if len(kitty) > rules.kitty_size:
        cards = f"{rules.kitty_size} card{'s' if rules.kitty_size != 1 else ''}"
        size = f"the kitty holds {cards} under these rules; got {len(kitty)}"
        problems.append(Problem(("kitty",), size, code="wrong_kitty_size"))
    if defender_points is not None and defender_points % 5:
        multiple = f"points come in multiples of 5; got {defender_points}"
        problems.append(Problem(("defender_points",), multiple, code="invalid_points"))
    if units is None:  # a lead the caller has decomposed is not empty and of one effective suit
        if not last_lead:
            problems.append(Problem(lead_path, "the last lead has no cards", code="empty_lead"))
        elif len({order.suit[c] for c in last_lead}) != 1:
            mixed = "the last lead mixes effective suits; a lead is of one suit (or all trumps)"
            problems.append(Problem(lead_path, mixed, code="mixed_suit_lead"))
    if problems:
        raise InvalidInput(problems)
    if copies:
        check_copies(copies, rules.decks)
    trumps = won_with_trumps
    if order.suit[last_lead[0]] == TRUMP:
        if won_with_trumps is False:
            raise InvalidInput(Problem(
                ("won_with_trumps",), "the last lead was in trumps, so the trick was won with trumps",
                code="inconsistent_input",
            ))
        trumps = True
    if trumps is None and rules.kitty_multiplier == KittyMultiplier.CGC:
        raise InvalidInput(Problem(
            ("won_with_trumps",),
            "the cgc kitty rule doubles only a kitty dug with trumps: say whether the last trick "
            "was won with trumps (or send the whole last_trick)",
            code="missing_field",
        ))
    if units is None:
        units = lead_of(tuple(sorted(last_lead)), order, rules.follow_patterns).units
    return Kitty(rules, dealer, winner, kitty, defender_points, trumps, units)


def _transfer(
    kitty: Kitty, winner_side: str, unit: Unit | None, k: int, kitty_pts: int, found: list[Reason]
) -> KittyResult:
    """Seed 000 四副 / seed 002 §胜负判断 3: the last trick's winner takes the other
    side's points × k; the dealer side's points are the total less the
    defenders' and the kitty's."""
    rules, defender_points = kitty.rules, kitty.defender_points
    if defender_points is None:
        raise InvalidInput(Problem(
            ("defender_points",),
            "the transfer kitty rule moves the losing side's points: send defender_points "
            "(the defenders' points before the last trick's adjustment)",
            code="missing_field",
        ))
    available = rules.total_points - kitty_pts
    if not 0 <= defender_points <= available:
        raise InvalidInput(Problem(
            ("defender_points",),
            f"before the adjustment the defenders hold between 0 and {available} points "
            f"({rules.total_points} in play less {kitty_pts} in the kitty); got {defender_points}",
            code="invalid_points",
        ))
    if winner_side == DEFENDERS:
        base, loser = available - defender_points, DEALER
    else:
        base, loser = defender_points, DEFENDERS
    amount = base * k
    after = defender_points + amount if winner_side == DEFENDERS else defender_points - amount
    side, lost = Side(winner_side), Side(loser)
    why = reason("kitty.transfer", seat=Seat(kitty.winner), side=side, loser=lost, points=base, k=k, n=amount)
    transfer = Transfer(loser, winner_side, base, k, amount)
    to = winner_side if amount else NONE
    return KittyResult(
        KittyMultiplier.TRANSFER, k, kitty_pts, amount, to, kitty.winner, winner_side, kitty.won_with_trumps, unit,
        kitty.units, transfer, after, (why, *found),
    )


def check_kitty_trick(
    rules: Rules, trump: Trump, dealer: int, leader: int, plays: Sequence[Sequence[int]],
    kitty: Sequence[int] = (), *, defender_points: int | None = None,
) -> Kitty:
    """The ``Kitty`` to judge from the whole last trick (plays in playing order from
    ``leader``): the trick engine names the winner and whether it won with trumps
    (``trick_winner``); the copies of each card are
    counted once, across the kitty and the trick.  Error paths are relative to the
    request root (``last_trick/plays/i/j``)."""
    order = trump_order(trump, rules)
    if not within_copies(rules.decks, kitty, *plays):
        played = [(("last_trick", "plays", i), p) for i, p in enumerate(plays)]
        check_copies([(("kitty",), kitty), *played], rules.decks)
    try:
        winner, lead_units, trumps = trick_winner(check_trick(leader, plays, order, rules, copies=False))
    except InvalidInput as exc:
        raise exc.under("last_trick") from None
    return _checked(
        rules, order, dealer, plays[0], winner, kitty, defender_points, ("last_trick", "plays", 0), trumps, lead_units,
    )
