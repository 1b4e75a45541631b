"""The four worked examples of the SPEC's section 8 (pagat's Three Card
Brag) played on prial's table action by action: who is to act, every least
stake, every see's price, who may and may not see whom, and the chips."""

from __future__ import annotations

import pytest

import prial

from .table_examples import EXAMPLES, staked_in_rounds

pytestmark = pytest.mark.skipif(not hasattr(prial, "Deal"), reason="prial has no betting table")


def legal(deal) -> dict:
    return {a.kind: a for a in deal.legal_actions()}


def walk(name: str):
    """(states, steps): the deal before each step, and after the last."""
    players, hands, dealer, steps = EXAMPLES[name]
    deal = prial.Deal.start(prial.TableRules(game="brag"), players, cards=hands, dealer=dealer)
    states = [deal]
    for i, (player, kind, amount, checks) in enumerate(steps):
        where = f"{name} step {i}: {player} {kind} {amount}"
        assert deal.to_act == player, where
        can = legal(deal)
        if "least" in checks:
            assert can["stake"].least == checks["least"], where
        if "see" in checks:
            assert (can["see"].amount if "see" in can else None) == checks["see"], where
            if checks["see"] is None:
                with pytest.raises(prial.IllegalActionError):
                    deal.act("see")
        for kind_in in checks.get("kinds_in", ()):
            assert kind_in in can, where
        for kind_out in checks.get("kinds_out", ()):
            assert kind_out not in can, where
        deal = deal.act(prial.Action(kind, player=player, amount=amount))
        states.append(deal)
    return states, steps


def test_example_1_a_must_stake_at_least_two_more():
    states, _ = walk("example_1")
    deal = states[-1]
    # after A's second stake the deal goes on, C to act with at least 2
    assert not deal.over and deal.to_act == "C" and legal(deal)["stake"].least == 2
    assert [s.put_in for s in deal.seats] == [1 + 2 + 2, 1, 1 + 2, 1 + 2]
    # before it, A could not stake 1 (nor see: three players in)
    before = states[-2]
    with pytest.raises(prial.IllegalActionError) as refused:
        before.act("stake", 1)
    assert refused.value.code == "stake_below_least"
    with pytest.raises(prial.IllegalActionError) as refused:
        before.act("see")
    assert refused.value.code == "see_needs_two"


def test_example_2_see_for_eight():
    states, _ = walk("example_2")
    # A, with C left, may see C for 8, stake at least 4 or fold
    a_turn = states[-3]
    assert a_turn.to_act == "A"
    assert {k for k in legal(a_turn)} == {"see", "stake", "fold"}
    assert legal(a_turn)["see"].amount == 8 and legal(a_turn)["stake"].least == 4
    with pytest.raises(prial.IllegalActionError) as refused:
        a_turn.act("see", 7)
    assert refused.value.code == "see_price"
    with pytest.raises(prial.IllegalActionError) as refused:
        a_turn.act("stake", 3)
    assert refused.value.code == "stake_below_least"
    c_turn = states[-2]
    assert c_turn.to_act == "C" and legal(c_turn)["see"].amount == 8 and legal(c_turn)["stake"].least == 4
    end = states[-1]
    assert end.over and end.history[-1].kind == "see" and end.history[-1].amount == 8
    # C's pair of jacks beats A's king high: C takes every chip
    total = sum(s.put_in for s in end.seats)
    assert total == 4 + 2 + 4 + 4 + 8
    assert end.result.winners == ("C",) and end.result.payouts == {"A": 0, "B": 0, "C": total, "D": 0}


def test_example_3_five_open_players_to_the_see_for_twenty():
    states, steps = walk("example_3")
    end = states[-1]
    assert end.over and (end.history[-1].kind, end.history[-1].player, end.history[-1].amount) == ("see", "A", 20)
    put_in = {s.player: s.put_in for s in end.seats}
    assert put_in["A"] == 1 + (1 + 2 + 2 + 2 + 5 + 5 + 5 + 10 + 10) + 20
    assert put_in["E"] == 1 + (2 + 2 + 2 + 5 + 5 + 5 + 10 + 10 + 10)
    assert put_in["B"] == 1 + 1 + 2 + 2 and put_in["C"] == 1 + 1 + 2 + 2 + 2 + 5 + 5 and put_in["D"] == 1
    # E's prial of aces is seen and wins; A's hand stays hidden
    assert end.result.winners == ("E",) and end.result.payouts["E"] == sum(put_in.values())
    assert set(end.view(None).cards) == {"E"}


def test_example_4_blind_play():
    states, steps = walk("example_4")
    # in rounds 1-4 (the first 23 steps) B staked 4 chips and C 10
    after_round_4 = states[23]
    put_in = {s.player: s.put_in for s in after_round_4.seats}
    assert put_in["B"] - 1 == 4 == staked_in_rounds(steps, "B", 23)
    assert put_in["C"] - 1 == 10 == staked_in_rounds(steps, "C", 23)
    assert [s.status for s in after_round_4.seats] == ["open", "blind", "open", "blind", "folded"]
    # rounds 6 and 7: B (blind) and C (open) are left; C may not see B, B may see C
    c_turns = [i for i in range(24, len(steps)) if steps[i][0] == "C"]
    b_turns = [i for i in range(24, len(steps)) if steps[i][0] == "B"]
    c_turns = [i for i in c_turns if [s.player for s in states[i].seats if s.status in ("blind", "open")] == ["B", "C"]]
    b_turns = [i for i in b_turns if [s.player for s in states[i].seats if s.status in ("blind", "open")] == ["B", "C"]]
    assert len(c_turns) == 2 and len(b_turns) == 3
    for i in c_turns:
        deal = states[i]
        assert "see" not in legal(deal) and {"stake", "fold"} <= set(legal(deal))
        with pytest.raises(prial.IllegalActionError) as refused:
            deal.act("see")
        assert refused.value.code == "see_blind_man"
        assert "C" in str(refused.value)
    for i in b_turns:
        deal = states[i]
        assert legal(deal)["see"].amount == 10 and legal(deal)["stake"].least == 5
    end = states[-1]
    assert end.over and (end.history[-1].kind, end.history[-1].player, end.history[-1].amount) == ("see", "B", 10)
    # B paid to see and lost to C's pair: C's hand is shown to all, B's stays hidden
    assert end.result.winners == ("C",)
    assert set(end.view(None).cards) == {"C"} and set(end.view("D").cards) == {"C"}
    assert set(end.view("B").cards) == {"C"}   # B never looked


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_examples_round_trip_through_json(name):
    states, _ = walk(name)
    for deal in states:
        again = prial.Deal.from_json(deal.to_json())
        assert again == deal and again.legal_actions() == deal.legal_actions() and again.seats == deal.seats
