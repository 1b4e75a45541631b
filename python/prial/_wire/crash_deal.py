"""DealCrash's messages: deal_crash's arguments both ways, and the deal
read back."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import InvalidHandError
from ..play.crash_deal import CRASH_CARDS, CrashDeal, deal_crash
from ..v1 import prial_pb2 as pb

_DEFAULT_PLAYERS = 4
_UINT64 = 2**64 - 1
_UINT32 = 2**32 - 1


def _whole(value: object, name: str, most: int) -> int:
    """A value a uint field holds (the server checks what the game allows)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise InvalidHandError(f"{name} must be a whole number 0 to {most}, got {value!r}", field=name)
    return value


def deal_crash_request(seed: int, players: int, cards: int, spare: bool,
                       exchanges: Sequence[int]) -> pb.DealCrashRequest:
    if isinstance(exchanges, (str, bytes)) or not isinstance(exchanges, Sequence):
        raise InvalidHandError(f"exchanges must be a sequence of seats, got {exchanges!r}", field="exchanges")
    if not isinstance(spare, bool):
        raise InvalidHandError(f"spare must be True or False, got {spare!r}", field="spare")
    return pb.DealCrashRequest(seed=_whole(seed, "seed", _UINT64), players=_whole(players, "players", _UINT32),
                               cards=_whole(cards, "cards", _UINT32), spare=spare,
                               exchanges=[_whole(s, f"exchanges[{i}]", _UINT32) for i, s in enumerate(exchanges)])


def crash_deal_from_request(msg: pb.DealCrashRequest) -> CrashDeal:
    """The deal a request asks for; InvalidHandError naming the field at
    fault (an exchange by its place in ``exchanges``)."""
    deal = deal_crash(msg.seed, msg.players if msg.HasField("players") else _DEFAULT_PLAYERS,
                      cards=msg.cards if msg.HasField("cards") else CRASH_CARDS, spare=msg.spare)
    for index, seat in enumerate(msg.exchanges):
        try:
            deal = deal.exchange(seat)
        except InvalidHandError as exc:
            raise InvalidHandError(f"exchanges[{index}]: {exc}", field=f"exchanges[{index}]") from None
    return deal


def crash_deal_to_proto(deal: CrashDeal) -> pb.DealCrashResponse:
    return pb.DealCrashResponse(seed=deal.seed, hands=[bytes(h) for h in deal.hands],
                                spares=[bytes(h) for h in deal.spares],
                                given_up=[b"" if g is None else bytes(g) for g in deal.given_up])


def crash_deal_from_proto(data: bytes) -> CrashDeal:
    msg = pb.DealCrashResponse.FromString(data)
    return CrashDeal(msg.seed, tuple(tuple(h) for h in msg.hands), tuple(tuple(h) for h in msg.spares),
                     tuple(tuple(g) if g else None for g in msg.given_up))
