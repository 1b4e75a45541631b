"""PlayTable across deals: the server keeps nothing, so what passes from one
deal to the next (a pot that stayed, a retained blind hand, who sits out,
the traditional pack) travels in the request.  Whole tables of several
deals played call by call equal the same tables played with prial.Deal and
Deal.next, and every bad request is INVALID_ARGUMENT naming its field."""

from __future__ import annotations

import random

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

import prial
from prial.client import PrialRpcError, TableState
from prial.v1 import prial_pb2 as pb
from prial.v1 import prial_pb2_grpc as pb_grpc

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal")


def whole(deal: prial.Deal) -> TableState:
    return TableState(deal.actions, deal.to_act, deal.over, deal.stake, deal.pots, deal.seats, deal.legal_actions(),
                      deal.events, deal.result, deal.history, deal.hands, None)


def choose(rng: random.Random, deal: prial.Deal) -> prial.Action:
    """Mostly folds, so that pots stay and blind hands are kept; else any legal action."""
    legal = deal.legal_actions()
    kinds = {a.kind for a in legal}
    if "fold" in kinds and rng.random() < 0.45:
        return prial.Action("fold")
    pick = rng.choice(legal)
    if pick.kind in ("stake", "sideshow"):
        most = pick.least * 4 if pick.most is None else min(pick.most, pick.least * 4)
        return prial.Action(pick.kind, amount=rng.randint(pick.least, most))
    if pick.kind == "discard":
        return prial.Action("discard", discards=tuple(rng.sample(deal.hands[pick.player], deal.table.discards)))
    return prial.Action(pick.kind)


def between(rng: random.Random, deal: prial.Deal, newcomers: list[str]) -> dict:
    """Deal.next's keywords for a random change of table."""
    options: dict = {}
    chips = dict(zip(deal.players, deal.stacks or ()))
    if retainer(deal) is not None and chips.get(retainer(deal)) != 0 and rng.random() < 0.8:
        options["retain"] = True
    others = [p for p in deal.players if p != retainer(deal) and chips.get(p) != 0]  # no chips: drops out
    if newcomers and rng.random() < 0.3:
        name = newcomers.pop()
        options["join"] = {name: rng.randint(5, 60)} if deal.stacks is not None else [name]
    if len(others) > 3 and rng.random() < 0.2:
        options["leave"] = [others.pop(rng.randrange(len(others)))]
    if len(others) > 3 and rng.random() < 0.2:
        options["sit_out"] = [others.pop(rng.randrange(len(others)))]
    if deal.stacks is not None and rng.random() < 0.3:
        options["stacks"] = {rng.choice(others): rng.randint(5, 60)}
    return options


def retainer(deal: prial.Deal) -> str | None:
    result = deal.result
    if result is None or result.ending != "pot_stays":
        return None
    return result.pots[-1].winners[0] if result.pots and result.pots[-1].winners else None


@pytest.mark.parametrize("seed", range(24))
def test_tables_of_several_deals_over_grpc_equal_deal_next(grpc_client, seed):
    rng = random.Random(seed)
    table = prial.TableRules(game=rng.choice(["brag", "four_card_brag", "teen_patti"]),
                             retain_blind=rng.choice([False, True, True, "face_up", "face_up"]), shuffle=rng.choice(["every_deal", "after_prial"]))
    players = list(NAMES[:rng.randint(2, 5)])
    newcomers = list(NAMES[len(players):])
    stacks = [rng.randint(10, 60) for _ in players] if rng.random() < 0.6 else None
    local = prial.Deal.start(table, players, seed=rng.getrandbits(64), stacks=stacks)
    setup = dict(players=players, seed=local.to_dict()["seed"], dealer=0, stacks=stacks)
    kept = 0
    for number in range(5):
        state = grpc_client.play_table(table, **setup)
        assert state == whole(local), f"deal {number} as it starts"
        while not local.over:
            action = choose(rng, local)
            local = local.act(action)
            state = grpc_client.play_table(table, action=action, actions=state.history, **setup)
            assert state == whole(local), f"deal {number} after {action}"
        try:
            options = between(rng, local, newcomers)
            following = local.next(**options)
        except prial.InvalidHandError as exc:  # fewer than two players left with chips
            with pytest.raises(PrialRpcError) as info:
                grpc_client.play_table(table, actions=state.history, next_deal=options, **setup)
            assert info.value.code == grpc.StatusCode.INVALID_ARGUMENT and str(exc) in str(info.value)
            assert "two players" in str(exc)
            return
        kept += bool(options.get("retain"))
        state = grpc_client.play_table(table, actions=state.history, next_deal=options, **setup)
        local = following
        assert state == whole(local)._replace(next_deal=state.next_deal)
        assert state.next_deal is not None and state.actions == 0
        setup = state.next_deal._asdict()
        assert prial.Deal.start(table, **setup) == local  # the setup rebuilds the very deal


def test_a_kept_blind_hand_and_the_pot_that_stayed_travel_in_the_request(grpc_client):
    table = prial.TableRules(retain_blind=True)
    players = ["ann", "bob", "cat"]
    deal = prial.Deal.start(table, players, seed=11)
    for action in (prial.Action("stake", amount=1), "fold", "fold"):  # bob blind, the others fold to him
        deal = deal.act(action)
    state = grpc_client.play_table(table, players, deal.history, seed=11, next_deal={"retain": True})
    setup = state.next_deal
    assert setup is not None
    assert setup.carried["pot"] == deal.pots[0].amount
    assert setup.carried["retained"] == {"player": "bob", "cards": list(deal.hands["bob"])}
    assert state.pots[0].amount == deal.pots[0].amount + len(players) * table.ante
    # without what it carries, the deal has no second hand and no pot
    bare = grpc_client.play_table(table, **{**setup._asdict(), "carried": None})
    assert bare.pots[0].amount == len(players) * table.ante
    assert bare != state


def _violation(stub, request: pb.PlayTableRequest) -> tuple[grpc.StatusCode, str, str]:
    with pytest.raises(grpc.RpcError) as info:
        stub.PlayTable(request, timeout=30)
    status = rpc_status.from_call(info.value)
    assert status is not None
    for detail in status.details:
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            return info.value.code(), bad.field_violations[0].field, info.value.details()
    raise AssertionError(f"no BadRequest in {info.value}")


@pytest.fixture(scope="module")
def stub(grpc_server):
    with grpc.insecure_channel(grpc_server.target) as channel:
        yield pb_grpc.PrialStub(channel)


FOLDED = [pb.TableAction(kind="stake", player="bob", amount=1), pb.TableAction(kind="fold", player="cat"),
          pb.TableAction(kind="fold", player="ann")]


@pytest.mark.parametrize("changes, field, words", [
    ({"next": pb.TableNext()}, "next", "not over"),
    ({"actions": FOLDED, "next": pb.TableNext(), "view": "ann"}, "next", "views"),
    ({"actions": FOLDED, "next": pb.TableNext(join=[pb.TableJoin(player="ann")])}, "next.join", "already"),
    ({"actions": FOLDED, "next": pb.TableNext(leave=["zed"])}, "next.leave", "not at the table"),
    ({"actions": FOLDED, "next": pb.TableNext(sit_out=["zed"])}, "next.sit_out", "not at the"),
    ({"actions": FOLDED, "next": pb.TableNext(seed=1, cards=[pb.Cards(text="As Ks Qs")] * 3)}, "next.seed", "not both"),
    ({"actions": FOLDED, "next": pb.TableNext(retain=True), "table": pb.TableRules()}, "next.retain", "stay"),
    ({"carried": pb.TableCarried(retained="zed")}, "carried.retained", "player at the table"),
    ({"carried": pb.TableCarried(pot=2**60)}, "carried.pot", "at most"),
    ({"carried": pb.TableCarried(sitting_out=["zed"])}, "carried.sitting_out", "players at the table"),
    ({"carried": pb.TableCarried(pack=bytes([1, 1]))}, "carried.pack", "distinct"),
])
def test_bad_carried_and_next_are_invalid_argument_naming_the_field(stub, changes, field, words):
    request = pb.PlayTableRequest(table=pb.TableRules(retain_blind=True), players=["ann", "bob", "cat"], seed=3)
    for name, value in changes.items():
        if name == "actions":
            request.actions.extend(value)
        elif name == "view":
            request.view = value
        else:
            getattr(request, name).CopyFrom(value)
    code, got_field, details = _violation(stub, request)
    assert (code, got_field) == (grpc.StatusCode.INVALID_ARGUMENT, field), details
    assert words in details


def test_bad_next_keywords_from_the_client_name_the_option(grpc_client):
    with pytest.raises(prial.InvalidHandError, match="unknown retian"):
        grpc_client.play_table(prial.TableRules(), ["ann", "bob"], seed=1, next_deal={"retian": True})
