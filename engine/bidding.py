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

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from engine.cards import (
    BIG_JOKER,
    CARD_NAMES,
    JOKERS,
    KINDS,
    RANKS,
    SMALL_JOKER,
    SUIT_NAMES_ZH,
    card_name_zh,
    card_str,
    check_copies,
    rank_of,
    suit_of,
)
from engine.errors import InvalidInput, Problem
from engine.reasons import Reason
from engine.rules import NoBidFallback, NoBidFirstHand, Rules
from engine.trump import Trump

Path = tuple[str | int, ...]

# bid_suit_precedence (seed 002 抄底牌條件): D < C < H < S, weakest first.
SUIT_PRECEDENCE: tuple[int, ...] = (3, 2, 1, 0)
_SUIT_NAMES_EN = ("spades", "hearts", "clubs", "diamonds")
_COUNT_EN = {1: "single", 2: "pair of", 3: "three", 4: "four"}
_COUNT_ZH = {1: "单张", 2: "两张", 3: "三张", 4: "四张"}


@dataclass(frozen=True, slots=True)
class Bid:
    """A declaration: the cards ``seat`` shows (copies of one card)."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Strength:
    """One step of a rule set's bidding ladder (docs/rules.md §9).

    ``rank`` counts from 1 (weakest) to ``of`` (the ladder's length); a higher rank
    beats a lower one, equal ranks tie (the first bid stands).  ``joker`` is
    SMALL_JOKER/BIG_JOKER for a no-trump step, None for level cards; ``suit`` is set
    only where ``bid_suit_precedence`` gives each suit its own step.  ``name`` and
    ``name_zh`` (``step_name``, ``step_name_zh``) follow from the others.
    """

    rank: int
    of: int
    count: int
    joker: int | None
    suit: int | None
    name: str = field(init=False, repr=False, compare=False)
    name_zh: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", step_name(self.count, self.joker, self.suit))
        object.__setattr__(self, "name_zh", step_name_zh(self.count, self.joker, self.suit))

    def as_json(self, language: str = "en") -> dict[str, int | str]:
        return {"rank": self.rank, "of": self.of, "name": self.name_zh if language == "zh" else self.name}


def step_name(count: int, joker: int | None, suit: int | None) -> str:
    """English name of a step: ``pair of level cards``, ``four big jokers``."""
    what = _COUNT_EN[count]
    if joker is not None:
        return f"{what} {'small' if joker == SMALL_JOKER else 'big'} jokers"
    cards = "level card" if count == 1 else "level cards"
    in_suit = "" if suit is None else f" in {_SUIT_NAMES_EN[suit]}"
    return f"{what} {cards}{in_suit}"


def step_name_zh(count: int, joker: int | None, suit: int | None) -> str:
    """Chinese name of a step: ``两张级牌``, ``四张大王``, ``两张方块级牌``."""
    what = _COUNT_ZH[count]
    if joker is not None:
        return what + ("小王" if joker == SMALL_JOKER else "大王")
    return what + ("" if suit is None else SUIT_NAMES_ZH[suit]) + "级牌"


@dataclass(frozen=True, slots=True)
class BidVerdict:
    """The verdict on one bid (docs/api.md ``/v1/bid``).

    ``declares``: the trump the bid names (None when its cards are not on the
    ladder); ``strength``: its step (None likewise).  ``standing`` and ``trump``
    are what stands after the bid: the bid itself when valid, else the previous
    standing bid (None when nothing stands yet).
    """

    bid: Bid
    valid: bool
    reason: Reason
    strength: Strength | None
    declares: Trump | None
    standing: Bid | None
    trump: Trump | None


@dataclass(frozen=True, slots=True)
class BidSequence:
    """A whole declaration sequence resolved (docs/api.md ``/v1/bid/resolve``).

    ``steps`` holds one verdict per bid, in order; ``first_invalid`` the index of
    the first refused bid (None when all stood up); ``standing`` the bid that
    stands at the end (None when nobody bid validly); ``trump`` the final trump,
    from ``standing`` or, when nobody bid, from ``fallback`` (the rule set's
    ``no_bid_fallback``, else None); ``reason`` says how the trump was settled.
    ``redeal``: nobody bid in the first hand under ``no_bid_first_hand`` ``redeal``,
    so the cards are dealt again and ``trump`` is None.
    """

    steps: tuple[BidVerdict, ...]
    first_invalid: int | None
    standing: Bid | None
    trump: Trump | None
    fallback: str | None
    reason: Reason
    redeal: bool = False


@lru_cache(maxsize=64)
def _ladder(decks: int, suit_precedence: bool, min_jokers: int) -> tuple[Strength, ...]:
    rungs: list[tuple[int, int | None, int | None]] = []
    for count in range(1, decks + 1):
        if suit_precedence and count >= 2:
            rungs += [(count, None, suit) for suit in SUIT_PRECEDENCE]
        else:
            rungs.append((count, None, None))
        if count >= 2 and count >= min_jokers:  # a single joker never bids
            rungs += [(count, SMALL_JOKER, None), (count, BIG_JOKER, None)]
    return tuple(
        Strength(i + 1, len(rungs), count, joker, suit) for i, (count, joker, suit) in enumerate(rungs)
    )


def ladder(rules: Rules) -> tuple[Strength, ...]:
    """The bidding ladder of ``rules``, weakest first (docs/rules.md §9, seed 001 报牌规则).

    >>> from engine.rules import preset
    >>> [s.name for s in ladder(preset("two-deck"))]
    ['single level card', 'pair of level cards', 'pair of small jokers', 'pair of big jokers']
    >>> [s.name_zh for s in ladder(preset("four-deck-cgc"))][:7]
    ['单张级牌', '两张方块级牌', '两张梅花级牌', '两张红桃级牌', '两张黑桃级牌', '两张小王', '两张大王']
    """
    return _ladder(rules.decks, rules.bid_suit_precedence, _min_jokers(rules))


def _min_jokers(rules: Rules) -> int:
    """The fewest jokers of one kind any bid shows: an overturn's minimum (never above
    a first declaration's, docs/rules.md §9)."""
    return min(rules.no_trump_overturn_min_jokers, rules.no_trump_bid_min_jokers)


def strength(rules: Rules, cards: Sequence[int]) -> Strength | None:
    """The ladder step of a well-formed bid (copies of one card), None if it has none."""
    return _steps(rules.decks, rules.bid_suit_precedence, _min_jokers(rules)).get((cards[0], len(cards)))


def _step_of(steps: tuple[Strength, ...], card: int, count: int) -> Strength | None:
    """The step of ``count`` copies of ``card`` on the ladder ``steps``: the step
    of that many cards, of that joker (None: level cards), in that suit or any."""
    joker = card if card in JOKERS else None
    suit = suit_of(card)
    for step in steps:
        if step.count == count and step.joker == joker and step.suit in (None, suit):
            return step
    return None


@lru_cache(maxsize=64)
def _steps(decks: int, suit_precedence: bool, min_jokers: int) -> dict[tuple[int, int], Strength]:
    """``_step_of`` for every bid one ladder has a step for, by (card, copies): the
    few bids of a rule set looked up rather than searched for on every bid."""
    steps = _ladder(decks, suit_precedence, min_jokers)
    table: dict[tuple[int, int], Strength] = {}
    for card in range(KINDS):
        for count in range(1, decks + 1):
            step = _step_of(steps, card, count)
            if step is not None:
                table[card, count] = step
    return table


# the 13 × 5 trumps (level, suit or None), one object each: what bids declare
_TRUMPS: dict[tuple[int, int | None], Trump] = {
    (level, suit): Trump(level, suit) for level in range(len(RANKS)) for suit in (0, 1, 2, 3, None)
}


def declared_trump(trump_level: int, cards: Sequence[int]) -> Trump:
    """What a bid names: its level card's suit, or no-trump for jokers."""
    suit = suit_of(cards[0])
    return _TRUMPS.get((trump_level, suit)) or Trump(trump_level, suit)


_NAMES_ZH: tuple[str, ...] = tuple(card_name_zh(k) for k in range(KINDS))


def card_list(cards: Sequence[int]) -> str:
    return " ".join([CARD_NAMES[c] for c in cards])


def card_list_zh(cards: Sequence[int]) -> str:
    return "".join([_NAMES_ZH[c] for c in cards])


def trump_en(trump: Trump | None) -> str:
    if trump is None:
        return "nothing is trump yet"
    if trump.suit is None:
        return f"no-trump at level {RANKS[trump.level]}"
    return f"{_SUIT_NAMES_EN[trump.suit]} are trump at level {RANKS[trump.level]}"


def trump_zh(trump: Trump | None) -> str:
    if trump is None:
        return "尚无主牌"
    if trump.suit is None:
        return f"打{RANKS[trump.level]}，无主"
    return f"打{RANKS[trump.level]}，{SUIT_NAMES_ZH[trump.suit]}为主"


def check_bid_cards(rules: Rules, trump_level: int, cards: Sequence[int], path: Path) -> list[Problem]:
    """Problems that make ``cards`` no bid at all (reported with their element paths)."""
    if not cards:
        return [Problem(path, "a bid shows at least one card: level cards of one suit, or jokers", code="empty_bid")]
    first = cards[0]
    if (first in JOKERS or rank_of(first) == trump_level) and cards.count(first) == len(cards) <= rules.decks:
        return []  # the usual bid: up to ``decks`` copies of one level card or joker
    problems: list[Problem] = []
    level = RANKS[trump_level]
    for i, card in enumerate(cards):
        if card not in JOKERS and rank_of(card) != trump_level:
            problems.append(
                Problem(
                    (*path, i),
                    f"{card_str(card)} cannot bid: only level cards (the {level}s) and jokers are shown "
                    "to declare trump",
                    code="not_a_bid_card",
                )
            )
    if problems:
        return problems
    for i, card in enumerate(cards):
        if card != first:
            problems.append(
                Problem(
                    (*path, i),
                    f"a bid shows copies of one card: {card_str(card)} differs from {card_str(first)} "
                    "(level cards of one suit, or jokers of one kind)",
                    code="mixed_bid_cards",
                )
            )
    if problems:
        return problems
    try:
        check_copies([(path, cards)], rules.decks)
    except InvalidInput as exc:
        return exc.problems
    return []


def _check_shown(
    rules: Rules, bids: Sequence[tuple[Path, Bid]], kitty: Sequence[int] | None
) -> list[Problem]:
    """Copies across seats: each seat's largest showing of a card, plus the kitty, ≤ decks.

    A seat may show the same card again (a reinforcement lists all its cards), so a
    seat contributes the most copies it ever showed at once.
    """
    total: dict[int, int] = {}  # card → copies shown so far (the kitty, each seat's largest showing)
    for card in kitty or ():
        total[card] = total.get(card, 0) + 1
    shown: dict[tuple[int, int], int] = {}
    problems: list[Problem] = []
    decks = rules.decks
    for path, bid in bids:
        if not bid.cards:
            continue
        card, count = bid.cards[0], len(bid.cards)
        mine = shown.get((bid.seat, card), 0)
        others = total.get(card, 0) - mine
        if count > decks - others:
            where = "other seats' bids" + (" and the kitty" if kitty and card in kitty else "")
            problems.append(
                Problem(
                    (*path, max(decks - others, 0)),
                    f"seat {bid.seat} shows {count} {card_str(card)} but {where} already show {others} "
                    f"of the {decks} in play",
                    code="too_many_copies",
                )
            )
            continue
        if count > mine:
            shown[bid.seat, card] = count
            total[card] = others + count
    return problems


def _decide(
    rules: Rules, trump_level: int, standing: Bid | None, standing_strength: Strength | None, bid: Bid
) -> BidVerdict:
    """The verdict on a well-formed ``bid`` against a well-formed ``standing`` bid.

    Each branch names its reason (code, English, Chinese); a refused bid leaves
    ``standing`` and the trump it declared (``before``) in place.
    """
    step = strength(rules, bid.cards)
    declares = None if step is None else declared_trump(trump_level, bid.cards)
    shows, shows_zh = card_list(bid.cards), card_list_zh(bid.cards)
    seat = bid.seat

    if step is None:
        valid = False
        if len(bid.cards) == 1:
            code = "bid.single_joker"
            en = f"a single joker ({shows}) never bids: show two or more jokers of one kind for no-trump"
            zh = f"单张王（{shows_zh}）不能亮主：亮无主要亮两张以上同样的王"
        else:
            need = _min_jokers(rules)
            code = "bid.too_few_jokers"
            en = f"{shows} cannot bid no-trump: these rules need {need} jokers of one kind"
            zh = f"{shows_zh}不能亮无主：本规则亮无主至少需要{need}张同样的王"
    elif (standing is None or standing_strength is None) and step.joker is not None and (
        step.count < rules.no_trump_bid_min_jokers
    ):
        valid = False
        need = rules.no_trump_bid_min_jokers
        code = "bid.too_few_jokers"
        en = (
            f"{shows} cannot open the bidding: a first declaration of no-trump needs {need} jokers of one "
            f"kind; {step.name} may only overturn a standing bid"
        )
        zh = f"{shows_zh}不能首先亮主：亮无主须{need}张同样的王；{step.name_zh}只能用来反主"
    elif standing is None or standing_strength is None:
        valid = True
        code = "bid.opens"
        en = f"seat {seat} opens the bidding with {step.name} ({shows}): {trump_en(declares)}"
        zh = f"{seat}号位首先亮主：{step.name_zh}（{shows_zh}），{trump_zh(declares)}"
    else:
        against, against_zh, held_by = standing_strength.name, standing_strength.name_zh, standing.seat
        own = held_by == seat
        same_trump = declares == declared_trump(trump_level, standing.cards)
        valid = False
        if own and same_trump and not rules.self_reinforce:
            code = "bid.self_reinforce_not_allowed"
            en = f"seat {seat} already holds the bid and these rules do not allow reinforcing it (自保)"
            zh = f"{seat}号位已亮主，本规则不允许自保"
        elif own and not same_trump and not rules.self_overturn:
            code = "bid.self_overturn_not_allowed"
            en = (
                f"seat {seat} holds the standing bid and these rules do not allow overturning "
                "one's own bid (不能自反)"
            )
            zh = f"{seat}号位的亮主仍然有效，本规则不能自反"
        elif step.rank == standing_strength.rank:
            code = "bid.equal_strength"
            en = f"{step.name} ({shows}) only equals the standing {against} of seat {held_by}: the first bid stands"
            zh = f"{step.name_zh}（{shows_zh}）与{held_by}号位的{against_zh}同级，先亮者为准"
        elif step.rank < standing_strength.rank:
            code = "bid.weaker"
            en = f"{step.name} ({shows}) is weaker than the standing {against} of seat {held_by}"
            zh = f"{step.name_zh}（{shows_zh}）小于{held_by}号位的{against_zh}，不能反主"
        else:
            valid = True
            if own and same_trump:
                code, does, does_zh = "bid.reinforces", "reinforces its bid (自保) with", "自保："
            elif own:
                code, does, does_zh = "bid.self_overturns", "overturns its own bid (自反) with", "自反："
            elif same_trump:
                code = "bid.outbids"
                does = f"outbids seat {held_by} in the same trump with"
                does_zh = f"以更大的牌亮同一主（胜过{held_by}号位）："
            else:
                code = "bid.overturns"
                does = f"overturns the bid of seat {held_by} (反主) with"
                does_zh = f"反主（胜过{held_by}号位）："
            en = f"seat {seat} {does} {step.name} ({shows}), stronger than {against}: {trump_en(declares)}"
            zh = f"{seat}号位{does_zh}{step.name_zh}（{shows_zh}）大于{against_zh}，{trump_zh(declares)}"
    if valid:
        return BidVerdict(bid, True, Reason(code, en, zh), step, declares, bid, declares)
    before = None if standing is None else declared_trump(trump_level, standing.cards)
    return BidVerdict(bid, False, Reason(code, en, zh), step, declares, standing, before)


def judge_bid(rules: Rules, trump_level: int, standing: Bid | None, bid: Bid) -> BidVerdict:
    """Is ``bid`` allowed over ``standing`` (None: nobody has bid), and what is trump after it?

    docs/rules.md §9.  Raises InvalidInput with paths under ``standing`` / ``bid`` (the API
    field names) when either is not a bid at all (see the module docstring), or
    when the standing bid could not stand (a single joker, too few jokers).

    >>> from engine.cards import parse_card as c
    >>> from engine.rules import preset
    >>> ten = 8  # rank index of 10
    >>> v = judge_bid(preset("two-deck"), ten, Bid(0, (c("10H"),)), Bid(1, (c("10S"), c("10S"))))
    >>> v.valid, v.reason.code, v.trump.as_json(), v.strength.name
    (True, 'bid.overturns', {'level': '10', 'suit': 'S'}, 'pair of level cards')
    """
    bids: list[tuple[Path, Bid]] = []
    problems: list[Problem] = []
    if standing is not None:
        bids.append((("standing", "cards"), standing))
        problems += check_bid_cards(rules, trump_level, standing.cards, ("standing", "cards"))
    bids.append((("bid", "cards"), bid))
    problems += check_bid_cards(rules, trump_level, bid.cards, ("bid", "cards"))
    if problems:
        raise InvalidInput(problems)
    standing_strength = None
    if standing is not None:
        standing_strength = strength(rules, standing.cards)
        if standing_strength is None:
            problems.append(
                Problem(
                    ("standing", "cards"),
                    f"{card_list(standing.cards)} cannot be a standing bid under these rules "
                    "(a single joker never bids; no-trump needs "
                    f"{_min_jokers(rules)} jokers of one kind)",
                    code="invalid_standing_bid",
                )
            )
    problems += _check_shown(rules, bids, None)
    if problems:
        raise InvalidInput(problems)
    return _decide(rules, trump_level, standing, standing_strength, bid)


def _fallback(rules: Rules, trump_level: int, kitty: Sequence[int] | None) -> tuple[Trump, Reason]:
    """The trump when nobody bid (``no_bid_fallback``; seed 000, seed 000 四副, seed 002)."""
    level = RANKS[trump_level]
    if rules.no_bid_fallback == NoBidFallback.NO_TRUMP:
        trump = Trump(trump_level, None)
        return trump, Reason(
            "bid.fallback.no_trump",
            f"nobody bid: the hand is played in no-trump at level {level}",
            f"无人亮主：打{level}，无主",
        )
    if rules.no_bid_fallback == NoBidFallback.SPADES:
        trump = Trump(trump_level, 0)
        return trump, Reason(
            "bid.fallback.spades",
            f"nobody bid: spades are trump at level {level}",
            f"无人亮主：打{level}，以黑桃为主",
        )
    # kitty_first_card (seed 002 發完牌后如果沒人亮主)
    if not kitty:
        raise InvalidInput(
            Problem(
                ("kitty",),
                "nobody bid and no_bid_fallback is kitty_first_card: send the kitty, in the order it "
                "is turned, so that it can name trump"
                + (" (these rules have no kitty: kitty_size is 0)" if rules.kitty_size == 0 else ""),
                code="kitty_required",
            )
        )
    for card in kitty:
        if card not in JOKERS and rank_of(card) == trump_level:
            trump = Trump(trump_level, suit_of(card))
            return trump, Reason(
                "bid.fallback.kitty_level_card",
                f"nobody bid: the first level card turned from the kitty, {card_str(card)}, makes "
                f"{trump_en(trump)}",
                f"无人亮主：底牌中翻出的第一张级牌{card_name_zh(card)}定主，{trump_zh(trump)}",
            )
    first = kitty[0]
    trump = Trump(trump_level, suit_of(first))
    if first in JOKERS:
        return trump, Reason(
            "bid.fallback.kitty_joker",
            f"nobody bid and the kitty holds no level card: its first card, {card_str(first)}, is a "
            f"joker, so {trump_en(trump)}",
            f"无人亮主，底牌中没有级牌：第一张底牌是{card_name_zh(first)}，{trump_zh(trump)}",
        )
    return trump, Reason(
        "bid.fallback.kitty_first_card",
        f"nobody bid and the kitty holds no level card: its first card, {card_str(first)}, makes "
        f"{trump_en(trump)}",
        f"无人亮主，底牌中没有级牌：第一张底牌{card_name_zh(first)}定主，{trump_zh(trump)}",
    )


def resolve_bids(
    rules: Rules,
    trump_level: int,
    bids: Sequence[Bid],
    kitty: Sequence[int] | None = None,
    first_hand: bool | None = None,
) -> BidSequence:
    """Resolve a whole declaration sequence in order (docs/rules.md §9).

    Each bid is judged against the bid standing before it; a refused bid changes
    nothing.  When no bid stands at the end, ``no_bid_fallback`` names trump
    (``kitty_first_card`` needs ``kitty``, in the order it is turned), unless the
    rules redeal a first hand nobody bid in (``no_bid_first_hand``: then
    ``first_hand`` must be said, True or False).  Raises
    InvalidInput with paths ``bids/i/cards/j`` and ``kitty/j`` for cards that are
    no bid, too many copies, or a kitty of the wrong size.

    >>> from engine.cards import parse_card as c
    >>> from engine.rules import preset
    >>> seq = resolve_bids(preset("two-deck"), 8, [Bid(0, (c("10H"),)), Bid(2, (c("10C"),))])
    >>> seq.first_invalid, seq.steps[1].reason.code, seq.trump.as_json()
    (1, 'bid.equal_strength', {'level': '10', 'suit': 'H'})
    """
    problems: list[Problem] = []
    paths: list[tuple[Path, Bid]] = []
    for i, bid in enumerate(bids):
        path: Path = ("bids", i, "cards")
        paths.append((path, bid))
        problems += check_bid_cards(rules, trump_level, bid.cards, path)
    if kitty is not None:
        if len(kitty) != rules.kitty_size:
            problems.append(
                Problem(("kitty",), f"the kitty holds {rules.kitty_size} cards under these rules, not {len(kitty)}", code="wrong_kitty_size")
            )
        try:
            check_copies([(("kitty",), kitty)], rules.decks)
        except InvalidInput as exc:
            problems += exc.problems
    if problems:
        raise InvalidInput(problems)
    problems = _check_shown(rules, paths, kitty)
    if problems:
        raise InvalidInput(problems)

    steps: list[BidVerdict] = []
    standing: Bid | None = None
    standing_strength: Strength | None = None
    first_invalid: int | None = None
    for i, bid in enumerate(bids):
        verdict = _decide(rules, trump_level, standing, standing_strength, bid)
        steps.append(verdict)
        if verdict.valid:
            standing, standing_strength = bid, verdict.strength
        elif first_invalid is None:
            first_invalid = i
    if standing is not None and standing_strength is not None:
        trump = declared_trump(trump_level, standing.cards)
        reason = Reason(
            "bid.stands",
            f"the bid of seat {standing.seat}, {standing_strength.name} ({card_list(standing.cards)}), "
            f"stands: {trump_en(trump)}",
            f"{standing.seat}号位的{standing_strength.name_zh}（{card_list_zh(standing.cards)}）有效，"
            f"{trump_zh(trump)}",
        )
        return BidSequence(tuple(steps), first_invalid, standing, trump, None, reason)
    if rules.no_bid_first_hand is NoBidFirstHand.REDEAL:
        if first_hand is None:
            raise InvalidInput(
                Problem(
                    ("first_hand",),
                    "nobody bid, and these rules deal again when nobody bids in the first hand of a game: "
                    "say whether this is the first hand (first_hand: true or false)",
                    code="first_hand_required",
                )
            )
        if first_hand:
            return BidSequence(
                tuple(steps), first_invalid, None, None, None,
                Reason(
                    "bid.redeal",
                    "nobody bid in the first hand of the game: the cards are dealt again",
                    "第一局无人亮主：重新发牌",
                ),
                redeal=True,
            )
    trump, reason = _fallback(rules, trump_level, kitty)
    return BidSequence(tuple(steps), first_invalid, None, trump, rules.no_bid_fallback, reason)
