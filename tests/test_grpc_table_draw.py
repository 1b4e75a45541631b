"""Draw Brag over PlayTable on a real loopback server: seeded deals played
call by call equal the same deals played with prial.Deal at every step
(state, legal actions, every player's view, every refusal's code), the
draw's cards given as a stub, and bad draw options refused naming the
field."""

from __future__ import annotations

import asyncio
import random

import grpc
import pytest

import prial
from prial.client import AsyncClient, PrialRpcError
from prial.v1 import prial_pb2 as pb

from .test_grpc_table import play, python_refusal, refusal, refused, seen_by, stub, whole  # noqa: F401 (a fixture)

DRAW_KINDS = ("look", "fold", "check", "call", "raise", "draw", "stake", "see")


def random_setup(rng: random.Random) -> dict:
    small = rng.choice([1, 2])
    table = prial.TableRules(game="draw_brag", small_blind=small, first_bet=rng.choice([None, 2 * small]),
                             blind_raise=rng.random() < 0.7, blind_rounds=rng.choice([1, 2]),
                             second_from_small_blind=rng.random() < 0.3)
    players = ["ann", "bob", "cat", "dan", "eve"][:rng.randint(2, 5)]
    setup = {"table": table, "players": players, "dealer": rng.randrange(len(players)), "seed": rng.getrandbits(64)}
    if rng.random() < 0.5:
        setup["stacks"] = [rng.randint(4, 60) for _ in players]
    return setup


def choose(rng: random.Random, deal: prial.Deal) -> prial.Action:
    legal = rng.choice(deal.legal_actions())
    if legal.kind == "draw":
        hand = deal.hands[legal.player]
        return prial.Action("draw", legal.player, discards=tuple(rng.sample(hand, rng.randint(0, legal.most))))
    return prial.Action(legal.kind, legal.player)


def test_draw_brag_deals_over_grpc_equal_the_python_deals_step_by_step(grpc_client):
    rng = random.Random(30)
    codes = set()
    for number in range(60):
        setup = random_setup(rng)
        deal = prial.Deal.start(setup["table"], setup["players"], seed=setup["seed"], dealer=setup["dealer"],
                                stacks=setup.get("stacks"))
        state = play(grpc_client, setup, [])
        while True:
            assert state == whole(deal)
            if deal.over:
                break
            if number % 4 == 0:
                offered = {a.kind for a in deal.legal_actions()}
                for kind in DRAW_KINDS:
                    if kind not in offered:
                        probe = prial.Action(kind)
                        want = python_refusal(deal, probe)
                        got = refusal(grpc_client, setup, state.history, probe)
                        assert (got.code, got.message, got.reason) == \
                            (grpc.StatusCode.FAILED_PRECONDITION, str(want), want.code)
                        codes.add(want.code)
            if number % 4 == 1:
                for viewer in (*deal.players, ""):
                    assert play(grpc_client, setup, state.history, view=viewer) == seen_by(deal, viewer)
            action = choose(rng, deal)
            deal = deal.act(action)
            state = play(grpc_client, setup, state.history, action)
    assert {"unknown_action", "must_draw", "no_draw", "check_facing_bet"} <= codes, codes


def test_a_stub_gives_the_draw_its_cards(stub):
    table = pb.TableRules(game=pb.TABLE_GAME_DRAW_BRAG)
    cards = [pb.Cards(text="As Kd 2c"), pb.Cards(text="Qh Qs 7d"), pb.Cards(text="9c 8c 4h")]
    actions = [pb.TableAction(kind=kind) for kind in ("look", "call", "call", "check", "draw", "look")]
    actions.append(pb.TableAction(kind="draw", discards=bytes(prial.parse_cards("4h"))))
    request = pb.PlayTableRequest(table=table, players=["ann", "bob", "cat"], cards=cards, actions=actions,
                                  stub=bytes(prial.parse_cards("5s Ah Ac")))
    response = stub.PlayTable(request, timeout=30)
    hands = {h.player: prial.format_cards(list(h.cards)) for h in response.hands}
    assert hands["cat"] == "9c 8c 5s"
    assert [(a.kind, a.amount) for a in response.history][-1] == ("draw", 1)
    request.ClearField("stub")  # no stub: the card drawn is not known
    response = stub.PlayTable(request, timeout=30)
    assert "cat" not in {h.player for h in response.hands}


@pytest.mark.parametrize(("table", "field"), [
    (pb.TableRules(game=pb.TABLE_GAME_DRAW_BRAG, blind_rounds=3), "table.blind_rounds"),
    (pb.TableRules(game=pb.TABLE_GAME_DRAW_BRAG, first_bet=0), "table.first_bet"),
    (pb.TableRules(game=pb.TABLE_GAME_DRAW_BRAG, small_blind=2**60), "table.small_blind"),
    (pb.TableRules(game=pb.TABLE_GAME_DRAW_BRAG, see_cost=2), "table.see_cost"),
    (pb.TableRules(game=pb.TABLE_GAME_BRAG, big_blind=2), "table.big_blind"),
])
def test_bad_draw_options_are_invalid_argument_naming_the_field(stub, table, field):
    code, _, fields, _ = refused(stub, pb.PlayTableRequest(table=table, players=["ann", "bob"], seed=1))
    assert (code, fields) == (grpc.StatusCode.INVALID_ARGUMENT, [field])


@pytest.mark.parametrize(("left", "seeded"), [(bytes([0, 0]), False), (bytes([51]), False), (bytes([60]), False),
                                              (bytes([5]), True)])
def test_a_bad_stub_is_invalid_argument_naming_it(stub, left, seeded):
    request = pb.PlayTableRequest(table=pb.TableRules(game=pb.TABLE_GAME_DRAW_BRAG), players=["ann", "bob"],
                                  stub=left)
    if seeded:
        request.seed = 1
    else:
        request.cards.extend([pb.Cards(text="As Ks Qs"), pb.Cards(text="2c 3c 4c")])
    code, message, fields, _ = refused(stub, request)
    assert (code, fields) == (grpc.StatusCode.INVALID_ARGUMENT, ["stub"]), message
    assert "\n" not in message and ("draw" in message or message.startswith("stub:"))


def test_the_next_draw_deal_over_grpc_is_dealt_from_its_seed(grpc_client):
    """The next deal's setup names its seed, so the calls that play it draw
    known cards from the rest of that seed's pack, a player sitting out not
    dealt in."""
    table = prial.TableRules(game="draw_brag")
    players = ["ann", "bob", "cat"]
    deal = prial.Deal.start(table, players, seed=8).act("fold").act("fold")  # ann, then bob, fold to cat
    state = grpc_client.play_table(table, players, deal.history, seed=8, next_deal={"sit_out": ["bob"]})
    setup = state.next_deal
    assert setup is not None and setup.cards is None and setup.seed == 9
    local = deal.next(sit_out=["bob"])
    assert [s.status for s in local.seats] == ["blind", "out", "blind"] and "bob" not in local.hands
    actions = ["look", "call", "check"]  # bob sits out: cat small blind, ann big; cat opens
    for kind in actions:
        local = local.act(kind)
    player = local.to_act
    local = local.act("draw", discards=local.hands[player][:2])
    state = grpc_client.play_table(table, actions=local.history, **setup._asdict())
    assert state.hands == local.hands and len(state.hands) == 2


def test_the_clients_send_a_stub(grpc_server, grpc_client):
    table = prial.TableRules(game="draw_brag")
    hands, left = ["As Kd 2c", "Qh Qs 7d", "9c 8c 4h"], "5s Ah Ac"
    deal = prial.Deal.start(table, ["ann", "bob", "cat"], cards=hands, stub=left)
    deal = deal.act("look").act("call").act("call").act("check").act("draw").act("look")
    deal = deal.act("draw", discards="4h").act("draw", discards="Kd 2c")
    state = grpc_client.play_table(table, ["ann", "bob", "cat"], deal.history, cards=hands, stub=left)
    assert state == whole(deal)

    async def main():
        async with AsyncClient(grpc_server.target, timeout=30) as client:
            return await client.play_table(table, ["ann", "bob", "cat"], deal.history, cards=hands, stub=left)

    assert asyncio.run(main()) == state
    with pytest.raises(prial.InvalidHandError) as bad:
        grpc_client.play_table(table, ["ann", "bob", "cat"], cards=hands, stub="Zz")
    assert bad.value.field == "stub"
    with pytest.raises(PrialRpcError) as refused_:
        grpc_client.play_table(table, ["ann", "bob", "cat"], cards=hands, stub="As")
    assert refused_.value.code == grpc.StatusCode.INVALID_ARGUMENT and "dealt already" in refused_.value.message
