"""The calls, the same for both clients: each RPC's request bytes and how
its response bytes become the result (``_Call``), the big Evaluate
batches written and read through the wire form itself."""

from __future__ import annotations

from collections.abc import (
    Callable,
    Mapping,
    Sequence,
)
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2

from .._wire import encoding
from .._wire.classic import classic_request
from .._wire.convert import (
    GAMES,
    OBJECTIVES,
    cards_to_proto,
    crash_options_to_proto,
    number,
    paytable_to_proto,
    result_from_proto,
    rules_to_proto,
)
from .._wire.crash_deal import crash_deal_from_proto, deal_crash_request
from .._wire.crash_match import crash_match_result_from_proto, match_rules_to_proto
from .._wire.partition_games import partition_game_request
from .._wire.table import ActionLike, TableState, play_table_request, table_state_from
from ..cards import CardsLike
from ..categories import Category, parse_category
from ..errors import InvalidHandError, InvalidShowdownError
from ..evaluator import FOUR_ORDERS, checked_four_order
from ..play.casino import Paytable
from ..play.classic import ClassicPlayer, ClassicResult, ClassicRules, checked_rules
from ..play.crash import CrashPlayer, checked_crash_value
from ..play.crash_deal import CrashDeal
from ..play.crash_match import CrashMatchResult, CrashMatchRules
from ..play.crash_rules import CRASH_OPTIONS
from ..play.partition_games import PartitionGame, checked_game
from ..play.results import CasinoResult, CrashResult, Equity, Odds, PartitionGameResult, ShowdownResult
from ..play.showdown import Player
from ..results import Split
from ..rules import Rules
from ..table import TableRules
from ..v1 import prial_pb2 as pb

# -- requests and responses, the same for both clients ------------------------------------

T = TypeVar("T")

_SERVICE = pb.DESCRIPTOR.services_by_name["Prial"]
_PRIAL = _SERVICE.full_name
_HEALTH = health_pb2.DESCRIPTOR.services_by_name["Health"].full_name
_HEALTH_CHECK = f"/{_HEALTH}/Check"
_EVALUATE = f"/{_PRIAL}/Evaluate"
_EVALUATE_STREAM = f"/{_PRIAL}/EvaluateStream"
# A method no server has, outside the retry policy: on a channel that
# cannot connect it fails at once with the connection's error (a server
# reached would answer UNIMPLEMENTED).
_PROBE = "/prial.client.Probe/Connect"
_PROBE_SECONDS = 1.0
_UNARY_METHODS = (*(f"/{_PRIAL}/{m.name}" for m in _SERVICE.methods if not m.client_streaming), _HEALTH_CHECK)
_RESPONSES = {m.name: getattr(pb, m.output_type.name) for m in _SERVICE.methods}


@dataclass(frozen=True)
class _Call(Generic[T]):
    """One unary call: the method's path, the request's bytes and how the
    response's bytes become the result."""

    method: str
    request: bytes
    decode: Callable[[bytes], T]


def _result_call(method: str, request: Message, result_type: type[T]) -> _Call[T]:
    """A call whose response message mirrors ``result_type`` field for field."""
    response = _RESPONSES[method]
    return _Call(f"/{_PRIAL}/{method}", request.SerializeToString(),
                 lambda data: result_from_proto(response.FromString(data), result_type))


def _evaluate_call(hands: npt.NDArray[np.uint8] | Sequence[str], rules: Rules | None,
                   describe: bool) -> _Call[Evaluation]:
    return _Call(_EVALUATE, evaluate_request_bytes(hands, rules, describe), evaluation_from)


def _partition_call(cards: CardsLike, hands: int, objective: str, min_category: Category | str | None,
                    opponents: int, crash_value: float, four_order: str, rules: Rules | None) -> _Call[Split]:
    request = pb.PartitionRequest(
        rules=rules_to_proto(rules), cards=cards_to_proto(cards, "cards"), hands=hands,
        objective=number(OBJECTIVES, objective, "objective"), opponents=opponents, crash_value=crash_value,
        four_order=checked_four_order(four_order))
    if min_category is not None:
        request.min_category = _category_number(min_category)
    return _result_call("Partition", request, Split)


def _showdown_call(players: Sequence[Player], seer: str | None, rules: Rules | None, cards_per_hand: int | None,
                   pot: int, coverer: str | None, old_pot: int) -> _Call[ShowdownResult]:
    request = pb.ShowdownRequest(
        rules=rules_to_proto(rules),
        players=[pb.Player(id=p.id, cards=cards_to_proto(p.cards, f"player {p.id!r}"), blind=p.blind,
                           stake=_chips(p.stake, f"player {p.id!r} stake")) for p in players],
        seer=seer, cards_per_hand=cards_per_hand or 0, pot=_chips(pot, "pot"), coverer=coverer,
        old_pot=_chips(old_pot, "old_pot"))
    return _result_call("Showdown", request, ShowdownResult)


def _showdown_batch_call(seer_cards: npt.NDArray[np.uint8], seen_cards: npt.NDArray[np.uint8],
                         rules: Rules | None) -> _Call[npt.NDArray[np.uint8]]:
    request = pb.ShowdownBatchRequest(
        rules=rules_to_proto(rules),
        seer_cards=_hand_bytes(seer_cards, (3, 4, 5), "seer_cards"),
        seen_cards=_hand_bytes(seen_cards, (3, 4, 5), "seen_cards"),
        hand_size=seer_cards.shape[1])
    return _Call(f"/{_PRIAL}/ShowdownBatch", request.SerializeToString(), _seer_wins)


def _seer_wins(data: bytes) -> npt.NDArray[np.uint8]:
    return np.frombuffer(pb.ShowdownBatchResponse.FromString(data).seer_wins, dtype=np.uint8)


def _crash_showdown_call(players: Sequence[CrashPlayer], scoring: str | Sequence[int],
                         min_category: Category | str | None, rules: Rules | None,
                         crash_value: int, four_order: str, options: Mapping[str, str]) -> _Call[CrashResult]:
    return _result_call("CrashShowdown", _crash_request(players, scoring, min_category, rules, crash_value,
                                                        four_order, **options), CrashResult)


def _crash_request(players: Sequence[CrashPlayer], scoring: str | Sequence[int] = "points",
                   min_category: Category | str | None = None, rules: Rules | None = None,
                   crash_value: int = 0, four_order: str = FOUR_ORDERS[0],
                   **options: str) -> pb.CrashShowdownRequest:
    """A CrashShowdownRequest of crash_showdown's arguments (``options``:
    the CRASH_OPTIONS ones)."""
    unknown = sorted(set(options) - set(CRASH_OPTIONS))
    if unknown:
        raise TypeError(f"crash_showdown() got an unexpected keyword argument {unknown[0]!r}")
    request = pb.CrashShowdownRequest(
        rules=rules_to_proto(rules),
        players=[pb.CrashPlayer(
            id=p.id, hands=[cards_to_proto(h, f"player {p.id!r} hand") for h in p.hands],
            discards=cards_to_proto(p.discards, f"player {p.id!r} discards"),
            declare_six_pairs=p.declare_six_pairs) for p in players],
        weights=[] if scoring == "points" else list(scoring), crash_value=checked_crash_value(crash_value),
        four_order=checked_four_order(four_order), **crash_options_to_proto(options))
    if min_category is not None:
        request.min_category = _category_number(min_category)
    return request


def _deal_crash_call(seed: int, players: int, cards: int, spare: bool,
                     exchanges: Sequence[int]) -> _Call[CrashDeal]:
    request = deal_crash_request(seed, players, cards, spare, exchanges)
    return _Call(f"/{_PRIAL}/DealCrash", request.SerializeToString(), crash_deal_from_proto)


def _crash_match_call(rounds: Sequence[Sequence[CrashPlayer]], match: CrashMatchRules | None,
                      showdown: Mapping[str, Any]) -> _Call[CrashMatchResult]:
    if isinstance(rounds, (str, bytes)) or not isinstance(rounds, Sequence):
        raise InvalidShowdownError("crash_match takes a list of rounds, each a list of prial.CrashPlayer")
    request = pb.CrashMatchRequest(
        match=match_rules_to_proto(match), scoring=_crash_request([], **showdown),
        rounds=[pb.CrashMatchRoundPlayers(players=_crash_request(players).players) for players in rounds])
    order = [p.id for p in rounds[0]] if rounds else []
    return _Call(f"/{_PRIAL}/CrashMatch", request.SerializeToString(),
                 lambda data: crash_match_result_from_proto(data, order))


def _settle_casino_call(player: CardsLike, dealer: CardsLike, ante: int, play: int | None, pair_bonus: int,
                        paytable: Paytable | str, game: str | None) -> _Call[CasinoResult]:
    request = pb.SettleCasinoRequest(
        player=cards_to_proto(player, "player"), dealer=cards_to_proto(dealer, "dealer"),
        ante=_chips(ante, "ante"), play=None if play is None else _chips(play, "play"),
        pair_bonus=_chips(pair_bonus, "pair_bonus"), game=0 if game is None else number(GAMES, game, "game"))
    if isinstance(paytable, str):
        request.paytable_name = paytable
    else:
        request.paytable.CopyFrom(paytable_to_proto(paytable))
    return _result_call("SettleCasino", request, CasinoResult)


def _settle_partition_game_call(players: Sequence[CrashPlayer], game: PartitionGame,
                                carry: int) -> _Call[PartitionGameResult]:
    request = partition_game_request(players, checked_game(game), _chips(carry, "carry"))
    return _result_call("SettlePartitionGame", request, PartitionGameResult)


def _settle_classic_call(players: Sequence[ClassicPlayer], rules: ClassicRules | None,
                         contenders: Sequence[str] | None, seer: str | None, stock: CardsLike | None,
                         seed: int | None) -> _Call[ClassicResult]:
    rules = checked_rules(rules)
    for i, p in enumerate(players):
        if not isinstance(p, ClassicPlayer):
            raise InvalidShowdownError(f"player {i}: expected a prial.ClassicPlayer, got {type(p).__name__}",
                                       field="players")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64):
        raise InvalidShowdownError(f"seed must be an integer 0..2**64-1; got {seed!r}", field="seed")
    request = classic_request(players, rules, contenders, seer, stock, seed)
    return _result_call("SettleClassic", request, ClassicResult)


def _odds_call(rules: Rules | None, cards: int) -> _Call[Odds]:
    return _result_call("Odds", pb.OddsRequest(rules=rules_to_proto(rules), cards=cards), Odds)


def _equity_call(hand: CardsLike, opponents: int, dead: CardsLike, rules: Rules | None, samples: int | None,
                 seed: int, with_percentile: bool) -> _Call[Equity]:
    request = pb.EquityRequest(
        rules=rules_to_proto(rules), hand=cards_to_proto(hand, "hand"), opponents=opponents,
        dead=cards_to_proto(dead, "dead"), samples=samples, seed=seed, with_percentile=with_percentile)
    return _result_call("Equity", request, Equity)


def _play_table_call(table: TableRules, players: Sequence[str], actions: Sequence[ActionLike],
                     action: ActionLike | None, cards: Sequence[CardsLike | None] | None, seed: int | None,
                     dealer: int, stacks: Sequence[int] | None, view: str | None, carried: Mapping[str, Any] | None,
                     next_deal: Mapping[str, Any] | None, stub: CardsLike | None = None) -> _Call[TableState]:
    request = play_table_request(table, players, actions, action, cards, seed, dealer, stacks, view, carried,
                                 next_deal, stub)
    return _Call(f"/{_PRIAL}/PlayTable", request.SerializeToString(),
                 lambda data: table_state_from(pb.PlayTableResponse.FromString(data)))


def _health_call(service: str) -> _Call[str]:
    return _Call(_HEALTH_CHECK, health_pb2.HealthCheckRequest(service=service).SerializeToString(), _status_name)


def _status_name(data: bytes) -> str:
    return health_pb2.HealthCheckResponse.ServingStatus.Name(health_pb2.HealthCheckResponse.FromString(data).status)


class Evaluation(NamedTuple):
    """The ranks of one batch, in request order (numpy arrays, length N).

    ``strengths``: uint16, the three-card strength (of the best three for
    4/5-card hands).  ``keys``: uint32 best-of keys for 4/5-card hands (the
    values to compare there), None for three-card hands.  ``categories``:
    uint8 ``prial.Category`` codes.  ``descriptions``: when asked for.
    """

    strengths: npt.NDArray[np.uint16]
    keys: npt.NDArray[np.uint32] | None
    categories: npt.NDArray[np.uint8]
    descriptions: list[str] | None
    batch_index: int = 0


# The constructor NamedTuple generates names a module of its own, where the
# annotations above (strings here) do not resolve; this one they do in.
Evaluation.__new__.__module__ = __name__


def _hand_array(hands: npt.NDArray[np.uint8], widths: tuple[int, ...], field: str) -> npt.NDArray[np.uint8]:
    if not isinstance(hands, np.ndarray) or hands.dtype != np.uint8 or hands.ndim != 2 or hands.shape[1] not in widths:
        shape = getattr(hands, "shape", None)
        raise InvalidHandError(
            f"{field} must be a numpy uint8 array of shape (N, {'|'.join(map(str, widths))}), "
            f"got {getattr(hands, 'dtype', type(hands).__name__)} {shape}", field=field)
    return np.ascontiguousarray(hands)


def _hand_bytes(hands: npt.NDArray[np.uint8], widths: tuple[int, ...], field: str) -> bytes:
    return _hand_array(hands, widths, field).tobytes()


def _category_number(category: Category | int | str) -> int:
    return int(parse_category(category, "min_category"))


def _chips(value: int, field: str) -> int:
    # Negative chips cannot travel (uint64); refuse them here, as the server would.
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidShowdownError(f"{field} must be a whole number of chips >= 0, got {value!r}")
    return value


_CARDS = pb.EvaluateRequest.DESCRIPTOR.fields_by_name["cards"].number
_RESULT_FIELDS = {name: pb.EvaluateResponse.DESCRIPTOR.fields_by_name[name].number
                  for name in ("strengths", "keys", "categories", "descriptions", "batch_index")}


def evaluate_request(hands: npt.NDArray[np.uint8] | Sequence[str], rules: Rules | None,
                     describe: bool) -> pb.EvaluateRequest:
    """The EvaluateRequest of a batch (an array of card indices or text hands)."""
    request = pb.EvaluateRequest(rules=rules_to_proto(rules), describe=describe)
    if isinstance(hands, np.ndarray):
        request.cards = _hand_bytes(hands, (3, 4, 5), "hands")
        request.hand_size = hands.shape[1]
    elif isinstance(hands, str):
        raise InvalidHandError("hands must be a sequence of hands, not one string")
    else:
        request.hands.extend(hands)
    return request


def evaluate_request_bytes(hands: npt.NDArray[np.uint8] | Sequence[str], rules: Rules | None,
                           describe: bool) -> bytes:
    """``evaluate_request(...)`` serialized; an array's bytes are copied once."""
    if not isinstance(hands, np.ndarray):
        return evaluate_request(hands, rules, describe).SerializeToString()
    cards = _hand_array(hands, (3, 4, 5), "hands")
    head = pb.EvaluateRequest(rules=rules_to_proto(rules), describe=describe, hand_size=cards.shape[1])
    return encoding.with_bytes_field(head.SerializeToString(), _CARDS, cards)


def evaluation_from(data: bytes) -> Evaluation:
    """The Evaluation in a serialized EvaluateResponse: its arrays are
    read-only views of ``data`` (descriptions, when asked for, are decoded)."""
    fields = encoding.top_level_fields(data)
    if _RESULT_FIELDS["descriptions"] in fields:
        response = pb.EvaluateResponse.FromString(data)
        descriptions = list(response.descriptions)
    else:
        descriptions = None

    def array(name: str, dtype: str) -> np.ndarray:
        entry = fields.get(_RESULT_FIELDS[name])
        offset, length = entry if isinstance(entry, tuple) else (0, 0)
        return np.frombuffer(data, dtype=dtype, count=length // np.dtype(dtype).itemsize, offset=offset)

    keys = array("keys", "<u4")
    batch_index = fields.get(_RESULT_FIELDS["batch_index"], 0)
    return Evaluation(
        strengths=array("strengths", "<u2").astype(np.uint16, copy=False),
        keys=keys.astype(np.uint32, copy=False) if keys.size else None,
        categories=array("categories", "u1"),
        descriptions=descriptions,
        batch_index=batch_index if isinstance(batch_index, int) else 0,
    )
