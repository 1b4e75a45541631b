"""The gRPC service ``prial.v1.Prial`` (SPEC §7) and one server process.

Adding an RPC: write one method on ``PrialService`` taking the request (or
request iterator), the context and a ``Call`` record (set ``call.hands``),
returning the response (or yielding responses), and decorate it with
``@rpc``.  Error mapping, metrics and the per-call log line live in ``rpc``
alone: handlers raise ``InvalidHandError`` (-> INVALID_ARGUMENT with a
google.rpc.BadRequest naming field and hand index) or ``BatchTooLarge``
(-> RESOURCE_EXHAUSTED) and never touch status codes themselves.
"""

from __future__ import annotations

import collections
import ctypes
import functools
import hmac
import inspect
import itertools
import json
import logging
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from concurrent import futures
from dataclasses import dataclass
from typing import Any, NoReturn

import grpc
import numpy as np
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from grpc_status import rpc_status

from . import _core
from ._errors import InvalidHandError
from ._evaluator import Evaluator
from ._prefork import ServeOptions, configure_logging, write_port_file
from ._rules import Rules
from ._casino import settle_casino
from ._crash import CrashPlayer, crash_showdown
from ._odds import equity, odds
from ._showdown import showdown_batch
from ._wire import (
    GAMES,
    OBJECTIVES,
    choice,
    cards_from_proto,
    category_from_proto,
    paytable_from_proto,
    result_to_proto,
    rules_from_proto,
)
from .v1 import prial_pb2 as pb
from .v1 import prial_pb2_grpc as pb_grpc

log = logging.getLogger("prial.server")

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Prial"].full_name  # "prial.v1.Prial"
HEALTH_SERVICE_NAME = health_pb2.DESCRIPTOR.services_by_name["Health"].full_name


# Descriptions cost a Python call per hand (with the GIL held): bounded so
# one request cannot starve the others for long.
DESCRIBE_LIMIT = 100_000


class BatchTooLarge(Exception):
    """A request over the server's --max-batch: RESOURCE_EXHAUSTED."""


# ---------------------------------------------------------------------------
# Rulesets: tables and per-strength categories, cached per Rules.


@dataclass(frozen=True)
class Ruleset:
    evaluator: Evaluator
    categories: np.ndarray  # uint8, indexed by strength: the Category code


@functools.lru_cache(maxsize=32)  # bounded: callers choose the rules
def ruleset(rules: Rules) -> Ruleset:
    ev = Evaluator(rules)
    # Every strength class with the category of one hand of it: all hands of
    # the pack (C(55,3) = 26,235 at most), one representative per class.
    hands = np.array(list(itertools.combinations(range(ev.pack_size), 3)), dtype=np.uint8)
    strengths = ev.evaluate_batch(hands)
    classes, first = np.unique(strengths, return_index=True)
    categories = np.zeros(int(classes.max()) + 1, dtype=np.uint8)
    for strength, row in zip(classes.tolist(), first.tolist()):
        categories[strength] = int(ev.evaluate(hands[row].tolist()).category)
    return Ruleset(ev, categories)


# ---------------------------------------------------------------------------
# Observability: Prometheus metrics and the per-call log line.


class Metrics:
    """Per-process metrics; in multi-process mode prometheus_client writes
    them to files that the supervisor serves summed."""

    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Histogram

        self.registry = CollectorRegistry()
        self.requests = Counter(
            "prial_requests", "Calls finished, by method and status code (errors: code != OK)",
            ["method", "code"], registry=self.registry)
        self.hands = Counter(
            "prial_hands", "Hands ranked, by method", ["method"], registry=self.registry)
        self.latency = Histogram(
            "prial_request_seconds", "Call duration, by method", ["method"], registry=self.registry,
            buckets=(0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30))

    def serve(self, host: str, port: int) -> None:
        from prometheus_client import start_http_server

        start_http_server(port, addr=host, registry=self.registry)


@dataclass
class Call:
    """What the shared wrapper records about one call; handlers set ``hands``."""

    method: str
    start: float
    hands: int = 0
    code: grpc.StatusCode = grpc.StatusCode.OK


class CallLog:
    """The per-call log lines, written off the request path.

    A call appends one small tuple (an atomic deque append: no lock, no
    formatting); a background thread turns what has gathered into lines
    every ``every_seconds`` and emits them as one record of the
    ``prial.server`` logger, one JSON object per line.  Formatting a log
    record per call on the request path cost a small Showdown about a fifth
    of its throughput under load (GIL time shared with every other call).
    Never card contents: method, code, duration, batch size.
    """

    # The values are identifiers and numbers, so formatting the JSON by hand
    # is safe (and far cheaper than json.dumps).
    LINE = '{"event": "rpc", "method": "%s", "code": "%s", "ms": %.3f, "hands": %d, "pid": %d}'

    def __init__(self, every_seconds: float = 0.1) -> None:
        self._pending: collections.deque[tuple[str, str, float, int, int]] = collections.deque()
        self._pid = os.getpid()
        self._every = every_seconds
        self._stop = threading.Event()
        self._writer = threading.Thread(target=self._run, name="prial-call-log", daemon=True)
        self._writer.start()

    def record(self, method: str, code: str, seconds: float, hands: int) -> None:
        self._pending.append((method, code, seconds * 1000, hands, self._pid))

    def flush(self) -> None:
        pending = self._pending
        lines = [self.LINE % pending.popleft() for _ in range(len(pending))]
        if lines:
            log.info("\n".join(lines))

    def close(self) -> None:
        """Stops the writer after writing every line recorded so far."""
        self._stop.set()
        self._writer.join()
        self.flush()

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            self.flush()


class Observer:
    """Records a finished call: metrics and one structured log line."""

    def __init__(self, metrics: Metrics, log_calls: bool) -> None:
        self.metrics = metrics
        self.call_log = CallLog() if log_calls and log.isEnabledFor(logging.INFO) else None
        # The labelled metrics of each (method, code), looked up once.
        self._children: dict[tuple[str, str], tuple[Any, Any, Any]] = {}
        self.calls_finished = 0

    def _labelled(self, method: str, code: str) -> tuple[Any, Any, Any]:
        children = (self.metrics.requests.labels(method, code), self.metrics.latency.labels(method),
                    self.metrics.hands.labels(method))
        self._children[method, code] = children
        return children

    def finish(self, call: Call) -> None:
        self.calls_finished += 1  # under the GIL; only watched for change
        seconds = time.perf_counter() - call.start
        code = call.code.name
        requests, latency, hands = self._children.get((call.method, code)) or self._labelled(call.method, code)
        requests.inc()
        latency.observe(seconds)
        if call.hands:
            hands.inc(call.hands)
        if self.call_log is not None:
            self.call_log.record(call.method, code, seconds, call.hands)

    def close(self) -> None:
        if self.call_log is not None:
            self.call_log.close()


# ---------------------------------------------------------------------------
# The one place where exceptions become gRPC statuses.


# The status travels in trailing metadata (16 KiB at most by default, the
# message twice: as is and in the BadRequest), so a message quoting a huge
# value from the request (a 200 kB player id) keeps its head and its tail,
# where the problem is named; uncut, the client got only "metadata size
# exceeds hard limit" instead of what was wrong.
MESSAGE_LIMIT = 2000


def _bounded(message: str) -> str:
    if len(message) <= MESSAGE_LIMIT:
        return message
    half = MESSAGE_LIMIT // 2
    return f"{message[:half]} [... {len(message) - 2 * half} characters cut ...] {message[-half:]}"


def _abort_invalid(context: grpc.ServicerContext, exc: InvalidHandError, default_field: str) -> NoReturn:
    field = _bounded(exc.field or default_field)
    if exc.row is not None:
        field = f"{field}[{exc.row}]"
    message = _bounded(str(exc))
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.BadRequest(
        field_violations=[error_details_pb2.BadRequest.FieldViolation(field=field, description=message)]))
    status = status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=message, details=[detail])
    context.abort_with_status(rpc_status.to_status(status))


def _abort_for(context: grpc.ServicerContext, call: Call, exc: Exception, default_field: str) -> NoReturn:
    """Sets ``call.code`` and aborts the call (raises)."""
    if isinstance(exc, InvalidHandError):
        call.code = grpc.StatusCode.INVALID_ARGUMENT
        _abort_invalid(context, exc, default_field)
    if isinstance(exc, BatchTooLarge):
        call.code = grpc.StatusCode.RESOURCE_EXHAUSTED
        context.abort(call.code, str(exc))
    # A bug, not the caller's fault: keep serving, say little.  The log gets
    # the exception's type and traceback, not its message: that can quote
    # the request (pybind11's "Invoked with: ..." repeats the cards), and
    # card contents never go to the log.
    log.error("internal error in %s: %s\n%s", call.method, type(exc).__name__,
              "".join(traceback.format_tb(exc.__traceback__)).rstrip())
    call.code = grpc.StatusCode.INTERNAL
    context.abort(call.code, f"internal error in {call.method}")


def rpc(default_field: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Wraps one handler: error mapping, metrics, the log line.

    ``default_field`` names the request field an InvalidHandError without
    its own ``field`` is reported against (e.g. "cards").  Works for unary
    handlers (returning a response) and streaming ones (generators).
    """

    def wrap(handler: Callable[..., Any]) -> Callable[..., Any]:
        method = handler.__name__

        if inspect.isgeneratorfunction(handler):
            @functools.wraps(handler)
            def streaming(self: PrialService, request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                call = Call(method, time.perf_counter())
                try:
                    yield from handler(self, request, context, call)
                    if not context.is_active():  # the client cancelled: its requests just ended
                        call.code = grpc.StatusCode.CANCELLED
                except GeneratorExit:  # the client went away mid-stream
                    call.code = grpc.StatusCode.CANCELLED
                    raise
                except Exception as exc:  # noqa: BLE001 - every error becomes a status
                    if not context.is_active():
                        call.code = grpc.StatusCode.CANCELLED
                        return
                    _abort_for(context, call, exc, default_field)
                finally:
                    self.observer.finish(call)

            return streaming

        @functools.wraps(handler)
        def unary(self: PrialService, request: Any, context: grpc.ServicerContext) -> Any:
            call = Call(method, time.perf_counter())
            try:
                response = handler(self, request, context, call)
                if not context.is_active():  # cancelled (or past its deadline) while running
                    call.code = grpc.StatusCode.CANCELLED
                return response
            except Exception as exc:  # noqa: BLE001 - every error becomes a status
                _abort_for(context, call, exc, default_field)
            finally:
                self.observer.finish(call)

        return unary

    return wrap


# ---------------------------------------------------------------------------
# The service: one method per RPC.


class PrialService(pb_grpc.PrialServicer):
    def __init__(self, options: ServeOptions, observer: Observer) -> None:
        self.max_batch = options.max_batch
        self.max_stream_batches = options.max_stream_batches
        self.max_samples = 10 * options.max_batch  # Monte Carlo deals per Equity call
        self.threads = options.threads_per_call
        self.observer = observer
        self._default = ruleset(Rules())

    @rpc(default_field="cards")
    def Evaluate(self, request: pb.EvaluateRequest, context: grpc.ServicerContext, call: Call) -> pb.EvaluateResponse:
        return self._evaluate(request, call)

    @rpc(default_field="cards")
    def EvaluateStream(self, requests: Iterator[pb.EvaluateRequest], context: grpc.ServicerContext,
                       call: Call) -> Iterator[pb.EvaluateResponse]:
        # One request read, answered, then the next: in order, and the
        # transport's flow control holds back a client that sends faster.
        for index, request in enumerate(requests):
            if index == self.max_stream_batches:  # a stream holds a worker: bounded like a batch
                raise BatchTooLarge(f"more than {self.max_stream_batches} batches in one stream; "
                                    f"this server takes at most {self.max_stream_batches}")
            try:
                response = self._evaluate(request, call)
            except InvalidHandError as exc:
                exc.field = f"batch[{index}].{exc.field or ('hands' if request.hands else 'cards')}"
                raise
            except BatchTooLarge as exc:
                raise BatchTooLarge(f"batch {index}: {exc}") from None
            response.batch_index = index
            yield response

    @rpc(default_field="cards")
    def Partition(self, request: pb.PartitionRequest, context: grpc.ServicerContext, call: Call) -> pb.PartitionResponse:
        ev = self._evaluator(request)  # keeps its partitioners cached
        call.hands = 1
        split = ev.partition(
            cards_from_proto(request.cards),
            hands=request.hands if request.HasField("hands") else 4,
            objective=choice(OBJECTIVES, request.objective, "objective"),
            min_category=category_from_proto(request, "min_category"),
            opponents=request.opponents if request.HasField("opponents") else 3,
        )
        return result_to_proto(split, pb.PartitionResponse)

    @rpc(default_field="players")
    def Showdown(self, request: pb.ShowdownRequest, context: grpc.ServicerContext, call: Call) -> bytes:
        # The hot small call: the request's players go to the native core as
        # they are, and it decides and encodes the ShowdownResponse
        # (cpp/service/prial/service/showdown_response.hpp), sent as is
        # (PRESERIALIZED).  Python objects in between would cost more than
        # the decision.
        call.hands = len(request.players)
        return _core.encode_showdown_response(
            self._evaluator(request), request.players, request.seer if request.HasField("seer") else None,
            request.coverer if request.HasField("coverer") else None,
            request.cards_per_hand, request.pot, request.old_pot)

    @rpc(default_field="seer_cards")
    def ShowdownBatch(self, request: pb.ShowdownBatchRequest, context: grpc.ServicerContext,
                      call: Call) -> pb.ShowdownBatchResponse:
        width = request.hand_size or 3
        if width not in (3, 4, 5):
            raise InvalidHandError(f"hand_size must be 3, 4 or 5; got {width}", field="hand_size")
        seer = self._hand_bytes(request.seer_cards, width, "seer_cards")
        seen = self._hand_bytes(request.seen_cards, width, "seen_cards")
        if len(seer) != len(seen):
            raise InvalidHandError(f"seer_cards has {len(seer)} hands but seen_cards has {len(seen)}",
                                   field="seen_cards")
        call.hands = 2 * len(seer)
        # A bad row's error names whose hand it is in (field seer_cards or seen_cards).
        wins = showdown_batch(seer, seen, rules=rules_from_proto(request.rules), threads=self.threads)
        return pb.ShowdownBatchResponse(count=len(wins), seer_wins=wins.tobytes())

    @rpc(default_field="players")
    def CrashShowdown(self, request: pb.CrashShowdownRequest, context: grpc.ServicerContext,
                      call: Call) -> pb.CrashShowdownResponse:
        players = [CrashPlayer(p.id, [cards_from_proto(h) for h in p.hands], cards_from_proto(p.discards),
                               p.declare_six_pairs) for p in request.players]
        call.hands = sum(len(p.hands) for p in players)
        result = crash_showdown(
            players,
            scoring=list(request.weights) or "points",
            min_category=category_from_proto(request, "min_category"),
            rules=rules_from_proto(request.rules),
        )
        return result_to_proto(result, pb.CrashShowdownResponse)

    @rpc(default_field="player")
    def SettleCasino(self, request: pb.SettleCasinoRequest, context: grpc.ServicerContext,
                     call: Call) -> pb.SettleCasinoResponse:
        call.hands = 2
        result = settle_casino(
            cards_from_proto(request.player),
            cards_from_proto(request.dealer),
            request.ante,
            request.play if request.HasField("play") else None,
            request.pair_bonus,
            paytable=paytable_from_proto(request),
            game=choice(GAMES, request.game, "game"),
        )
        return result_to_proto(result, pb.SettleCasinoResponse)

    @rpc(default_field="cards")
    def Odds(self, request: pb.OddsRequest, context: grpc.ServicerContext, call: Call) -> pb.OddsResponse:
        return result_to_proto(odds(rules_from_proto(request.rules), cards=request.cards or 3), pb.OddsResponse)

    @rpc(default_field="hand")
    def Equity(self, request: pb.EquityRequest, context: grpc.ServicerContext, call: Call) -> pb.EquityResponse:
        samples = request.samples if request.HasField("samples") else None
        if samples is not None and samples > self.max_samples:
            raise BatchTooLarge(f"{samples} samples; this server takes at most {self.max_samples}")
        call.hands = 1
        result = equity(
            cards_from_proto(request.hand),
            opponents=request.opponents or 1,
            dead=cards_from_proto(request.dead),
            rules=rules_from_proto(request.rules),
            samples=samples,
            seed=request.seed,
        )
        return result_to_proto(result, pb.EquityResponse)

    # -- shared ----------------------------------------------------------------

    def _ruleset(self, request: Any) -> Ruleset:
        """The request's ruleset; no rules given (the common case) costs no
        conversion."""
        return ruleset(rules_from_proto(request.rules)) if request.HasField("rules") else self._default

    def _evaluator(self, request: Any) -> Evaluator:
        return self._ruleset(request).evaluator

    def _evaluate(self, request: pb.EvaluateRequest, call: Call) -> pb.EvaluateResponse:
        current = self._ruleset(request)
        if request.cards and request.hands:
            raise InvalidHandError("give either cards or hands, not both", field="hands")
        hands = self._hands_from_text(request) if request.hands else self._hands_from_bytes(request)
        call.hands += len(hands)
        ev = current.evaluator
        width = hands.shape[1]
        response = pb.EvaluateResponse(count=len(hands))
        field = "hands" if request.hands else "cards"
        try:
            if width == 3:
                strengths = ev.evaluate_batch(hands, threads=self.threads)
            else:
                keys = ev.best_of_batch(hands, threads=self.threads)
                strengths = (keys >> 8).astype(np.uint16)  # key layout: strength in bits 8..23
                response.keys = keys.astype("<u4", copy=False).tobytes()
        except InvalidHandError as exc:
            exc.field = exc.field or field
            raise
        response.strengths = strengths.astype("<u2", copy=False).tobytes()
        # Every strength indexes the table (it spans the ruleset's classes);
        # "clip" only skips numpy's bounds checks.
        response.categories = np.take(current.categories, strengths, mode="clip").tobytes()
        if request.describe:
            if len(hands) > DESCRIBE_LIMIT:
                raise BatchTooLarge(f"descriptions for {len(hands)} hands; at most {DESCRIBE_LIMIT} per batch")
            response.descriptions.extend(_describe(ev, hands))
        return response

    def _check_size(self, rows: int) -> None:
        if rows > self.max_batch:
            raise BatchTooLarge(f"{rows} hands in one batch; this server takes at most {self.max_batch}")

    def _hands_from_bytes(self, request: pb.EvaluateRequest) -> np.ndarray:
        width = request.hand_size or 3
        if width not in (3, 4, 5):
            raise InvalidHandError(f"hand_size must be 3, 4 or 5; got {width}", field="hand_size")
        return self._hand_bytes(request.cards, width, "cards")

    def _hand_bytes(self, cards: bytes, width: int, field: str) -> np.ndarray:
        """Hands of ``width`` card bytes each, checked against the batch limit."""
        if len(cards) % width:
            raise InvalidHandError(f"{field} has {len(cards)} bytes, not a multiple of {width}", field=field)
        self._check_size(len(cards) // width)
        # A read-only view of the request's bytes: no copy.
        return np.frombuffer(cards, dtype=np.uint8).reshape(-1, width)

    def _hands_from_text(self, request: pb.EvaluateRequest) -> np.ndarray:
        self._check_size(len(request.hands))
        parsed = []
        for row, text in enumerate(request.hands):
            try:
                parsed.append(_core.parse_cards(text))
            except InvalidHandError as exc:
                raise InvalidHandError(f"hand {row}: {exc}", row=row, field="hands") from None
        width = request.hand_size or len(parsed[0])
        if width not in (3, 4, 5):
            raise InvalidHandError(f"hand_size must be 3, 4 or 5; got {width}", field="hand_size")
        for row, cards in enumerate(parsed):
            if len(cards) != width:
                raise InvalidHandError(f"hand {row}: {len(cards)} cards, expected {width}", row=row, field="hands")
        return np.array(parsed, dtype=np.uint8).reshape(-1, width)


def _describe(ev: Evaluator, hands: np.ndarray) -> list[str]:
    if hands.shape[1] == 3:
        return [ev.evaluate(row).description for row in hands.tolist()]
    return [ev.best_of(row).description for row in hands.tolist()]


# The method-handler maker for (request streaming, response streaming).
HANDLER_KINDS = {
    (False, False): grpc.unary_unary_rpc_method_handler,
    (False, True): grpc.unary_stream_rpc_method_handler,
    (True, False): grpc.stream_unary_rpc_method_handler,
    (True, True): grpc.stream_stream_rpc_method_handler,
}


# ---------------------------------------------------------------------------
# Bearer-token authentication.


class BearerTokenAuth(grpc.ServerInterceptor):
    """Rejects calls without ``authorization: Bearer <token>`` (one of the
    tokens in the file, one a line) with UNAUTHENTICATED.  Health checks are
    exempt so load balancers can probe without a secret."""

    def __init__(self, tokens: list[str], observer: Observer) -> None:
        self._accepted = [f"Bearer {t}".encode() for t in tokens]
        self._observer = observer

    def _authorized(self, metadata: tuple[tuple[str, str | bytes], ...]) -> bool:
        for key, value in metadata:
            if key == "authorization":
                given = value.encode() if isinstance(value, str) else value
                # compare_digest against every token: no early exit leaks which matched.
                return any([hmac.compare_digest(given, t) for t in self._accepted])
        return False

    def intercept_service(self, continuation: Callable[..., Any], details: grpc.HandlerCallDetails) -> Any:
        handler = continuation(details)
        if handler is None or details.method.startswith(f"/{HEALTH_SERVICE_NAME}/"):
            return handler
        if self._authorized(details.invocation_metadata or ()):
            return handler
        method = details.method.rsplit("/", 1)[-1]

        def deny(_request: Any, context: grpc.ServicerContext) -> None:
            self._observer.finish(Call(method, time.perf_counter(), code=grpc.StatusCode.UNAUTHENTICATED))
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "missing or invalid bearer token")

        make = HANDLER_KINDS[handler.request_streaming, handler.response_streaming]
        return make(deny, request_deserializer=handler.request_deserializer,
                    response_serializer=handler.response_serializer)


def read_tokens(path: str) -> list[str]:
    with open(path) as f:
        tokens = [line.strip() for line in f if line.strip() and not line.lstrip().startswith("#")]
    if not tokens:
        raise InvalidHandError(f"--auth-token-file {path} holds no token")
    return tokens


# ---------------------------------------------------------------------------
# One server process.


def channel_options(options: ServeOptions) -> list[tuple[str, int]]:
    ms = lambda seconds: int(seconds * 1000)  # noqa: E731
    opts = [
        ("grpc.max_receive_message_length", options.max_message_bytes),
        ("grpc.max_send_message_length", options.max_message_bytes),
        # Several processes share the port only when asked; otherwise a second
        # server on a busy port fails instead of silently splitting traffic.
        ("grpc.so_reuseport", 1 if options.processes > 1 else 0),
        ("grpc.keepalive_time_ms", ms(options.keepalive_time_s)),
        ("grpc.keepalive_timeout_ms", ms(options.keepalive_timeout_s)),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_ping_interval_without_data_ms", 5000),
    ]
    if options.max_connection_idle_s is not None:
        opts.append(("grpc.max_connection_idle_ms", ms(options.max_connection_idle_s)))
    if options.max_connection_age_s is not None:
        opts.append(("grpc.max_connection_age_ms", ms(options.max_connection_age_s)))
    if options.max_connection_age_grace_s is not None:
        opts.append(("grpc.max_connection_age_grace_ms", ms(options.max_connection_age_grace_s)))
    return opts


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def server_credentials(options: ServeOptions) -> grpc.ServerCredentials | None:
    if not (options.tls_cert or options.tls_key):
        if options.tls_client_ca:
            raise InvalidHandError("--tls-client-ca needs --tls-cert and --tls-key")
        return None
    if not (options.tls_cert and options.tls_key):
        raise InvalidHandError("--tls-cert and --tls-key go together")
    client_ca = _read(options.tls_client_ca) if options.tls_client_ca else None
    return grpc.ssl_server_credentials(
        [(_read(options.tls_key), _read(options.tls_cert))],
        root_certificates=client_ca,
        require_client_auth=client_ca is not None,
    )


# Methods whose handler returns the response already serialized (by the
# native core): the runtime sends the bytes as they are.
PRESERIALIZED = frozenset({"Showdown"})


def add_service(service: PrialService, server: grpc.Server) -> None:
    """Registers every method of prial.v1.Prial, as the generated
    add_PrialServicer_to_server does, read from the service descriptor, but
    with no response serializer for the PRESERIALIZED methods."""
    handlers = {}
    for method in pb.DESCRIPTOR.services_by_name["Prial"].methods:
        request_type = getattr(pb, method.input_type.name)
        response_type = getattr(pb, method.output_type.name)
        handlers[method.name] = HANDLER_KINDS[method.client_streaming, method.server_streaming](
            getattr(service, method.name),
            request_deserializer=request_type.FromString,
            response_serializer=None if method.name in PRESERIALIZED else response_type.SerializeToString)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),))
    server.add_registered_method_handlers(SERVICE_NAME, handlers)


def build_server(options: ServeOptions) -> tuple[grpc.Server, int, health.HealthServicer, Observer]:
    """A started-ready (not yet started) server: service, health, reflection."""
    metrics = Metrics()
    observer = Observer(metrics, options.log_calls)
    interceptors = []
    if options.auth_token_file:
        interceptors.append(BearerTokenAuth(read_tokens(options.auth_token_file), observer))
    workers = options.worker_threads()
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="prial-rpc"),
        interceptors=interceptors,
        options=channel_options(options),
        # Beyond this many calls in flight new calls get RESOURCE_EXHAUSTED
        # instead of queueing without bound behind busy workers.
        maximum_concurrent_rpcs=options.max_concurrent_rpcs or max(100, 4 * workers),
    )
    add_service(PrialService(options, observer), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, HEALTH_SERVICE_NAME, reflection.SERVICE_NAME), server)
    for name in ("", SERVICE_NAME):
        health_servicer.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
    address = f"{options.host}:{options.port}"
    credentials = server_credentials(options)
    if credentials is None:
        port = server.add_insecure_port(address)
    else:
        port = server.add_secure_port(address, credentials)
    if port == 0:
        raise OSError(f"cannot listen on {address}")
    return server, port, health_servicer, observer


def keep_the_heap_compact(stop: threading.Event, calls_finished: Callable[[], int],
                          every_seconds: float = 1.0, under_load_seconds: float = 30.0) -> None:
    """Keeps the server's RSS flat over time (glibc only).

    Batch buffers of a few MB come from glibc's heap arenas, which do not
    shrink by themselves: in a 5-minute soak (tools/soak.py) RSS grew 37%
    after warm-up.  malloc_trim(0), from a background thread (ctypes
    releases the GIL around it), gives the arenas' free pages back: every
    ``every_seconds`` while the server is idle (no call finished since the
    last look), every ``under_load_seconds`` while calls keep coming.
    Trimming every second under load, or capping the arenas at two, cost
    the big batches: their buffers' pages faulted in again on most calls
    (1M-hand Evaluate at 52-60M hands/s in most runs against 84-91M/s
    without; forcing every large buffer through mmap halved it).
    """
    try:
        malloc_trim = ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return
    schedule = TrimSchedule(calls_finished(), time.monotonic(), under_load_seconds)

    def trim() -> None:
        while not stop.wait(every_seconds):
            if schedule.due(calls_finished(), time.monotonic()):
                malloc_trim(0)

    threading.Thread(target=trim, name="prial-malloc-trim", daemon=True).start()


class TrimSchedule:
    """Due at each look while no call has finished since the last one
    (idle), and at most every ``under_load_seconds`` otherwise."""

    def __init__(self, calls: int, now: float, under_load_seconds: float) -> None:
        self._calls, self._last_trim, self._under_load = calls, now, under_load_seconds

    def due(self, calls: int, now: float) -> bool:
        idle, self._calls = calls == self._calls, calls
        if idle or now - self._last_trim >= self._under_load:
            self._last_trim = now
            return True
        return False


def serve_process(options: ServeOptions, *, ready_fd: int | None = None, process_index: int = 0) -> int:
    """Runs one server until SIGTERM/SIGINT, then shuts down gracefully.

    Shutdown: health turns NOT_SERVING, calls are still taken for
    ``drain_seconds`` (so balancers see the change), then new calls are
    refused and calls in flight get ``grace_seconds`` to finish.  Exit 0.
    """
    configure_logging()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())

    server, port, health_servicer, observer = build_server(options)
    keep_the_heap_compact(stop, lambda: observer.calls_finished)
    # Warm the default tables (three, four and five cards) before SERVING.
    default = ruleset(Rules()).evaluator
    for width in (4, 5):
        default.best_of_batch(np.arange(width, dtype=np.uint8).reshape(1, width))
    server.start()
    for name in ("", SERVICE_NAME):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    if options.metrics_port is not None and options.processes <= 1:
        observer.metrics.serve(options.host, options.metrics_port)
    log.info(json.dumps({"event": "serving", "host": options.host, "port": port, "pid": os.getpid(),
                         "process": process_index, "tls": bool(options.tls_cert),
                         "auth": bool(options.auth_token_file)}))
    if ready_fd is not None:
        os.write(ready_fd, b"1")
        os.close(ready_fd)
    elif options.port_file:
        write_port_file(options.port_file, port)

    while not stop.wait(0.5):
        pass
    log.info(json.dumps({"event": "stopping", "pid": os.getpid(), "grace_s": options.grace_seconds}))
    health_servicer.enter_graceful_shutdown()
    if options.drain_seconds > 0:
        time.sleep(options.drain_seconds)
    server.stop(options.grace_seconds).wait()
    observer.close()  # the last calls' log lines
    log.info(json.dumps({"event": "stopped", "pid": os.getpid()}))
    # Done: a repeated signal must not kill the exit (at interpreter
    # shutdown Python's own handlers are gone and SIGTERM would be fatal).
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return 0
