"""prial.simulate and prial simulate: policies played natively against each
other, seated in every order; figures with 95 % intervals over blocks of
deals that hold what they claim."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import prial
from prial.table import self_play


@pytest.mark.parametrize("policies, stack", [
    ([None, None], None),
    ([0.6, 0.6, None], 50),
    ([0.5, 0.5, None, 0.8], 30),
])
def test_two_identical_policies_come_out_alike_in_nine_runs_of_ten(policies, stack):
    held = 0
    for run in range(200):
        result = prial.simulate(prial.TableRules(), policies, 10_000, seed=run * 1_000_003, stack=stack, block=500)
        second = result.policies[1]
        assert second.diff_low <= second.diff_mean <= second.diff_high
        held += second.diff_low <= 0 <= second.diff_high
    # a 95 % interval: about 190 of 200; fewer than 180 would be a biased seating or interval
    assert held >= 180, held


def test_a_player_who_always_folds_loses_exactly_the_ante_when_another_is_still_in():
    table = prial.TableRules(ante=2)
    nets, _ = self_play(table, [1.0, None, None], 3_000, seed=5)  # threshold 1: no hand beats every hand
    folder = nets[:, 0]
    dealers = np.arange(len(folder)) % 3
    # deal d's dealer is seat d mod 3: seat 0 acts first or second unless it deals
    assert (folder[dealers != 0] == -2).all()
    last = folder[dealers == 0]
    # when it deals it acts last: the two before it may both have folded to it
    assert ((last == -2) | (last > 0)).all() and (last == -2).any() and (last > 0).any()
    assert (nets.sum(axis=1) == 0).all()  # no chip made or lost


def test_the_same_arguments_give_the_same_figures_and_another_seed_others():
    table = prial.TableRules(game="teen_patti")
    one = prial.simulate(table, [None, 0.7, 0.3], 20_000, seed=9, stack=40)
    assert one == prial.simulate(table, [None, 0.7, 0.3], 20_000, seed=9, stack=40)
    assert one != prial.simulate(table, [None, 0.7, 0.3], 20_000, seed=10, stack=40)
    assert one.deals == 20_000 and one.blocks == 20 and one.block == 1_000 and one.actions > 20_000
    assert [p.policy for p in one.policies] == ["random", "threshold 0.7", "threshold 0.3"]
    for p in one.policies:
        assert p.low < p.mean < p.high
    assert one.policies[0][4:] == (0.0, 0.0, 0.0)


def test_chips_are_conserved_across_the_policies():
    result = prial.simulate(prial.TableRules(), [None, 0.5, 0.9], 12_000, seed=2, stack=25)
    assert sum(p.mean for p in result.policies) == pytest.approx(0, abs=1e-9)


@pytest.mark.parametrize("call, error, words", [
    (lambda: prial.simulate(prial.TableRules(), [None], 20_000), prial.ConfigurationError, "at least two"),
    (lambda: prial.simulate(prial.TableRules(), "random", 20_000), prial.ConfigurationError, "one policy a seat"),
    (lambda: prial.simulate(prial.TableRules(), [None, 1.5], 20_000), prial.ConfigurationError, "policy 1 must be"),
    (lambda: prial.simulate(prial.TableRules(), [None, "bold"], 20_000), prial.ConfigurationError, "policy 1 must be"),
    (lambda: prial.simulate(prial.TableRules(), [None, None], 5_000), prial.ConfigurationError, "at least 10"),
    (lambda: prial.simulate(prial.TableRules(), [None, None], 20_000, block=0), prial.ConfigurationError,
     "block must be"),
    (lambda: prial.simulate(prial.TableRules(game="five_card_brag"), [None] * 11, 20_000), prial.InvalidHandError,
     "2 to 10 players"),
    (lambda: prial.simulate({"game": "brag"}, [None, None], 20_000), prial.InvalidHandError, "prial.TableRules"),
])
def test_bad_arguments_say_what_is_wrong(call, error, words):
    with pytest.raises(error, match=words):
        call()


def prial_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "prial", *args], capture_output=True, text=True, timeout=120)


def test_the_command_prints_each_policy_and_json_holds_the_same_figures():
    args = ["simulate", "--policy", "random", "--policy", "threshold:0.6", "--deals", "20000", "--seed", "4",
            "--stack", "30", "--game", "four_card_brag"]
    text = prial_cli(*args)
    assert text.returncode == 0, text.stderr
    assert "0: random" in text.stdout and "1: threshold 0.6" in text.stdout and "four_card_brag" in text.stdout
    data = json.loads(prial_cli(*args, "--json").stdout)
    want = prial.simulate(prial.TableRules(game="four_card_brag"), [None, 0.6], 20_000, seed=4, stack=30)
    assert [p["mean"] for p in data["policies"]] == [p.mean for p in want.policies]
    assert f"{want.policies[1].mean:+,.3f}" in text.stdout


@pytest.mark.parametrize("args, says", [
    (["--policy", "random", "--policy", "bold"], "argument --policy: expected random or threshold:SHARE"),
    (["--policy", "random", "--policy", "random", "--deals", "500"], "500 deals make 0 blocks"),
    (["--policy", "random"], "at least two"),
    (["--policy", "random", "--policy", "random", "--ante", "-1"], "--ante"),
])
def test_the_command_refuses_bad_input_in_one_line(args, says):
    out = prial_cli("simulate", *args)
    assert out.returncode == 2
    assert says in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr
