"""``four_order`` over gRPC and on the command line: the library's answers
under each value, and a bad value refused in one line naming the option
(INVALID_ARGUMENT naming the request field)."""

from __future__ import annotations

import json

import grpc
import pytest

import prial
from prial import CrashPlayer
from prial.cli import main
from prial.client import PrialRpcError
from prial.v1 import prial_pb2 as pb
from prial.v1 import prial_pb2_grpc as pb_grpc

from .cli_helpers import usage_error

ORDERS = ["prial", "aces", "fours"]
# Four fours against four aces: "fours" gives the bonus to a, the others to b.
FOURS = ["4s 4d 4h | 4c 9d 9h | Tc 7d 3h | 8c 6d 2h / 5h", "As Ad Ah | Ac Kd Kh | Qc Jd 5d | 9c 7h 2d / 3d"]
PLAYERS = [CrashPlayer(str(n), [h.strip() for h in text.split("/")[0].split("|")], text.split("/")[1].strip())
           for n, text in enumerate(FOURS, 1)]
NINE = "3c 3d 3h 3s Ah Kd 9c 7s 5d"


@pytest.mark.parametrize("four_order", ORDERS)
def test_grpc_crash_showdown_and_partition_follow_four_order(grpc_client, four_order):
    remote = grpc_client.crash_showdown(PLAYERS, four_order=four_order)
    assert remote == prial.crash_showdown(PLAYERS, four_order=four_order)
    assert remote.four_of_a_kind_bonus == ("1" if four_order == "fours" else "2")
    options = {"hands": 3, "objective": "expected_points", "four_order": four_order}
    assert grpc_client.partition(NINE, **options) == prial.partition(NINE, **options)


def test_grpc_empty_four_order_is_the_default(grpc_server):
    request = pb.CrashShowdownRequest(players=[
        pb.CrashPlayer(id=p.id, hands=[pb.Cards(text=h) for h in p.hands], discards=pb.Cards(text=p.discards))
        for p in PLAYERS])
    with grpc.insecure_channel(grpc_server.target) as channel:
        response = pb_grpc.PrialStub(channel).CrashShowdown(request, timeout=10)
    assert response.four_of_a_kind_bonus == prial.crash_showdown(PLAYERS).four_of_a_kind_bonus == "2"


@pytest.mark.parametrize("method", ["CrashShowdown", "Partition"])
def test_grpc_bad_four_order_is_invalid_argument_naming_the_field(grpc_server, method):
    if method == "Partition":
        request = pb.PartitionRequest(cards=pb.Cards(text=NINE), hands=3, objective=pb.OBJECTIVE_EXPECTED_POINTS,
                                      four_order="threes")
    else:
        request = pb.CrashShowdownRequest(four_order="threes", players=[
            pb.CrashPlayer(id=p.id, hands=[pb.Cards(text=h) for h in p.hands]) for p in PLAYERS])
    with grpc.insecure_channel(grpc_server.target) as channel:
        with pytest.raises(grpc.RpcError) as info:
            getattr(pb_grpc.PrialStub(channel), method)(request, timeout=10)
    error = PrialRpcError.from_rpc_error(info.value)
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert error.message == "four_order must be one of 'prial', 'aces', 'fours', got 'threes'"
    assert [v.field for v in error.field_violations] == ["four_order"]


def test_the_client_refuses_a_bad_four_order_before_sending(grpc_client):
    with pytest.raises(prial.ConfigurationError, match="four_order must be one of"):
        grpc_client.crash_showdown(PLAYERS, four_order="threes")


@pytest.mark.parametrize("four_order", ORDERS)
def test_cli_crash_and_partition_take_four_order(capsys, four_order):
    assert main(["crash", *FOURS, "--four-order", four_order, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == prial.crash_showdown(PLAYERS, four_order=four_order).to_dict()
    assert data["four_of_a_kind_bonus"] == ("1" if four_order == "fours" else "2")
    assert main(["partition", NINE, "--hands", "3", "--objective", "expected_points", "--four-order", four_order,
                 "--json"]) == 0
    split = prial.partition(NINE, hands=3, objective="expected_points", four_order=four_order)
    assert json.loads(capsys.readouterr().out)["expected_points"] == split.expected_points


@pytest.mark.parametrize("command", [["crash", *FOURS], ["partition", NINE, "--hands", "3"]])
def test_cli_bad_four_order_is_one_line(capsys, command):
    err = usage_error(capsys, [*command, "--four-order", "threes"])
    assert "argument --four-order: invalid choice: 'threes' (choose from 'prial', 'aces', 'fours')" in err
