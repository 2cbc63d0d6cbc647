"""Combinations and the decomposition (docs/rules.md §3 and §4)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rules import preset
from engine.trump import TRUMP, Trump, TrumpOrder, trump_order
from engine.units import decompose, is_tractor
from tests.helpers import cards, names, order

# (rules, level, trump suit, cards, is a tractor, source)
TRACTOR_CASES = [
    # seed 000 拖拉机的构成, playing 10
    ("two-deck", "10", "H", "KS KS QS QS", True, "seed 000 KKQQ"),
    ("two-deck", "10", "H", "JS JS 9S 9S", True, "seed 000 JJ99: the level rank is removed"),
    ("two-deck", "10", "H", "5S 5S 4S 4S 3S 3S", True, "seed 000 554433"),
    ("two-deck", "10", "H", "SJ SJ 10H 10H", True, "seed 000 小王对 + 主10对"),
    ("two-deck", "10", "H", "10H 10H 10S 10S", True, "seed 000 主10对 + 副10对"),
    ("two-deck", "10", "H", "10C 10C AH AH", True, "seed 000 副10对 + 主A对"),
    ("two-deck", "10", "H", "10H 10H 10D 10D AH AH", True, "seed 000 主10 + 副10 + 主A"),
    ("two-deck", "10", "H", "BJ BJ SJ SJ", True, "seed 003 大王小王"),
    ("two-deck", "10", "H", "5S 5S 4S", False, "seed 000 554"),
    ("two-deck", "10", "H", "5S 4S 4S", False, "seed 000 544"),
    ("two-deck", "10", "H", "5S 5S 3S 3S", False, "seed 000 5533"),
    ("two-deck", "10", "H", "JS JS QS", False, "seed 000 JJQ"),
    ("two-deck", "10", "H", "10S 10S 10C 10C", False, "seed 000 两对副10 (one step)"),
    ("two-deck", "10", "H", "JS JS 10S 10S", False, "seed 000 JJ1010 (10S is trump)"),
    ("two-deck", "10", "H", "AS AS 2S 2S", False, "seed 000 AA22"),
    ("two-deck", "10", "H", "AH AH KH KH QH QH", True, "trump suit run"),
    ("two-deck", "10", "H", "BJ BJ 10H 10H", False, "SJ step missing"),
    # seed 003, playing 5
    ("two-deck", "5", "H", "3S 3S 4S 4S", True, "seed 003 3344"),
    ("two-deck", "5", "H", "4S 4S 6S 6S", True, "seed 003 4466 (5 removed)"),
    ("two-deck", "5", "H", "5S 5S 5H 5H", True, "seed 003 副5主5"),
    ("two-deck", "5", "H", "AH AH 5C 5C", True, "seed 003 AA副5"),
    ("two-deck", "5", "H", "5H 5H SJ SJ", True, "seed 003 主5小王"),
    ("two-deck", "5", "H", "5S 5S 6S 6S", False, "seed 003 5566 is not"),
    ("two-deck", "5", None, "5S 5S 5H 5H", False, "seed 003 no-trump 5555 is not"),
    ("two-deck", "5", None, "5S 5S SJ SJ", True, "no-trump: level pair + SJ pair"),
    # seed 000 with constant 2s: 主10 副10 主2 副2 A
    ("two-deck-constant-2", "10", "H", "10S 10S 2H 2H", True, "副10 + 主2"),
    ("two-deck-constant-2", "10", "H", "2H 2H 2S 2S", True, "主2 + 副2"),
    ("two-deck-constant-2", "10", "H", "2D 2D AH AH", True, "副2 + 主A"),
    ("two-deck-constant-2", "10", "H", "10S 10S AH AH", False, "the 2s sit between"),
    ("two-deck-constant-2", "10", "H", "3S 3S 4S 4S", True, "plain run without 2"),
    # three decks: 泰坦尼克 (seed 000 三副 / seed 003, playing 5)
    ("three-deck", "5", "H", "3S 3S 3S 4S 4S 4S", True, "seed 000 333444"),
    ("three-deck", "5", "H", "4S 4S 4S 6S 6S 6S", True, "seed 000 444666"),
    ("three-deck", "5", "H", "5S 5S 5S 5H 5H 5H", True, "seed 000 副5主5"),
    ("three-deck", "5", "H", "BJ BJ BJ SJ SJ SJ", True, "seed 000 大王小王"),
    ("three-deck", "5", "H", "AH AH AH 5D 5D 5D", True, "seed 000 AAA副5"),
    ("three-deck", "5", "H", "5H 5H 5H SJ SJ SJ", True, "seed 000 主5小王"),
    ("three-deck", "5", "H", "5S 5S 5S 6S 6S 6S", False, "seed 000 555666 is not"),
    ("three-deck", "5", None, "5S 5S 5S 5H 5H 5H", False, "seed 000 no-trump 555555 is not"),
    ("three-deck", "5", "H", "3S 3S 3S 4S 4S", False, "mixed widths"),
    ("three-deck", "5", "H", "3S 3S 4S 4S", True, "pair tractor with three decks"),
    # four decks (seed 000 四副, seed 002): pair, triple and quad tractors
    ("four-deck", "10", "H", "4S 4S 5S 5S 6S 6S 7S 7S", True, "seed 000 44556677"),
    ("four-deck", "10", "H", "4S 4S 4S 4S 5S 5S 5S 5S", True, "seed 000 44445555"),
    ("four-deck", "10", "H", "JS JS JS QS QS QS", True, "seed 000 JJJQQQ"),
    ("four-deck", "10", "H", "6S 6S 6S 6S 7S 7S 7S 7S 8S 8S 8S 8S", True, "seed 002 666677778888"),
    ("four-deck", "10", "H", "3S 3S 4S 4S", True, "3 links to 4 (2 is constant trump)"),
    ("four-deck", "10", "H", "3S 3S AS AS", False, "2 is gone but A does not link to 3"),
    ("four-deck", "10", "H", "BJ BJ SJ SJ", True, "seed 002 王连拖"),
    ("four-deck", "10", "H", "2H 2H 2H 2H 2S 2S 2S 2S", True, "主2 + 副2 quads"),
    ("four-deck", "10", "H", "4S 4S 4S 4S 5S 5S 5S", False, "quad + triple"),
    # option ace_low_tractor (seed 002: AA2233)
    ({"preset": "two-deck", "ace_low_tractor": True}, "10", "H", "AS AS 2S 2S 3S 3S", True, "ace low"),
    ({"preset": "two-deck", "ace_low_tractor": True}, "10", "H", "AS AS 2S 2S", True, "ace low AA22"),
    ({"preset": "two-deck", "ace_low_tractor": True}, "10", "H", "KS KS AS AS 2S 2S", False, "A only at an end"),
    ({"preset": "two-deck", "ace_low_tractor": True}, "10", "H", "KS KS AS AS", True, "A still links to K"),
    ("two-deck", "10", "H", "AS AS 2S 2S 3S 3S", False, "off by default"),
]


@pytest.mark.parametrize(("rules", "level", "suit", "text", "expected", "source"), TRACTOR_CASES)
def test_tractor_examples(rules: object, level: str, suit: str | None, text: str, expected: bool, source: str) -> None:
    o = order(level, suit, rules)  # type: ignore[arg-type]
    assert is_tractor(cards(text), o) is expected, source


# (rules, level, suit, cards, expected units high-first as (width, length, cards), source)
DECOMPOSITION_CASES = [
    ("three-deck", "4", "S", "2H 2H 3H 3H 3H 5H 5H 5H", [(3, 2, "5H 5H 5H 3H 3H 3H"), (2, 1, "2H 2H")],
     "docs/rules.md §4: 333555 + 22, not 223355 + 3 + 5"),
    ("two-deck", "2", "H", "AS KS QS JS 10S 9S 8S 7S 7S",
     [(2, 1, "7S 7S"), (1, 1, "AS"), (1, 1, "KS"), (1, 1, "QS"), (1, 1, "JS"), (1, 1, "10S"), (1, 1, "9S"), (1, 1, "8S")],
     "seed 004 throw AKQJ109877"),
    ("two-deck", "10", "H", "9S 8S 8S 4S 4S", [(2, 1, "8S 8S"), (2, 1, "4S 4S"), (1, 1, "9S")], "seed 000 98844"),
    ("two-deck", "10", "H", "AS QS QS JS JS", [(2, 2, "QS QS JS JS"), (1, 1, "AS")], "seed 000 AQQJJ"),
    ("two-deck", "10", "H", "AS AS KS", [(2, 1, "AS AS"), (1, 1, "KS")], "seed 000 AAK"),
    ("two-deck", "10", "H", "AD AD JD JD", [(2, 1, "AD AD"), (2, 1, "JD JD")], "seed 001 AAJJ"),
    ("three-deck", "10", "H", "5S 5S 6S 6S 6S", [(2, 2, "6S 6S 5S 5S"), (1, 1, "6S")], "most cards first"),
    ("four-deck", "10", "H", "4S 4S 4S 4S 5S 5S 5S 5S 6S 6S", [(4, 2, "5S 5S 5S 5S 4S 4S 4S 4S"), (2, 1, "6S 6S")], "quad tractor + pair"),
    ("four-deck", "10", "H", "6S 6S 6S 7S 7S 7S 8S 8S 9S 9S", [(2, 4, "9S 9S 8S 8S 7S 7S 6S 6S"), (1, 1, "7S"), (1, 1, "6S")],
     "8 cards beat 6"),
    ("two-deck", "10", "H", "10S 10S 10C 10C AH AH", [(2, 2, "10S 10S AH AH"), (2, 1, "10C 10C")], "one off-suit level pair per step"),
    ("four-deck-cgc", "10", "S", "10D 10D 10H 10H 10H 2S 2S",
     [(2, 2, "10H 10H 2S 2S"), (2, 1, "10D 10D"), (1, 1, "10H")],
     "level_suit_precedence: of two tied tractors the higher (10H > 10D) is taken"),
    ("two-deck", "10", "H", "BJ SJ 10H 10S AH", [(1, 1, "BJ"), (1, 1, "SJ"), (1, 1, "10H"), (1, 1, "10S"), (1, 1, "AH")], "singles high first"),
]


@pytest.mark.parametrize(("rules", "level", "suit", "text", "expected", "source"), DECOMPOSITION_CASES)
def test_decomposition_examples(rules: str, level: str, suit: str, text: str,
                                expected: list[tuple[int, int, str]], source: str) -> None:
    o = order(level, suit, rules)
    got = [(u.width, u.length, names(u.cards)) for u in decompose(cards(text), o)]
    assert got == expected, source


def test_tie_between_equal_units_is_deterministic() -> None:
    o = order("10", "H")
    a = decompose(cards("10C 10C 10S 10S"), o)
    b = decompose(cards("10S 10S 10C 10C"), o)
    assert a == b and [u.shape for u in a] == [(2, 1), (2, 1)]


def test_decompose_rejects_mixed_suits() -> None:
    with pytest.raises(ValueError):
        decompose(cards("AS AH"), order("10", "C"))
    with pytest.raises(ValueError):
        decompose([], order("10", "C"))


def test_kind_labels() -> None:
    o = order("10", "H")
    kinds = [u.kind for u in decompose(cards("KS KS QS QS 9S 9S 3S"), o)]
    assert kinds == ["tractor", "tuple", "single"]


# --- properties ----------------------------------------------------------------

PRESETS = ["one-deck", "two-deck", "two-deck-constant-2", "three-deck", "four-deck", "four-deck-cgc"]


@st.composite
def suit_sets(draw: st.DrawFn) -> tuple[object, list[int]]:
    """A preset, a trump, and a multiset of cards of one effective suit."""
    name = draw(st.sampled_from(PRESETS))
    rules = preset(name)
    if draw(st.booleans()):
        rules = replace(rules, ace_low_tractor=True)
    t = Trump(draw(st.integers(0, 12)), draw(st.sampled_from([None, 0, 1, 2, 3])))
    o = trump_order(t, rules)
    eff = draw(st.sampled_from([TRUMP, 0, 1, 2, 3]))
    kinds = [k for step in o.steps[eff] for k in step]
    if not kinds:
        eff, kinds = TRUMP, [k for step in o.steps[TRUMP] for k in step]
    counts = draw(st.lists(st.integers(0, rules.decks), min_size=len(kinds), max_size=len(kinds)))
    chosen = [k for k, c in zip(kinds, counts, strict=True) for _ in range(c)]
    if not chosen:
        chosen = [kinds[0]]
    return o, chosen


@settings(max_examples=300, deadline=None)
@given(suit_sets(), st.randoms(use_true_random=False))
def test_decomposition_keeps_every_card_and_ignores_order(case: tuple[object, list[int]], rnd: object) -> None:
    o, chosen = case
    units = decompose(chosen, o)  # type: ignore[arg-type]
    assert Counter(c for u in units for c in u.cards) == Counter(chosen)
    shuffled = list(chosen)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert decompose(shuffled, o) == units  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(suit_sets())
def test_every_unit_is_well_formed(case: tuple[object, list[int]]) -> None:
    o, chosen = case
    units = decompose(chosen, o)  # type: ignore[arg-type]
    for u in units:
        tuples = [u.cards[i:i + u.width] for i in range(0, u.size, u.width)]
        assert all(len(set(t)) == 1 for t in tuples)
        if u.length > 1:
            assert is_tractor(u.cards, o)  # type: ignore[arg-type]
    # largest structures first: sizes never grow
    sizes = [(u.size, u.width) for u in units]
    assert sizes == sorted(sizes, reverse=True)


def _plain_greedy(cards: list[int], o: TrumpOrder) -> list[tuple[int, int, tuple[int, ...], int]]:
    """docs/rules.md §4 written out with every candidate listed at every step: each kind's
    whole tuple, and each maximal run of every chain at every width (at a step, the
    kind of the highest power, then the tightest fit, then the lowest); take the
    most cards, then the widest, then the highest (then the lowest kind; the
    first listed on a full tie)."""
    counts = Counter(cards)
    suit = o.suit[cards[0]]
    out = []
    while counts:
        candidates = [(c, [k], o.power[k]) for k, c in counts.items()]
        for width in range(2, max(counts.values()) + 1):
            for chain, values in zip(o.chains[suit], o.chain_values[suit], strict=True):
                run: list[int] = []
                top = 0
                for pos, place in enumerate([*chain, None]):
                    fits = [] if place is None else [k for k in place if counts[k] >= width]
                    if fits:
                        kind = min(fits, key=lambda k: (-o.power[k], counts[k], k))
                        run.append(kind)
                        top = values[pos] * 4 + o.power[kind] % 4
                        continue
                    if len(run) >= 2:
                        candidates.append((width, run, top))
                    run = []
        width, kinds, rank = max(candidates, key=lambda c: (c[0] * len(c[1]), c[0], c[2], -min(c[1])))
        out.append((width, len(kinds), tuple(k for k in o.sorted(kinds) for _ in range(width)), rank))
        counts.subtract({k: width for k in kinds})
        counts = +counts
    return out


@settings(max_examples=400, deadline=None)
@given(suit_sets())
def test_decomposition_is_the_plain_greedy(case: tuple[object, list[int]]) -> None:
    """decompose's shortcuts (tractors searched within runs of pairs only, the
    tuples taken at once when no tractor is left) give the units, in the order,
    of the greedy with every candidate listed (docs/rules.md §4)."""
    o, chosen = case
    units = decompose(chosen, o)  # type: ignore[arg-type]
    assert [(u.width, u.length, u.cards, u.rank) for u in units] == _plain_greedy(chosen, o)  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["two-deck", "four-deck"]),
    st.integers(0, 12),
    st.sampled_from([0, 1, 2, 3, None]),
    st.integers(0, 4),
    st.lists(st.integers(0, 53), max_size=60),
)
def test_counts_in_is_the_plain_count_void_or_not(rules: str, level: int, suit: int | None, led: int, hand: list[int]) -> None:
    """``SuitView.counts_in`` (its void hands told by ``isdisjoint``, the others by
    ``bytes.translate``) against counting each card, for a list or a ``bytes``, and
    for the same hand with every card of the suit taken out (the void case)."""
    from engine.suit import suit_view

    view = suit_view(trump_order(Trump(level, suit), preset(rules)), led)
    void = [c for c in hand if c not in view.index]
    for cards_ in (hand, void):
        plain = [0] * len(view.kinds)
        for c in cards_:
            if c in view.index:
                plain[view.index[c]] += 1
        assert view.counts_in(cards_) == tuple(plain) == view.counts_in(bytes(cards_))
    assert view.counts_in(void) == (0,) * len(view.kinds)
