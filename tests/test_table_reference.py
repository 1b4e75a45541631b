"""The betting table against a plain Python reference (tests/table_reference.py).

First the reference alone, walked through the SPEC's worked examples and a
few small rules, so that a fault in it shows without the engine.  Then
seeded random playouts: at every state prial and the reference must agree
on whose turn it is, every legal action with its least, most and price,
the stake, the pots, the seats, every player's view of the cards and, at
the end, the result; and every refused action must carry the reference's
code.  Last, invariants that hold whatever the rules say: chips conserved,
one result, views that leak nothing, JSON and replay giving the same deal,
seeds giving the same cards.
"""

from __future__ import annotations

import json
import random

import pytest

from .table_examples import EXAMPLES, staked_in_rounds
from .table_reference import KINDS, RefDeal, Refused, deal_hands, hand_key, make_table, seed_pack

RANKS, SUITS = "23456789TJQKA", "cdhs"


def parse(text: str) -> list[int]:
    return [RANKS.index(c[0].upper()) * 4 + SUITS.index(c[1].lower()) for c in text.split()]


# ---------------------------------------------------------------------------
# The reference alone
# ---------------------------------------------------------------------------

def legal_map(ref: RefDeal) -> dict:
    return {kind: (least, most, amount) for kind, least, most, amount in ref.legal_actions()}


def walk_reference(name: str) -> tuple[RefDeal, list[RefDeal]]:
    players, hands, dealer, steps = EXAMPLES[name]
    d = RefDeal(make_table("brag"), players, [parse(h) for h in hands], dealer)
    states = [d]
    for i, (player, kind, amount, checks) in enumerate(steps):
        where = f"{name} step {i} {player} {kind} {amount}"
        assert d.players[d.to_act] == player, where
        legal = legal_map(d)
        if "least" in checks:
            assert legal["stake"][0] == checks["least"], where
        if "see" in checks:
            assert (legal["see"][2] if "see" in legal else None) == checks["see"], where
        for kind_in in checks.get("kinds_in", ()):
            assert kind_in in legal, where
        for kind_out in checks.get("kinds_out", ()):
            assert kind_out not in legal, where
        d = d.act(kind, amount)
        states.append(d)
    return d, states


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_reference_walks_the_worked_examples(name):
    d, _ = walk_reference(name)
    steps = EXAMPLES[name][3]
    if name == "example_1":
        assert not d.over and d.players[d.to_act] == "C"
    else:
        assert d.over and d.ending == "see"
    if name == "example_2":
        # C (a pair of jacks) saw A (king high) for 8 and won
        assert d.history[-1] == ("see", "C", 8, ())
        assert d.payouts == [0, 0, sum(d.put_in), 0]
    if name == "example_3":
        assert d.history[-1] == ("see", "A", 20, ())
        # E's prial of aces beats A's king high: E takes everything
        assert d.payouts[4] == sum(d.put_in) and sum(d.payouts) == sum(d.put_in)
        assert d.put_in[0] == 1 + 1 + 2 + 2 + 2 + 5 + 5 + 5 + 10 + 10 + 20
    if name == "example_4":
        # rounds 1-4 are the first 23 steps
        assert staked_in_rounds(steps, "B", 23) == 4 and staked_in_rounds(steps, "C", 23) == 10
        assert d.history[-1] == ("see", "B", 10, ())
        assert d.payouts[2] == sum(d.put_in)


def test_reference_example_4_refuses_seeing_the_blind_man():
    _, states = walk_reference("example_4")
    steps = EXAMPLES["example_4"][3]
    # C's turns in rounds 6 and 7: B is blind, C open, two in
    c_turns = [i for i, s in enumerate(steps) if s[0] == "C" and i > 23 and states[i].players_in() == [1, 2]]
    assert len(c_turns) == 2
    for i in c_turns:
        with pytest.raises(Refused) as refused:
            states[i].act("see")
        assert refused.value.code == "see_blind_man"
    # B, blind, may see C at the same point
    b_turns = [i for i, s in enumerate(steps) if s[0] == "B" and i > 23 and states[i].players_in() == [1, 2]]
    assert b_turns and all("see" in legal_map(states[i]) for i in b_turns)


def test_reference_pot_limit_five_players_first_stake_at_most_five():
    t = make_table("brag", pot_limit=True)
    d = RefDeal(t, list("ABCDE"), [None] * 5, dealer=4)
    assert legal_map(d)["stake"][:2] == (1, 5)
    d = d.act("look")
    assert legal_map(d)["stake"][:2] == (1, 5)
    with pytest.raises(Refused) as refused:
        d.act("stake", 6)
    assert refused.value.code == "stake_above_most"
    d = d.act("stake", 5)
    # the pot now holds 10; B, blind, needs at least 3 (half of 5, rounded up)
    assert legal_map(d)["stake"][:2] == (3, 10)


def test_reference_blind_stakes_move_the_stake_as_documented():
    d = RefDeal(make_table("brag", min_stake=3), list("ABC"), [None] * 3, dealer=2)
    assert legal_map(d)["stake"][0] == 2          # blind: half of 3 rounded up
    d = d.act("stake", 2)                          # exactly the least: S stays 3
    assert d.stake == 3
    d = d.act("stake", 4)                          # more: S becomes twice the stake
    assert d.stake == 8
    d = d.act("look").act("stake", 8)
    assert d.stake == 8 and legal_map(d)["stake"][0] == 4


def test_reference_limits():
    t = make_table("brag", min_stake=4, max_stake=10, raise_limit=3)
    d = RefDeal(t, list("ABC"), [None] * 3, dealer=2)
    # blind: least 2, most min(ceil(10/2), floor((4+3)/2)) = 3
    assert legal_map(d)["stake"][:2] == (2, 3)
    d = d.act("look")
    assert legal_map(d)["stake"][:2] == (4, 7)
    dbl = RefDeal(make_table("brag", min_stake=4, raise_limit="double"), list("AB"), [None] * 2, dealer=1)
    assert legal_map(dbl)["stake"][:2] == (2, 4)
    assert legal_map(dbl.act("look"))["stake"][:2] == (4, 8)
    # never forbid the least stake: a max below the least leaves the least
    low = RefDeal(make_table("brag", min_stake=9, max_stake=2), list("AB"), [None] * 2, dealer=1)
    assert legal_map(low)["stake"][:2] == (5, 5)


def test_reference_cover_and_pots_settled_newest_first():
    # B can pay the ante and nothing more; A and C play on for a new pot
    hands = [parse("Kh 9d 4c"), parse("As Ad Ac"), parse("Qs Qh 3d")]
    t = make_table("brag", min_stake=2)
    d = RefDeal(t, list("ABC"), hands, dealer=2, stacks=[50, 2, 50])
    d = d.act("stake", 1)                                   # A blind, least 1
    assert "cover" not in legal_map(d) and legal_map(d)["stake"][:2] == (1, 1)   # B has 1 left, least 1
    d = d.act("stake", 1)
    with pytest.raises(Refused) as refused:
        d.act("cover")
    assert refused.value.code == "cover_can_pay"
    d = d.act("stake", 1).act("stake", 1)                   # C, A
    assert legal_map(d)["cover"][2] == 0 and "stake" not in legal_map(d)
    d = d.act("cover")
    assert [p[0] for p in d.pots] == [3 + 4, 0] and d.pots[0][1] == 1
    d = d.act("stake", 1).act("fold")                       # C stakes, A folds
    assert d.over
    # C won the new pot (1 chip); B's prial beats C's pair: B takes the old pot
    assert d.pot_winners == [[1], [2]] and d.payouts == [0, 7, 1]
    assert d.shown_to_all == [False, True, True]


def test_reference_odd_chips_go_in_turn_order_from_the_dealers_left():
    hands = [parse("Kh 9d 4c"), parse("Ks 9c 4d"), parse("Kd 9h 4s")]
    d = RefDeal(make_table("brag"), list("ABC"), hands, dealer=0)
    d = d.act("stake", 1).act("agree_showdown").act("agree_showdown").act("agree_showdown")
    # pot 4 shared three ways: B (dealer's left) gets the odd chip
    assert d.over and d.ending == "showdown" and d.payouts == [1, 2, 1]


def test_reference_sideshow():
    hands = [parse("Kh 9d 4c"), parse("2s 3d 7h"), parse("Qs Qh 3d"), parse("Jh Js 5c")]
    d = RefDeal(make_table("teen_patti"), list("ABCD"), hands, dealer=3)
    d = d.act("look").act("stake", 2)                  # A
    with pytest.raises(Refused) as refused:
        d.act("sideshow", 2)
    assert refused.value.code == "sideshow_blind"
    d = d.act("look").act("stake", 2)                  # B open
    d = d.act("look")
    assert legal_map(d)["sideshow"][:2] == (2, 4)      # C asks B
    d = d.act("sideshow", 2)
    assert d.players[d.to_act] == "B" and [k for k, *_ in d.legal_actions()] == ["accept", "decline"]
    with pytest.raises(Refused) as refused:
        d.act("fold")
    assert refused.value.code == "answer_sideshow"
    d = d.act("accept")
    # C's pair of queens beats B's seven high: B folds; the turn passes to D
    assert d.status[1] == "folded" and d.players[d.to_act] == "D"
    assert set(d.visible("B")) == {"B", "C"} and set(d.visible("C")) == {"B", "C"}
    assert set(d.visible("A")) == {"A"}
    assert d.visible(None) == {}


def test_reference_four_card_keys_break_ties_by_discards():
    t = make_table("four_card_brag")
    # both best threes are A-K-Q high; the discard decides
    assert hand_key(t, parse("As Kd Qh 5c")) > hand_key(t, parse("Ac Kh Qd 4s"))
    # an open player keeps what they chose
    assert hand_key(t, parse("As Ad Ac 2c"), parse("As")) < hand_key(t, parse("As Ad Ac 2c"))


# ---------------------------------------------------------------------------
# prial against the reference
# ---------------------------------------------------------------------------

prial = pytest.importorskip("prial")
needs_table = pytest.mark.skipif(not hasattr(prial, "Deal"), reason="prial has no betting table")

GAME_NAMES = ("brag", "four_card_brag", "five_card_brag", "teen_patti")
CARDS = {"brag": 3, "four_card_brag": 4, "five_card_brag": 5, "teen_patti": 3}


def random_setup(rng: random.Random) -> dict:
    """Table options, players, dealer, stacks and hands for one deal."""
    game = rng.choice(GAME_NAMES)
    width = CARDS[game]
    n = rng.randint(2, 8)
    options: dict = {"ante": rng.choice([1, 1, 1, 2, 3, 0])}
    if rng.random() < 0.3:
        options["min_stake"] = rng.randint(1, 6)
    if rng.random() < 0.25:
        # TableRules refuses a max_stake below the (resolved) min_stake
        least = options.get("min_stake") or (2 * options["ante"] if game == "teen_patti" and options["ante"] else 1)
        options["max_stake"] = rng.randint(least, 20)
    r = rng.random()
    if r < 0.2:
        options["raise_limit"] = rng.randint(1, 6)
    elif r < 0.35:
        options["raise_limit"] = "double"
    if rng.random() < 0.2:
        options["pot_limit"] = True
    if rng.random() < 0.15:
        # now and then one the antes alone reach
        options["pot_cap"] = max(1, n * options["ante"] + rng.randint(-3, 60))
    if rng.random() < 0.2:
        options["blind_turns"] = rng.randint(0, 4)
    if rng.random() < 0.2:
        options["see_cost"] = rng.randint(1, 3)
    for flag in ("sideshow", "agreed_showdown", "cover"):
        if rng.random() < 0.35:
            options[flag] = rng.random() < 0.5
    preset = None
    if rng.random() < 0.15:
        preset = rng.choice([("brag", "second", "ace"), ("brag", "bottom", "three"), ("teen_patti", None, None)])
    stacks = None
    if rng.random() < 0.6:
        stacks = [rng.choice([rng.randint(0, 6), rng.randint(0, 30), rng.randint(20, 200)]) for _ in range(n)]
        ante = options["ante"]
        # at least two players dealt in
        while sum(s >= ante for s in stacks) < 2:
            stacks[rng.randrange(n)] = ante + rng.randint(0, 10)
    dealer = rng.randrange(n)
    seed = None
    r = rng.random()
    if r < 0.15:
        hands = tie_prone_hands(rng, n, width)
    elif r < 0.35:
        # prial deals from the seed; the reference by the documented algorithm
        seed = rng.getrandbits(64)
        dealt_in = [stacks is None or stacks[i] >= options["ante"] for i in range(n)]
        hands = deal_hands(seed_pack(seed), dealt_in, dealer, width)
    else:
        pack = rng.sample(range(52), n * width)
        hands = [sorted(pack[i * width:(i + 1) * width]) for i in range(n)]
    return {"game": game, "options": options, "preset": preset, "players": [f"P{i}" for i in range(n)],
            "dealer": dealer, "stacks": stacks, "hands": hands, "seed": seed}


def tie_prone_hands(rng: random.Random, n: int, width: int) -> list[list[int]]:
    """Up to four players hold the same ranks in different suits (suits
    rotate card by card, so no flush), so that shared pots and odd chips
    happen; the others are dealt from the rest of the pack."""
    ranks = rng.sample(range(13), width)
    hands = [[r * 4 + (i + j) % 4 for j, r in enumerate(ranks)] for i in range(min(n, 4))]
    rest = [c for c in range(52) if all(c not in h for h in hands)]
    extra = rng.sample(rest, (n - len(hands)) * width)
    hands += [extra[i * width:(i + 1) * width] for i in range(n - len(hands))]
    rng.shuffle(hands)
    return [sorted(h) for h in hands]


def prial_table(setup: dict):
    rules = None
    if setup["preset"] is not None:
        preset, a23, top = setup["preset"]
        extra = {k: v for k, v in (("ace_two_three", a23), ("top_prial", top)) if v is not None}
        rules = prial.Rules(preset=preset, **extra)
    return prial.TableRules(game=setup["game"], rules=rules, **setup["options"])


def ref_table(setup: dict):
    preset = setup["preset"] or (None, None, None)
    return make_table(setup["game"], preset=preset[0], ace_two_three=preset[1], top_prial=preset[2],
                      **setup["options"])


def start_both(setup: dict, short_may_only_fold: bool = True):
    stacks = setup["stacks"]
    hands = [None if stacks is not None and stacks[i] < setup["options"]["ante"] else h
             for i, h in enumerate(setup["hands"])]
    if setup["seed"] is not None:
        deal = prial.Deal.start(prial_table(setup), setup["players"], seed=setup["seed"], dealer=setup["dealer"],
                                stacks=stacks)
    else:
        deal = prial.Deal.start(prial_table(setup), setup["players"], cards=hands, dealer=setup["dealer"],
                                stacks=stacks)
    # The engine lets a short player without cover look and agree to a
    # showdown where the docs say they may only fold; that rule is tested on
    # its own (test_a_short_player_without_cover_may_only_fold) so that the
    # playouts go on comparing everything else.
    ref = RefDeal(ref_table(setup), setup["players"], hands, setup["dealer"], stacks,
                  short_may_only_fold=short_may_only_fold)
    return deal, ref


def none_low(x):
    return -1 if x is None else x


def prial_legal(deal) -> list[tuple]:
    out = []
    for a in deal.legal_actions():
        assert a.player == deal.to_act, a
        out.append((a.kind, a.least, a.most, a.amount if a.kind in ("see", "cover") else None))
    return sorted(out, key=lambda t: (t[0], none_low(t[1]), none_low(t[2]), none_low(t[3])))


def ref_legal(ref: RefDeal) -> list[tuple]:
    return sorted(ref.legal_actions(), key=lambda t: (t[0], none_low(t[1]), none_low(t[2]), none_low(t[3])))


def ref_name(ref: RefDeal, seat):
    return None if seat is None else ref.players[seat]


def differences(deal, ref: RefDeal, strict_discards: bool = True, viewers=None) -> list[str]:
    """Every observable on which prial and the reference disagree; the
    views of ``viewers`` (None: every player and a spectator)."""
    out = []

    def same(what, got, want):
        if got != want:
            out.append(f"{what}: prial {got!r}, reference {want!r}")

    same("over", deal.over, ref.over)
    same("to_act", deal.to_act, ref_name(ref, ref.to_act))
    same("legal", prial_legal(deal), ref_legal(ref))
    if not ref.over:
        same("stake", deal.stake, ref.stake)
    same("pots", [(p.amount, p.coverer) for p in deal.pots], [(a, ref_name(ref, c)) for a, c in ref.pots])
    # once the deal is over, a seat's stack holds what it won (prial's Deal.stacks: "chips behind now")
    won = ref.payouts if ref.over else [0] * ref.n
    same("seats", [(s.player, s.status, s.stack, s.put_in, s.blind_stakes) for s in deal.seats],
         [(p, ref.status[i], None if ref.stacks is None else ref.stacks[i] + won[i], ref.put_in[i],
           ref.blind_stakes[i]) for i, p in enumerate(ref.players)])
    result = deal.result
    if ref.over:
        if result is None:
            out.append("result: prial None at the end")
        else:
            same("result.known", result.known, True)
            same("payouts", result.payouts, {p: ref.payouts[i] for i, p in enumerate(ref.players)})
            same("pot winners", [set(p.winners) for p in result.pots],
                 [{ref.players[s] for s in w} for w in ref.pot_winners])
            paid = {p for i, p in enumerate(ref.players) if ref.payouts[i] > 0}
            same("winners", set(result.winners or ()), paid or {ref.players[s] for s in ref.pot_winners[-1]})
    elif result is not None:
        out.append(f"result: prial {result!r} before the end")
    for viewer in ref.players + [None] if viewers is None else viewers:
        got = {p: frozenset(c) for p, c in deal.view(viewer).cards.items()}
        if not strict_discards:
            # to look past another open player's discards in a view
            got = {p: c - frozenset(ref.discarded[ref.seat_of(p)] or ()) if p != viewer else c
                   for p, c in got.items()}
        same(f"view({viewer!r}).cards", got, ref.visible(viewer))
    return out


def choose(rng: random.Random, ref: RefDeal):
    """A random legal action: (kind, amount, discards)."""
    legal = ref.legal_actions()
    kinds = [k for k, *_ in legal]
    if len(ref.history) > 60 and "fold" in kinds:
        return "fold", None, ()
    kind, least, most, _ = rng.choice(legal)
    amount, discards = None, ()
    if kind in ("stake", "sideshow"):
        top = least * 4 if most is None else min(most, least * 4)
        amount = most if most is not None and rng.random() < 0.1 else rng.randint(least, top)
    elif kind == "discard":
        discards = tuple(rng.sample(ref.hands[ref.to_act], ref.table.discards))
    return kind, amount, discards


def probes(rng: random.Random, ref: RefDeal) -> list[tuple]:
    """Actions to try that the reference refuses: (kind, player, amount, discards)."""
    out = []
    if ref.over:
        return [("fold", None, None, ()), ("stake", None, 1, ())]
    seat = ref.to_act
    me = ref.players[seat]
    hand = ref.hands[seat]
    legal = legal_map(ref)
    for kind in KINDS:
        if kind in legal:
            continue
        amount = ref.least(seat) if kind in ("stake", "sideshow") else None
        discards = tuple(hand[:ref.table.discards]) if kind == "discard" else ()
        out.append((kind, rng.choice([None, me]), amount, discards))
    for kind in ("stake", "sideshow"):
        if kind in legal:
            least, most, _ = legal[kind]
            out.append((kind, None, least - 1, ()))
            if most is not None:
                out.append((kind, None, most + 1, ()))
            out.append((kind, None, None, ()))
    if "see" in legal:
        price = legal["see"][2]
        out.append(("see", None, price + 1, ()))
        out.append(("see", None, price - 1, ()))
    if "discard" in legal:
        n = ref.table.discards
        out.append(("discard", None, None, tuple(hand[:n - 1])))
        out.append(("discard", None, None, tuple(hand[:n + 1])))
        foreign = next(c for c in range(52) if all(c not in h for h in ref.hands if h))
        out.append(("discard", None, None, tuple(hand[:n - 1]) + (foreign,)))
    if "fold" in legal:
        out.append(("fold", None, 1, ()))
    for other in ref.players:  # every player not to act, with an action the one to act may take
        if other != me:
            out.append((rng.choice(sorted(legal)), other, None, ()))
    out.append(("fold", "nobody-here", None, ()))
    out.append(("check", None, None, ()))
    return [p for p in out if ref.refusal(p[0], p[1], p[2], p[3]) is not None]


def refusal_differences(deal, ref: RefDeal, rng: random.Random) -> list[str]:
    out = []
    for kind, player, amount, discards in probes(rng, ref):
        want = ref.refusal(kind, player, amount, discards)
        try:
            deal.act(prial.Action(kind, player=player, amount=amount, discards=discards))
        except prial.IllegalActionError as exc:
            if exc.code != want:
                out.append(f"refusal of {(kind, player, amount, discards)}: prial {exc.code!r}, reference {want!r}")
        else:
            out.append(f"refusal of {(kind, player, amount, discards)}: prial accepted, reference {want!r}")
    return out


def repro(setup: dict, actions: list) -> str:
    return json.dumps({"setup": setup, "actions": actions})


def walk(seed: int):
    """One random deal played on both, yielding (deal, ref, setup, actions,
    rng) at every state, the last one over."""
    rng = random.Random(seed)
    setup = random_setup(rng)
    deal, ref = start_both(setup)
    actions: list = []
    while True:
        yield deal, ref, setup, actions, rng
        if ref.over:
            return
        kind, amount, discards = choose(rng, ref)
        actions.append((ref.players[ref.to_act], kind, amount, list(discards)))
        ref = ref.act(kind, amount, discards)
        try:
            deal = deal.act(prial.Action(kind, amount=amount, discards=discards))
        except prial.IllegalActionError as exc:
            raise AssertionError(f"seed {seed}: prial refused {actions[-1]} ({exc.code}: {exc})\nrepro: "
                                 + repro(setup, actions)) from None


def play(seed: int, probe: bool = True):
    """One random deal compared state by state; returns (deal, ref, actions, setup)."""
    for deal, ref, setup, actions, rng in walk(seed):
        # every view at the end; on the way, one viewer a state (views are
        # the dearest observable, and a leak persists to the end anyway)
        viewers = None if ref.over else [rng.choice(ref.players + [None])]
        diffs = differences(deal, ref, viewers=viewers)
        if probe:
            diffs += refusal_differences(deal, ref, rng)
        assert not diffs, f"seed {seed}: " + "; ".join(diffs) + "\nrepro: " + repro(setup, actions)
    return deal, ref, actions, setup


NORMAL_DEALS = 20_000
CHUNKS = 20
# The README's command plays the first quarter; the slow tier the rest.
FAST_CHUNKS = 5


@needs_table
@pytest.mark.parametrize("chunk", [pytest.param(c, marks=[pytest.mark.slow] if c >= FAST_CHUNKS else [])
                                   for c in range(CHUNKS)])
def test_random_deals_agree_with_the_reference(chunk):
    per = NORMAL_DEALS // CHUNKS
    for seed in range(chunk * per, (chunk + 1) * per):
        # every state compared on every deal; refusals probed on one deal in five
        play(seed, probe=seed % 5 == 0)


SLOW_DEALS = 1_000_000
SLOW_CHUNKS = 40


@needs_table
@pytest.mark.slow
@pytest.mark.exhaustive
@pytest.mark.parametrize("chunk", range(SLOW_CHUNKS))
def test_a_million_random_deals_agree_with_the_reference(chunk):
    per = SLOW_DEALS // SLOW_CHUNKS
    first = SLOW_DEALS + chunk * per
    for seed in range(first, first + per):
        play(seed, probe=seed % 16 == 0)


# ---------------------------------------------------------------------------
# Invariants: whatever the rules say, these hold
# ---------------------------------------------------------------------------

CHIP_EVENTS = ("ante", "stake", "see", "cover")


def invariant_failures(deal, setup: dict, actions: list) -> list[str]:
    out = []
    seats, pots = deal.seats, deal.pots
    stacks = setup["stacks"]
    in_pots = sum(p.amount for p in pots)
    if stacks is not None:
        behind = sum(s.stack for s in seats)
        # while playing, chips are behind or in the pots; at the end, back behind
        want = sum(stacks) - (0 if deal.over else in_pots)
        if behind != want:
            out.append(f"chips not conserved: {behind} behind, {in_pots} in the pots, {sum(stacks)} at the start")
    if sum(s.put_in for s in seats) != in_pots:
        out.append(f"put in {sum(s.put_in for s in seats)} but the pots hold {in_pots}")
    events = deal.events
    for k, pot in enumerate(pots):
        went_in = sum(e.amount for e in events if e.kind in CHIP_EVENTS and e.pot == k)
        if went_in != pot.amount:
            out.append(f"pot {k} holds {pot.amount} but {went_in} went into it")
    wins = [e for e in events if e.kind == "win"]
    result = deal.result
    if deal.over:
        if result is None or deal.to_act is not None or deal.legal_actions():
            out.append("over, yet no result, or someone to act, or legal actions")
        elif result.known:
            if sum(result.payouts.values()) != in_pots:
                out.append(f"payouts {result.payouts} do not add up to the pots' {in_pots}")
            for k, pot in enumerate(pots):
                paid = sum(e.amount for e in wins if e.pot == k)
                if paid != pot.amount:
                    out.append(f"pot {k} of {pot.amount} paid {paid}")
            by_player = {p: 0 for p in deal.players}
            for e in wins:
                by_player[e.player] += e.amount
            if by_player != result.payouts:
                out.append(f"win events {by_player} differ from payouts {result.payouts}")
            if {p: result.payouts[p] - s.put_in for p, s in zip(deal.players, seats)} != result.nets:
                out.append(f"nets {result.nets} are not payouts less what was put in")
        for kind in ("fold", "stake", "look"):
            try:
                deal.act(kind, 1 if kind == "stake" else None)
            except prial.IllegalActionError as exc:
                if exc.code != "deal_over":
                    out.append(f"{kind} after the end refused with {exc.code}")
            else:
                out.append(f"{kind} accepted after the end")
    else:
        if result is not None or wins or deal.to_act is None or not deal.legal_actions():
            out.append("not over, yet a result, a win, nobody to act or no legal action")
    # views: a hand only where a show reached the viewer (or their own, looked at)
    looked = {a.player for a in deal.history if a.kind == "look"}
    shown_to: dict = {p: set() for p in deal.players}
    for e in events:
        if e.kind == "show":
            shown_to[e.player] |= set(deal.players) if e.to is None else set(e.to)
    for player, to in shown_to.items():
        # shows that have reached every other player, of a hand its owner
        # has seen, have made it public
        if to | {player} == set(deal.players) and (player in to or player in looked):
            to |= {player, None}
    for viewer in list(deal.players) + [None]:
        view = deal.view(viewer)
        if (view.player, view.to_act, view.stake, view.pots, view.seats, view.result) != \
                (viewer, deal.to_act, deal.stake, deal.pots, deal.seats, deal.result):
            out.append(f"view({viewer!r}) differs from the deal in its public state")
        if view.legal_actions != (deal.legal_actions() if viewer is not None and viewer == deal.to_act else ()):
            out.append(f"view({viewer!r}) has legal actions {view.legal_actions} of another player")
        for player in view.cards:
            own = player == viewer and player in looked
            if not own and viewer not in shown_to[player] and not (viewer is None and None in shown_to[player]):
                out.append(f"view({viewer!r}) holds {player!r}'s cards, never shown to it")
        for a in view.history:
            if a.kind == "discard" and a.player != viewer and a.discards:
                out.append(f"view({viewer!r}) history holds {a.player!r}'s discards")
        if hasattr(view, "seed") or (setup["seed"] is not None and str(setup["seed"]) in repr(view)):
            out.append(f"view({viewer!r}) holds the seed")
    return out


def replayed(deal, setup: dict):
    """The same deal made again from its setup and its history."""
    again = prial.Deal.start(deal.table, list(deal.players), cards=None if setup["seed"] is not None else
                             [None if h is None else list(h) for h in start_cards(setup)],
                             seed=setup["seed"], dealer=setup["dealer"], stacks=setup["stacks"])
    for a in deal.history:
        again = again.act(a.kind, a.amount if a.kind in ("stake", "sideshow") else None, a.discards or None,
                          player=a.player)
    return again


def start_cards(setup: dict):
    stacks = setup["stacks"]
    return [None if stacks is not None and stacks[i] < setup["options"]["ante"] else h
            for i, h in enumerate(setup["hands"])]


@needs_table
@pytest.mark.parametrize("chunk", range(4))
def test_invariants_at_every_state(chunk):
    for seed in range(100_000 + chunk * 200, 100_000 + (chunk + 1) * 200):
        pick = random.Random(seed).randrange(1000)
        for i, (deal, ref, setup, actions, rng) in enumerate(walk(seed)):
            failures = invariant_failures(deal, setup, actions)
            if ref.over or i == pick % (len(actions) + 1):
                # JSON and replay: the whole deal again, equal in every observable
                for again in (prial.Deal.from_json(deal.to_json()), replayed(deal, setup)):
                    if again != deal:
                        failures.append("a deal made again is not equal")
                    failures += differences(again, ref)
                    if again.result != deal.result or again.events != deal.events:
                        failures.append("a deal made again has other events or another result")
            assert not failures, f"seed {seed}: " + "; ".join(failures) + "\nrepro: " + repro(setup, actions)


@needs_table
def test_a_deal_is_left_unchanged_by_acting_and_by_refusals():
    setup = random_setup(random.Random(7))
    deal, ref = start_both(setup)
    before = (deal.to_act, deal.stake, deal.pots, deal.seats, deal.legal_actions(), deal.history, deal.events)
    kind, least, most, amount = ref.legal_actions()[0]
    deal.act(kind, least)
    with pytest.raises(prial.IllegalActionError):
        deal.act("check")
    assert (deal.to_act, deal.stake, deal.pots, deal.seats, deal.legal_actions(), deal.history,
            deal.events) == before


# ---------------------------------------------------------------------------
# Seeds
# ---------------------------------------------------------------------------

def shown_hands(table_kwargs: dict, players: list[str], seed, dealer: int = 0) -> dict:
    """Every hand of a seeded deal, shown by an agreed showdown."""
    deal = prial.Deal.start(prial.TableRules(agreed_showdown=True, **table_kwargs), players, seed=seed, dealer=dealer)
    while not deal.over:
        deal = deal.act("agree_showdown")
    return {p: sorted(c) for p, c in deal.view(None).cards.items()}


@needs_table
@pytest.mark.parametrize("game", GAME_NAMES)
def test_same_seed_same_cards_by_the_documented_algorithm(game):
    players = ["A", "B", "C", "D"]
    rng = random.Random(game)
    for seed in [0, 1, 2**64 - 1, 2**63] + [rng.getrandbits(64) for _ in range(20)]:
        dealer = rng.randrange(4)
        first = shown_hands({"game": game}, players, seed, dealer)
        assert first == shown_hands({"game": game}, players, seed, dealer)
        want = deal_hands(seed_pack(seed), [True] * 4, dealer, CARDS[game])
        assert first == {p: sorted(h) for p, h in zip(players, want)}, seed


@needs_table
def test_seeds_differ_and_an_unseeded_deal_records_its_own():
    players = ["A", "B", "C"]
    hands = [shown_hands({}, players, seed) for seed in range(30)]
    assert len({json.dumps(h, sort_keys=True) for h in hands}) == 30
    a = prial.Deal.start(prial.TableRules(), players)
    b = prial.Deal.start(prial.TableRules(), players)
    assert json.loads(a.to_json())["seed"] != json.loads(b.to_json())["seed"]
    for d in (a, b):
        again = prial.Deal.from_json(d.to_json())
        while not d.over:
            d, again = d.act("agree_showdown"), again.act("agree_showdown")
        assert d.view(None).cards == again.view(None).cards and d.result == again.result


@needs_table
def test_seed_stays_out_of_every_view():
    seed = 2**64 - 12345
    deal = prial.Deal.start(prial.TableRules(), ["A", "B", "C"], seed=seed)
    while not deal.over:
        for viewer in ("A", "B", "C", None):
            assert str(seed) not in repr(deal.view(viewer)) and not hasattr(deal.view(viewer), "seed")
        deal = deal.act("look") if deal.seats[deal.players.index(deal.to_act)].status == "blind" else \
            deal.act("agree_showdown")


# ---------------------------------------------------------------------------
# Rules found apart from the random playouts
# ---------------------------------------------------------------------------

@needs_table
@pytest.mark.parametrize("game", ["four_card_brag", "five_card_brag"])
def test_views_hide_other_players_discards(game):
    """docs/rules.md: no view holds another player's discards, even when
    that player's hand is shown at a showdown."""
    for seed in range(20):
        deal = prial.Deal.start(prial.TableRules(game=game), ["A", "B", "C"], seed=seed)
        discarded = {}
        while not deal.over:
            me = deal.to_act
            if me not in discarded:
                deal = deal.act("look")
                own = deal.view(me).cards[me]
                discarded[me] = tuple(own[:CARDS[game] - 3])
                deal = deal.act("discard", discards=list(discarded[me]))
            deal = deal.act("agree_showdown")
        for viewer in ["A", "B", "C", None]:
            for player, cards in deal.view(viewer).cards.items():
                if player != viewer:
                    assert not set(cards) & set(discarded[player]), (seed, viewer, player, cards, discarded)


@needs_table
def test_pot_cap_reached_by_the_antes_waits_for_a_stake():
    """docs/rules.md: the players show "once the chips in the pots reach C
    after a stake or a cover"; a fold is neither."""
    table = prial.TableRules(game="teen_patti", ante=3, pot_cap=9)
    hands = ["As Ad Ac", "2c 3c 5d", "Kh Qd 9s", "7c 7d 2h"]
    deal = prial.Deal.start(table, ["A", "B", "C", "D"], cards=hands, dealer=3)
    assert deal.pots[0].amount == 12 and not deal.over and deal.to_act == "A"
    folded = deal.act("fold")
    assert not folded.over and folded.to_act == "B"
    staked = deal.act("look").act("stake", 6)
    assert staked.over and staked.result.ending == "pot_cap" and staked.result.winners == ("A",)


@needs_table
def test_table_rules_resolve_the_games_defaults_as_the_reference_does():
    rng = random.Random(3)
    for _ in range(300):
        setup = random_setup(rng)
        table, ref = prial_table(setup), ref_table(setup)
        assert (table.game, table.rules.preset, table.rules.ace_two_three, table.rules.top_prial, table.cards,
                table.discards, table.ante, table.min_stake, table.max_stake, table.raise_limit, table.pot_limit,
                table.pot_cap, table.blind_turns, table.see_cost, table.sideshow, table.agreed_showdown,
                table.cover) == \
            (ref.game, ref.preset, ref.ace_two_three, ref.top_prial, ref.cards, ref.discards, ref.ante,
             ref.min_stake, ref.max_stake, ref.raise_limit, ref.pot_limit, ref.pot_cap, ref.blind_turns,
             ref.see_cost, ref.sideshow, ref.agreed_showdown, ref.cover), setup
        assert table == prial_table(setup) and hash(table) == hash(prial_table(setup))
        with pytest.raises(AttributeError):
            table.ante = 5


@needs_table
def test_chips_never_wrap_around():
    """Without stacks nothing bounds the stakes but the amounts a deal can
    hold: every accepted stake must leave the pot equal to what went in,
    and one the deal cannot hold must be refused with a prial error."""
    deal = prial.Deal.start(prial.TableRules(), ["A", "B"], cards=["As Kd 7h", "2c 3c 4c"]).act("look")
    for _ in range(1100):
        if deal.seats[deal.players.index(deal.to_act)].status == "blind":
            deal = deal.act("look")
        amount = legal_map_of(deal)["stake"].most or 2**53
        try:
            deal = deal.act("stake", amount)
        except prial.Error:
            break
        pot = deal.pots[-1].amount
        assert pot > 0 and pot == sum(s.put_in for s in deal.seats), (len(deal.history), pot)


def legal_map_of(deal) -> dict:
    return {a.kind: a for a in deal.legal_actions()}


@needs_table
def test_an_amount_too_large_for_the_engine_is_a_prial_error():
    deal = prial.Deal.start(prial.TableRules(), ["A", "B"], cards=["As Kd 7h", "2c 3c 4c"])
    with pytest.raises(prial.Error):
        deal.act("stake", 2**70)


@needs_table
def test_unknown_hands_end_the_deal_with_unknown_winners_only_where_they_decide():
    table = prial.TableRules(game="teen_patti", sideshow=True)
    unknown = [None, None, None]
    deal = prial.Deal.start(prial.TableRules(), ["A", "B"], cards=[None, None]).act("stake", 1)
    seen = deal.act("see")
    assert seen.over and not seen.result.known and seen.result.winners is None and seen.result.payouts is None
    folded = deal.act("fold")
    assert folded.over and folded.result.known and folded.result.payouts == {"A": 0, "B": 3}
    # a sideshow between unknown hands cannot say who folds: the deal ends there
    asked = prial.Deal.start(table, ["A", "B", "C"], cards=unknown).act("look").act("stake", 2) \
        .act("look").act("sideshow", 2)
    accepted = asked.act("accept")
    assert accepted.over and not accepted.result.known
    declined = asked.act("decline")
    assert not declined.over and declined.to_act == "A"
    # an agreed showdown needs the hands; one known hand is not enough
    deal = prial.Deal.start(prial.TableRules(), ["A", "B", "C"], cards=["As Ad Ac", None, None])
    while not deal.over:
        deal = deal.act("agree_showdown")
    assert not deal.result.known


@needs_table
@pytest.mark.parametrize("game", ["brag", "teen_patti"])
def test_a_short_player_without_cover_may_only_fold(game):
    """docs/rules.md: "With cover=False a player who cannot pay their least
    stake may only fold" (the SPEC: "must fold"); agreeing to a showdown
    would take them to it without paying."""
    setup = {"game": game, "options": {"ante": 1, "cover": False, "agreed_showdown": True}, "preset": None,
             "players": ["A", "B", "C"], "dealer": 0, "stacks": [20, 1, 20],
             "hands": [parse("Kh 9d 4c"), parse("As Ad Ac"), parse("Qs Qh 3d")], "seed": None}
    deal, ref = start_both(setup, short_may_only_fold=True)
    assert deal.to_act == "B" and deal.seats[1].stack == 0
    assert [k for k, *_ in ref.legal_actions()] == ["fold"]
    assert [a.kind for a in deal.legal_actions()] == ["fold"]
    for kind in ("agree_showdown", "look"):
        with pytest.raises(prial.IllegalActionError):
            deal.act(kind)


@needs_table
def test_json_with_an_illegal_action_is_refused_on_replay():
    # dealer A: B stakes 3 blind (S becomes 6), then C, blind, at least 3
    deal = prial.Deal.start(prial.TableRules(), ["A", "B", "C"], seed=99).act("stake", 3).act("stake", 3)
    data = json.loads(deal.to_json())
    assert [(a["player"], a["amount"]) for a in data["actions"]] == [("B", 3), ("C", 3)]
    data["actions"][1]["amount"] = 2
    with pytest.raises(prial.IllegalActionError) as refused:
        prial.Deal.from_json(json.dumps(data))
    assert refused.value.code == "stake_below_least"
    data["actions"][1]["amount"] = 3
    data["actions"][1]["player"] = "A"
    with pytest.raises(prial.IllegalActionError) as refused:
        prial.Deal.from_json(json.dumps(data))
    assert refused.value.code == "not_your_turn"


@needs_table
def test_a_negative_amount_is_refused_by_the_rule_it_breaks():
    """docs/rules.md's codes: bad_amount is an amount where the action takes
    none, or none where it needs one; a negative stake is below the least,
    a negative see is not the see's price."""
    deal = prial.Deal.start(prial.TableRules(), ["A", "B"], cards=["As Kd 7h", "2c 3c 4c"])
    with pytest.raises(prial.IllegalActionError) as refused:
        deal.act("stake", -1)
    assert refused.value.code == "stake_below_least"
    deal = deal.act("stake", 1)
    with pytest.raises(prial.IllegalActionError) as refused:
        deal.act("see", -2)
    assert refused.value.code == "see_price"


SCRIPTS = {
    # name: (game, options, hands, dealer, stacks, actions)
    "odd_chip_to_the_dealers_left": (
        "brag", {}, ["Kh 9d 4c", "Ks 9c 4d", "Kd 9h 4s"], 0, None,
        [("stake", 1), ("agree_showdown",), ("agree_showdown",), ("agree_showdown",)]),
    "odd_chips_five_ways": (
        "brag", {"ante": 3}, ["Kh 9d 4c", "Ks 9c 4d", "Kd 9h 4s", "Kc 9s 4h", "2c 3d 5h"], 3, None,
        [("agree_showdown",)] * 5),
    "coverer_takes_the_old_pot": (
        "brag", {"min_stake": 2}, ["Kh 9d 4c", "As Ad Ac", "Qs Qh 3d"], 2, [50, 2, 50],
        [("stake", 1), ("stake", 1), ("stake", 1), ("stake", 1), ("cover",), ("stake", 1), ("fold",)]),
    "coverer_ties_the_winner": (
        "brag", {}, ["Kh 9d 4c", "Ks 9c 4d", "2c 3d 5h"], 2, [50, 1, 50],
        [("stake", 1), ("cover",), ("look",), ("stake", 1), ("see",)]),
    "two_covers_chained": (
        "brag", {}, ["2c 3d 5h", "As Ad Ac", "Ks Kd 4h", "Qs Qh 6d"], 3, [40, 1, 2, 40],
        [("stake", 1), ("cover",), ("stake", 1), ("stake", 1), ("stake", 1), ("cover",), ("look",),
         ("stake", 1), ("look",), ("see",)]),
    "sideshow_accepted": (
        "teen_patti", {}, ["Kh 9d 4c", "2s 3d 7h", "Qs Qh 6d", "Jh Js 5c"], 3, None,
        [("look",), ("stake", 2), ("look",), ("stake", 2), ("look",), ("sideshow", 2), ("accept",),
         ("fold",), ("fold",)]),
    "sideshow_tie_folds_the_asker": (
        "teen_patti", {}, ["Kh 9d 4c", "Ks 9c 4d", "Kd 9h 4s", "2c 3d 5h"], 3, None,
        [("look",), ("stake", 2), ("look",), ("stake", 2), ("look",), ("sideshow", 2), ("accept",), ("fold",),
         ("fold",)]),
    "blind_sees_blind": (
        "brag", {}, ["Kh 9d 4c", "Ks 9c 4d"], 1, None, [("stake", 1), ("see",)]),
    "four_card_tie_broken_by_discard": (
        "four_card_brag", {}, ["As Kd Qh 5c", "Ac Kh Qd 4s"], 1, None,
        [("look",), ("discard", None, "5c"), ("stake", 2), ("look",), ("discard", None, "4s"), ("see",)]),
    "pot_cap_after_a_cover": (
        "brag", {"pot_cap": 9}, ["2c 3d 5h", "As Ad Ac", "Ks Kd 4h", "Qs Qh 6d"], 3, [40, 1, 40, 40],
        [("stake", 3), ("cover",), ("stake", 3)]),
}


@needs_table
@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_scripted_deals_agree_with_the_reference(name):
    game, options, hands, dealer, stacks, steps = SCRIPTS[name]
    players = [chr(ord("A") + i) for i in range(len(hands))]
    setup = {"game": game, "options": {"ante": 1, **options}, "preset": None, "players": players,
             "dealer": dealer, "stacks": stacks, "hands": [parse(h) for h in hands], "seed": None}
    deal, ref = start_both(setup)
    for step in steps:
        assert not differences(deal, ref), (name, ref.history)
        kind, amount = step[0], step[1] if len(step) > 1 else None
        discards = tuple(parse(step[2])) if len(step) > 2 else ()
        ref = ref.act(kind, amount, discards)
        deal = deal.act(prial.Action(kind, amount=amount, discards=discards))
    assert ref.over and not differences(deal, ref), (name, differences(deal, ref))
