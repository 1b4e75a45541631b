"""Partition, Showdown, ShowdownBatch, CrashShowdown, SettleCasino, Odds and
Equity over a real server: the same answers as the in-process Python API,
result for result (the client rebuilds the Python result types)."""

from __future__ import annotations

import grpc
import numpy as np
import pytest

import prial
from prial import Category, CrashPlayer, Player, Rules, random_hands
from prial.client import PrialRpcError
from prial.v1 import prial_pb2 as pb

MIRRORS = [
    ("PartitionResponse", prial.Split),
    ("ShowdownResponse", prial.ShowdownResult),
    ("PlayerHand", prial.PlayerHand),
    ("CoverResult", prial.CoverResult),
    ("CrashShowdownResponse", prial.CrashResult),
    ("CrashPosition", prial.CrashPosition),
    ("CrashPlayerResult", prial.CrashPlayerResult),
    ("SettleCasinoResponse", prial.CasinoResult),
    ("BetResult", prial.BetResult),
    ("SettlePartitionGameResponse", prial.PartitionGameResult),
    ("PartitionGameSet", prial.PartitionGameSet),
    ("PartitionGamePlayerResult", prial.PartitionGamePlayerResult),
    ("OddsResponse", prial.Odds),
    ("CategoryOdds", prial.CategoryOdds),
    ("EquityResponse", prial.Equity),
]


@pytest.mark.parametrize(("message", "result_type"), MIRRORS, ids=[m for m, _ in MIRRORS])
def test_messages_mirror_the_python_results(message, result_type):
    """A field added to a Python result must be added to its message too
    (the service maps them by name; this names the drift)."""
    import dataclasses


    fields = (result_type._fields if issubclass(result_type, tuple)
              else [f.name for f in dataclasses.fields(result_type)])
    assert set(getattr(pb, message).DESCRIPTOR.fields_by_name) == set(fields)


def _deals(rows: int, cards: int, seed: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    return [rng.permutation(52)[:cards].tolist() for _ in range(rows)]


@pytest.mark.parametrize(
    ("cards", "options"),
    [
        (13, {}),
        (13, {"objective": "expected_points"}),
        (13, {"min_category": "PAIR"}),
        (13, {"objective": "expected_points", "min_category": Category.PAIR, "opponents": 2}),
        (13, {"objective": "expected_points", "crash_value": 2.5, "min_category": "running flush"}),
        (9, {"hands": 3}),
        (7, {"hands": 2}),
        (15, {"hands": 5}),
    ],
)
def test_partition(grpc_client, cards, options):
    ev = prial.Evaluator()
    for deal in _deals(6, cards, seed=cards):
        assert grpc_client.partition(deal, **options) == ev.partition(deal, **options)
    text = prial.format_cards(deal)
    assert grpc_client.partition(text, **options) == ev.partition(text, **options)


def test_partition_other_rules(grpc_client):
    rules = Rules(preset="teen_patti", wild="deuces")
    deal = _deals(1, 13, seed=1)[0]
    assert grpc_client.partition(deal, rules=rules) == prial.Evaluator(rules).partition(deal)


SHOWDOWNS = [
    ([Player("a", "7s 7h Qc"), Player("b", "7d 7c Qh")], {"seer": "a"}),  # seer loses ties
    ([Player("a", "Ks Kd 9h 7c"), Player("b", "Kh Kc 9d 4s")], {"seer": "b"}),  # discard decides
    ([Player("a", "Ks Kd 9h 7c 2d"), Player("b", "Kh Kc 9d 7s 3s")], {"seer": "a"}),
    ([Player("a", "3s 2h Ah", blind=True, stake=10), Player("b", "Kd Kh 4c", stake=20)], {"seer": "a"}),
    ([Player("a", "Js 6h 3d", stake=5), Player("b", "Jd 6c 3s", stake=5), Player("c", "9c 9h 2s", stake=0)],
     {"pot": 1}),
    ([Player("a", "Js 6h 3d", stake=7), Player("b", "Jd 6c 3s", stake=7), Player("c", "Jh 6s 3c", stake=7)], {}),
    ([Player("cov", "As Ad 2c"), Player("a", "Ks Kd 9h", stake=5), Player("b", "Qs Qd 9c", stake=5)],
     {"seer": "b", "coverer": "cov", "old_pot": 30}),
    ([Player("cov", [51, 47, 43]), Player("a", [7, 2, 50], stake=3), Player("b", [0, 5, 10], stake=3)],
     {"coverer": "cov", "old_pot": 11, "rules": Rules(preset="three_card_poker")}),
]


@pytest.mark.parametrize(("players", "options"), SHOWDOWNS)
def test_showdown(grpc_client, players, options):
    expected = prial.showdown(players, **options)
    got = grpc_client.showdown(players, **options)
    assert got == expected
    assert got.reason and got.to_dict() == expected.to_dict()


def test_an_error_quoting_a_huge_id_still_reaches_the_client(grpc_client):
    huge = "p" * 200_000  # the error quotes it; uncut, the status would not fit the metadata limit
    with pytest.raises(PrialRpcError) as info:
        grpc_client.showdown([Player(huge, "7s 7h Qc"), Player(huge, "7d 7c Qh")])
    assert info.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert str(info.value).endswith("' is used twice") and "characters cut" in str(info.value)
    assert len(str(info.value)) < 3000


def test_showdown_cannot_see_a_blind_man(grpc_client):
    players = [Player("open", "Ks Kd 9h"), Player("blind", "Qs Qd 9c", blind=True)]
    with pytest.raises(prial.InvalidShowdownError) as local:
        prial.showdown(players, seer="open")
    with pytest.raises(PrialRpcError) as remote:
        grpc_client.showdown(players, seer="open")
    assert remote.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert remote.value.message == str(local.value)
    assert remote.value.field_violations[0].field == "players[0]"  # the open seer


@pytest.mark.parametrize("width", [3, 4, 5])
def test_showdown_batch(grpc_client, width):
    both = random_hands(20_000, 2 * width, seed=11)
    seer, seen = np.ascontiguousarray(both[:, :width]), np.ascontiguousarray(both[:, width:])
    for rules in (None, Rules(preset="teen_patti")):
        np.testing.assert_array_equal(grpc_client.showdown_batch(seer, seen, rules=rules),
                                      prial.showdown_batch(seer, seen, rules=rules))


def test_showdown_batch_names_the_bad_row(grpc_client):
    both = random_hands(50, 6, seed=12)
    seer, seen = np.ascontiguousarray(both[:, :3]), np.ascontiguousarray(both[:, 3:])
    seen[31, 2] = seer[31, 0]  # one card in both hands
    with pytest.raises(PrialRpcError) as info:
        grpc_client.showdown_batch(seer, seen)
    assert info.value.field_violations[0].field == "seer_cards[31]"
    seen[31] = [4, 4, 9]
    with pytest.raises(PrialRpcError) as info:
        grpc_client.showdown_batch(seer, seen)
    assert info.value.field_violations[0].field == "seen_cards[31]"


def _crash_players(seed: int, seats: int = 4, cards: int = 13) -> list[CrashPlayer]:
    deck = np.random.default_rng(seed).permutation(52).tolist()
    players = []
    for seat in range(seats):
        split = prial.partition(deck[cards * seat: cards * seat + cards], cards // 3)
        players.append(CrashPlayer(f"p{seat}", split.hands, split.discards))
    return players


CRASHES = [
    ([CrashPlayer("a", ["As Ad Ah", "Ks Kd 2h", "Jc 6h 3d", "9c 8d 2s"], "4h"),
      CrashPlayer("b", ["Qs Qd Qh", "Jd Js 5h", "Kc 7h 5d", "Tc 7c 4d"], "4s")], {"scoring": [4, 3, 2, 1]}),
    ([CrashPlayer("a", ["Kd Kh 4c", "As Ad Ah"], "2c"), CrashPlayer("b", ["Qs Qh 9d", "5c 4d 2h"], "3c")], {}),
    ([CrashPlayer("a", ["4s 4d 4h", "4c 9d 9h", "Tc 7d 3h", "8c 6d 2h"], "5h"),
      CrashPlayer("b", ["As Ad Ah", "Ac Kd Kh", "Qc Jd 5d", "9c 7h 2d"], "3d")], {"min_category": "PAIR"}),
    ([CrashPlayer("a", ["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh", "Js Jd Jh"], "2c"),
      CrashPlayer("b", ["Ac 7d 7h", "Kc 8d 8h", "Qc 9d 9h", "Jc Td Th"], "2d")], {"crash_value": 3}),
]


@pytest.mark.parametrize(("players", "options"), CRASHES)
def test_crash_showdown(grpc_client, players, options):
    assert grpc_client.crash_showdown(players, **options) == prial.crash_showdown(players, **options)


@pytest.mark.parametrize("seed", range(4))
def test_crash_showdown_dealt_rounds(grpc_client, seed):
    players = _crash_players(seed)
    assert grpc_client.crash_showdown(players) == prial.crash_showdown(players)


@pytest.mark.parametrize("seats", [3, 5])
def test_nine_card_rounds_seat_as_many_as_a_pack_deals(grpc_client, seats):
    players = _crash_players(seats, seats, 9)
    assert grpc_client.crash_showdown(players) == prial.crash_showdown(players)


CASINO = [
    (("9s 9h 4d", "Jc 8d 3h", 10, 10), {}),
    (("Ks 9h 4d", "2c 2d 5h", 10, 10), {"pair_bonus": 5}),
    (("7s 7h Qc", "7d 7c Qh", 5, 5), {}),
    (("Qs Jd 4h", "Kc 2d 2h", 10, None), {"pair_bonus": 3}),
    (("As Ks Qs", "Kc Kd 2h", 10, 10), {"pair_bonus": 2, "paytable": "pair_plus_1_4_6_30_40"}),
    (("3s 2s As", "Qc Jd 9h", 10, 10), {"game": "three_card_poker", "pair_bonus": 1}),
    (("5s 5d 5h", "Qc Jd 9h", 4, 8), {"pair_bonus": 2, "paytable": prial.Paytable.make(
        "house", {Category.PRIAL: 7}, {Category.PRIAL: 50, Category.PAIR: 2}, play_multiple=2)}),
    # A named Three Card Poker table plays by its own ranking unless told.
    (("4h 3h 2h", "Ac Ad As", 1, 1), {"pair_bonus": 1, "paytable": "three_card_poker_1_3_6_30_40"}),
    (("4h 3h 2h", "Ac Ad As", 1, 1), {"paytable": "three_card_poker_1_3_6_30_40", "game": "brag"}),
    # Every option of a custom table goes over the wire.
    (("Qs As Ks", "2c 2d 5h", 3, 6), {"pair_bonus": 2, "paytable": prial.Paytable.make(
        "house", {Category.RUNNING_FLUSH: 5}, {Category.PAIR: 1}, play_multiple=2, game="three_card_poker",
        ante_mini_royal=50, pair_mini_royal=0, pair_bonus_on_fold="forfeited")}),
    (("Qs Qh 4d", "2c 2d 5h", 3, None), {"pair_bonus": 2, "paytable": prial.Paytable.make(
        "house", {}, {Category.PAIR: 1}, pair_bonus_on_fold="forfeited")}),
]


@pytest.mark.parametrize(("args", "options"), CASINO)
def test_settle_casino(grpc_client, args, options):
    assert grpc_client.settle_casino(*args, **options) == prial.settle_casino(*args, **options)


@pytest.mark.parametrize("cards", [3, 4, 5])
@pytest.mark.parametrize("rules", [None, Rules(preset="three_card_poker"), Rules(wild="jokers", jokers=1)])
def test_odds(grpc_client, rules, cards):
    assert grpc_client.odds(rules, cards) == prial.odds(rules, cards)


@pytest.mark.parametrize(
    ("args", "options"),
    [
        (("Qs Qd 4c",), {}),
        (("3s 2h Ah",), {"dead": "Kd Kh"}),
        (([51, 47, 43],), {"rules": Rules(preset="teen_patti")}),
        (("Ts 9s 8d", 3), {"samples": 20_000, "seed": 5}),
        (("Ks Kd 9h 7c",), {}),
        (("Ks Kd 9h 7c 2d",), {"dead": "Ah"}),
        (("Ks Kd 9h 7c",), {"with_percentile": True}),
        (("Ts 9s 8d",), {"rules": Rules(preset="teen_patti"), "with_percentile": True}),
    ],
)
def test_equity(grpc_client, args, options):
    assert grpc_client.equity(*args, **options) == prial.equity(*args, **options)


def test_equity_bad_hand(grpc_client):
    with pytest.raises(PrialRpcError) as info:
        grpc_client.equity("Qs Qd")
    assert info.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert info.value.field_violations[0].field == "hand"


@pytest.mark.parametrize("field", ["ante_bonus", "pair_bonus"])
def test_a_category_paid_twice_is_invalid_argument_naming_the_entry(grpc_server, field):
    from prial.v1 import prial_pb2_grpc as pb_grpc

    lines = [pb.CategoryPays(category=pb.PAIR, pays=1), pb.CategoryPays(category=pb.RUN, pays=6),
             pb.CategoryPays(category=pb.PAIR, pays=9)]
    request = pb.SettleCasinoRequest(player=pb.Cards(text="Qs Qh 4d"), dealer=pb.Cards(text="2c 2d 5h"), ante=1,
                                     pair_bonus=1, paytable=pb.Paytable(name="twice", **{field: lines}))
    with grpc.insecure_channel(grpc_server.target) as channel:
        with pytest.raises(grpc.RpcError) as info:
            pb_grpc.PrialStub(channel).SettleCasino(request, timeout=10)
    error = PrialRpcError.from_rpc_error(info.value)
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "PAIR is listed twice (pays 1 and 9)" in error.message
    assert [v.field for v in error.field_violations] == [f"paytable.{field}[2]"]
