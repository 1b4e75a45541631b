"""Thirteen-card Brag (Crash) showdown (docs/rules.md, "Crash"): position-by-position
scoring, stick-ups, fouls, crash, the four-of-a-kind bonus, the
thirteen-card straight and six pairs.  Nine-card rounds (three hands each)
are scored the same way."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

# The four-of-a-kind bonus ranks fours as the core's order says, which
# partition's expected points use too.
from .._core import MAX_CRASH_VALUE, four_of_a_kind_order
from ..cards import CardsLike, cards_of, check_no_shared_cards
from ..categories import Category, parse_category
from ..errors import ConfigurationError, InvalidShowdownError
from ..evaluator import FOUR_ORDERS, Evaluator, checked_four_order, evaluator_for
from ..rules import Rules
from .checks import seats, unique_ids
from .crash_rules import CRASH_OPTIONS, checked_option, settle_position
from .results import CrashPlayerResult, CrashPosition, CrashResult

MAX_HANDS = 4
MAX_CARDS = 13
# The fewest cards a round deals each player (nine-card Brag's three
# hands): a pack seats the most players at those.
ROUND_CARDS = 9
# A round of this many positions or more is crashed by winning them all.
CRASH_POSITIONS = 3
_RANK_CHARS = "23456789TJQKA"


@dataclass(frozen=True)
class CrashPlayer:
    """A Crash player's declaration: up to four three-card hands in the
    order they are laid down (strongest first), the discards, and whether
    they declare six pairs (which voids the deal)."""

    id: str
    hands: Sequence[CardsLike] = field(default=())
    discards: CardsLike = ()
    declare_six_pairs: bool = False


def _weights(scoring: str | Sequence[int]) -> tuple[int, ...]:
    if scoring == "points":
        return (1,) * MAX_HANDS
    if isinstance(scoring, str) or not isinstance(scoring, Sequence):
        raise ConfigurationError(f"scoring must be 'points' or four weights, got {scoring!r}")
    weights = tuple(scoring)
    if len(weights) != MAX_HANDS or any(isinstance(w, bool) or not isinstance(w, int) or w < 0 for w in weights):
        raise ConfigurationError(f"scoring weights must be four whole numbers >= 0, got {scoring!r}")
    return weights


def crash_showdown(
    players: Sequence[CrashPlayer],
    *,
    scoring: str | Sequence[int] = "points",
    min_category: Category | str | None = None,
    rules: Rules | None = None,
    crash_value: int = 0,
    four_order: str = FOUR_ORDERS[0],
    ties: str = CRASH_OPTIONS["ties"][0],
    four_bonus: str = CRASH_OPTIONS["four_bonus"][0],
    below_min: str = CRASH_OPTIONS["below_min"][0],
) -> CrashResult:
    """Score a Crash (thirteen-card Brag) round.

    Hands meet position by position (first hands together, then second ...).
    A unique best hand scores the position's weight (``scoring="points"``:
    1 each; or four weights such as ``[4, 3, 2, 1]``); a tie for best is a
    stick-up and nobody scores (``ties="stick_up"``, the default), or, with
    ``ties="cancel"``, the tied hands cancel out and the best hand left
    scores.  A player fouls, scores nothing and is out of every comparison
    when their hands are not in non-increasing order or one is below
    ``min_category`` (in the ruleset's category order); with
    ``below_min="forfeit_position"`` such a hand only scores nothing at its
    own position.  Winning
    every position of a round of three or four positions (nine- or
    thirteen-card deals) is a crash, which scores ``crash_value`` points more
    (default 0: its positions alone; the same ``crash_value`` as
    ``Evaluator.partition``'s, so a split chosen by expected points counts
    what this scoring pays).  A player whose hands use all four cards
    of a rank scores one bonus point; only the best such four at the table
    scores (``four_bonus="best"``; ``"every"``: every player holding one),
    ranked by ``four_order``: ``"prial"`` (default) as the ruleset
    ranks prials (threes highest in Brag, aces with ``top_prial="ace"`` and
    in Teen Patti), ``"aces"`` (A, K ... 2) or ``"fours"`` (fours, then A,
    K ... 2).  A thirteen-card straight (every
    rank A down to 2 among a player's thirteen cards) wins outright; a
    declared six pairs voids the deal (declared at the deal, so it comes
    first).
    """
    ev = evaluator_for(rules)
    weights = _weights(scoring)
    crash_value = checked_crash_value(crash_value)
    four_rank = {r: i for i, r in enumerate(four_of_a_kind_order(ev, checked_four_order(four_order)))}
    floor = None if min_category is None else parse_category(min_category, "min_category")
    ties, four_bonus, below_min = (checked_option(name, value) for name, value in
                                   (("ties", ties), ("four_bonus", four_bonus), ("below_min", below_min)))
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence) or len(players) < 2:
        raise InvalidShowdownError("crash_showdown needs a sequence of at least 2 prial.CrashPlayer")
    seats(len(players), ROUND_CARDS)
    for i, p in enumerate(players):
        if not isinstance(p, CrashPlayer):
            raise InvalidShowdownError(f"player {i}: expected a prial.CrashPlayer, got {type(p).__name__}")
    unique_ids([p.id for p in players], "player")
    hands = {p.id: _player_hands(p) for p in players}
    discards = {p.id: cards_of(p.discards, f"player {p.id!r} discards") for p in players}
    check_no_shared_cards(
        [(f"player {pid!r}", [c for h in hs for c in h] + discards[pid]) for pid, hs in hands.items()])
    for p in players:
        held = 3 * len(hands[p.id]) + len(discards[p.id])
        if held > MAX_CARDS:
            raise InvalidShowdownError(f"player {p.id!r} holds {held} cards; at most {MAX_CARDS}")

    values = {pid: [_value(ev, h) for h in hs] for pid, hs in hands.items()}
    order = ev.category_order  # strongest first
    weaker = [] if floor is None else order[order.index(floor) + 1:]
    # A hand below the floor fouls its player or forfeits its own position, never both.
    fouling, forfeiting = (weaker, []) if below_min == "foul" else ([], weaker)
    fouls = {pid: _foul(vs, floor, fouling) for pid, vs in values.items()}
    fours = {pid: (None if fouls[pid] else _best_four(hs, four_rank)) for pid, hs in hands.items()}

    voided_by = next((p.id for p in players if p.declare_six_pairs
                      and _check_six_pairs(p.id, hands[p.id], discards[p.id])), None)
    outright = () if voided_by else tuple(
        p.id for p in players if _thirteen_card_straight(hands[p.id], discards[p.id]))

    positions: list[CrashPosition] = []
    points = dict.fromkeys(hands, 0)
    won: dict[str, list[int]] = {pid: [] for pid in hands}
    if not voided_by and not outright:
        for index in range(MAX_HANDS):
            laid = [pid for pid in hands if not fouls[pid] and index < len(values[pid])]
            if not laid:
                continue
            position = _position(index, weights[index], {pid: values[pid][index] for pid in laid}, forfeiting,
                                 ties)
            if position.winner is not None:
                points[position.winner] += position.weight
                won[position.winner].append(index)
            positions.append(position)
    crash = next((pid for pid, w in won.items()
                  if len(positions) >= CRASH_POSITIONS and len(w) == len(positions)), None)
    if crash is not None:
        points[crash] += crash_value
    bonus = None
    bonuses: tuple[str, ...] = ()
    if not voided_by and not outright:
        with_four = {pid: rank for pid, rank in fours.items() if rank is not None}
        if with_four:
            bonus = min(with_four, key=lambda pid: four_rank[with_four[pid]])
            bonuses = tuple(with_four) if four_bonus == "every" else (bonus,)
            for pid in bonuses:
                points[pid] += 1
    results = tuple(
        CrashPlayerResult(
            id=pid,
            hands=tuple(v[1] for v in values[pid]),
            strengths=tuple(v[0] for v in values[pid]),
            discards=tuple(discards[pid]),
            fouled=fouls[pid] is not None,
            foul=fouls[pid],
            positions_won=tuple(won[pid]),
            four_of_a_kind=None if fours[pid] is None else _RANK_CHARS[fours[pid]],
            points=points[pid],
        )
        for pid in hands
    )
    return CrashResult(tuple(positions), results, points, crash, bonus, outright,
                       voided_by is not None, voided_by, bonuses)


def checked_crash_value(value: object) -> int:
    """``value`` if it is a crash value crash_showdown takes (a whole number
    0 to MAX_CRASH_VALUE), else InvalidShowdownError naming it."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CRASH_VALUE:
        raise InvalidShowdownError(f"crash_value must be a whole number 0 to {MAX_CRASH_VALUE}, got {value!r}",
                                   field="crash_value")
    return value


def _player_hands(p: CrashPlayer) -> list[list[int]]:
    if isinstance(p.hands, (str, bytes)) or not isinstance(p.hands, Sequence):
        raise InvalidShowdownError(f"player {p.id!r}: hands must be a list of three-card hands")
    if len(p.hands) > MAX_HANDS:
        raise InvalidShowdownError(f"player {p.id!r} gives {len(p.hands)} hands; at most {MAX_HANDS}")
    out = []
    for i, hand in enumerate(p.hands):
        cards = cards_of(hand, f"player {p.id!r} hand {i + 1}")
        if len(cards) != 3:
            raise InvalidShowdownError(f"player {p.id!r} hand {i + 1} has {len(cards)} cards; expected 3")
        out.append(cards)
    return out


def _position(index: int, weight: int, laid: dict[str, tuple[int, str, Category]], below: list[Category],
              ties: str) -> CrashPosition:
    """The position where ``laid`` (player -> hand value) meet; a hand of a
    category in ``below`` is forfeited (scores nothing, meets nobody)."""
    forfeited = tuple(pid for pid, v in laid.items() if v[2] in below)
    strengths = {pid: v[0] for pid, v in laid.items() if pid not in forfeited}
    if not strengths:
        return CrashPosition(index, weight, None, False, (), None,
                             f"nobody scores: every hand is below the minimum ({_names(forfeited)})",
                             forfeited=forfeited)
    settled = settle_position(strengths, ties)
    best = max(strengths.values())
    top = [pid for pid, s in strengths.items() if s == best]
    best_hand = laid[top[0]][1]
    if settled.winner is None:
        reason = (f"stick-up: {_names(top)} hold {best_hand}" if ties == "stick_up"
                  else f"stick-up: every hand is tied with another ({_names(settled.cancelled)} cancel out)")
    else:
        reason = f"{settled.winner} scores {weight}: {laid[settled.winner][1]}"
        if settled.cancelled:
            reason += f" ({_names(settled.cancelled)} cancel out)"
    return CrashPosition(index, weight, settled.winner, settled.winner is None, tuple(strengths), best_hand,
                         reason, cancelled=settled.cancelled, forfeited=forfeited)


def _names(ids: Sequence[str]) -> str:
    return " and ".join(ids)


def _value(ev: Evaluator, cards: list[int]) -> tuple[int, str, Category]:
    v = ev.evaluate(cards)
    return v.strength, v.description, v.category


def _foul(values: list[tuple[int, str, Category]], floor: Category | None,
          weaker: list[Category]) -> str | None:
    for i in range(1, len(values)):
        if values[i][0] > values[i - 1][0]:
            return f"hand {i + 1} ({values[i][1]}) is stronger than hand {i} ({values[i - 1][1]})"
    for i, (_, description, category) in enumerate(values):
        if floor is not None and category in weaker:
            return f"hand {i + 1} ({description}) is below {floor.label.lower()}"
    return None


def _best_four(hands: list[list[int]], four_rank: dict[int, int]) -> int | None:
    """The best rank whose four cards are all in the player's hands
    (``four_rank``: each rank's place, strongest 0)."""
    counts = Counter(c >> 2 for h in hands for c in h if c < 52)
    ranks = [r for r, n in counts.items() if n == 4]
    return min(ranks, key=four_rank.__getitem__) if ranks else None


def _thirteen_card_straight(hands: list[list[int]], discards: list[int]) -> bool:
    cards = [c for h in hands for c in h] + discards
    return len(cards) == MAX_CARDS and {c >> 2 for c in cards if c < 52} == set(range(13))


def _check_six_pairs(pid: str, hands: list[list[int]], discards: list[int]) -> bool:
    counts = Counter(c >> 2 for c in [c for h in hands for c in h] + discards if c < 52)
    pairs = sum(n // 2 for n in counts.values())
    if pairs < 6:
        raise InvalidShowdownError(f"player {pid!r} declared six pairs but holds {pairs} pair(s)")
    return True
