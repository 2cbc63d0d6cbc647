"""The seeds' ordered follow patterns, as data (docs/rules.md §5 "Follow patterns").

``PATTERN_LISTS[follow_patterns][lead shape]`` is the ordered list a follower
walks for a single-unit lead of that shape: the follower must play the first
step its led-suit cards can form.  A step is a tuple of *alternatives* ("A or
B" in the seeds: either satisfies the step); an alternative is the tuple of
shapes (width, length) it needs, singles being whatever cards complete the
play.  The last step of every list is "all singles" (no shapes).

Where a seed says "pairs" or "triples" meaning *as many as fit* (seed 002),
the list spells the counts out, most first; seed 002's "tractor" for an
eight-card lead is likewise spelled out by cards in pair tractors (8, 6, 4).

Leads of a shape not listed here, and every multi-unit lead (a throw), use the
generic rule of ``engine.follow`` instead; so does ``classic``, which has no
list at all (seeds 000, 001, 003: tractors, then pairs).
"""

from __future__ import annotations

from engine.shapes import Shape

Step = tuple[tuple[Shape, ...], ...]  # its alternatives, each the shapes it needs
PatternList = tuple[Step, ...]

PAIR = Shape(2, 1)
TRIPLE = Shape(3, 1)
QUAD = Shape(4, 1)
TRACTOR_2 = Shape(2, 2)  # 两连拖 7788
TRACTOR_3 = Shape(2, 3)  # 三连拖 667788
TRACTOR_4 = Shape(2, 4)  # 四连拖 44556677
TITANIC_2 = Shape(3, 2)  # 三条两连拖 / 泰坦尼克 JJJQQQ
QUAD_TRACTOR_2 = Shape(4, 2)  # 四条两连拖 44445555


def _one(*shapes: Shape) -> Step:
    """A step with a single alternative."""
    return (tuple(shapes),)


ALL_SINGLES: Step = ((),)

# seed 000 四副牌規則 3.4.5, list 1 (lead 連四 44556677) from "1連3+1對子" down to "8單張"
_FOUR_DECK_AFTER_TRACTOR_4: PatternList = (
    _one(TRACTOR_3, PAIR),  # 1連3+1對子
    _one(TRACTOR_3),  # 1連3+2單張
    _one(TRACTOR_2, PAIR, PAIR),  # 1連隊+兩對子
    _one(TRACTOR_2, PAIR),  # 1連隊+1個對子+2單張
    _one(TRACTOR_2),  # 1連隊+4單張
    _one(QUAD, PAIR, PAIR),  # 1個4張+2對子
    _one(QUAD, PAIR),  # 1個4張+1個對子+2單張
    _one(QUAD),  # 1個4張+4單張
    _one(TRIPLE, TRIPLE),  # 2個3張+2單張
    _one(TRIPLE, PAIR, PAIR),  # 1個3張+2對子+1單張
    _one(TRIPLE, PAIR),  # 1個3張+1對子+3單張
    _one(TRIPLE),  # 1個3張+5單張
    _one(PAIR, PAIR, PAIR, PAIR),  # 4個對子
    _one(PAIR, PAIR, PAIR),  # 3個對子+2單張
    _one(PAIR, PAIR),  # 2個對子+4單張
    _one(PAIR),  # 1個對子+6單張
    ALL_SINGLES,  # 8單張
)

PATTERN_LISTS: dict[str, dict[Shape, PatternList]] = {
    "classic": {},
    # seed 000 三副牌規則【出牌規則】 and seed 003 3副牌规则 二.2
    "three-deck": {
        # 泰坦尼克 → 兩副三對 → 一副拖拉機+兩單張 → 一副三對+一副兩對+一單張 → 一副三對+三單張 →
        # 兩副兩對+兩單張 → 一副兩對+四單張 → 六單張
        TITANIC_2: (
            _one(TITANIC_2), _one(TRIPLE, TRIPLE), _one(TRACTOR_2), _one(TRIPLE, PAIR), _one(TRIPLE),
            _one(PAIR, PAIR), _one(PAIR), ALL_SINGLES,
        ),
        TRIPLE: (_one(TRIPLE), _one(PAIR), ALL_SINGLES),  # 三對 → 一副兩對+一單張 → 三單張
    },
    # seed 000 四副牌規則 3.4.5 出牌跟牌順序
    "four-deck": {
        # 1. 連四: 1連4或2個4張（出牌可選）, then the list above
        TRACTOR_4: (((TRACTOR_4,), (QUAD, QUAD)), *_FOUR_DECK_AFTER_TRACTOR_4),
        # 2. 2個4個 (44445555): 2個4張 → 1連4 → then list 1 from 1連3+1對子
        QUAD_TRACTOR_2: (_one(QUAD, QUAD), _one(TRACTOR_4), *_FOUR_DECK_AFTER_TRACTOR_4),
        # 3. 667788: 667788 or JJJQQQ → 4個+1個對子 → 拖拉機+1個對子 → 3個對子 → 2個對子+2個單牌 →
        #    1個對子+4個單牌 → 6個單牌
        TRACTOR_3: (
            ((TRACTOR_3,), (TITANIC_2,)), _one(QUAD, PAIR), _one(TRACTOR_2, PAIR), _one(PAIR, PAIR, PAIR),
            _one(PAIR, PAIR), _one(PAIR), ALL_SINGLES,
        ),
        # 4. JJJQQQ: 555444 → 667788 → 4個+1個對子 → 拖拉機+1個對子 → 2個3個的 → 1個3個+1個對子+1個單牌 →
        #    3個對子 → 2個對子+2個單牌 → 1個對子+4個單牌 → 6個單牌
        TITANIC_2: (
            _one(TITANIC_2), _one(TRACTOR_3), _one(QUAD, PAIR), _one(TRACTOR_2, PAIR), _one(TRIPLE, TRIPLE),
            _one(TRIPLE, PAIR), _one(PAIR, PAIR, PAIR), _one(PAIR, PAIR), _one(PAIR), ALL_SINGLES,
        ),
        # 5. AAAA: 4個 → 拖拉機 → 2個對子 → 3個+1個 → 1對+2個單牌 → 4個單牌
        QUAD: (_one(QUAD), _one(TRACTOR_2), _one(PAIR, PAIR), _one(TRIPLE), _one(PAIR), ALL_SINGLES),
        # 6. 7788: 拖拉機 (5566 或 AAAA) → 2個對子 → 1對+2個單牌 → 4個單牌
        TRACTOR_2: (((TRACTOR_2,), (QUAD,)), _one(PAIR, PAIR), _one(PAIR), ALL_SINGLES),
    },
    # seed 002 跟牌 ("從連拖到散牌的順序")
    "four-deck-cgc": {
        TRACTOR_2: (_one(TRACTOR_2), _one(PAIR, PAIR), _one(PAIR), ALL_SINGLES),  # 兩連拖 → 對子 → 散牌
        QUAD: (  # 四條 → 三條 → 連拖 → 對子 → 散牌
            _one(QUAD), _one(TRIPLE), _one(TRACTOR_2), _one(PAIR, PAIR), _one(PAIR), ALL_SINGLES,
        ),
        TRACTOR_3: (  # 三連拖 → 連拖+1對 → 對子 → 散牌
            _one(TRACTOR_3), _one(TRACTOR_2, PAIR), _one(PAIR, PAIR, PAIR), _one(PAIR, PAIR), _one(PAIR),
            ALL_SINGLES,
        ),
        TITANIC_2: (  # 三條兩連拖 → 三條 → 三連拖 → 兩連拖 → 對子 → 散牌
            _one(TITANIC_2), _one(TRIPLE, TRIPLE), _one(TRIPLE), _one(TRACTOR_3), _one(TRACTOR_2),
            _one(PAIR, PAIR, PAIR), _one(PAIR, PAIR), _one(PAIR), ALL_SINGLES,
        ),
        QUAD_TRACTOR_2: (  # 四條連拖 → 四條 → 三條 → 連拖 → 對子 → 散牌
            _one(QUAD_TRACTOR_2), _one(QUAD, QUAD), _one(QUAD), _one(TRIPLE, TRIPLE), _one(TRIPLE),
            ((TRACTOR_4,), (TRACTOR_2, TRACTOR_2)), _one(TRACTOR_3), _one(TRACTOR_2),
            _one(PAIR, PAIR, PAIR, PAIR), _one(PAIR, PAIR, PAIR), _one(PAIR, PAIR), _one(PAIR), ALL_SINGLES,
        ),
    },
}

PATTERN_SOURCES: dict[str, str] = {
    "classic": "seeds 000, 001, 003 (tractors, then pairs)",
    "three-deck": "seed 000 三副牌規則, seed 003 泰坦尼克",
    "four-deck": "seed 000 四副牌規則 3.4.5",
    "four-deck-cgc": "seed 002 跟牌",
}


def pattern_list(follow_patterns: str, lead: Shape) -> PatternList | None:
    """The seed list for a single-unit lead of shape ``lead``, or None."""
    return PATTERN_LISTS[follow_patterns].get(lead)
