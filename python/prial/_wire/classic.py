"""SettleClassic's request to and from prial's values: the players, the
deal's options, the vying's end and the stock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import CardsLike
from ..play.classic import ACE_POINTS, BEST_CARD_TIES, ClassicPlayer, ClassicRules
from ..rules import Rules
from ..v1 import prial_pb2 as pb
from .convert import cards_from_proto, cards_to_proto, rules_from_proto, rules_to_proto


def classic_request(players: Sequence[ClassicPlayer], rules: ClassicRules, contenders: Sequence[str] | None,
                    seer: str | None, stock: CardsLike | None, seed: int | None) -> pb.SettleClassicRequest:
    """The request settling a classic deal."""
    return pb.SettleClassicRequest(
        rules=rules_to_proto(rules.rules), stake=rules.stake, best_card_ties=rules.best_card_ties, ace=rules.ace,
        bonus=rules.bonus, contenders=list(contenders or ()), seer=seer, seed=seed,
        stock=None if stock is None else cards_to_proto(stock, "stock"),
        players=[pb.ClassicPlayer(id=p.id, cards=cards_to_proto(p.cards, f"player {p.id!r} cards"),
                                  actions=list(p.actions)) for p in players])


def classic_from_proto(msg: pb.SettleClassicRequest) -> tuple[list[ClassicPlayer], ClassicRules, dict[str, Any]]:
    """The players, the options and settle_classic's keywords of a request;
    an unset option is its default."""
    rules = ClassicRules(
        stake=msg.stake if msg.HasField("stake") else 1,
        rules=rules_from_proto(msg.rules) if msg.HasField("rules") else Rules(preset="classic"),
        best_card_ties=msg.best_card_ties or BEST_CARD_TIES[0],  # type: ignore[arg-type]
        ace=msg.ace or ACE_POINTS[0], bonus=msg.bonus)
    players = [ClassicPlayer(p.id, cards_from_proto(p.cards), list(p.actions)) for p in msg.players]
    keywords = {"contenders": list(msg.contenders) or None,
                "seer": msg.seer if msg.HasField("seer") else None,
                "stock": cards_from_proto(msg.stock) if msg.HasField("stock") else None,
                "seed": msg.seed if msg.HasField("seed") else None}
    return players, rules, keywords
