"""House rules: one frozen ``Rules`` object built from a preset plus overrides.

Every disagreement between the seeds is a named option (docs/rules.md §1–§10); a
preset is nothing but a complete set of option values (``PRESET_VALUES``).  No code
anywhere branches on a preset's name: it reads options.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from functools import cache
from typing import Any, Literal, get_type_hints

from engine.cards import CARDS_PER_DECK, RANKS, CardError, parse_rank
from engine.errors import InvalidInput, Problem
from engine.levels import LevelTable, level_table_from_json

DEFAULT_PRESET = "two-deck"


class KittyMultiplier(StrEnum):
    """抠底 multiplier kind (docs/rules.md §7)."""

    POWER_OF_TWO = "power_of_two"
    LINEAR = "linear"
    FLAT = "flat"
    LIANZHONG = "lianzhong"
    CGC = "cgc"
    TRANSFER = "transfer"


class FollowPatterns(StrEnum):
    """Which seed's ordered pattern lists judge a follow (docs/rules.md §5)."""

    CLASSIC = "classic"
    THREE_DECK = "three-deck"
    FOUR_DECK = "four-deck"
    FOUR_DECK_CGC = "four-deck-cgc"


class FollowTractors(StrEnum):
    """What a lead's tractors oblige (docs/rules.md §5): tractors, or only their pairs (Botzone)."""

    REQUIRED = "required"
    PAIRS_ONLY = "pairs_only"


class FollowDraw(StrEnum):
    """``format``: a follow matches the lead's structure; ``suit_only``: the suit rule only."""

    FORMAT = "format"
    SUIT_ONLY = "suit_only"


class ThrowForcedUnit(StrEnum):
    """Which unit a failed throw must play (docs/rules.md §4)."""

    LOWEST_FAILED = "lowest_failed"
    SMALLEST_FAILED = "smallest_failed"
    SMALLEST_UNIT = "smallest_unit"
    FIRST_BLOCKED = "first_blocked"


class ThrowForcedCards(StrEnum):
    """How much of the forced unit a failed throw plays (docs/rules.md §4)."""

    UNIT = "unit"
    LOWEST_CARD = "lowest_card"


class ThrowWhenOthersVoid(StrEnum):
    """A multi-unit lead nobody else can follow in suit (docs/rules.md §4; seed 000 四副)."""

    ALLOWED = "allowed"
    REFUSED = "refused"


class ThrowPenalty(StrEnum):
    """What a failed throw costs (docs/rules.md §4)."""

    NONE = "none"
    MATCH_POINT = "match_point"
    POINTS_PER_CARD = "points_per_card"
    POINTS_PER_FAILED_CARD = "points_per_failed_card"
    POINTS_PER_THROW = "points_per_throw"


class ThrowComparison(StrEnum):
    """How multi-unit plays compare (docs/rules.md §6)."""

    LARGEST_UNIT = "largest_unit"
    ALL_UNITS = "all_units"
    DOMINANCE = "dominance"
    HIGHEST_CARD = "highest_card"


class RuffShape(StrEnum):
    """What a ruff must look like to count (docs/rules.md §6)."""

    STRUCTURE = "structure"
    EXACT = "exact"


class NoBidFallback(StrEnum):
    """The trump when nobody bids (docs/rules.md §9)."""

    NO_TRUMP = "no_trump"
    SPADES = "spades"
    KITTY_FIRST_CARD = "kitty_first_card"


class NoBidFirstHand(StrEnum):
    """No bid at all in a game's first hand (docs/rules.md §9)."""

    FALLBACK = "fallback"
    REDEAL = "redeal"


class MatchPoints(StrEnum):
    """Match points after a hand (docs/rules.md §8)."""

    NONE = "none"
    CGC = "cgc"


def _option(help: str, minimum: int | None = None, maximum: int | None = None) -> Any:
    """A ``Rules`` field that is an option, with its help and bounds (``OPTIONS``)."""
    return field(metadata={"help": help, "minimum": minimum, "maximum": maximum})


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete, validated set of option values (docs/rules.md option names),
    each with its help and bounds; its kind follows from its type (``OPTIONS``).

    Frozen: its hash and equality cover every field, so it keys caches whole.
    """

    decks: int = _option("number of full 54-card decks (docs/rules.md §1)", minimum=1, maximum=4)
    kitty_size: int = _option("cards in the kitty 底牌 (docs/rules.md §7)", minimum=0, maximum=54)
    constant_trump_ranks: tuple[int, ...] = _option("ranks that are always trump 常主 (docs/rules.md §2)")
    kitty_multiplier: KittyMultiplier = _option("抠底 multiplier kind (docs/rules.md §7)")
    kitty_cap: int = _option("upper bound of the power_of_two multiplier", minimum=1)
    kitty_dig_by_dealer: bool = _option("the dealer side may dig the kitty too (seed 002)")
    level_table: LevelTable = _option("a table name or {bands, step} (docs/rules.md §8)")
    follow_patterns: FollowPatterns = _option("structure rule for following (docs/rules.md §5)")
    follow_tractors: FollowTractors = _option("required: tractors owed for tractors; pairs_only: their pairs")
    follow_draw: FollowDraw = _option("format: match structure; suit_only: suit rule only")
    protect_longer_tuples: bool = _option("triples/quads never count as supplying narrower slots")
    wider_shape_beats: bool = _option("a wider shape beats a narrower one of equal size (docs/rules.md §3)")
    level_suit_precedence: bool = _option("off-suit level cards rank S > H > C > D (seed 002)")
    ace_low_tractor: bool = _option("A may also link below the lowest plain rank (AA2233)")
    level_constant_tractors: bool = _option(
        "the level and constant-rank tuples of one suit are adjacent (♠2♠2♠3♠3; seeds 000, 002)"
    )
    tractors_through_level_cards: bool = _option(
        "level cards and jokers link into tractors (off: only SJ-pair + BJ-pair; Botzone)"
    )
    throw_forced_unit: ThrowForcedUnit = _option("which unit a failed throw must play")
    throw_forced_cards: ThrowForcedCards = _option(
        "unit: the forced unit is played; lowest_card: its lowest card"
    )
    throw_when_others_void: ThrowWhenOthersVoid = _option(
        "a throw nobody else can follow in suit (docs/rules.md §4)"
    )
    throw_penalty: ThrowPenalty = _option("penalty for a failed throw (docs/rules.md §4)")
    throw_penalty_points_per_card: int = _option(
        "N of the points_per_card, points_per_failed_card and points_per_throw penalties",
        minimum=0, maximum=1000,
    )
    throw_comparison: ThrowComparison = _option("how multi-unit plays compare (docs/rules.md §6)")
    ruff_shape: RuffShape = _option("structure: arranged into the lead's units; exact: decomposed into them")
    self_reinforce: bool = _option("自保: the standing bidder may strengthen the same suit")
    self_overturn: bool = _option("自反: the standing bidder may change suit")
    bid_suit_precedence: bool = _option("equal-count bids rank D < C < H < S (seed 002)")
    no_trump_bid_min_jokers: int = _option(
        "jokers of one kind needed to bid no-trump (at most decks)", minimum=2, maximum=4
    )
    no_bid_fallback: NoBidFallback = _option("trump when nobody bids (docs/rules.md §9)")
    no_trump_overturn_min_jokers: int = _option(
        "jokers of one kind an overturn to no-trump needs (seed 002)", minimum=2, maximum=4
    )
    no_bid_first_hand: NoBidFirstHand = _option("nobody bids in a game's first hand (seed 002)")
    kitty_fry: bool = _option("炒底: others may overturn after the kitty is buried (seed 002)")
    match_points: MatchPoints = _option("match points by seat after a hand (seed 002 胜负结算)")
    mandatory_levels: tuple[int, ...] = _option(
        "必打: levels a side must win as dealer to pass (docs/rules.md §8)"
    )
    preset: str | None = None
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Every trump order, suit view and lead cache is keyed on the rules: hash them once.
        values = tuple(getattr(self, f.name) for f in fields(self) if f.compare)
        object.__setattr__(self, "_hash", hash(values))

    def __hash__(self) -> int:
        """The hash of every field but itself, worked out once (equality compares the same fields)."""
        return self._hash

    @property
    def hand_size(self) -> int:
        """Cards each seat holds after the deal: (cards − kitty) / 4."""
        return (CARDS_PER_DECK * self.decks - self.kitty_size) // 4

    @property
    def total_points(self) -> int:
        """100 points per deck."""
        return 100 * self.decks

    def as_json(self) -> dict[str, Any]:
        """All option values, JSON-ready (ranks as strings, the table expanded)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if not f.compare:
                continue
            value = getattr(self, f.name)
            if f.name in ("constant_trump_ranks", "mandatory_levels"):
                value = [RANKS[r] for r in value]
            elif f.name == "level_table":
                value = value.as_json()
            elif isinstance(value, StrEnum):
                value = value.value
            out[f.name] = value
        return out


OptionKind = Literal["int", "bool", "choice", "ranks", "level_table"]


@dataclass(frozen=True, slots=True)
class Option:
    """How one option's JSON value is checked and converted."""

    kind: OptionKind
    enum: type[StrEnum] | None = None  # a choice's values
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""

    @property
    def choices(self) -> tuple[str, ...]:
        """A choice's JSON values, in the enum's order (else none)."""
        return tuple(member.value for member in self.enum or ())


_KINDS: dict[object, OptionKind] = {
    int: "int", bool: "bool", tuple[int, ...]: "ranks", LevelTable: "level_table"
}


def _options() -> dict[str, Option]:
    """Every option, from its ``Rules`` field: a choice of an enum's values, else a kind by type."""
    hints = get_type_hints(Rules)
    options: dict[str, Option] = {}
    for f in fields(Rules):
        if f.metadata:
            hint = hints[f.name]
            enum = hint if isinstance(hint, type) and issubclass(hint, StrEnum) else None
            options[f.name] = Option("choice" if enum else _KINDS[hint], enum, **f.metadata)
    return options


OPTIONS: dict[str, Option] = _options()

# The values every preset shares unless it says otherwise (docs/rules.md §10), by rule area.
_BASE: dict[str, Any] = {
    # the trump order and its tractors (§2, §3)
    "constant_trump_ranks": [], "wider_shape_beats": False, "level_suit_precedence": False,
    "ace_low_tractor": False, "level_constant_tractors": False, "tractors_through_level_cards": True,
    # throws (§4), following (§5), comparing plays (§6)
    "throw_forced_unit": "lowest_failed", "throw_forced_cards": "unit", "throw_when_others_void": "allowed",
    "throw_penalty": "none", "throw_penalty_points_per_card": 10,
    "follow_tractors": "required", "follow_draw": "format", "protect_longer_tuples": False,
    "throw_comparison": "largest_unit", "ruff_shape": "structure",
    # the kitty (§7), the hand's end (§8)
    "kitty_cap": 64, "kitty_dig_by_dealer": False, "match_points": "none", "mandatory_levels": [],
    # bids and frying the kitty (§9)
    "self_reinforce": True, "self_overturn": True, "bid_suit_precedence": False, "no_trump_bid_min_jokers": 2,
    "no_bid_fallback": "no_trump", "no_trump_overturn_min_jokers": 2, "no_bid_first_hand": "fallback",
    "kitty_fry": False,
}

# docs/rules.md §10, one row per preset: data only.
PRESET_VALUES: dict[str, dict[str, Any]] = {
    "one-deck": {
        "decks": 1, "kitty_size": 6, "kitty_multiplier": "power_of_two",
        "level_table": "one-deck", "follow_patterns": "classic",
    },
    "one-deck-lianzhong": {
        "decks": 1, "kitty_size": 6, "kitty_multiplier": "linear",
        "level_table": "one-deck-lianzhong", "follow_patterns": "classic",
    },
    "two-deck": {
        "decks": 2, "kitty_size": 8, "kitty_multiplier": "power_of_two",
        "level_table": "two-deck", "follow_patterns": "classic",
    },
    "two-deck-constant-2": {
        "decks": 2, "kitty_size": 8, "constant_trump_ranks": ["2"], "kitty_multiplier": "power_of_two",
        "level_table": "two-deck", "follow_patterns": "classic",
    },
    "two-deck-lianzhong": {
        "decks": 2, "kitty_size": 8, "kitty_multiplier": "lianzhong",
        "level_table": "two-deck", "follow_patterns": "classic",
    },
    "three-deck": {
        "decks": 3, "kitty_size": 6, "kitty_multiplier": "lianzhong",
        "level_table": "three-deck", "follow_patterns": "three-deck", "wider_shape_beats": True,
    },
    "four-deck": {
        "decks": 4, "kitty_size": 0, "constant_trump_ranks": ["2"], "kitty_multiplier": "transfer",
        "level_table": "four-deck", "follow_patterns": "four-deck", "wider_shape_beats": True,
        "self_overturn": False, "no_bid_fallback": "spades", "level_constant_tractors": True,
        "throw_when_others_void": "refused",
    },
    "four-deck-cgc": {
        "decks": 4, "kitty_size": 8, "constant_trump_ranks": ["2"], "kitty_multiplier": "cgc",
        "kitty_dig_by_dealer": True, "level_table": "four-deck-cgc", "follow_patterns": "four-deck-cgc",
        "wider_shape_beats": True, "level_suit_precedence": True, "bid_suit_precedence": True,
        "throw_forced_unit": "smallest_failed", "throw_penalty": "match_point",
        "self_overturn": False, "no_trump_bid_min_jokers": 4, "no_bid_fallback": "kitty_first_card",
        "no_bid_first_hand": "redeal", "kitty_fry": True, "match_points": "cgc",
        "level_constant_tractors": True,
    },
    # compatibility presets: another platform's rulings under its own name (docs/rules.md §10)
    "shengji-io": {
        "decks": 2, "kitty_size": 8, "kitty_multiplier": "linear",
        "level_table": "two-deck", "follow_patterns": "classic",
        "throw_forced_unit": "first_blocked", "throw_comparison": "all_units",
        "self_overturn": False, "mandatory_levels": ["A"],
    },
    "botzone": {
        "decks": 2, "kitty_size": 8, "kitty_multiplier": "linear",
        "level_table": "botzone", "follow_patterns": "classic", "follow_tractors": "pairs_only",
        "throw_forced_cards": "lowest_card", "throw_penalty": "points_per_failed_card",
        "throw_penalty_points_per_card": 10, "tractors_through_level_cards": False,
    },
}

def _invalid(name: str, must: str) -> InvalidInput:
    return InvalidInput(Problem((), f"{name} must {must}", code="invalid_option_value"))


def _convert(name: str, option: Option, value: object) -> Any:
    """Check one option value; raise InvalidInput with a path relative to it."""
    if option.kind == "bool":
        if not isinstance(value, bool):
            raise _invalid(name, "be true or false")
        return value
    if option.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise _invalid(name, "be an integer")
        if option.minimum is not None and value < option.minimum:
            raise _invalid(name, f"be at least {option.minimum}")
        if option.maximum is not None and value > option.maximum:
            raise _invalid(name, f"be at most {option.maximum}")
        return value
    if option.enum is not None:
        if value not in option.choices:
            raise _invalid(name, f"be one of {', '.join(option.choices)}; got {value!r}")
        return option.enum(value)
    if option.kind == "level_table":
        return level_table_from_json(value)
    # ranks
    if not isinstance(value, list):
        raise _invalid(name, 'be an array of ranks such as ["2"]')
    ranks: list[int] = []
    problems: list[Problem] = []
    for i, item in enumerate(value):
        try:
            if not isinstance(item, str):
                raise CardError('a rank must be a string such as "2"')
            rank = parse_rank(item)
        except CardError as exc:
            problems.append(Problem((i,), str(exc), code="invalid_rank"))
            continue
        if rank in ranks:
            problems.append(Problem((i,), f"rank {RANKS[rank]} is listed twice", code="invalid_option_value"))
        ranks.append(rank)
    if problems:
        raise InvalidInput(problems)
    return tuple(sorted(ranks, reverse=True))


def _build(values: Mapping[str, Any], preset: str | None) -> Rules:
    """Every option converted, then checked against the others (docs/rules.md §1, §7, §9)."""
    problems: list[Problem] = []
    converted: dict[str, Any] = {}
    for name, option in OPTIONS.items():
        try:
            converted[name] = _convert(name, option, values[name])
        except InvalidInput as exc:
            problems += exc.under(name).problems
    if problems:
        raise InvalidInput(problems)
    decks, kitty, bid_jokers = (converted[n] for n in ("decks", "kitty_size", "no_trump_bid_min_jokers"))
    cards = CARDS_PER_DECK * decks
    inconsistent = (  # (broken, option, message)
        # four equal hands (docs/rules.md §1)
        ((cards - kitty) % 4 != 0, "kitty_size",
         f"{decks} deck(s) ({cards} cards) less a kitty of {kitty} cannot be dealt evenly to four seats"),
        # a joker bid shows copies of one joker (docs/rules.md §9), so at most `decks` of them
        (bid_jokers > max(2, decks), "no_trump_bid_min_jokers",
         f"a no-trump bid shows jokers of one kind and {decks} deck(s) hold only {decks} of each"),
        # an overturn is never harder than a first declaration (docs/rules.md §9)
        (converted["no_trump_overturn_min_jokers"] > bid_jokers, "no_trump_overturn_min_jokers",
         "an overturn to no-trump cannot need more jokers than a first declaration "
         f"(no_trump_bid_min_jokers is {bid_jokers})"),
        # the fry ladder's steps are pairs and four jokers, and a fry takes the kitty (seed 002 炒底)
        (converted["kitty_fry"] and (kitty == 0 or decks < 2), "kitty_fry",
         "frying the kitty needs a kitty (kitty_size above 0) and at least 2 decks for its pairs"),
    )
    problems = [
        Problem((name,), text, code="inconsistent_rules") for broken, name, text in inconsistent if broken
    ]
    if converted["throw_penalty_points_per_card"] % 5:
        name, text = "throw_penalty_points_per_card", "game points come in multiples of 5"
        problems.append(Problem((name,), text, code="invalid_option_value"))
    if problems:
        raise InvalidInput(problems)
    return Rules(**converted, preset=preset)


@cache
def preset(name: str) -> Rules:
    """The rules of a named preset (docs/rules.md §10)."""
    if name not in PRESET_VALUES:
        raise InvalidInput(
            Problem((), f"unknown preset {name!r}; known presets: {', '.join(PRESET_VALUES)}", code="unknown_preset")
        )
    return _build(_BASE | PRESET_VALUES[name], name)


def rules_from_json(spec: object) -> Rules:
    """``"two-deck"`` or ``{"preset": "two-deck", ...overrides}`` → Rules.

    Missing (None) means the default preset.  Error paths are relative to the
    ``rules`` value.
    """
    if spec is None or isinstance(spec, str):
        return preset(DEFAULT_PRESET if spec is None else spec)
    if not isinstance(spec, Mapping):
        raise InvalidInput(Problem((), "rules must be a preset name or an object {\"preset\": ..., options}", code="invalid_rules"))
    name = spec.get("preset", DEFAULT_PRESET)
    if not isinstance(name, str):
        raise InvalidInput(Problem(("preset",), "preset must be a preset name", code="unknown_preset"))
    try:
        base = preset(name)
    except InvalidInput as exc:
        raise exc.under("preset") from None
    overrides = {k: v for k, v in spec.items() if k != "preset"}
    unknown = [k for k in overrides if k not in OPTIONS]
    if unknown:
        raise InvalidInput(
            [Problem((k,), f"unknown option {k!r}; see GET /v1/rulesets for the option names", code="unknown_option") for k in unknown]
        )
    return _build(_BASE | PRESET_VALUES[name] | overrides, None) if overrides else base
