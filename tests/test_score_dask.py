"""prial score --engine dask: a LocalCluster of two worker processes gives
the local engine's output, byte for byte; a deal across partitions is refused."""

from __future__ import annotations

import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import prial
from prial import sample_deals, write_sample_log

pytestmark = pytest.mark.slow

distributed = pytest.importorskip("distributed")
pytest.importorskip("dask.dataframe")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        yield cluster


def test_dask_equals_local(cluster, tmp_path):
    log = tmp_path / "log.parquet"
    write_sample_log(str(log), 15_000, seed=9, deals_per_row_group=2_000)  # 8 partitions
    local = prial.score_file(log, tmp_path / "local.parquet")
    dask = prial.score_file(log, tmp_path / "dask.parquet", engine="dask", scheduler=cluster.scheduler_address)
    assert (tmp_path / "dask.parquet").read_bytes() == (tmp_path / "local.parquet").read_bytes()
    assert dask.engine == "dask" and dask.complete
    assert (dask.rows_in, dask.deals, dask.disputes, dask.categories) == (
        local.rows_in, local.deals, local.disputes, local.categories)


def test_dask_scores_laid_hands_as_the_local_engine(cluster, tmp_path):
    log = tmp_path / "laid.parquet"
    write_sample_log(log, 60, seed=4, players=3, laid="crash", spare=True, deals_per_row_group=16)  # 4 partitions
    local = prial.score_file(log, tmp_path / "local.csv")
    dask = prial.score_file(log, tmp_path / "dask.csv", engine="dask", scheduler=cluster.scheduler_address)
    assert (tmp_path / "dask.csv").read_bytes() == (tmp_path / "local.csv").read_bytes()
    assert (dask.rows_out, dask.deals, dask.invalid_deals, dask.categories) == (
        180, 60, 0, local.categories)


def test_dask_csv_with_bad_rows_equals_local(cluster, tmp_path):
    sample = tmp_path / "log.csv"
    table = sample_deals(500, seed=4)
    cards = table["cards"].to_pylist()
    cards[10], cards[333] = "Zz 2c 3d", None
    table = table.set_column(2, "cards", [cards])
    pacsv.write_csv(table, sample)
    local = prial.score_file(sample, tmp_path / "local.csv")
    dask = prial.score_file(sample, tmp_path / "dask.csv", engine="dask", scheduler=cluster.scheduler_address)
    assert (tmp_path / "dask.csv").read_text() == (tmp_path / "local.csv").read_text()
    assert (tmp_path / "dask.csv.errors.csv").read_text() == (tmp_path / "local.csv.errors.csv").read_text()
    assert dask.bad_rows == local.bad_rows == 2


def test_dask_refuses_a_deal_across_partitions(cluster, tmp_path):
    log = tmp_path / "split.parquet"
    pq.write_table(sample_deals(100, seed=1), log, row_group_size=50)  # 50 = 12.5 deals
    with pytest.raises(prial.ScoreError, match="spans Dask partitions 0 and 1"):
        prial.score_file(log, tmp_path / "out.parquet", engine="dask", scheduler=cluster.scheduler_address)
    assert not (tmp_path / "out.parquet").exists()


SPLIT_LOG = """deal_id,player,cards,folded,won
1,a,As Ad Ah,false,true
2,c,3s 2h 4d,false,true
2,d,7s 8h Tc,false,false
1,b,Kd Kh Kc,false,false
3,e,Qs Qd 2c,false,true
3,f,Js 9d 4c,false,false
"""


def test_dask_gives_a_split_deal_a_problem_not_a_winner(cluster, tmp_path):
    """Deal 1's rows are rows 1 and 4, in partitions apart: no part of it
    is adjudicated as if it were the whole deal."""
    parts = tmp_path / "split"
    parts.mkdir()
    lines = SPLIT_LOG.splitlines(keepends=True)
    (parts / "0.csv").write_text("".join(lines[:4]))
    (parts / "1.csv").write_text(lines[0] + "".join(lines[4:]))
    whole = tmp_path / "whole.parquet"
    import pyarrow as pa

    table = pa.concat_tables([pacsv.read_csv(parts / "0.csv"), pacsv.read_csv(parts / "1.csv")])
    pq.write_table(table, whole, row_group_size=3)  # two partitions: deal 1 in both
    prial.score_file(whole, tmp_path / "out.parquet", engine="dask", scheduler=cluster.scheduler_address)
    local = prial.score_file(whole, tmp_path / "local.parquet")
    assert (tmp_path / "out.parquet").read_bytes() == (tmp_path / "local.parquet").read_bytes()
    assert local.invalid_deals == 2  # deal 1's two runs
    rows = pq.read_table(tmp_path / "out.parquet").to_pylist()
    for row in rows:
        assert (row["winner"] is None) == (row["deal_id"] == 1)
        assert ("not consecutive" in (row["deal_problem"] or "")) == (row["deal_id"] == 1)


@pytest.mark.parametrize("row, neighbours", [(39, {9, 10}), (40, {9, 10}), (45, {11})])
def test_dask_a_row_without_deal_id_at_a_partition_edge(cluster, tmp_path, row, neighbours):
    """Row 39 ends partition 0 (deal 9's last row), row 40 begins partition
    1 (deal 10's first): the deal on the other side of the boundary is not
    adjudicated either, as by the local engine."""
    import pyarrow as pa

    table = sample_deals(100, seed=5)
    ids = table["deal_id"].to_pylist()
    ids[row] = None
    table = table.set_column(0, "deal_id", pa.array(ids, pa.int64()))
    log = tmp_path / "log.parquet"
    pq.write_table(table, log, row_group_size=40)  # ten deals a partition
    dask = prial.score_file(log, tmp_path / "dask.parquet", engine="dask", scheduler=cluster.scheduler_address)
    local = prial.score_file(log, tmp_path / "local.parquet")
    assert (tmp_path / "dask.parquet").read_bytes() == (tmp_path / "local.parquet").read_bytes()
    assert (dask.deals, dask.invalid_deals) == (local.deals, local.invalid_deals) == (100, len(neighbours))
    rows = pq.read_table(tmp_path / "dask.parquet").to_pylist()
    assert {r["deal_id"] for r in rows if r["deal_problem"]} == neighbours
    audit = prial.audit_file(log, engine="dask", scheduler=cluster.scheduler_address)
    assert audit.payouts[0].unadjudicable == prial.audit_file(log).payouts[0].unadjudicable == len(neighbours)


def test_dask_names_the_line_of_a_misshapen_csv_row(cluster, tmp_path):
    log = tmp_path / "log.csv"
    write_sample_log(str(log), 50, seed=9)
    lines = log.read_text().splitlines(keepends=True)
    lines[9] = lines[9].rstrip("\n") + ",extra\n"
    log.write_text("".join(lines))
    with pytest.raises(prial.ScoreError, match=r"^cannot read .*log\.csv on the dask engine: Expected 7 fields in "
                                               r"line 10, saw 8; the local engine sends such a row to the errors"):
        prial.score_file(log, tmp_path / "out.csv", engine="dask", scheduler=cluster.scheduler_address)
    assert not (tmp_path / "out.csv").exists()


def test_dask_names_the_line_of_a_misshapen_row_in_a_file_of_hands(cluster, tmp_path):
    """Without deal ids nothing reads the file before the partitions are
    scored, past the first rows Dask reads for the columns' types."""
    log = tmp_path / "hands.csv"
    log.write_text("cards\n" + "As Ks Qs\n" * 40_000 + "2c 3c 4c,extra\n7h 7d 7s\n")
    says = r"on the dask engine: Expected 1 fields in line 40002, saw 2; "
    with pytest.raises(prial.ScoreError, match=says):
        prial.score_file(log, tmp_path / "out.csv", engine="dask", scheduler=cluster.scheduler_address)
    with pytest.raises(prial.ScoreError, match=says):
        prial.audit_file(log, engine="dask", scheduler=cluster.scheduler_address)
