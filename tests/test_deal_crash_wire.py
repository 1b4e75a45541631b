"""Crash dealt from a seed with its spare hands: prial deal-crash, prial
call deal-crash and DealCrash over a real loopback server, against the
library and against a plain dealing written here; every bad request
refused naming its field."""

from __future__ import annotations

import asyncio
import json
import os

import grpc
import pytest

import prial
from prial.cli import main
from prial.client import AsyncClient, PrialRpcError
from prial.v1 import prial_pb2 as pb
from prial.v1 import prial_pb2_grpc as pb_grpc

CASES = [(7, 4, 13, False, []), (7, 3, 13, True, [2]), (8, 3, 13, True, []), (9, 2, 13, True, [1, 0]),
         (10, 5, 9, False, []), (2**64 - 1, 2, 9, False, [])]


@pytest.fixture(autouse=True)
def grpc_logs_quieted_per_test(monkeypatch):
    monkeypatch.setenv("GRPC_VERBOSITY", os.environ.get("GRPC_VERBOSITY", "NONE"))


def plain_pack(seed: int) -> list[int]:
    """The seed-to-pack algorithm as docs/rules.md words it: SplitMix64
    from the seed, and each place from the top swapped with a place drawn
    from it to the last (a multiply-shift draw, drawn again while its low
    32 bits fall below 2**32 mod the places left)."""
    mask = 2**64 - 1
    state = seed

    def next_value() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    pack = list(range(52))
    for i in range(51):
        left = 52 - i
        while True:
            product = (next_value() >> 32) * left
            if product & 0xFFFFFFFF >= 2**32 % left:
                break
        j = i + (product >> 32)
        pack[i], pack[j] = pack[j], pack[i]
    return pack


def plain_deal(seed: int, players: int, cards: int, spare: bool) -> tuple[list[list[int]], list[list[int]]]:
    """(the seats' cards, the spares): a card to each seat in turn from the
    top of the pack, then the rest to the spares in turn."""
    pack = plain_pack(seed)
    hands = [[pack[k * players + seat] for k in range(cards)] for seat in range(players)]
    spares = {2: 2, 3: 1}.get(players, 0) if spare and cards == 13 else 0
    rest = pack[players * cards:players * cards + 13 * spares]
    return hands, [[rest[k * spares + s] for k in range(13)] for s in range(spares)]


@pytest.mark.parametrize("seed", [0, 1, 7, 12345, 2**63, 2**64 - 1])
@pytest.mark.parametrize("players,cards,spare", [(2, 13, True), (3, 13, True), (4, 13, False), (5, 9, False)])
def test_deal_crash_deals_as_the_documented_algorithm(seed, players, cards, spare):
    hands, spares = plain_deal(seed, players, cards, spare)
    deal = prial.deal_crash(seed, players, cards=cards, spare=spare)
    assert [list(h) for h in deal.hands] == hands and [list(s) for s in deal.spares] == spares


def expected(seed: int, players: int, cards: int, spare: bool, exchanges: list[int]) -> prial.CrashDeal:
    deal = prial.deal_crash(seed, players, cards=cards, spare=spare)
    for seat in exchanges:
        deal = deal.exchange(seat)
    return deal


@pytest.mark.parametrize("seed,players,cards,spare,exchanges", CASES)
def test_both_clients_answer_as_the_library(grpc_client, grpc_server, seed, players, cards, spare, exchanges):
    want = expected(seed, players, cards, spare, exchanges)
    assert want == prial.deal_crash(seed, players, cards=cards, spare=spare, exchanges=exchanges)
    assert grpc_client.deal_crash(seed, players, cards=cards, spare=spare, exchanges=exchanges) == want

    async def remote() -> prial.CrashDeal:
        async with AsyncClient(grpc_server.target, timeout=30) as client:
            return await client.deal_crash(seed, players, cards=cards, spare=spare, exchanges=exchanges)

    assert asyncio.run(remote()) == want


def test_a_request_of_only_a_seed_deals_four_players_thirteen_cards(grpc_server):
    with grpc.insecure_channel(grpc_server.target) as channel:
        response = pb_grpc.PrialStub(channel).DealCrash(pb.DealCrashRequest(seed=3), timeout=10)
    deal = prial.deal_crash(3)
    assert [tuple(h) for h in response.hands] == list(deal.hands) and len(response.hands) == 4
    assert list(response.spares) == [] and list(response.given_up) == [b""] * 4
    assert sorted(c for h in response.hands for c in h) == list(range(52))


@pytest.mark.parametrize("request_fields,field,message", [
    ({"seed": 1, "players": 5}, "players", "players must be a whole number 2 to 4, got 5"),
    ({"seed": 1, "cards": 7}, "cards", "cards must be 9 (nine-card Brag) or 13 (Crash), got 7"),
    ({"seed": 1, "players": 4, "spare": True}, "spare", "a deal of 4 players of 13 cards leaves no spare hand"),
    ({"seed": 1, "players": 3, "spare": True, "exchanges": [0, 2]}, "exchanges[1]",
     "exchanges[1]: seat 0 took the spare hand first, which blocks the rest"),
    ({"seed": 1, "players": 3, "exchanges": [0]}, "exchanges[0]", "exchanges[0]: a deal of 3 players of 13 cards "
     "has no spare hand"),
    ({"seed": 1, "players": 2, "spare": True, "exchanges": [2]}, "exchanges[0]",
     "exchanges[0]: seat must be a whole number 0 to 1, got 2"),
])
def test_a_bad_request_is_invalid_argument_naming_the_field(grpc_server, request_fields, field, message):
    with grpc.insecure_channel(grpc_server.target) as channel:
        with pytest.raises(grpc.RpcError) as info:
            pb_grpc.PrialStub(channel).DealCrash(pb.DealCrashRequest(**request_fields), timeout=10)
    error = PrialRpcError.from_rpc_error(info.value)
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert error.message.startswith(message)
    assert [v.field for v in error.field_violations] == [field]


@pytest.mark.parametrize("arguments,message", [
    ({"seed": -1}, "seed must be a whole number 0 to 18446744073709551615, got -1"),
    ({"seed": 1, "exchanges": "01"}, "exchanges must be a sequence of seats"),
    ({"seed": 1, "exchanges": [-1]}, r"exchanges\[0\] must be a whole number 0 to 4294967295, got -1"),
    ({"seed": 1, "spare": "yes"}, "spare must be True or False"),
])
def test_the_client_refuses_a_bad_argument_before_sending(grpc_client, arguments, message):
    with pytest.raises(prial.InvalidHandError, match=message):
        grpc_client.deal_crash(**arguments)


def test_cli_deal_and_call_print_the_same(capsys, grpc_server):
    argv = ["deal-crash", "--seed", "4", "--players", "3", "--spare", "--exchange", "1"]
    assert main(argv) == 0
    local = capsys.readouterr().out
    assert main(["call", "--target", grpc_server.target, *argv]) == 0
    assert capsys.readouterr().out == local
    lines = local.splitlines()
    deal = prial.deal_crash(4, 3, spare=True, exchanges=[1])
    assert lines[3].split()[0] == "1" and set(prial.parse_cards(" ".join(lines[3].split()[1:14]))) == set(
        deal.spares[0])
    assert main([*argv, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == deal.to_dict()


def test_cli_bad_exchange_is_one_line_here_and_the_servers_error_there(capsys, grpc_server):
    argv = ["deal-crash", "--seed", "4", "--players", "3", "--spare", "--exchange", "1", "--exchange", "2"]
    assert main(argv) == 2
    assert capsys.readouterr().err == "prial: error: seat 1 took the spare hand first, which blocks the rest\n"
    assert main(["call", "--target", grpc_server.target, *argv]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "prial: error: the server refused the request (INVALID_ARGUMENT): exchanges[1]: seat 1 took the spare "
        "hand first, which blocks the rest", "  field exchanges[1]"]
