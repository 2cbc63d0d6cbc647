"""Bidding 亮主 / 反主: is a declaration allowed, and what does it make trump (docs/rules.md §9).

Sources: seed 001 报牌规则 (the ladder up to four big jokers), seed 000 亮牌規則
(two decks: 反无主, 自保, 反主, 自反; "若發牌結束仍無人亮牌，則打無主"), seed 000
三副牌 亮主規則 ("搶亮": nobody may show a bid of the same or a lower step), seed 000
四副牌 (自反 not allowed; nobody bid → spades), seed 002 叫主 / 亮主 ("亮無主只能是
四張王才能亮") / 叫牌花色 / 自反 / 抄底牌條件 ("單張10 < 對方塊10 < 對梅花10 < 對紅桃10 <
對黑桃10 < 對小王 < 對大王 < 四個王") and 發完牌后如果沒人亮主 (the turned kitty names
trump).

**The ladder**, weakest first: single level card; pair of level cards; pair of small
jokers; pair of big jokers; three level cards; three small jokers; three big jokers;
four level cards; four small jokers; four big jokers (seed 002 叫牌花色: "單張3，對3，
對王，三張3，三張王，四張3，四張王，（同級別大王>小王）").  A step exists only when the
game has enough decks for that many identical cards, and a joker step only when it
has at least ``no_trump_overturn_min_jokers`` jokers; a joker step below
``no_trump_bid_min_jokers`` may only overturn a standing bid, never open (seed 002:
"亮無主只能是四張王才能亮", yet 對王 and 三張王 sit on its overturn ladder).  With ``bid_suit_precedence`` (seed
002) the level-card steps of two or more cards split into one step per suit, D < C <
H < S.  ``ladder(rules)`` lists the steps; a bid's ``Strength`` is its step, and
``Strength.rank`` (1 = weakest) alone orders bids.

Decisions where the seeds and docs/rules.md leave room (each applied by the code below):

* A bid shows copies of **one** card: level cards of one suit, or jokers of one kind.
  Anything else — a card neither of the level rank nor a joker (a constant-trump 2 is
  not a level card), level cards of two suits, small and big jokers together, level
  cards with jokers, more copies than decks — is not a bid at all: InvalidInput (422).
* A joker bid makes **no-trump** (打无主) at the current level.  Seed 002's "用四個王
  炒時，可選擇…指定任意花色" (four jokers may name any suit when re-burying the kitty) is
  not modelled: four jokers make no-trump here too.
* A single joker never bids (``bid.single_joker``); a joker bid with fewer than
  ``no_trump_overturn_min_jokers`` jokers is refused (``bid.too_few_jokers``), and so
  is one with fewer than ``no_trump_bid_min_jokers`` when no bid stands (it can only
  overturn).  Both are verdicts (valid = false), not bad input: the cards exist, they
  just cannot bid.
* Equal strength → the first stands (``bid.equal_strength``).  Without
  ``bid_suit_precedence`` two bids of the same count of level cards in different
  suits are equal, so the later one is refused; a single level card never has suit
  precedence (docs/rules.md §9: "bids of two or more cards").
* A bid by the seat whose bid stands is a **reinforcement** (自保, ``self_reinforce``)
  when it makes the same trump — the same suit, or no-trump again (two small jokers
  then two big jokers) — and a **self-overturn** (自反, ``self_overturn``) when it
  changes the trump.  Either must still be strictly stronger.  The option check comes
  first: a forbidden self-bid is refused as forbidden, whatever its strength.
* A reinforcing bid lists all the cards it shows (standing 10H, reinforced with 10H
  10H), so a seat's copies are counted on its largest bid; across seats the cards
  shown (each seat's largest showing of a card, plus the kitty) cannot exceed
  ``decks`` copies of one card, else InvalidInput.
* ``resolve_bids``: an invalid step leaves the standing bid unchanged and the
  sequence goes on; the first invalid step is named.
* ``kitty_first_card`` fallback (seed 002): the first level card in the kitty in the
  order given (the order it is turned) names the suit; without one, the first card's
  suit; a joker first means no-trump.  Without a kitty to turn (none given, or the
  rules have ``kitty_size`` 0) the fallback cannot be applied: InvalidInput at
  ``kitty``.  A kitty that is given must hold exactly ``kitty_size`` cards.
* ``no_bid_first_hand`` ``redeal`` (seed 002 "若是第一局無人亮主則重新發牌"): when
  nobody bid validly in the first hand of a game, the answer is a redeal and no
  trump.  Whether the hand is the first is the caller's to say (``first_hand``); when
  it matters and is not said, InvalidInput at ``first_hand`` (never a guess).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from msgspec import Struct

from engine.cards import (
    BIG_JOKER,
    JOKERS,
    KINDS,
    RANKS,
    SMALL_JOKER,
    card_str,
    check_copies,
    rank_of,
    suit_of,
)
from engine.errors import InvalidInput, Problem
from engine.reasons import SEAT_FACTS, Cards, Reason, Step, reason
from engine.rules import NoBidFallback, NoBidFirstHand, Rules
from engine.trump import Trump

Path = tuple[str | int, ...]

# bid_suit_precedence (seed 002 抄底牌條件): D < C < H < S, weakest first.
SUIT_PRECEDENCE: tuple[int, ...] = (3, 2, 1, 0)


class Bid(Struct, frozen=True, gc=False):
    """A declaration: the cards ``seat`` shows (copies of one card).  A frozen
    ``msgspec.Struct``, as ``BidVerdict`` (built in C, one per bid of a request;
    its ``__post_init__`` runs on every construction: msgspec's documented
    post-init processing)."""

    seat: int
    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        if not 0 <= self.seat < len(SEAT_FACTS):  # SEAT_FACTS[-1] would name seat 3
            raise ValueError(f"a bid's seat is 0..3, not {self.seat}")


class Strength(Struct, frozen=True, gc=False, cache_hash=True):
    """One step of a rule set's bidding ladder (docs/rules.md §9): ``rank`` of ``of``
    (1 = weakest), ``count`` copies of a level card (of ``suit`` where suits rank
    apart) or of the ``joker`` (SMALL_JOKER/BIG_JOKER: no-trump); ``step`` as
    reasons name it.  A frozen ``msgspec.Struct`` built once per ladder
    (``_ladder``), its hash kept on it (msgspec's documented ``cache_hash`` option):
    the service's written steps are keyed on it."""

    rank: int
    of: int
    count: int
    joker: int | None
    suit: int | None
    step: Step

    def as_json(self) -> dict[str, int]:
        return {"rank": self.rank, "of": self.of}


def bid_step(count: int, joker: int | None, suit: int | None) -> Step:
    """A ladder step (as ``Strength`` describes it) as reasons name it."""
    return Step(count, None if joker is None else "small" if joker == SMALL_JOKER else "big", suit)


class BidVerdict(Struct, frozen=True, gc=False):
    """The verdict on one bid (docs/api.md ``/v1/bid``).

    ``declares``: the trump the bid names (None when its cards are not on the
    ladder); ``strength``: its step (None likewise).  ``standing`` and ``trump``
    are what stands after the bid: the bid itself when valid, else the previous
    standing bid (None when nothing stands yet).  A frozen ``msgspec.Struct``, as
    the reasons (``engine.reasons``): one is built per bid, in C; it is equal only
    to a record of its own type.
    """

    bid: Bid
    valid: bool
    reason: Reason
    strength: Strength | None
    declares: Trump | None
    standing: Bid | None
    trump: Trump | None


class BidSequence(Struct, frozen=True, gc=False):
    """A whole declaration sequence resolved (docs/api.md ``/v1/bid/resolve``).

    ``steps`` holds one verdict per bid, in order; ``first_invalid`` the index of
    the first refused bid (None when all stood up); ``standing`` the bid that
    stands at the end (None when nobody bid validly); ``trump`` the final trump,
    from ``standing`` or, when nobody bid, from ``fallback`` (the rule set's
    ``no_bid_fallback``, else None); ``reason`` says how the trump was settled.
    ``redeal``: nobody bid in the first hand under ``no_bid_first_hand`` ``redeal``,
    so the cards are dealt again and ``trump`` is None.  A frozen struct, as ``BidVerdict``.
    """

    steps: tuple[BidVerdict, ...]
    first_invalid: int | None
    standing: Bid | None
    trump: Trump | None
    fallback: str | None
    reason: Reason
    redeal: bool = False


Ladder = dict[tuple[int, int], Strength]
"""A ladder's steps by the bids that show them: (card, copies) → step."""


@lru_cache(maxsize=64)
def _ladder(decks: int, suit_precedence: bool, min_jokers: int) -> Ladder:
    rungs: list[tuple[int, int | None, int | None]] = []
    for count in range(1, decks + 1):
        if suit_precedence and count >= 2:
            rungs += [(count, None, suit) for suit in SUIT_PRECEDENCE]
        else:
            rungs.append((count, None, None))
        if count >= 2 and count >= min_jokers:  # a single joker never bids
            rungs += [(count, SMALL_JOKER, None), (count, BIG_JOKER, None)]
    steps: Ladder = {}
    for rank, (count, joker, suit) in enumerate(rungs, 1):
        step = Strength(rank, len(rungs), count, joker, suit, bid_step(count, joker, suit))
        shown = (joker,) if joker is not None else [c for c in range(52) if suit in (None, suit_of(c))]
        steps.update(((card, count), step) for card in shown)
    return steps


def _steps(rules: Rules) -> Ladder:
    """The ladder of ``rules``; a joker step from the fewest jokers any bid shows (an
    overturn's minimum, never above a first declaration's, docs/rules.md §9)."""
    return _ladder(rules.decks, rules.bid_suit_precedence, _min_jokers(rules))


def _min_jokers(rules: Rules) -> int:
    return min(rules.no_trump_overturn_min_jokers, rules.no_trump_bid_min_jokers)


def ladder(rules: Rules) -> tuple[Strength, ...]:
    """The bidding ladder of ``rules``, weakest first (docs/rules.md §9, seed 001 报牌规则).

    >>> from engine.rules import preset
    >>> [(s.count, s.joker, s.suit) for s in ladder(preset("two-deck"))]
    [(1, None, None), (2, None, None), (2, 52, None), (2, 53, None)]
    >>> [(s.count, s.joker, s.suit) for s in ladder(preset("four-deck-cgc"))][:7]
    [(1, None, None), (2, None, 3), (2, None, 2), (2, None, 1), (2, None, 0), (2, 52, None), (2, 53, None)]
    """
    return tuple(dict.fromkeys(_steps(rules).values()))


def strength(rules: Rules, cards: Sequence[int]) -> Strength | None:
    """The ladder step of a well-formed bid (copies of one card), None if it has none."""
    return _steps(rules).get((cards[0], len(cards)))


# the 13 × 5 trumps (level, suit or None), one object each: what bids declare, by level and card
_TRUMPS: dict[tuple[int, int | None], Trump] = {
    (level, suit): Trump(level, suit) for level in range(len(RANKS)) for suit in (0, 1, 2, 3, None)
}
_DECLARES: tuple[tuple[Trump, ...], ...] = tuple(
    tuple(_TRUMPS[level, suit_of(card)] for card in range(KINDS)) for level in range(len(RANKS))
)


def declared_trump(trump_level: int, cards: Sequence[int]) -> Trump:
    """What a bid names: its level card's suit, or no-trump for jokers."""
    return _DECLARES[trump_level][cards[0]]


# per level (rank index): the cards that may bid, its four level cards and the two jokers
_BID_CARDS: tuple[frozenset[int], ...] = tuple(
    frozenset((*(suit * 13 + level for suit in range(4)), *JOKERS)) for level in range(len(RANKS))
)


def check_bid_cards(rules: Rules, trump_level: int, cards: Sequence[int], path: Path) -> list[Problem]:
    """Problems that make ``cards`` no bid at all (reported with their element paths)."""
    if not cards:
        return [Problem(path, "a bid shows at least one card: level cards of one suit, or jokers", code="empty_bid")]
    first = cards[0]
    if first in _BID_CARDS[trump_level] and cards.count(first) == len(cards) <= rules.decks:
        return []  # the usual bid: up to ``decks`` copies of one level card or joker
    level = RANKS[trump_level]
    problems = [
        Problem(
            (*path, i),
            f"{card_str(card)} cannot bid: only level cards (the {level}s) and jokers are shown "
            "to declare trump",
            code="not_a_bid_card",
        )
        for i, card in enumerate(cards) if card not in JOKERS and rank_of(card) != trump_level
    ] or [
        Problem(
            (*path, i),
            f"a bid shows copies of one card: {card_str(card)} differs from {card_str(first)} "
            "(level cards of one suit, or jokers of one kind)",
            code="mixed_bid_cards",
        )
        for i, card in enumerate(cards) if card != first
    ]
    if not problems:
        try:
            check_copies([(path, cards)], rules.decks)
        except InvalidInput as exc:
            return exc.problems
    return problems


def _check_shown(
    decks: int, bids: Sequence[Bid], kitty: Sequence[int], path: Callable[[int], Path]
) -> list[Problem]:
    """Copies across seats: each seat's largest showing of a card, plus the kitty, ≤ decks
    (a problem at ``path(i)``, bid i's cards, and the first copy too many)."""
    total: dict[int, int] = {}  # card → copies shown so far (the kitty, each seat's largest showing)
    shown: dict[tuple[int, int], int] = {}
    problems: list[Problem] = []
    kept = frozenset(kitty)  # the kinds in the kitty, counted only when a bid shows one
    for i, bid in enumerate(bids):
        cards = bid.cards
        card, count, mine = cards[0], len(cards), 0
        if card in total:
            mine = shown.get((bid.seat, card), 0)
            others = total[card] - mine
        else:
            others = kitty.count(card) if card in kept else 0
        if count > decks - others:
            where = "other seats' bids" + (" and the kitty" if card in kitty else "")
            problems.append(Problem(
                (*path(i), max(decks - others, 0)),
                f"seat {bid.seat} shows {count} {card_str(card)} but {where} already show {others} "
                f"of the {decks} in play",
                code="too_many_copies",
            ))
        elif count > mine:
            shown[bid.seat, card] = count
            total[card] = others + count
    return problems


def _decide(
    rules: Rules, steps: Ladder, trump_level: int, standing: Bid | None, against: Strength | None,
    before: Trump | None, bid: Bid, shows: Cards,
) -> BidVerdict:
    """The verdict on a well-formed ``bid`` (``shows``: its cards as a reason's fact)
    against a well-formed ``standing`` bid (its step ``against``, the trump it
    declared ``before``; all None: nothing stands).

    Each branch names its reason (a code and its facts); a refused bid leaves
    ``standing`` and ``before`` in place.  The reasons every sequence gives are
    built from their facts' tuple (``Reason(code, facts)``, what ``reason`` builds
    from keywords, at about half its cost: 0.6 µs fewer a reason, timeit).
    """
    cards = bid.cards
    step = steps.get((cards[0], len(cards)))
    if step is None:
        if len(cards) == 1:
            why = reason("bid.single_joker", cards=shows)
        else:
            why = reason("bid.too_few_jokers", cards=shows, n=_min_jokers(rules))
        return BidVerdict(bid, False, why, step, None, standing, before)
    declares = _DECLARES[trump_level][cards[0]]  # what the bid names (``declared_trump``)
    if standing is None or against is None:
        if step.joker is not None and step.count < rules.no_trump_bid_min_jokers:
            why = reason("bid.too_few_jokers", "opening", cards=shows, n=rules.no_trump_bid_min_jokers, step=step.step)
            return BidVerdict(bid, False, why, step, declares, standing, None)
        why = Reason("bid.opens", (("seat", SEAT_FACTS[bid.seat]), ("step", step.step), ("cards", shows), ("trump", declares)))
        return BidVerdict(bid, True, why, step, declares, bid, declares)
    own = standing.seat == bid.seat
    same_trump = declares is before  # one Trump object per (level, suit): _DECLARES
    if own and same_trump and not rules.self_reinforce:
        why = reason("bid.self_reinforce_not_allowed", seat=SEAT_FACTS[bid.seat])
    elif own and not same_trump and not rules.self_overturn:
        why = reason("bid.self_overturn_not_allowed", seat=SEAT_FACTS[bid.seat])
    elif step.rank <= against.rank:
        code = "bid.equal_strength" if step.rank == against.rank else "bid.weaker"
        held_by = SEAT_FACTS[standing.seat]
        why = Reason(code, (("step", step.step), ("cards", shows), ("against", against.step), ("held_by", held_by)))
    else:
        if own:
            code = "bid.reinforces" if same_trump else "bid.self_overturns"
        else:
            code = "bid.outbids" if same_trump else "bid.overturns"
        why = Reason(code, (
            ("seat", SEAT_FACTS[bid.seat]), ("step", step.step), ("cards", shows), ("against", against.step),
            ("held_by", SEAT_FACTS[standing.seat]), ("trump", declares),
        ))
        return BidVerdict(bid, True, why, step, declares, bid, declares)
    return BidVerdict(bid, False, why, step, declares, standing, before)


def judge_bid(rules: Rules, trump_level: int, standing: Bid | None, bid: Bid) -> BidVerdict:
    """Is ``bid`` allowed over ``standing`` (None: nobody has bid), and what is trump after it?

    docs/rules.md §9.  Raises InvalidInput with paths under ``standing`` / ``bid`` (the API
    field names) when either is not a bid at all (see the module docstring), or
    when the standing bid could not stand (a single joker, too few jokers).

    >>> from engine.cards import parse_card as c
    >>> from engine.rules import preset
    >>> ten = 8  # rank index of 10
    >>> v = judge_bid(preset("two-deck"), ten, Bid(0, (c("10H"),)), Bid(1, (c("10S"), c("10S"))))
    >>> v.valid, v.reason.code, v.trump.as_json(), v.strength.step
    (True, 'bid.overturns', {'level': '10', 'suit': 'S'}, Step(count=2, joker=None, suit=None))
    """
    bids, paths = [bid], [("bid", "cards")]
    if standing is not None:
        bids, paths = [standing, bid], [("standing", "cards"), ("bid", "cards")]
    problems: list[Problem] = []
    for shown, path in zip(bids, paths, strict=True):  # a loop: a comprehension would make cells of its arguments
        problems += check_bid_cards(rules, trump_level, shown.cards, path)
    if problems:
        raise InvalidInput(problems)
    steps = _steps(rules)
    against = before = None
    if standing is not None:
        against = steps.get((standing.cards[0], len(standing.cards)))
        before = declared_trump(trump_level, standing.cards)
        if against is None:
            problems.append(Problem(
                ("standing", "cards"),
                f"{' '.join(card_str(c) for c in standing.cards)} cannot be a standing bid under these rules "
                f"(a single joker never bids; no-trump needs {_min_jokers(rules)} jokers of one kind)",
                code="invalid_standing_bid",
            ))
    problems += _check_shown(rules.decks, bids, (), paths.__getitem__)
    if problems:
        raise InvalidInput(problems)
    return _decide(rules, steps, trump_level, standing, against, before, bid, Cards(bid.cards))


def _fallback(rules: Rules, trump_level: int, kitty: Sequence[int] | None) -> tuple[Trump, Reason]:
    """The trump when nobody bid (``no_bid_fallback``; seed 000, seed 000 四副, seed 002)."""
    if rules.no_bid_fallback != NoBidFallback.KITTY_FIRST_CARD:
        no_trump = rules.no_bid_fallback == NoBidFallback.NO_TRUMP
        trump = Trump(trump_level, None if no_trump else 0)  # else spades
        return trump, reason(f"bid.fallback.{rules.no_bid_fallback}", trump=trump)
    # kitty_first_card (seed 002 發完牌后如果沒人亮主)
    if not kitty:
        raise InvalidInput(Problem(
            ("kitty",),
            "nobody bid and no_bid_fallback is kitty_first_card: send the kitty, in the order it is turned, "
            "so that it can name trump"
            + (" (these rules have no kitty: kitty_size is 0)" if rules.kitty_size == 0 else ""),
            code="kitty_required",
        ))
    level_card = next((card for card in kitty if card not in JOKERS and rank_of(card) == trump_level), None)
    card = kitty[0] if level_card is None else level_card
    if level_card is not None:
        form = "kitty_level_card"
    else:
        form = "kitty_joker" if card in JOKERS else "kitty_first_card"
    trump = Trump(trump_level, suit_of(card))
    return trump, reason(f"bid.fallback.{form}", cards=Cards((card,)), trump=trump)


def _bid_path(i: int) -> Path:
    return ("bids", i, "cards")


def resolve_bids(
    rules: Rules, trump_level: int, bids: Sequence[Bid], kitty: Sequence[int] | None = None,
    first_hand: bool | None = None,
) -> BidSequence:
    """Resolve a whole declaration sequence in order (docs/rules.md §9): each bid is
    judged against the bid standing before it, then the fallback or the redeal
    applies when none stands (the module docstring).  Raises InvalidInput with paths
    ``bids/i/cards/j`` and ``kitty/j`` for cards that are no bid, too many copies,
    or a kitty of the wrong size.

    >>> from engine.cards import parse_card as c
    >>> from engine.rules import preset
    >>> seq = resolve_bids(preset("two-deck"), 8, [Bid(0, (c("10H"),)), Bid(2, (c("10C"),))])
    >>> seq.first_invalid, seq.steps[1].reason.code, seq.trump.as_json()
    (1, 'bid.equal_strength', {'level': '10', 'suit': 'H'})
    """
    problems: list[Problem] = []
    for i, bid in enumerate(bids):
        problems += check_bid_cards(rules, trump_level, bid.cards, ("bids", i, "cards"))
    if kitty is not None:
        if len(kitty) != rules.kitty_size:
            size = f"the kitty holds {rules.kitty_size} cards under these rules, not {len(kitty)}"
            problems.append(Problem(("kitty",), size, code="wrong_kitty_size"))
        if len(set(kitty)) < len(kitty) and max(map(kitty.count, kitty)) > rules.decks:  # check_copies words it
            try:
                check_copies([(("kitty",), kitty)], rules.decks)
            except InvalidInput as exc:
                problems += exc.problems
    if problems:
        raise InvalidInput(problems)
    problems = _check_shown(rules.decks, bids, kitty or (), _bid_path)
    if problems:
        raise InvalidInput(problems)

    steps = _steps(rules)
    verdicts: list[BidVerdict] = []
    standing: Bid | None = None
    against: Strength | None = None
    trump: Trump | None = None
    first_invalid: int | None = None
    shown: Cards | None = None  # the standing bid's cards as a reason's fact (its verdict's and the sequence's)
    for bid in bids:
        shows = Cards(bid.cards)
        verdict = _decide(rules, steps, trump_level, standing, against, trump, bid, shows)
        if verdict.valid:
            standing, against, trump, shown = bid, verdict.strength, verdict.declares, shows
        elif first_invalid is None:
            first_invalid = len(verdicts)
        verdicts.append(verdict)
    if standing is not None and against is not None and trump is not None and shown is not None:
        facts = (("seat", SEAT_FACTS[standing.seat]), ("step", against.step), ("cards", shown), ("trump", trump))
        why = Reason("bid.stands", facts)
        return BidSequence(tuple(verdicts), first_invalid, standing, trump, None, why)
    if rules.no_bid_first_hand is NoBidFirstHand.REDEAL:
        if first_hand is None:
            raise InvalidInput(Problem(
                ("first_hand",),
                "nobody bid, and these rules deal again when nobody bids in the first hand of a game: "
                "say whether this is the first hand (first_hand: true or false)",
                code="first_hand_required",
            ))
        if first_hand:
            redeal = reason("bid.redeal")
            return BidSequence(tuple(verdicts), first_invalid, None, None, None, redeal, redeal=True)
    trump, why = _fallback(rules, trump_level, kitty)
    return BidSequence(tuple(verdicts), first_invalid, None, trump, rules.no_bid_fallback, why)
