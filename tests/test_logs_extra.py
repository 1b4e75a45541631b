"""pyarrow is the logs extra's: ``import prial``, ranking, the table and
``prial serve`` never load it, and without it the log commands and
functions say in one line which extra to install."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import prial
from prial.client import Client

from .grpc_helpers import ServerProcess

# A pyarrow that is not there: importing it fails as a missing module does.
ABSENT = "raise ModuleNotFoundError(\"No module named 'pyarrow'\", name='pyarrow')\n"
MESSAGE = 'this needs pyarrow, which is not installed: pip install "prial[logs]"'


@pytest.fixture(scope="module")
def without_pyarrow(tmp_path_factory) -> dict[str, str]:
    """An environment in which ``import pyarrow`` fails."""
    shadow = tmp_path_factory.mktemp("no-pyarrow")
    (shadow / "pyarrow").mkdir()
    (shadow / "pyarrow" / "__init__.py").write_text(ABSENT)
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(shadow), os.environ.get("PYTHONPATH", "")])}


def run(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)


def test_the_shadow_really_hides_pyarrow(without_pyarrow):
    done = run("import pyarrow", without_pyarrow)
    assert done.returncode == 1 and "No module named 'pyarrow'" in done.stderr


def test_ranking_and_the_table_never_load_pyarrow(without_pyarrow):
    code = ("import sys, prial\n"
            "assert prial.evaluate('3s 2h Ah').strength > 0\n"
            "deal = prial.Deal.start(prial.TableRules(), ['a', 'b'], cards=['As Ad 2c', 'Kh Qh Jh'])\n"
            "deal = deal.act('stake', 1).act('see', 2)\n"
            "assert deal.result is not None\n"
            "print('pyarrow' in sys.modules)\n")
    done = run(code, without_pyarrow)
    assert done.stdout == "False\n", done.stderr


def test_the_server_serves_without_pyarrow(without_pyarrow):
    with ServerProcess(env=without_pyarrow) as server:
        with Client(server.target, timeout=10) as client:
            assert client.health() == "SERVING"
            assert client.evaluate(["3s 2h Ah"]).strengths.size == 1
            assert client.play_table(prial.TableRules(), ["a", "b"], [{"kind": "stake", "amount": 1}, {"kind": "see", "amount": 2}],
                                     cards=["As Ad 2c", "Kh Qh Jh"]).result is not None
        assert server.terminate() == 0
        assert "pyarrow" not in server.log()


@pytest.mark.parametrize("command", [
    ["sample", "--deals", "3", "-o", "{dir}/log.csv"],
    ["score", "{dir}/log.csv"],
    ["audit", "{dir}/log.csv"],
])
def test_the_log_commands_name_the_extra_in_one_line(without_pyarrow, tmp_path, command):
    (tmp_path / "log.csv").write_text("deal_id,player,cards\n1,a,3s 2h Ah\n")
    argv = [word.format(dir=tmp_path) for word in command]
    done = subprocess.run([sys.executable, "-m", "prial", *argv], capture_output=True, text=True, timeout=120,
                          env=without_pyarrow)
    assert done.returncode == 1
    assert done.stderr == f"prial: error: {MESSAGE}\n"
    assert not Path(tmp_path / "log.csv.scored.parquet").exists()


@pytest.mark.parametrize("name", ["score_file", "audit_file", "sample_deals"])
def test_the_log_functions_name_the_extra(without_pyarrow, name):
    done = run(f"import prial\nprial.{name}\n", without_pyarrow)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == f"ModuleNotFoundError: prial.{name}: {MESSAGE}"
