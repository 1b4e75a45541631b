"""Between deals (docs/rules.md, "Between deals"): the next deal after one
that is over, with the dealer moved on, stacks carried, a pot that stayed,
a retained blind hand, players joining, leaving or sitting out, and the
pack shuffled every deal or only after a see won by a prial."""

from __future__ import annotations

import secrets
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from .._core import table_deal, table_pack
from ..cards import CardsLike, cards_of
from ..categories import Category
from ..errors import InvalidHandError
from ..evaluator import Evaluator
from .carried import Carried
from .inputs import _int, _players
from .rules import DRAW_GAME

# A deal (prial.Deal) is taken as it is: this module sits below deal.py,
# which calls it, and makes the next deal through the deal's own class.
Deal = Any


def _names(option: str, value: object, at_table: Collection[str]) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Collection):
        raise InvalidHandError(f"{option} must be a collection of player ids; got {value!r}", field=option)
    for name in value:
        if name not in at_table:
            raise InvalidHandError(f"{option}: {name!r} is not at the table", field=option)
    return tuple(value)


def _hand(deal: Deal, seat: int) -> list[int] | None:
    """The hand dealt to a seat in this deal (not a retained one)."""
    if deal._cards is not None:
        return deal._cards[seat]
    if deal.table.retain_blind == "face_up" and deal._setup.retained == deal.players[seat]:
        return deal._native.face_up_cards(seat)
    return deal._native.cards(seat)


def traditional_pack(deal: Deal) -> list[int]:
    """The pack after ``deal`` the traditional way: the cards not dealt, in
    their order, then the folded hands in the order folded, then the other
    hands clockwise from the dealer's left.  A deal started from given
    cards has no pack order: its undealt cards go in index order."""
    names, n = deal.players, len(deal.players)
    hands = {i: _hand(deal, i) for i in range(n)}
    retainer = deal._setup.retained
    retained = deal._setup.retained_cards
    pack = deal._setup.pack
    if pack is None:
        pack = tuple(table_pack(deal._seed, deal.table.rules.pack_size)) if deal._seed is not None and \
            deal._cards is None else tuple(range(deal.table.rules.pack_size))
    held = {c for hand in hands.values() if hand for c in hand} | set(retained or ())
    bottom: list[int] = []
    placed: set[int] = set()

    def put(cards: Sequence[int] | None) -> None:
        for c in cards or ():
            if c not in placed:
                placed.add(c)
                bottom.append(c)

    for kind, seat, amount, _pot, _to in deal._native.events():
        if kind == "fold":
            put(hands[seat] if names[seat] != retainer or deal._native.hands(seat) == 1 else None)
            if names[seat] == retainer:
                put(retained)
        elif kind == "fold_hand":
            put(retained if amount == 1 else hands[seat])
    for k in range(1, n + 1):
        seat = (deal.dealer + k) % n
        put(hands[seat])
        if names[seat] == retainer:
            put(retained)
    return [c for c in pack if c not in held] + bottom


def _won_by_a_prial_at_a_see(deal: Deal) -> bool:
    result = deal.result
    if result is None or result.ending != "see" or not result.winners:
        return False
    seat = deal.players.index(result.pots[-1].winners[0])
    cards = deal._native.shown_cards(seat)
    if cards is None:
        return False
    evaluator = Evaluator(deal.table.rules)
    kept = cards if len(cards) == 3 else evaluator.best_of(cards).kept  # a blind hand of four or five
    return evaluator.evaluate(kept).category == Category.PRIAL


def next_deal(deal: Deal, *, retain: bool = False, cards: Sequence[CardsLike | None] | None = None,
              seed: int | None = None, join: Mapping[str, int | None] | Sequence[str] = (),
              leave: Collection[str] = (), sit_out: Collection[str] = (),
              stacks: Mapping[str, int] | None = None) -> Deal:
    if not deal.over:
        raise InvalidHandError("the deal is not over: only a finished deal has a next one", field="next")
    result = deal.result
    assert result is not None
    table, names = deal.table, deal.players
    leaving = set(_names("leave", leave, names))
    joining = dict(join) if isinstance(join, Mapping) else dict.fromkeys(_players(list(join)))
    for name in joining:
        if name in names and name not in leaving:
            raise InvalidHandError(f"join: {name!r} is already at the table", field="join")
    seated = [n for n in names if n not in leaving] + list(joining)
    new_stacks = dict(stacks or {})
    for name in new_stacks:
        if name not in seated:
            raise InvalidHandError(f"stacks: {name!r} is not at the next deal's table", field="stacks")
    chips: list[int] | None = None
    if deal._stacks is not None:
        now = dict(zip(names, deal.stacks or ()))
        kept: list[str] = []
        chips = []
        for name in seated:
            stack = new_stacks.get(name, joining.get(name) if name in joining else now.get(name))
            if stack is None:
                raise InvalidHandError(f"join: {name!r} needs a stack at a table with stacks", field="join")
            stack = _int("stacks", stack, 0, 2**53 + 1)
            if stack == 0:
                continue  # no chips and none given: drops out
            kept.append(name)
            chips.append(stack)
        seated = kept
    elif new_stacks or any(v is not None for v in joining.values()):
        raise InvalidHandError("stacks: this table plays without stacks", field="stacks")
    players = _players(seated)
    if len(players) < 2:
        raise InvalidHandError(f"the next deal needs two players at the table, not {len(players)}",
                               field="players")
    # The dealer moves to the next player clockwise who is still seated.
    dealer = 0
    for k in range(1, len(names) + 1):
        name = names[(deal.dealer + k) % len(names)]
        if name in players:
            dealer = players.index(name)
            break
    stays = result.ending == "pot_stays"
    pot = deal.pots[0].amount if stays else 0
    retainer, retained_cards = None, None
    if retain:
        if not stays:
            raise InvalidHandError("retain: only a blind player to whom everyone folded may keep the hand "
                                   "(the pot did not stay)", field="retain")
        raw = deal._native.result()
        assert raw is not None
        retainer = names[raw[5]]
        if retainer not in players:
            raise InvalidHandError(f"retain: {retainer!r} is not at the next deal's table", field="retain")
        retained_cards = deal._native.cards(names.index(retainer))
    sitting_out = _names("sit_out", sit_out, players)
    out = {players.index(n) for n in sitting_out}
    dealt_in = [i for i in range(len(players)) if i not in out and (chips is None or chips[i] >= table.ante)]
    pack: tuple[int, ...] | None = None
    if cards is not None:
        if seed is not None:
            raise InvalidHandError("give cards or a seed, not both", field="seed")
        if len(cards) != len(players):
            raise InvalidHandError(f"cards gives {len(cards)} hands for {len(players)} players", field="cards")
        hands = [None if h is None else cards_of(h, f"cards of {p!r}") for p, h in zip(players, cards)]
    else:
        # The seed of the last shuffle is carried through unshuffled deals,
        # so that a seeded table shuffles the same way whenever it does.
        last = deal._setup.pack_seed if deal._setup.pack_seed is not None else deal._seed
        if table.shuffle == "after_prial" and not _won_by_a_prial_at_a_see(deal) and seed is None:
            order = traditional_pack(deal)
            seed = last
        else:
            if seed is None:
                seed = secrets.randbits(64) if last is None else (last + 1) % 2**64
            order = table_pack(_int("seed", seed, 0, 2**64), table.rules.pack_size)
        order = [c for c in order if c not in set(retained_cards or ())]
        pack = tuple(order)
        # Draw Brag is dealt from the seed itself, which deals the draw on
        # from the rest of its pack (and the blinds decide who is dealt in).
        hands = None if table.game == DRAW_GAME else table_deal(order, len(players), dealer, table.cards, dealt_in)
    carried = Carried(pot, retainer, retained_cards, sitting_out, pack if table.shuffle == "after_prial" else None,
                      seed)
    return type(deal)._begin(table, players, hands, seed if hands is None else None, dealer, chips, carried)
