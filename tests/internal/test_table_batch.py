"""The betting table in bulk: native replay agrees with deals played one
action at a time through prial.Deal, self-play conserves chips and is
seeded, and seeded packs follow the documented algorithm."""

from __future__ import annotations

import random

import numpy as np
import pytest

import prial
from prial.table import deals_as_arrays, replay_batch, self_play
from prial.table import CODES, STATUSES

MASK = 2**64 - 1


def splitmix64(seed: int):
    """The generator docs/rules.md names, written out plainly."""
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def reference_pack(seed: int, size: int) -> list[int]:
    """The seed-to-pack algorithm, version 1, as docs/rules.md words it."""
    pack = list(range(size))
    draws = splitmix64(seed)
    for i in range(size - 1):
        left = size - i
        while True:
            m = (next(draws) >> 32) * left
            if (m & 0xFFFFFFFF) >= (2**32 % left):
                break
        j = i + (m >> 32)
        pack[i], pack[j] = pack[j], pack[i]
    return pack


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**64 - 1])
@pytest.mark.parametrize("players,dealer", [(2, 0), (5, 3), (17, 16)])
def test_seeded_deals_follow_the_documented_pack(seed, players, dealer):
    table = prial.TableRules()
    deal = prial.Deal.start(table, [f"p{i}" for i in range(players)], seed=seed, dealer=dealer)
    pack = reference_pack(seed, 52)
    order = [(dealer + k) % players for k in range(1, players + 1)]
    expected = {i: [] for i in range(players)}
    top = 0
    for _ in range(3):
        for i in order:
            expected[i].append(pack[top])
            top += 1
    for i in range(players):
        assert deal._native.cards(i) == expected[i]


def test_seeded_packs_are_uniform_enough():
    # The top card over many seeds: every card about equally often.
    counts = np.zeros(52)
    for seed in range(20_000):
        counts[reference_pack(seed, 52)[0]] += 1
    table = prial.TableRules()
    native = np.zeros(52)
    for seed in range(2_000):
        native[prial.Deal.start(table, ["a", "b"], seed=seed, dealer=1)._native.cards(0)[0]] += 1
    assert counts.min() > 300 and counts.max() < 480
    assert native.sum() == 2_000


def play_random(table: prial.TableRules, players: int, seed: int, rng: random.Random, stacks=None) -> prial.Deal:
    deal = prial.Deal.start(table, [f"p{i}" for i in range(players)], seed=seed, dealer=seed % players,
                            stacks=stacks)
    while not deal.over:
        legal = deal.legal_actions()
        action = legal[rng.randrange(len(legal))]
        if action.least is not None:
            most = action.most if action.most is not None else action.least * 4
            deal = deal.act(action.kind, rng.randint(action.least, most))
        elif action.kind == "discard":
            hand = deal._native.cards(deal._native.to_act)
            deal = deal.act("discard", discards=rng.sample(hand, table.discards))
        else:
            deal = deal.act(action)
    return deal


TABLES = [
    (prial.TableRules(), None),
    (prial.TableRules(), [25, 40, 10, 60, 30]),
    (prial.TableRules(game="teen_patti", pot_cap=80), None),
    (prial.TableRules(game="four_card_brag", max_stake=6), [30] * 5),
    (prial.TableRules(game="five_card_brag", pot_limit=True, sideshow=True), [40] * 5),
    (prial.TableRules(raise_limit=3, blind_turns=2, agreed_showdown=False), None),
]


@pytest.mark.parametrize("table,stacks", TABLES, ids=[f"{t.game}-{i}" for i, (t, _) in enumerate(TABLES)])
def test_native_replay_agrees_with_deals_played_one_action_at_a_time(table, stacks):
    rng = random.Random(7)
    deals = [play_random(table, 5, seed, rng, stacks) for seed in range(300)]
    arrays = deals_as_arrays(deals)
    result = replay_batch(table, **arrays)
    assert result.applied == sum(d.actions for d in deals)
    for k, deal in enumerate(deals):
        assert STATUSES[result.status[k]] == "over"
        assert result.first_bad[k] == -1
        assert list(result.payouts[k, :5]) == [deal.result.payouts[p] for p in deal.players]
        assert list(result.put_in[k, :5]) == [s.put_in for s in deal.seats]
        pots = deal.pots
        assert list(result.pots[k, : len(pots)]) == [p.amount for p in pots]
        assert result.payouts[k].sum() == result.put_in[k].sum()


def test_native_replay_stops_at_the_first_refused_action_with_its_code():
    table = prial.TableRules()
    rng = random.Random(3)
    deals = [play_random(table, 4, seed, rng) for seed in range(50)]
    arrays = deals_as_arrays(deals)
    # Deal 10's third action is replaced by a see, which is never legal with
    # four players in at the start of a deal.
    row = int(arrays["offsets"][10]) + 2
    arrays["kinds"][row] = prial._core.TABLE_KINDS.index("see")
    expected = None
    deal = prial.Deal.start(table, deals[10].players, seed=10, dealer=10 % 4)
    for a in deals[10].history[:2]:
        deal = deal.act(a.kind, a.amount if a.kind == "stake" else None, a.discards)
    with pytest.raises(prial.IllegalActionError) as refused:
        deal.act("see")
    expected = refused.value.code
    result = replay_batch(table, **arrays)
    assert result.first_bad[10] == 2
    assert CODES[result.code[10]] == expected
    assert STATUSES[result.status[10]] == "illegal"
    assert STATUSES[result.status[11]] == "over"


def test_native_replay_reports_bad_setups_and_unfinished_deals():
    table = prial.TableRules()
    cards = np.full((2, 3, 3), 255, dtype=np.uint8)
    cards[0, 0] = [1, 2, 3]
    cards[0, 1] = [3, 4, 5]  # 3 dealt twice
    result = replay_batch(table, players=np.array([3, 3], np.uint8), dealers=np.array([0, 0], np.uint8),
                          cards=cards, offsets=np.array([0, 0, 0]), actors=np.zeros(0, np.uint8),
                          kinds=np.zeros(0, np.uint8), amounts=np.zeros(0, np.int64),
                          discards=np.zeros((0, 2), np.uint8))
    assert [STATUSES[s] for s in result.status] == ["bad_setup", "unfinished"]
    with pytest.raises(prial.InvalidHandError, match="offsets"):
        replay_batch(table, players=np.array([3], np.uint8), dealers=np.array([0], np.uint8), cards=cards[:1],
                     offsets=np.array([0, 2]), actors=np.zeros(1, np.uint8), kinds=np.zeros(1, np.uint8),
                     amounts=np.zeros(1, np.int64), discards=np.zeros((1, 2), np.uint8))


@pytest.mark.parametrize("game", prial.table.GAMES)
def test_self_play_conserves_chips_and_is_seeded(game):
    table = prial.TableRules(game=game)
    nets, actions = self_play(table, [None, 0.5, None, 0.8], 3_000, seed=11, stack=None)
    assert nets.shape == (3_000, 4) and actions.shape == (3_000,)
    assert (nets.sum(axis=1) == 0).all()
    assert (actions > 0).all()
    again, _ = self_play(table, [None, 0.5, None, 0.8], 3_000, seed=11)
    assert (again == nets).all()
    other, _ = self_play(table, [None, 0.5, None, 0.8], 3_000, seed=12)
    assert (other != nets).any()


def test_self_play_with_stacks_never_loses_more_than_a_stack():
    nets, _ = self_play(prial.TableRules(), [None] * 5, 5_000, seed=2, stack=20)
    assert nets.min() >= -20
    assert (nets.sum(axis=1) == 0).all()


def test_a_player_who_always_folds_loses_exactly_the_ante():
    # Threshold 1: no hand beats every hand, so this player folds at its
    # first turn; the deal may end before it (everyone else folded to it).
    table = prial.TableRules(ante=3)
    nets, _ = self_play(table, [1.0, None, None], 2_000, seed=5)
    assert set(np.unique(nets[:, 0])) <= {-3} | set(range(0, 10_000))
    assert (nets[:, 0] == -3).mean() > 0.5


def test_self_play_refuses_bad_policies():
    table = prial.TableRules()
    with pytest.raises(prial.ConfigurationError, match="policy of seat 1"):
        self_play(table, [None, 2.0], 10)
    with pytest.raises(prial.InvalidHandError, match="2 to 17 players"):
        self_play(table, [None], 10)
