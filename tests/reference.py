"""A deliberately simple reference for three-card Brag, written apart from
the C++ core: plain Python, tuples compared by Python, no shared code.

Ranks here are face values 2..14 (ace = 14), suits 'cdhs', cards the
index of docs/rules.md.  ``reference_strengths(rules)`` returns, for every combination of the
rules' pack in ``itertools.combinations`` order, the dense strength
docs/rules.md defines, so it can be compared with the native tables one to one.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

CATEGORY_ORDER = {
    # weakest first
    "brag": ["HIGH_CARD", "PAIR", "FLUSH", "RUN", "RUNNING_FLUSH", "PRIAL"],
    "teen_patti": ["HIGH_CARD", "PAIR", "FLUSH", "RUN", "RUNNING_FLUSH", "PRIAL"],
    "three_card_poker": ["HIGH_CARD", "PAIR", "FLUSH", "RUN", "PRIAL", "RUNNING_FLUSH"],
}


def face(card: int) -> int:
    return card // 4 + 2


def suit(card: int) -> int:
    return card % 4


def natural(cards: tuple[int, int, int], preset: str, ace_two_three: str, top_prial: str) -> tuple:
    """(category name, a sort key that orders hands of the pack, weakest first)."""
    values = sorted((face(c) for c in cards), reverse=True)
    flush = len({suit(c) for c in cards}) == 1
    if values[0] == values[1] == values[2]:
        rank = values[0]
        if top_prial == "three" and rank == 3:
            rank = 15
        category, inside = "PRIAL", (rank,)
    elif values == [14, 3, 2]:
        place = {"top": 15, "second": 13.5, "bottom": 3}[ace_two_three]
        category, inside = ("RUNNING_FLUSH" if flush else "RUN"), (place,)
    elif values[0] - 1 == values[1] and values[1] - 1 == values[2]:
        category, inside = ("RUNNING_FLUSH" if flush else "RUN"), (values[0],)
    elif flush:
        category, inside = "FLUSH", tuple(values)
    elif values[0] == values[1]:
        category, inside = "PAIR", (values[0], values[2])
    elif values[1] == values[2]:
        category, inside = "PAIR", (values[1], values[0])
    else:
        category, inside = "HIGH_CARD", tuple(values)
    return category, (CATEGORY_ORDER[preset].index(category),) + inside


def dense(keys: list) -> list[int]:
    order = {k: i + 1 for i, k in enumerate(sorted(set(keys)))}
    return [order[k] for k in keys]


def reference_strengths(rules) -> tuple[list[int], list[str]]:
    """(strengths, category names) for every combination of the pack."""
    preset, a23, top = rules.preset, rules.ace_two_three, rules.top_prial
    deck = list(range(52))
    naturals = list(itertools.combinations(deck, 3))
    natural_keys = [natural(h, preset, a23, top)[1] for h in naturals]
    # score: position of each natural hand in the ruleset's order, best highest
    ranks = dense(natural_keys)
    if rules.lowball:
        ranks = [max(ranks) + 1 - r for r in ranks]
    score = {frozenset(h): r for h, r in zip(naturals, ranks)}
    category = {frozenset(h): natural(h, preset, a23, top)[0] for h in naturals}

    @lru_cache(maxsize=None)
    def best(kept: frozenset) -> tuple[int, str]:
        """Best (score, category) when the other 3 - len(kept) cards are wild."""
        others = [c for c in deck if c not in kept]
        options = [kept | set(extra) for extra in itertools.combinations(others, 3 - len(kept))]
        top_hand = max(options, key=lambda h: score[frozenset(h)])
        return score[frozenset(top_hand)], category[frozenset(top_hand)]

    def wilds_standing_for_others(hand: tuple[int, ...], kept: frozenset, s: int) -> int:
        """By its definition: over every way the wild cards stand for cards
        (distinct, none held) that makes the best hand, the fewest wild
        cards standing for a card other than themselves (a joker always
        does)."""
        wild = [c for c in hand if c not in kept]
        others = [c for c in deck if c not in kept]
        return min(sum(w != card for w, card in zip(wild, chosen))
                   for chosen in itertools.permutations(others, len(wild))
                   if score[kept | frozenset(chosen)] == s)

    pack = range(52 + rules.jokers)
    keys, names = [], []
    for hand in itertools.combinations(pack, 3):
        kept = frozenset(c for c in hand if not rules.is_wild(c))
        s, cat = best(kept)
        wilds = 3 - len(kept)
        if wilds and rules.wild_as_itself == "natural":
            wilds = wilds_standing_for_others(hand, kept, s)
        keys.append((s, -wilds if rules.wild_ties == "natural_wins" else 0))
        names.append(cat)
    return dense(keys), names
