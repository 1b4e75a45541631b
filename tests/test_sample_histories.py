"""prial sample --histories: seeded hand histories any reader reads, the
same bytes from the same flags, faults planted where the answer key says
and found there by a replay, and each bad flag said in one line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import prial
from prial.cli import main
from prial.table import Fault, replay_histories, sample_histories


def sample(tmp_path, name: str, *flags: str) -> list[str]:
    return ["sample", "--histories", str(tmp_path / name), *flags]


def status_of(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # refused by the option's own type, or by argparse
        return int(exc.code or 0)


@pytest.mark.parametrize("name", ["h.jsonl", "h.jsonl.gz", "h.parquet", "h.csv"])
def test_the_same_flags_write_the_same_bytes_that_read_back(tmp_path, capsys, name):
    flags = ["--deals", "60", "--seed", "9", "--players", "3", "--fault", "see-blind:rate=0.2",
             "--fault", "mispaid-pot:rate=0.2:dealer=1", "--game", "teen_patti", "--stack", "40",
             "--policies", "random,0.5,random"]
    assert main(sample(tmp_path, name, *flags, "--key", str(tmp_path / "key.jsonl"))) == 0
    out = capsys.readouterr().out
    first, key = (tmp_path / name).read_bytes(), (tmp_path / "key.jsonl").read_bytes()
    assert main(sample(tmp_path, name, *flags, "--key", str(tmp_path / "key.jsonl"), "--overwrite")) == 0
    assert capsys.readouterr().out == out
    assert (tmp_path / name).read_bytes() == first and (tmp_path / "key.jsonl").read_bytes() == key
    histories = prial.read_histories(tmp_path / name)
    assert len(histories) == 60 and {h.table.game for h in histories} == {"teen_patti"}
    assert histories[0].stacks == (40, 40, 40)
    # the log is the one the library samples from the same arguments
    expected = sample_histories(prial.TableRules(game="teen_patti"), 60, players=3, seed=9,
                                policies=[None, 0.5, None], stack=40,
                                faults=[Fault("see-blind", 0.2), Fault("mispaid-pot", 0.2, "p1")])
    assert [h.deal_id for h in histories] == [s.record["deal_id"] for s in expected]


def test_the_answer_key_is_what_a_replay_finds(tmp_path, capsys):
    flags = ["--deals", "300", "--seed", "3", "--fault", "mispaid-pot:rate=0.1", "--fault", "wrong-winner:rate=0.1",
             "--fault", "see-blind:rate=0.1", "--fault", "short-stake:rate=0.1", "--key", str(tmp_path / "key.jsonl")]
    assert main(sample(tmp_path, "h.parquet", *flags)) == 0
    key = [json.loads(line) for line in (tmp_path / "key.jsonl").read_text().splitlines()]
    planted = sum(entry["fault"] is not None for entry in key)
    assert capsys.readouterr().out == f"{tmp_path / 'h.parquet'}: 300 deals, {planted} with a fault planted\n"
    assert {entry["fault"] for entry in key} == {None, "mispaid-pot", "wrong-winner", "see-blind", "short-stake"}
    findings = replay_histories(prial.read_histories(tmp_path / "h.parquet"))
    for entry, finding in zip(key, findings, strict=True):
        assert (finding.deal_id, finding.finding) == (entry["deal_id"], entry["finding"])
        if "code" in entry:
            assert (finding.action_index, finding.code) == (entry["action_index"], entry["code"])


def test_faults_limited_to_a_dealer_fall_on_that_seat_s_deals(tmp_path, capsys):
    flags = ["--deals", "80", "--fault", "wrong-winner:rate=1:dealer=2", "--key", str(tmp_path / "key.jsonl")]
    assert main(sample(tmp_path, "h.jsonl", *flags)) == 0
    key = [json.loads(line) for line in (tmp_path / "key.jsonl").read_text().splitlines()]
    dealers = {h.deal_id: h.dealer for h in prial.read_histories(tmp_path / "h.jsonl")}
    faulty = {entry["deal_id"] for entry in key if entry["fault"]}
    assert faulty and {dealers[d] for d in faulty} == {2}


def test_flat_parquet_and_the_table_s_options(tmp_path, capsys):
    flags = ["--deals", "20", "--flat", "--game", "five_card_brag", "--ante", "2", "--pot-limit", "--retain-blind",
             "--lowball"]
    assert main(sample(tmp_path, "h.parquet", *flags)) == 0
    [table] = {h.table for h in prial.read_histories(tmp_path / "h.parquet", flat=True)}
    assert (table.game, table.ante, table.pot_limit, table.retain_blind, table.rules.lowball) == (
        "five_card_brag", 2, True, True, True)


@pytest.mark.parametrize("flags, says, status", [
    (["--fault", "nope"], "argument --fault: fault 'nope': unknown kind 'nope' (one of mispaid-pot, wrong-winner, "
                          "see-blind, short-stake)", 2),
    (["--fault", "see-blind:rate=2"], "rate must be a number from 0 to 1", 2),
    (["--fault", "see-blind:seat=1"], "'seat=1' is not rate=R or dealer=N, each once", 2),
    (["--fault", "see-blind:dealer=4"], "--fault see-blind: dealer=4 is not a seat of the 4 players (0 to 3)", 2),
    (["--ante", "-1"], "argument --ante: must be from 0", 2),
    (["--game", "poker"], "argument --game: invalid choice: 'poker'", 2),
    (["--policies", "0.5"], "--stack or --pot-cap: a threshold policy needs stacks", 2),
    (["--policies", "0.5,0.5"], "--policies: policies gives 2 policies for 4 players", 2),
    (["--bias", "pairs"], "--bias is for a deal log (-o FILE)", 2),
    (["--dealers", "3"], "--dealers is for a deal log (-o FILE)", 2),
    (["--format", "csv", "--flat"], None, 0),
    (["--format", "jsonl", "--flat"], "the flat form is CSV or Parquet", 2),
    (["--key", "{out}"], "--histories, --key and --rules-table must each name a file of its own", 2),
])
def test_a_bad_flag_is_one_line(tmp_path, capsys, flags, says, status):
    out = str(tmp_path / "h.jsonl")
    argv = ["sample", "--histories", out, "--deals", "5", *[f.format(out=out) for f in flags]]
    assert status_of(argv) == status
    err = capsys.readouterr().err
    if says is None:
        assert err == ""
        return
    assert err.startswith("prial: error: ") and says in err and err.count("\n") == 1, err
    assert not (tmp_path / "h.jsonl").exists()


def test_flags_of_the_other_mode_are_refused(tmp_path, capsys):
    assert main(["sample", "-o", str(tmp_path / "log.csv"), "--deals", "5", "--fault", "see-blind"]) == 2
    assert "--fault is for hand histories (--histories FILE)" in capsys.readouterr().err
    assert main(["sample", "-o", str(tmp_path / "log.csv"), "--deals", "5", "--game", "teen_patti"]) == 2
    assert "--game is for hand histories" in capsys.readouterr().err
    assert main(["sample", "-o", str(tmp_path / "log.csv"), "--deals", "5", "--lowball"]) == 2
    assert "--lowball is for hand histories" in capsys.readouterr().err
    assert status_of(["sample", "--deals", "5"]) == 2
    assert "one of the arguments -o/--output --histories is required" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_an_existing_file_is_kept_without_overwrite(tmp_path, capsys):
    (tmp_path / "h.jsonl").write_text("mine\n")
    assert main(sample(tmp_path, "h.jsonl", "--deals", "5")) == 1
    assert capsys.readouterr().err == f"prial: error: {tmp_path / 'h.jsonl'} exists: --overwrite replaces it\n"
    assert (tmp_path / "h.jsonl").read_text() == "mine\n"


def test_a_threshold_policy_needs_chips_or_a_cap_to_run_out():
    """Three threshold players above their thresholds once staked against
    each other for ever: the sampler refuses them with neither stacks nor
    a pot cap, and with either every deal ends."""
    with pytest.raises(prial.InvalidHandError) as info:
        next(sample_histories(prial.TableRules(), 5, policies=[0.5] * 4))
    assert info.value.field == "stack"
    for table, stack in ((prial.TableRules(), 30), (prial.TableRules(pot_cap=40), None)):
        sampled = list(sample_histories(table, 40, policies=[0.1] * 4, stack=stack, seed=1))
        assert all(s.record.get("outcome") for s in sampled)


def test_the_names_and_the_command_load_pyarrow_only_when_used():
    script = ("import sys, prial, prial.cli\n"
              "names = dir(prial)\n"
              "prial.cli.build_parser().parse_args(['sample', '--histories', 'h.csv', '--deals', '1', '--ante', '2'])\n"
              "print(all(n in names for n in ('read_histories', 'write_histories', 'iter_history_chunks')),\n"
              "      'pyarrow' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout == "True False\n", done.stderr


def test_the_rules_written_once_are_named_by_every_record(tmp_path, capsys):
    rules = tmp_path / "rules.json"
    flags = ["--deals", "30", "--game", "teen_patti", "--ante", "3", "--rules-table", str(rules)]
    assert main(sample(tmp_path, "h.csv", *flags)) == 0
    assert main(["sample", "--histories", str(tmp_path / "inline.csv"), *flags[:-2]]) == 0
    lines = (tmp_path / "h.csv").read_text().splitlines()
    assert len(lines) == len((tmp_path / "inline.csv").read_text().splitlines())
    assert (tmp_path / "h.csv").stat().st_size < (tmp_path / "inline.csv").stat().st_size / 2
    with pytest.raises(prial.ScoreError, match="line 2: rules_ref 't0' names no rules"):
        prial.read_histories(tmp_path / "h.csv")
    tables = {"t0": prial.TableRules.from_dict(json.loads(rules.read_text())["t0"])}
    assert tables["t0"] == prial.TableRules(game="teen_patti", ante=3)
    assert prial.read_histories(tmp_path / "h.csv", tables=tables) == prial.read_histories(tmp_path / "inline.csv")
