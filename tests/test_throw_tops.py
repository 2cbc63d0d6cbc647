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
