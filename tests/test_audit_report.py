"""prial audit --report: one self-contained HTML page with a titled chart
per test, opened in headless Chromium to see that the charts render."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pyarrow.parquet as pq
import pytest

from prial.audit import AuditOptions, audit_table, write_report

from .audit_logs import favour_pairs, hands_of, log_table, shuffles

pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def biased(tmp_path_factory):
    """A log whose dealer 1 favours pairs, audited by dealer, and its report."""
    order = shuffles(30_000, seed=40)
    rigged = (np.arange(30_000) % 3 == 1) & (np.random.default_rng(4).random(30_000) < 0.4)
    table = log_table(hands_of(favour_pairs(order, rigged, 4, seed=41), 4, 3), dealers=3)
    folder = tmp_path_factory.mktemp("report")
    pq.write_table(table, folder / "deals.parquet")
    result = audit_table(table, AuditOptions(by=("dealer",)))
    write_report(result, folder / "report.html")
    return result, folder


def test_the_report_is_one_page_needing_nothing_else(biased):
    result, folder = biased
    page = (folder / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    for outside in ("http:", "https:", "//", "<script", "<link", "<img", "src=", "@import"):
        assert outside not in page, outside
    assert not re.search(r"url\((?!#)", page)  # the charts' clip paths refer only to the page itself
    titles = re.findall(r'<figure role="img" aria-label="([^"]+)"><svg', page)
    assert len(titles) == 5 and titles[2].startswith("Cards: observed and expected: seat ")
    assert [titles[i] for i in (0, 1, 3, 4)] == [
        "Hand categories: observed and expected", "Dealing: hand categories: p-value per group",
        "Dealing: cards per seat: p-value per group", "Payouts: dispute rate per group"]
    for sentence in result.summaries.values():
        assert sentence.replace("'", "&#x27;") in page
    assert "dealer=1" in page and result.flagged("categories")


def _screenshot(page: str, png: str) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed: .ci/run installs Debian's chromium for this test")
        pytest.skip("needs Debian's chromium (apt-get install chromium)")
    # The browser is not under test: it runs without the sanitizer runtime
    # tools/sanitize.sh preloads into the suite.
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--window-size=1200,5200", f"--screenshot={png}", f"file://{page}"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0 and os.path.getsize(png) > 0, done.stderr[-2000:]


def _rgb(colour: str) -> np.ndarray:
    return np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)])


def _pixels_near(image: np.ndarray, colour: str, tolerance: int = 12) -> int:
    return int((np.abs(image[..., :3].astype(int) - _rgb(colour)).max(axis=-1) <= tolerance).sum())


def _chart_colours(page: str) -> list[set[str]]:
    """Each chart's own colours (its data, not the black, white and greys
    of axes and text), read from its SVG."""
    charts = re.findall(r"<figure[^>]*>(.*?)</figure>", page, flags=re.S)
    colours = []
    for svg in charts:
        found = {c.lower() for c in re.findall(r"(?:fill|stroke):\s*(#[0-9a-fA-F]{6})", svg)}
        colours.append({c for c in found if len({c[1:3], c[3:5], c[5:7]}) > 1})
    return colours


@pytest.mark.slow
def test_chromium_renders_every_chart(biased, tmp_path):
    from matplotlib.image import imread

    _, folder = biased
    png = str(tmp_path / "report.png")
    _screenshot(str(folder / "report.html"), png)
    image = (imread(png) * 255).astype(np.uint8)
    assert image.shape[0] >= 5000 and image.shape[1] == 1200
    charts = _chart_colours((folder / "report.html").read_text())
    assert len(charts) == 5 and all(charts)
    # What each chart draws its data in is on screen: the page's SVG was
    # rendered, not left as text or an empty box.
    for colours in charts:
        for colour in colours:
            assert _pixels_near(image, colour) > 100, colour
    # The flagged group's bar and the fair groups' bars differ in colour.
    assert len(charts[1]) >= 2
    # Drawn below the heading, down the page, one chart after another.
    drawn = np.flatnonzero(np.any([(np.abs(image[..., :3].astype(int) - _rgb(c)).max(axis=-1) <= 12).any(axis=1)
                                   for colours in charts for c in colours], axis=0))
    assert drawn.min() > 150 and drawn.max() - drawn.min() > 1500


@pytest.mark.slow
def test_the_command_writes_the_report(biased, tmp_path):
    _, folder = biased
    report = tmp_path / "audit.html"
    done = subprocess.run([sys.executable, "-m", "prial", "audit", str(folder / "deals.parquet"), "--by", "dealer",
                           "--report", str(report), "--progress", "none"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and f"report: {report}" in done.stderr
    assert report.read_text().count("<svg") == 5 and "dealer=1" in done.stdout
    again = subprocess.run([sys.executable, "-m", "prial", "audit", str(folder / "deals.parquet"), "--report",
                            str(report), "--overwrite", "--progress", "none"], capture_output=True, text=True,
                           timeout=300)
    assert again.returncode == 0 and "the whole log is one group" in report.read_text()


def _payout_log(deals: int, disputed: bool, dealers: int = 0):
    """A sample log whose won column is the adjudicated winners, or their
    opposite (every deal disputed)."""
    import pyarrow.compute as pc

    import prial

    table = prial.sample_deals(deals, seed=deals, dealers=dealers, won="adjudicated")
    if disputed:
        table = table.set_column(table.schema.get_field_index("won"), "won", pc.invert(table["won"]))
    return table
