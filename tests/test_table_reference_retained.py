"""Tables that retain blind hands, played deal after deal on prial and on the
plain reference (tests/table_reference_retained.py) and compared at every
state: the pot that stays, two hands held, blind or one of them face up,
and every player made to beat the face-up hand or fold."""

from __future__ import annotations

import random

import pytest

import prial

from .table_reference import RefDeal
from .table_reference_retained import RetainedDeal
from .test_table_reference import differences, random_setup, ref_table, refusal_differences, repro


def start(setup: dict):
    stacks, ante = setup["stacks"], setup["options"]["ante"]
    hands = [None if stacks is not None and stacks[i] < ante else h for i, h in enumerate(setup["hands"])]
    table = prial.TableRules(game=setup["game"], **setup["options"]) if setup["preset"] is None else None
    if table is None:
        preset, a23, top = setup["preset"]
        extra = {k: v for k, v in (("ace_two_three", a23), ("top_prial", top)) if v is not None}
        table = prial.TableRules(game=setup["game"], rules=prial.Rules(preset=preset, **extra), **setup["options"])
    if setup["seed"] is not None:
        deal = prial.Deal.start(table, setup["players"], seed=setup["seed"], dealer=setup["dealer"], stacks=stacks)
    else:
        deal = prial.Deal.start(table, setup["players"], cards=hands, dealer=setup["dealer"], stacks=stacks)
    return deal, RetainedDeal(ref_table(setup), setup["players"], hands, setup["dealer"], stacks)


def choose(rng: random.Random, ref: RefDeal):
    """A random legal action, folding often so that pots stay."""
    legal = ref.legal_actions()
    kinds = [k for k, *_ in legal]
    if "fold" in kinds and (rng.random() < 0.45 or len(ref.history) > 60):
        return "fold", None, ()
    kind, least, most, _ = rng.choice(legal)
    amount, discards = None, ()
    if kind in ("stake", "sideshow"):
        amount = rng.randint(least, least * 3 if most is None else min(most, least * 3))
    elif kind == "discard":
        discards = tuple(rng.sample(ref.hands[ref.to_act], ref.table.discards))
    return kind, amount, discards


def next_both(rng: random.Random, deal, ref: RetainedDeal):
    """The next deal on both, or None when too few players can ante."""
    stayed = ref.stayer is not None
    assert (deal.result.ending == "pot_stays") == stayed
    players, dealer, stacks, pot, keeper, kept = ref.next_seating(retain=rng.random() < 0.85)
    ante = ref.table.ante
    if len(players) < 2 or (stacks is not None and sum(s >= ante for s in stacks) < 2):
        return None
    if keeper is not None and stacks is not None and stacks[players.index(keeper)] < ante:
        keeper = kept = None  # a keeper who cannot ante is not dealt in
    rest = [c for c in range(52) if c not in (kept or ())]
    dealt = rng.sample(rest, len(players) * ref.table.cards)
    hands = [sorted(dealt[i::len(players)]) for i in range(len(players))]
    after = deal.next(retain=keeper is not None, cards=hands)
    assert (after.players, after.dealer, after.pots[0].amount - ante * sum(
        s.status != "out" for s in after.seats)) == (tuple(players), dealer, pot)
    return after, RetainedDeal(ref.table, players, hands, dealer, stacks, pot,
                               None if keeper is None else players.index(keeper), kept)


def play_table(seed: int, deals: int = 5) -> int:
    """Up to ``deals`` deals in a row compared state by state; returns how
    many of them a player began holding two hands."""
    rng = random.Random(seed)
    setup = random_setup(rng)
    setup["options"]["retain_blind"] = rng.choice([True, "face_up", "face_up"])
    deal, ref = start(setup)
    held = 0
    for number in range(deals):
        held += ref.keeper is not None
        actions: list = []
        while True:
            viewers = None if ref.over else [rng.choice(ref.players + [None])]
            diffs = differences(deal, ref, viewers=viewers)
            if seed % 3 == 0:
                diffs += refusal_differences(deal, ref, rng)
            assert not diffs, f"seed {seed}, deal {number}: " + "; ".join(diffs) + "\nrepro: " + repro(setup, actions)
            if ref.over:
                break
            kind, amount, discards = choose(rng, ref)
            actions.append((ref.players[ref.to_act], kind, amount, list(discards)))
            ref = ref.act(kind, amount, discards)
            try:
                deal = deal.act(prial.Action(kind, amount=amount, discards=discards))
            except prial.IllegalActionError as exc:
                raise AssertionError(f"seed {seed}, deal {number}: prial refused {actions[-1]} ({exc.code}: {exc})"
                                     "\nrepro: " + repro(setup, actions)) from None
        both = next_both(rng, deal, ref)
        if both is None:
            break
        deal, ref = both
    return held


TABLES = 1_500
CHUNKS = 5


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_tables_that_retain_blind_hands_agree_with_the_reference(chunk):
    per = TABLES // CHUNKS
    held = sum(play_table(seed) for seed in range(chunk * per, (chunk + 1) * per))
    assert held >= per // 10, f"only {held} deals began with a hand kept: the playouts miss the rule"
