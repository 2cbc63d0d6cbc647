"""Explanations a player can read: a stable code plus typed parameters.

Every verdict the engine returns carries its reasons, built by the same code
that decides, so the verdict and its explanation never disagree.  A reason
holds no sentence: it says *what* was decided (its ``code``) and *about what*
(its parameters: cards, seats, teams, counts, shapes, suits, levels, the trump
(``engine.trump.Trump``), another reason).  The service words it in the
reader's language through its message catalogs (docs/api.md "Languages"), so
every language words the same facts.

``form`` picks one of a code's wordings where the facts differ in kind (the
first trick's leader is the dealer, a later one won the trick before): the
catalog key is ``code`` or ``code/form``; the code a client sees is the same.
"""

from __future__ import annotations

from collections import Counter
from typing import Union

from msgspec import Struct

from engine.shapes import Shape
from engine.trump import Trump

# The facts, and the reason itself: frozen ``msgspec.Struct`` records.  A struct is
# built, hashed and compared in C (a verdict makes dozens of them, and the service
# keys its wording on their value), and is equal only to a struct of its own type,
# never to a plain tuple or to a fact of another kind holding the same values.
# None takes part in a reference cycle (each is built from values made before it),
# so none is tracked by the garbage collector (``gc=False``).


class Cards(Struct, frozen=True, gc=False):
    """Cards in the order the reason names them (kinds 0..53)."""

    cards: tuple[int, ...]


class Seat(Struct, frozen=True, gc=False):
    """A seat, 0..3."""

    seat: int


SEAT_FACTS: tuple[Seat, ...] = tuple(Seat(seat) for seat in range(4))
"""The four seats as facts, one object each (reasons are compared with ``==``:
the same object answers at once)."""


class Team(Struct, frozen=True, gc=False):
    """A team: 0 (seats 0 and 2, called "A") or 1 (seats 1 and 3, "B")."""

    team: int


class Side(Struct, frozen=True, gc=False):
    """A side of the hand: ``dealer`` or ``defenders``."""

    side: str


class Suit(Struct, frozen=True, gc=False):
    """An effective suit: 0..3 (S, H, C, D) or 4 (trumps)."""

    suit: int


class Level(Struct, frozen=True, gc=False):
    """A level: a rank index, 0 ("2") .. 12 ("A")."""

    rank: int


class Pieces(Struct, frozen=True, gc=False):
    """Shapes counted (largest first) and a number of singles: what a lead
    consists of or what a follow must form (``a 2-pair tractor + 2 singles``)."""

    shapes: tuple[tuple[Shape, int], ...]
    singles: int = 0


class Pattern(Struct, frozen=True, gc=False):
    """What a follow forms or owes: one or more equally good ``alternatives``;
    under a seed's pattern ladder (docs/rules.md §5) also its ``step`` of ``steps``."""

    alternatives: tuple[Pieces, ...]
    step: int | None = None
    steps: int | None = None


class Step(Struct, frozen=True, gc=False):
    """A step of the bidding or frying ladder (docs/rules.md §9): ``count``
    copies of a level card (of ``suit`` where suits rank apart) or of a joker
    (``joker``: ``small``, ``big``, or ``any`` for the fry's four jokers)."""

    count: int
    joker: str | None = None
    suit: int | None = None


class Points(Struct, frozen=True, gc=False):
    """A number of card points (``20 points`` / ``20分``) where another count is the reason's ``n``."""

    points: int


class SeatCounts(Struct, frozen=True, gc=False):
    """A count per seat (``seat 1: 3, seat 2: 1``)."""

    counts: tuple[tuple[int, int], ...]


Param = Union[
    int, str, Cards, Seat, Team, Side, Suit, Level, Shape, Pieces, Pattern, Step, Trump, Points, SeatCounts, "Reason"
]
"""A reason's parameter: a count (int), a token the catalogs do not translate
(an option value, a source: ``str``), or a typed value each locale writes its
own way."""


class Reason(Struct, frozen=True, gc=False, cache_hash=True):
    """``code`` is stable snake_case with a dotted area (``follow.must_play_pair``);
    ``params`` name the facts, in a fixed order; ``form`` (docs above) a wording.

    A struct, like the facts: the service keys its wording of a reason on the
    reason's value (service/explain.py), and a struct's hash and equality run
    in C, for the reason and every fact in it.  A reason keeps its hash once
    computed (``cache_hash``, msgspec's documented Struct option, "Struct
    Configuration"): the service looks a verdict's reasons up together and each
    one alone, and the engine's caches hand out the same reasons request after
    request."""

    code: str
    params: tuple[tuple[str, Param], ...] = ()
    form: str = ""

    @property
    def key(self) -> str:
        """The catalog key of this reason's wording: ``code`` or ``code/form``."""
        return f"{self.code}/{self.form}" if self.form else self.code

    def param(self, name: str) -> Param | None:
        """The parameter ``name``, or None."""
        return dict(self.params).get(name)


def reason(code: str, form: str = "", **params: Param) -> Reason:
    """``Reason(code, params, form)`` with the parameters as keywords."""
    return Reason(code, tuple(params.items()), form)


def pieces(shapes: list[Shape] | tuple[Shape, ...], singles: int = 0) -> Pieces:
    """``Pieces`` of a list of shapes (counted, largest first) and ``singles``."""
    return Pieces(tuple(sorted(Counter(shapes).items(), key=lambda kv: (-kv[0].size, -kv[0].width))), singles)


_PIECE: dict[str, type] = {"shape": Shape, "cards": Cards, "length": int, "size": int, "width": int, "n": int}
_BID: dict[str, type] = {"step": Step, "cards": Cards, "against": Step, "held_by": Seat}
_SEAT: dict[str, type] = {"seat": Seat}
_PLAY: dict[str, type] = {"trick": int, "seat": Seat}  # a play of the audited hand

REASONS: dict[str, dict[str, type]] = {
    # follow (docs/rules.md §5): what a hand owes (a phrase), and why a follow is illegal
    "follow.required/all": {"suit": Suit, "held": int, "n": int},
    "follow.required/all_only": {"suit": Suit, "n": int},
    "follow.required/none": {"suit": Suit, "n": int},
    "follow.required/shaped": {"suit": Suit, "n": int, "pattern": Pattern},
    "follow.required/any": {"suit": Suit, "n": int},
    "follow.must_follow_suit/all": {"suit": Suit, "n": int, "led": int, "got": int},
    "follow.must_follow_suit": {"suit": Suit, "held": int, "n": int, "got": int},
    "follow.must_match_pattern": {
        "suit": Suit, "lead": Pieces, "patterns": str, "source": str, "owed": Pattern, "reached": Pattern,
    },
    # the tractor pieces owed and played, longest first (``n``: how many are owed), and an arrangement owed
    **{
        f"follow.must_play_tractor{form}": {
            "suit": Suit, "lead": Pieces, "owed": Pieces, "example": Pattern, "have": Pieces, "n": int,
        }
        for form in ("", "/none")
    },
    **{
        f"follow.must_play_{tuple_}{form}": {"suit": Suit, "lead": Pieces, "owed": Pieces, "have": Pieces, "n": int}
        for tuple_ in ("pair", "triple", "quad", "tuple")
        for form in ("", "/none", "/tractors", "/tractors_none")
    },
    # trick (§6)
    **dict.fromkeys(("trick.lead", "trick.lead/throw"), {"seat": Seat, "suit": Suit, "lead": Pieces}),
    **dict.fromkeys(("trick.ruff", "trick.discard", "trick.discard/trumps"), {"suit": Suit, "lead": Pieces}),
    "trick.follow": {"suit": Suit},
    "trick.no_structure": {"lead": Pieces},
    **{
        f"trick.{code}/{mode}": {"seat": Seat}
        for code in ("beats", "does_not_beat")
        for mode in ("largest_unit", "all_units", "dominance", "highest_card")
    },
    "trick.throw_not_judged": {},
    # throw (§4)
    "throw.unit_beaten": {"seat": Seat, "suit": Suit, "held": Cards, "thrown": Shape, "cards": Cards},
    "throw.unit_beaten_by_wider_shape": {
        "seat": Seat, "suit": Suit, "held": Cards, "shape": Shape, "thrown": Shape, "cards": Cards,
    },
    **dict.fromkeys(
        ("throw.forced.smallest_failed", "throw.forced.smallest_unit", "throw.forced.lowest_failed"),
        {"shape": Shape, "cards": Cards},
    ),
    "throw.forced.first_blocked": {"seat": Seat, "shape": Shape, "cards": Cards},
    "throw.penalty.match_point": {"seat": Seat, "n": int},
    **dict.fromkeys(
        ("throw.penalty.points_per_card", "throw.penalty.points_per_failed_card"),
        {"team": Team, "per": int, "cards": int, "n": int},
    ),
    "throw.penalty.points_per_throw": {"team": Team, "n": int},
    **dict.fromkeys(("throw.refused_others_void", "throw.stands"), {"suit": Suit, "n": int}),
    "throw.forced_lowest_card": {"cards": Cards},
    "throw.single_unit": {"shape": Shape, "cards": Cards},
    # kitty (§7)
    **{f"kitty.multiplier.lianzhong/{form}": _PIECE for form in ("triple_tractor", "triple", "pair_tractor", "pair", "singles")},
    **dict.fromkeys(("kitty.multiplier.power_of_two", "kitty.multiplier.linear"), _PIECE),
    "kitty.multiplier.capped": {"n": int},
    **{f"kitty.multiplier.flat/{form}": _PIECE for form in ("tractor", "tuple", "singles")},
    "kitty.multiplier.cgc_plain_suit": {"n": int},
    **dict.fromkeys(("kitty.multiplier.cgc", "kitty.multiplier.transfer"), _PIECE),
    **dict.fromkeys(("kitty.dug_by_defenders", "kitty.dug_by_dealer", "kitty.kept_by_dealer"), _SEAT),
    "kitty.transfer": {"seat": Seat, "side": Side, "loser": Side, "points": int, "k": int, "n": int},
    # settle (§8); settle.band is a part of the first two
    **{
        f"settle.{outcome}{form}": {
            "points": int, "band": Reason, "side": Side, "n": int, "step": Points, "extra": int, "seat": Seat,
        }
        for outcome in ("dealer_keeps", "defenders_take_over")
        for form in ("", "/step")
    },
    "settle.band/any": {},
    "settle.band/at_most": {"high": int},
    "settle.band/at_least": {"low": int},
    "settle.band/range": {"low": int, "high": int},
    "settle.mandatory_stop": {"team": Team, "level": Level, "gained": int, "n": int},
    **dict.fromkeys(
        ("settle.match_points", "settle.match_points/none"), {"team": Team, "each": int, "n": int}
    ),
    "settle.game_won": {"team": Team, "level": Level},
    # the hand audit (§10)
    "deal.hand_size": {"seat": Seat, "n": int, "decks": int, "kitty": int, "hand": int},
    "deal.kitty_size": {"n": int, "size": int},
    "deal.incomplete": {"n": int, "cards": Cards},
    **dict.fromkeys(("hand.wrong_leader", "hand.wrong_leader/first"), {**_PLAY, "expected": Seat}),
    "hand.unfinished": {"n": int, "left": SeatCounts},
    "play.not_held": {**_PLAY, "cards": Cards},
    "play.wrong_count": {**_PLAY, "n": int, "led": int},
    **dict.fromkeys(("lead.mixed_suits", "lead.empty"), _PLAY),
    "follow.illegal": {**_PLAY, "cards": Cards, "why": Reason},
    **dict.fromkeys(
        ("throw.attempt_impossible/not_held", "throw.attempt_impossible/mixed_suits"),
        {**_PLAY, "cards": Cards, "missing": Cards},
    ),
    "throw.failed": {**_PLAY, "cards": Cards, "forced": Cards, "why": Reason},
    **dict.fromkeys(("throw.wrongly_refused", "throw.into_void"), {**_PLAY, "cards": Cards}),
    "throw.wrong_forced_play": {**_PLAY, "cards": Cards, "forced": Cards, "played": Cards},
    # bids (§9)
    "bid.single_joker": {"cards": Cards},
    "bid.too_few_jokers": {"cards": Cards, "n": int},
    "bid.too_few_jokers/opening": {"cards": Cards, "n": int, "step": Step},
    "bid.opens": {"seat": Seat, "step": Step, "cards": Cards, "trump": Trump},
    **dict.fromkeys(("bid.self_reinforce_not_allowed", "bid.self_overturn_not_allowed"), _SEAT),
    **dict.fromkeys(("bid.equal_strength", "bid.weaker"), _BID),
    **{f"bid.{code}": {"seat": Seat, **_BID, "trump": Trump} for code in ("reinforces", "self_overturns", "outbids", "overturns")},
    **dict.fromkeys(("bid.fallback.no_trump", "bid.fallback.spades"), {"trump": Trump}),
    **dict.fromkeys(
        ("bid.fallback.kitty_level_card", "bid.fallback.kitty_joker", "bid.fallback.kitty_first_card"),
        {"cards": Cards, "trump": Trump},
    ),
    "bid.stands": {"seat": Seat, "step": Step, "cards": Cards, "trump": Trump},
    "bid.redeal": {},
    # frying the kitty (§9)
    "fry.kitty_turned": {},
    **dict.fromkeys(("fry.holds_kitty", "fry.over", "fry.own_declaration"), _SEAT),
    "fry.not_on_ladder": {"cards": Cards},
    **dict.fromkeys(
        ("fry.equal_strength", "fry.weaker"),
        {"step": Step, "cards": Cards, "declarer": Seat, "declaration": Cards},
    ),
    "fry.fries": {"seat": Seat, "step": Step, "cards": Cards, "declarer": Seat, "trump": Trump},
    "fry.none": {"seat": Seat, "trump": Trump},
    "fry.ends": {"seat": Seat, "declarer": Seat, "declaration": Cards, "trump": Trump},
}
"""Every reason the engine gives, by catalog key (``code`` or ``code/form``),
with the name and kind of each fact it carries: what every catalog words
(the service checks each reason it renders against it)."""
