"""retain_blind="face_up": the hand dealt beside a kept blind hand lies face
up, every view shows it, and every other player who has looked must beat
it or fold (docs/rules.md, "Retained blind hands and the next deal")."""

from __future__ import annotations

import json

import grpc
import pytest

import prial
from prial.cli import main
from prial.client import PrialRpcError

TABLE = prial.TableRules(retain_blind="face_up")
PLAYERS = ["a", "b", "c"]
FACE_UP = "Kc Kd 2s"  # a pair of kings, dealt face up to a beside the kept prial of aces


def cards(text: str) -> tuple[int, ...]:
    return tuple(prial.parse_cards(text))


def face_up_deal(b: str = "4c 4d 4s", c: str | None = "Jc Jd 8h", table: prial.TableRules = TABLE) -> prial.Deal:
    """b and c fold to a, who is blind: the pot stays, and a keeps the aces
    beside the kings, dealt face up.  c is to act, then a, then b."""
    first = prial.Deal.start(table, PLAYERS, cards=["As Ad Ac", "2c 3d 5h", "7c 7d 9h"])
    first = first.act("fold").act("fold")
    assert first.result.ending == "pot_stays"
    return first.next(retain=True, cards=[FACE_UP, b, c])


def test_the_face_up_hand_is_in_every_view_and_shown_to_all_at_once():
    deal = face_up_deal()
    for viewer in (*PLAYERS, None):
        assert deal.view(viewer).cards["a"] == cards(FACE_UP), viewer
    shown = [e for e in deal.events if e.kind == "show"]
    assert [(e.player, e.cards, e.to) for e in shown] == [("a", cards(FACE_UP), None)]  # None: to everyone
    assert deal.to_dict()["retained"] == {"player": "a", "cards": list(cards("As Ad Ac"))}
    assert deal.seats[0].status == "blind"  # the kept hand stays blind


def test_a_looked_player_who_cannot_beat_it_may_only_fold():
    deal = face_up_deal().act("look")  # c: a pair of jacks, below the kings
    assert [a.kind for a in deal.legal_actions()] == ["fold"]
    for kind, amount in (("stake", 1), ("stake", 2), ("agree_showdown", None), ("cover", None)):
        with pytest.raises(prial.IllegalActionError) as info:
            deal.act(kind, amount)
        assert info.value.code == "must_beat_face_up", kind
    assert str(info.value).startswith("'c' cannot cover: every other player who has looked must beat the hand "
                                      "dealt face up to 'a' (Kc Kd 2s) or fold")
    assert deal.act("fold").to_act == "a"


def test_a_player_who_beats_it_plays_on_and_blind_players_are_not_held_to_it():
    deal = face_up_deal().act("stake", 1)  # c, blind, stakes as usual
    deal = deal.act("stake", 1)  # a stakes blind on the kept hand while holding both
    assert deal.seats[0].status == "blind" and deal.seats[0].blind_stakes == 1
    deal = deal.act("look")  # b: a prial of fours beats the kings
    assert {a.kind for a in deal.legal_actions()} >= {"stake", "fold", "agree_showdown"}
    assert deal.act("stake", 2).to_act == "c"


def test_a_tie_does_not_beat_it():
    deal = face_up_deal(c="Kh Ks 2c").act("look")  # the same kings and deuce
    assert [a.kind for a in deal.legal_actions()] == ["fold"]


def test_looking_at_the_kept_hand_keeps_it_or_folds_it_for_the_face_up_one():
    deal = face_up_deal().act("stake", 1).act("look")  # c stakes; a looks at the kept aces
    assert deal.view("a").cards["a"] == cards("As Ad Ac")
    assert deal.view("b").cards["a"] == cards(FACE_UP)  # still held until a chooses
    kept = deal.act("stake", 2)  # anything but a fold keeps the aces; the kings are folded
    assert "a" not in kept.view("b").cards and "a" not in kept.view(None).cards
    assert [(e.kind, e.player) for e in kept.events if e.kind == "fold_hand"] == [("fold_hand", "a")]
    assert {a.kind for a in kept.act("look").legal_actions()} >= {"stake"}  # b is no longer held to the kings
    open_ = deal.act("fold")  # the aces folded: a plays the kings open
    assert open_.to_act == "a" and open_.seats[0].status == "open"
    for viewer in (*PLAYERS, None):
        assert open_.view(viewer).cards["a"] == cards(FACE_UP)
    c_looks = open_.act("stake", 2).act("stake", 2).act("look")  # a, b (blind) stake; c looks at the jacks
    assert [x.kind for x in c_looks.legal_actions()] == ["fold"]


def test_an_unknown_hand_cannot_be_compared_and_nothing_is_refused_for_it():
    deal = face_up_deal(c=None).act("look")
    assert {a.kind for a in deal.legal_actions()} >= {"stake", "fold"}


def test_the_option_round_trips_and_a_bad_value_is_named():
    assert "retain_blind='face_up'" in repr(TABLE) and TABLE.to_dict()["retain_blind"] == "face_up"
    assert prial.TableRules.from_dict(TABLE.to_dict()) == TABLE
    assert prial.TableRules.from_dict(json.loads(json.dumps(TABLE.to_dict()))) == TABLE
    deal = face_up_deal().act("look")
    again = prial.Deal.from_json(deal.to_json())
    assert again == deal and again.table.retain_blind == "face_up" and again.legal_actions() == deal.legal_actions()
    for bad in ("yes", "FACE_UP", 1, None):
        with pytest.raises(ValueError, match=r"^retain_blind must be False, True or 'face_up'; got "):
            prial.TableRules(retain_blind=bad)


def test_the_code_is_in_the_engine_s_ordered_list():
    codes = prial.table.CODES
    assert codes.index("bad_amount") < codes.index("must_beat_face_up") < codes.index("already_open")


def test_grpc_carries_the_variation_and_refuses_with_the_code(grpc_client, grpc_server):
    deal = face_up_deal()
    setup = deal.to_dict()
    carried = {key: setup[key] for key in ("pot", "retained") if key in setup}
    state = grpc_client.play_table(TABLE, PLAYERS, ["look"], cards=setup["cards"], dealer=setup["dealer"],
                                   carried=carried)
    assert [a.kind for a in state.legal_actions] == ["fold"]
    with pytest.raises(PrialRpcError) as info:
        grpc_client.play_table(TABLE, PLAYERS, ["look"], prial.Action("stake", amount=1), cards=setup["cards"],
                               dealer=setup["dealer"], carried=carried)
    assert (info.value.code, info.value.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "must_beat_face_up")
    # A plain retain_blind table deals the second hand blind: nothing is refused.
    plain = grpc_client.play_table(prial.TableRules(retain_blind=True), PLAYERS, ["look"], cards=setup["cards"],
                                   dealer=setup["dealer"], carried=carried)
    assert "stake" in [a.kind for a in plain.legal_actions]


@pytest.mark.parametrize("rules, offered", [
    ({"retain_blind": True, "retain_blind_face_up": True}, ["fold"]),  # as the client sends it
    ({"retain_blind_face_up": True}, ["fold"]),  # alone, it means the same
    ({"retain_blind": True}, ["stake", "fold", "agree_showdown"]),  # an older client: the plain rule
])
def test_the_proto_field_sits_beside_retain_blind(grpc_server, rules, offered):
    from prial.v1 import prial_pb2 as pb
    from prial.v1 import prial_pb2_grpc as pb_grpc

    setup = face_up_deal().to_dict()
    request = pb.PlayTableRequest(
        table=pb.TableRules(**rules), players=PLAYERS, dealer=setup["dealer"],
        cards=[pb.Cards(indices=bytes(hand)) for hand in setup["cards"]], actions=[pb.TableAction(kind="look")],
        carried=pb.TableCarried(pot=setup["pot"], retained="a",
                                retained_cards=pb.Cards(indices=bytes(setup["retained"]["cards"]))))
    with grpc.insecure_channel(grpc_server.target) as channel:
        response = pb_grpc.PrialStub(channel).PlayTable(request, timeout=30)
    assert [a.kind for a in response.legal_actions] == offered


@pytest.mark.parametrize("flags, value", [
    (["--retain-blind", "face_up"], "face_up"), (["--retain-blind"], True), (["--no-retain-blind"], False), ([], False),
])
def test_the_command_line_takes_the_value_on_its_flag(flags, value, capsys):
    assert main(["table", *flags, "--players", "a,b", "--seed", "1", "--json"]) == 0
    last = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert last["deal"]["table"]["retain_blind"] == value


@pytest.mark.parametrize("flags", [["--retain-blind", "maybe"], ["--no-retain-blind=face_up"]])
def test_the_command_line_names_a_bad_value_in_one_line(flags, capsys):
    with pytest.raises(SystemExit) as exit:
        main(["table", *flags, "--players", "a,b", "--seed", "1"])
    err = capsys.readouterr().err
    assert exit.value.code == 2 and err.count("\n") == 1, err
    assert "retain-blind: " in err and "face_up" in err


def test_the_command_line_refuses_with_the_code(tmp_path, capsys):
    path = tmp_path / "deal.json"
    path.write_text(face_up_deal().to_json())
    assert main(["table", str(path), "--actions", "look; stake 1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.rstrip().endswith("(code: must_beat_face_up)"), err
