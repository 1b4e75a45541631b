"""prial table plays and replays draw Brag: its options as flags, its
actions as words, a stub given with the cards, a deal file written by
Deal.to_json replayed, and every bad input one line with exit 2."""

from __future__ import annotations

import json

import pytest

import prial
from prial.cli import main


def json_lines(capsys, argv):
    assert main(argv) in (0, None)
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]


def test_a_seeded_deal_played_by_words(capsys):
    lines = json_lines(capsys, ["table", "--game", "draw_brag", "--players", "ann,bob,cat", "--seed", "4", "--json",
                                "--actions", "ann: call; bob: call; cat: check; bob: draw; cat: draw; ann: look; "
                                             "ann: draw"])
    deal = prial.Deal.start(prial.TableRules(game="draw_brag"), ["ann", "bob", "cat"], seed=4)
    for kind in ("call", "call", "check", "draw", "draw", "look", "draw"):
        deal = deal.act(kind)
    assert lines[-1]["deal"] == json.loads(deal.to_json())


def test_cards_with_a_stub_and_the_options(capsys):
    argv = ["table", "--game", "draw_brag", "--first-bet", "2", "--no-blind-raise", "--players", "ann,bob",
            "--cards", "As Kd 2c", "Qh Qs 7d", "--stub", "Ah Ac 5s", "--json", "--actions",
            "bob: look; bob: raise; ann: call; bob: draw 7d; ann: look; ann: draw Kd 2c; bob: check; ann: check"]
    lines = json_lines(capsys, argv)
    assert lines[-1]["deal"]["stub"] == prial.parse_cards("Ah Ac 5s")
    assert lines[-1]["result"]["winners"] == ["ann"]
    table = prial.TableRules.from_dict(lines[-1]["deal"]["table"])
    assert (table.first_bet, table.blind_raise) == (2, False)


def test_a_deal_file_replays(capsys, tmp_path):
    deal = prial.Deal.start(prial.TableRules(game="draw_brag"), ["ann", "bob"], cards=["As Kd 2c", "Qh Qs 7d"],
                            stub="Ah Ac 5s")
    deal = deal.act("look").act("call").act("check").act("draw", discards="7d").act("draw")
    path = tmp_path / "deal.json"
    path.write_text(deal.to_json())
    lines = json_lines(capsys, ["table", str(path), "--json"])
    assert lines[-1]["deal"] == json.loads(deal.to_json())


@pytest.mark.parametrize(("argv", "says"), [
    (["--game", "draw_brag", "--see-cost", "3"], "--see-cost: see_cost is not an option of draw_brag"),
    (["--small-blind", "2"], "--small-blind: small_blind is an option of draw_brag only"),
    (["--game", "draw_brag", "--blind-rounds", "3"], "--blind-rounds: blind_rounds must be 1 or 2; got 3"),
    (["--game", "draw_brag", "--first-bet", "0"], "--first-bet: first_bet must be a whole number of chips from 1"),
    (["--game", "draw_brag", "--cards", "As Kd 2c", "Qh Qs 7d", "--stub", "Ah As"], "--stub: card 2 left for the "
                                                                                      "draw (As) is dealt already"),
    (["--cards", "As Kd 2c", "Qh Qs 7d", "--stub", "Ah"], "--stub: only draw Brag deals cards for a draw"),
    (["--game", "draw_brag", "--seed", "1", "--actions", "bob: draw Zz"], "unknown rank 'Z'"),
    (["--game", "draw_brag", "--seed", "1", "--actions", "bob: check"], "code: check_facing_bet"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, says):
    assert main(["table", "--players", "ann,bob", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and "\n" not in err and "Traceback" not in err
