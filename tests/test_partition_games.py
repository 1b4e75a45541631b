"""Nine-, seven- and six-card Brag settled in chips (docs/rules.md, "Nine-,
seven- and six-card Brag"), held to a plain reference written here: every
layout of a player's cards enumerated against fixed opponents, random
deals, chips conserved, and every bad input refused in one line."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import prial
from prial import (
    ConfigurationError,
    CrashPlayer,
    InvalidHandError,
    InvalidShowdownError,
    NineCardBrag,
    PartitionGameSession,
    SevenCardBrag,
    SixCardBrag,
    settle_nine_card_brag,
    settle_partition_game,
    settle_seven_card_brag,
    settle_six_card_brag,
)

PACK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def reference(game: str, players: list[tuple[str, list[str], str]], ante: int, carry: int,
              split: bool = False) -> tuple[dict[str, int], int, str | None, list[str | None]]:
    """Nets, carry out, the main pot's winner and each set's winner, the
    rules read off the docs one by one: hands ranked by prial.evaluate, a
    player whose later hand beats an earlier one fouls, a set goes to its
    one best hand, each player antes once to the pot and in nine-card Brag
    once more per set."""
    strength = {pid: [prial.evaluate(h).strength for h in hands] for pid, hands, _ in players}
    fouled = {pid: any(s[i + 1] > s[i] for i in range(len(s) - 1)) for pid, s in strength.items()}
    sets = len(players[0][1])
    nine = game == "nine_card"
    set_pot = ante * len(players) if nine else 0
    nets = {pid: -ante * ((sets + 1) if nine else 1) for pid, _, _ in players}
    carry_out = 0
    winners: list[str | None] = []
    for index in range(sets):
        alive = [pid for pid, _, _ in players if not fouled[pid]]
        best = max((strength[pid][index] for pid in alive), default=None)
        top = [pid for pid in alive if strength[pid][index] == best]
        winners.append(top[0] if len(top) == 1 else None)
        if len(top) == 1:
            nets[top[0]] += set_pot
        elif split and top:
            for i, pid in enumerate(top):
                nets[pid] += set_pot // len(top) + (1 if i < set_pot % len(top) else 0)
        else:
            carry_out += set_pot
    pot = carry + ante * len(players)
    pot_winner = winners[0] if winners[0] is not None and all(w == winners[0] for w in winners) else None
    if pot_winner is None:
        carry_out += pot
    else:
        nets[pot_winner] += pot
    return nets, carry_out, pot_winner, winners


def layouts(cards: list[str], hands: int) -> list[tuple[list[str], str]]:
    """Every way of laying ``cards`` out as ``hands`` ordered hands of three
    (each hand's cards in a fixed order), the rest discarded."""
    found = []
    for laid in itertools.permutations(range(len(cards)), 3 * hands):
        groups = [laid[3 * i:3 * i + 3] for i in range(hands)]
        if any(list(g) != sorted(g) for g in groups):
            continue
        rest = sorted(set(range(len(cards))) - set(laid))
        found.append(([" ".join(cards[i] for i in g) for g in groups], " ".join(cards[i] for i in rest)))
    return found


GAMES = {
    "nine_card": (NineCardBrag, 9, 3),
    "seven_card": (SevenCardBrag, 7, 2),
    "six_card": (SixCardBrag, 6, 2),
}


def check(game: prial.NineCardBrag | prial.SevenCardBrag | prial.SixCardBrag,
          players: list[tuple[str, list[str], str]], carry: int) -> prial.PartitionGameResult:
    result = settle_partition_game([CrashPlayer(*p) for p in players], game, carry=carry)
    split = isinstance(game, NineCardBrag) and game.stick_up == "split"
    nets, carry_out, pot_winner, winners = reference(game.game, players, game.ante, carry, split)
    assert result.nets == nets
    assert result.carry_out == carry_out
    assert result.pot_winner == pot_winner
    assert [s.winner for s in result.sets] == winners
    assert sum(result.nets.values()) + result.carry_out == carry
    return result


@pytest.mark.parametrize("game_name", ["six_card", "seven_card"])
def test_every_layout_of_one_player_against_fixed_opponents(game_name):
    kind, cards, hands = GAMES[game_name]
    rng = random.Random(game_name)
    deal = rng.sample(PACK, 3 * cards)
    a, b, c = deal[:cards], deal[cards:2 * cards], deal[2 * cards:]
    others = [("b", *rng.choice(layouts(b, hands))), ("c", *rng.choice(layouts(c, hands)))]
    seen_foul = 0
    for laid, discards in layouts(a, hands):
        result = check(kind(ante=3), [("a", laid, discards), *others], carry=7)
        seen_foul += result.players[0].fouled
    assert seen_foul  # some layouts put a weaker hand first
    assert len(layouts(a, hands)) == (20 if cards == 6 else 140)


@pytest.mark.parametrize("stick_up", ["carry", "split"])
def test_every_nine_card_layout_against_fixed_opponents(stick_up):
    rng = random.Random(stick_up)
    deal = rng.sample(PACK, 27)
    a = deal[:9]
    all_a = layouts(a, 3)
    assert len(all_a) == 1680
    others = [("b", *rng.choice(layouts(deal[9:18], 3))), ("c", *rng.choice(layouts(deal[18:], 3)))]
    for laid, discards in all_a:
        check(NineCardBrag(ante=2, stick_up=stick_up), [("a", laid, discards), *others], carry=5)


def test_ties_at_a_nine_card_set_carry_or_split():
    # Equal runs at the second set (suits differ): a stick-up.
    a = CrashPlayer("a", ["As Ad Ah", "9c Td Jh", "2c 4d 7h"])
    b = CrashPlayer("b", ["Ks Kd Kh", "9d Tc Js", "3c 5d 8h"])
    c = CrashPlayer("c", ["Qs Qd Qh", "2s 3s 5s", "4c 6d 9h"])
    carried = settle_nine_card_brag([a, b, c], NineCardBrag(ante=1), carry=0)
    assert [s.winner for s in carried.sets] == ["a", None, "c"]
    assert carried.sets[1].stick_up and carried.sets[1].reason.endswith("3 carried")
    assert carried.carry_out == 3 + 3  # the tied set's antes and the main pot
    assert carried.nets == {"a": -1, "b": -4, "c": -1}
    split = settle_nine_card_brag([a, b, c], NineCardBrag(ante=1, stick_up="split"))
    # 3 chips between two: the odd chip to the first of them in the order given.
    assert split.nets == {"a": 1, "b": -3, "c": -1}
    assert split.carry_out == 3


def test_winning_every_set_takes_the_main_pot_and_the_carry():
    a = CrashPlayer("a", ["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh"])
    b = CrashPlayer("b", ["2s 2d 2h", "4s 5d 6h", "7s 8d Th"])
    result = settle_nine_card_brag([a, b], NineCardBrag(ante=2), carry=10)
    assert result.pot == 14 and result.pot_winner == "a" and result.carry_out == 0
    assert result.nets == {"a": 3 * 4 + 14 - 8, "b": -8}
    assert [(p.staked, p.paid) for p in result.players] == [(8, 26), (8, 0)]


def test_seven_and_six_card_pot_goes_to_a_player_winning_both():
    both = settle_seven_card_brag([CrashPlayer("a", ["As Ad Ah", "Ks Kd 2h"], "9c"),
                                   CrashPlayer("b", ["Qc Qd Qh", "Jc Jd 4h"], "8c")], carry=4)
    assert both.pot_winner == "a" and both.nets == {"a": 5, "b": -1} and both.carry_out == 0
    split = settle_six_card_brag([CrashPlayer("a", ["As Ad Ah", "2c 4d 7h"]),
                                  CrashPlayer("b", ["Qc Qd Qh", "Jc Jd 4h"])], carry=4)
    assert split.pot_winner is None and split.carry_out == 6 and split.nets == {"a": -1, "b": -1}


def test_seven_card_with_one_hand_the_best_hand_takes_the_pot():
    game = SevenCardBrag(ante=2, hands=1)
    result = settle_seven_card_brag([CrashPlayer("a", ["3s 3d 3h"], "As Ad Ah Kc"),
                                     CrashPlayer("b", ["Qc Qd Qh"], "2c 4d 7h 9s")], game, carry=1)
    assert result.pot_winner == "a" and result.nets == {"a": 3, "b": -2}
    tie = settle_seven_card_brag([CrashPlayer("a", ["9c Td Jh"], "2c 3c 4c 5c"),
                                  CrashPlayer("b", ["9d Tc Js"], "2d 3d 4d 5d")], game)
    assert tie.sets[0].stick_up and tie.carry_out == 4


def test_out_of_order_hands_foul_as_in_crash():
    # a lays the weaker hand first: fouled, out of both sets; b wins both.
    a = CrashPlayer("a", ["2c 4d 7h", "As Ad Ah"], "9s")
    b = CrashPlayer("b", ["5c 5d 9h", "3c 6d 8h"], "Js")
    result = settle_seven_card_brag([a, b])
    assert result.players[0].fouled
    assert result.players[0].foul == prial.crash_showdown([a, b]).players[0].foul
    assert result.pot_winner == "b" and [s.contenders for s in result.sets] == [("b",), ("b",)]


def test_every_player_fouling_carries_everything():
    a = CrashPlayer("a", ["2c 4d 7h", "As Ad Ah", "Ks Kd Kh"])
    b = CrashPlayer("b", ["2d 4c 8h", "Qs Qd Qh", "Js Jd Jh"])
    result = settle_nine_card_brag([a, b], carry=3)
    assert result.carry_out == 3 + 2 * 4 and all(s.winner is None and not s.stick_up for s in result.sets)
    assert result.sets[0].reason == "every player fouled; 2 carried"


def test_a_ruleset_ranks_the_hands():
    # Teen Patti ranks A-A-A above 3-3-3.
    a = CrashPlayer("a", ["As Ad Ah", "Kc Qd 2h"])
    b = CrashPlayer("b", ["3s 3d 3h", "Jc 9d 2c"])
    assert settle_six_card_brag([a, b]).sets[0].winner == "b"
    teen = SixCardBrag(rules=prial.Rules(preset="teen_patti"))
    assert settle_six_card_brag([a, b], teen).pot_winner == "a"


def random_players(rng: random.Random, cards: int, hands: int, count: int) -> list[tuple[str, list[str], str]]:
    deal = rng.sample(PACK, cards * count)
    players = []
    for n in range(count):
        own = deal[n * cards:(n + 1) * cards]
        laid, discards = rng.choice(layouts(own, hands)) if cards < 9 else _nine_layout(rng, own)
        players.append((f"p{n}", laid, discards))
    return players


def _nine_layout(rng: random.Random, cards: list[str]) -> tuple[list[str], str]:
    rng.shuffle(cards)
    hands = [" ".join(cards[i:i + 3]) for i in (0, 3, 6)]
    if rng.random() < 0.7:  # mostly laid strongest first, as players do
        hands.sort(key=lambda h: -prial.evaluate(h).strength)
    return hands, ""


@pytest.mark.parametrize("seed", range(40))
def test_random_deals_match_the_reference(seed):
    rng = random.Random(seed)
    name = ["nine_card", "seven_card", "six_card"][seed % 3]
    kind, cards, hands = GAMES[name]
    options = {"stick_up": rng.choice(["carry", "split"])} if name == "nine_card" else {}
    game = kind(ante=rng.randint(1, 5), **options)
    check(game, random_players(rng, cards, hands, rng.randint(2, 5)), carry=rng.randint(0, 50))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(sorted(GAMES)), deals=st.integers(1, 6),
       ante=st.integers(1, 10**6), start=st.integers(0, 10**9), count=st.integers(2, 5))
def test_a_session_conserves_chips_deal_after_deal(seed, game, deals, ante, start, count):
    rng = random.Random(seed)
    kind, cards, hands = GAMES[game]
    session = PartitionGameSession(kind(ante=ante), carry=start)
    for _ in range(deals):
        before = session.carry
        session = session.settle([CrashPlayer(*p) for p in random_players(rng, cards, hands, count)])
        last = session.last
        assert last is not None and last.carry_in == before
        # Antes in (with the carry) = payouts + carry out.
        staked = sum(p.staked for p in last.players)
        assert staked + last.carry_in == sum(p.paid for p in last.players) + last.carry_out
        assert all(p.paid >= 0 and p.net == p.paid - p.staked for p in last.players)
        assert (last.pot_winner is None) == (last.carry_out >= last.pot)
    assert sum(session.nets.values()) + session.carry == start
    assert len(session.deals) == deals


def test_session_starts_empty():
    session = PartitionGameSession(SixCardBrag())
    assert session.last is None and session.carry == 0 and session.nets == {}


def test_results_are_plain_data():
    result = settle_six_card_brag([CrashPlayer("a", ["As Ad Ah", "Ks Kd 2h"]),
                                   CrashPlayer("b", ["Qc Qd Qh", "Jc Jd 4h"])])
    data = result.to_dict()
    assert data["game"] == "six_card" and data["nets"] == {"a": 1, "b": -1}
    assert data["sets"][0]["reason"] == "a wins: Prial of aces"


NINE_A = CrashPlayer("a", ["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh"])
NINE_B = CrashPlayer("b", ["2s 2d 2h", "4s 5d 6h", "7s 8d Th"])


@pytest.mark.parametrize("players, message", [
    ([NINE_A], "needs a sequence of at least 2"),
    ("ab", "needs a sequence of at least 2"),
    ([NINE_A, "b"], "player 1: expected a prial.CrashPlayer, got str"),
    ([NINE_A, NINE_A], "player id 'a' is used twice"),
    ([NINE_A, CrashPlayer("b", ["2s 2d 2h", "4s 5d 6h"])], "player 'b' lays 2 hand(s); nine-card Brag lays 3"),
    ([NINE_A, CrashPlayer("b", ["2s 2d 2h", "4s 5d 6h", "7s 8d"])], "player 'b' hand 3 has 2 cards; expected 3"),
    ([NINE_A, CrashPlayer("b", ["2s 2d 2h", "4s 5d 6h", "7s 8d Th"], "9c")],
     "player 'b' discards 1 card(s); nine-card Brag with 3 hand(s) discards 0"),
    ([NINE_A, CrashPlayer("b", ["2s 2d 2h", "4s 5d 6h", "7s 8d As"])], "card As appears in both player 'a' and"),
    ([NINE_A, CrashPlayer("b", ["2s 2d 2h", "4s 5d 6h", "7s 8d 2s"])], "card 2s appears twice in player 'b'"),
    ([NINE_A, CrashPlayer("b", ["2s 2d 2h", "4s 5d 6h", "7s 8d Zz"])], "player 'b' hand 3"),
    ([NINE_A, CrashPlayer("b", ["2s 2d 2h", "4s 5d 6h", "7s 8d Th"], declare_six_pairs=True)],
     "player 'b' declares six pairs, which only Crash has"),
    ([CrashPlayer(str(n), [" ".join(PACK[9 * n + 3 * i:9 * n + 3 * i + 3]) for i in range(3)]) for n in range(5)]
     + [CrashPlayer("x", ["As Ad Ah", "Ks Kd Kh", "Qs Qd Qh"]), CrashPlayer("y", ["2s 2d 2h", "3s 3d 3h", "4s 4d 4h"])],
     "7 players: one pack deals at most 6 hands of 9 cards"),
])
def test_bad_players_are_refused_in_one_line(players, message):
    with pytest.raises(InvalidHandError) as info:
        settle_nine_card_brag(players)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_wrong_number_of_sets_in_seven_and_six_card():
    with pytest.raises(InvalidShowdownError, match=r"player 'a' lays 3 hand\(s\); six-card Brag lays 2"):
        settle_six_card_brag([NINE_A, NINE_B])
    with pytest.raises(InvalidShowdownError, match=r"discards 0 card\(s\); seven-card Brag with 1 hand\(s\) "
                                                   r"discards 4"):
        settle_seven_card_brag([CrashPlayer("a", ["As Ad Ah"]), CrashPlayer("b", ["Ks Kd Kh"])],
                               SevenCardBrag(hands=1))


@pytest.mark.parametrize("make, message", [
    (lambda: NineCardBrag(ante=-1), "ante must not be negative, got -1"),
    (lambda: NineCardBrag(ante=0), "ante must be at least 1 chip, got 0"),
    (lambda: SixCardBrag(ante=True), "ante must be a whole number of chips, got True"),
    (lambda: SevenCardBrag(ante=2.5), "ante must be a whole number of chips, got 2.5"),
    (lambda: SevenCardBrag(ante=2**64), "ante must be at most"),
    (lambda: NineCardBrag(stick_up="share"), "stick_up must be one of carry, split, got 'share'"),
    (lambda: SevenCardBrag(hands=3), "seven-card Brag lays 1 or 2 hands, got 3"),
    (lambda: SevenCardBrag(hands=True), "seven-card Brag lays 1 or 2 hands, got True"),
    (lambda: SixCardBrag(rules="brag"), "rules must be a prial.Rules or None, got str"),
    (lambda: settle_six_card_brag([NINE_A, NINE_B], carry=-3), "carry must not be negative, got -3"),
    (lambda: PartitionGameSession(SixCardBrag(), carry=-1), "carry must not be negative, got -1"),
    (lambda: PartitionGameSession("six_card"), "game must be a prial.NineCardBrag, SevenCardBrag or SixCardBrag"),
    (lambda: settle_nine_card_brag([NINE_A, NINE_B], SixCardBrag()), "expected a prial.NineCardBrag, got SixCardBrag"),
    (lambda: settle_partition_game([NINE_A, NINE_B], "nine_card"), "game must be a prial.NineCardBrag"),
    (lambda: settle_nine_card_brag([NINE_A, NINE_B], NineCardBrag(ante=2**62)), "the carried pot and the antes"),
])
def test_bad_options_are_refused_naming_them(make, message):
    with pytest.raises((InvalidShowdownError, ConfigurationError)) as info:
        make()
    assert message in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("field, make", [
    ("ante", lambda: NineCardBrag(ante=0)),
    ("carry", lambda: settle_six_card_brag([NINE_A, NINE_B], carry=-1)),
    ("stick_up", lambda: NineCardBrag(stick_up="x")),
    ("hands", lambda: SevenCardBrag(hands=0)),
    ("players", lambda: settle_nine_card_brag([NINE_A, CrashPlayer("b", ["2s 2d 2h"])])),
])
def test_errors_name_their_field(field, make):
    with pytest.raises(prial.Error) as info:
        make()
    assert info.value.field == field


def test_the_ante_is_an_option_and_the_carry_a_stake():
    # As settle_casino's ante: a bad ante is a ConfigurationError, a bad
    # carry (chips on the table) an InvalidShowdownError.
    with pytest.raises(ConfigurationError):
        SixCardBrag(ante=0)
    with pytest.raises(InvalidShowdownError):
        settle_six_card_brag([NINE_A, NINE_B], carry=-1)
