"""The betting table's benchmark workloads, for ``prial bench`` and
benchmarks/bench_table.py: six-handed deals played by a uniformly random
player through prial.Deal, and, as the baseline, six-handed no-limit
hold'em through PokerKit (where installed) with the same kind of player.
Both count player actions only: prial's looks and discards are actions,
PokerKit's automated dealing and blinds are not."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..table import Deal, TableRules

PLAYERS = ("p0", "p1", "p2", "p3", "p4", "p5")


def play_prial(table: TableRules, deals: int, seed: int) -> tuple[int, list[Deal]]:
    """Plays ``deals`` seeded deals through prial.Deal, each action uniform
    among the legal ones and a stake's amount uniform between its least and
    most (``least`` × 4 when unbounded).  Returns the actions taken and the
    finished deals."""
    rng = random.Random(seed)
    actions = 0
    played = []
    for number in range(deals):
        deal = Deal.start(table, PLAYERS, seed=seed + number, dealer=number % len(PLAYERS))
        while not deal.over:
            legal = deal.legal_actions()
            action = legal[rng.randrange(len(legal))]
            if action.kind == "draw":  # draw Brag: how many uniform, then which
                count = rng.randint(action.least or 0, action.most or 0)
                deal = deal.act("draw", discards=rng.sample(deal.hands[action.player or ""], count))
            elif action.least is not None:
                most = action.most if action.most is not None else action.least * 4
                deal = deal.act(action.kind, rng.randint(action.least, most))
            elif action.kind == "discard":
                deal = deal.act("discard", discards=rng.sample(deal.hands[action.player or ""], table.discards))
            else:
                deal = deal.act(action)
            actions += 1
        played.append(deal)
    return actions, played


def pokerkit_player() -> Callable[[int, int], int] | None:
    """PokerKit's six-handed no-limit hold'em played by a random player (a
    function of deals and seed returning the actions taken), or None when
    PokerKit is not installed."""
    try:
        from pokerkit import Automation, NoLimitTexasHoldem
    except ImportError:
        return None
    automations = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
                   Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
                   Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
                   Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)

    def play(deals: int, seed: int) -> int:
        rng = random.Random(seed)
        actions = 0
        for _ in range(deals):
            state: Any = NoLimitTexasHoldem.create_state(automations, True, 0, (1, 2), 2, (200,) * 6, 6)
            while state.status:
                choices: list[Callable[[], object]] = []
                if state.can_fold():
                    choices.append(state.fold)
                if state.can_check_or_call():
                    choices.append(state.check_or_call)
                if state.can_complete_bet_or_raise_to():
                    least = state.min_completion_betting_or_raising_to_amount
                    most = state.max_completion_betting_or_raising_to_amount
                    choices.append(lambda: state.complete_bet_or_raise_to(rng.randint(least, most)))
                if not choices:
                    break
                choices[rng.randrange(len(choices))]()
                actions += 1
        return actions

    return play
