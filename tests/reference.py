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


def suits_in_order(cards: tuple[int, ...], category: str, suit_order: str) -> tuple[int, ...]:
    """The places of the cards' suits (3 = the highest suit), card by card
    in the order that decides the category: a prial by suit; a pair its two
    cards, higher suit first, then the odd card; else highest card first,
    the ace of A-2-3 last."""
    place = {s: 3 - suit_order.index(letter) for s, letter in enumerate("cdhs")}
    by_face = sorted(cards, key=face, reverse=True)
    if category == "PRIAL":
        ordered = sorted(cards, key=lambda c: place[suit(c)], reverse=True)
    elif category == "PAIR":
        paired = [c for c in cards if [face(x) for x in cards].count(face(c)) == 2]
        odd = [c for c in cards if c not in paired]
        ordered = sorted(paired, key=lambda c: place[suit(c)], reverse=True) + odd
    elif category in ("RUN", "RUNNING_FLUSH") and [face(c) for c in by_face] == [14, 3, 2]:
        ordered = by_face[1:] + by_face[:1]
    else:
        ordered = by_face
    return tuple(place[suit(c)] for c in ordered)


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
        top = max(ranks)
        ranks = [top + 1 - r for r in ranks]
    score = {frozenset(h): r for h, r in zip(naturals, ranks)}
    category = {frozenset(h): natural(h, preset, a23, top)[0] for h in naturals}

    def suits(hand: frozenset) -> tuple[int, ...]:
        order = rules.suit_order
        return suits_in_order(tuple(sorted(hand)), category[hand], order) if order else ()

    @lru_cache(maxsize=None)
    def best(kept: frozenset) -> tuple[int, str, tuple[int, ...]]:
        """Best (score, category, suits) when the other 3 - len(kept) cards
        are wild: the strongest hand, then of those the best suits."""
        others = [c for c in deck if c not in kept]
        options = [frozenset(kept | set(extra)) for extra in itertools.combinations(others, 3 - len(kept))]
        top_hand = max(options, key=lambda h: (score[h], suits(h)))
        return score[top_hand], category[top_hand], suits(top_hand)

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
        s, cat, suit_places = best(kept)
        wilds = 3 - len(kept)
        if wilds and rules.wild_as_itself == "natural":
            wilds = wilds_standing_for_others(hand, kept, s)
        # Suits break only the ties left: after the hand and its wild cards.
        keys.append((s, -wilds if rules.wild_ties == "natural_wins" else 0, suit_places))
        names.append(cat)
    return dense(keys), names
