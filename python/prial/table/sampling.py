"""Sample hand histories: seeded deals played by the table's policies and
written as records, with faults planted at chosen rates (docs/histories.md,
"Sample histories"), so that replay and audit can be tried on logs whose
answers are known."""

import random
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any, NamedTuple

from ..cards import format_cards
from ..errors import IllegalActionError, InvalidHandError
from ..evaluator import Evaluator
from ..play.odds import percentile
from .deal import Deal
from .history import to_record
from .records import Action
from .rules import DRAW_GAME, TableRules

# The faults a sample can plant, and what the replay finds of each.
FAULTS = {
    "mispaid-pot": "mispaid",  # a chip of the pot recorded as paid to another player
    "wrong-winner": "wrong_winner",  # the pot recorded as won by a player who lost
    "see-blind": "illegal_action",  # an open player seeing a blind one
    "short-stake": "illegal_action",  # a stake one chip under the least
}
_START = datetime(2026, 1, 1, tzinfo=timezone.utc)
_TRIES = 200


class Fault(NamedTuple):
    """A fault to plant: its kind (a key of FAULTS), the share of deals it
    is planted in, and the dealer whose deals it is limited to (None:
    every deal)."""

    kind: str
    rate: float
    dealer: str | None = None


class Sampled(NamedTuple):
    """A sampled record and the fault planted in it (None: none), with the
    index and code of the illegal action planted where the fault is one."""

    record: dict[str, Any]
    fault: str | None
    action_index: int = -1
    code: str | None = None


def sample_histories(table: TableRules, deals: int, *, players: int = 4, seed: int = 0,
                     policies: Sequence[float | None] | None = None, faults: Sequence[Fault] = (),
                     stack: int | None = None) -> Iterator[Sampled]:
    """``deals`` deals at ``table`` (dealer moving one seat a deal, seat
    s played by ``policies[s]``: None for random legal actions, a share
    for the threshold player), as records of one table ``t0``, faults
    planted at their rates (at most one a deal, the first that draws)."""
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise InvalidHandError(f"players must be a whole number from 2; got {players!r}", field="players")
    chosen = list(policies) if policies is not None else [None] * players
    if len(chosen) != players:
        raise InvalidHandError(f"policies gives {len(chosen)} policies for {players} players", field="policies")
    if stack is None and table.pot_cap is None and table.game != DRAW_GAME and \
            any(policy is not None for policy in chosen):
        # three threshold players above their thresholds would stake
        # against each other without end: chips or a cap must run out (draw
        # Brag's rounds end on their own)
        raise InvalidHandError("a threshold policy needs stacks (stack) or a pot cap: without either, players "
                               "above their thresholds stake against each other without end", field="stack")
    for fault in faults:
        if fault.kind not in FAULTS:
            raise InvalidHandError(f"unknown fault {fault.kind!r}: one of {', '.join(FAULTS)}", field="faults")
        if not 0 <= fault.rate <= 1:
            raise InvalidHandError(f"fault rate must be from 0 to 1; got {fault.rate!r}", field="faults")
    names = [f"p{i}" for i in range(players)]
    rng = random.Random(seed)
    evaluator = Evaluator(table.rules)
    for number in range(deals):
        dealer = number % players
        drawn = next((f.kind for f in faults if (f.dealer is None or f.dealer == names[dealer])
                      and rng.random() < f.rate), None)
        # An illegal action can be planted only where the deal offers the
        # chance: deals are played again until one does (a few tries), so
        # that the fault's rate holds.
        for _ in range(_TRIES if drawn in ("see-blind", "short-stake") else 1):
            start = Deal.start(table, names, seed=rng.getrandbits(64), dealer=dealer,
                               stacks=None if stack is None else [stack] * players)
            deal, planted = _play(start, rng, chosen, evaluator, drawn)
            if planted is not None:
                break
        if drawn in ("see-blind", "short-stake") and planted is None:
            drawn = None
        started = _START + timedelta(minutes=number)
        times = [started + timedelta(seconds=5 * (i + 1)) for i in range(len(deal.history) + (planted is not None))]
        record = to_record(deal, deal_id=f"d{number}", table_id="t0", started=started, times=times[:len(deal.history)])
        # the cards as a platform logs them, not the seed they came from
        del record["seed"]
        record["cards"] = [format_cards(start.hands[name]) for name in names]
        if table.game == DRAW_GAME:  # and the cards the draw dealt from
            record["stub"] = format_cards(start._native.stub())
        if planted is not None:  # an illegal action, recorded after the legal ones
            index, action, code = planted
            entry: dict[str, Any] = {"player": action.player, "kind": action.kind, "time": _iso(times[-1])}
            if action.amount is not None:
                entry["amount"] = action.amount
            record["actions"].append(entry)
            record.pop("outcome", None)
            yield Sampled(record, drawn, index, code)
            continue
        if drawn in ("mispaid-pot", "wrong-winner") and not _misreport(record, drawn, rng):
            drawn = None  # nothing to misreport (no known winner)
        yield Sampled(record, drawn)


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def _play(deal: Deal, rng: random.Random, policies: Sequence[float | None], evaluator: Evaluator,
          fault: str | None) -> tuple[Deal, tuple[int, Action, str] | None]:
    """The deal played out; for an illegal fault, stopped at the first
    state where it can be planted, with (index, action, code)."""
    while not deal.over:
        if fault in ("see-blind", "short-stake"):
            planted = _illegal(deal, fault)
            if planted is not None:
                return deal, (deal.actions, *planted)
        deal = deal.act(_choose(deal, rng, policies[deal.players.index(deal.to_act or "")], evaluator))
    return deal, None


def _illegal(deal: Deal, fault: str) -> tuple[Action, str] | None:
    me = deal.to_act or ""
    seats = {s.player: s for s in deal.seats}
    if fault == "see-blind":
        inside = [s for s in deal.seats if s.status in ("blind", "open")]
        if seats[me].status != "open" or len(inside) != 2:
            return None
        other = next(s for s in inside if s.player != me)
        if other.status != "blind" or not any(a.kind == "stake" for a in deal.history):
            return None
        action = Action("see", me)
    else:
        stake = next((a for a in deal.legal_actions() if a.kind == "stake"), None)
        if stake is None or stake.least is None or stake.least < 2:
            return None
        action = Action("stake", me, stake.least - 1)
    try:
        deal.act(action)
    except IllegalActionError as exc:
        return action, exc.code
    return None


def _choose(deal: Deal, rng: random.Random, policy: float | None, evaluator: Evaluator) -> Action:
    legal = deal.legal_actions()
    kinds = {a.kind: a for a in legal}
    if policy is not None:
        if "accept" in kinds:
            return Action("accept")
        if "look" in kinds:
            return Action("look")
        if "discard" in kinds:
            return Action("discard", discards=tuple(evaluator.best_of(deal.hands[deal.to_act or ""]).discarded))
        hand = deal.hands.get(deal.to_act or "")
        kept = hand if hand is None or len(hand) == 3 else evaluator.best_of(hand).kept
        strong = kept is not None and percentile(kept, deal.table.rules) >= policy
        if "draw" in kinds:  # draw Brag: stand pat when strong, else draw three
            return Action("draw", discards=() if strong or hand is None else tuple(hand))
        if "check" in kinds or "call" in kinds:
            return Action("check" if "check" in kinds else "call" if strong else "fold")
        if strong:
            for kind in ("see", "stake", "cover"):
                if kind in kinds:
                    return Action(kind, amount=kinds[kind].least if kind == "stake" else None)
        return Action("fold") if "fold" in kinds else legal[0]
    pick = legal[rng.randrange(len(legal))]
    if pick.kind in ("stake", "sideshow"):
        least = pick.least or 0
        most = least * 4 if pick.most is None else min(pick.most, least * 4)
        return Action(pick.kind, amount=rng.randint(least, most))
    if pick.kind == "discard":
        return Action("discard", discards=tuple(rng.sample(deal.hands[pick.player or ""], deal.table.discards)))
    if pick.kind == "draw" and pick.most:  # how many uniform, then which
        hand = deal.hands.get(pick.player or "")
        if hand is not None:
            return Action("draw", discards=tuple(rng.sample(hand, rng.randint(0, pick.most))))
    return Action(pick.kind)


def _misreport(record: dict[str, Any], fault: str, rng: random.Random) -> bool:
    """Changes the record's outcome as the fault says; False when there is
    no known outcome to change."""
    outcome = record.get("outcome")
    if not outcome or not outcome["winners"] or not outcome["nets"]:
        return False
    nets: Mapping[str, int] = outcome["nets"]
    winner = outcome["winners"][0]
    losers = [p for p in nets if p not in outcome["winners"]]
    if not losers:
        return False
    loser = rng.choice(losers)
    changed = dict(nets)
    if fault == "mispaid-pot":  # a chip of the winner's recorded as the loser's
        changed[winner] -= 1
        changed[loser] += 1
        record["outcome"] = {"winners": outcome["winners"], "nets": changed}
    else:  # the two swapped: the loser recorded as the winner
        changed[winner], changed[loser] = nets[loser], nets[winner]
        record["outcome"] = {"winners": [loser if w == winner else w for w in outcome["winners"]], "nets": changed}
    return True
