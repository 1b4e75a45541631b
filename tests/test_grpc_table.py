"""PlayTable over a real server: deals played call by call, each call
carrying the whole deal, equal step by step to the same deals played with
prial.Deal; every refusal with its status and ErrorInfo reason; the action
cap; views; stale submissions told by the count of actions applied."""

from __future__ import annotations

import asyncio
import random
import re
import urllib.request
from collections import Counter

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

import prial
from prial.client import AsyncClient, Client, PrialRpcError, TableState
from prial.v1 import prial_pb2 as pb
from prial.v1 import prial_pb2_grpc as pb_grpc

GAMES = ("brag", "four_card_brag", "five_card_brag", "teen_patti")
PLAYERS = ("ann", "bob", "cat", "dan", "eve", "fay")
DEALS = 300


@pytest.fixture(scope="module")
def stub(grpc_server):
    with grpc.insecure_channel(grpc_server.target) as channel:
        yield pb_grpc.PrialStub(channel)


# -- deals to play -------------------------------------------------------------


def random_setup(rng: random.Random) -> dict:
    """A table with a random mix of options, its players and how they are dealt."""
    while True:
        try:
            table = prial.TableRules(**random_options(rng))
            break
        except prial.InvalidHandError:  # options that cannot go together (a max_stake below min_stake)
            pass
    players = list(PLAYERS[:rng.randint(2, 6)])
    setup: dict = {"table": table, "players": players, "dealer": rng.randrange(len(players))}
    if rng.random() < 0.6:
        setup["stacks"] = [rng.randint(2, 60) for _ in players]
    if rng.random() < 0.3:
        pack = list(range(52))
        rng.shuffle(pack)
        size = table.cards
        setup["cards"] = [None if rng.random() < 0.15 else pack[i * size:(i + 1) * size] for i in range(len(players))]
    else:
        setup["seed"] = rng.getrandbits(64)
    return setup


def random_options(rng: random.Random) -> dict:
    options: dict = {"game": rng.choice(GAMES)}
    if rng.random() < 0.3:
        options["ante"] = rng.choice([0, 1, 2, 5])
    if rng.random() < 0.2:
        options["max_stake"] = rng.randint(2, 20)
    if rng.random() < 0.2:
        options["raise_limit"] = rng.choice([1, 3, "double"])
    options["pot_limit"] = rng.random() < 0.2
    if rng.random() < 0.2:
        options["pot_cap"] = rng.randint(10, 80)
    if rng.random() < 0.2:
        options["blind_turns"] = rng.randint(0, 3)
    if rng.random() < 0.2:
        options["see_cost"] = rng.randint(1, 3)
    for flag in ("sideshow", "agreed_showdown", "cover"):
        if rng.random() < 0.3:
            options[flag] = rng.random() < 0.5
    options["retain_blind"] = rng.random() < 0.2
    options["shuffle"] = rng.choice(["every_deal", "after_prial"])
    return options


def start(setup: dict) -> prial.Deal:
    return prial.Deal.start(setup["table"], setup["players"], cards=setup.get("cards"), seed=setup.get("seed"),
                            dealer=setup["dealer"], stacks=setup.get("stacks"))


def choose(rng: random.Random, deal: prial.Deal) -> prial.Action:
    """A legal action, a stake's amount between its least and four times that."""
    legal = rng.choice(deal.legal_actions())
    if legal.kind in ("stake", "sideshow"):
        most = legal.least * 4 if legal.most is None else min(legal.most, legal.least * 4)
        return prial.Action(legal.kind, legal.player, rng.randint(legal.least, most))
    if legal.kind == "discard":  # from the hand, or a hand not known: from the cards no known hand holds
        hand = deal.hands.get(legal.player) or sorted(set(range(52)).difference(*deal.hands.values()))
        return prial.Action("discard", legal.player, discards=tuple(rng.sample(hand, deal.table.discards)))
    return prial.Action(legal.kind, legal.player)


def whole(deal: prial.Deal) -> TableState:
    """What PlayTable answers for the whole deal, from the Python API."""
    return TableState(deal.actions, deal.to_act, deal.over, deal.stake, deal.pots, deal.seats, deal.legal_actions(),
                      deal.events, deal.result, deal.history, deal.hands, None)


def seen_by(deal: prial.Deal, player: str) -> TableState:
    """What PlayTable answers for ``player``'s view ("" a spectator)."""
    view = deal.view(player or None)
    return TableState(deal.actions, deal.to_act, deal.over, deal.stake, view.pots, view.seats, view.legal_actions,
                      (), view.result, view.history, view.cards, player)


def play(client, setup: dict, history, action=None, **options) -> TableState:
    return client.play_table(setup["table"], setup["players"], history, action, cards=setup.get("cards"),
                             seed=setup.get("seed"), dealer=setup["dealer"], stacks=setup.get("stacks"), **options)


def refusal(client, setup: dict, history, action) -> PrialRpcError:
    with pytest.raises(PrialRpcError) as info:
        play(client, setup, history, action)
    return info.value


# The action kinds of docs/rules.md, and one that is none.
KINDS = ("look", "discard", "stake", "see", "fold", "cover", "sideshow", "accept", "decline", "agree_showdown",
         "check")


def probes(deal: prial.Deal):
    """Actions the rules refuse now: every kind not offered, each stake's
    least - 1 and most + 1, a fold with an amount, and the turn of the
    player to act taken by another player."""
    legal = deal.legal_actions()
    offered = {a.kind for a in legal}
    yield from (prial.Action(kind, amount=1 if kind in ("stake", "sideshow") else None)
                for kind in KINDS if kind not in offered)
    for a in legal:
        if a.kind in ("stake", "sideshow"):
            if a.least > 1:
                yield prial.Action(a.kind, a.player, a.least - 1)
            if a.most is not None:
                yield prial.Action(a.kind, a.player, a.most + 1)
    yield prial.Action("fold", amount=1)
    other = next(p for p in deal.players if p != deal.to_act)
    yield prial.Action(legal[0].kind, other, legal[0].least if legal[0].kind == "stake" else legal[0].amount)


def python_refusal(deal: prial.Deal, action: prial.Action) -> prial.IllegalActionError:
    with pytest.raises(prial.IllegalActionError) as info:
        deal.act(action)
    return info.value


# -- a deal over gRPC is the deal in Python ---------------------------------------


@pytest.mark.slow
def test_deals_played_over_grpc_equal_the_python_deals_step_by_step(grpc_client):
    """A few hundred seeded deals across games and options, one call per
    action, the whole history sent each time: at every step the state, the
    legal actions, the events and at the end the result are Python's; on
    some deals every refusal the rules give at every step is the same over
    gRPC (code, message, where), on others every player's view is."""
    rng = random.Random(20261203)
    played: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    for number in range(DEALS):
        setup = random_setup(rng)
        try:
            deal = start(setup)
        except prial.InvalidHandError as exc:  # fewer than two players can pay the ante
            error = refusal(grpc_client, setup, [], None)
            assert error.code == grpc.StatusCode.INVALID_ARGUMENT and error.message == str(exc)
            played["not dealt"] += 1
            continue
        state = play(grpc_client, setup, [])
        while True:
            assert state == whole(deal)
            if deal.over:
                break
            if number % 10 == 0:
                for probe in probes(deal):
                    want = python_refusal(deal, probe)
                    got = refusal(grpc_client, setup, state.history, probe)
                    assert (got.code, got.message, got.reason) == \
                        (grpc.StatusCode.FAILED_PRECONDITION, str(want), want.code)
                    assert got.metadata == {"action_index": str(deal.actions), "kind": probe.kind,
                                            "player": probe.player or deal.to_act}
                    codes[want.code] += 1
            if number % 10 == 1:
                for viewer in (*deal.players, ""):
                    assert play(grpc_client, setup, state.history, view=viewer) == seen_by(deal, viewer)
            action = choose(rng, deal)
            deal = deal.act(action)
            state = play(grpc_client, setup, state.history, action)
        played[deal.result.ending] += 1
        played[setup["table"].game] += 1
        played["known" if deal.result.known else "not known"] += 1
    # The deals reached every ending and game, and the probes many rules.
    assert {"folded_out", "see", "showdown", "pot_cap", "not known", *GAMES} <= set(played), played
    assert {"not_your_turn", "unknown_action", "stake_below_least", "stake_above_most", "see_before_stake",
            "see_blind_man", "already_open", "no_sideshow", "bad_amount"} <= set(codes), codes


def test_the_async_client_plays_the_same_deal(grpc_server, grpc_client):
    setup = {"table": prial.TableRules(game="teen_patti"), "players": ["ann", "bob", "cat"], "dealer": 1,
             "seed": 7, "stacks": [40, 40, 40]}
    actions = [prial.Action("stake", amount=2), "look", prial.Action("stake", amount=4)]

    async def main() -> TableState:
        async with AsyncClient(grpc_server.target, timeout=30) as client:
            return await client.play_table(setup["table"], setup["players"], actions[:-1], actions[-1],
                                           seed=7, dealer=1, stacks=[40, 40, 40])

    assert asyncio.run(main()) == play(grpc_client, setup, actions) == whole(start(setup).act(actions[0])
                                                                              .act(actions[1]).act(actions[2]))


def test_a_deal_from_its_dict_replays_over_grpc(grpc_client):
    deal = prial.Deal.start(prial.TableRules(game="five_card_brag"), ["ann", "bob"], seed=3, stacks=[30, 30])
    deal = deal.act("stake", 2).act("look")
    deal = deal.act("discard", discards=deal.hands["ann"][:2])
    data = deal.to_dict()
    state = grpc_client.play_table(deal.table, data["players"], data["actions"], seed=data["seed"],
                                   stacks=data["stacks"])
    assert state == whole(deal)


def test_the_table_enums_name_the_games_and_shuffles():
    assert {name.removeprefix("TABLE_GAME_").lower() for name in pb.TableGame.keys()} == \
        {*GAMES, "draw_brag", "unspecified"}  # draw Brag's deals are tests/test_grpc_table_draw.py's
    assert {name.removeprefix("TABLE_SHUFFLE_").lower() for name in pb.TableShuffle.keys()} == \
        {"every_deal", "after_prial", "unspecified"}


def test_unset_table_options_take_the_game_s_defaults(stub):
    """An empty TableRules is Brag's; each game's unset options are its own."""
    for game, number in (("brag", 0), ("teen_patti", pb.TABLE_GAME_TEEN_PATTI)):
        response = stub.PlayTable(pb.PlayTableRequest(table=pb.TableRules(game=number, ante=3), players=P3, seed=4),
                                  timeout=30)
        deal = prial.Deal.start(prial.TableRules(game=game, ante=3), P3, seed=4)
        stake = next(a for a in deal.legal_actions() if a.kind == "stake")
        offered = [(a.kind, a.least if a.HasField("least") else None) for a in response.legal_actions]
        assert (response.stake, offered) == (deal.stake, [(a.kind, a.least) for a in deal.legal_actions()])
        assert stake.least == (3 if game == "teen_patti" else 1)


# -- refusals --------------------------------------------------------------------

P3 = ["ann", "bob", "cat"]


def refused(stub, request: pb.PlayTableRequest):
    """The status code, message and details (BadRequest field violations,
    ErrorInfo) a refused call ends with."""
    with pytest.raises(grpc.RpcError) as info:
        stub.PlayTable(request, timeout=30)
    status = rpc_status.from_call(info.value)
    fields, reasons = [], []
    for detail in status.details if status is not None else ():
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            fields += [v.field for v in bad.field_violations]
        elif detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            error = error_details_pb2.ErrorInfo()
            detail.Unpack(error)
            reasons.append((error.reason, error.domain, dict(error.metadata)))
    return info.value.code(), info.value.details(), fields, reasons


def action(kind: str, player: str | None = None, **fields) -> pb.TableAction:
    return pb.TableAction(kind=kind, player=player, **fields)


ILLEGAL = [  # (actions, the refused action's index, reason, player in the metadata)
    ([action("stake", "cat", amount=1)], 0, "not_your_turn", "cat"),
    ([action("stake", "bob", amount=1), action("see", "cat")], 1, "see_needs_two", "cat"),
    ([action("check")], 0, "unknown_action", "bob"),
    ([action("fold", "zed")], 0, "unknown_player", "zed"),
    ([action("fold"), action("fold"), action("fold")], 2, "deal_over", ""),
    ([action("stake", amount=1), action("look"), action("look")], 2, "already_open", "cat"),
    ([action("stake")], 0, "bad_amount", "bob"),
    ([action("stake", amount=2**60)], 0, "stake_above_most", "bob"),
    ([action("stake", amount=2**64 - 1)], 0, "stake_above_most", "bob"),
    ([action("stake", amount=0)], 0, "stake_below_least", "bob"),
    ([action("accept")], 0, "no_sideshow", "bob"),
    ([action("cover")], 0, "cover_not_allowed", "bob"),
]


@pytest.mark.parametrize(("actions", "index", "reason", "player"), ILLEGAL, ids=[case[2] for case in ILLEGAL])
@pytest.mark.parametrize("last", [False, True], ids=["in actions", "as the action"])
def test_an_illegal_action_is_failed_precondition_with_its_rule(stub, actions, index, reason, player, last):
    """Wherever the refused action is (in the history, or the next action),
    the status names the rule as Python's IllegalActionError does, and the
    ErrorInfo its code, the action's index and its player."""
    request = pb.PlayTableRequest(players=P3, seed=11, actions=actions[:-1] if last else actions)
    if last:
        request.action.CopyFrom(actions[-1])
    deal = prial.Deal.start(prial.TableRules(), P3, seed=11)
    for a in actions[:index]:
        deal = deal.act(a.kind, a.amount if a.HasField("amount") else None,
                        player=a.player if a.HasField("player") else None)
    refused_action = actions[index]
    with pytest.raises(prial.IllegalActionError) as python:
        deal.act(refused_action.kind, refused_action.amount if refused_action.HasField("amount") else None,
                 player=refused_action.player if refused_action.HasField("player") else None)
    assert python.value.code == reason
    code, message, fields, reasons = refused(stub, request)
    assert (code, message, fields) == (grpc.StatusCode.FAILED_PRECONDITION, str(python.value), [])
    assert reasons == [(reason, "prial", {"action_index": str(index), "player": player,
                                          "kind": refused_action.kind})]


def test_a_client_gets_the_reason_and_where(grpc_client):
    with pytest.raises(PrialRpcError) as info:
        grpc_client.play_table(prial.TableRules(), P3, [prial.Action("stake", "bob", 2), "look"],
                               prial.Action("see", "cat"), seed=1)
    error = info.value
    assert (error.code, error.reason, error.metadata) == \
        (grpc.StatusCode.FAILED_PRECONDITION, "see_needs_two", {"action_index": "2", "player": "cat", "kind": "see"})


BAD = [  # (request, the field its BadRequest names)
    (pb.PlayTableRequest(players=P3, seed=1, cards=[pb.Cards(text="As Ad Ah"), pb.Cards(), pb.Cards()]), "seed"),
    (pb.PlayTableRequest(players=P3), "seed"),
    (pb.PlayTableRequest(players=P3, seed=1, pack_version=2), "pack_version"),
    (pb.PlayTableRequest(players=["ann", "ann"], seed=1), "players[1]"),
    (pb.PlayTableRequest(players=["", "ann"], seed=1), "players[0]"),
    (pb.PlayTableRequest(players=["ann"], seed=1), "players"),
    (pb.PlayTableRequest(players=P3, cards=[pb.Cards(text="As Ad Ah")] * 2), "cards"),
    (pb.PlayTableRequest(players=P3, cards=[pb.Cards(indices=bytes([99, 1, 2])), pb.Cards(), pb.Cards()]), "cards"),
    (pb.PlayTableRequest(players=P3, cards=[pb.Cards(text="As Ad Ah"), pb.Cards(text="As Kd Kh"), pb.Cards()]),
     "cards[1]"),
    (pb.PlayTableRequest(players=P3, seed=1, stacks=[5, 5]), "stacks"),
    (pb.PlayTableRequest(players=P3, seed=1, stacks=[5, 5, 2**60]), "stacks"),
    (pb.PlayTableRequest(players=P3, seed=1, stacks=[0, 0, 5]), "stacks"),
    (pb.PlayTableRequest(players=P3, seed=1, dealer=3), "dealer"),
    (pb.PlayTableRequest(players=P3, seed=1, table=pb.TableRules(game=99)), "table.game"),
    (pb.PlayTableRequest(players=P3, seed=1, table=pb.TableRules(min_stake=0)), "table.min_stake"),
    (pb.PlayTableRequest(players=P3, seed=1, table=pb.TableRules(ante=2**64 - 1)), "table.ante"),
    (pb.PlayTableRequest(players=P3, seed=1, table=pb.TableRules(raise_limit_chips=0)), "table.raise_limit"),
    (pb.PlayTableRequest(players=P3, seed=1, table=pb.TableRules(raise_limit_double=False)),
     "table.raise_limit_double"),
    (pb.PlayTableRequest(players=P3, seed=1, table=pb.TableRules(see_cost=2**40)), "table.see_cost"),
    (pb.PlayTableRequest(players=P3, seed=1, table=pb.TableRules(see_cost=5000)), "table.see_cost"),
    (pb.PlayTableRequest(players=P3, seed=1, table=pb.TableRules(blind_turns=2**32 - 1)), "table.blind_turns"),
    (pb.PlayTableRequest(players=P3, seed=1, table=pb.TableRules(rules=pb.Rules(wild="xyz"))), "rules"),
    (pb.PlayTableRequest(players=P3, seed=1, view="zed"), "view"),
]


@pytest.mark.parametrize(("request_", "field"), BAD, ids=[f"{i}-{case[1]}" for i, case in enumerate(BAD)])
def test_malformed_input_is_invalid_argument_naming_the_field(stub, request_, field):
    code, _, fields, reasons = refused(stub, request_)
    assert (code, fields, reasons) == (grpc.StatusCode.INVALID_ARGUMENT, [field], [])


def test_bytes_that_are_no_request_are_invalid_argument(grpc_server):
    with grpc.insecure_channel(grpc_server.target) as channel:
        call = channel.unary_unary("/prial.v1.Prial/PlayTable")
        with pytest.raises(grpc.RpcError) as info:
            call(b"\x42\xff\xff\xff", timeout=10)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT


# -- the action cap ----------------------------------------------------------------


def long_deal(actions: int) -> list[pb.TableAction]:
    """Blind stakes of one chip round and round, with no stacks: a deal as
    long as asked, every action legal."""
    players = ["bob", "cat", "ann"]
    return [action("stake", players[i % 3], amount=1) for i in range(actions)]


@pytest.mark.parametrize("last", [False, True], ids=["all in actions", "the last as the action"])
def test_a_deal_of_10000_actions_is_played(stub, last):
    actions = long_deal(10_000)
    request = pb.PlayTableRequest(players=P3, seed=5, table=pb.TableRules(agreed_showdown=False),
                                  actions=actions[:-1] if last else actions)
    if last:
        request.action.CopyFrom(actions[-1])
    response = stub.PlayTable(request, timeout=60)
    assert (response.actions, response.to_act, response.pots[0].amount) == (10_000, "cat", 3 + 10_000)
    assert len(response.history) == 10_000


@pytest.mark.parametrize("last", [False, True], ids=["all in actions", "the last as the action"])
def test_a_deal_of_10001_actions_is_refused_unread(stub, last):
    # Actions no deal allows: were any of them read, the call would end FAILED_PRECONDITION.
    actions = [action("no such action")] * 10_001
    request = pb.PlayTableRequest(players=P3, seed=5, actions=actions[:-1] if last else actions)
    if last:
        request.action.CopyFrom(actions[-1])
    code, message, _, _ = refused(stub, request)
    assert (code, message) == (grpc.StatusCode.RESOURCE_EXHAUSTED,
                               "a deal of 10001 actions; this server plays deals of at most 10000")


def test_a_repeated_next_action_counts_once(grpc_server):
    """The next action's field sent twice is one action on the wire (proto3
    merges a singular message): 10,000 actions, not 10,001."""
    request = pb.PlayTableRequest(players=P3, seed=5, table=pb.TableRules(agreed_showdown=False),
                                  actions=long_deal(9_999))
    data = request.SerializeToString() + 2 * pb.PlayTableRequest(action=long_deal(10_000)[-1]).SerializeToString()
    with grpc.insecure_channel(grpc_server.target) as channel:
        response = pb.PlayTableResponse.FromString(channel.unary_unary("/prial.v1.Prial/PlayTable")(data, timeout=60))
    assert response.actions == 10_000


# -- views ------------------------------------------------------------------------


def test_a_view_holds_no_card_its_player_may_not_see(grpc_client):
    """Independently of Deal.view: a player sees their own hand once they
    have looked, and a hand shown to them (the show events of the whole
    deal); a spectator only the hands every player has seen.  Views carry
    no events and no other player's discards."""
    rng = random.Random(8)
    checked = Counter()
    for _ in range(60):
        setup = random_setup(rng)
        try:
            deal = start(setup)
        except prial.InvalidHandError:
            continue
        while True:
            full = play(grpc_client, setup, deal.history)
            looked = {a.player for a in full.history if a.kind == "look"}
            # A hand is shown to the players listed (None: everyone) and
            # known to its player once looked at.
            shown: dict[str, set[str]] = {}
            for e in full.events:
                if e.kind == "show":
                    shown.setdefault(e.player, {e.player} & looked).update(e.to or deal.players)
            for viewer in (*deal.players, ""):
                view = play(grpc_client, setup, deal.history, view=viewer)
                allowed = {p for p, to in shown.items() if (viewer in to if viewer else to == set(deal.players))}
                if viewer in looked:
                    allowed.add(viewer)
                assert set(view.hands) <= allowed
                # The cards of a hand shown are no more than that hand's.
                assert all(set(cards) <= set(full.hands[name]) for name, cards in view.hands.items())
                assert view.events == ()
                assert all(not a.discards for a in view.history if a.player != viewer)
                assert view.legal_actions == (full.legal_actions if viewer and viewer == deal.to_act else ())
                checked["hands seen"] += len(view.hands)
                checked["hands hidden"] += len(full.hands) - len(view.hands)
            if deal.over:
                break
            deal = deal.act(choose(rng, deal))
    assert checked["hands seen"] and checked["hands hidden"], checked


# -- stale submissions ----------------------------------------------------------------


class Backend:
    """A game backend keeping one deal as its history and count: it takes an
    answer only when its count is one more than the count it holds."""

    def __init__(self, client, setup: dict) -> None:
        self.client, self.setup = client, setup
        self.state = play(client, setup, [])

    def submit(self, based_on: TableState, action) -> bool:
        answer = play(self.client, self.setup, based_on.history, action)
        if answer.actions != self.state.actions + 1:
            return False
        self.state = answer
        return True


def test_stale_and_repeated_submissions_are_told_by_the_count(grpc_client):
    setup = {"table": prial.TableRules(), "players": P3, "dealer": 0, "seed": 99}
    backend = Backend(grpc_client, setup)
    first = backend.state
    assert first.actions == 0
    assert backend.submit(first, prial.Action("stake", "bob", 1))
    # The same click twice: the second answer is for the state already moved on.
    assert not backend.submit(first, prial.Action("stake", "bob", 1))
    assert backend.state.actions == 1
    second = backend.state
    assert backend.submit(second, prial.Action("stake", "cat", 2))
    # A submission made on an older state, by a player not to act there,
    # is not even legal; one by the player to act then is stale.
    with pytest.raises(PrialRpcError) as info:
        backend.submit(first, prial.Action("look", "cat"))
    assert info.value.reason == "not_your_turn"
    assert not backend.submit(second, prial.Action("stake", "cat", 3))
    assert backend.state.actions == 2 and backend.state.history[-1] == prial.Action("stake", "cat", 2)


# -- as every RPC: tokens, metrics, the call log ------------------------------------


def test_play_table_takes_the_service_s_token_metrics_and_log(tmp_path):
    from .grpc_helpers import ServerProcess, free_port

    tokens = tmp_path / "tokens"
    tokens.write_text("secret\n")
    metrics_port = free_port()
    with ServerProcess("--auth-token-file", str(tokens), "--metrics-port", str(metrics_port)) as server:
        with Client(server.target, timeout=30) as anonymous:
            with pytest.raises(PrialRpcError) as info:
                anonymous.play_table(prial.TableRules(), P3, seed=1)
            assert info.value.code == grpc.StatusCode.UNAUTHENTICATED
        with Client(server.target, timeout=30, token="secret") as client:
            assert client.play_table(prial.TableRules(), P3, ["look"], seed=1).actions == 1
            with pytest.raises(PrialRpcError) as info:
                client.play_table(prial.TableRules(), P3, ["look"], "look", seed=1)
            assert (info.value.code, info.value.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "already_open")
        server.wait_for_log('"method": "PlayTable", "code": "FAILED_PRECONDITION"')
        text = urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10).read().decode()
    for code in ("OK", "FAILED_PRECONDITION", "UNAUTHENTICATED"):
        assert re.search(rf'^prial_requests_total\{{code="{code}",method="PlayTable"\}} 1\.0$', text, re.M), code
