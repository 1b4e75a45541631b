"""Showdown adjudication (docs/rules.md, "Showdowns"): sees, blind rules, agreed showdowns,
pots and covering, and sees in bulk."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings

import prial
from prial import InvalidHandError, InvalidShowdownError, Player, random_hands

from .conftest import legal_showdowns


def see(seer_cards: str, seen_cards: str, **kw) -> prial.ShowdownResult:
    return prial.showdown([Player("seer", seer_cards), Player("seen", seen_cards)], seer="seer", **kw)


# ---- a see between two players ----

def test_seer_strictly_better_wins():
    r = see("Ah As Kd", "Qh Qs Ad")
    assert r.kind == "see" and r.winners == ("seer",) and r.decided_by == "hand"
    assert "Pair of aces" in r.reason


def test_seer_worse_loses():
    r = see("4s 3h 2d", "Kd Kh 4c")  # 4-3-2 run beats pair of kings
    assert r.winners == ("seer",)
    r = see("Kd Kh 4c", "4s 3h 2d")
    assert r.winners == ("seen",) and r.decided_by == "hand"


def test_three_card_tie_goes_to_the_seen_player():
    r = see("7s 7h Qc", "7d 7c Qh")
    assert r.winners == ("seen",)
    assert r.decided_by == "seer_loses_ties" and "seer loses ties" in r.reason


def test_result_describes_each_hand():
    r = see("3s 2h Ah", "Kd Kh 4c")
    assert r.hand("seer").description == "Run, 3-2-A"
    assert r.hand("seen").category == prial.Category.PAIR
    assert r.hand("seer").strength == prial.evaluate("3s 2h Ah").strength


# ---- blind players ----

def test_you_cannot_see_a_blind_man():
    with pytest.raises(InvalidShowdownError, match="cannot see a blind man"):
        prial.showdown([Player("a", "3s 2h Ah"), Player("b", "Kd Kh 4c", blind=True)], seer="a")


def test_blind_player_may_see_an_open_one():
    r = prial.showdown([Player("a", "3s 2h Ah", blind=True), Player("b", "Kd Kh 4c")], seer="a")
    assert r.winners == ("a",)


@pytest.mark.parametrize("seer", ["a", "b"])
def test_both_blind_either_may_call_and_ties_go_against_the_payer(seer):
    r = prial.showdown([Player("a", "7s 7h Qc", blind=True), Player("b", "7d 7c Qh", blind=True)], seer=seer)
    assert r.winners == (("b",) if seer == "a" else ("a",))
    assert isinstance(InvalidShowdownError("x"), InvalidHandError)


# ---- agreed showdown of three or more ----

def test_agreed_showdown_strongest_wins():
    r = prial.showdown([Player("a", "Kd Kh 4c"), Player("b", "3s 3h 3d"), Player("c", "As Ks Qs")])
    assert r.kind == "agreed" and r.winners == ("b",) and r.seer is None


def test_multiway_exact_tie_shares_with_odd_chips_in_seat_order():
    players = [Player("a", "7s 7h Qc", stake=4), Player("b", "2c 3c 5d", stake=3),
               Player("c", "7d 7c Qh", stake=3)]
    r = prial.showdown(players, pot=1)
    assert r.winners == ("a", "c") and r.decided_by == "shared" and "pot shared" in r.reason
    assert r.payouts == {"a": 6, "b": 0, "c": 5}  # 11 chips: 5 each, the odd chip to seat a


# ---- covering the pot ----

def _cover(coverer_cards: str) -> prial.ShowdownResult:
    players = [Player("a", "Kd Kh 4c", stake=10), Player("b", "Qs Qh 9d", stake=10),
               Player("c", coverer_cards)]
    return prial.showdown(players, seer="b", coverer="c", old_pot=25)


def test_cover_coverer_better_takes_the_old_pot():
    r = _cover("As Ad 2h")
    assert r.winners == ("a",) and r.cover.winners == ("c",) and r.cover.decided_by == "hand"
    assert r.payouts == {"a": 20, "b": 0, "c": 25}


def test_cover_coverer_worse_loses_the_old_pot():
    r = _cover("Js Jd 2h")
    assert r.cover.winners == ("a",)
    assert r.payouts == {"a": 45, "b": 0, "c": 0}


def test_cover_tie_goes_to_the_new_pot_winner():
    r = _cover("Ks Kc 4d")
    assert r.cover.winners == ("a",) and r.cover.decided_by == "tie_to_new_pot_winner"
    assert r.payouts["c"] == 0 and r.payouts["a"] == 45


def test_cover_against_a_shared_new_pot_splits_the_old_pot_too():
    players = [Player("a", "7s 7h Qc", stake=5), Player("b", "7d 7c Qh", stake=5),
               Player("c", "2c 3d 5h"), ]
    r = prial.showdown(players, coverer="c", old_pot=7)
    assert r.cover.winners == ("a", "b")
    assert r.payouts == {"a": 9, "b": 8, "c": 0}


# ---- payouts always balance (property) ----

@settings(max_examples=300, deadline=None)
@given(legal_showdowns())
def test_payouts_always_balance_and_are_integers(table):
    players, options = table
    r = prial.showdown(players, **options)
    total = options["pot"] + options["old_pot"] + sum(p.stake for p in players)
    if total == 0:
        assert r.payouts is None
        return
    assert all(type(v) is int and v >= 0 for v in r.payouts.values())
    assert sum(r.payouts.values()) == total
    assert set(r.payouts) == {p.id for p in players}
    shares = [r.payouts[w] for w in r.winners]
    if r.cover is None:
        assert max(shares) - min(shares) <= 1
    losers = set(r.payouts) - set(r.winners) - set(r.cover.winners if r.cover else ())
    assert all(r.payouts[p] == 0 for p in losers)
    json.dumps(r.to_dict())


# ---- who wins and who is paid, against a plain reading of the showdown rules ----

def _expected(players, options):
    """Winners, old-pot winners and payouts, worked out the simplest way:
    keys from Evaluator.best_of (checked against its own reference in
    test_bestof.py), compared with plain max and ``>``."""
    seer, coverer, pot, old_pot = options["seer"], options["coverer"], options["pot"], options["old_pot"]
    ev = prial.Evaluator(options["rules"])
    key = {p.id: ev.best_of(p.cards).key for p in players}
    ids = [p.id for p in players]
    contenders = [i for i in ids if i != coverer]
    if seer is not None:
        seen = next(i for i in contenders if i != seer)
        winners = [seer] if key[seer] > key[seen] else [seen]
    else:
        best = max(key[i] for i in contenders)
        winners = [i for i in contenders if key[i] == best]
    cover_winners = None
    if coverer is not None:
        cover_winners = [coverer] if key[coverer] > key[winners[0]] else winners
    payouts = dict.fromkeys(ids, 0)
    new_pot = pot + sum(p.stake for p in players if p.id != coverer)
    for amount, takers in ((new_pot, winners), (old_pot, cover_winners or [])):
        for seat, taker in enumerate(takers):
            payouts[taker] += amount // len(takers) + (1 if seat < amount % len(takers) else 0)
    return winners, cover_winners, (payouts if new_pot + old_pot else None)


@settings(max_examples=400, deadline=None)
@given(legal_showdowns())
def test_winners_and_payouts_follow_the_rules(table):
    players, options = table
    seer, coverer_id = options["seer"], options["coverer"]
    r = prial.showdown(players, **options)
    winners, cover_winners, payouts = _expected(players, options)
    assert list(r.winners) == winners
    assert (r.cover is None) == (cover_winners is None)
    if r.cover is not None:
        assert list(r.cover.winners) == cover_winners
    assert r.payouts == payouts
    assert r.kind == ("see" if seer else "agreed")
    by_key = {h.id: h.key for h in r.hands}
    if len(winners) > 1:
        assert r.decided_by == "shared"
    elif r.decided_by in ("hand", "discard"):
        beaten = [h for h in r.hands if h.id not in winners and h.id != coverer_id]
        runner_up = max(beaten, key=lambda h: h.key)
        same_three = runner_up.strength == r.hand(winners[0]).strength
        assert r.decided_by == ("discard" if same_three else "hand")
        assert by_key[winners[0]] > runner_up.key
    else:
        assert r.decided_by == "seer_loses_ties" and seer is not None


def test_player_ids_are_quoted_as_python_quotes_them():
    with pytest.raises(InvalidShowdownError, match=r"""player id "it's" is used twice"""):
        prial.showdown([Player("it's", "3s 2h Ah"), Player("it's", "Kd Kh 4c")])
    with pytest.raises(InvalidShowdownError, match=r"seer 'tab\\tx' is not a player"):
        prial.showdown([Player("a", "3s 2h Ah"), Player("b", "Kd Kh 4c")], seer="tab\tx")


@pytest.mark.parametrize("stakes, kwargs, message", [
    ((2**64, 0), {}, "player 'a' stake must be at most 18446744073709551615"),
    ((0, 0), {"pot": 2**64}, "pot must be at most"),
    ((2**63, 2**63), {}, "chips in play add up to more than 18446744073709551615"),
    ((2**64 - 1, 0), {"pot": 1}, "chips in play add up to more than"),
])
def test_chips_beyond_64_bits_are_refused_by_name(stakes, kwargs, message):
    players = [Player("a", "3s 2h Ah", stake=stakes[0]), Player("b", "Kd Kh 4c", stake=stakes[1])]
    with pytest.raises(InvalidShowdownError, match=message):
        prial.showdown(players, **kwargs)


def test_largest_pot_is_paid_in_full():
    players = [Player("a", "3s 2h Ah", stake=2**64 - 2), Player("b", "Kd Kh 4c")]
    assert prial.showdown(players, pot=1).payouts == {"a": 2**64 - 1, "b": 0}


# ---- bad input ----

@pytest.mark.parametrize("players, kwargs, message", [
    ([Player("a", "3s 2h Ah"), Player("b", "Kd Kh 4c")], {"seer": "z"}, "seer 'z' is not a player"),
    ([Player("a", "3s 2h Ah"), Player("b", "Kd Ah 4c")], {}, "card Ah appears in both"),
    ([Player("a", "3s 2h Ah"), Player("b", "Kd Kh 4c 5c")], {}, "player 'b' has 4 cards"),
    ([Player("a", "3s 2h"), Player("b", "Kd Kh")], {}, "cards_per_hand must be 3, 4 or 5"),
    ([Player("a", "3s 2h Ah", stake=-1), Player("b", "Kd Kh 4c")], {}, "stake must not be negative"),
    ([Player("a", "3s 2h Ah"), Player("b", "Kd Kh 4c")], {"pot": -5}, "pot must not be negative"),
    ([Player("a", "3s 2h Ah"), Player("a", "Kd Kh 4c")], {}, "'a' is used twice"),
    ([Player("a", "3s 2h Ah")], {}, "at least 2 players"),
    ([Player("a", "3s 2h Ah"), Player("b", "Kd Kh 4c"), Player("c", "5c 6c 7d")], {"seer": "a"},
     "a see is between two players"),
    ([Player("a", "3s 2h Ah"), Player("b", "Kd Kh 4c"), Player("c", "5c 6c 7d")], {"coverer": "q"},
     "coverer 'q' is not a player"),
    ([Player("a", "3s 2h Ah"), Player("b", "Kd Kh 4c"), Player("c", "5c 6c 7d", stake=3)],
     {"coverer": "c"}, "their chips belong in old_pot"),
    ([Player("a", "3s 2h Ah"), Player("b", "Kd Kh 4c")], {"old_pot": 4}, "no coverer"),
    ([Player("a", "3s 2h Zh"), Player("b", "Kd Kh 4c")], {}, "player 'a'.*unknown rank"),
    ([Player("a", "3s 3s Ah"), Player("b", "Kd Kh 4c")], {}, "card 3s appears twice in player 'a'"),
])
def test_bad_input_is_rejected_by_name(players, kwargs, message):
    with pytest.raises(InvalidHandError, match=message):
        prial.showdown(players, **kwargs)


# ---- showdown_batch ----

def _split(rows: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    deal = random_hands(rows, 6, seed=seed)
    return np.ascontiguousarray(deal[:, :3]), np.ascontiguousarray(deal[:, 3:])


@pytest.mark.parametrize("rules", [None, prial.Rules(preset="teen_patti"), prial.Rules(wild="deuces")])
def test_batch_matches_strength_comparison(rules):
    seer, seen = _split(200_000, 7)
    ev = prial.Evaluator(rules)
    expected = (ev.evaluate_batch(seer) > ev.evaluate_batch(seen)).astype(np.uint8)
    got = prial.showdown_batch(seer, seen, rules=rules)
    assert got.dtype == np.uint8 and got.shape == (200_000,)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(prial.showdown_batch(seer, seen, rules=rules, threads=1), expected)


def test_batch_ties_go_to_the_seen_player():
    seer = np.array([prial.parse_cards("7s 7h Qc")], dtype=np.uint8)
    seen = np.array([prial.parse_cards("7d 7c Qh")], dtype=np.uint8)
    assert prial.showdown_batch(seer, seen).tolist() == [0]
    assert prial.showdown_batch(seen, seer).tolist() == [0]


def test_batch_agrees_with_showdown():
    seer, seen = _split(300, 11)
    batch = prial.showdown_batch(seer, seen)
    for i in range(300):
        r = prial.showdown([Player("s", seer[i].tolist()), Player("t", seen[i].tolist())], seer="s")
        assert batch[i] == (r.winners == ("s",))


def test_batch_rejects_a_card_in_both_hands_naming_the_row():
    seer, seen = _split(1000, 3)
    seen[417, 2] = seer[417, 0]
    with pytest.raises(InvalidHandError, match="row 417: card .* is in both hands") as info:
        prial.showdown_batch(seer, seen)
    assert info.value.row == 417


@pytest.mark.parametrize("change, message", [
    (lambda a, b: (a, b[:-1]), "rows"),
    (lambda a, b: (a.astype(np.int64), b), "uint8"),
    (lambda a, b: (a[:, :2].copy(), b), r"seer_cards must have 3, 4 or 5 cards a row, got shape \(10, 2\)"),
    (lambda a, b: (a[0].copy(), b), r"seer_cards must be .* shape \(N, 3\)"),
    (lambda a, b: (a, np.asfortranarray(b)), "non-contiguous"),
])
def test_batch_bad_arrays(change, message):
    seer, seen = _split(10, 5)
    a, b = change(seer, seen)
    with pytest.raises(InvalidHandError, match=message):
        prial.showdown_batch(a, b)


def test_batch_bad_card_row_named():
    seer, seen = _split(50, 9)
    seer[31, 1] = 60
    with pytest.raises(InvalidHandError, match="row 31: seer: card 2: card index 60"):
        prial.showdown_batch(seer, seen)


# ---- four- and five-card Brag: the discard tie-break ----

def test_four_card_discard_decides_for_the_seer():
    r = see("As Ad Kh 9c", "Ac Ah Kd 7c")
    assert r.winners == ("seer",) and r.decided_by == "discard"
    assert "discard decides: 9 beats 7" in r.reason
    assert r.hand("seer").kept and r.hand("seer").discarded == (prial.parse_cards("9c")[0],)


def test_four_card_discard_decides_for_the_seen_player():
    r = see("Ac Ah Kd 7c", "As Ad Kh 9c")
    assert r.winners == ("seen",) and "discard decides: 9 beats 7" in r.reason


def test_four_card_equal_after_discards_seer_loses():
    r = see("As Ad Kh 9c", "Ac Ah Kd 9d")
    assert r.winners == ("seen",) and r.decided_by == "seer_loses_ties"


def test_five_card_discards_higher_first_then_lower():
    # Same kept A-A-K; discards 9-4 against 9-2: the lower discard decides.
    r = see("As Ad Kh 9c 4s", "Ac Ah Kd 9d 2c")
    assert r.winners == ("seer",) and "discard decides: 4 beats 2" in r.reason
    # Higher discard first: J-2 beats T-9.
    r = see("As Ad Kh Tc 9s", "Ac Ah Kd Jd 2c")
    assert r.winners == ("seen",) and "discard decides: J beats T" in r.reason
    r = see("As Ad Kh 9c 4s", "Ac Ah Kd 9d 4c")
    assert r.winners == ("seen",) and r.decided_by == "seer_loses_ties"


def test_five_card_stronger_three_beats_any_discards():
    r = see("2s 2d 3h Ac Ad", "Qc Qh 9d 4c 3c")  # pair of aces kept, discards 2-2 low
    assert r.winners == ("seer",) and r.decided_by == "hand"


def test_agreed_four_card_showdown_and_cover_use_discards():
    players = [Player("a", "As Ad Kh 9c", stake=3), Player("b", "Ac Ah Kd 7c", stake=3),
               Player("c", "2c 2d 5h 8s")]
    r = prial.showdown(players, coverer="c", old_pot=5)
    assert r.winners == ("a",) and r.decided_by == "discard" and r.cover.winners == ("a",)
    assert r.payouts == {"a": 11, "b": 0, "c": 0}


@pytest.mark.parametrize("width", [4, 5])
def test_batch_best_of_matches_keys(width):
    deal = random_hands(150_000, 2 * width, seed=21 + width)
    seer, seen = np.ascontiguousarray(deal[:, :width]), np.ascontiguousarray(deal[:, width:])
    expected = (prial.best_of_batch(seer) > prial.best_of_batch(seen)).astype(np.uint8)
    np.testing.assert_array_equal(prial.showdown_batch(seer, seen), expected)
    np.testing.assert_array_equal(prial.showdown_batch(seer, seen, threads=1), expected)
    seen[99, 1] = seer[99, width - 1]
    with pytest.raises(InvalidHandError, match="row 99: card .* is in both hands"):
        prial.showdown_batch(seer, seen)


def test_batch_four_card_discard_tie_break():
    seer = np.array([prial.parse_cards("As Ad Kh 9c"), prial.parse_cards("As Ad Kh 9c")], dtype=np.uint8)
    seen = np.array([prial.parse_cards("Ac Ah Kd 7c"), prial.parse_cards("Ac Ah Kd 9d")], dtype=np.uint8)
    assert prial.showdown_batch(seer, seen).tolist() == [1, 0]


def test_batch_widths_must_match():
    seer, seen = random_hands(10, 4, seed=1), random_hands(10, 3, seed=2)
    with pytest.raises(InvalidHandError, match=r"seen_cards must be .* shape \(N, 4\)"):
        prial.showdown_batch(seer, seen)


@pytest.mark.parametrize("side", ["seer_cards", "seen_cards"])
def test_a_bad_batch_row_names_its_side_and_row(side):
    deal = random_hands(40, 6, seed=5)
    seer, seen = np.ascontiguousarray(deal[:, :3]), np.ascontiguousarray(deal[:, 3:])
    bad = seer if side == "seer_cards" else seen
    bad[17, 1] = bad[17, 0]  # a card twice in one hand
    with pytest.raises(InvalidHandError, match="row 17") as info:
        prial.showdown_batch(seer, seen)
    assert (info.value.field, info.value.row) == (side, 17)


def test_a_bad_player_is_named_by_seat():
    players = [Player("a", "As Kd Qh"), Player("b", "2c 3d 5h"), Player("c", "7c 7c 9d")]
    with pytest.raises(InvalidHandError, match="player 'c'") as info:
        prial.showdown(players)
    assert (info.value.field, info.value.row) == ("players", 2)


def test_more_players_than_a_pack_deals_in_python():
    with pytest.raises(InvalidShowdownError, match="at most 18 hands") as info:
        prial.showdown([Player(f"p{i}", "") for i in range(19)])
    assert info.value.field == "players"
