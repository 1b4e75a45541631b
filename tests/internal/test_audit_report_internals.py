"""prial audit --report's drawing, reached through its internals: error
bars at rates of 0 and 100 %, figures closed after a failure, legends that
hide nothing, p-values beyond a float."""

from __future__ import annotations

import pytest

from prial.audit import AuditOptions, audit_table

from ..test_audit_report import _payout_log, biased  # noqa: F401 (biased: a fixture)


@pytest.mark.parametrize("deals, disputed", [(3, False), (6, False), (12, False), (10, True), (7, True)])
def test_a_dispute_rate_of_0_or_100_percent_is_drawn(deals, disputed):
    from prial.audit.report import render

    result = audit_table(_payout_log(deals, disputed))
    [group] = result.payouts
    assert group.disputes == (deals if disputed else 0) and group.adjudicated == deals
    assert "Payouts: dispute rate per group" in render(result)


def test_the_dispute_interval_holds_the_rate():
    from prial.audit.stats import wilson

    for trials in range(1, 201):
        for successes in range(trials + 1):
            low, high = wilson(successes, trials)
            assert 0 <= low <= successes / trials <= high <= 1, (successes, trials)


def test_a_chart_that_fails_leaves_no_figure_open(biased, monkeypatch):
    import matplotlib.pyplot as plt

    from prial.audit import report

    result, _ = biased
    plt.close("all")

    def failing(group):
        raise RuntimeError("drawing failed")

    monkeypatch.setattr(report, "group_label", failing)
    with pytest.raises(RuntimeError, match="drawing failed"):
        report.render(result)
    assert plt.get_fignums() == []


def test_no_legend_hides_a_point_or_a_bar(monkeypatch):
    """Four dealers whose dispute rates are all near 100 %: the last
    group's point is at the bottom right, where a legend inside would sit."""
    from prial.audit import report

    original, checked = report._svg, []

    def inspected(figure) -> str:
        renderer = figure._get_renderer()  # noqa: SLF001 (the SVG canvas offers no other)
        figure.draw(renderer)
        for axes in figure.axes:
            legend = axes.get_legend()
            if legend is None:
                continue
            box = legend.get_window_extent(renderer)
            for line in axes.get_lines():
                for x, y in axes.transData.transform(line.get_xydata()):
                    assert not box.contains(x, y), axes.get_title()
            for patch in axes.patches:
                assert not box.overlaps(patch.get_window_extent(renderer)), axes.get_title()
            checked.append(axes.get_title())
        return original(figure)

    monkeypatch.setattr(report, "_svg", inspected)
    table = _payout_log(400, disputed=True, dealers=4)
    report.render(audit_table(table, AuditOptions(by=("dealer",))))
    assert "Payouts: dispute rate per group" in checked


def test_a_p_value_beyond_a_float_reads_as_the_sentence_says(biased, capsys):
    """An adjusted p that underflows to 0 is "< 1e-300" in the groups
    table (report and command line), as in the sentence, not "0"."""
    import copy

    from prial.audit.report import render
    from prial.cli.audit import print_audit

    result = copy.deepcopy(biased[0])
    for test in result.flagged("categories"):
        test.p_adjusted = 0.0
    assert "<td>&lt; 1e-300</td>" in render(result) and '<td class="n">0</td>' not in render(result).split(
        "stand out, largest effect first")[1].split("</table>")[0]
    print_audit(result)
    table_lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("dealer=1")]
    assert table_lines and "< 1e-300" in table_lines[0]
