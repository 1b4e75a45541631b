"""prial score --engine dask: a LocalCluster of two worker processes gives
the local engine's output, byte for byte; a deal across partitions is refused."""

from __future__ import annotations

import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import prial
from prial import sample_deals, write_sample_log

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
