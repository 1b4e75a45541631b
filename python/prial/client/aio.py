"""AsyncClient: the same calls for asyncio."""

from __future__ import annotations

import asyncio
from collections.abc import (
    AsyncIterable,
    AsyncIterator,
    Iterable,
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
from .streams import _async_iter, _StreamRequests, _Turns


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
                        rules: Rules | None = None, four_order: str = FOUR_ORDERS[0],
                        timeout: float | None = None) -> Split:
        """As ``Client.partition``."""
        return await self._unary(
            _partition_call(cards, hands, objective, min_category, opponents, crash_value, four_order, rules), timeout)

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
                             crash_value: int = 0, four_order: str = FOUR_ORDERS[0],
                             ties: str = CRASH_OPTIONS["ties"][0], four_bonus: str = CRASH_OPTIONS["four_bonus"][0],
                             below_min: str = CRASH_OPTIONS["below_min"][0],
                             timeout: float | None = None) -> CrashResult:
        """As ``Client.crash_showdown``."""
        return await self._unary(
            _crash_showdown_call(players, scoring, min_category, rules, crash_value, four_order,
                                 {"ties": ties, "four_bonus": four_bonus, "below_min": below_min}), timeout)

    async def crash_match(self, rounds: Sequence[Sequence[CrashPlayer]], match: CrashMatchRules | None = None, *,
                          timeout: float | None = None, **showdown: Any) -> CrashMatchResult:
        """As ``Client.crash_match``."""
        return await self._unary(_crash_match_call(rounds, match, showdown), timeout)

    async def deal_crash(self, seed: int, players: int = 4, *, cards: int = CRASH_CARDS, spare: bool = False,
                         exchanges: Sequence[int] = (), timeout: float | None = None) -> CrashDeal:
        """As ``Client.deal_crash``."""
        return await self._unary(_deal_crash_call(seed, players, cards, spare, exchanges), timeout)

    async def settle_casino(self, player: CardsLike, dealer: CardsLike, ante: int, play: int | None = None,
                            pair_bonus: int = 0, *, paytable: Paytable | str = CASINO_BRAG_PAYTABLE,
                            game: str | None = None, timeout: float | None = None) -> CasinoResult:
        """As ``Client.settle_casino``."""
        return await self._unary(_settle_casino_call(player, dealer, ante, play, pair_bonus, paytable, game),
                                 timeout)

    async def settle_partition_game(self, players: Sequence[CrashPlayer], game: PartitionGame, *, carry: int = 0,
                                    timeout: float | None = None) -> PartitionGameResult:
        """As ``Client.settle_partition_game``."""
        return await self._unary(_settle_partition_game_call(players, game, carry), timeout)

    async def settle_classic(self, players: Sequence[ClassicPlayer], rules: ClassicRules | None = None, *,
                             contenders: Sequence[str] | None = None, seer: str | None = None,
                             stock: CardsLike | None = None, seed: int | None = None,
                             timeout: float | None = None) -> ClassicResult:
        """As ``Client.settle_classic``."""
        return await self._unary(_settle_classic_call(players, rules, contenders, seer, stock, seed),
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
                         next_deal: Mapping[str, Any] | None = None, stub: CardsLike | None = None,
                         timeout: float | None = None) -> TableState:
        """As ``Client.play_table``."""
        return await self._unary(
            _play_table_call(table, players, actions, action, cards, seed, dealer, stacks, view, carried, next_deal,
                             stub),
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
