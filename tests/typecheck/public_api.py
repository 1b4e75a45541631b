# mypy: disallow-any-expr
# pyright: reportAny=error
"""The public API as a user script sees it, checked by mypy --strict and
basedpyright (strict) in .ci/run: every result is annotated with its exact
type, and the checkers refuse any expression typed Any, so a signature that
loses its types (to Any or to an array of unknown dtype) fails the check.

Not a test module (pytest does not collect it): .ci/run only type-checks
it, as its client part would need a server.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from fractions import Fraction
from pathlib import Path

import grpc
import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

import prial
from prial import (
    BestHand,
    CancelFlag,
    CasinoResult,
    Category,
    CategoryOdds,
    CrashPlayer,
    CrashPlayerResult,
    CrashPosition,
    CrashResult,
    Equity,
    Evaluator,
    HandValue,
    HouseEdge,
    Odds,
    Paytable,
    Player,
    PlayerHand,
    Rules,
    ScoreOptions,
    ScoreSummary,
    ShowdownResult,
    Split,
)
from prial.audit import write_report
from prial.client import AsyncClient, Client, Evaluation, FieldViolation, PrialRpcError, RetryPolicy, TableState
from prial.score import Progress


def cards() -> None:
    indices: list[int] = prial.parse_cards("3s 2h Ah")
    text: str = prial.format_cards(indices)
    hands: NDArray[np.uint8] = prial.random_hands(100, 5, seed=1, pack=53)
    version: str = prial.__version__
    del text, hands, version


def evaluator_and_rules() -> None:
    rules = Rules(preset="teen_patti", ace_two_three="second", top_prial="ace", lowball=False,
                  wild="deuces", jokers=1, wild_ties="equal")
    pack: int = rules.pack_size
    wild: frozenset[int] = rules.wild_cards
    is_wild: bool = rules.is_wild(52)
    ev = Evaluator(rules)
    same: Rules = ev.rules
    classes: int = ev.classes
    categories: NDArray[np.uint8] = ev.categories
    order: list[Category] = ev.category_order
    value: HandValue = ev.evaluate("3s 2h Ah")
    strength: int = value.strength
    category: Category = value.category
    label: str = category.label
    held: list[int] = value.cards
    stronger: bool = prial.evaluate("4s 3s 2s") > prial.evaluate([51, 47, 42])
    del pack, wild, is_wild, same, classes, categories, order, strength, label, held, stronger


def batches() -> None:
    ev = Evaluator(Rules(preset="three_card_poker"))
    three: NDArray[np.uint8] = prial.random_hands(1000, 3)
    cancel = CancelFlag()
    strengths: NDArray[np.uint16] = ev.evaluate_batch(three, threads=2, cancel=cancel)
    default_rules: NDArray[np.uint16] = prial.evaluate_batch(three)
    cancel.cancel()
    cancelled: bool = cancel.cancelled
    # A list literal given to np.array is typed by numpy's stubs with Any.
    rows: list[list[int]] = [prial.parse_cards("3s 2h Ah"), prial.parse_cards("As Ks Qh")]
    from_text: NDArray[np.uint16] = prial.evaluate_batch(np.array(rows, np.uint8))
    del strengths, default_rules, cancelled, from_text


def best_of() -> None:
    best: BestHand = prial.best_of("As Kd 7h 7c 2s")
    kept: list[int] = best.kept
    discarded: list[int] = best.discarded
    key: int = best.key
    four: NDArray[np.uint32] = prial.best_of_batch(prial.random_hands(10, 4))
    five: NDArray[np.uint32] = Evaluator().best_of_batch(prial.random_hands(10, 5), threads=1)
    del kept, discarded, key, four, five


def partition() -> None:
    split: Split = prial.partition("Ah Kh Qh 9c 9d 9s 2c 3d 5h 7s 8c Td Js", hands=4,
                                   objective="expected_points", min_category="PAIR", opponents=2, crash_value=1.0)
    hands: list[list[int]] = split.hands
    strengths: list[int] = split.strengths
    categories: list[Category] = split.categories
    descriptions: list[str] = split.descriptions
    points: float | None = split.expected_points
    candidates: int = split.candidates
    formed: tuple[NDArray[np.uint8], NDArray[np.uint16]] = prial.partition_batch(
        prial.random_hands(8, 13), 4, min_category=Category.PAIR, threads=1)
    del hands, strengths, categories, descriptions, points, candidates, formed


def showdowns() -> None:
    result: ShowdownResult = prial.showdown(
        [Player("a", "7s 7h Qc", stake=5), Player("b", "7d 7c Qh", stake=5), Player("c", "As Ad 2h")],
        coverer="c", old_pot=11, pot=2, cards_per_hand=3, rules=Rules())
    winners: tuple[str, ...] = result.winners
    payouts: Mapping[str, int] | None = result.payouts
    hand: PlayerHand = result.hand("a")
    kept: tuple[int, ...] = hand.kept
    cover_reason: str | None = result.cover.reason if result.cover else None
    data = result.to_dict()
    reason = data["reason"]
    seer: list[list[int]] = [prial.parse_cards("As Ad Kh")]
    seen: list[list[int]] = [prial.parse_cards("Ks Kd Qh")]
    seer_wins: NDArray[np.uint8] = prial.showdown_batch(np.array(seer, np.uint8), np.array(seen, np.uint8))
    del winners, payouts, kept, cover_reason, reason, seer_wins


def crash() -> None:
    a = CrashPlayer("a", ["As Ad Ah", "Ks Kd Qh", "9c 9d 2h", "7s 6h 3c"], discards="4d")
    b = CrashPlayer("b", declare_six_pairs=False)
    result: CrashResult = prial.crash_showdown([a, b], scoring=[4, 3, 2, 1], min_category=Category.HIGH_CARD)
    points: Mapping[str, int] = result.points
    positions: tuple[CrashPosition, ...] = result.positions
    players: tuple[CrashPlayerResult, ...] = result.players
    crashed: str | None = result.crash
    void: bool = result.void
    del points, positions, players, crashed, void


def casino() -> None:
    settled: CasinoResult = prial.settle_casino("7s 7h 7d", "Qc 8d 3h", ante=10, play=10, pair_bonus=5,
                                                paytable="pair_plus_1_4_6_30_40", game="three_card_poker")
    net: int = settled.net
    outcomes: list[str] = [bet.outcome for bet in settled.bets]
    table: Paytable = prial.PAYTABLES["casino_brag"]
    pays: int = table.pair_pays(Category.PRIAL)
    own = Paytable.make("mine", {Category.PRIAL: 5}, {Category.PAIR: 1}, play_multiple=2)
    edge: HouseEdge = prial.house_edge(own, "brag")
    ante: Fraction = edge.ante
    standard: HouseEdge = prial.house_edge(prial.CASINO_BRAG_PAYTABLE)
    other: Paytable = prial.PAIR_PLUS_1_4_6_30_40
    poker = Paytable.make("poker", {Category.RUNNING_FLUSH: 5}, {Category.PAIR: 1}, game="three_card_poker",
                          ante_mini_royal=50, pair_mini_royal=None, pair_bonus_on_fold="forfeited")
    royal: int = poker.ante_pays(Category.RUNNING_FLUSH, True)
    game: str = prial.house_edge("three_card_poker_1_4_6_30_40").game
    folded: CasinoResult = prial.settle_casino("Qs Qh 4d", "Ac Kd 2c", 1, None, 1, paytable=poker, game=None)
    del net, outcomes, pays, ante, standard, other, royal, game, folded


def partition_games() -> None:
    players = [prial.CrashPlayer("a", ["As Ad Ah", "Ks Kd 2h"], "9c"),
               prial.CrashPlayer("b", ["3c 3d 3h", "Qc Qd 4h"], "8c")]
    seven: prial.PartitionGameResult = prial.settle_seven_card_brag(players, prial.SevenCardBrag(ante=2), carry=3)
    nine: prial.PartitionGameResult = prial.settle_nine_card_brag([], prial.NineCardBrag(stick_up="split"))
    six: prial.PartitionGameResult = prial.settle_six_card_brag(players, prial.SixCardBrag(rules=Rules()))
    any_game: prial.PartitionGameResult = prial.settle_partition_game(players, prial.SixCardBrag(), carry=1)
    sets: tuple[prial.PartitionGameSet, ...] = seven.sets
    rows: tuple[prial.PartitionGamePlayerResult, ...] = seven.players
    nets: Mapping[str, int] = seven.nets
    winner: str | None = seven.pot_winner
    session = prial.PartitionGameSession(prial.SevenCardBrag()).settle(players)
    carry: int = session.carry
    last: prial.PartitionGameResult | None = session.last
    del nine, six, any_game, sets, rows, nets, winner, carry, last


def new_rules_options() -> None:
    rules = prial.Rules(wild="black_deuces", wild_as_itself="natural", suit_order="shdc")
    order: str | None = rules.suit_order
    del order


def crash_value() -> None:
    players = [prial.CrashPlayer("a", ["As Ad Ah"]), prial.CrashPlayer("b", ["Ks Kd Kh"])]
    points: Mapping[str, int] = prial.crash_showdown(players, crash_value=1).points
    del points


def odds() -> None:
    table: Odds = prial.odds(Rules(lowball=True), cards=5)
    rows: Iterator[CategoryOdds] = iter(table)
    prial_odds: CategoryOdds = table[Category.PRIAL]
    probability: float = prial_odds.probability
    size: int = len(table)
    chances: Equity = prial.equity("7s 7h Qc", opponents=2, dead="2c", samples=1000, seed=1)
    win: float = chances.win
    exact: bool = chances.exact
    share: float = prial.percentile("7s 7h Qc 2d", Rules())
    many: NDArray[np.float64] = prial.equity_batch(np.zeros((0, 3), np.uint8), threads=1)
    del rows, probability, size, win, exact, share, many


def score(folder: Path) -> None:
    rows: int = prial.write_sample_log(folder / "deals.csv", 100, seed=1, players=3, format="csv")
    table: pa.Table = prial.sample_deals(10, seed=1, players=3)
    table_rows: int = table.num_rows
    bias = prial.Bias("pairs", dealer=1, seat=0, rate=0.3)
    parsed: prial.Bias = prial.Bias.parse("aces:seat=0:rate=0.3")
    feature: str = parsed.feature
    dealer: int | None = bias.dealer
    rate: float = bias.rate
    biased: pa.Table = prial.sample_deals(10, seed=1, dealers=2, bias=[bias, parsed])
    biased_rows: int = prial.write_sample_log(folder / "biased.csv", 10, dealers=2, bias=(bias,))
    options = ScoreOptions(rules=Rules(), describe=True, strict=False, chunk_rows=50, threads=1)
    summary: ScoreSummary = prial.score_file(folder / "deals.csv", folder / "scored.parquet", options=options,
                                             errors=str(folder / "bad.csv"), overwrite=True, engine="local",
                                             progress=Progress("log", interval=10.0))
    rows_in: int = summary.rows_in
    rows_out: int = summary.rows_out
    bad_rows: int = summary.bad_rows
    deals: int = summary.deals
    disputes: int = summary.disputes
    categories: dict[str, int] = summary.categories
    complete: bool = summary.complete
    speed: float = summary.hands_per_second
    report: dict[str, object] = summary.to_dict()
    try:
        prial.score_file("missing.csv")
    except prial.ScoreError as error:
        status: int = error.status
        del status
    del rows, table_rows, rows_in, rows_out, bad_rows, deals, disputes, categories, complete, speed, report
    del feature, dealer, rate, biased, biased_rows


def audit(folder: Path) -> None:
    options = prial.AuditOptions(rules=Rules(), by=("dealer",), seat="player", alpha=0.01, limit=10,
                                 chunk_rows=1_000, threads=1)
    result: prial.AuditResult = prial.audit_file(folder / "biased.csv", options=options, engine="local",
                                                 progress=Progress("none"))
    in_memory: prial.AuditResult = prial.audit_table(prial.sample_deals(100, dealers=2), options)
    sentence: str = result.summaries["categories"]
    for test in result.flagged("cards") + in_memory.dealing["categories"]:
        adjusted: float | None = test.p_adjusted
        group: dict[str, object] = test.group
        if test.effect is not None:
            residual: float = test.effect.residual
            what: str = test.effect.what
            del residual, what
        del adjusted, group
    for payout in result.payouts:
        rate: float | None = payout.rate
        interval: tuple[float, float] = (payout.low, payout.high)
        del rate, interval
    as_json: dict[str, object] = result.to_dict()
    write_report(result, folder / "report.html")
    del sentence, as_json


def client(hands: NDArray[np.uint8], seen: NDArray[np.uint8]) -> None:
    with Client("127.0.0.1:50051", timeout=5.0, token="secret", max_message_bytes=1 << 20,
                options=[("grpc.enable_retries", 0)]) as c:
        c.wait_ready(timeout=1.0)
        result: Evaluation = c.evaluate(hands, rules=Rules(preset="teen_patti"), describe=True)
        strengths: NDArray[np.uint16] = result.strengths
        keys: NDArray[np.uint32] | None = result.keys
        categories: NDArray[np.uint8] = result.categories
        descriptions: list[str] | None = result.descriptions
        from_text: Evaluation = c.evaluate(["3s 2h Ah"], timeout=1.0)
        streamed: list[int] = [part.batch_index for part in c.evaluate_stream([hands, ["As Ks Qh"]])]
        split: Split = c.partition("Ah Kh Qh 9c 9d 9s 2c 3d 5h 7s 8c Td Js", min_category="PAIR")
        see: ShowdownResult = c.showdown([Player("a", "7s 7h Qc"), Player("b", "7d 7c Qh")], seer="a")
        seer_wins: NDArray[np.uint8] = c.showdown_batch(hands, seen, rules=Rules())
        crashed: CrashResult = c.crash_showdown([CrashPlayer("a"), CrashPlayer("b")], scoring="points")
        settled: CasinoResult = c.settle_casino("7s 7h 7d", "Qc 8d 3h", 10, 10, paytable="casino_brag")
        table: Odds = c.odds(cards=4)
        chances: Equity = c.equity("7s 7h Qc", 1)
        health: str = c.health()
        dealt: TableState = c.play_table(prial.TableRules(game="teen_patti"), ["a", "b"],
                                         [prial.Action("stake", "b", 2), "look"], "fold", seed=1, view="a")
        moves: tuple[prial.Action, ...] = dealt.legal_actions
        ended: prial.DealResult | None = dealt.result
        del strengths, keys, categories, descriptions, from_text, streamed, split, see, seer_wins, crashed
        del settled, table, chances, health, moves, ended
    try:
        Client("127.0.0.1:1", root_certificates=b"", server_name="prial").health()
    except PrialRpcError as error:
        message: str = error.message
        violations: tuple[FieldViolation, ...] = error.field_violations
        index: int | None = error.hand_index
        fields: list[str] = [v.field for v in violations]
        reason: str | None = error.reason
        where: dict[str, str] = error.metadata
        del message, index, fields, reason, where


async def async_client(hands: NDArray[np.uint8], seen: NDArray[np.uint8]) -> None:
    policy = RetryPolicy(max_attempts=3, initial_backoff=0.1, max_backoff=1.0, backoff_multiplier=1.5,
                         codes=(grpc.StatusCode.UNAVAILABLE,))
    attempts: int = policy.max_attempts
    codes: tuple[grpc.StatusCode, ...] = policy.codes
    async with AsyncClient("127.0.0.1:50051", timeout=5.0, token="secret", retries=policy) as c:
        await c.wait_ready(timeout=1.0)
        result: Evaluation = await c.evaluate(hands, rules=Rules(preset="teen_patti"), describe=True)
        strengths: NDArray[np.uint16] = result.strengths
        streamed: list[int] = [part.batch_index async for part in c.evaluate_stream([hands, ["As Ks Qh"]])]

        async def produced() -> AsyncIterator[NDArray[np.uint8]]:
            yield hands

        from_async: list[Evaluation] = [part async for part in c.evaluate_stream(produced(), timeout=2.0)]
        split: Split = await c.partition("Ah Kh Qh 9c 9d 9s 2c 3d 5h 7s 8c Td Js", min_category="PAIR")
        see: ShowdownResult = await c.showdown([Player("a", "7s 7h Qc"), Player("b", "7d 7c Qh")], seer="a")
        seer_wins: NDArray[np.uint8] = await c.showdown_batch(hands, seen, rules=Rules())
        crashed: CrashResult = await c.crash_showdown([CrashPlayer("a"), CrashPlayer("b")], scoring=[4, 3, 2, 1])
        settled: CasinoResult = await c.settle_casino("7s 7h 7d", "Qc 8d 3h", 10, None, 5, game="three_card_poker")
        table: Odds = await c.odds(cards=5)
        chances: Equity = await c.equity("7s 7h Qc", 2, samples=1000, seed=1)
        health: str = await c.health("prial.v1.Prial", timeout=1.0)
        replayed: TableState = await c.play_table(prial.TableRules(), ["a", "b"], [{"kind": "look", "player": "b"}],
                                                  cards=["As Ad Ah", None], stacks=[10, 10])
        del replayed
        del strengths, streamed, from_async, split, see, seer_wins, crashed, settled, table, chances, health
    unreachable = AsyncClient("127.0.0.1:1", retries=None)
    try:
        await unreachable.evaluate(["3s 2h Ah"])
    except PrialRpcError as error:
        code: grpc.StatusCode = error.code
        del code
    await unreachable.close()
    Client(retries=0).close()
    del attempts, codes
