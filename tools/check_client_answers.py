"""Checks what a client of prial.v1 in another language (examples/clients/)
got from the server against the Python API's answers to the same requests.

The client prints one JSON document: for each call, the request it made
(in plain values) and the answer it read from the response (or, for the bad
request, the status and the BadRequest it decoded).  Every call must be
there and every answer equal, strictly, to what prial computes here.

    python tools/check_client_answers.py answers.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

import prial
from prial import CrashPlayer, Player

Json = dict[str, Any]


def evaluate(request: Json) -> Json:
    hands = np.array(request["hands"], dtype=np.uint8)
    answer: Json = {"count": len(hands)}
    if hands.shape[1] == 3:
        values = [prial.evaluate(hand.tolist()) for hand in hands]
        answer["strengths"] = prial.evaluate_batch(hands).tolist()
    else:
        values = [prial.best_of(hand.tolist()) for hand in hands]
        answer["strengths"] = [value.strength for value in values]
        answer["keys"] = prial.best_of_batch(hands).tolist()
    answer["categories"] = [value.category.name for value in values]
    return {"response": answer}


def showdown(request: Json) -> Json:
    players = [Player(p["id"], p["cards"], stake=p["stake"]) for p in request["players"]]
    result = prial.showdown(players, seer=request["seer"], pot=request["pot"]).to_dict()
    answer = {key: result[key] for key in ("kind", "seer", "winners", "reason", "decided_by", "pot", "payouts")}
    answer["hands"] = [{key: hand[key] for key in ("id", "key", "category", "description")}
                       for hand in result["hands"]]
    return {"response": answer}


def partition(request: Json) -> Json:
    split = prial.partition(request["cards"], hands=request["hands"], min_category=request["min_category"])
    return {"response": {"hands": split.hands, "discards": split.discards, "strengths": split.strengths,
                         "categories": [category.name for category in split.categories],
                         "descriptions": split.descriptions, "candidates": split.candidates}}


def crash_showdown(request: Json) -> Json:
    players = [CrashPlayer(p["id"], p["hands"], p["discards"]) for p in request["players"]]
    result = prial.crash_showdown(players, scoring=request["weights"]).to_dict()
    positions = [{key: position[key] for key in ("winner", "stick_up", "reason")} for position in result["positions"]]
    return {"response": {"points": result["points"], "crash": result["crash"], "void": result["void"],
                         "positions": positions}}


def bad_request(request: Json) -> Json:
    """What the server must refuse, and how: the Python API's error, the
    server naming the request field (``cards``) and the hand."""
    try:
        prial.evaluate_batch(np.array(request["hands"], dtype=np.uint8))
    except prial.InvalidHandError as exc:
        return {"error": {"code": "INVALID_ARGUMENT", "message": str(exc),
                          "field_violations": [{"field": f"cards[{exc.row}]", "description": str(exc)}]}}
    raise SystemExit(f"the bad request {request['hands']} is valid: the check cannot test error details with it")


def play_table(request: Json) -> Json:
    """The deal the client played, replayed with prial.Deal: the state
    before each of its actions, then the end."""
    deal = prial.Deal.start(prial.TableRules(game=request["game"]), request["players"], seed=request["seed"],
                            stacks=request["stacks"])
    steps = []
    for action in request["actions"]:
        steps.append({"actions": deal.actions, "to_act": deal.to_act,
                      "legal": [legal.kind for legal in deal.legal_actions()]})
        deal = deal.act(action["kind"], action.get("amount"), player=action["player"])
    if not deal.over:
        raise SystemExit(f"the client's deal is not over after its {len(request['actions'])} actions")
    result = deal.result.to_dict()
    return {"response": {"steps": steps, "actions": deal.actions, "over": True, "stake": deal.stake,
                         "pots": [pot.amount for pot in deal.pots],
                         "result": {key: result[key] for key in ("known", "winners", "payouts", "nets", "reason",
                                                                 "ending")}}}


def illegal_action(request: Json) -> Json:
    """What the server must refuse, and how: the Python API's
    IllegalActionError, its code the ErrorInfo's reason."""
    deal = prial.Deal.start(prial.TableRules(game=request["game"]), request["players"], seed=request["seed"])
    action = request["action"]
    try:
        deal.act(action["kind"], action.get("amount"), player=action["player"])
    except prial.IllegalActionError as exc:
        return {"error": {"code": "FAILED_PRECONDITION", "message": str(exc), "reason": exc.code, "domain": "prial",
                          "metadata": {"action_index": "0", "player": action["player"], "kind": action["kind"]}}}
    raise SystemExit(f"the illegal action {action} is legal: the check cannot test error details with it")


CALLS: dict[str, Callable[[Json], Json]] = {
    "evaluate_three": evaluate,
    "evaluate_five": evaluate,
    "showdown": showdown,
    "partition": partition,
    "crash_showdown": crash_showdown,
    "bad_request": bad_request,
    "play_table": play_table,
    "illegal_action": illegal_action,
}

# The card counts the Evaluate calls must cover: bytes of three-card hands,
# and of five-card hands ranked by their best three.
WIDTHS = {"evaluate_three": 3, "evaluate_five": 5}


def problems(answers: Json) -> list[str]:
    """Every way the client's answers differ from the Python API's."""
    found = [f"{name}: missing" for name in CALLS if name not in answers]
    found += [f"{name}: not a call this check knows" for name in answers if name not in CALLS]
    for name, compute in CALLS.items():
        if name not in answers:
            continue
        got = dict(answers[name])
        request = got.pop("request")
        want = compute(request)
        if got != want:
            found.append(f"{name}: the client got {json.dumps(got)}\n  the Python API says {json.dumps(want)}")
    for name, width in WIDTHS.items():
        if name in answers and {len(hand) for hand in answers[name]["request"]["hands"]} != {width}:
            found.append(f"{name}: its hands are not all of {width} cards")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("answers", help="the client's JSON document ('-': standard input)")
    args = parser.parse_args(argv)
    with (sys.stdin if args.answers == "-" else open(args.answers)) as source:
        answers = json.load(source)
    found = problems(answers)
    for line in found:
        print(f"check_client_answers: {line}", file=sys.stderr)
    if found:
        return 1
    print(f"the client's answers to {len(CALLS)} calls ({', '.join(CALLS)}) equal the Python API's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
