"""SettlePartitionGame's request to and from prial's values: the players,
the game's rules and the carried pot."""

from __future__ import annotations

from collections.abc import Sequence

from ..play.crash import CrashPlayer
from ..play.partition_games import NineCardBrag, PartitionGame, SevenCardBrag, partition_game
from ..v1 import prial_pb2 as pb
from .convert import cards_from_proto, cards_to_proto, rules_from_proto, rules_to_proto


def partition_game_request(players: Sequence[CrashPlayer], game: PartitionGame,
                           carry: int) -> pb.SettlePartitionGameRequest:
    """The request settling a deal of ``game``."""
    return pb.SettlePartitionGameRequest(
        rules=rules_to_proto(game.rules), game=game.game, ante=game.ante, carry=carry,
        players=[pb.CrashPlayer(
            id=p.id, hands=[cards_to_proto(h, f"player {p.id!r} hand") for h in p.hands],
            discards=cards_to_proto(p.discards, f"player {p.id!r} discards"),
            declare_six_pairs=p.declare_six_pairs) for p in players],
        stick_up=game.stick_up if isinstance(game, NineCardBrag) else "",
        hands=game.hands if isinstance(game, SevenCardBrag) else None)


def partition_game_from_proto(
        msg: pb.SettlePartitionGameRequest) -> tuple[list[CrashPlayer], PartitionGame, int]:
    """The players, the game and the carried pot of a request; an unset
    option is the game's default."""
    game = partition_game(msg.game, ante=msg.ante if msg.HasField("ante") else 1,
                          rules=rules_from_proto(msg.rules), stick_up=msg.stick_up or None,
                          hands=msg.hands if msg.HasField("hands") else None)
    players = [CrashPlayer(p.id, [cards_from_proto(h) for h in p.hands], cards_from_proto(p.discards),
                           p.declare_six_pairs) for p in msg.players]
    return players, game, msg.carry
