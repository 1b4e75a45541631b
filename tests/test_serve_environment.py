"""``prial serve``'s options from the environment: every option has a
variable, listed in ``--help`` and the README; a variable counts as its
option would, an option on the command line wins over it, and a bad value
is refused in one line naming the variable, in the option's own words."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import grpc
import pytest

from prial.cli import main
from prial.client import Client, PrialRpcError

from .grpc_helpers import ServerProcess, free_port, scrape_until
from .serve_help import option_help, serve_help, variable

README = Path(__file__).resolve().parent.parent / "README.md"


def test_help_lists_every_options_variable():
    options = option_help()
    assert len(options) >= 25 and "--port" in options and "--no-call-log" in options
    for flag, text in options.items():
        assert f"env {variable(flag)}" in text, (flag, text)
    assert "An option given on the command line wins" in " ".join(serve_help().split())


def test_the_readme_lists_every_options_variable_and_default():
    rows = {cells[0].strip("`"): cells for cells in
            ([cell.strip() for cell in line.strip("|").split("|")] for line in README.read_text().splitlines()
             if line.startswith("| `--"))}
    options = option_help()
    assert set(rows) == set(options)
    for flag, (_, name, default) in rows.items():
        assert f"`{variable(flag)}`" in name, (flag, name)
        in_help = re.search(r"\(default (.+?); env ", options[flag])
        switch = f"env {variable(flag)}=1" in options[flag]
        assert default == (in_help.group(1) if in_help else "off" if switch else "none"), (flag, default)


def prial_serve(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess:
    """``prial serve`` that must fail before serving (a bug would serve: the timeout ends it)."""
    return subprocess.run([sys.executable, "-m", "prial", "serve", *argv], capture_output=True, text=True,
                          timeout=60, env={**os.environ, **env})


@pytest.mark.parametrize("flag, value", [
    ("--port", "70000"), ("--workers", "0"), ("--max-message-mb", "4096"), ("--max-batch", "many"),
    ("--grace", "soon"), ("--idle-timeout", "0"), ("--keepalive-time", "inf"), ("--metrics-port", "-1"),
])
def test_a_bad_value_is_refused_as_the_option_would_be(capsys, flag, value):
    with pytest.raises(SystemExit) as info:
        main(["serve", f"{flag}={value}"])
    assert info.value.code == 2
    as_flag = capsys.readouterr().err
    done = prial_serve({variable(flag): value})
    assert done.returncode == 2, done.stderr
    assert done.stderr == as_flag.replace(f"argument {flag}", f"{variable(flag)}={value}")
    assert done.stderr.startswith(f"prial: error: {variable(flag)}={value}: ") and done.stderr.count("\n") == 1


def test_a_switch_takes_1_or_0_only():
    done = prial_serve({"PRIAL_NO_CALL_LOG": "yes"})
    assert (done.returncode, done.stderr) == (
        2, "prial: error: PRIAL_NO_CALL_LOG=yes: must be 1 (as --no-call-log) or 0 (see: prial serve --help)\n")


def test_a_value_that_is_no_one_word_is_shown_quoted():
    done = prial_serve({"PRIAL_PORT": "50 51"})
    assert done.returncode == 2
    assert done.stderr.startswith("prial: error: PRIAL_PORT='50 51': expected a whole number")


def test_variables_configure_the_server_and_options_win():
    wanted, overridden, metrics = free_port(), free_port(), free_port()
    env = {
        "PRIAL_HOST": "127.0.0.1",
        "PRIAL_PORT": str(overridden),  # --port wins
        "PRIAL_WORKERS": "0",  # refused if it were read, but --workers wins
        "PRIAL_MAX_BATCH": "2",
        "PRIAL_METRICS_PORT": str(metrics),
        "PRIAL_NO_CALL_LOG": "1",
        "PRIAL_GRACE": "",  # empty: unset
    }
    command = [sys.executable, "-m", "prial", "serve", "--port", str(wanted), "--workers", "1"]
    with ServerProcess(command=command, env=env) as server:  # its port file named by PRIAL_PORT_FILE
        assert server.port == wanted
        with Client(server.target, timeout=10) as client:
            assert client.evaluate(["3s 2h Ah", "Kd Kh 4c"]).strengths.shape == (2,)
            with pytest.raises(PrialRpcError) as info:
                client.evaluate(["3s 2h Ah", "Kd Kh 4c", "7s 7h Qc"])
            assert info.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        with pytest.raises(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{overridden}/", timeout=2)
        refused = 'prial_requests_total{code="RESOURCE_EXHAUSTED",method="Evaluate"}'
        samples = scrape_until(f"http://127.0.0.1:{metrics}/metrics", lambda now: refused in now)
        assert samples.get(refused) == 1
        assert server.terminate() == 0
        events = [json.loads(line)["event"] for line in server.log().splitlines() if line.startswith("{")]
        assert "serving" in events and "rpc" not in events
