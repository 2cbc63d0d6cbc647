"""Frying the kitty 炒底 (docs/rules.md §9, option ``kitty_fry``).

Seed 002 炒底規則: "待莊家扣底牌之後，要按出牌順序依次詢問其他玩家是否抄底牌。抄底牌的玩家
需按照“反主級別”的大小順序亮出比當前級別高的牌，可以拿起底牌進行重新扣底，並且視同“反主”。
抄底牌不限次數。" — "玩家自己亮的主，而別人都沒有人反主的情況下，不能亮主的人自己反主炒底，
俗稱不能自反。如果有其他玩家反主炒底，在其後一輪他可以炒底。" — "若是翻底亮主的，不允許炒底。"

**The fry ladder** (seed 002 抄底牌條件: "單張10<對方塊10<對梅花10<對紅桃10<對黑桃10<
對小王<對大王<四個王"), weakest first: a single level card; a pair of level cards in
♦, ♣, ♥, ♠; a pair of small jokers; a pair of big jokers; four jokers.  Joker pairs
make no-trump; with four jokers the frier names no-trump or any suit ("用四個王炒時，
可選擇打無主、或指定任意花色作主牌").

Decisions where the seed leaves room (each applied by the code below):

* "四個王" names no kind: any four jokers, small and big mixed or not, are the top
  step, and the fry must name its trump (``names``).  Naming a trump with any other
  fry is bad input, as is four jokers without a name.
* A fry shows one ladder step; anything else that is still a bid (three level cards,
  three jokers, four level cards, a single joker) is refused (``fry.not_on_ladder``).
  Cards that are no bid at all (not level cards or jokers, mixed cards) are bad input.
* The declaration standing when frying starts is placed on the fry ladder by its
  cards; one the fry ladder has no step for (three or four level cards, three
  jokers) sits just below four jokers: only four jokers fry it.  Four jokers of one
  kind are the four-joker step: nothing fries them.
* **Turns.** The kitty holder (first the dealer) is not asked; the three others are,
  in play order from the holder's next seat (seat + 1), round after round.  The fries
  list only the attempts, in order: the seats a listed attempt skips passed.  An
  attempt, allowed or refused, is its seat's turn; a refused one is a pass.  A
  successful fry makes its seat the holder and starts a new round from its next
  seat.  Once three turns in a row have passed (a whole round), frying is over and
  later attempts are refused (``fry.over``).  An attempt by the holder itself is
  refused without using a turn (``fry.holds_kitty``).
* The seat whose declaration stands — the bid that won the bidding, or the last fry —
  may not fry (``fry.own_declaration``): that would be overturning itself (不能自反).
  Once another seat has fried, it may fry again in a later round.
* Trump named by turning the kitty (nobody bid): every attempt is refused
  (``fry.kitty_turned``) and the dealer keeps the kitty.
* Copies are checked within each fry only (at most ``decks`` of a card): a fry buries
  the kitty again, so cards move between a hand and the kitty between fries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.bidding import SUIT_PRECEDENCE, Bid, bid_step, check_bid_cards, declared_trump
from engine.cards import BIG_JOKER, JOKERS, SMALL_JOKER, rank_of, suit_of
from engine.errors import InvalidInput, Problem
from engine.reasons import Cards, Reason, Seat, Step, reason
from engine.rules import Rules
from engine.trump import Trump

SEATS = 4
NO_TRUMP = 4
"""``Fry.names`` for four jokers naming no-trump (0..3 name a suit)."""

FRY_LADDER_SIZE = 8  # four jokers are the top step
_ABOVE_THE_PAIRS = 7.5  # a standing bid the fry ladder has no step for (docs above)


@dataclass(frozen=True, slots=True)
class Fry:
    """One fry attempt: ``seat`` shows ``cards``; ``names`` is the trump four jokers
    name (a suit 0..3, or NO_TRUMP), None for any other fry."""

    seat: int
    cards: tuple[int, ...]
    names: int | None = None


@dataclass(frozen=True, slots=True)
class FryStep:
    """A rung of the fry ladder: ``rank`` 1 (weakest) .. 8 (four jokers)."""

    rank: int
    step: Step

    def as_json(self) -> dict[str, int]:
        return {"rank": self.rank, "of": FRY_LADDER_SIZE}


@dataclass(frozen=True, slots=True)
class FryVerdict:
    """The verdict on one attempt, and what stands after it (the holder of the
    kitty, the declaring seat and the trump)."""

    fry: Fry
    valid: bool
    reason: Reason
    step: FryStep | None
    kitty_holder: int
    declarer: int | None
    trump: Trump


@dataclass(frozen=True, slots=True)
class FrySequence:
    """A whole fry sequence judged: one verdict per attempt, then who holds the
    kitty, whose declaration stands (None: trump came from the turned kitty) and
    the trump at the end."""

    steps: tuple[FryVerdict, ...]
    kitty_holder: int
    declarer: int | None
    declaration: tuple[int, ...]
    trump: Trump
    reason: Reason


def fry_step(trump_level: int, cards: Sequence[int]) -> FryStep | None:
    """The fry-ladder step of well-formed bid cards, None when the ladder has none.

    >>> from engine.cards import parse_card as c
    >>> [fry_step(8, [c(x) for x in cards]).rank for cards in (["10S"], ["10C", "10C"], ["SJ", "SJ"])]
    [1, 3, 6]
    >>> fry_step(8, [c("SJ"), c("BJ"), c("SJ"), c("BJ")]).step
    Step(count=4, joker='any', suit=None)
    >>> fry_step(8, [c("10S")] * 3) is None
    True
    """
    n = len(cards)
    if n == 4 and all(card in JOKERS for card in cards):
        return FryStep(FRY_LADDER_SIZE, Step(4, "any"))
    first = cards[0]
    if n == 1 and first not in JOKERS and rank_of(first) == trump_level:
        return FryStep(1, bid_step(1, None, None))
    if n != 2 or cards[1] != first:
        return None
    if first in JOKERS:
        rank = 6 if first == SMALL_JOKER else 7
        return FryStep(rank, bid_step(2, first, None))
    suit = suit_of(first)
    return FryStep(2 + SUIT_PRECEDENCE.index(suit), bid_step(2, None, suit))


def _check(rules: Rules, trump_level: int, fries: Sequence[Fry]) -> list[Problem]:
    problems: list[Problem] = []
    for i, fry in enumerate(fries):
        path: tuple[str | int, ...] = ("fries", i, "cards")
        jokers = len(fry.cards) == 4 and all(card in JOKERS for card in fry.cards)
        if not jokers:
            problems += check_bid_cards(rules, trump_level, fry.cards, path)
        elif max(fry.cards.count(SMALL_JOKER), fry.cards.count(BIG_JOKER)) > rules.decks:
            excess = f"{rules.decks} deck(s) hold only {rules.decks} jokers of each kind"
            problems.append(Problem(path, excess, code="too_many_copies"))
        if jokers and fry.names is None:
            names = "a fry with four jokers names the trump: no-trump (NT) or a suit (seed 002 "
            names += "用四個王炒時，可選擇打無主、或指定任意花色作主牌)"
            problems.append(Problem(("fries", i, "names"), names, code="missing_field"))
        elif not jokers and fry.names is not None:
            names = "only a fry with four jokers names its trump; other fries make trump of the cards shown"
            problems.append(Problem(("fries", i, "names"), names, code="inconsistent_input"))
    return problems


def fry_dealer(standing: Bid | None, dealer: int | None, first_hand: bool | None) -> int:
    """Who buried the kitty first, for a fry sequence: the ``dealer`` sent, or in the
    first hand of a game the seat whose bid stands (seed 002: "第一局的莊家由亮主方擔任，
    如果有人“反主”，則由“反主”的玩家坐莊").  Raises InvalidInput at ``dealer`` when it
    is missing or contradicts the first hand's rule."""
    if first_hand and standing is not None:
        if dealer is not None and dealer != standing.seat:
            deals = f"in the first hand of a game the player whose bid stands deals: seat {standing.seat}, "
            deals += f"not {dealer}"
            raise InvalidInput(Problem(("dealer",), deals, code="inconsistent_input"))
        return standing.seat
    if dealer is None:
        send = "frying goes round from the dealer's next seat: send dealer"
        raise InvalidInput(Problem(("dealer",), send, code="missing_field"))
    return dealer


def judge_fries(
    rules: Rules, trump_level: int, dealer: int, standing: Bid | None, trump: Trump, fries: Sequence[Fry]
) -> FrySequence:
    """Judge a whole fry sequence after the dealer buried the kitty (docs/rules.md §9).

    ``standing`` is the declaration that won the bidding (None when trump came from
    turning the kitty) and ``trump`` the trump it made.  Raises InvalidInput at
    ``fries`` when the rules have no ``kitty_fry``, and at ``fries/i/...`` for
    attempts that are no bid at all or name a trump wrongly.

    >>> from engine.cards import parse_card as c
    >>> from engine.rules import preset
    >>> from engine.trump import Trump
    >>> seq = judge_fries(preset("four-deck-cgc"), 8, 0, Bid(0, (c("10H"),)), Trump(8, 1),
    ...                   [Fry(2, (c("10S"), c("10S"))), Fry(0, (c("SJ"), c("SJ")))])
    >>> [s.reason.code for s in seq.steps], seq.kitty_holder, seq.trump.as_json()
    (['fry.fries', 'fry.fries'], 0, {'level': '10', 'suit': None})
    """
    if not rules.kitty_fry:
        off = "these rules do not fry the kitty (kitty_fry is off; it is on in four-deck-cgc)"
        raise InvalidInput(Problem(("fries",), off, code="kitty_fry_not_allowed"))
    problems = _check(rules, trump_level, fries)
    if problems:
        raise InvalidInput(problems)

    holder = dealer
    declarer = None if standing is None else standing.seat
    declaration: tuple[int, ...] = () if standing is None else standing.cards
    standing_step = None if standing is None else fry_step(trump_level, declaration)
    rank = 0.0 if standing is None else _ABOVE_THE_PAIRS if standing_step is None else standing_step.rank
    turn = (holder + 1) % SEATS  # the next seat to be asked
    passes = 0  # turns in a row without a fry
    steps: list[FryVerdict] = []
    for fry in fries:
        seat, shows = fry.seat, Cards(tuple(fry.cards))
        step = fry_step(trump_level, fry.cards)
        valid = False
        if standing is None:
            why = reason("fry.kitty_turned")
        elif seat == holder:
            why = reason("fry.holds_kitty", seat=Seat(seat))
        else:
            while turn != seat:  # the seats in between passed
                if turn != holder:
                    passes += 1
                turn = (turn + 1) % SEATS
            if passes >= SEATS - 1:
                why = reason("fry.over", seat=Seat(seat))
            elif seat == declarer:
                why = reason("fry.own_declaration", seat=Seat(seat))
            elif step is None:
                why = reason("fry.not_on_ladder", cards=shows)
            elif step.rank <= rank:
                why = reason(
                    "fry.equal_strength" if step.rank == rank else "fry.weaker", step=step.step, cards=shows,
                    declarer=Seat(declarer or 0), declaration=Cards(tuple(declaration)),
                )
            else:
                valid = True
                before = declarer
                if fry.names is None:
                    trump = declared_trump(trump_level, fry.cards)
                else:
                    trump = Trump(trump_level, None if fry.names == NO_TRUMP else fry.names)
                holder, declarer, declaration, rank, passes = seat, seat, fry.cards, step.rank, 0
                why = reason(
                    "fry.fries", seat=Seat(seat), step=step.step, cards=shows, declarer=Seat(before or 0), trump=trump
                )
            if not valid:
                passes += 1
            turn = (seat + 1) % SEATS
            if turn == holder:
                turn = (turn + 1) % SEATS
        steps.append(FryVerdict(fry, valid, why, step, holder, declarer, trump))
    if standing is None:
        end = reason("fry.none", seat=Seat(holder), trump=trump)
    else:
        end = reason(
            "fry.ends", seat=Seat(holder), declarer=Seat(declarer or 0), declaration=Cards(tuple(declaration)),
            trump=trump,
        )
    return FrySequence(tuple(steps), holder, declarer, declaration, trump, end)
