"""Client: a connection whose calls block."""

from __future__ import annotations

import queue
from collections.abc import (
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from typing import Any

import grpc
import grpc.aio
import numpy as np
import numpy.typing as npt

from .._wire.table import ActionLike, TableState
from ..cards import CardsLike
from ..categories import Category
from ..evaluator import FOUR_ORDERS
from ..play.casino import CASINO_BRAG_PAYTABLE, Paytable
from ..play.classic import ClassicPlayer, ClassicResult, ClassicRules
from ..play.crash import CrashPlayer
from ..play.crash_deal import CRASH_CARDS, CrashDeal
from ..play.crash_match import CrashMatchResult, CrashMatchRules
from ..play.crash_rules import CRASH_OPTIONS
from ..play.partition_games import PartitionGame
from ..play.results import CasinoResult, CrashResult, Equity, Odds, PartitionGameResult, ShowdownResult
from ..play.showdown import Player
from ..results import Split
from ..rules import Rules
from ..table import TableRules
from .calls import (
    _PROBE_SECONDS,
    Evaluation,
    T,
    _Call,
    _crash_match_call,
    _crash_showdown_call,
    _deal_crash_call,
    _equity_call,
    _evaluate_call,
    _health_call,
    _odds_call,
    _partition_call,
    _play_table_call,
    _settle_casino_call,
    _settle_classic_call,
    _settle_partition_game_call,
    _showdown_batch_call,
    _showdown_call,
    evaluation_from,
)
from .connection import _Connection
from .errors import PrialRpcError
from .streams import _StreamRequests


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
                  rules: Rules | None = None, four_order: str = FOUR_ORDERS[0],
                  timeout: float | None = None) -> Split:
        """``Evaluator(rules).partition(...)`` on the server."""
        return self._unary(
            _partition_call(cards, hands, objective, min_category, opponents, crash_value, four_order, rules), timeout)

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
                       crash_value: int = 0, four_order: str = FOUR_ORDERS[0],
                       ties: str = CRASH_OPTIONS["ties"][0], four_bonus: str = CRASH_OPTIONS["four_bonus"][0],
                       below_min: str = CRASH_OPTIONS["below_min"][0], timeout: float | None = None) -> CrashResult:
        """``prial.crash_showdown(...)`` on the server."""
        return self._unary(
            _crash_showdown_call(players, scoring, min_category, rules, crash_value, four_order,
                                 {"ties": ties, "four_bonus": four_bonus, "below_min": below_min}), timeout)

    def crash_match(self, rounds: Sequence[Sequence[CrashPlayer]], match: CrashMatchRules | None = None, *,
                    timeout: float | None = None, **showdown: Any) -> CrashMatchResult:
        """``prial.crash_match(...)`` on the server: ``showdown`` are
        crash_showdown's options, as there."""
        return self._unary(_crash_match_call(rounds, match, showdown), timeout)

    def deal_crash(self, seed: int, players: int = 4, *, cards: int = CRASH_CARDS, spare: bool = False,
                   exchanges: Sequence[int] = (), timeout: float | None = None) -> CrashDeal:
        """``prial.deal_crash(...)`` on the server."""
        return self._unary(_deal_crash_call(seed, players, cards, spare, exchanges), timeout)

    def settle_casino(self, player: CardsLike, dealer: CardsLike, ante: int, play: int | None = None,
                      pair_bonus: int = 0, *, paytable: Paytable | str = CASINO_BRAG_PAYTABLE, game: str | None = None,
                      timeout: float | None = None) -> CasinoResult:
        """``prial.settle_casino(...)`` on the server."""
        return self._unary(_settle_casino_call(player, dealer, ante, play, pair_bonus, paytable, game), timeout)

    def settle_partition_game(self, players: Sequence[CrashPlayer], game: PartitionGame, *, carry: int = 0,
                              timeout: float | None = None) -> PartitionGameResult:
        """``prial.settle_partition_game(...)`` on the server."""
        return self._unary(_settle_partition_game_call(players, game, carry), timeout)

    def settle_classic(self, players: Sequence[ClassicPlayer], rules: ClassicRules | None = None, *,
                         contenders: Sequence[str] | None = None, seer: str | None = None,
                         stock: CardsLike | None = None, seed: int | None = None,
                         timeout: float | None = None) -> ClassicResult:
        """``prial.settle_classic(...)`` on the server."""
        return self._unary(_settle_classic_call(players, rules, contenders, seer, stock, seed),
                           timeout)

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
                   next_deal: Mapping[str, Any] | None = None, stub: CardsLike | None = None,
                   timeout: float | None = None) -> TableState:
        """The deal ``prial.Deal.start(table, players, cards, seed, dealer,
        stacks, carried=carried, stub=stub)`` after ``actions`` and then ``action``
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
                                            carried, next_deal, stub), timeout)

    def health(self, service: str = "", *, timeout: float | None = None) -> str:
        """The server's health status name for ``service`` ("" = the whole
        server, or "prial.v1.Prial"): "SERVING" or "NOT_SERVING"."""
        return self._unary(_health_call(service), timeout)

    def wait_ready(self, timeout: float = 10.0) -> None:
        """Blocks until the channel connects (or raises grpc.FutureTimeoutError)."""
        grpc.channel_ready_future(self._channel).result(timeout=timeout)
