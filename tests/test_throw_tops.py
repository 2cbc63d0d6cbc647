"""engine.throw's search shortcut (docs/rules.md §4): ``SuitView.tops`` is, per length,
the highest unit of that length a suit has, and a thrown shape whose lowest
unit ranks that high is not searched — with the same verdict as a full search.

Throws of the top units of a suit are the usual ones (seed 000's AAA KKK kind
of throw: the units no one can beat), so the leads here are built from the top.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.throw as throw
from engine.cards import KINDS
from engine.lead import lead_of
from engine.rules import ThrowForcedUnit, rules_from_json
from engine.suit import NO_RANK, suit_view
from engine.trump import Trump, trump_order

PRESETS = ("one-deck", "two-deck", "three-deck", "four-deck", "four-deck-cgc")


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("ace_low", [False, True])
def test_tops_are_the_highest_run_of_each_length(preset: str, ace_low: bool) -> None:
    """Against every window of consecutive positions of every chain, ranked
    by its top position's value and its top step's most powerful kind."""
    rules = rules_from_json({"preset": preset, "ace_low_tractor": ace_low})
    for level in (0, 3, 8, 11, 12):
        for trump_suit in (None, 0, 3):
            order = trump_order(Trump(level, trump_suit), rules)
            for suit in sorted(set(order.suit)):
                view = suit_view(order, suit)
                expected = [NO_RANK] * (len(view.kinds) + 1)
                for chain, values in zip(order.chains[suit], order.chain_values[suit], strict=True):
                    for top, place in enumerate(chain):
                        power = max(order.power[k] for k in place)
                        for length in range(1, top + 2):
                            rank = power if length == 1 else values[top] * 4 + power % 4
                            expected[length] = max(expected[length], rank)
                assert list(view.tops) == expected


@st.composite
def top_throws(draw: Any) -> tuple[Any, ...]:
    """(rules, order, leader, lead, hands): a throw from the top of a suit (a
    tuple of its top kind or one just below, often a tractor or another unit
    of the next kind, a card of its lowest kind, half the time other units
    too), the rest dealt (half the time the top kinds left to one opponent)."""
    decks = draw(st.integers(1, 4))
    rules = rules_from_json(
        {
            "preset": ("one-deck", "two-deck", "three-deck", "four-deck")[decks - 1],
            "wider_shape_beats": draw(st.booleans()),
            "ace_low_tractor": draw(st.booleans()),
            "throw_forced_unit": draw(st.sampled_from([v.value for v in ThrowForcedUnit])),
        }
    )
    order = trump_order(Trump(draw(st.integers(0, 12)), draw(st.sampled_from([None, 0, 1, 2, 3]))), rules)
    rng: random.Random = draw(st.randoms(use_true_random=False))
    suit = draw(st.sampled_from(sorted(set(order.suit))))
    kinds = suit_view(order, suit).kinds[::-1]  # high → low
    width = rng.randint(1, decks)
    start = min(rng.randint(0, 2), len(kinds) - 1)  # the top kind, or just below it
    lead = [kinds[start]] * width
    if start + 1 < len(kinds) and rng.random() < 0.8:  # the next kind too: a tractor, or another unit
        lead += [kinds[start + 1]] * (width if rng.random() < 0.6 else rng.randint(1, decks))
    lead.append(kinds[-1])  # the suit's lowest kind: a throw, mostly
    for k in rng.sample(kinds, min(len(kinds), rng.randint(0, 4) if rng.random() < 0.5 else 0)):
        lead += [k] * rng.randint(1, decks)
    lead = [k for k, n in Counter(lead).items() for _ in range(min(n, decks))][:12]
    rest = Counter({k: decks for k in range(KINDS)})
    rest.subtract(lead)
    left = list(rest.elements())
    rng.shuffle(left)
    if rng.random() < 0.5:  # the led suit first: the others hold its tuples and tractors
        left.sort(key=lambda k: order.suit[k] != suit)
    if rng.random() < 0.5:  # the first opponent gets every copy left of the suit's top kinds
        left.sort(key=lambda k: k not in kinds[:4])
    leader = rng.randint(0, 3)
    hands = {}
    for i in range(1, 4):
        size = rng.randint(4 * decks if i == 1 else 0, 40)
        hands[(leader + i) % 4], left = left[:size], left[size:]
    return rules, order, leader, lead, hands


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(top_throws())
def test_the_shortcut_gives_the_verdict_of_a_full_search(deal: tuple[Any, ...]) -> None:
    rules, order, leader, lead, hands = deal
    verdict = throw.judge_throw(throw.check_throw(leader, lead, hands, order, rules))

    leads = []

    def searching_every_shape(*key: Any) -> Any:  # the lead, its suit's view ranking no unit on top
        found = lead_of(*key)
        view = dataclasses.replace(found.view, tops=(1 << 30,) * len(found.view.tops))
        leads.append(found)
        return dataclasses.replace(found, view=view)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(throw, "lead_of", searching_every_shape)
        searched = throw.judge_throw(throw.check_throw(leader, lead, hands, order, rules))
    assert leads, "the judgment reads the lead (and its view) through engine.throw.lead_of"
    assert verdict == searched


def _plain_best_at(view: Any, place: Any, counts: Any, width: int) -> int:
    """The kind of ``place`` a seat uses for a ``width``-tuple, by the rule's words: of
    those held ``width`` times the highest power, of equal powers the lowest kind."""
    held = [i for i in place if counts[i] >= width]
    return min(held, key=lambda i: (-view.power[i], view.kinds[i])) if held else -1


def _plain_highest(view: Any, counts: Any, width: int, length: int) -> Any:
    """``SuitView.highest`` the long way: every window of ``length`` positions of every
    chain (of a single tuple: every step), each position's kind ``_plain_best_at``'s,
    ranked by its top; the first found of the highest rank."""
    best = None
    if length == 1:
        for step in view.steps:
            i = _plain_best_at(view, step, counts, width)
            if i >= 0 and (best is None or view.power[i] > best[0]):
                best = (view.power[i], (view.kinds[i],) * width)
        return best
    for c, chain in enumerate(view.chains):
        for top in range(length - 1, len(chain)):
            window = [_plain_best_at(view, chain[p], counts, width) for p in range(top - length + 1, top + 1)]
            if min(window) < 0:
                continue
            rank = view.chain_values[c][top] * 4 + view.power[window[-1]] % 4
            if best is None or rank > best[0]:
                best = (rank, tuple(view.order.sorted([view.kinds[i] for i in window] * width)))
    return best


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(PRESETS),
    st.booleans(),
    st.booleans(),
    st.integers(0, 12),
    st.sampled_from([None, 0, 1, 2, 3]),
    st.randoms(use_true_random=False),
)
def test_highest_takes_kinds_in_the_preferred_order(
    preset: str, ace_low: bool, precedence: bool, level: int, trump_suit: int | None, rng: random.Random
) -> None:
    """``SuitView.highest`` reads each place's kinds in the order a seat takes them
    (``SuitView.preferred``, ``chains_preferred``) and takes the first held: the
    same unit as the rule's words (``_plain_highest``), for every width and length."""
    rules = rules_from_json({"preset": preset, "ace_low_tractor": ace_low, "level_suit_precedence": precedence})
    order = trump_order(Trump(level, trump_suit), rules)
    for suit in sorted(set(order.suit)):
        view = suit_view(order, suit)
        counts = [rng.choice([0, 0, 1, 2, rules.decks]) if rng.random() < 0.8 else rng.randint(0, rules.decks)
                  for _ in view.kinds]
        for width in range(1, rules.decks + 1):
            for length in range(1, 5):
                assert view.highest(counts, width, length) == _plain_highest(view, counts, width, length)
