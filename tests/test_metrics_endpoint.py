"""What an operator scrapes and where the server listens: the metrics of
answered work, calls in flight, the build and the process; /metrics alone
answered; IPv6 and dual stack for gRPC and metrics alike; a taken port
named in one line."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request

import pytest

import prial
from prial import random_hands
from prial.client import Client, PrialRpcError

from .grpc_helpers import ServerProcess, free_port, scrape, scrape_until


def has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def metered():
    port = free_port()
    with ServerProcess("--metrics-port", str(port)) as server:
        server.metrics_url = f"http://127.0.0.1:{port}/metrics"
        yield server


def test_refused_calls_rank_no_hands_and_durations_carry_the_code(metered):
    before = scrape(metered.metrics_url)
    with Client(metered.target, timeout=10) as client:
        client.evaluate(random_hands(300, 3, seed=4))
        with pytest.raises(PrialRpcError):
            client.evaluate([*["3s 2h Ah"] * 99, "3s 3s 3s"])  # 100 hands, refused
    counted = ('prial_request_seconds_count{code="OK",method="Evaluate"}',
               'prial_request_seconds_count{code="INVALID_ARGUMENT",method="Evaluate"}')
    after = scrape_until(metered.metrics_url,
                         lambda now: all(now.get(name, 0.0) > before.get(name, 0.0) for name in counted))

    def grew(name: str) -> float:
        return after.get(name, 0.0) - before.get(name, 0.0)

    assert grew('prial_hands_total{method="Evaluate"}') == 300
    assert grew('prial_requests_total{code="INVALID_ARGUMENT",method="Evaluate"}') == 1
    assert grew('prial_request_seconds_count{code="OK",method="Evaluate"}') == 1
    assert grew('prial_request_seconds_count{code="INVALID_ARGUMENT",method="Evaluate"}') == 1


def test_build_and_process_metrics(metered):
    samples = scrape(metered.metrics_url)
    assert samples[f'prial_build_info{{version="{prial.__version__}"}}'] == 1
    assert samples["process_resident_memory_bytes"] > 1 << 20
    assert samples["process_open_fds"] >= 3
    assert samples["process_start_time_seconds"] > 1.6e9


def test_calls_in_flight_by_method(metered):
    gate = threading.Event()

    def batches():
        yield random_hands(10, 3, seed=1)
        gate.wait(20)  # the stream stays open until the scrape is done

    with Client(metered.target, timeout=30) as client:
        answers = iter(client.evaluate_stream(batches()))
        next(answers)
        during = scrape(metered.metrics_url)
        gate.set()
        list(answers)
    assert during['prial_calls_in_flight{method="EvaluateStream"}'] == 1
    after = scrape_until(metered.metrics_url, lambda now: now['prial_calls_in_flight{method="EvaluateStream"}'] == 0)
    assert after['prial_calls_in_flight{method="EvaluateStream"}'] == 0


@pytest.mark.parametrize("path", ["/", "/metrics/", "/health", "/metricsx"])
def test_only_the_metrics_path_is_answered(metered, path):
    url = metered.metrics_url.removesuffix("/metrics") + path
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(url, timeout=10)
    assert info.value.code == 404


def test_the_serving_line_states_the_version(metered):
    serving = [json.loads(line) for line in metered.log().splitlines() if '"serving"' in line]
    assert serving and serving[0]["version"] == prial.__version__


@pytest.mark.skipif(not has_ipv6_loopback(), reason="this machine has no IPv6 loopback")
@pytest.mark.parametrize("host", ["::", "[::]"])
@pytest.mark.parametrize("processes", ["1", "2"])
def test_ipv6_any_serves_both_families_for_grpc_and_metrics(host, processes):
    port = free_port()
    with ServerProcess("--processes", processes, "--metrics-port", str(port), host=host) as server:
        for address in ("[::1]", "127.0.0.1"):
            with Client(f"{address}:{server.port}", timeout=10) as client:
                assert client.health() == "SERVING"
                assert client.evaluate(["3s 2h Ah"]).strengths.size == 1
            assert scrape(f"http://{address}:{port}/metrics")['prial_build_info{version="%s"}' % prial.__version__] == 1
        assert server.terminate() == 0


@pytest.mark.parametrize("processes", ["1", "2"])
@pytest.mark.parametrize("host", ["127.0.0.1", "::"])
def test_a_taken_metrics_port_is_named_in_one_line(host, processes):
    if ":" in host and not has_ipv6_loopback():
        pytest.skip("this machine has no IPv6 loopback")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as taken:
        taken.bind((host, 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run([sys.executable, "-m", "prial", "serve", "--host", host, "--port", "0",
                              "--processes", processes, "--metrics-port", str(port)],
                             capture_output=True, text=True, timeout=60)
    bracketed = f"[{host}]" if ":" in host else host
    assert run.returncode == 1
    assert run.stderr.strip().splitlines()[-1] == \
        f"prial: error: cannot listen on {bracketed}:{port}: address in use (--metrics-port)"
    assert "Traceback" not in run.stderr
