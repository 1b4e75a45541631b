"""Draw Brag's betting (docs/rules.md, "Draw Brag") against a deliberately
simple reference written here: plain Python, every rule spelled out where
it applies, compared with prial.Deal over thousands of seeded deals, legal
actions and refusal codes at every step; the rules' own sequences; and the
invariants (chips kept, the raise cap, half price only while blind, a draw
of 0 to 3 cards only between the rounds)."""

from __future__ import annotations

import json
import random
import re

import pytest

import prial
from prial.table import from_record, to_record

from .reference import natural
from .table_reference import deal_hands, seed_pack

KINDS = ("look", "fold", "check", "call", "raise", "draw")
OTHER_KINDS = ("discard", "stake", "see", "cover", "sideshow", "accept", "decline", "agree_showdown", "dance")


class Refused(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class RefDraw:
    """One deal of draw Brag; ``act`` changes it in place."""

    def __init__(self, hands, stub, dealer=0, stacks=None, ante=0, small=1, big=2, first=None, blind_raise=True,
                 blind_rounds=2, from_small=False):
        n = len(hands)
        self.n, self.dealer, self.hands, self.stub = n, dealer, [list(h) for h in hands], list(stub)
        self.stacks = None if stacks is None else list(stacks)
        self.first, self.blind_raise, self.blind_rounds, self.from_small = first or 2 * big, blind_raise, \
            blind_rounds, from_small
        self.status = ["blind"] * n
        self.put = [0] * n
        for i in range(n):
            if self.stacks is not None and self.stacks[i] < ante + big:
                self.status[i] = "out"
        for i in self.clockwise(dealer):
            self.pay(i, ante)
        self.round, self.raises, self.bet = 1, 0, big
        self.level, self.acted, self.drawn = [0] * n, [False] * n, [False] * n
        self.small_seat = self.next_in(dealer)
        self.big_seat = self.next_in(self.small_seat)
        self.pay(self.small_seat, small)
        self.level[self.small_seat] = small
        self.pay(self.big_seat, big)
        self.level[self.big_seat] = big
        self.turn = self.next_in(self.big_seat)
        self.payouts = None

    def clockwise(self, after):
        return [(after + k) % self.n for k in range(1, self.n + 1) if self.status[(after + k) % self.n] != "out"]

    def is_in(self, i):
        return self.status[i] in ("blind", "open")

    def next_in(self, after):
        return next(i for i in ((after + k) % self.n for k in range(1, self.n + 1)) if self.is_in(i))

    def pay(self, i, chips):
        self.put[i] += chips
        if self.stacks is not None:
            self.stacks[i] -= chips

    def can_pay(self, i, chips):
        return self.stacks is None or self.stacks[i] >= chips

    def players_in(self):
        return sum(self.is_in(i) for i in range(self.n))

    def unit(self):
        return 2 * self.first if self.round == 3 else self.first

    def call_price(self, i):
        owed = self.bet - self.level[i]
        half = self.status[i] == "blind" and (self.blind_rounds == 2 or self.round == 1)
        return (owed + 1) // 2 if half else owed

    def raise_price(self, i):
        return self.bet - self.level[i] + self.unit()

    def legal(self):
        """(kind, amount, least, most) as prial.Action gives them."""
        if self.payouts is not None:
            return []
        i = self.turn
        out = [("look", None, None, None)] if self.status[i] == "blind" else []
        out.append(("fold", None, None, None))
        if self.round == 2:
            return out + [("draw", None, 0, 0 if self.status[i] == "blind" else 3)]
        if self.bet == self.level[i]:
            out.append(("check", None, None, None))
        elif self.can_pay(i, self.call_price(i)):
            out.append(("call", self.call_price(i), None, None))
        capped = self.players_in() > 2 and self.raises >= 3
        if not capped and (self.blind_raise or self.status[i] != "blind") and self.can_pay(i, self.raise_price(i)):
            out.append(("raise", self.raise_price(i), None, None))
        return out

    def code(self, kind, discards=(), amount=None):
        """The code refusing the action of the player to act, or None."""
        i = self.turn
        if self.payouts is not None:
            return "deal_over"
        if kind not in KINDS:
            return "unknown_action"
        if (kind not in ("call", "raise", "draw") and amount is not None) or (kind != "draw" and discards):
            return "bad_amount"
        if self.round == 2 and kind not in ("draw", "look", "fold"):
            return "must_draw"
        if kind == "look":
            return None if self.status[i] == "blind" else "already_open"
        if kind == "draw":
            if self.round != 2:
                return "no_draw"
            if len(discards) > 3 or (amount is not None and amount != len(discards)):
                return "draw_count"
            if discards and self.status[i] == "blind":
                return "draw_blind"
            if len(set(discards)) != len(discards) or any(c not in self.hands[i] for c in discards):
                return "draw_not_held"
            return None
        if kind == "check":
            return None if self.bet == self.level[i] else "check_facing_bet"
        if kind == "call":
            if self.bet == self.level[i]:
                return "nothing_to_call"
            price = self.call_price(i)
        elif kind == "raise":
            if self.status[i] == "blind" and not self.blind_raise:
                return "blind_no_raise"
            if self.players_in() > 2 and self.raises >= 3:
                return "raise_cap"
            price = self.raise_price(i)
        else:
            return None
        if amount is not None and amount != price:
            return "wrong_price"
        return None if self.can_pay(i, price) else "cannot_afford"

    def act(self, kind, discards=(), amount=None):
        code = self.code(kind, discards, amount)
        if code is not None:
            raise Refused(code)
        i = self.turn
        if kind == "look":
            self.status[i] = "open"
            return
        if kind == "fold":
            self.status[i] = "folded"
        elif kind == "check":
            self.acted[i] = True
        elif kind == "call":
            self.pay(i, self.call_price(i))
            self.level[i], self.acted[i] = self.bet, True
        elif kind == "raise":
            self.pay(i, self.raise_price(i))
            if self.bet > 0:
                self.raises += 1
            self.bet += self.unit()
            self.level[i] = self.bet
            self.acted = [j == i for j in range(self.n)]
        elif kind == "draw":
            for card in discards:
                self.hands[i][self.hands[i].index(card)] = self.stub.pop(0)
            self.drawn[i] = True
        self.after(i)

    def after(self, i):
        ins = [j for j in range(self.n) if self.is_in(j)]
        if len(ins) == 1:
            return self.settle(ins)
        if self.round == 2:
            done = all(self.drawn[j] for j in ins)
        else:
            done = all(self.acted[j] and self.level[j] == self.bet for j in ins)
        if not done:
            self.turn = self.next_in(i)
            while self.round == 2 and self.drawn[self.turn]:
                self.turn = self.next_in(self.turn)
            return None
        if self.round == 3:
            keys = {j: natural(tuple(self.hands[j]), "brag", "top", "three")[1] for j in ins}
            best = max(keys.values())
            return self.settle([j for j in ins if keys[j] == best])
        self.round += 1
        self.bet, self.raises = 0, 0
        self.level, self.acted = [0] * self.n, [False] * self.n
        after = self.big_seat if self.round == 3 and not self.from_small else self.dealer
        self.turn = self.next_in(after)
        return None

    def settle(self, winners):
        pot = sum(self.put)
        order = [j for j in ((self.dealer + k) % self.n for k in range(1, self.n + 1)) if j in winners]
        share, odd = divmod(pot, len(winners))
        self.payouts = [0] * self.n
        for k, j in enumerate(order):
            self.payouts[j] = share + (1 if k < odd else 0)


def random_options(rng: random.Random) -> dict:
    small = rng.choice([0, 1, 1, 2, 5])
    big = rng.choice([max(small, 1), 2 * max(small, 1), 3 * max(small, 1)])
    return {"ante": rng.choice([0, 0, 1]), "small": small, "big": big,
            "first": rng.choice([None, big, 3]), "blind_raise": rng.random() < 0.7,
            "blind_rounds": rng.choice([1, 2]), "from_small": rng.random() < 0.3}


def table_of(o: dict) -> prial.TableRules:
    return prial.TableRules(game="draw_brag", ante=o["ante"], small_blind=o["small"], big_blind=o["big"],
                            first_bet=o["first"], blind_raise=o["blind_raise"], blind_rounds=o["blind_rounds"],
                            second_from_small_blind=o["from_small"])


def legal_of(deal) -> set:
    return {(a.kind, a.amount, a.least, a.most) for a in deal.legal_actions()}


def random_attempt(rng, ref, hand):
    """An action the player to act might try, legal or not."""
    kind = rng.choice(KINDS + OTHER_KINDS[:3] + ("call", "raise", "draw"))
    amount = rng.choice([None, None, None, 0, 1, 6]) if kind != "fold" else None
    discards = ()
    if kind == "draw":
        pool = list(hand) + list(range(52))
        discards = tuple(rng.choice(pool) for _ in range(rng.choice([0, 1, 2, 3, 4])))
        amount = rng.choice([None, None, len(discards), 7])
    return kind, amount, discards


def play_both(rng: random.Random, seed: int, check_refusals: bool = True):
    n = rng.randint(2, 8)
    o = random_options(rng)
    dealer = rng.randrange(n)
    stacks = None if rng.random() < 0.5 else [rng.randint(0, 40) for _ in range(n)]
    entry = o["ante"] + o["big"]
    if stacks is not None and sum(s >= entry for s in stacks) < 2:
        stacks[0] = stacks[1] = entry + 20
    names = [f"p{i}" for i in range(n)]
    deal = prial.Deal.start(table_of(o), names, seed=seed, dealer=dealer, stacks=stacks)
    pack = seed_pack(seed)
    dealt_in = [stacks is None or s >= entry for s in (stacks or [0] * n)]
    hands = deal_hands(pack, dealt_in, dealer, 3)
    ref = RefDraw([h or [] for h in hands], pack[3 * sum(dealt_in):], dealer, stacks, o["ante"], o["small"],
                  o["big"], o["first"], o["blind_raise"], o["blind_rounds"], o["from_small"])
    steps = 0
    while not deal.over:
        assert deal.to_act == names[ref.turn]
        want = {(k, a, lo, hi) for k, a, lo, hi in ref.legal()}
        assert legal_of(deal) == want, (seed, steps)
        if check_refusals:
            kind, amount, discards = random_attempt(rng, ref, ref.hands[ref.turn])
            code = ref.code(kind, discards, amount)
            if code is not None:
                with pytest.raises(prial.IllegalActionError) as refused:
                    deal.act(kind, amount, list(discards))
                assert refused.value.code == code, (seed, steps, kind, amount, discards)
        kind, _, least, most = rng.choice(sorted(want, key=str))
        discards = tuple(rng.sample(ref.hands[ref.turn], rng.randint(least, most))) if kind == "draw" else ()
        deal = deal.act(kind, discards=list(discards))
        ref.act(kind, discards)
        steps += 1
    assert ref.payouts is not None
    assert deal.result.payouts == dict(zip(names, ref.payouts)), seed
    assert deal.hands == {name: tuple(h) for name, h in zip(names, ref.hands) if h}
    return deal


def test_the_machine_matches_the_reference_over_seeded_random_play():
    rng = random.Random(20261203)
    for seed in range(3000):
        play_both(rng, seed)


def test_invariants_over_seeded_random_play():
    rng = random.Random(7)
    for seed in range(1500):
        deal = play_both(rng, 10_000 + seed, check_refusals=False)
        t = deal.table
        put = {s.player: s.put_in for s in deal.seats}
        assert sum(deal.result.payouts.values()) == sum(put.values()) == sum(p.amount for p in deal.pots)
        assert sum(deal.result.nets.values()) == 0
        players_in = {s.player for s in deal.seats if s.status != "out"}
        blind = set(players_in)
        kinds = [a.kind for a in deal.history if a.kind not in ("look", "fold")]
        draws = [k for k, kind in enumerate(kinds) if kind == "draw"]
        # The draw is one block between the rounds, a draw of 0 to 3 cards each.
        assert draws == list(range(draws[0], draws[0] + len(draws))) if draws else True
        level = {e.player: e.amount for e in deal.events if e.kind == "blind"}
        round_, bet, raises = 1, t.big_blind, 0
        for a in deal.history:
            if a.kind == "look":
                blind.discard(a.player)
            elif a.kind == "fold":
                players_in.discard(a.player)
            elif a.kind == "draw":
                assert 0 <= len(a.discards) <= 3 and a.amount == len(a.discards)
                assert a.player not in blind or not a.discards
                if round_ == 1:
                    round_, bet, raises, level = 2, 0, 0, {}
            elif a.kind == "call":
                owed = bet - level.get(a.player, 0)
                # Half price only while blind (and in the first round, with blind_rounds=1).
                assert a.amount == owed or (a.player in blind and a.amount == (owed + 1) // 2
                                            and (t.blind_rounds == 2 or round_ == 1))
                level[a.player] = bet
            elif a.kind == "raise":
                unit = t.first_bet * (2 if round_ == 2 else 1)
                assert a.amount == bet - level.get(a.player, 0) + unit
                raises += bet > 0
                assert raises <= 3 or len(players_in) <= 2
                bet += unit
                level[a.player] = bet
        drew = [a.player for a in deal.history if a.kind == "draw"]
        assert len(drew) == len(set(drew))  # once each
        if deal.result.ending == "showdown":
            assert players_in <= set(drew)


def start(players=("ann", "bob", "cat", "dan"), cards=("As Ad 2c", "Kh Qh Jh", "7d 7s 3c", "9c 8c 4d"),
          stub="5s 5h 5d 4s 4h 3s 3h 3d 2s 2h", **options):
    return prial.Deal.start(prial.TableRules(game="draw_brag", **options), list(players), cards=list(cards),
                            stub=stub)


def test_blinds_and_the_first_round_as_pagat_gives_it():
    deal = start()
    # ann deals; bob posts the small blind of 1, cat the big blind of 2, dan opens.
    assert [s.put_in for s in deal.seats] == [0, 1, 2, 0]
    assert deal.to_act == "dan"
    assert {a.kind: a.amount for a in deal.legal_actions()} == {"look": None, "fold": None, "call": 1,
                                                                  "raise": 6}
    deal = deal.act("look")  # open now: the call costs its whole price
    assert {a.kind: a.amount for a in deal.legal_actions()} == {"fold": None, "call": 2, "raise": 6}
    deal = deal.act("raise")  # bets and raises of twice the big blind: the bet is now 6
    assert deal.stake == 6
    deal = deal.act("raise").act("raise")  # ann, then bob (blind): three raises
    assert deal.to_act == "cat" and "raise" not in {a.kind for a in deal.legal_actions()}
    with pytest.raises(prial.IllegalActionError) as refused:
        deal.act("raise")
    assert refused.value.code == "raise_cap"
    assert "at most three raises" in str(refused.value)


def test_the_cap_lifts_with_two_players_in():
    deal = start().act("raise").act("raise").act("fold").act("fold").act("raise")  # dan, ann, bob, cat, dan
    assert deal.to_act == "ann" and [s.status for s in deal.seats].count("folded") == 2
    for _ in range(5):
        deal = deal.act("raise")
    assert "raise" in {a.kind for a in deal.legal_actions()}


def test_blind_calls_for_half_price_and_the_draw_and_second_round():
    deal = start().act("call").act("call").act("call").act("check")  # dan 1 (blind), ann 1, bob 1, cat checks
    assert [s.put_in for s in deal.seats] == [1, 2, 2, 1]
    assert deal.to_act == "bob"  # the draw goes round from the dealer's left
    with pytest.raises(prial.IllegalActionError) as refused:
        deal.act("draw", discards="Kh")
    assert refused.value.code == "draw_blind"
    deal = deal.act("look").act("draw", discards="Jh").act("draw").act("draw").act("look")
    with pytest.raises(prial.IllegalActionError) as refused:
        deal.act("draw", discards="As Ad 2c 3c")
    assert refused.value.code == "draw_count"
    deal = deal.act("draw", discards=["2c"])
    assert deal.hands["bob"] == tuple(prial.parse_cards("Kh Qh 5s")) and deal.hands["ann"][2] == prial.parse_cards("5h")[0]
    bobs = [a for a in deal.view("cat").history if a.kind == "draw" and a.player == "bob"]
    assert bobs[0].discards == () and bobs[0].amount == 1  # how many is public, which is not
    assert "5s" not in json.dumps(deal.view("cat").cards)
    # The second round: bets of twice the first's, opened after the big blind (dan).
    assert deal.to_act == "dan"
    deal = deal.act("raise")
    assert deal.history[-1].amount == 8
    deal = deal.act("call", 8).act("call", 8).act("fold")  # ann open, bob open; cat folds
    assert deal.over and deal.result.winners == ("ann",)
    assert deal.result.payouts["ann"] == 2 + 2 + 1 + 1 + 3 * 8


def test_playbrag_options():
    deal = start(first_bet=2, blind_raise=False, blind_rounds=1, second_from_small_blind=True)
    assert {a.kind: a.amount for a in deal.legal_actions()} == {"look": None, "fold": None, "call": 1}
    with pytest.raises(prial.IllegalActionError) as refused:
        deal.act("raise")
    assert refused.value.code == "blind_no_raise"
    deal = deal.act("look").act("raise")
    assert deal.history[-1].amount == 4  # the call of 2 and a raise of the big blind
    deal = deal.act("call").act("call").act("call")
    deal = deal.act("draw").act("draw").act("draw").act("draw")
    assert deal.to_act == "bob"  # the second round opens at the small blind
    deal = deal.act("look").act("raise")
    assert {a.kind: a.amount for a in deal.legal_actions()}["call"] == 4  # cat, blind: full price now


@pytest.mark.parametrize(("options", "code"), [
    ({"blind_rounds": 3}, "blind_rounds"), ({"small_blind": -1}, "small_blind"), ({"big_blind": 0}, "big_blind"),
    ({"first_bet": 0}, "first_bet"), ({"see_cost": 2}, "see_cost"), ({"cover": True}, "cover"),
    ({"blind_raise": "no"}, "blind_raise")])
def test_bad_options_name_the_field(options, code):
    with pytest.raises(prial.ConfigurationError) as bad:
        prial.TableRules(game="draw_brag", **options)
    assert bad.value.field == code


@pytest.mark.parametrize(("setup", "message"), [
    ({"table": prial.TableRules(), "cards": ["As Ks Qs", "2c 3c 4c"], "stub": "5d"}, "only draw Brag"),
    ({"seed": 3, "stub": "5d"}, "not with a seed"),
    ({"cards": ["As Ks Qs", "2c 3c 4c"], "stub": "5d As"}, "(As) is dealt already"),
    ({"cards": ["As Ks Qs", "2c 3c 4c"], "stub": "5d 5d"}, "given twice"),
    ({"cards": ["As Ks Qs", "2c 3c 4c"], "stub": "Zz"}, "unknown rank"),
])
def test_a_bad_stub_is_refused_naming_it(setup, message):
    table = setup.pop("table", prial.TableRules(game="draw_brag"))
    with pytest.raises(prial.InvalidHandError, match=re.escape(message)) as bad:
        prial.Deal.start(table, ["ann", "bob"], **setup)
    assert bad.value.field == "stub"


def test_draw_brag_seats_as_many_as_six_cards_each_allows():
    with pytest.raises(prial.InvalidHandError, match="takes 2 to 8 players, not 9") as bad:
        prial.Deal.start(prial.TableRules(game="draw_brag"), list("abcdefghi"), seed=1)
    assert bad.value.field == "players"


def test_draw_options_belong_to_draw_brag_only():
    with pytest.raises(prial.ConfigurationError, match="small_blind is an option of draw_brag only"):
        prial.TableRules(small_blind=1)


def test_brag_kinds_are_refused_and_draw_kinds_at_brag():
    with pytest.raises(prial.IllegalActionError) as refused:
        start().act("stake", 2)
    assert refused.value.code == "unknown_action"
    with pytest.raises(prial.IllegalActionError) as refused:
        prial.Deal.start(prial.TableRules(), ["a", "b"], seed=1).act("check")
    assert refused.value.code == "unknown_action"


def test_histories_round_trip_and_replay():
    rng = random.Random(3)
    for seed in range(40):
        deal = play_both(rng, seed, check_refusals=False)
        record = json.loads(json.dumps(to_record(deal, deal_id=f"d{seed}")))
        assert from_record(record) == deal
        assert prial.Deal.from_json(deal.to_json()) == deal
    deal = start().act("call").act("call").act("call").act("check").act("look").act("draw", discards="Jh")
    record = to_record(deal, deal_id="x")
    assert record["stub"] == "5s 5h 5d 4s 4h 3s 3h 3d 2s 2h"
    assert record["actions"][-1] == {"player": "bob", "kind": "draw", "amount": 1, "discards": "Jh"}
    assert from_record(record) == deal
    record["actions"][-1]["amount"] = 2
    with pytest.raises(prial.IllegalActionError) as refused:
        from_record(record)
    assert refused.value.code == "draw_count"


def test_drawn_cards_without_a_stub_are_unknown():
    deal = start(stub=None).act("call").act("call").act("call").act("check").act("look")
    deal = deal.act("draw", discards="Jh").act("draw").act("draw").act("draw")
    assert "bob" not in deal.hands and "ann" in deal.hands
    while not deal.over:
        deal = deal.act("check")
    assert deal.result.known is False


def test_self_play_plays_draw_brag():
    table = prial.TableRules(game="draw_brag")
    nets, actions = prial.table.self_play(table, [None] * 4, 2000, seed=5)
    assert (nets.sum(axis=1) == 0).all() and (actions >= 1).all() and actions.max() > 10
    nets, actions = prial.table.self_play(table, [None, 0.5, 0.9], 500, seed=9, stack=30)
    assert (nets.sum(axis=1) == 0).all() and (nets != 0).any()

