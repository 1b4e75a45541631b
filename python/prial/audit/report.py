"""The audit as one self-contained HTML page: a titled chart per test
(matplotlib, drawn as inline SVG with its text as paths, so the page needs
no font, script or URL from anywhere), the sentence saying what the test
found, and the groups that stand out.  Needs the ``report`` extra
(``pip install "prial[report]"``).  ``history_report`` writes it."""

from __future__ import annotations

import html
import io
import math
import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import NamedTuple

from .findings import AuditResult, DealingTest, PayoutGroup, group_label, label_of, mixes_laws, p_cell

# The charts' colours: data only (axes and text are black and greys).
EXPECTED = "#555555"
OBSERVED = ("#1f6fb4", "#e07b00", "#2a9d3c", "#c0392b", "#7b52ab", "#8c564b")
PASSED = "#1f6fb4"
FLAGGED = "#c0392b"
DISPUTES = "#2a9d3c"
MAX_GROUPS_SHOWN = 40  # bars per p-value or dispute chart
MAX_GROUPS_COMPARED = 6  # groups drawn against the expected frequencies


def _pyplot():
    import matplotlib

    matplotlib.use("svg", force=True)
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.fonttype": "path", "font.size": 10, "axes.titlesize": 12,
                         "figure.dpi": 96, "svg.hashsalt": "prial"})
    return plt


@contextmanager
def _drawing(size: tuple[float, float]) -> Iterator[tuple[object, object]]:
    """A new figure and its axes, closed however the drawing ends: pyplot
    keeps every figure not closed, so one failed chart would stay in memory."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=size)
    try:
        yield figure, axes
    finally:
        plt.close(figure)


def _legend_aside(axes) -> None:
    """The legend right of the plot, where it hides no point or bar."""
    axes.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)


def _svg(figure) -> str:
    """The figure as an inline ``<svg>`` element: no XML prologue, doctype,
    metadata or namespace URLs (an HTML page needs none of them)."""
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)
    svg = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", svg)
    return svg


def _shown(tests: Sequence[DealingTest], count: int) -> list[DealingTest]:
    """The tested groups most worth drawing: smallest p first."""
    tested = [t for t in tests if t.p_value is not None]
    return sorted(tested, key=lambda t: (t.p_adjusted if t.p_adjusted is not None else 1.0))[:count]


def _frequency_chart(tests: Sequence[DealingTest], title: str, xlabel: str, several: bool) -> str | None:
    """Observed frequencies of the groups against the expected ones, with
    the range 95 % of fair logs of the group's size would fall in.  A few
    categories, whose frequencies span decades, are drawn relative to
    their expected frequency; cards, all expected alike, as they are."""
    shown = [t for t in tests if t.frequencies]
    if not shown:
        return None
    names = [f.what for f in shown[0].frequencies]
    wide = len(names) > 12
    relative = not wide

    def scale(f, value: float) -> float:
        return value / f.expected if relative else value

    with _drawing((11 if wide else 8, 4.2)) as (figure, axes):
        return _draw_frequencies(figure, axes, shown, names, scale, title, xlabel, several, wide, relative)


def _draw_frequencies(figure, axes, shown: Sequence[DealingTest], names: list[str], scale, title: str,
                      xlabel: str, several: bool, wide: bool, relative: bool) -> str:
    positions = range(len(names))
    width = 0.8 / (len(shown) + 1)
    for index, test in enumerate(shown):
        offset = (index + 1) * width - 0.4 + width / 2
        xs = [p + offset for p in positions]
        centre = [scale(f, f.expected) for f in test.frequencies]
        lows = [c - scale(f, f.low) for c, f in zip(centre, test.frequencies)]
        highs = [scale(f, f.high) - c for c, f in zip(centre, test.frequencies)]
        axes.errorbar(xs, centre, yerr=[lows, highs], fmt="_", color=EXPECTED, markersize=8, capsize=2, linewidth=1,
                      label="expected, with the fair 95 % range" if index == 0 else None)
        axes.plot(xs, [scale(f, f.observed) for f in test.frequencies], "o", color=OBSERVED[index % len(OBSERVED)],
                  markersize=4 if wide else 6, label=f"observed: {label_of(test, several)}")
    axes.set_xticks(list(positions))
    axes.set_xticklabels([n.replace("_", " ").lower() for n in names], rotation=90 if wide else 0,
                         fontsize=7 if wide else 9)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("observed / expected frequency (1: as fair dealing expects)" if relative
                    else "frequency (share of hands)")
    axes.set_title(title)
    axes.legend(fontsize=8, loc="best")
    axes.grid(axis="y", alpha=0.3)
    return _svg(figure)


def _p_value_chart(tests: Sequence[DealingTest], alpha: float, title: str, several: bool) -> str | None:
    shown = _shown(tests, MAX_GROUPS_SHOWN)
    if not shown:
        return None
    with _drawing((8, 0.9 + 0.28 * len(shown))) as (figure, axes):
        return _draw_p_values(figure, axes, tests, shown, alpha, title, several)


def _draw_p_values(figure, axes, tests: Sequence[DealingTest], shown: list[DealingTest], alpha: float, title: str,
                   several: bool) -> str:
    values = [max(t.p_adjusted if t.p_adjusted is not None else 1.0, 1e-300) for t in shown]
    heights = [-math.log10(v) for v in values]
    labels = [label_of(t, several) for t in shown]
    axes.barh(range(len(shown)), heights, color=[FLAGGED if t.flagged else PASSED for t in shown])
    axes.axvline(-math.log10(alpha), color=EXPECTED, linestyle="--", linewidth=1, label=f"alpha = {alpha:g}")
    axes.set_yticks(range(len(shown)))
    axes.set_yticklabels(labels, fontsize=8)
    axes.invert_yaxis()
    axes.set_xlabel("-log10 of the Holm-adjusted p-value (longer bars: stronger evidence of unfair dealing)")
    axes.set_ylabel("group")
    axes.set_title(title + (f" (the {len(shown)} smallest of {sum(t.p_value is not None for t in tests)})"
                            if len(shown) < sum(t.p_value is not None for t in tests) else ""))
    _legend_aside(axes)
    return _svg(figure)


class RateRow(NamedTuple):
    """One group's bar of a rate chart: its label, rate, 95 % interval and
    whether it stands out."""

    label: str
    rate: float
    low: float
    high: float
    flagged: bool = False


def rate_chart(rows: Sequence[RateRow], title: str, xlabel: str, legend: str) -> str | None:
    """Each group's rate with its interval, highest first (up to MAX_GROUPS_SHOWN)."""
    shown = sorted(rows, key=lambda r: -r.rate)[:MAX_GROUPS_SHOWN]
    if not shown:
        return None
    with _drawing((8, 0.9 + 0.28 * len(shown))) as (figure, axes):
        return _draw_rates(figure, axes, shown, title, xlabel, legend)


def _draw_rates(figure, axes, shown: list[RateRow], title: str, xlabel: str, legend: str) -> str:
    rates = [100 * r.rate for r in shown]
    # Error bars may not be negative: a rate of 0 or 100 % is its interval's end.
    errors = [[max(0.0, x - 100 * r.low) for x, r in zip(rates, shown)],
              [max(0.0, 100 * r.high - x) for x, r in zip(rates, shown)]]
    for flagged, colour, label in ((False, DISPUTES, legend), (True, FLAGGED, "stands out above the rest")):
        mine = [i for i, r in enumerate(shown) if r.flagged == flagged]
        if mine:
            axes.errorbar([rates[i] for i in mine], mine, xerr=[[errors[0][i] for i in mine], [errors[1][i] for i in mine]],
                          fmt="s", color=colour, capsize=3, markersize=6, label=label)
    axes.set_yticks(range(len(shown)))
    axes.set_yticklabels([r.label for r in shown], fontsize=8)
    axes.set_ylim(len(shown) - 0.5, -0.5)
    axes.set_xlim(0, min(100.0, 1.15 * max(100 * r.high for r in shown)) or 1.0)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("group")
    axes.set_title(title)
    _legend_aside(axes)
    return _svg(figure)


def _dispute_chart(groups: Sequence[PayoutGroup]) -> str | None:
    return rate_chart([RateRow(group_label(g.group), g.rate or 0.0, g.low, g.high) for g in groups if g.adjudicated],
                      "Payouts: dispute rate per group",
                      "deals whose logged winner differs from prial's adjudication (%)",
                      "dispute rate, with its 95 % interval")


_STYLE = """
body { font-family: sans-serif; max-width: 1100px; margin: 2em auto; color: #222; line-height: 1.4; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
p.finding { font-size: 1.05em; background: #f4f6f8; padding: 0.6em 0.8em; border-left: 4px solid #46627d; }
p.finding.flag { border-left-color: #8e3b2f; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
td, th { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1em 0; } svg { max-width: 100%; height: auto; }
"""


def _table(headers: Sequence[str] | None, rows: Sequence[Sequence[object]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers or ())
    body = "".join("<tr>" + "".join(
        f'<td class="n">{v:,}</td>' if isinstance(v, int) and not isinstance(v, bool)
        else f'<td class="n">{v}</td>' if isinstance(v, float) else f"<td>{html.escape(str(v))}</td>"
        for v in row) + "</tr>" for row in rows)
    return f"<table>{f'<tr>{head}</tr>' if head else ''}{body}</table>"


def _figure(svg: str | None, caption: str) -> str:
    if svg is None:
        return ""
    return f'<figure role="img" aria-label="{html.escape(caption)}">{svg}</figure>'


def _finding(text: str, flagged: bool) -> str:
    return f'<p class="finding{" flag" if flagged else ""}">{html.escape(text)}</p>'


def _dealing_section(result: AuditResult, kind: str, heading: str, frequency_title: str, xlabel: str) -> str:
    tests = result.dealing[kind]
    several = mixes_laws(tests)
    flagged = result.flagged(kind)
    parts = [f"<h2>{html.escape(heading)}</h2>", _finding(result.summaries[kind], bool(flagged))]
    # The groups that stand out first, then those nearest to it.
    compared = (flagged + [t for t in _shown(tests, len(tests)) if not t.flagged])[
        :MAX_GROUPS_COMPARED if kind == "categories" else 1]
    if kind == "categories":
        laws = {(t.game, t.cards) for t in compared}
        for law in sorted(laws):
            mine = [t for t in compared if (t.game, t.cards) == law]
            title = frequency_title + (f": {law[0]}, {law[1]} cards" if several else "")
            parts.append(_figure(_frequency_chart(mine, title, xlabel, several), title))
    elif compared and compared[0].effect is not None:
        top = compared[0]
        assert top.effect is not None
        title = f"{frequency_title}: seat {top.effect.seat} of {label_of(top, several)}"
        parts.append(_figure(_frequency_chart([top], title, xlabel, several), title))
    title = f"{heading}: p-value per group"
    parts.append(_figure(_p_value_chart(tests, result.alpha, title, several), title))
    if flagged:
        parts.append("<p>The groups that stand out, largest effect first:</p>")
        parts.append(_table(
            ["group", "deals", "adjusted p", "seat", "most deviant", "observed", "expected", "residual (sd)"],
            [[label_of(t, several), t.deals, p_cell(t.p_adjusted), t.effect.seat, t.effect.what,
              t.effect.observed, round(t.effect.expected, 1), round(t.effect.residual, 2)]
             for t in flagged if t.effect is not None and t.p_adjusted is not None]))
    untested = [t for t in tests if t.untested]
    if untested:
        parts.append("<p>Not tested:</p>" + _table(["group", "deals", "why"],
                                                  [[label_of(t, several), t.deals, t.untested] for t in untested]))
    return "\n".join(parts)


def _page_head(result: AuditResult, title: str, facts: list[list[object]]) -> list[str]:
    """A report page's start: its title, then what was audited (``facts``)
    and how it was grouped and tested."""
    by = ", ".join(result.by) or "none (the whole log is one group)"
    return ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">', f"<title>{html.escape(title)}</title>",
            f"<style>{_STYLE}</style></head><body>", f"<h1>{html.escape(title)}</h1>",
            _table(None, [*facts, ["groups by", by],
                          ["tests held to", f"alpha = {result.alpha:g}, Holm-corrected across groups"]])]


def _impossible_section(result: AuditResult) -> list[str]:
    """The deals that hold a card twice, by group."""
    parts = ["<h2>Dealing: impossible deals</h2>", _finding(result.summaries["impossible"], bool(result.impossible))]
    if result.impossible:
        parts.append(_table(["group", "deals holding a card twice", "listed"],
                            [[group_label(g.group), g.deals, ", ".join(map(str, g.listed))]
                             for g in result.impossible]))
    return parts


def render(result: AuditResult) -> str:
    """The report of ``result`` as one HTML page."""
    title = f"prial audit of {os.path.basename(result.input)}"
    parts = [
        *_page_head(result, title, [["log", result.input], ["rows", result.rows],
                                    ["rows not usable (bad rows)", result.bad_rows], ["deals", result.deals]]),
        _dealing_section(result, "categories", "Dealing: hand categories", "Hand categories: observed and expected",
                         "hand category"),
        _dealing_section(result, "cards", "Dealing: cards per seat", "Cards: observed and expected", "card"),
        *_impossible_section(result),
    ]
    parts += ["<h2>Payouts</h2>", _finding(result.summaries["payouts"], False),
              _figure(_dispute_chart(result.payouts), "Payouts: dispute rate per group")]
    disputed = [g for g in result.payouts if g.disputes]
    if disputed:
        parts.append(_table(["group", "adjudicated", "disputes", "rate", "95 % interval", "disputed deals (first)"],
                            [[group_label(g.group), g.adjudicated, g.disputes, f"{g.rate:.2%}",
                              f"{g.low:.2%} to {g.high:.2%}", ", ".join(map(str, g.disputed_deals[:20]))]
                             for g in disputed]))
    parts.append("</body></html>")
    return "\n".join(p for p in parts if p)
