"""Hand-history records: random deals of every game and option to records,
through JSON, and back to equal deals; every record valid under the
published schema; every fault in a record named by its field."""

from __future__ import annotations

import copy
import json
import random

import jsonschema
import pytest

import prial
from prial.table import Outcome, from_record, history_schema, read_record, to_record

GAMES = ("brag", "four_card_brag", "five_card_brag", "teen_patti")
VALIDATOR = jsonschema.Draft202012Validator(history_schema())


def random_deal(rng: random.Random) -> prial.Deal:
    options: dict = {"game": rng.choice(GAMES), "retain_blind": rng.random() < 0.3,
                     "shuffle": rng.choice(["every_deal", "after_prial"])}
    if rng.random() < 0.3:
        options["pot_limit"] = True
    if rng.random() < 0.3:
        options["cover"] = rng.random() < 0.5
    table = prial.TableRules(**options)
    players = [f"p{i}" for i in range(rng.randint(2, 6))]
    stacks = [rng.randint(3, 60) for _ in players] if rng.random() < 0.5 else None
    if rng.random() < 0.4:
        pack = rng.sample(range(52), len(players) * table.cards)
        cards = [None if rng.random() < 0.2 else pack[i * table.cards:(i + 1) * table.cards]
                 for i in range(len(players))]
        deal = prial.Deal.start(table, players, cards=cards, dealer=rng.randrange(len(players)), stacks=stacks)
    else:
        deal = prial.Deal.start(table, players, seed=rng.getrandbits(64), dealer=rng.randrange(len(players)),
                                stacks=stacks)
    for _ in range(rng.randint(0, 2)):  # later deals carry a pot, a kept hand, a pack
        deal = play_out(rng, deal)
        try:
            deal = deal.next(retain=deal.result is not None and deal.result.ending == "pot_stays")
        except prial.InvalidHandError:  # fewer than two players with chips, or hands not known
            break
    return play_out(rng, deal, stop=rng.random() < 0.2)


def play_out(rng: random.Random, deal: prial.Deal, stop: bool = False) -> prial.Deal:
    while not deal.over and not (stop and rng.random() < 0.2):
        legal = rng.choice(deal.legal_actions())
        if legal.kind in ("stake", "sideshow"):
            most = legal.least * 4 if legal.most is None else min(legal.most, legal.least * 4)
            deal = deal.act(legal.kind, rng.randint(legal.least, most))
        elif legal.kind == "discard":
            hand = deal.hands.get(legal.player or "") or sorted(set(range(52)).difference(*deal.hands.values()))
            deal = deal.act("discard", discards=rng.sample(list(hand), deal.table.discards))
        else:
            deal = deal.act(legal.kind)
    return deal


@pytest.mark.parametrize("chunk", range(4))
def test_random_deals_go_to_records_through_json_and_back_equal(chunk):
    for seed in range(chunk * 250, (chunk + 1) * 250):
        rng = random.Random(seed)
        deal = random_deal(rng)
        record = to_record(deal, deal_id=f"d{seed}", table_id="t1", started="2026-12-03T14:05:00Z")
        VALIDATOR.validate(record)
        again = from_record(json.loads(json.dumps(record)))
        assert again == deal, seed
        assert again.result == deal.result and again.pots == deal.pots and again.hands == deal.hands
        history = read_record(record)
        assert (history.deal_id, history.table_id, history.started) == (f"d{seed}", "t1", "2026-12-03T14:05:00Z")
        if deal.result is not None and deal.result.known:
            assert history.outcome == Outcome(tuple(deal.result.winners or ()), dict(deal.result.nets or {}))


def finished() -> prial.Deal:
    deal = prial.Deal.start(prial.TableRules(), ["ann", "bob", "cat"], cards=["As Ad 2c", "Kh Qh Jh", "7c 5d 3s"],
                            stacks=[20, 20, 20])
    return deal.act("stake", 2).act("look").act("stake", 4).act("fold").act("see", 4)


def test_times_rake_and_a_recorded_outcome_are_kept():
    deal = finished()
    times = [f"2026-12-03T14:05:0{i}Z" for i in range(len(deal.history))]
    record = to_record(deal, deal_id="x", times=times, rake=[1], outcome=Outcome(("cat",), {"cat": 3}))
    VALIDATOR.validate(record)
    history = read_record(json.loads(json.dumps(record)))
    assert history.times == tuple(times) and history.rake == (1,)
    assert history.outcome == Outcome(("cat",), {"cat": 3})  # what was recorded, right or wrong
    assert record["cards"] == ["As Ad 2c", "Kh Qh Jh", "7c 5d 3s"]  # cards as text, readable in a log


def test_rules_given_once_by_reference():
    deal = finished()
    record = to_record(deal, deal_id="x")
    table = record.pop("table")
    record["rules_ref"] = "house"
    VALIDATOR.validate(record)
    assert from_record(record, tables={"house": prial.TableRules.from_dict(table)}) == deal


def test_a_record_without_cards_reads_with_every_hand_unknown():
    record = to_record(finished(), deal_id="x")
    del record["cards"]
    deal = read_record(record).start()
    assert deal.hands == {}
    for action in read_record(record).actions:
        deal = deal.act(action)
    assert deal.over and not deal.result.known


def test_an_illegal_action_in_a_record_is_refused_with_its_code():
    record = to_record(finished(), deal_id="x")
    record["actions"][0]["amount"] = 0  # a blind stake under the least
    with pytest.raises(prial.IllegalActionError) as info:
        from_record(record)
    assert info.value.code == "stake_below_least"


BAD = [
    (lambda r: r.update(format="prial.deal"), "format"),
    (lambda r: r.update(version=2), "version"),
    (lambda r: r.update(colour="red"), "colour"),
    (lambda r: r.pop("deal_id"), "deal_id"),
    (lambda r: r.update(deal_id=""), "deal_id"),
    (lambda r: r.update(started="yesterday"), "started"),
    (lambda r: r.update(started="2026-12-03T14:05:00"), "started"),  # no zone
    (lambda r: r.pop("table"), "table"),
    (lambda r: r.update(rules_ref="house"), "rules_ref"),
    (lambda r: r["table"].update(ante=-1), "table.ante"),
    (lambda r: r["table"].update(game="poker"), "table.game"),
    (lambda r: r.update(dealer=7), "dealer"),
    (lambda r: r.update(players=[{"id": "ann", "seat": 0}]), "players"),
    (lambda r: r["players"][1].update(seat=0), "players[1].seat"),
    (lambda r: r["players"][1].update(id="ann"), "players"),
    (lambda r: r["players"][1].update(stack=-5), "players[1].stack"),
    (lambda r: r["players"][1].pop("stack"), "players"),
    (lambda r: r.update(cards=["As Ad 2c", "Kh Qh Jh"]), "cards"),
    (lambda r: r["cards"].__setitem__(1, "Kh Qh Zz"), "cards[1]"),
    (lambda r: r["cards"].__setitem__(1, "As Qh Jh"), None),  # a card twice: the deal refuses it
    (lambda r: r.update(seed=3), "seed"),
    (lambda r: r.update(actions={}), "actions"),
    (lambda r: r["actions"].append({"player": "ann"}), "actions[5]"),
    (lambda r: r["actions"][0].update(player="zed"), "actions[0].player"),
    (lambda r: r["actions"][0].update(amount=-2), "actions[0].amount"),
    (lambda r: r["actions"][0].update(amount="2"), "actions[0].amount"),
    (lambda r: r["actions"][0].update(colour=1), "actions[0].colour"),
    (lambda r: r["actions"][0].update(time="noon"), "actions[0].time"),
    (lambda r: r.update(rake=5), "rake"),
    (lambda r: r.update(rake=[-1]), "rake[0]"),
    (lambda r: r.update(outcome={"winners": ["zed"]}), "outcome.winners"),
    (lambda r: r.update(outcome={"nets": {"ann": 1.5}}), "outcome.nets"),
]


@pytest.mark.parametrize("spoil, field", BAD)
def test_every_fault_in_a_record_is_named_by_its_field(spoil, field):
    record = to_record(finished(), deal_id="x")
    spoil(record)
    with pytest.raises(prial.InvalidHandError) as info:
        read_record(record).start()
    if field is not None:
        assert info.value.field == field, str(info.value)
    assert str(info.value)


@pytest.mark.parametrize("spoil, field", [b for b in BAD if b[1] not in (None, "players[1].seat", "players", "rules_ref",
                                                                          "cards", "cards[1]", "started", "actions[0].time",
                                                                          "actions[0].player", "outcome.winners",
                                                                          "dealer", "table")])
def test_the_schema_refuses_what_the_reader_refuses(spoil, field):
    """Where a JSON Schema can say it: not what depends on the number of
    seats, on other players' ids, on card text or on time formats."""
    record = to_record(finished(), deal_id="x")
    spoil(record)
    assert not VALIDATOR.is_valid(record), field


def test_a_record_is_plain_data_the_deal_does_not_share():
    deal = finished()
    record = to_record(deal, deal_id="x")
    kept = copy.deepcopy(record)
    again = from_record(record)
    assert again.history == deal.history
    assert record == kept  # reading leaves the record as it was
