"""A Python client for the prial gRPC service (``prial serve``).

>>> from prial.client import Client
>>> with Client("127.0.0.1:50051") as c:                      # doctest: +SKIP
...     c.evaluate(np.array([[7, 2, 50]], np.uint8)).strengths
array([716], dtype=uint16)

Batches go in and come out as numpy arrays; errors raise ``PrialRpcError``
carrying the status code and the BadRequest field violations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple

import grpc
import numpy as np
import numpy.typing as npt
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from . import _wire
from .cards import CardsLike
from .categories import Category, parse_category
from .errors import InvalidHandError, InvalidShowdownError
from .play.casino import CASINO_BRAG_PAYTABLE, Paytable
from .play.crash import CrashPlayer
from .play.results import CasinoResult, CrashResult, Equity, Odds, ShowdownResult
from .play.showdown import Player
from .results import Split
from .rules import Rules
from .service.convert import (
    GAMES,
    OBJECTIVES,
    cards_to_proto,
    paytable_to_proto,
    result_from_proto,
    rules_to_proto,
)
from .service.options import ServeOptions
from .v1 import prial_pb2 as pb
from .v1 import prial_pb2_grpc as pb_grpc

__all__ = ["Client", "Evaluation", "FieldViolation", "PrialRpcError"]

_LAST_INDEX = re.compile(r"\[(\d+)\][^\[]*$")
_BATCH_INDEX = re.compile(r"^batch\[(\d+)\]")


class FieldViolation(NamedTuple):
    """One google.rpc.BadRequest field violation.

    ``field`` is a path into the request such as ``"cards[17]"`` (hand 17 of
    ``cards``) or ``"batch[3].hands[2]"`` (hand 2 of the 4th batch of a
    stream); ``description`` says what is wrong.
    """

    field: str
    description: str

    @property
    def hand_index(self) -> int | None:
        """The index of the offending hand, when the violation names one."""
        match = _LAST_INDEX.search(self.field)
        return int(match.group(1)) if match else None

    @property
    def batch_index(self) -> int | None:
        """The position of the offending batch in a stream, if any."""
        match = _BATCH_INDEX.match(self.field)
        return int(match.group(1)) if match else None


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


class PrialRpcError(Exception):
    """A call failed: ``code`` (grpc.StatusCode), ``message`` (the server's
    text) and, for INVALID_ARGUMENT, ``field_violations`` naming the request
    field and hand index."""

    def __init__(self, code: grpc.StatusCode, message: str,
                 field_violations: Sequence[FieldViolation] = ()) -> None:
        super().__init__(f"{code.name}: {message}")
        self.code = code
        self.message = message
        self.field_violations = tuple(field_violations)

    @property
    def hand_index(self) -> int | None:
        """The offending hand's index, from the first field violation."""
        for violation in self.field_violations:
            if violation.hand_index is not None:
                return violation.hand_index
        return None

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> PrialRpcError:
        violations: list[FieldViolation] = []
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
        if status is not None:
            for detail in status.details:
                if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                    bad = error_details_pb2.BadRequest()
                    detail.Unpack(bad)
                    violations.extend(FieldViolation(v.field, v.description) for v in bad.field_violations)
        return cls(error.code(), error.details() or "", violations)  # type: ignore[attr-defined]


class Client:
    """A connection to a prial server.

    ``target``: "host:port".  ``timeout``: default deadline in seconds for
    every call (None: no deadline; each method also takes ``timeout``).
    TLS: ``tls=True`` (system roots) or ``root_certificates`` (PEM bytes);
    mutual TLS adds ``certificate_chain`` and ``private_key``;
    ``server_name`` overrides the host name checked against the server's
    certificate.  ``token``:
    the bearer token the server was given (``--auth-token-file``).
    ``max_message_bytes`` bounds both directions (default 64 MiB, the
    server's default: room for a 1M-hand batch).
    """

    def __init__(
        self,
        target: str = "127.0.0.1:50051",
        *,
        timeout: float | None = None,
        tls: bool = False,
        root_certificates: bytes | None = None,
        certificate_chain: bytes | None = None,
        private_key: bytes | None = None,
        server_name: str | None = None,
        token: str | None = None,
        max_message_bytes: int = ServeOptions.max_message_bytes,
        options: Sequence[tuple[str, int | str | bytes]] = (),
    ) -> None:
        channel_options = [
            ("grpc.max_receive_message_length", max_message_bytes),
            ("grpc.max_send_message_length", max_message_bytes),
            *options,
        ]
        if server_name:
            channel_options.append(("grpc.ssl_target_name_override", server_name))
        if tls or root_certificates or certificate_chain:
            credentials = grpc.ssl_channel_credentials(root_certificates, private_key, certificate_chain)
            self._channel = grpc.secure_channel(target, credentials, options=channel_options)
        else:
            self._channel = grpc.insecure_channel(target, options=channel_options)
        self._stub = pb_grpc.PrialStub(self._channel)
        # The batch calls send and take bytes, written and read by _wire.
        self._evaluate = self._channel.unary_unary(_METHOD.format("Evaluate"))
        self._evaluate_stream = self._channel.stream_stream(_METHOD.format("EvaluateStream"))
        self._health = health_pb2_grpc.HealthStub(self._channel)
        self._timeout = timeout
        self._metadata = (("authorization", f"Bearer {token}"),) if token else ()

    # -- plumbing --------------------------------------------------------------

    def _call(self, method: Any, request: Any, timeout: float | None) -> Any:
        try:
            return method(request, timeout=self._deadline(timeout), metadata=self._metadata)
        except grpc.RpcError as error:
            raise PrialRpcError.from_rpc_error(error) from None

    def _deadline(self, timeout: float | None) -> float | None:
        return self._timeout if timeout is None else timeout

    def close(self) -> None:
        self._channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- RPCs ------------------------------------------------------------------

    def evaluate(self, hands: npt.NDArray[np.uint8] | Sequence[str], *, rules: Rules | None = None,
                 describe: bool = False, timeout: float | None = None) -> Evaluation:
        """Ranks a batch: a uint8 array (N, 3|4|5) of card indices, or text
        hands.  Returns numpy arrays (see ``Evaluation``)."""
        return evaluation_from(self._call(self._evaluate, evaluate_request_bytes(hands, rules, describe), timeout))

    def evaluate_stream(self, batches: Iterable[npt.NDArray[np.uint8] | Sequence[str]], *, rules: Rules | None = None,
                        describe: bool = False, timeout: float | None = None) -> Iterator[Evaluation]:
        """Ranks batches over one stream; yields one Evaluation per batch, in
        order, while later batches are still being sent."""
        requests = (evaluate_request_bytes(batch, rules, describe) for batch in batches)
        try:
            for response in self._evaluate_stream(requests, timeout=self._deadline(timeout), metadata=self._metadata):
                yield evaluation_from(response)
        except grpc.RpcError as error:
            raise PrialRpcError.from_rpc_error(error) from None

    def partition(self, cards: CardsLike, hands: int = 4, objective: str = "lexicographic",
                  min_category: Category | str | None = None, opponents: int = 3, crash_value: float = 0.0, *,
                  rules: Rules | None = None, timeout: float | None = None) -> Split:
        """``Evaluator(rules).partition(...)`` on the server."""
        request = pb.PartitionRequest(
            rules=rules_to_proto(rules), cards=cards_to_proto(cards, "cards"), hands=hands,
            objective=_number(OBJECTIVES, objective, "objective"), opponents=opponents, crash_value=crash_value)
        if min_category is not None:
            request.min_category = _category_number(min_category)
        return result_from_proto(self._call(self._stub.Partition, request, timeout), Split)

    def showdown(self, players: Sequence[Player], seer: str | None = None, *, rules: Rules | None = None,
                 cards_per_hand: int | None = None, pot: int = 0, coverer: str | None = None,
                 old_pot: int = 0, timeout: float | None = None) -> ShowdownResult:
        """``prial.showdown(...)`` on the server."""
        request = pb.ShowdownRequest(
            rules=rules_to_proto(rules),
            players=[pb.Player(id=p.id, cards=cards_to_proto(p.cards, f"player {p.id!r}"), blind=p.blind,
                               stake=_chips(p.stake, f"player {p.id!r} stake")) for p in players],
            seer=seer, cards_per_hand=cards_per_hand or 0, pot=_chips(pot, "pot"), coverer=coverer,
            old_pot=_chips(old_pot, "old_pot"))
        return result_from_proto(self._call(self._stub.Showdown, request, timeout), ShowdownResult)

    def showdown_batch(self, seer_cards: npt.NDArray[np.uint8], seen_cards: npt.NDArray[np.uint8], *,
                       rules: Rules | None = None, timeout: float | None = None) -> npt.NDArray[np.uint8]:
        """``prial.showdown_batch(...)`` on the server: uint8 (N,) 1 where the seer wins."""
        request = pb.ShowdownBatchRequest(
            rules=rules_to_proto(rules),
            seer_cards=_hand_bytes(seer_cards, (3, 4, 5), "seer_cards"),
            seen_cards=_hand_bytes(seen_cards, (3, 4, 5), "seen_cards"),
            hand_size=seer_cards.shape[1])
        response = self._call(self._stub.ShowdownBatch, request, timeout)
        return np.frombuffer(response.seer_wins, dtype=np.uint8)

    def crash_showdown(self, players: Sequence[CrashPlayer], *, scoring: str | Sequence[int] = "points",
                       min_category: Category | str | None = None, rules: Rules | None = None,
                       timeout: float | None = None) -> CrashResult:
        """``prial.crash_showdown(...)`` on the server."""
        request = pb.CrashShowdownRequest(
            rules=rules_to_proto(rules),
            players=[pb.CrashPlayer(
                id=p.id, hands=[cards_to_proto(h, f"player {p.id!r} hand") for h in p.hands],
                discards=cards_to_proto(p.discards, f"player {p.id!r} discards"),
                declare_six_pairs=p.declare_six_pairs) for p in players],
            weights=[] if scoring == "points" else list(scoring))
        if min_category is not None:
            request.min_category = _category_number(min_category)
        return result_from_proto(self._call(self._stub.CrashShowdown, request, timeout), CrashResult)

    def settle_casino(self, player: CardsLike, dealer: CardsLike, ante: int, play: int | None = None,
                      pair_bonus: int = 0, *, paytable: Paytable | str = CASINO_BRAG_PAYTABLE, game: str = "brag",
                      timeout: float | None = None) -> CasinoResult:
        """``prial.settle_casino(...)`` on the server."""
        request = pb.SettleCasinoRequest(
            player=cards_to_proto(player, "player"), dealer=cards_to_proto(dealer, "dealer"),
            ante=_chips(ante, "ante"), play=None if play is None else _chips(play, "play"),
            pair_bonus=_chips(pair_bonus, "pair_bonus"), game=_number(GAMES, game, "game"))
        if isinstance(paytable, str):
            request.paytable_name = paytable
        else:
            request.paytable.CopyFrom(paytable_to_proto(paytable))
        return result_from_proto(self._call(self._stub.SettleCasino, request, timeout), CasinoResult)

    def odds(self, rules: Rules | None = None, cards: int = 3, *, timeout: float | None = None) -> Odds:
        """``prial.odds(...)`` on the server."""
        request = pb.OddsRequest(rules=rules_to_proto(rules), cards=cards)
        return result_from_proto(self._call(self._stub.Odds, request, timeout), Odds)

    def equity(self, hand: CardsLike, opponents: int = 1, dead: CardsLike = (), rules: Rules | None = None, *,
               samples: int | None = None, seed: int = 0, timeout: float | None = None) -> Equity:
        """``prial.equity(...)`` on the server."""
        request = pb.EquityRequest(
            rules=rules_to_proto(rules), hand=cards_to_proto(hand, "hand"), opponents=opponents,
            dead=cards_to_proto(dead, "dead"), samples=samples, seed=seed)
        return result_from_proto(self._call(self._stub.Equity, request, timeout), Equity)

    def health(self, service: str = "", *, timeout: float | None = None) -> str:
        """The server's health status name for ``service`` ("" = the whole
        server, or "prial.v1.Prial"): "SERVING" or "NOT_SERVING"."""
        response = self._call(self._health.Check, health_pb2.HealthCheckRequest(service=service), timeout)
        return health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Blocks until the channel connects (or raises grpc.FutureTimeoutError)."""
        grpc.channel_ready_future(self._channel).result(timeout=timeout)


def _hand_array(hands: npt.NDArray[np.uint8], widths: tuple[int, ...], field: str) -> npt.NDArray[np.uint8]:
    if not isinstance(hands, np.ndarray) or hands.dtype != np.uint8 or hands.ndim != 2 or hands.shape[1] not in widths:
        shape = getattr(hands, "shape", None)
        raise InvalidHandError(
            f"{field} must be a numpy uint8 array of shape (N, {'|'.join(map(str, widths))}), "
            f"got {getattr(hands, 'dtype', type(hands).__name__)} {shape}", field=field)
    return np.ascontiguousarray(hands)


def _hand_bytes(hands: npt.NDArray[np.uint8], widths: tuple[int, ...], field: str) -> bytes:
    return _hand_array(hands, widths, field).tobytes()


def _number(table: dict[int, str | None], option: str, field: str) -> int:
    for number, name in table.items():
        if number and name == option:
            return number
    raise InvalidHandError(f"{field} must be one of {', '.join(sorted({n for n in table.values() if n}))}; "
                           f"got {option!r}", field=field)


def _category_number(category: Category | int | str) -> int:
    return int(parse_category(category, "min_category"))


def _chips(value: int, field: str) -> int:
    # Negative chips cannot travel (uint64); refuse them here, as the server would.
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidShowdownError(f"{field} must be a whole number of chips >= 0, got {value!r}")
    return value


_METHOD = "/" + pb.DESCRIPTOR.services_by_name["Prial"].full_name + "/{}"
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
    return _wire.with_bytes_field(head.SerializeToString(), _CARDS, cards)


def evaluation_from(data: bytes) -> Evaluation:
    """The Evaluation in a serialized EvaluateResponse: its arrays are
    read-only views of ``data`` (descriptions, when asked for, are decoded)."""
    fields = _wire.top_level_fields(data)
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
