"""Replaying hand histories: sampled logs with faults planted at known
rates, each fault found at its action with its code or as the money it
misstates, nothing flagged in fault-free deals, missing cards checked as
far as they allow, the rake accounted for."""

from __future__ import annotations

import collections
import math

import pytest

import prial
from prial.table import Fault, read_record, replay_histories, sample_histories, to_record

FAULTS = [Fault("mispaid-pot", 0.04), Fault("wrong-winner", 0.04), Fault("see-blind", 0.06),
          Fault("short-stake", 0.04)]
FOUND = {None: "ok", "mispaid-pot": "mispaid", "wrong-winner": "wrong_winner", "see-blind": "illegal_action",
         "short-stake": "illegal_action"}


def within(count: int, n: int, rate: float) -> bool:
    """count of n is within five standard deviations of the rate."""
    return abs(count - n * rate) <= 5 * math.sqrt(n * rate * (1 - rate)) + 1


@pytest.mark.parametrize("game, players, policies, stack, seed", [
    ("brag", 4, [None, 0.5, None, 0.7], 100, 1),
    ("brag", 6, None, None, 2),
    ("four_card_brag", 3, [0.4, None, 0.6], 60, 3),
    ("five_card_brag", 4, None, 80, 4),
    ("teen_patti", 5, [None, 0.6, None, 0.3, None], 100, 5),
])
def test_every_planted_fault_is_found_and_nothing_else(game, players, policies, stack, seed):
    n = 4_000
    table = prial.TableRules(game=game)
    sampled = list(sample_histories(table, n, players=players, seed=seed, policies=policies, faults=FAULTS,
                                    stack=stack))
    findings = replay_histories([read_record(s.record) for s in sampled])
    planted = collections.Counter(s.fault for s in sampled)
    for s, f in zip(sampled, findings):
        assert f.deal_id == s.record["deal_id"]
        assert f.finding == FOUND[s.fault], (s, f)
        if s.fault in ("see-blind", "short-stake"):
            assert (f.action_index, f.code) == (s.action_index, s.code)
            assert f.player == s.record["actions"][s.action_index]["player"]
        if f.finding == "ok":
            outcome = s.record["outcome"]
            assert set(f.winners or ()) == set(outcome["winners"]) and f.nets == outcome["nets"]
    # drawn in order, at most one a deal: each rate applies to the deals the ones before left
    left = 1.0
    for fault in FAULTS:
        assert within(planted[fault.kind], n, left * fault.rate), (fault, planted)
        left *= 1 - fault.rate
    assert planted["see-blind"] and planted["short-stake"]
    codes = {f.code for f in findings if f.finding == "illegal_action"}
    assert "see_blind_man" in codes and "stake_below_least" in codes


def test_faults_limited_to_one_dealer_fall_on_that_dealer_s_deals_only():
    sampled = list(sample_histories(prial.TableRules(), 3_000, players=3, seed=7,
                                    faults=[Fault("mispaid-pot", 0.3, dealer="p1")]))
    by_dealer = collections.Counter(s.record["players"][s.record["dealer"]]["id"] for s in sampled if s.fault)
    assert set(by_dealer) == {"p1"} and within(by_dealer["p1"], 1_000, 0.3)


def test_a_fault_free_log_is_all_ok_and_the_replay_gives_the_recorded_money():
    sampled = list(sample_histories(prial.TableRules(game="brag", pot_limit=True), 3_000, players=5, seed=11,
                                    stack=40))
    findings = replay_histories([read_record(s.record) for s in sampled])
    assert {f.finding for f in findings} == {"ok"}
    assert all(sum(f.nets.values()) == 0 for f in findings)


def test_deals_with_stacks_and_deals_without_are_each_replayed_as_recorded():
    # One log, one table: a deal without stacks beside deals with them is
    # not given stacks of nothing (it would be refused as unable to start).
    table = prial.TableRules()
    free = [read_record(s.record) for s in sample_histories(table, 20, players=3, seed=5)]
    staked = [read_record(s.record) for s in sample_histories(table, 20, players=3, seed=6, stack=50)]
    mixed = [h for pair in zip(free, staked) for h in pair]
    assert [f.finding for f in replay_histories(mixed)] == ["ok"] * 40
    assert replay_histories(mixed)[::2] == replay_histories(free)


def test_missing_cards_are_checked_as_far_as_they_allow():
    sampled = list(sample_histories(prial.TableRules(), 2_000, players=3, seed=13,
                                    faults=[Fault("short-stake", 0.1), Fault("mispaid-pot", 0.1)]))
    histories = []
    for s in sampled:
        record = dict(s.record)
        del record["cards"]
        histories.append(read_record(record))
    for s, f in zip(sampled, replay_histories(histories)):
        if s.fault == "short-stake":  # a stake's least needs no cards
            assert (f.finding, f.action_index, f.code) == ("illegal_action", s.action_index, s.code)
        elif f.ending == "folded_out":  # nobody showed: the money is checked without the cards
            assert f.finding == FOUND[s.fault], (s, f)
        else:
            assert f.finding == "unchecked" and "not checked" in f.detail, (s, f)


def test_the_rake_taken_from_a_pot_is_accounted_for():
    deal = prial.Deal.start(prial.TableRules(), ["ann", "bob", "cat"], cards=["As Ad 2c", "Kh Qh Jh", "7c 5d 3s"],
                            stacks=[20, 20, 20])
    deal = deal.act("stake", 2).act("look").act("stake", 4).act("fold").act("see", 4)
    nets = dict(deal.result.nets)
    raked = dict(nets, bob=nets["bob"] - 2)
    ok = read_record(to_record(deal, deal_id="a", rake=[2], outcome=prial.table.Outcome(("bob",), raked)))
    unraked = read_record(to_record(deal, deal_id="b", rake=[2]))  # the nets recorded as if nothing was taken
    first, second = replay_histories([ok, unraked])
    assert first.finding == "ok" and first.nets == raked and first.rake == 2
    assert second.finding == "mispaid" and "bob recorded" in second.detail


def test_unfinished_deals_and_deals_that_cannot_start_are_told_apart():
    deal = prial.Deal.start(prial.TableRules(), ["ann", "bob"], cards=["As Ad 2c", "Kh Qh Jh"]).act("stake", 1)
    unfinished = to_record(deal, deal_id="u")
    clash = to_record(deal, deal_id="c")
    clash["cards"] = ["As Ad 2c", "As Qh Jh"]  # a card dealt twice
    a, b = replay_histories([read_record(unfinished), read_record(clash)])
    assert a.finding == "unfinished" and a.winners is None
    assert b.finding == "bad_setup"


def test_a_deal_carrying_a_pot_that_stayed_is_replayed_too():
    table = prial.TableRules(retain_blind=True)
    deal = prial.Deal.start(table, ["ann", "bob", "cat"], seed=11)
    deal = deal.act("stake", 1).act("fold").act("fold")
    after = deal.next(retain=True)  # the pot stays, bob keeps his hand: the next deal carries both
    while not after.over:
        after = after.act("fold")
    findings = replay_histories([read_record(to_record(d, deal_id=str(i))) for i, d in enumerate((deal, after))])
    assert [f.finding for f in findings] == ["ok", "ok"]
    assert findings[1].nets == dict(after.result.nets)


def test_bad_sampling_arguments_are_named():
    with pytest.raises(prial.InvalidHandError, match="unknown fault 'lost-chip'"):
        list(sample_histories(prial.TableRules(), 10, faults=[Fault("lost-chip", 0.1)]))
    with pytest.raises(prial.InvalidHandError, match="rate must be from 0 to 1"):
        list(sample_histories(prial.TableRules(), 10, faults=[Fault("mispaid-pot", 2.0)]))
    with pytest.raises(prial.InvalidHandError, match="2 policies for 4 players"):
        list(sample_histories(prial.TableRules(), 10, policies=[None, None]))
