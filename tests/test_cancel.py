"""Cancelling long native calls through a prial.CancelFlag: another thread
calls flag.cancel() and the call raises prial.CancelledError within
milliseconds; a flag cancelled before the call stops it at once; a flag
never cancelled changes no answer."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import prial

pytestmark = pytest.mark.slow

# Cancel latency bound: ~ms in a release build; wide for the sanitizer run.
LATENCY_LIMIT = 2.0
CANCEL_AFTER = 0.05
# A looping call that is never stopped fails the test after this long.
LOOP_LIMIT = 60.0


@pytest.fixture(scope="module")
def threes() -> np.ndarray:
    return prial.random_hands(4_000_000, 3, seed=1)


@pytest.fixture(scope="module")
def fives() -> np.ndarray:
    return prial.random_hands(2_000_000, 5, seed=2)


@pytest.fixture(scope="module")
def sees() -> tuple[np.ndarray, np.ndarray]:
    deals = prial.random_hands(1_000_000, 10, seed=3)
    return np.ascontiguousarray(deals[:, :5]), np.ascontiguousarray(deals[:, 5:])


@pytest.fixture(scope="module")
def deals() -> np.ndarray:
    return prial.random_hands(200_000, 13, seed=4)


def cancel_latency(call, name: str) -> float:
    """Runs call(flag) while another thread cancels the flag after ~50 ms;
    checks it raised CancelledError and returns (and prints) the seconds
    from cancel() to the exception."""
    flag = prial.CancelFlag()
    cancelled_at: list[float] = []

    def cancel() -> None:
        time.sleep(CANCEL_AFTER)
        cancelled_at.append(time.perf_counter())
        flag.cancel()

    canceller = threading.Thread(target=cancel)
    canceller.start()
    try:
        with pytest.raises(prial.CancelledError):
            call(flag)
        raised_at = time.perf_counter()
    finally:
        canceller.join()
    assert flag.cancelled
    latency = raised_at - cancelled_at[0]
    print(f"{name}: CancelledError {latency * 1e3:.1f} ms after cancel()")
    assert latency < LATENCY_LIMIT
    return latency


def looping(call):
    """call(flag) again and again, as a server working through a stream
    would, until it raises (or LOOP_LIMIT passes: a failure)."""

    def run(flag: prial.CancelFlag) -> None:
        start = time.perf_counter()
        while time.perf_counter() - start < LOOP_LIMIT:
            call(flag)
        pytest.fail(f"not cancelled within {LOOP_LIMIT} s")

    return run


def test_the_public_names():
    assert "CancelFlag" in prial.__all__ and "CancelledError" in prial.__all__
    assert prial.CancelledError.__module__ == "prial"
    assert issubclass(prial.CancelledError, Exception)
    assert not issubclass(prial.CancelledError, prial.InvalidHandError)
    flag = prial.CancelFlag()
    assert not flag.cancelled
    flag.cancel()
    flag.cancel()  # again: no error, still cancelled
    assert flag.cancelled
    with pytest.raises(AttributeError):
        flag.cancelled = False  # read-only


# ---- stopped while running --------------------------------------------------


def test_equity_is_stopped():
    prial.equity("As Ks Qs", 16, samples=1000)  # tables built outside the timing
    cancel_latency(lambda flag: prial.equity("As Ks Qs", 16, samples=10_000_000, cancel=flag), "equity")


def test_equity_batch_is_stopped(threes, fives):
    # Three cards: fractions of a microsecond a row; five with a ruleset
    # whose pairs of cards are counted one by one: a millisecond a row.
    king = prial.Evaluator(prial.Rules(wild="suicide_king"))
    king.equity_batch(fives[:1])  # tables built outside the timing
    prial.equity_batch(threes[:1])
    cancel_latency(lambda flag: prial.equity_batch(threes, threads=1, cancel=flag), "equity_batch, 3 cards")
    cancel_latency(lambda flag: king.equity_batch(fives[:10_000], cancel=flag), "equity_batch, 5 cards")


def test_partition_batch_is_stopped(deals):
    # The opponent model is built on first use, outside the timing.
    prial.partition_batch(deals[:10], objective="expected_points")
    cancel_latency(lambda flag: prial.partition_batch(deals, objective="expected_points", cancel=flag),
                   "partition_batch")


def test_evaluate_batch_is_stopped(threes):
    cancel_latency(looping(lambda flag: prial.evaluate_batch(threes, cancel=flag)), "evaluate_batch")


def test_best_of_batch_is_stopped(fives):
    prial.best_of_batch(fives[:10])
    cancel_latency(looping(lambda flag: prial.best_of_batch(fives, cancel=flag)), "best_of_batch")


def test_showdown_batch_is_stopped(sees):
    seer, seen = sees
    prial.showdown_batch(seer[:10], seen[:10])
    cancel_latency(looping(lambda flag: prial.showdown_batch(seer, seen, cancel=flag)), "showdown_batch")


def test_evaluator_methods_are_stopped(fives):
    ev = prial.Evaluator(prial.Rules(preset="teen_patti"))
    ev.best_of_batch(fives[:10])
    cancel_latency(looping(lambda flag: ev.best_of_batch(fives, threads=1, cancel=flag)),
                   "Evaluator.best_of_batch, 1 thread")


# ---- cancelled before the call ----------------------------------------------


def test_a_cancelled_flag_stops_every_call_at_once(threes, fives, sees, deals):
    flag = prial.CancelFlag()
    flag.cancel()
    seer, seen = sees
    calls = {
        "evaluate_batch": lambda: prial.evaluate_batch(threes, cancel=flag),
        "evaluate_batch, small": lambda: prial.evaluate_batch(threes[:5], cancel=flag),
        "best_of_batch": lambda: prial.best_of_batch(fives, cancel=flag),
        "showdown_batch": lambda: prial.showdown_batch(seer, seen, cancel=flag),
        "showdown_batch, empty": lambda: prial.showdown_batch(seer[:0], seen[:0], cancel=flag),
        "partition_batch": lambda: prial.partition_batch(deals, objective="expected_points", cancel=flag),
        "partition_batch, new options": lambda: prial.partition_batch(deals, objective="expected_points",
                                                                      opponents=2, cancel=flag),
        "equity, sampled": lambda: prial.equity("As Ks Qs", 16, samples=10_000_000, cancel=flag),
        "equity, exact": lambda: prial.equity("As Ks Qs", 2, cancel=flag),
        "equity_batch": lambda: prial.equity_batch(threes[:1000], cancel=flag),
    }
    for name, call in calls.items():
        start = time.perf_counter()
        with pytest.raises(prial.CancelledError):
            call()
        assert time.perf_counter() - start < 0.5, name


# ---- a flag never cancelled ---------------------------------------------------


def test_an_uncancelled_flag_changes_no_result(threes, fives, sees, deals):
    flag = prial.CancelFlag()
    seer, seen = sees
    np.testing.assert_array_equal(prial.evaluate_batch(threes, cancel=flag), prial.evaluate_batch(threes))
    np.testing.assert_array_equal(prial.best_of_batch(fives, cancel=flag), prial.best_of_batch(fives))
    np.testing.assert_array_equal(prial.showdown_batch(seer, seen, cancel=flag), prial.showdown_batch(seer, seen))
    for got, want in zip(prial.partition_batch(deals[:2000], objective="expected_points", cancel=flag),
                         prial.partition_batch(deals[:2000], objective="expected_points")):
        np.testing.assert_array_equal(got, want)
    assert prial.equity("As Ks Qs", 5, samples=50_000, seed=7, cancel=flag) == prial.equity(
        "As Ks Qs", 5, samples=50_000, seed=7)
    assert prial.equity("7h 7d 2c", 2, cancel=flag) == prial.equity("7h 7d 2c", 2)
    assert not flag.cancelled


def test_errors_in_the_input_are_still_reported_with_a_flag(threes):
    bad = threes[:100_000].copy()
    bad[70_000] = (5, 5, 6)
    with pytest.raises(prial.InvalidHandError) as raised:
        prial.evaluate_batch(bad, cancel=prial.CancelFlag())
    assert raised.value.row == 70_000


def test_cancel_must_be_a_flag(threes):
    with pytest.raises(TypeError):
        prial.evaluate_batch(threes[:5], cancel=True)


# The command gets SIGINT's default action, as from a shell, whatever this
# process has: set after exec by a wrapper, since Python code run between
# fork and exec (a preexec_fn) is unsafe beside the threads gRPC keeps here
# (seen under AddressSanitizer: the child aborted in gRPC's fork handler).
DEFAULT_SIGINT = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                  "os.execv(sys.argv[1], sys.argv[1:])")


# What a child writes once prial is imported and its work about to start:
# under load an import takes seconds, and a Ctrl-C in the middle of one is
# not what these tests are about.
SAY_READY = "import os; open(os.environ['PRIAL_TEST_READY'], 'w').close()\n"


def interrupted_once_busy(script: str, *args: str, tmp_path) -> tuple[subprocess.CompletedProcess, float]:
    """Runs ``python -c script args`` (which writes the ready file), sends
    SIGINT half a second after it is ready; its end and how long after the
    signal it came."""
    ready = tmp_path / "ready"
    proc = subprocess.Popen([sys.executable, "-c", DEFAULT_SIGINT, sys.executable, "-c", script, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PRIAL_TEST_READY": str(ready)})
    deadline = time.monotonic() + 120
    while not ready.exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.02)
    time.sleep(0.5)
    assert proc.poll() is None, proc.communicate()
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(args, proc.returncode, out, err), time.monotonic() - sent


def test_ctrl_c_stops_a_long_sampled_equity_on_the_command_line(tmp_path):
    # The prial command's own entry point, as its console script runs it.
    script = "import prial.cli\n" + SAY_READY + "prial.cli.entry()\n"
    done, after = interrupted_once_busy(
        script, "odds", "--hand", "As Kd Qh", "--opponents", "3", "--samples", "100000000000", "--no-sample-cap",
        tmp_path=tmp_path)
    assert done.returncode == 130 and done.stderr == "prial: interrupted\n", done.stderr
    assert after < LATENCY_LIMIT


def test_ctrl_c_stops_a_long_sampled_prial_equity(tmp_path):
    script = ("import prial\n" + SAY_READY +
              "try:\n"
              "    prial.equity('As Kd Qh', 3, samples=100_000_000_000)\n"
              "except KeyboardInterrupt:\n"
              "    print('interrupted')\n")
    done, after = interrupted_once_busy(script, tmp_path=tmp_path)
    assert done.returncode == 0 and done.stdout == "interrupted\n", done.stderr
    assert after < LATENCY_LIMIT


def test_the_command_line_refuses_more_samples_than_a_server_deals(capsys):
    from prial.cli import main

    assert main(["odds", "--hand", "As Kd Qh", "--opponents", "3", "--samples", "100000000000"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("prial: error: --samples 100,000,000,000 against 3 opponent(s)")
    assert "10,485,760" in err and "at most --samples 3,495,253" in err and "--no-sample-cap" in err
