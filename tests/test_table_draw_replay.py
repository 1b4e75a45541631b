"""Draw Brag's deals replayed in native batches (replay_batch from
deals_as_arrays, replay_histories from records), equal to the deals played
through prial.Deal: hands as dealt, the draw's cards from the seeded pack
or the record's stub, a faulty draw found at its action."""

from __future__ import annotations

import random
from collections import Counter

import prial
from prial.table import (CODES, STATUSES, deals_as_arrays, read_record, replay_batch, replay_histories,
                         to_record)

TABLE = prial.TableRules(game="draw_brag")


def played(rng: random.Random, seed: int, cards: bool = False) -> prial.Deal:
    players = ["ann", "bob", "cat", "dan", "eve"][:rng.randint(2, 5)]
    stacks = None if rng.random() < 0.5 else [rng.randint(2, 40) for _ in players]
    if stacks is not None and sum(s >= 2 for s in stacks) < 2:
        stacks[:2] = [30, 30]
    if cards:
        pack = list(range(52))
        rng.shuffle(pack)
        hands = [pack[3 * i:3 * i + 3] for i in range(len(players))]
        deal = prial.Deal.start(TABLE, players, cards=hands, stub=pack[3 * len(players):], stacks=None)
    else:
        deal = prial.Deal.start(TABLE, players, seed=seed, dealer=rng.randrange(len(players)), stacks=stacks)
    while not deal.over:
        legal = rng.choice(deal.legal_actions())
        if legal.kind == "draw":
            deal = deal.act("draw", discards=rng.sample(deal.hands[legal.player], rng.randint(0, legal.most)))
        else:
            deal = deal.act(legal.kind)
    return deal


def test_a_native_batch_replays_draw_deals_as_played():
    rng = random.Random(11)
    for stacked in (False, True):
        deals = [d for d in (played(rng, seed) for seed in range(400)) if (d._stacks is not None) == stacked]
        arrays = deals_as_arrays(deals)
        assert arrays["discards"].shape[1] == 3 and arrays["stub"].shape == (len(deals), 52)
        out = replay_batch(TABLE, **arrays)
        assert Counter(STATUSES[s] for s in out.status) == {"over": len(deals)}
        for d, deal in enumerate(deals):
            assert out.payouts[d, :len(deal.players)].tolist() == [deal.result.payouts[p] for p in deal.players]
            assert out.put_in[d, :len(deal.players)].tolist() == [s.put_in for s in deal.seats]


def test_replay_histories_checks_draw_records():
    rng = random.Random(12)
    deals = [played(rng, seed, cards=seed % 3 == 0) for seed in range(300)]
    records = [to_record(deal, deal_id=f"d{i}") for i, deal in enumerate(deals)]
    findings = replay_histories([read_record(r) for r in records])
    assert Counter(f.finding for f in findings) == {"ok": len(deals)}
    # A draw of a card the player does not hold, and a record whose stub is lost.
    bad = dict(records[0])
    draw = next(i for i, a in enumerate(bad["actions"]) if a["kind"] == "draw")
    bad["actions"] = [dict(a) for a in bad["actions"]]
    bad["actions"][draw] = {**bad["actions"][draw], "discards": "As Ks Qs Js", "amount": 4}
    lost = {k: v for k, v in records[0].items() if k != "stub"}
    wrong, unknown = replay_histories([read_record(bad), read_record(lost)])
    assert (wrong.finding, wrong.action_index, wrong.code) == ("illegal_action", draw, "draw_count")
    drew = any(a.get("discards") for a in records[0]["actions"])
    assert unknown.finding == ("unchecked" if drew and deals[0].result.ending == "showdown" else "ok")
    assert CODES.index("draw_count") > CODES.index("agree_needs_three")


def test_sampled_draw_histories_replay_clean_and_faults_are_found():
    from prial.table import Fault, sample_histories

    sampled = list(sample_histories(TABLE, 200, seed=3, players=4, policies=[None, 0.5, 0.8, None],
                                    faults=[Fault("mispaid-pot", 0.2), Fault("wrong-winner", 0.2)]))
    assert all("stub" in s.record for s in sampled)
    findings = replay_histories([read_record(s.record) for s in sampled])
    found = Counter((s.fault, f.finding) for s, f in zip(sampled, findings))
    assert set(found) <= {(None, "ok"), ("mispaid-pot", "mispaid"), ("wrong-winner", "wrong_winner")}, found
    kinds = Counter(a["kind"] for s in sampled for a in s.record["actions"])
    assert {"check", "call", "raise", "draw", "look", "fold"} <= set(kinds)
    assert any(a.get("discards") for s in sampled for a in s.record["actions"] if a["kind"] == "draw")


def test_simulate_plays_draw_brag():
    from prial.table import simulate

    result = simulate(TABLE, [None, 0.5, 0.9], 20_000, seed=4)
    random_player, middling, tight = result.policies
    assert random_player.high < middling.low  # the random player loses to a threshold
    assert result.actions > 3 * result.deals




def test_the_next_deal_draws_from_the_rest_of_its_pack():
    from .table_reference import deal_hands, seed_pack

    deal = prial.Deal.start(TABLE, ["ann", "bob"], seed=3).act("fold")  # bob, the small blind, folds
    following = deal.next()  # dealt from seed 4, bob dealing: ann the small blind, bob the big
    pack = seed_pack(4)
    hands = deal_hands(pack, [True, True], 1, 3)
    assert following.hands == {"ann": tuple(hands[0]), "bob": tuple(hands[1])}
    following = following.act("look").act("call").act("check")
    following = following.act("draw", discards=hands[0][:1])  # ann draws first, the top card left
    assert following.hands["ann"] == (pack[6], *hands[0][1:])
    assert prial.Deal.from_json(following.to_json()) == following
