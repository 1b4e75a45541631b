"""Classic three-stake Brag's phases against plain references written here,
over seeded random deals, and its properties under hypothesis."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import prial
from prial import (
    ClassicPlayer,
    ClassicRules,
    Deal,
    InvalidShowdownError,
    Rules,
    TableRules,
    settle_best_card,
    settle_bragging,
    settle_classic,
    settle_thirty_one,
)

from .test_classic_rules import BRAGGERS, reference_key


def points(card: int, ace: int) -> int:
    rank = "23456789TJQKA"[card // 4]
    return ace if rank == "A" else 10 if rank in "TJQK" else int(rank)


def ref_best_card(hands: list[list[int]], ties: str) -> list[int]:
    """Seats winning the face-up cards: the ace of diamonds above all."""
    def place(card: int) -> int:
        return 99 if card == 49 else card // 4
    top = max(place(h[2]) for h in hands)
    tied = [i for i, h in enumerate(hands) if place(h[2]) == top]
    return tied[:1] if ties == "eldest" else tied


def ref_thirty_one(hands, actions, stock, ace):
    """(winning seats, each seat's total) by playing it out card by card."""
    stock = list(stock)
    totals = []
    for hand, acts in zip(hands, actions):
        total = sum(points(c, ace) for c in hand)
        for a in acts:
            if a == "draw":
                total += points(stock.pop(0), ace)
        totals.append(total)
    alive = [i for i, t in enumerate(totals) if t <= 31] or list(range(len(hands)))
    if any(totals[i] <= 31 for i in alive):
        best = max(totals[i] for i in alive)
        alive = [i for i in alive if totals[i] == best]
    while len(alive) > 1 and len(stock) >= len(alive):
        drawn = {i: points(stock.pop(0), ace) for i in alive}
        best = max(drawn.values())
        alive = [i for i in alive if drawn[i] == best]
    return alive, totals


def random_deal(rng: random.Random, ace: int):
    """Hands, legal thirty-one actions (a player draws while under a
    threshold of their own) and the stock."""
    pack = list(range(52))
    rng.shuffle(pack)
    n = rng.randint(2, 7)
    hands = [pack[3 * i:3 * i + 3] for i in range(n)]
    stock = pack[3 * n:]
    actions, at = [], 0
    for hand in hands:
        total, acts, threshold = sum(points(c, ace) for c in hand), [], rng.randint(15, 30)
        while total <= threshold and total <= 31:
            total += points(stock[at], ace)
            at += 1
            acts.append("draw")
        if total <= 31 and rng.random() < 0.5:
            acts.append("stand")
        actions.append(acts)
    return hands, actions, stock


@pytest.mark.parametrize("ace", [10, 1, 11])
def test_thirty_one_and_best_card_match_the_references(ace):
    rng = random.Random(ace)
    for _ in range(400):
        hands, actions, stock = random_deal(rng, ace)
        players = [ClassicPlayer(f"p{i}", h, a) for i, (h, a) in enumerate(zip(hands, actions))]
        rules = ClassicRules(ace=ace, best_card_ties=rng.choice(["eldest", "share"]))
        phase = settle_thirty_one(players, rules, stock=stock)
        winners, totals = ref_thirty_one(hands, actions, stock, ace)
        assert phase.winners == tuple(f"p{i}" for i in winners)
        assert [h.value for h in phase.hands] == totals
        assert [h.out for h in phase.hands] == [t > 31 for t in totals]
        assert sum(phase.payouts.values()) == phase.pot == len(hands)
        best = settle_best_card(players, rules)
        assert best.winners == tuple(f"p{i}" for i in ref_best_card(hands, rules.best_card_ties))


@pytest.mark.parametrize("wild", ["bragger", "bragger_nine", "bragger_jacks"])
def test_bragging_matches_the_reference_ranker(wild):
    rng = random.Random(wild)
    cards, lesser = BRAGGERS[wild]
    rules = ClassicRules(rules=Rules(preset="classic", wild=wild))
    for _ in range(300):
        pack = list(range(52))
        rng.shuffle(pack)
        hands = [pack[3 * i:3 * i + 3] for i in range(rng.randint(2, 6))]
        keys = [reference_key(tuple(sorted(h)), cards, lesser, "natural_wins") for h in hands]
        best = max(keys)
        phase = settle_bragging([ClassicPlayer(f"p{i}", h) for i, h in enumerate(hands)], rules)
        assert phase.winners == tuple(f"p{i}" for i, k in enumerate(keys) if k == best)


def test_the_ace_of_diamonds_and_the_eldest_hand():
    players = [ClassicPlayer("ann", "2c 3c Kd"), ClassicPlayer("bob", "4c 5c Ks"), ClassicPlayer("cy", "6c 7c 8d")]
    assert settle_best_card(players).winners == ("ann",)
    shared = settle_best_card(players, ClassicRules(best_card_ties="share", stake=5))
    assert shared.winners == ("ann", "bob") and shared.payouts == {"ann": 8, "bob": 7, "cy": 0}
    players[2] = ClassicPlayer("cy", "6c 7c Ad")
    assert settle_best_card(players + [ClassicPlayer("dee", "9c Tc As")]).winners == ("cy",)


def test_thirty_one_draws_again_from_a_given_stock():
    players = [ClassicPlayer("ann", "Kc Qc 9d"), ClassicPlayer("bob", "Ks Qs 9h")]
    phase = settle_thirty_one(players, stock="5c 5d 7h 2s")
    assert [h.value for h in phase.hands] == [29, 29]
    assert [(d.round, d.id, d.points) for d in phase.draws_again] == [(0, "ann", 5), (0, "bob", 5),
                                                                      (1, "ann", 7), (1, "bob", 2)]
    assert phase.winners == ("ann",) and "ann wins the draw" in phase.reason
    # the stock running out leaves them to share
    short = settle_thirty_one(players, stock="5c 5d 7h")
    assert short.winners == ("ann", "bob") and short.payouts == {"ann": 1, "bob": 1}


def test_drawing_out_loses_and_the_seed_orders_the_stock():
    players = [ClassicPlayer("ann", "Kc Qc 2d", ["draw"]), ClassicPlayer("bob", "3s 4s 5h")]
    out = settle_thirty_one(players, stock="Ts 9s")
    assert out.hands[0].value == 32 and out.hands[0].out and out.winners == ("bob",)
    players = [ClassicPlayer("ann", "2c 3d 4h", ["draw"]), ClassicPlayer("bob", "3s 4s 5h", ["draw"])]
    held = set(prial.parse_cards("2c 3d 4h 3s 4s 5h"))
    draws = set()
    for seed in range(20):
        one = settle_thirty_one(players, seed=seed)
        assert one == settle_thirty_one(players, seed=seed)
        drawn = (one.hands[0].cards[3], one.hands[1].cards[3])
        assert not set(drawn) & held and drawn[0] != drawn[1]
        draws.add(drawn)
    assert len(draws) > 10


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), stake=st.integers(0, 50), bonus=st.integers(0, 9),
       n=st.integers(2, 8), ties=st.sampled_from(["eldest", "share"]))
def test_nets_sum_to_zero_and_each_stake_goes_to_its_winners(seed, stake, bonus, n, ties):
    rng = random.Random(seed)
    pack = list(range(52))
    rng.shuffle(pack)
    players = [ClassicPlayer(f"p{i}", pack[3 * i:3 * i + 3], ["draw"] * rng.randint(0, 1)) for i in range(n)]
    rules = ClassicRules(stake=stake, bonus=bonus, best_card_ties=ties)
    result = settle_classic(players, rules, seed=seed)
    assert sum(result.nets.values()) == 0
    assert [p.phase for p in result.phases] == ["best_card", "bragging", "thirty_one"]
    for phase in result.phases:
        assert sum(phase.payouts.values()) == phase.pot == stake * n
        assert all(phase.payouts[w] >= stake * n // len(phase.winners) for w in phase.winners)
    alone = {p.winners for p in result.phases}
    assert (result.bonus_winner is not None) == (bonus > 0 and len(alone) == 1 and len(next(iter(alone))) == 1)


def test_the_bonus_for_all_three_stakes():
    players = [ClassicPlayer("ann", "As Ah Ad"), ClassicPlayer("bob", "2c 3d 4h"), ClassicPlayer("cy", "5c 6d 7h")]
    result = settle_classic(players, ClassicRules(stake=2, bonus=3))
    assert result.bonus_winner == "ann"
    assert result.nets == {"ann": 3 * 2 * 2 + 2 * 3, "bob": -6 - 3, "cy": -6 - 3}
    assert settle_classic(players, ClassicRules(stake=2)).nets == {"ann": 12, "bob": -6, "cy": -6}


def test_the_vying_is_the_betting_tables_see_with_classic_categories():
    table = TableRules(rules=Rules(preset="classic"))
    # a flush is a high card in classic Brag: the pair of deuces wins the see
    deal = Deal.start(table, ["ann", "bob"], cards=["Ah Kh Qh", "2c 2d 5s"])
    for action in ("look", ("stake", 1), "look", "see"):
        deal = deal.act(*action) if isinstance(action, tuple) else deal.act(action)
    assert deal.result.winners == ("bob",)
    # the settlement of the bragging stake after such a see
    players = [ClassicPlayer("ann", "Ah Kh Qh"), ClassicPlayer("bob", "2c 2d 5s"), ClassicPlayer("cy", "3c 4d 9s")]
    phase = settle_bragging(players, contenders=["ann", "bob"], seer="ann")
    assert phase.winners == ("bob",) and phase.pot == 3 and [h.out for h in phase.hands] == [False, False, True]
    assert settle_bragging(players, contenders=["cy"]).winners == ("cy",)


@pytest.mark.parametrize("call, words", [
    (lambda: ClassicRules(ace=12), "ace must be one of 10, 1, 11"),
    (lambda: ClassicRules(stake=-1), "stake must be a whole number of chips"),
    (lambda: ClassicRules(bonus=True), "bonus must be a whole number of chips"),
    (lambda: ClassicRules(best_card_ties="youngest"), "best_card_ties must be one of eldest, share"),
    (lambda: ClassicRules(rules="classic"), "rules must be a prial.Rules"),
    (lambda: settle_classic(PAIR, Rules(preset="classic")), "rules must be a prial.ClassicRules or None, got Rules"),
    (lambda: settle_best_card([ClassicPlayer("a", "2c 3c 4c")]), "needs 2 to 17 players"),
    (lambda: settle_classic(PAIR, ClassicRules(stake=2**62)), "come to more than 9223372036854775807 chips"),
    (lambda: settle_best_card([ClassicPlayer("a", "2c 3c"), ClassicPlayer("b", "5c 6c 7c")]), "is 3 cards"),
    (lambda: settle_best_card([ClassicPlayer("a", "2c 3c 4c"), ClassicPlayer("a", "5c 6c 7c")]), "used twice"),
    (lambda: settle_best_card([ClassicPlayer("a", "2c 3c 4c"), ClassicPlayer("b", "2c 6c 7c")]), "2c"),
    (lambda: settle_best_card([ClassicPlayer("a", "2c 3c 4c"), ("b", "5c 6c 7c")]), "expected a prial.ClassicPlayer"),
    (lambda: settle_bragging(PAIR, contenders=["zed"]), "'zed' is not at the table"),
    (lambda: settle_bragging(PAIR, contenders=[]), "contenders must be a non-empty list"),
    (lambda: settle_bragging(PAIR, contenders=["a"], seer="a"), "a see needs two contenders"),
    (lambda: settle_bragging(PAIR + [ClassicPlayer("c", "8c 9c Tc")], seer="a"), "a see needs two contenders"),
    (lambda: settle_bragging(PAIR + [ClassicPlayer("c", "8c 9c Tc")], contenders=["a", "b"], seer="c"),
     "got seer 'c' and contenders a, b"),
    (lambda: settle_bragging(PAIR, seer=5), "got seer 5"),
    (lambda: settle_thirty_one([ClassicPlayer("a", "2c 3c 4c", ["hit"]), PAIR[1]]), "expected 'draw' or 'stand'"),
    (lambda: settle_thirty_one([ClassicPlayer("a", "2c 3c 4c", "draw"), PAIR[1]]), "actions must be a list"),
    (lambda: settle_thirty_one([ClassicPlayer("a", "2c 3c 4c", ["stand", "draw"]), PAIR[1]]),
     "the turn is over (stood)"),
    (lambda: settle_thirty_one([ClassicPlayer("a", "Kc Qc Jc", ["draw"] * 3), PAIR[1]], stock="Ks Qs Js"),
     "the turn is over (drawn out)"),
    (lambda: settle_thirty_one([ClassicPlayer("a", "2c 3c 4c", ["draw"]), PAIR[1]], stock=""), "the stock is empty"),
    (lambda: settle_thirty_one(PAIR, stock="5c 2c"), "2c"),
    (lambda: settle_thirty_one(PAIR, stock="9c", seed=1), "not both"),
    (lambda: settle_thirty_one(PAIR, seed=-1), "seed must be an integer"),
])
def test_bad_input_is_one_clear_line(call, words):
    with pytest.raises((InvalidShowdownError, prial.ConfigurationError)) as info:
        call()
    assert words in str(info.value) and "\n" not in str(info.value)


PAIR = [ClassicPlayer("a", "2c 3c 4c"), ClassicPlayer("b", "5c 6c 7c")]
