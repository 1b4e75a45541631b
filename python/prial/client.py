"""Python clients for the prial gRPC service (``prial serve``): ``Client``,
whose calls block, and ``AsyncClient``, the same for asyncio.

>>> from prial.client import Client
>>> with Client("127.0.0.1:50051") as c:                      # doctest: +SKIP
...     c.evaluate(np.array([[7, 2, 50]], np.uint8)).strengths
array([716], dtype=uint16)

Batches go in and come out as numpy arrays; errors raise ``PrialRpcError``
carrying the status code and the BadRequest field violations.  A call the
server did not answer (UNAVAILABLE) is tried again as ``RetryPolicy`` says.
"""

from __future__ import annotations

import asyncio
import json
import math
import queue
import re
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, NamedTuple, TypeVar

import grpc
import grpc.aio
import numpy as np
import numpy.typing as npt
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2
from grpc_status import rpc_status

from . import _wire
from .cards import CardsLike
from .categories import Category, parse_category
from .errors import ConfigurationError, Error, InvalidHandError, InvalidShowdownError
from .play.casino import CASINO_BRAG_PAYTABLE, Paytable
from .play.crash import CrashPlayer, checked_crash_value
from .play.results import CasinoResult, CrashResult, Equity, Odds, ShowdownResult
from .play.showdown import Player
from .results import Split
from .rules import Rules
from .service.convert import (
    GAMES,
    OBJECTIVES,
    cards_to_proto,
    number,
    paytable_to_proto,
    result_from_proto,
    rules_to_proto,
)
from .service.options import ServeOptions
from .service.table import ActionLike, TableState, play_table_request, table_state_from
from .table import TableRules
from .v1 import prial_pb2 as pb

__all__ = ["AsyncClient", "Client", "Evaluation", "FieldViolation", "PrialRpcError", "RetryPolicy", "TableState"]

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


class PrialRpcError(Error):
    """A call failed: ``code`` (grpc.StatusCode), ``message`` (the server's
    text), for INVALID_ARGUMENT ``field_violations`` naming the request
    field and hand index, and for FAILED_PRECONDITION (an action the table
    refused) ``reason``, the rule's code as ``prial.IllegalActionError.code``
    has it, and ``metadata`` (``action_index``, ``player``, ``kind``)."""

    def __init__(self, code: grpc.StatusCode, message: str,
                 field_violations: Sequence[FieldViolation] = (), reason: str | None = None,
                 metadata: dict[str, str] | None = None) -> None:
        super().__init__(f"{code.name}: {message}")
        self.code = code
        self.message = message
        self.field_violations = tuple(field_violations)
        self.reason = reason
        self.metadata = metadata or {}

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
        info = error_details_pb2.ErrorInfo()
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
        if status is not None:
            for detail in status.details:
                if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                    bad = error_details_pb2.BadRequest()
                    detail.Unpack(bad)
                    violations.extend(FieldViolation(v.field, v.description) for v in bad.field_violations)
                elif detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    detail.Unpack(info)
        return cls(error.code(), error.details() or "", violations,  # type: ignore[attr-defined]
                   info.reason or None, dict(info.metadata))


@dataclass(frozen=True)
class RetryPolicy:
    """How a call that failed with one of ``codes`` is tried again.

    Every prial RPC is a pure function of its request, so a call can always
    be tried again.  UNAVAILABLE, the one code retried by default, says the
    call did not get an answer from a server: none was listening, the
    connection failed or broke, the server was shutting down.  Other codes
    are answers and would come again; RESOURCE_EXHAUSTED in particular is
    a request over a limit or a server at its limits, where calling again
    at once adds load where there is too much already.

    ``max_attempts`` counts the first attempt: 2 to 5 (gRPC tries a call at
    most 5 times).  After attempt n failed, attempt n + 1 starts
    ``initial_backoff * backoff_multiplier ** (n - 1)`` seconds later, at
    most ``max_backoff``, each backoff drawn within 20% either way.  The
    call's timeout covers every attempt and backoff: a call whose deadline
    comes first ends with DEADLINE_EXCEEDED, or UNAVAILABLE with the
    connection's error where the channel could not connect at all.  A stream is tried again only
    until its first answer arrives.  The retries are gRPC's own (set in the
    channel's service config); the channel also reconnects to a server that
    went away at the same pace, at most ``max_backoff`` apart, so that an
    attempt finds it once it is back.
    """

    max_attempts: int = 5
    initial_backoff: float = 0.2
    max_backoff: float = 2.0
    backoff_multiplier: float = 2.0
    codes: tuple[grpc.StatusCode, ...] = (grpc.StatusCode.UNAVAILABLE,)

    def __post_init__(self) -> None:
        attempts = self.max_attempts
        if isinstance(attempts, bool) or not isinstance(attempts, int) or not 2 <= attempts <= _MAX_ATTEMPTS:
            raise ConfigurationError(f"RetryPolicy max_attempts must be a whole number from 2 to {_MAX_ATTEMPTS} "
                                     f"(gRPC tries a call at most {_MAX_ATTEMPTS} times), got {attempts!r}")
        for name, least in (("initial_backoff", 0.001), ("max_backoff", self.initial_backoff),
                            ("backoff_multiplier", 1.0)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not least <= value < math.inf:
                raise ConfigurationError(f"RetryPolicy {name} must be a finite number of at least {least:g}, "
                                         f"got {value!r}")
        codes = tuple(self.codes)
        if not codes or not all(isinstance(c, grpc.StatusCode) and c != grpc.StatusCode.OK for c in codes):
            raise ConfigurationError(f"RetryPolicy codes must be grpc.StatusCode values other than OK, "
                                     f"got {self.codes!r}")
        object.__setattr__(self, "codes", codes)

    def _channel_options(self, max_message_bytes: int) -> list[tuple[str, int | str]]:
        """The channel options that make gRPC retry as this policy says."""
        retry = {
            "maxAttempts": self.max_attempts,
            "initialBackoff": _duration(self.initial_backoff),
            "maxBackoff": _duration(self.max_backoff),
            "backoffMultiplier": self.backoff_multiplier,
            "retryableStatusCodes": [code.name for code in self.codes],
        }
        config = {"methodConfig": [{"name": [{"service": _PRIAL}, {"service": _HEALTH}], "retryPolicy": retry}]}
        return [
            ("grpc.enable_retries", 1),
            ("grpc.service_config", json.dumps(config)),
            # gRPC keeps a request for another attempt up to this size, 256 KiB by
            # default: a batch of more than 87,000 three-card hands was never retried.
            ("grpc.per_rpc_retry_buffer_size", max_message_bytes),
            # A failed connection is tried again after 1 s, then ever later (up to
            # 2 min): attempts meanwhile fail at once, even with the server back.
            ("grpc.initial_reconnect_backoff_ms", _millis(self.initial_backoff)),
            ("grpc.max_reconnect_backoff_ms", _millis(self.max_backoff)),
        ]


_MAX_ATTEMPTS = 5


def _duration(seconds: float) -> str:
    return f"{seconds:.9f}".rstrip("0").rstrip(".") + "s"  # the JSON form of a google.protobuf.Duration


def _millis(seconds: float) -> int:
    return max(1, round(seconds * 1000))


def _retry_options(retries: RetryPolicy | Literal[0] | None, max_message_bytes: int) -> list[tuple[str, int | str]]:
    if isinstance(retries, RetryPolicy):
        return retries._channel_options(max_message_bytes)
    if retries is None or (isinstance(retries, int) and retries == 0):
        return [("grpc.enable_retries", 0)]
    raise TypeError(f"retries must be a RetryPolicy, or None or 0 for none, got {retries!r}")


class _Connection:
    """What both clients share: the channel's settings, each call's deadline
    and metadata, and the multicallables, all of them sending and receiving
    bytes (built and read by the ``_*_call`` functions below).  A client
    opens its kind of channel in ``_open`` and calls in its own way."""

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
        retries: RetryPolicy | Literal[0] | None = RetryPolicy(),
        options: Sequence[tuple[str, int | str | bytes]] = (),
    ) -> None:
        # gRPC takes the first value given for an option: the caller's come first.
        channel_options: list[tuple[str, int | str | bytes]] = [
            *options,
            *([("grpc.ssl_target_name_override", server_name)] if server_name else []),
            ("grpc.max_receive_message_length", max_message_bytes),
            ("grpc.max_send_message_length", max_message_bytes),
            *_retry_options(retries, max_message_bytes),
        ]
        credentials = (grpc.ssl_channel_credentials(root_certificates, private_key, certificate_chain)
                       if tls or root_certificates or certificate_chain else None)
        self._channel = self._open(target, credentials, channel_options)
        self._methods = {method: self._channel.unary_unary(method, _registered_method=True)
                         for method in _UNARY_METHODS}
        self._evaluate_stream = self._channel.stream_stream(_EVALUATE_STREAM, _registered_method=True)
        self._probe = self._channel.unary_unary(_PROBE)
        self._timeout = timeout
        self._metadata = (("authorization", f"Bearer {token}"),) if token else ()

    def _open(self, target: str, credentials: grpc.ChannelCredentials | None,
              options: Sequence[tuple[str, int | str | bytes]]) -> Any:
        raise NotImplementedError  # each client opens its own kind of channel

    def _deadline(self, timeout: float | None) -> float | None:
        return self._timeout if timeout is None else timeout


class Client(_Connection):
    """A connection to a prial server; a call blocks until it is answered.

    ``target``: "host:port".  ``timeout``: default deadline in seconds for
    every call, its retries included (None: no deadline; each method also
    takes ``timeout``).  TLS: ``tls=True`` (system roots) or
    ``root_certificates`` (PEM bytes); mutual TLS adds ``certificate_chain``
    and ``private_key``; ``server_name`` overrides the host name checked
    against the server's certificate.  ``token``: the bearer token the
    server was given (``--auth-token-file``).  ``max_message_bytes`` bounds
    both directions (default 64 MiB, the server's default: room for a
    1M-hand batch).  ``retries``: how a call the server did not answer is
    tried again (``RetryPolicy``; None or 0: never).  ``options``: gRPC
    channel options, which take precedence over the client's own.

    Every method takes the arguments of the Python function of the same
    name and returns the same result type.
    """

    _channel: grpc.Channel

    def _open(self, target: str, credentials: grpc.ChannelCredentials | None,
              options: Sequence[tuple[str, int | str | bytes]]) -> grpc.Channel:
        if credentials is None:
            return grpc.insecure_channel(target, options=options)
        return grpc.secure_channel(target, credentials, options=options)

    def _unary(self, call: _Call[T], timeout: float | None) -> T:
        try:
            response = self._methods[call.method](call.request, timeout=self._deadline(timeout),
                                                  metadata=self._metadata)
        except grpc.RpcError as error:
            raise self._failure(error) from None
        return call.decode(response)

    def _failure(self, error: grpc.RpcError) -> PrialRpcError:
        """What a failed call says.  A deadline that came while the channel
        could not connect, between attempts, is that failure (UNAVAILABLE,
        "Connection refused" to the address), not the deadline's."""
        if error.code() == grpc.StatusCode.DEADLINE_EXCEEDED and self._cannot_connect():
            try:
                self._probe(b"", timeout=_PROBE_SECONDS)
            except grpc.RpcError as probed:
                if probed.code() == grpc.StatusCode.UNAVAILABLE:
                    error = probed
        return PrialRpcError.from_rpc_error(error)

    def _cannot_connect(self) -> bool:
        # The sync channel tells its state only to a subscriber, at once.
        seen: queue.SimpleQueue[grpc.ChannelConnectivity] = queue.SimpleQueue()
        put = seen.put
        self._channel.subscribe(put, try_to_connect=False)
        try:
            return seen.get(timeout=_PROBE_SECONDS) == grpc.ChannelConnectivity.TRANSIENT_FAILURE
        except queue.Empty:
            return False
        finally:
            self._channel.unsubscribe(put)

    def close(self) -> None:
        self._channel.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def evaluate(self, hands: npt.NDArray[np.uint8] | Sequence[str], *, rules: Rules | None = None,
                 describe: bool = False, timeout: float | None = None) -> Evaluation:
        """Ranks a batch: a uint8 array (N, 3|4|5) of card indices, or text
        hands.  Returns numpy arrays (see ``Evaluation``)."""
        return self._unary(_evaluate_call(hands, rules, describe), timeout)

    def evaluate_stream(self, batches: Iterable[npt.NDArray[np.uint8] | Sequence[str]], *, rules: Rules | None = None,
                        describe: bool = False, timeout: float | None = None) -> Iterator[Evaluation]:
        """Ranks batches over one stream; yields one Evaluation per batch, in
        order, while later batches are still being sent.  A batch that
        cannot be sent (or ``batches`` raising) ends the stream: the batches
        before it are answered first, then its error is raised."""
        requests = _StreamRequests(rules, describe)
        try:
            for response in self._evaluate_stream(requests.of(batches), timeout=self._deadline(timeout),
                                                  metadata=self._metadata):
                yield evaluation_from(response)
        except grpc.RpcError as error:
            raise self._failure(error) from None
        requests.raise_failure()

    def partition(self, cards: CardsLike, hands: int = 4, objective: str = "lexicographic",
                  min_category: Category | str | None = None, opponents: int = 3, crash_value: float = 0.0, *,
                  rules: Rules | None = None, timeout: float | None = None) -> Split:
        """``Evaluator(rules).partition(...)`` on the server."""
        return self._unary(_partition_call(cards, hands, objective, min_category, opponents, crash_value, rules),
                           timeout)

    def showdown(self, players: Sequence[Player], seer: str | None = None, *, rules: Rules | None = None,
                 cards_per_hand: int | None = None, pot: int = 0, coverer: str | None = None,
                 old_pot: int = 0, timeout: float | None = None) -> ShowdownResult:
        """``prial.showdown(...)`` on the server."""
        return self._unary(_showdown_call(players, seer, rules, cards_per_hand, pot, coverer, old_pot), timeout)

    def showdown_batch(self, seer_cards: npt.NDArray[np.uint8], seen_cards: npt.NDArray[np.uint8], *,
                       rules: Rules | None = None, timeout: float | None = None) -> npt.NDArray[np.uint8]:
        """``prial.showdown_batch(...)`` on the server: uint8 (N,) 1 where the seer wins."""
        return self._unary(_showdown_batch_call(seer_cards, seen_cards, rules), timeout)

    def crash_showdown(self, players: Sequence[CrashPlayer], *, scoring: str | Sequence[int] = "points",
                       min_category: Category | str | None = None, rules: Rules | None = None,
                       crash_value: int = 0, timeout: float | None = None) -> CrashResult:
        """``prial.crash_showdown(...)`` on the server."""
        return self._unary(_crash_showdown_call(players, scoring, min_category, rules, crash_value), timeout)

    def settle_casino(self, player: CardsLike, dealer: CardsLike, ante: int, play: int | None = None,
                      pair_bonus: int = 0, *, paytable: Paytable | str = CASINO_BRAG_PAYTABLE, game: str | None = None,
                      timeout: float | None = None) -> CasinoResult:
        """``prial.settle_casino(...)`` on the server."""
        return self._unary(_settle_casino_call(player, dealer, ante, play, pair_bonus, paytable, game), timeout)

    def odds(self, rules: Rules | None = None, cards: int = 3, *, timeout: float | None = None) -> Odds:
        """``prial.odds(...)`` on the server."""
        return self._unary(_odds_call(rules, cards), timeout)

    def equity(self, hand: CardsLike, opponents: int = 1, dead: CardsLike = (), rules: Rules | None = None, *,
               samples: int | None = None, seed: int = 0, with_percentile: bool = False,
               timeout: float | None = None) -> Equity:
        """``prial.equity(...)`` on the server."""
        return self._unary(_equity_call(hand, opponents, dead, rules, samples, seed, with_percentile), timeout)

    def play_table(self, table: TableRules, players: Sequence[str], actions: Sequence[ActionLike] = (),
                   action: ActionLike | None = None, *, cards: Sequence[CardsLike | None] | None = None,
                   seed: int | None = None, dealer: int = 0, stacks: Sequence[int] | None = None,
                   view: str | None = None, carried: Mapping[str, Any] | None = None,
                   next_deal: Mapping[str, Any] | None = None, timeout: float | None = None) -> TableState:
        """The deal ``prial.Deal.start(table, players, cards, seed, dealer,
        stacks, carried=carried)`` after ``actions`` and then ``action``
        (each a ``prial.Action``, a kind, or a mapping as ``Deal.to_dict``
        writes them), played on the server, which keeps nothing between
        calls: give a seed or the cards.  ``view``: a player's id for only
        what that player may see, "" for a spectator's, None for the whole
        deal.  ``next_deal``: ``Deal.next``'s keywords (``{}`` for none) to
        answer the next deal once this one is over; its
        ``TableState.next_deal`` gives the keywords of that deal's calls.  A
        refused action raises PrialRpcError FAILED_PRECONDITION, its
        ``reason`` the rule's code."""
        return self._unary(_play_table_call(table, players, actions, action, cards, seed, dealer, stacks, view,
                                            carried, next_deal), timeout)

    def health(self, service: str = "", *, timeout: float | None = None) -> str:
        """The server's health status name for ``service`` ("" = the whole
        server, or "prial.v1.Prial"): "SERVING" or "NOT_SERVING"."""
        return self._unary(_health_call(service), timeout)

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Blocks until the channel connects (or raises grpc.FutureTimeoutError)."""
        grpc.channel_ready_future(self._channel).result(timeout=timeout)


class AsyncClient(_Connection):
    """A connection to a prial server for asyncio (a grpc.aio channel).

    The arguments of ``Client`` and its methods, with the same signatures
    and results, awaited; ``evaluate_stream`` is an async iterator and takes
    an iterable or an async iterable of batches.  ``async with`` closes it.
    Make it in the event loop that uses it: a grpc.aio channel belongs to
    the loop it was made in.
    """

    _channel: grpc.aio.Channel

    def _open(self, target: str, credentials: grpc.ChannelCredentials | None,
              options: Sequence[tuple[str, int | str | bytes]]) -> grpc.aio.Channel:
        if credentials is None:
            return grpc.aio.insecure_channel(target, options=options)
        return grpc.aio.secure_channel(target, credentials, options=options)

    async def _unary(self, call: _Call[T], timeout: float | None) -> T:
        try:
            response = await self._methods[call.method](call.request, timeout=self._deadline(timeout),
                                                        metadata=self._metadata)
        except grpc.RpcError as error:
            raise await self._failure(error) from None
        return call.decode(response)

    async def _failure(self, error: grpc.RpcError) -> PrialRpcError:
        """As ``Client._failure``."""
        if (error.code() == grpc.StatusCode.DEADLINE_EXCEEDED
                and self._channel.get_state() == grpc.ChannelConnectivity.TRANSIENT_FAILURE):
            try:
                await self._probe(b"", timeout=_PROBE_SECONDS)
            except grpc.RpcError as probed:
                if probed.code() == grpc.StatusCode.UNAVAILABLE:
                    error = probed
        return PrialRpcError.from_rpc_error(error)

    async def close(self) -> None:
        await self._channel.close()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def evaluate(self, hands: npt.NDArray[np.uint8] | Sequence[str], *, rules: Rules | None = None,
                       describe: bool = False, timeout: float | None = None) -> Evaluation:
        """As ``Client.evaluate``."""
        return await self._unary(_evaluate_call(hands, rules, describe), timeout)

    async def evaluate_stream(
        self,
        batches: Iterable[npt.NDArray[np.uint8] | Sequence[str]] | AsyncIterable[npt.NDArray[np.uint8] | Sequence[str]],
        *, rules: Rules | None = None, describe: bool = False, timeout: float | None = None,
    ) -> AsyncIterator[Evaluation]:
        """As ``Client.evaluate_stream``, the batches from an iterable or an async iterable.

        One batch is in flight at a time: batch n + 1 is sent once the answer
        to batch n has been read (and taken from ``batches`` meanwhile), so
        taking longer than the server's idle timeout over one answer ends
        the stream.  Leaving the ``async for`` early cancels the call."""
        requests = _StreamRequests(rules, describe)
        turns = _Turns()
        call = self._evaluate_stream(
            turns.paced(requests.of_async(batches if isinstance(batches, AsyncIterable) else _async_iter(batches))),
            timeout=self._deadline(timeout), metadata=self._metadata)
        try:
            async for response in call:
                turns.answered()
                yield evaluation_from(response)
        except grpc.RpcError as error:
            raise await self._failure(error) from None
        finally:
            call.cancel()  # a caller that stopped early; nothing once the call has ended
            turns.end()
        requests.raise_failure()

    async def partition(self, cards: CardsLike, hands: int = 4, objective: str = "lexicographic",
                        min_category: Category | str | None = None, opponents: int = 3, crash_value: float = 0.0, *,
                        rules: Rules | None = None, timeout: float | None = None) -> Split:
        """As ``Client.partition``."""
        return await self._unary(
            _partition_call(cards, hands, objective, min_category, opponents, crash_value, rules), timeout)

    async def showdown(self, players: Sequence[Player], seer: str | None = None, *, rules: Rules | None = None,
                       cards_per_hand: int | None = None, pot: int = 0, coverer: str | None = None,
                       old_pot: int = 0, timeout: float | None = None) -> ShowdownResult:
        """As ``Client.showdown``."""
        return await self._unary(_showdown_call(players, seer, rules, cards_per_hand, pot, coverer, old_pot), timeout)

    async def showdown_batch(self, seer_cards: npt.NDArray[np.uint8], seen_cards: npt.NDArray[np.uint8], *,
                             rules: Rules | None = None, timeout: float | None = None) -> npt.NDArray[np.uint8]:
        """As ``Client.showdown_batch``."""
        return await self._unary(_showdown_batch_call(seer_cards, seen_cards, rules), timeout)

    async def crash_showdown(self, players: Sequence[CrashPlayer], *, scoring: str | Sequence[int] = "points",
                             min_category: Category | str | None = None, rules: Rules | None = None,
                             crash_value: int = 0, timeout: float | None = None) -> CrashResult:
        """As ``Client.crash_showdown``."""
        return await self._unary(_crash_showdown_call(players, scoring, min_category, rules, crash_value), timeout)

    async def settle_casino(self, player: CardsLike, dealer: CardsLike, ante: int, play: int | None = None,
                            pair_bonus: int = 0, *, paytable: Paytable | str = CASINO_BRAG_PAYTABLE,
                            game: str | None = None, timeout: float | None = None) -> CasinoResult:
        """As ``Client.settle_casino``."""
        return await self._unary(_settle_casino_call(player, dealer, ante, play, pair_bonus, paytable, game),
                                 timeout)

    async def odds(self, rules: Rules | None = None, cards: int = 3, *, timeout: float | None = None) -> Odds:
        """As ``Client.odds``."""
        return await self._unary(_odds_call(rules, cards), timeout)

    async def equity(self, hand: CardsLike, opponents: int = 1, dead: CardsLike = (), rules: Rules | None = None, *,
                     samples: int | None = None, seed: int = 0, with_percentile: bool = False,
                     timeout: float | None = None) -> Equity:
        """As ``Client.equity``."""
        return await self._unary(_equity_call(hand, opponents, dead, rules, samples, seed, with_percentile),
                                 timeout)

    async def play_table(self, table: TableRules, players: Sequence[str], actions: Sequence[ActionLike] = (),
                         action: ActionLike | None = None, *, cards: Sequence[CardsLike | None] | None = None,
                         seed: int | None = None, dealer: int = 0, stacks: Sequence[int] | None = None,
                         view: str | None = None, carried: Mapping[str, Any] | None = None,
                         next_deal: Mapping[str, Any] | None = None, timeout: float | None = None) -> TableState:
        """As ``Client.play_table``."""
        return await self._unary(
            _play_table_call(table, players, actions, action, cards, seed, dealer, stacks, view, carried, next_deal),
            timeout)

    async def health(self, service: str = "", *, timeout: float | None = None) -> str:
        """As ``Client.health``."""
        return await self._unary(_health_call(service), timeout)

    async def wait_ready(self, timeout: float = 10.0) -> None:
        """Waits until the channel connects (or raises grpc.FutureTimeoutError, as ``Client.wait_ready``)."""
        try:
            await asyncio.wait_for(self._channel.channel_ready(), timeout)
        except asyncio.TimeoutError:
            raise grpc.FutureTimeoutError() from None


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
                    opponents: int, crash_value: float, rules: Rules | None) -> _Call[Split]:
    request = pb.PartitionRequest(
        rules=rules_to_proto(rules), cards=cards_to_proto(cards, "cards"), hands=hands,
        objective=number(OBJECTIVES, objective, "objective"), opponents=opponents, crash_value=crash_value)
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
                         crash_value: int) -> _Call[CrashResult]:
    request = pb.CrashShowdownRequest(
        rules=rules_to_proto(rules),
        players=[pb.CrashPlayer(
            id=p.id, hands=[cards_to_proto(h, f"player {p.id!r} hand") for h in p.hands],
            discards=cards_to_proto(p.discards, f"player {p.id!r} discards"),
            declare_six_pairs=p.declare_six_pairs) for p in players],
        weights=[] if scoring == "points" else list(scoring), crash_value=checked_crash_value(crash_value))
    if min_category is not None:
        request.min_category = _category_number(min_category)
    return _result_call("CrashShowdown", request, CrashResult)


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
                     next_deal: Mapping[str, Any] | None) -> _Call[TableState]:
    request = play_table_request(table, players, actions, action, cards, seed, dealer, stacks, view, carried,
                                 next_deal)
    return _Call(f"/{_PRIAL}/PlayTable", request.SerializeToString(),
                 lambda data: table_state_from(pb.PlayTableResponse.FromString(data)))


def _health_call(service: str) -> _Call[str]:
    return _Call(_HEALTH_CHECK, health_pb2.HealthCheckRequest(service=service).SerializeToString(), _status_name)


def _status_name(data: bytes) -> str:
    return health_pb2.HealthCheckResponse.ServingStatus.Name(health_pb2.HealthCheckResponse.FromString(data).status)


class _StreamRequests:
    """The request bytes of a stream's batches.  A batch that cannot be sent,
    or the caller's iterable raising, ends the requests there: the batches
    before it are answered, and then ``raise_failure`` raises its error to
    the caller (gRPC, which reads the requests, would only log it and end
    the call CANCELLED or UNKNOWN)."""

    def __init__(self, rules: Rules | None, describe: bool) -> None:
        self._rules = rules
        self._describe = describe
        self._failure: Exception | None = None

    def of(self, batches: Iterable[npt.NDArray[np.uint8] | Sequence[str]]) -> Iterator[bytes]:
        try:
            for batch in batches:
                yield evaluate_request_bytes(batch, self._rules, self._describe)
        except Exception as exc:  # noqa: BLE001 - raised to the caller by raise_failure
            self._failure = exc

    async def of_async(self, batches: AsyncIterable[npt.NDArray[np.uint8] | Sequence[str]]) -> AsyncIterator[bytes]:
        try:
            async for batch in batches:
                yield evaluate_request_bytes(batch, self._rules, self._describe)
        except Exception as exc:  # noqa: BLE001 - raised to the caller by raise_failure
            self._failure = exc

    def raise_failure(self) -> None:
        if self._failure is not None:
            raise self._failure


async def _async_iter(items: Iterable[T]) -> AsyncIterator[T]:
    for item in items:
        yield item


class _Turns:
    """Lets an AsyncClient stream's requests go out one at a time: a batch
    once the one before it is answered, the end of the stream once the last
    one is.

    The server ends a stream as soon as it refuses a batch, and grpc.aio
    (grpcio 1.85, grpc/grpc issue 36066) makes a write that fails because
    the call just ended the call's status, INTERNAL "Internal error from
    Core", in place of the status the server sent: the code, message and
    BadRequest of a refused batch are lost whenever a later batch is being
    written.  Paced, every write goes to a server waiting to read it (it
    reads a batch only after answering the one before), so no write is in
    flight when the server refuses a batch."""

    def __init__(self) -> None:
        self._turn = asyncio.Semaphore(1)
        self._ended = False

    async def paced(self, requests: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
        async for request in requests:
            await self._turn.acquire()
            if self._ended:
                return
            yield request
        await self._turn.acquire()  # closing the stream is a write too

    def answered(self) -> None:
        """The answer to the batch in flight has arrived."""
        self._turn.release()

    def end(self) -> None:
        """The call is over: the requests end without another write."""
        self._ended = True
        self._turn.release()


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
