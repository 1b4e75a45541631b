"""The table benchmark's random player (prial.cli.bench_table, inside the
CLI) plays draw Brag's draws: a draw's least and most are cards."""

from __future__ import annotations

import prial
from prial.cli.bench_table import play_prial


def test_the_benchmark_s_random_player_plays_draw_brag():
    actions, deals = play_prial(prial.TableRules(game="draw_brag"), 50, seed=2)
    assert all(deal.over for deal in deals) and actions == sum(deal.actions for deal in deals)
    assert any(a.kind == "draw" and a.discards for deal in deals for a in deal.history)
