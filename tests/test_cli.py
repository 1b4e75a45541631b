"""The command line, run as a user runs it."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest


def prial_cli(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "prial", *args], capture_output=True, text=True, check=check)


def test_rank_prints_strength_category_description():
    out = prial_cli("rank", "3s 2h Ah", "9s 9d 3c").stdout
    assert "716" in out and "RUN" in out and "Run, 3-2-A" in out
    assert "Pair of nines, three kicker" in out


def test_rank_json_and_rules():
    data = json.loads(prial_cli("rank", "--rules", "teen_patti", "--json", "Ah Kd Qc", "3s 2h Ah").stdout)
    assert data[0]["strength"] > data[1]["strength"]
    assert data[1]["description"] == "Run, 3-2-A"


def test_rank_bad_hand_is_a_clear_error():
    result = prial_cli("rank", "3s 3s Ah", check=False)
    assert result.returncode == 2
    assert "duplicate card 3s" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", [[], ["rank"], ["bench"]])
def test_help_everywhere(command):
    out = prial_cli(*command, "--help").stdout
    assert "usage: prial" in out


@pytest.mark.slow
def test_bench_json_reports_baseline_ratio():
    data = json.loads(prial_cli("bench", "--hands", "20000", "--scalar-hands", "2000", "--repeat", "1", "--table-deals", "20",
                                "--json").stdout)
    by_name = {f["name"]: f for f in data["figures"]}
    batch = by_name["evaluate_batch, 1 thread"]
    assert batch["ratio_to_baseline"] > 0 and batch["items"] == 20000
    baseline = by_name[batch["baseline"]]
    assert baseline["name"].startswith("numpy") and baseline["section"] == batch["section"]
    assert batch["ratio_to_baseline"] == pytest.approx(baseline["seconds"] / batch["seconds"])


@pytest.mark.slow
def test_bench_json_states_each_fused_kernel_against_its_one_hand_call():
    data = json.loads(prial_cli("bench", "--hands", "20000", "--scalar-hands", "2000", "--deals", "4", "--repeat", "1",
                                "--json").stdout)
    by_name = {f["name"]: f for f in data["figures"]}
    stated = {
        "best_of_batch 4 cards, 1 thread": "evaluate_batch, 1 thread",
        "best_of_batch 5 cards, 1 thread": "evaluate_batch, 1 thread",
        "3 cards: showdown_batch, 1 thread": "evaluate_batch, 1 thread",
        "4 cards: showdown_batch, 1 thread": "best_of_batch 4 cards, 1 thread",
        "5 cards: showdown_batch, 1 thread": "best_of_batch 5 cards, 1 thread",
    }
    for name, against in stated.items():
        f = by_name[name]
        assert f["rate_of"] == against
        assert f["rate_ratio"] == pytest.approx(f["rate"] / by_name[against]["rate"])
        assert f["ratio_to_baseline"] > 0  # still against its numpy composition too
    floors = {f["name"] for f in data["figures"] if f["name"].startswith("streaming floor, ")}
    kernels = {f["name"] for f in data["figures"] if f["name"].startswith("evaluate_batch, 1 thread")}
    assert {f["name"] for f in data["figures"] if f["rate_ratio"] is not None} == set(stated) | kernels
    assert {by_name[k]["rate_of"] for k in kernels} == floors


@pytest.mark.slow
def test_bench_json_times_the_betting_table_against_pokerkit_where_installed():
    data = json.loads(prial_cli("bench", "--hands", "2000", "--scalar-hands", "200", "--deals", "4", "--repeat", "2",
                                "--table-deals", "40", "--json").stdout)
    table = [f for f in data["figures"] if f["section"].startswith("The betting table")]
    names = [f["name"] for f in table]
    has_pokerkit = importlib.util.find_spec("pokerkit") is not None
    assert names == ["PokerKit, no-limit hold'em (baseline)"] * has_pokerkit + [
        "prial.Deal, Python API", "native self-play, 1 thread", "native replay, 1 thread"]
    for f in table:
        assert f["unit"] == "actions" and f["items"] > 0 and f["rate"] == pytest.approx(f["items"] / f["seconds"])
        if f["name"].startswith("PokerKit") or not has_pokerkit:
            assert f["baseline"] is None and f["ratio_to_baseline"] is None
        else:
            assert f["ratio_to_baseline"] == pytest.approx(f["rate"] / table[0]["rate"])
    python, native, replay = table[-3:]
    # 40 random six-handed deals take at least one action a player each... and the
    # replay plays the Python deals' actions back, repeated to about 200,000 deals
    assert python["items"] >= 40 * 2 and replay["items"] % python["items"] == 0
    assert native["items"] >= 4000 * 2


@pytest.mark.slow
def test_bench_json_states_each_kernel_level_against_its_own_streaming_floor():
    data = json.loads(prial_cli("bench", "--hands", "20000", "--scalar-hands", "2000", "--deals", "4", "--repeat", "1",
                                "--json").stdout)
    by_name = {f["name"]: f for f in data["figures"]}
    floors = [f for f in data["figures"] if f["name"].startswith("streaming floor, ")]
    levels = [f["name"].removeprefix("streaming floor, ") for f in floors]
    # every level this CPU has, lowest first, and the level in use among them
    assert levels[0] == "scalar" and data["simd_level"] in levels
    assert levels == ["scalar", "avx2", "avx512"][: len(levels)]
    for f in floors:
        assert f["items"] == 20000 and f["section"] == by_name["evaluate_batch, 1 thread"]["section"]
        assert f["ratio_to_baseline"] > 0 and f["rate_ratio"] is None
    for level in levels:
        kernel = ("evaluate_batch, 1 thread" if level == data["simd_level"]
                  else f"evaluate_batch, 1 thread, {level} kernel")
        f = by_name[kernel]
        assert f["rate_of"] == f"streaming floor, {level}"
        assert f["rate_ratio"] == pytest.approx(f["rate"] / by_name[f["rate_of"]]["rate"])
