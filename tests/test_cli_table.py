"""``prial table``: a deal replayed from a deal file and from flags gives
the states and the result the Python API gives, --json included; every
kind of bad input is one line and exit 2 (an illegal action with its
code); a whole deal played by hand against the bots, through stdin and
through a terminal."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import re
import select
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

import prial
from prial.cli import main

README_CARDS = ["As Ad 2c", "Kh Qh Jh", "7c 5d 3s"]
README_ACTIONS = "stake 2; look; stake 4; fold; see 4"


def run(capsys, argv: list[str], code: int = 0) -> str:
    assert main(["table", *argv]) == code, capsys.readouterr().err
    return capsys.readouterr().out


def json_lines(capsys, argv: list[str]) -> list[dict]:
    return [json.loads(line) for line in run(capsys, [*argv, "--json"]).splitlines()]


def one_error(capsys, argv: list[str]) -> str:
    assert main(["table", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and captured.err.startswith("prial: error: "), captured.err
    assert "Traceback" not in captured.err
    return captured.err


def readme_deal() -> prial.Deal:
    deal = prial.Deal.start(prial.TableRules(), ["ann", "bob", "cat"], cards=README_CARDS)
    return deal.act("stake", 2).act("look").act("stake", 4).act("fold").act("see", 4)


def action_words(action: prial.Action) -> str:
    """An action as --action takes it."""
    words = [f"{action.player}: {action.kind}"]
    if action.kind in ("stake", "sideshow"):
        words.append(str(action.amount))
    if action.discards:
        words.append(prial.format_cards(list(action.discards)))
    return " ".join(words)


def played_deal(table: prial.TableRules, stacks: list[int] | None, seed: int, limit: int = 40) -> prial.Deal:
    """A seeded deal played by the API: look, discard the first cards, then
    the least stake (a see once it is allowed), to the end."""
    deal = prial.Deal.start(table, ["ann", "bob", "cat", "dan"], seed=seed, dealer=1, stacks=stacks)
    for turn in range(limit):
        if deal.over:
            break
        legal = {a.kind: a for a in deal.legal_actions()}
        if "discard" in legal:
            held = deal.view(deal.to_act).cards[deal.to_act]
            deal = deal.act("discard", discards=held[:table.discards])
        elif "look" in legal and turn % 3 == 0:
            deal = deal.act("look")
        elif "see" in legal:
            deal = deal.act("see")
        elif "stake" in legal and turn < limit - 10:
            stake = legal["stake"]
            deal = deal.act("stake", min(stake.least + turn % 2, stake.most or stake.least + 1))
        elif "cover" in legal:
            deal = deal.act("cover")
        else:
            deal = deal.act("fold")
    assert deal.over
    return deal


def states_of(deal: prial.Deal) -> list[prial.Deal]:
    """Every state of a deal, the start first, by the API."""
    data = deal.to_dict()
    states = [prial.Deal.from_dict({**data, "actions": []})]
    for action in data["actions"]:
        states.append(states[-1].act(action["kind"], action.get("amount"), action.get("discards"),
                                     player=action["player"]))
    return states


def check_against_api(lines: list[dict], deal: prial.Deal) -> None:
    states = states_of(deal)
    assert len(lines) == len(states) + 1
    for i, (line, state) in enumerate(zip(lines, states)):
        assert line["state"] == i
        assert (line["to_act"], line["over"], line["stake"]) == (state.to_act, state.over, state.stake)
        assert line["pots"] == [{"amount": p.amount, "coverer": p.coverer} for p in state.pots]
        assert line["seats"] == [s._asdict() for s in state.seats]
        assert line["legal"] == [{"kind": a.kind, "amount": a.amount, "least": a.least, "most": a.most}
                                 for a in state.legal_actions()]
        if i:
            last = state.history[-1]
            assert (line["after"]["player"], line["after"]["kind"]) == (last.player, last.kind)
    end = lines[-1]
    assert end["result"] == deal.result.to_dict()
    assert prial.Deal.from_dict(end["deal"]) == deal
    assert end["shown"] == {name: list(cards) for name, cards in deal.view(None).cards.items()}


def test_flags_replay_the_readme_deal_as_the_api_plays_it(capsys):
    deal = readme_deal()
    lines = json_lines(capsys, ["--players", "ann,bob,cat", "--cards", *README_CARDS, "--actions", README_ACTIONS])
    check_against_api(lines, deal)
    assert lines[-1]["result"]["payouts"] == {"ann": 0, "bob": 13, "cat": 0}


def test_a_deal_file_replays_as_the_flags_do(tmp_path, capsys, monkeypatch):
    deal = readme_deal()
    path = tmp_path / "deal.json"
    path.write_text(deal.to_json())
    by_flags = ["--players", "ann,bob,cat", "--cards", *README_CARDS, "--actions", README_ACTIONS]
    text = run(capsys, by_flags)
    assert run(capsys, [str(path)]) == text
    assert "result: 'bob' wins the pot of 13 at a see ('bob' saw and won)" in text
    check_against_api(json_lines(capsys, [str(path)]), deal)
    monkeypatch.setattr(sys, "stdin", io.StringIO(deal.to_json()))
    check_against_api(json_lines(capsys, ["-"]), deal)


def test_actions_continue_a_deal_file(tmp_path, capsys):
    start = prial.Deal.start(prial.TableRules(), ["ann", "bob", "cat"], cards=README_CARDS).act("stake", 2)
    path = tmp_path / "deal.json"
    path.write_text(start.to_json())
    lines = json_lines(capsys, [str(path), "--action", "cat: look", "--actions", "stake 4; fold", "--action", "see"])
    check_against_api(lines, readme_deal())


@pytest.mark.parametrize("options, table, stacks, seed", [
    (["--pot-limit"], {"pot_limit": True}, "12", 1),
    (["--game", "four_card_brag", "--max-stake", "3"], {"game": "four_card_brag", "max_stake": 3}, "20,9,30,5", 2),
    (["--game", "five_card_brag", "--raise-limit", "2", "--no-agreed-showdown"],
     {"game": "five_card_brag", "raise_limit": 2, "agreed_showdown": False}, None, 3),
    (["--game", "teen_patti", "--ante", "2", "--blind-turns", "2", "--pot-cap", "60"],
     {"game": "teen_patti", "ante": 2, "blind_turns": 2, "pot_cap": 60}, "40", 4),
    (["--game", "teen_patti", "--raise-limit", "double", "--no-sideshow", "--see-cost", "2", "--cover"],
     {"game": "teen_patti", "raise_limit": "double", "sideshow": False, "see_cost": 2, "cover": True}, "15", 5),
    (["--rules", "teen_patti", "--wild", "deuces", "--min-stake", "2"],
     {"rules": prial.Rules(preset="teen_patti", wild="deuces"), "min_stake": 2}, "25", 6),
], ids=lambda value: " ".join(value) if isinstance(value, list) else None)
def test_seeded_deals_with_options_replay_as_the_api_plays_them(options, table, stacks, seed, capsys):
    table = prial.TableRules(**table)
    chips = None if stacks is None else [int(s) for s in stacks.split(",")] * (1 if "," in stacks else 4)
    deal = played_deal(table, chips, seed)
    actions = [action_words(a) for a in deal.history]
    setup = ["--players", "ann,bob,cat,dan", "--seed", str(seed), "--dealer", "bob",
             *(["--stacks", stacks] if stacks else [])]
    lines = json_lines(capsys, [*options, *setup, *[f"--action={a}" for a in actions]])
    check_against_api(lines, deal)
    assert prial.TableRules.from_dict(lines[-1]["deal"]["table"]) == table


def test_every_table_option_is_a_flag_with_its_own_help(capsys):
    with pytest.raises(SystemExit):
        main(["table", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    options = [f.name for f in dataclasses.fields(prial.TableRules) if f.init and f.name != "rules"]
    assert len(options) >= 12
    for name in options:
        assert re.search(rf"--{name.replace('_', '-')}\b", text), name
    assert "see docs/rules.md" not in text  # every option is explained where it is offered
    for game in ("brag", "four_card_brag", "five_card_brag", "teen_patti"):
        assert game in text


def test_the_text_replay_shows_states_legal_actions_and_the_result(capsys):
    out = run(capsys, ["--players", "ann,bob,cat", "--cards", *README_CARDS, "--stacks", "10,3,10",
                       "--actions", "stake; look"])
    assert out.startswith("brag, ante 1, dealer ann: ann, bob, cat\n")
    assert "bob to act, stake 1, pot 3\nplayer  status  stack  put in\n" in out
    assert "may: look, stake 1 to 2, fold, agree_showdown" in out  # bob's stack of 2 bounds his stake
    assert "bob: stake 1\ncat to act, stake 1, pot 4" in out  # 'stake' alone is the least
    assert out.rstrip().endswith("cat     open        9       1\nmay: stake 1 to 9, fold, agree_showdown")
    assert "result:" not in out


BAD_INPUT = [
    (["--players", "ann,bob", "--game", "poker"], "argument --game: invalid choice: 'poker'"),
    (["--players", "ann,bob", "--raise-limit", "triple"], "argument --raise-limit: expected a number of chips"),
    (["--players", "ann,bob", "--ante", "-1"], "argument --ante: must be from 0"),
    (["--players", "ann,bob", "--sideshow=yes"], "ignored explicit argument 'yes'"),
    (["--players", "ann,bob", "--min-stake", "0"], "--min-stake: min_stake must be a whole number of chips from 1"),
    (["--players", "ann,bob", "--wild", "sevens"], "wild must be a preset"),
    (["--players", "ann,bob", "--threshold", "2"], "argument --threshold: expected a share from 0 to 1"),
    (["--players", "ann,ann"], "--players: player id 'ann' is at the table twice"),
    (["--players", "ann"], "--players: a deal of 3-card hands from a pack of 52 cards takes 2 to 17 players"),
    (["--players", "ann,bob", "--cards", "As Ad", "Kh Kd Ks"], "--cards: seat 0 holds 2 cards"),
    (["--players", "ann,bob", "--cards", "As Ad Ac"], "--cards: cards gives 1 hands for 2 players"),
    (["--players", "ann,bob", "--cards", "As Ad Xc", "Kh Kd Ks"], "'Xc'"),
    (["--players", "ann,bob", "--dealer", "zed"], "--dealer 'zed': not a player (ann, bob)"),
    (["--players", "ann,bob", "--stacks", "1,2,3"], "--stacks gives 3 stacks for 2 players"),
    (["--players", "ann,bob", "--stacks", "lots"], "--stacks 'lots': expected a whole number"),
    (["--seed", "1"], "give the players (--players ann,bob,cat) or a deal file"),
    (["--players", "ann,bob", "--action", "stake x"], "action 1 ('stake x'): the amount must be a whole number"),
    (["--players", "ann,bob", "--action", "fold 2"], "action 1 ('fold 2'): fold takes no amount"),
    (["--players", "ann,bob", "--action", ": look"], "action 1 (': look'): no player before the ':'"),
]

ILLEGAL = [
    ("stake 1; see", "action 2 ('see'): 'cat' cannot see", "see_needs_two"),
    ("zed: fold", "action 1 ('zed: fold'): 'zed' cannot fold: the player is not at the table", "unknown_player"),
    ("cat: look", "action 1 ('cat: look'): 'cat' cannot look", "not_your_turn"),
    ("flip", "action 1 ('flip'): 'bob' cannot 'flip'", "unknown_action"),
    ("look; look", "action 2 ('look')", "already_open"),
    ("stake 1; stake 1; fold; stake 0", "action 4 ('stake 0')", "stake_below_least"),
    ("look; stake 2; see", "action 3 ('see')", "see_needs_two"),
]


@pytest.mark.parametrize("argv, says", BAD_INPUT, ids=[" ".join(a) for a, _ in BAD_INPUT])
def test_bad_input_is_one_line_and_exit_2(argv, says, capsys):
    try:
        err = one_error(capsys, argv)
    except SystemExit as exit:  # argparse's own refusals
        assert exit.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
    assert says in err, err


@pytest.mark.parametrize("actions, says, code", ILLEGAL, ids=[a for a, _, _ in ILLEGAL])
def test_an_illegal_action_names_itself_and_its_code(actions, says, code, capsys):
    err = one_error(capsys, ["--players", "ann,bob,cat", "--seed", "9", "--actions", actions])
    assert says in err and err.rstrip().endswith(f"(code: {code})"), err


def test_an_illegal_action_in_a_deal_file_is_named_with_the_file(tmp_path, capsys):
    data = readme_deal().to_dict()
    data["actions"][3] = {"player": "ann", "kind": "see"}
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(data))
    err = one_error(capsys, [str(path)])
    assert f"{path}: action 4: 'ann' cannot see" in err and "(code: see_needs_two)" in err
    assert capsys.readouterr().out == ""  # nothing printed before the refusal


@pytest.mark.parametrize("text, says", [
    ("{\"format\": ", "not a deal: not JSON"),
    ("[1, 2]", "not a deal: the format must be 'prial.deal'"),
    ("{\"format\": \"prial.deal\", \"version\": 7}", "deal format version 7 is not supported"),
    ("{\"format\": \"prial.deal\", \"version\": 1, \"players\": [\"a\", \"b\"], \"table\": {\"game\": \"chess\"}}",
     "game must be one of brag"),
    ("{\"format\": \"prial.deal\", \"version\": 1, \"players\": [\"a\", \"b\"], \"table\": {\"tip\": 1}}",
     "unknown table option 'tip'"),
    ("{\"format\": \"prial.deal\", \"version\": 1, \"players\": [\"a\", \"b\"], \"table\": {}, \"seed\": 1, "
     "\"actions\": [\"fold\"]}", "action 1 must be an object with a kind"),
    ("{\"format\": \"prial.deal\", \"version\": 1, \"players\": [\"a\", \"b\"], \"table\": {}, \"seed\": 1, "
     "\"actions\": {}}", "actions must be a list"),
])
def test_a_malformed_deal_file_is_one_line_and_exit_2(text, says, tmp_path, capsys, monkeypatch):
    path = tmp_path / "deal.json"
    path.write_text(text)
    assert says in one_error(capsys, [str(path)])
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert f"stdin: {says}" in one_error(capsys, ["-"])


def test_a_deal_file_and_setup_flags_do_not_mix(tmp_path, capsys):
    path = tmp_path / "deal.json"
    path.write_text(readme_deal().to_json())
    assert "--game: the deal file sets the table" in one_error(capsys, [str(path), "--game", "teen_patti"])
    assert "--seed: the deal file sets" in one_error(capsys, [str(path), "--seed", "3"])


def test_a_missing_deal_file_is_a_run_time_failure(tmp_path, capsys):
    assert main(["table", str(tmp_path / "none.json")]) == 1
    assert "none.json: No such file or directory" in capsys.readouterr().err


# ---- played by hand ----------------------------------------------------------

PROMPT = "your move> "


def prial_command(*argv: str) -> list[str]:
    return [sys.executable, "-m", "prial", "table", *argv]


def actions_in(output: str, players: tuple[str, ...]) -> list[str]:
    return [line for line in output.splitlines() if line.split(":")[0] in players and ": " in line]


def test_a_whole_deal_played_through_stdin_replays_to_the_same_result():
    players = ("ann", "you", "bob", "cat")
    moves = "help\nsee\nstake 1x\nlook\n" + "stake\n" * 4 + "fold\n"
    done = subprocess.run(prial_command("--play", "--players", ",".join(players), "--seed", "11"),
                          input=moves, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert done.stderr == ""
    assert f"{PROMPT}help\ntype an action:" in out
    assert "not allowed: 'you' cannot see: a see needs exactly two players in (code: see_needs_two)" in out
    assert "not understood: the amount must be a whole number of chips, not '1x'" in out
    assert "you: look" in out and "result: " in out
    # The deal played is the one a replay of its printed actions gives.
    actions = actions_in(out, players)
    assert any(a.startswith(("ann:", "bob:", "cat:")) for a in actions)
    replay = subprocess.run(prial_command("--players", ",".join(players), "--seed", "11", "--json",
                                          *[f"--action={a}" for a in actions]),
                            capture_output=True, text=True, timeout=60)
    assert replay.returncode == 0, replay.stderr
    result = json.loads(replay.stdout.splitlines()[-1])["result"]
    assert f"result: {result['reason']}" in out


def test_bots_look_then_play_strong_hands_and_fold_weak_ones():
    # ann holds a prial, bob the weakest hand: ann looks and stakes the least, bob looks and folds.
    done = subprocess.run(prial_command("--play", "--players", "you,ann,bob", "--cards", "Kh Qh Jh", "7s 7d 7c",
                                        "5c 3d 2s", "--threshold", "0.5"),
                          input="look\nstake\nfold\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert actions_in(done.stdout, ("you", "ann", "bob"))[:4] == ["ann: look", "ann: stake 1", "bob: look",
                                                                  "bob: fold"]
    # Two players in after a stake: ann sees rather than stakes.
    assert "ann: see 2" in done.stdout and "result: 'ann' wins the pot of" in done.stdout


def test_leaving_before_the_end_says_so_and_exits_1():
    done = subprocess.run(prial_command("--play", "--players", "you,ann,bob", "--seed", "3"),
                          input="quit\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "you left the table with the deal unfinished" in done.stdout
    done = subprocess.run(prial_command("--play", "--players", "you,ann", "--cards", "5h 3d 2c", "As Ad Ac"),
                          input="", capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stdout.endswith(f"{PROMPT}\nprial: you left the table with the deal unfinished (you to act)\n")


@pytest.mark.parametrize("argv, says", [
    (["--play", "--players", "ann,bob", "--you", "zed"], "--you 'zed': not a player at this table (ann, bob)"),
    (["--play", "--players", "you,ann", "--cards", "As Ad Ac", "-"], "the bots need their cards: ann's hand"),
    (["--play", "--json"], "--json is for replays"),
    (["--play", "-"], "--play reads your moves from stdin"),
])
def test_a_deal_that_cannot_be_played_by_hand_is_one_line_and_exit_2(argv, says, capsys):
    assert says in one_error(capsys, argv)


def read_until(fd: int, wanted: tuple[str, ...], seen: list[str], start: int, timeout: float = 30.0) -> str:
    """What the terminal has shown, once one of ``wanted`` shows after ``start``."""
    deadline = time.monotonic() + timeout
    while not any(w in "".join(seen)[start:] for w in wanted):
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"none of {wanted} on the terminal after {timeout}s: {''.join(seen)!r}"
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        seen.append(chunk.decode(errors="replace").replace("\r\n", "\n"))
    return "".join(seen)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_on_a_terminal_it_plays_without_being_asked():
    main_fd, child_fd = os.openpty()
    process = subprocess.Popen(prial_command("--players", "ann,you,bob", "--seed", "5"), stdin=child_fd,
                               stdout=child_fd, stderr=child_fd, close_fds=True)
    os.close(child_fd)
    seen: list[str] = []
    moves = iter(["look", "stake", "stake", "stake", "fold"])
    try:
        text = read_until(main_fd, (PROMPT,), seen, 0)
        while "result: " not in text:
            start = len(text)
            os.write(main_fd, (next(moves) + "\r").encode())
            text = read_until(main_fd, (PROMPT, "result: "), seen, start)
        text = read_until(main_fd, ("\nyou ",), seen, text.index("result: "))  # the result's table
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main_fd)
    assert "you play 'you' against bots" in text and "you: look" in text
    assert f"{PROMPT}look\n" in text  # the terminal's own echo: nothing printed twice


def test_the_documented_session_plays_as_shown():
    """docs/rules.md's deal played by hand, its moves fed through stdin."""
    rules = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text()
    [block] = [b for b in re.findall(r"```console\n(.*?)```", rules, flags=re.S) if "$ prial table" in b]
    command, *shown = block.splitlines()
    moves = [line[len(PROMPT):] for line in shown if line.startswith(PROMPT)]
    assert command.startswith("$ prial table ") and moves
    done = subprocess.run([*prial_command(*shlex.split(command)[3:]), "--play"], input="\n".join(moves) + "\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == shown


@pytest.mark.parametrize("argv, head", [
    (["--rules", "classic"], "brag, ranked as classic, ante 1, dealer a: a, b"),
    (["--game", "teen_patti", "--rules", "brag"], "teen_patti, ranked as brag, ante 1, dealer a: a, b"),
    ([], "brag, ante 1, dealer a: a, b"),
    (["--game", "teen_patti"], "teen_patti, ante 1, dealer a: a, b"),
])
def test_the_table_line_names_a_ranking_other_than_the_games(capsys, argv, head):
    out = run(capsys, ["--players", "a,b", "--cards", "Jc 9d Ah", "Ks Kh 7c", *argv])
    assert out.splitlines()[0] == head
