"""tools/check_client_answers.py, which CI trusts with the answers of the
clients in other languages, stays strict: it finds a wrong, missing or
extra answer, not only agreement."""

from __future__ import annotations

import copy
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "check_client_answers.py"

REQUESTS = {
    "evaluate_three": {"hands": [[51, 50, 49], [0, 5, 46], [0, 4, 8]]},
    "evaluate_five": {"hands": [[51, 50, 49, 48, 0], [3, 7, 11, 15, 19]]},
    "showdown": {"players": [{"id": "x", "cards": "7s 7h Qc", "stake": 3},
                             {"id": "y", "cards": "As Kd 2h", "stake": 3}], "seer": None, "pot": 0},
    "partition": {"cards": "As Ah 9d 6c 2s Kh 4d", "hands": 2, "min_category": "PAIR"},
    "crash_showdown": {"players": [{"id": "a", "hands": ["As Ad Ah", "Ks Qs Js", "9h 9d 4c", "7c 7d 2s"],
                                    "discards": "3h"},
                                   {"id": "b", "hands": ["Kh Kd Kc", "Qh Jh Th", "9s 9c 5d", "6s 5s 2h"],
                                    "discards": "3c"}],
                       "weights": [1, 1, 1, 1]},
    "bad_request": {"hands": [[0, 1, 2], [9, 9, 9]]},
    "play_table": {"game": "brag", "players": ["ann", "bob", "cat"], "seed": 7, "stacks": [20, 20, 20],
                   "actions": [{"player": "bob", "kind": "stake", "amount": 1}, {"player": "cat", "kind": "fold"},
                               {"player": "ann", "kind": "fold"}]},
    "illegal_action": {"game": "brag", "players": ["ann", "bob", "cat"], "seed": 7,
                       "action": {"player": "cat", "kind": "stake", "amount": 1}},
}


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_client_answers", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def answers(tool) -> dict:
    return {name: {"request": request, **tool.CALLS[name](request)} for name, request in REQUESTS.items()}


def test_agreeing_answers_pass(tool, answers, tmp_path):
    assert tool.problems(answers) == []
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(answers))
    done = subprocess.run([sys.executable, str(TOOL), str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "answers to 8 calls" in done.stdout


def test_the_expected_answers_are_the_api_s(answers):
    assert answers["evaluate_three"]["response"]["categories"] == ["PRIAL", "HIGH_CARD", "RUNNING_FLUSH"]
    assert answers["showdown"]["response"]["winners"] == ["x"]
    assert answers["bad_request"]["error"]["field_violations"][0]["field"] == "cards[1]"
    assert answers["play_table"]["response"]["result"]["winners"] == ["bob"]
    assert [step["to_act"] for step in answers["play_table"]["response"]["steps"]] == ["bob", "cat", "ann"]
    assert answers["illegal_action"]["error"]["reason"] == "not_your_turn"


def test_a_deal_the_client_left_unfinished_is_refused(tool):
    request = copy.deepcopy(REQUESTS["play_table"])
    request["actions"].pop()
    with pytest.raises(SystemExit, match="not over"):
        tool.CALLS["play_table"](request)


@pytest.mark.parametrize("change, says", [
    (lambda a: a["evaluate_three"]["response"]["strengths"].__setitem__(0, 1), "evaluate_three: the client got"),
    (lambda a: a["evaluate_five"]["response"].pop("keys"), "evaluate_five: the client got"),
    (lambda a: a["showdown"]["response"].__setitem__("extra", 1), "showdown: the client got"),
    (lambda a: a["partition"]["response"]["discards"].reverse(), "partition: the client got"),
    (lambda a: a["crash_showdown"]["response"].__setitem__("void", True), "crash_showdown: the client got"),
    (lambda a: a["bad_request"]["error"]["field_violations"].clear(), "bad_request: the client got"),
    (lambda a: a["play_table"]["response"]["steps"][1]["legal"].pop(), "play_table: the client got"),
    (lambda a: a["play_table"]["response"]["result"]["payouts"].__setitem__("bob", 0), "play_table: the client got"),
    (lambda a: a["illegal_action"]["error"].__setitem__("reason", "deal_over"), "illegal_action: the client got"),
    (lambda a: a.pop("partition"), "partition: missing"),
    (lambda a: a.__setitem__("odds", {"request": {}}), "odds: not a call this check knows"),
])
def test_a_wrong_missing_or_extra_answer_is_found(tool, answers, change, says):
    changed = copy.deepcopy(answers)
    change(changed)
    assert any(line.startswith(says) for line in tool.problems(changed)), tool.problems(changed)


def test_the_calls_must_cover_three_and_five_card_bytes(tool, answers):
    three = REQUESTS["evaluate_three"]
    answers["evaluate_five"] = {"request": three, **tool.CALLS["evaluate_five"](three)}
    assert tool.problems(answers) == ["evaluate_five: its hands are not all of 5 cards"]
