"""Sample logs of laid hands (``prial sample --game nine_card|crash``): each
deal dealt by ``deal_crash`` from a seed of its own, each player's cards
split by ``Evaluator.partition`` (the strongest first hand, then the
strongest second ...), one row per player in the form ``prial score``
reads (docs/scoring.md, "Nine-card and Crash deals").

With spare hands, a player of a two- or three-player Crash deal whose
split's first hand is below a running flush exchanges their cards for the spare, in
turn from seat 0; in the three-player game the first to exchange blocks
the rest."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from ..cards import format_cards
from ..categories import Category
from ..errors import InvalidHandError
from ..evaluator import evaluator_for
from ..logs.columns import HAND_SEPARATOR
from ..play.crash_deal import CRASH_CARDS, DEAL_SIZES, PACK, CrashDeal, deal_crash

# A player exchanges when the first hand of their split is of a category
# below this one: about one player in four (a prial or a running flush
# comes first in nearly three splits of thirteen cards out of four).
EXCHANGE_BELOW = Category.RUNNING_FLUSH
_SEEDS = 2**64


def _laid(cards: list[tuple[int, ...]], hands: int) -> tuple[list[list[str]], list[str], list[bool]]:
    """Each player's split (hand texts, strongest first), the discards'
    text, and whether the split's first hand is below EXCHANGE_BELOW."""
    ev = evaluator_for(None)
    array = np.array(cards, np.uint8)
    laid, _strengths = ev.partition_batch(array, hands=hands, threads=1)
    order = ev.category_order  # strongest first
    weak = set(order[order.index(EXCHANGE_BELOW) + 1:])
    texts, discards, below = [], [], []
    for held, split in zip(cards, laid):
        used = [c for hand in split for c in hand.tolist() if c != 0xFF]
        texts.append([format_cards(hand.tolist()) for hand in split if hand[0] != 0xFF])
        discards.append(format_cards([c for c in held if c not in used]))
        below.append(ev.evaluate(split[0].tolist()).category in weak)
    return texts, discards, below


def _exchanged(deal: CrashDeal, below: list[bool]) -> CrashDeal:
    """The deal after the players who would exchange have, in turn."""
    for seat, wants in enumerate(below):
        if wants and (len(deal.spares) > 1 or all(g is None for g in deal.given_up)):
            deal = deal.exchange(seat)
    return deal


def sample_laid_deals(deals: int, *, seed: int = 0, players: int = 4, game: str = "crash", spare: bool = False,
                      first_deal: int = 0) -> pa.Table:
    """A table of ``deals`` deals of ``game`` (``"nine_card"`` or
    ``"crash"``), one row per player: ``deal_id`` (int64), ``player``
    (int8), ``hands`` ("As Ad Ah | Ks Kd Kh | ..."), ``discards``, and with
    ``spare`` ``exchanged`` (bool) and ``given_up`` (the thirteen cards a
    player gave up for the spare, else null).  Deal D is
    ``deal_crash(seed + D, players, cards=..., spare=spare)`` (the seed
    taken modulo 2**64), so any deal of the log can be dealt again alone."""
    if game not in DEAL_SIZES:
        raise InvalidHandError(f"game must be one of {', '.join(DEAL_SIZES)} for laid hands, got {game!r}",
                               field="game")
    cards = DEAL_SIZES[game]
    hands = 4 if cards == 13 else 3
    deal_crash(seed, players, cards=cards, spare=spare)  # its checks, even for no deals
    columns: dict[str, list[object]] = {"deal_id": [], "player": [], "hands": [], "discards": []}
    if spare:
        columns.update(exchanged=[], given_up=[])
    for deal_id in range(first_deal, first_deal + deals):
        deal = deal_crash((seed + deal_id) % _SEEDS, players, cards=cards, spare=spare)
        texts, discards, below = _laid(list(deal.hands), hands)
        if spare:
            exchanged = _exchanged(deal, below)
            if exchanged is not deal:
                deal = exchanged
                texts, discards, _below = _laid(list(deal.hands), hands)
        for seat in range(players):
            columns["deal_id"].append(deal_id)
            columns["player"].append(seat)
            columns["hands"].append(f" {HAND_SEPARATOR} ".join(texts[seat]))
            columns["discards"].append(discards[seat] or None)  # nine cards laid as three hands leave none
            if spare:
                given_up = deal.given_up[seat]
                columns["exchanged"].append(given_up is not None)
                columns["given_up"].append(None if given_up is None else format_cards(given_up))
    types = {"deal_id": pa.int64(), "player": pa.int8(), "exchanged": pa.bool_()}
    return pa.table({name: pa.array(values, types.get(name, pa.string())) for name, values in columns.items()})
