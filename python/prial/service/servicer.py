"""The servicer of ``prial.v1.Prial`` (docs/rules.md names the rules, the
proto the messages): one thin method per RPC.

Adding an RPC: write one plain method on ``PrialService`` taking the decoded
request and a ``Call`` record (set ``call.hands``; pass ``call.cancel`` to
long native work) and returning the response; a streaming method's handler
also takes the batch's index and answers that one request.  Decorate it with
``@rpc``.  Waiting, admission, decoding, where the work runs, error
mapping, metrics and the per-call log line live in ``prial.service.calls``
alone: handlers raise ``InvalidHandError`` or, for a bad option,
``ConfigurationError`` (-> INVALID_ARGUMENT with a google.rpc.BadRequest
naming field and hand index) or ``ResourceExhausted``
(-> RESOURCE_EXHAUSTED) and never touch status codes themselves.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from concurrent import futures
from typing import Any

import numpy as np

from .._core import encode_evaluate_response, encode_showdown_response, field_census, parse_cards
from .._wire.classic import classic_from_proto
from .._wire.convert import (
    GAMES,
    OBJECTIVES,
    cards_from_proto,
    category_from_proto,
    choice,
    paytable_from_proto,
    result_to_proto,
    rules_from_proto,
)
from .._wire.crash_deal import crash_deal_from_request, crash_deal_to_proto
from .._wire.crash_match import crash_players_from_proto, crash_scoring_from_proto, match_rules_from_proto
from .._wire.partition_games import partition_game_from_proto
from .._wire.table import next_of, response_of, setup_to_proto, start_deal, submitted
from ..descriptions import describe_hands
from ..errors import ConfigurationError, IllegalActionError, InvalidHandError
from ..evaluator import FOUR_ORDERS, Evaluator, evaluator_for
from ..play.casino import settle_casino
from ..play.checks import seats
from ..play.classic import settle_classic
from ..play.crash import ROUND_CARDS, crash_showdown
from ..play.crash_match import CrashMatch as PlayedMatch
from ..play.odds import equity, odds
from ..play.partition_games import SixCardBrag, settle_partition_game
from ..play.results import CrashResult
from ..play.showdown import showdown_batch
from ..rules import Rules
from ..v1 import prial_pb2 as pb
from ..v1 import prial_pb2_grpc as pb_grpc
from .calls import Admission, Call, FailedPrecondition, ResourceExhausted, Runtime, rpc
from .observability import Observer
from .options import ServeOptions

# Descriptions cost a Python call per hand (with the GIL held): bounded so
# one request cannot starve the others for long.
DESCRIBE_LIMIT = 100_000
# Five cards in the widest text form ("10♥ " is 6 bytes) fit easily.
MAX_HAND_TEXT = 64
# Before decoding, text is measured in bytes: a character is at most 4 of
# UTF-8, so only text over the limit in characters is refused there.
MAX_HAND_TEXT_BYTES = 4 * MAX_HAND_TEXT
# Memory for parsing text hands, beyond what every request reserves: 1M
# hands of text (9.5 MiB) took 198 MiB to answer, 122 bytes a hand more.
TEXT_MEMORY_PER_HAND = 160
HANDS_FIELD = pb.EvaluateRequest.DESCRIPTOR.fields_by_name["hands"].number
PLAYERS_FIELD = {message.DESCRIPTOR.name: message.DESCRIPTOR.fields_by_name["players"].number
                 for message in (pb.ShowdownRequest, pb.CrashShowdownRequest, pb.SettlePartitionGameRequest)}
# The calls about one table or one hand: their requests are small, and a
# big one is refused before it is read (batches are bounded by the
# server's message size).
TABLE_METHODS = ("Partition", "Showdown", "CrashShowdown", "CrashMatch", "DealCrash", "SettleCasino",
                 "SettlePartitionGame", "SettleClassic", "Odds", "Equity")
TABLE_REQUEST_BYTES = 1 << 20
# PlayTable: a deal is replayed from its first action on every call, so its
# length is bounded, counted before anything is read; 10,000 actions naming
# players of ids up to about 300 bytes fit its request limit.
MAX_TABLE_ACTIONS = 10_000
PLAY_TABLE_REQUEST_BYTES = 4 << 20
TABLE_ACTION_FIELDS = tuple(pb.PlayTableRequest.DESCRIPTOR.fields_by_name[name].number
                            for name in ("actions", "action"))


class PrialService(pb_grpc.PrialServicer):
    def __init__(self, options: ServeOptions, observer: Observer) -> None:
        self.max_batch = options.max_batch
        self.max_stream_batches = options.max_stream_batches
        self.max_samples = options.max_samples
        self.threads = options.threads_per_call
        self.runtime = Runtime(
            pool=futures.ThreadPoolExecutor(max_workers=options.worker_threads(), thread_name_prefix="prial-work"),
            admission=Admission(options.calls_per_method(), options.max_bytes_in_flight),
            observer=observer,
            idle_seconds=options.idle_timeout_s,
            request_bytes={**{method: TABLE_REQUEST_BYTES for method in TABLE_METHODS},
                           "PlayTable": PLAY_TABLE_REQUEST_BYTES},
        )
        self._default = evaluator_for(Rules())

    def close(self) -> None:
        """Lets the pool's threads go once their work is done."""
        self.runtime.pool.shutdown(wait=False, cancel_futures=True)

    def _vet_hands(self, data: bytes, *index: int) -> None:
        """An EvaluateRequest's text hands, counted and measured undecoded."""
        count, row, length, _ = field_census(data, HANDS_FIELD, MAX_HAND_TEXT_BYTES)
        with _in_batch(*index, field="hands"):
            self._check_size(count)
            if row >= 0:
                raise InvalidHandError(f"hand {row}: {length} bytes of text; the text of a hand is at most "
                                       f"{MAX_HAND_TEXT} characters", row=row, field="hands")

    @rpc(default_field="cards", vet=_vet_hands)
    def Evaluate(self, request: pb.EvaluateRequest, call: Call) -> bytes:
        return self._evaluate(request, call)

    @rpc(default_field="cards", vet=_vet_hands)
    def EvaluateStream(self, request: pb.EvaluateRequest, call: Call, index: int) -> bytes:
        """Batch ``index`` of a stream: answered in order, one at a time."""
        if index == self.max_stream_batches:  # bounded like a batch
            raise ResourceExhausted(f"more than {self.max_stream_batches} batches in one stream; "
                                    f"this server takes at most {self.max_stream_batches}")
        with _in_batch(index, field="hands" if request.hands else "cards"):
            return self._evaluate(request, call, index)

    @rpc(default_field="cards")
    def Partition(self, request: pb.PartitionRequest, call: Call) -> pb.PartitionResponse:
        ev = self._evaluator(request)  # keeps its partitioners cached
        call.hands = 1
        split = ev.partition(
            cards_from_proto(request.cards),
            hands=request.hands if request.HasField("hands") else 4,
            objective=choice(OBJECTIVES, request.objective, "objective"),
            min_category=category_from_proto(request, "min_category"),
            opponents=request.opponents if request.HasField("opponents") else 3,
            crash_value=request.crash_value,
            four_order=request.four_order or FOUR_ORDERS[0],
        )
        return result_to_proto(split, pb.PartitionResponse)

    def _vet_players(self, data: bytes, cards_each: int, message: str) -> None:
        """No more players than one pack deals, counted undecoded."""
        seats(field_census(data, PLAYERS_FIELD[message], len(data))[0], cards_each)

    @rpc(default_field="players", vet=lambda self, data: self._vet_players(data, 3, "ShowdownRequest"))
    def Showdown(self, request: pb.ShowdownRequest, call: Call) -> bytes:
        # The hot small call: the request's players go to the native core as
        # they are, and it decides and encodes the ShowdownResponse
        # (cpp/service), sent as is (PRESERIALIZED).  Python objects in
        # between would cost more than the decision.
        call.hands = len(request.players)
        seats(len(request.players), 3)  # before the core reads a single player
        return encode_showdown_response(
            self._evaluator(request), request.players, request.seer if request.HasField("seer") else None,
            request.coverer if request.HasField("coverer") else None,
            request.cards_per_hand, request.pot, request.old_pot)

    @rpc(default_field="seer_cards")
    def ShowdownBatch(self, request: pb.ShowdownBatchRequest, call: Call) -> pb.ShowdownBatchResponse:
        width = request.hand_size or 3
        if width not in (3, 4, 5):
            raise InvalidHandError(f"hand_size must be 3, 4 or 5; got {width}", field="hand_size")
        seer = self._hand_bytes(request.seer_cards, width, "seer_cards")
        seen = self._hand_bytes(request.seen_cards, width, "seen_cards")
        if len(seer) != len(seen):
            raise InvalidHandError(f"seer_cards has {len(seer)} hands but seen_cards has {len(seen)}",
                                   field="seen_cards")
        call.hands = 2 * len(seer)
        # A bad row's error names the side its hand is on (seer_cards or seen_cards).
        wins = showdown_batch(seer, seen, rules=rules_from_proto(request.rules), threads=self.threads,
                              cancel=call.cancel)
        return pb.ShowdownBatchResponse(count=len(wins), seer_wins=wins.tobytes())

    @rpc(default_field="players", vet=lambda self, data: self._vet_players(data, ROUND_CARDS, "CrashShowdownRequest"))
    def CrashShowdown(self, request: pb.CrashShowdownRequest, call: Call) -> pb.CrashShowdownResponse:
        return result_to_proto(self._crash_round(request.players, crash_scoring_from_proto(request), call),
                               pb.CrashShowdownResponse)

    @rpc(default_field="rounds")
    def CrashMatch(self, request: pb.CrashMatchRequest, call: Call) -> pb.CrashMatchResponse:
        if request.scoring.players:
            raise InvalidHandError("scoring holds players; a match's players are given in rounds",
                                   field="scoring.players")
        match = PlayedMatch(match_rules_from_proto(request.match))
        scoring = crash_scoring_from_proto(request.scoring)
        for index, round_ in enumerate(request.rounds):
            try:
                result = self._crash_round(round_.players, scoring, call)
            except (InvalidHandError, ConfigurationError) as exc:
                _name_round(exc, index)
                raise
            try:
                match.add(result)
            except InvalidHandError as exc:
                exc.field = f"rounds[{index}].players"
                raise
        return result_to_proto(match.result(), pb.CrashMatchResponse)

    @rpc(default_field="seed")
    def DealCrash(self, request: pb.DealCrashRequest, call: Call) -> pb.DealCrashResponse:
        return crash_deal_to_proto(crash_deal_from_request(request))

    def _crash_round(self, players: Any, scoring: dict[str, Any], call: Call) -> CrashResult:
        """One Crash round of ``players`` (the request's CrashPlayer
        messages), its hands counted into the call."""
        seats(len(players), ROUND_CARDS)
        declared = crash_players_from_proto(players)
        call.hands += sum(len(p.hands) for p in declared)
        return crash_showdown(declared, **scoring)

    @rpc(default_field="player")
    def SettleCasino(self, request: pb.SettleCasinoRequest, call: Call) -> pb.SettleCasinoResponse:
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

    # Six cards a player is the fewest any of the games deals.
    @rpc(default_field="players",
         vet=lambda self, data: self._vet_players(data, SixCardBrag.cards, "SettlePartitionGameRequest"))
    def SettlePartitionGame(self, request: pb.SettlePartitionGameRequest,
                            call: Call) -> pb.SettlePartitionGameResponse:
        players, game, carry = partition_game_from_proto(request)
        call.hands = sum(len(p.hands) for p in players)
        return result_to_proto(settle_partition_game(players, game, carry=carry), pb.SettlePartitionGameResponse)

    @rpc(default_field="players")
    def SettleClassic(self, request: pb.SettleClassicRequest, call: Call) -> pb.SettleClassicResponse:
        players, rules, keywords = classic_from_proto(request)
        call.hands = len(players)
        return result_to_proto(settle_classic(players, rules, **keywords), pb.SettleClassicResponse)

    @rpc(default_field="cards")
    def Odds(self, request: pb.OddsRequest, call: Call) -> pb.OddsResponse:
        return result_to_proto(odds(rules_from_proto(request.rules), cards=request.cards or 3), pb.OddsResponse)

    @rpc(default_field="hand")
    def Equity(self, request: pb.EquityRequest, call: Call) -> pb.EquityResponse:
        samples = request.samples if request.HasField("samples") else None
        opponents = request.opponents or 1
        # The work is one opponent's hand per sample: bounded before it starts.
        if samples is not None and samples * opponents > self.max_samples:
            raise ResourceExhausted(f"{samples} samples x {opponents} opponents = {samples * opponents} opponent "
                                    f"hands to deal; this server deals at most {self.max_samples} per call")
        call.hands = 1
        result = equity(
            cards_from_proto(request.hand),
            opponents=opponents,
            dead=cards_from_proto(request.dead),
            rules=rules_from_proto(request.rules),
            samples=samples,
            seed=request.seed,
            cancel=call.cancel,
            with_percentile=request.with_percentile,
        )
        return result_to_proto(result, pb.EquityResponse)

    def _vet_actions(self, data: bytes) -> None:
        """A deal's actions, counted undecoded (the next one counts once,
        however often a request repeats its field)."""
        actions, action = (field_census(data, number, len(data))[0] for number in TABLE_ACTION_FIELDS)
        if actions + min(action, 1) > MAX_TABLE_ACTIONS:
            raise ResourceExhausted(f"a deal of {actions + min(action, 1)} actions; this server plays deals of at "
                                    f"most {MAX_TABLE_ACTIONS}")

    @rpc(default_field="", vet=_vet_actions)
    def PlayTable(self, request: pb.PlayTableRequest, call: Call) -> pb.PlayTableResponse:
        # Stateless: the deal is dealt again and every action replayed, so
        # that any replica answers any call of a deal.
        deal = start_deal(request)
        call.hands = len(request.players)
        for index, (field, (kind, player, amount, discards)) in enumerate(submitted(request)):
            try:
                deal = deal.act(kind, amount, discards, player=player)
            except IllegalActionError as exc:
                raise FailedPrecondition(str(exc), exc.code, {
                    "action_index": str(index), "player": (deal.to_act or "") if player is None else player,
                    "kind": kind}) from None
            except InvalidHandError as exc:
                exc.field, exc.row = field, None
                raise
        if request.HasField("next"):
            deal = next_of(deal, request)
            response = response_of(deal, None)
            response.next_deal.CopyFrom(setup_to_proto(deal, request.table))
            return response
        return response_of(deal, request.view if request.HasField("view") else None)

    # -- shared ----------------------------------------------------------------

    def _evaluator(self, request: Any) -> Evaluator:
        """The request's ruleset's evaluator; no rules given (the common
        case) costs no conversion."""
        return evaluator_for(rules_from_proto(request.rules)) if request.HasField("rules") else self._default

    def _evaluate(self, request: pb.EvaluateRequest, call: Call, batch_index: int = 0) -> bytes:
        """The serialized EvaluateResponse (the native core writes it)."""
        ev = self._evaluator(request)
        if request.cards and request.hands:
            raise InvalidHandError("give either cards or hands, not both", field="hands")
        hands = self._hands_from_text(request, call) if request.hands else self._hands_from_bytes(request)
        if request.describe and len(hands) > DESCRIBE_LIMIT:
            raise ResourceExhausted(f"descriptions for {len(hands)} hands; at most {DESCRIBE_LIMIT} per batch")
        call.hands += len(hands)
        try:
            response = encode_evaluate_response(ev, hands, batch_index=batch_index, threads=self.threads,
                                                cancel=call.cancel)
        except InvalidHandError as exc:
            exc.field = exc.field or ("hands" if request.hands else "cards")
            raise
        if request.describe:
            # Serialized messages concatenate: this appends the descriptions.
            response += pb.EvaluateResponse(descriptions=describe_hands(ev, hands)).SerializeToString()
        return response

    def _check_size(self, rows: int) -> None:
        if rows > self.max_batch:
            raise ResourceExhausted(f"{rows} hands in one batch; this server takes at most {self.max_batch}")

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

    def _hands_from_text(self, request: pb.EvaluateRequest, call: Call) -> np.ndarray:
        self._check_size(len(request.hands))
        # Each hand's text becomes Python objects on the way to the array.
        call.reserve(TEXT_MEMORY_PER_HAND * len(request.hands), f"{len(request.hands)} text hands")
        parsed = []
        for row, text in enumerate(request.hands):
            if len(text) > MAX_HAND_TEXT:
                raise InvalidHandError(f"hand {row}: {len(text)} characters; the text of a hand is at most "
                                       f"{MAX_HAND_TEXT} characters", row=row, field="hands")
            try:
                parsed.append(parse_cards(text))
            except InvalidHandError as exc:
                raise InvalidHandError(f"hand {row}: {exc}", row=row, field="hands") from None
        width = request.hand_size or len(parsed[0])
        if width not in (3, 4, 5):
            raise InvalidHandError(f"hand_size must be 3, 4 or 5; got {width}", field="hand_size")
        for row, cards in enumerate(parsed):
            if len(cards) != width:
                raise InvalidHandError(f"hand {row}: {len(cards)} cards, expected {width}", row=row, field="hands")
        return np.array(parsed, dtype=np.uint8).reshape(-1, width)


# What a round of a match is scored by rather than the round's own players.
_SCORING_FIELDS = frozenset(pb.CrashShowdownRequest.DESCRIPTOR.fields_by_name) - {"players"}


def _name_round(exc: InvalidHandError | ConfigurationError, index: int) -> None:
    """A match's round ``index`` failed: its error names the round, and the
    field at fault, in scoring or in the round's players."""
    if exc.field in _SCORING_FIELDS:
        exc.field = f"scoring.{exc.field}"
        return
    exc.field = f"rounds[{index}].{exc.field or 'players'}"
    exc.args = (f"round {index + 1}: {exc}",)


@contextlib.contextmanager
def _in_batch(*index: int, field: str) -> Iterator[None]:
    """Errors of batch ``index`` of a stream name it (nothing for a unary call)."""
    if not index:
        yield
        return
    try:
        yield
    except (InvalidHandError, ConfigurationError) as exc:
        exc.field = f"batch[{index[0]}].{exc.field or field}"
        raise
    except ResourceExhausted as exc:
        raise ResourceExhausted(f"batch {index[0]}: {exc}") from None
