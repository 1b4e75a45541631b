"""Between deals: Deal.next moves the dealer, carries stacks and a pot
that stays, lets a blind player keep the hand, seats players joining and
leaving, and deals from the pack the traditional way under
shuffle="after_prial"."""

from __future__ import annotations

import pytest

import prial


def fold_to(deal: prial.Deal, winner: str) -> prial.Deal:
    while not deal.over:
        deal = deal.act("fold") if deal.to_act != winner else deal.act("stake", deal.legal_actions()[1].least)
    return deal


def test_the_dealer_moves_and_stacks_carry():
    table = prial.TableRules()
    deal = prial.Deal.start(table, ["a", "b", "c"], seed=1, stacks=[10, 10, 10])
    deal = deal.act("stake", 1).act("fold").act("fold")  # b stakes, c and a fold
    assert deal.result.winners == ("b",)
    after = deal.next()
    assert after.dealer == 1 and after.to_act == "c"
    assert [s.stack for s in after.seats] == [8, 11, 8]  # b took 4 (3 antes + 1) and anted again
    assert after.pots[0].amount == 3


def test_the_pot_stays_when_everyone_folds_to_a_blind_player_who_may_keep_the_hand():
    table = prial.TableRules(retain_blind=True)
    deal = prial.Deal.start(table, ["a", "b", "c"], cards=["As Ad Ac", "2c 3d 5h", "7c 7d 9h"], stacks=[10] * 3)
    deal = deal.act("fold").act("fold")  # b and c fold to a, who never looked
    result = deal.result
    assert result.ending == "pot_stays" and result.winners == ()
    assert result.payouts == {"a": 0, "b": 0, "c": 0}
    assert deal.pots[0].amount == 3
    after = deal.next(retain=True, cards=["Kc Kd 2s", "4c 4d 9s", "Jc Td 8h"])
    assert after.pots[0].amount == 6  # the pot that stayed and three new antes
    assert after.to_dict()["retained"] == {"player": "a", "cards": prial.parse_cards("As Ad Ac")}
    assert sum(s.stack for s in after.seats) + sum(p.amount for p in after.pots) == 30
    # a holds two hands: a look shows the new one, which a fold gives up for the kept one.
    while after.to_act != "a":
        after = after.act("stake", 1)
    assert "see" not in [x.kind for x in after.legal_actions()]
    looked = after.act("look")
    assert looked.view("a").cards["a"] == tuple(prial.parse_cards("Kc Kd 2s"))
    back = looked.act("fold")
    assert back.to_act == "a" and back.seats[0].status == "blind" and "a" not in back.view("a").cards
    assert back.act("look").view("a").cards["a"] == tuple(prial.parse_cards("As Ad Ac"))
    with pytest.raises(prial.InvalidHandError, match="retain"):
        prial.Deal.start(table, ["a", "b"], seed=3).act("look").act("stake", 1).act("fold").next(retain=True)


def test_the_better_of_two_unlooked_hands_plays_at_a_showdown():
    table = prial.TableRules(retain_blind=True)
    deal = prial.Deal.start(table, ["a", "b", "c"], cards=["As Ad Ac", "2c 3d 5h", "7c 7d 9h"])
    deal = deal.act("fold").act("fold").next(retain=True, cards=["Kc Qd 2s", "4c 4d 9s", "Jc Jd 8h"])
    # c, a, b: everyone agrees to show; a plays the retained prial.
    for _ in range(3):
        deal = deal.act("agree_showdown")
    assert deal.result.winners == ("a",)
    assert deal.view(None).cards["a"] == tuple(prial.parse_cards("As Ad Ac"))


def test_players_join_leave_sit_out_and_drop_out_with_no_chips():
    table = prial.TableRules()
    deal = prial.Deal.start(table, ["a", "b", "c"], seed=4, stacks=[5, 1, 5])
    deal = deal.act("fold").act("fold")  # b folds (1 chip gone: the ante), c folds
    after = deal.next(join={"d": 7}, leave=["c"])
    assert after.players == ("a", "d")  # b has no chips left and drops out
    with pytest.raises(prial.InvalidHandError, match="two players"):
        deal.next(leave=["c"], sit_out=["a"])
    again = deal.next(join={"d": 7}, stacks={"b": 4})
    assert again.players == ("a", "b", "c", "d") and again.seats[1].stack == 3
    assert [s.status for s in deal.next(join={"d": 7}, sit_out=["c"]).seats] == ["blind", "out", "blind"]
    with pytest.raises(prial.InvalidHandError, match="not at the table"):
        deal.next(leave=["zed"])
    with pytest.raises(prial.InvalidHandError, match="not over"):
        prial.Deal.start(table, ["a", "b"], seed=1).next()


def test_seeded_deals_follow_one_another_and_round_trip_through_json():
    table = prial.TableRules()
    first = prial.Deal.start(table, ["a", "b", "c"], seed=99)
    second = fold_to(first, "c").next()
    third = fold_to(prial.Deal.start(table, ["a", "b", "c"], seed=99), "c").next()
    assert second == third
    assert prial.Deal.from_json(second.to_json()) == second
    assert second.view("a").cards == {}


def test_after_prial_the_cards_go_to_the_bottom_in_the_order_folded():
    table = prial.TableRules(shuffle="after_prial")
    hands = ["Ac Kd 9h", "2c 3d 5h", "7c 7d 9s"]
    deal = prial.Deal.start(table, ["a", "b", "c"], cards=hands)
    deal = deal.act("fold").act("stake", 1).act("fold")  # b folds, then a
    after = deal.next()
    pack = after.to_dict()["pack"]
    dealt = set(prial.parse_cards(" ".join(hands)))
    # b's hand, then a's (folded in that order), then c's, the one left in.
    assert pack[-9:] == prial.parse_cards("2c 3d 5h") + prial.parse_cards("Ac Kd 9h") + prial.parse_cards("7c 7d 9s")
    assert [c for c in pack[:-9]] == [c for c in range(52) if c not in dealt]
    # The next hands come off the top, one card at a time from the dealer's left.
    top = pack[:9]
    order = ["c", "a", "b"]
    for i, name in enumerate(after.players):
        k = order.index(name)
        assert after.to_dict()["cards"][i] == [top[k], top[k + 3], top[k + 6]]


def test_after_prial_a_see_won_by_a_prial_shuffles():
    table = prial.TableRules(shuffle="after_prial")
    deal = prial.Deal.start(table, ["a", "b"], cards=["As Ad Ac", "2c 3d 5h"])
    deal = deal.act("look").act("stake", 1).act("look").act("see")  # b opens and stakes, a sees... and loses
    assert deal.result.winners == ("b",) or deal.result.winners == ("a",)
    after = deal.next()
    won_by_prial = deal.result.winners == ("a",) and deal.result.ending == "see"
    pack = after.to_dict()["pack"]
    traditional = [c for c in range(52) if c not in prial.parse_cards("As Ad Ac 2c 3d 5h")]
    assert (pack[:46] != traditional) == won_by_prial


def test_the_documented_codes_are_the_engines_in_order():
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / "rules.md").read_text()
    section = text[text.index("### The codes of refused actions"):]
    documented = [line.split("`")[1] for line in section.splitlines() if line.startswith("| `")]
    assert documented == list(prial.table.CODES[1:])


def test_a_next_deal_is_set_up_again_from_its_data_and_what_it_carries():
    table = prial.TableRules(retain_blind=True, shuffle="after_prial")
    deal = prial.Deal.start(table, ["a", "b", "c"], seed=5, stacks=[20, 20, 20])
    deal = deal.act("stake", 1).act("fold").act("fold")  # b blind, folded to: the pot stays
    after = deal.next(retain=True, sit_out=["a"])
    data = after.to_dict()
    carried = {key: data[key] for key in ("pot", "retained", "sitting_out", "pack", "pack_seed") if key in data}
    assert set(carried) == {"pot", "retained", "sitting_out", "pack", "pack_seed"}
    assert carried["pack_seed"] == 5  # kept through an unshuffled deal for the next shuffle
    again = prial.Deal.start(table, data["players"], cards=data["cards"], dealer=data["dealer"],
                             stacks=data["stacks"], carried=carried)
    assert again == after and again.pots == after.pots and again.legal_actions() == after.legal_actions()
    plain = prial.Deal.start(table, data["players"], cards=data["cards"], dealer=data["dealer"], stacks=data["stacks"])
    assert plain.pots != after.pots  # what is carried matters


@pytest.mark.parametrize("carried, words", [
    ({"pott": 3}, "unknown pott"),
    ([("pot", 3)], "must be a mapping"),
    ({"pot": -1}, "pot must be"),
    ({"retained": {"player": "zed"}}, "retained must name a player"),
    ({"sitting_out": ["zed"]}, "sitting_out must list players"),
])
def test_bad_carried_values_are_named(carried, words):
    with pytest.raises(prial.InvalidHandError, match=words):
        prial.Deal.start(prial.TableRules(), ["a", "b"], seed=1, carried=carried)
