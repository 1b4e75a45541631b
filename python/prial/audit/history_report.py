"""The report of an audit of hand histories, one self-contained HTML page
as a row log's (``report``): the rates per group with their charts and
offending deals, the dealing tests on the deals dealt from a shuffled
pack, and the players' nets and play.  ``write_report`` writes either
page, whole or not at all."""

from __future__ import annotations

import html
import os

from .findings import AuditResult, group_label, p_cell
from .history_findings import LEFT_OUT_WORDS, RATE_WORDS, HistoryAuditResult, PlayerLine, RateGroup
from .report import (
    EXPECTED,
    OBSERVED,
    RateRow,
    _dealing_section,
    _drawing,
    _figure,
    _finding,
    _impossible_section,
    _legend_aside,
    _page_head,
    _svg,
    _table,
    rate_chart,
    render,
)

RATE_HEADINGS = {"illegal": "Illegal actions: deals holding one, per group",
                 "mispaid": "Payouts: mispaid deals per group"}
OFFENCES_LISTED = 50  # offending deals in a section's table
MAX_PLAYERS_SHOWN = 40


def _rate_section(result: HistoryAuditResult, kind: str) -> str:
    groups: list[RateGroup] = result.rates[kind]
    title = RATE_HEADINGS[kind]
    noun, verb = RATE_WORDS[kind]
    parts = [f"<h2>{html.escape(title.split(':')[0])}</h2>",
             _finding(result.summaries[kind], bool(result.flagged_groups(kind))),
             _figure(rate_chart([RateRow(group_label(g.group), g.rate or 0.0, g.low, g.high, g.flagged)
                                 for g in groups if g.trials], title, f"{noun} that {verb} (%)",
                                "rate, with its 95 % interval"), title)]
    if len(groups) > 1:
        parts.append(_table(["group", noun, "offending", "rate", "95 % interval", "adjusted p", "stands out"],
                            [[group_label(g.group), g.trials, g.hits, f"{g.rate:.2%}" if g.rate is not None else "-",
                              f"{g.low:.2%} to {g.high:.2%}",
                              p_cell(g.p_adjusted) if g.p_adjusted is not None else "not tested",
                              "yes" if g.flagged else ""] for g in groups]))
    offences = [(g, o) for g in sorted(groups, key=lambda g: not g.flagged) for o in g.offences][:OFFENCES_LISTED]
    if offences:
        parts.append(f"<p>Offending deals (the first {len(offences)}, the groups that stand out first):</p>")
        parts.append(_table(["group", "deal", "finding", "action index", "code", "player"],
                            [[group_label(g.group), o.deal_id, o.finding,
                              o.action_index if o.action_index >= 0 else "-", o.code or "-", o.player or "-"]
                             for g, o in offences]))
    return "\n".join(p for p in parts if p)


def _players_chart(players: list[PlayerLine]) -> str | None:
    shown = sorted(players, key=lambda p: -p.deals)[:MAX_PLAYERS_SHOWN]
    if not shown:
        return None
    with _drawing((8, 1.2 + 0.36 * len(shown))) as (figure, axes):
        return _draw_play(figure, axes, shown)


def _draw_play(figure, axes, shown: list[PlayerLine]) -> str:
    height = 0.8 / 3
    for k, (kind, label) in enumerate((("blind", "played blind"), ("see", "saw"), ("fold", "folded"))):
        axes.barh([i + (k - 1) * height for i in range(len(shown))], [100 * p.rates()[kind] for p in shown],
                  height=height, color=OBSERVED[k], label=label)
    axes.set_yticks(range(len(shown)))
    axes.set_yticklabels([p.player for p in shown], fontsize=8)
    axes.set_ylim(len(shown) - 0.5, -0.5)
    axes.set_xlim(0, 100)
    axes.set_xlabel("share of the player's deals (%)")
    axes.set_ylabel("player")
    axes.set_title("Players: deals played blind, seen and folded")
    _legend_aside(axes)
    return _svg(figure)


def _nets_chart(players: list[PlayerLine]) -> str | None:
    shown = sorted(players, key=lambda p: -abs(p.net))[:MAX_PLAYERS_SHOWN]
    if not shown:
        return None
    with _drawing((8, 0.9 + 0.28 * len(shown))) as (figure, axes):
        return _draw_nets(figure, axes, shown)


def _draw_nets(figure, axes, shown: list[PlayerLine]) -> str:
    axes.barh(range(len(shown)), [p.net for p in shown], color=[OBSERVED[0] if p.net >= 0 else OBSERVED[3] for p in shown])
    axes.axvline(0, color=EXPECTED, linewidth=1)
    axes.set_yticks(range(len(shown)))
    axes.set_yticklabels([p.player for p in shown], fontsize=8)
    axes.invert_yaxis()
    axes.set_xlabel("net chips as recorded (won less put in, after the rake)")
    axes.set_ylabel("player")
    axes.set_title("Players: net")
    return _svg(figure)


def render_histories(result: HistoryAuditResult) -> str:
    """The report of an audit of hand histories as one HTML page."""
    title = f"prial audit of the histories {os.path.basename(result.input)}"
    parts = [
        *_page_head(result, title, [["log", result.input], ["deals", result.deals], ["actions", result.actions],
                                    ["records not readable (left out)", result.bad_rows]]),
        _rate_section(result, "illegal"), _rate_section(result, "mispaid"),
        "<h2>Dealing: the deals tested</h2>", _finding(result.summaries["left_out"], False),
        _table(["deals left out of the dealing tests", "deals"],
               [[LEFT_OUT_WORDS[reason], count] for reason, count in result.left_out.items()]),
        _dealing_section(result, "categories", "Dealing: hand categories", "Hand categories: observed and expected",
                         "hand category"),
        _dealing_section(result, "cards", "Dealing: cards per seat", "Cards: observed and expected", "card"),
        *_impossible_section(result),
        "<h2>Players</h2>", _figure(_nets_chart(result.players), "Players: net"),
        _figure(_players_chart(result.players), "Players: deals played blind, seen and folded"),
        _table(["player", "deals", "net", "adjudicated net", "played blind", "saw", "folded"],
               [[p.player, p.deals, p.net, p.adjudicated_net, *(f"{r:.1%}" for r in p.rates().values())]
                for p in result.players]),
        "</body></html>",
    ]
    return "\n".join(p for p in parts if p)


def write_report(result: AuditResult, path: str | os.PathLike[str]) -> None:
    """Writes the report of ``result`` (a row log's audit or a history
    log's) to ``path``, whole or not at all."""
    page = render_histories(result) if isinstance(result, HistoryAuditResult) else render(result)
    path = os.fspath(path)
    temporary = f"{path}.tmp"
    with open(temporary, "w", encoding="utf-8") as out:
        out.write(page)
    os.replace(temporary, path)
