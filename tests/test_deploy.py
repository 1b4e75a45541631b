"""The deployment examples of deploy/ match ``prial serve``: their options
and variables are its own and start a server here, their ports and probes
are the ones it serves on, their stop grace outlasts its drain, and the
Kubernetes objects select the pods the Deployment makes."""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

import prial

from prial.client import Client
from prial.server import ServeOptions

from .container_files import ROOT, exec_form, read_dockerfile, seconds
from .grpc_helpers import ServerProcess, free_port
from .serve_help import option_help, variable

DEPLOY = ROOT / "deploy"


def image() -> tuple[list[str], dict[str, str], str]:
    """The image's command, variables and user (its last stage's)."""
    runtime = read_dockerfile()[1][-1]
    return exec_form(runtime.one("CMD")), runtime.env(), runtime.one("USER")


def kubernetes() -> dict[str, dict[str, Any]]:
    """Every object of deploy/kubernetes/, by kind/name."""
    found = {}
    for path in sorted((DEPLOY / "kubernetes").glob("*.yaml")):
        for document in yaml.safe_load_all(path.read_text()):
            found[f"{document['kind']}/{document['metadata']['name']}"] = document
    return found


def compose() -> dict[str, Any]:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def container() -> dict[str, Any]:
    [one] = kubernetes()["Deployment/prial"]["spec"]["template"]["spec"]["containers"]
    return one


def setting(flag: str, argv: list[str], env: dict[str, str]) -> str | None:
    """What ``prial serve`` takes for ``flag``: the command line's, else the variable's."""
    if flag in argv:
        return argv[argv.index(flag) + 1]
    return env.get(variable(flag)) or None


def shutdown_seconds(argv: list[str], env: dict[str, str]) -> float:
    """How long a server takes at most to exit after SIGTERM (docs/service.md): drain + grace + 1."""
    defaults = ServeOptions()
    drain = setting("--drain", argv, env)
    grace = setting("--grace", argv, env)
    options = ServeOptions(drain_seconds=float(drain) if drain else defaults.drain_seconds,
                           grace_seconds=float(grace) if grace else defaults.grace_seconds)
    assert options.shutdown_seconds == options.drain_seconds + options.grace_seconds + 1
    return options.shutdown_seconds


def serves_here(argv: list[str], env: dict[str, str]) -> None:
    """The command and variables start a server on this host (loopback, free ports; the drain cut short)."""
    prial = shutil.which("prial", path=str(Path(sys.executable).parent))
    assert prial and argv[:2] == ["prial", "serve"]
    command = [prial, *("127.0.0.1" if word == "0.0.0.0" else word for word in argv[1:]),
               "--port", "0", "--metrics-port", str(free_port()), "--drain", "0"]
    with ServerProcess(command=command, env=env) as server:
        with Client(server.target, timeout=10) as client:
            assert client.health() == "SERVING"
        assert server.terminate() == 0


DOCKER_STOP_TIMEOUT = 10  # what a plain ``docker stop`` waits before SIGKILL


def test_the_image_stops_within_a_plain_docker_stop():
    command, env, _ = image()
    assert shutdown_seconds(command, env) < DOCKER_STOP_TIMEOUT


# -- Kubernetes -----------------------------------------------------------------

def test_the_deployment_runs_prial_serve_with_its_own_options_and_variables():
    spec = container()
    argv = [*spec["command"], *spec.get("args", [])]
    env = {item["name"]: item["value"] for item in spec["env"]}
    assert argv[:2] == ["prial", "serve"] and argv[argv.index("--host") + 1] == "0.0.0.0"
    assert {word for word in argv if word.startswith("--")} <= set(option_help())
    assert set(env) <= {variable(flag) for flag in option_help()}
    serves_here(argv, env)


def test_the_deployment_ports_and_probes_are_the_served_ones():
    spec = container()
    argv = [*spec["command"], *spec.get("args", [])]
    env = {item["name"]: item["value"] for item in spec["env"]}
    ports = {port["name"]: port["containerPort"] for port in spec["ports"]}
    assert ports["grpc"] == int(setting("--port", argv, env) or ServeOptions().port)
    assert ports["metrics"] == int(setting("--metrics-port", argv, env))
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert spec[probe]["grpc"] == {"port": ports["grpc"]}, probe  # the whole server's health


def test_the_pods_stop_after_the_drain_and_not_as_root():
    pod = kubernetes()["Deployment/prial"]["spec"]["template"]["spec"]
    spec = container()
    env = {item["name"]: item["value"] for item in spec["env"]}
    assert pod["terminationGracePeriodSeconds"] > shutdown_seconds(spec["args"], env)
    # A Service named prial would otherwise set PRIAL_PORT=tcp://... in every pod.
    assert pod["enableServiceLinks"] is False
    security = pod["securityContext"]
    assert security["runAsNonRoot"] is True
    assert f"{security['runAsUser']}:{security['runAsGroup']}" == image()[2]


def test_each_replica_asks_for_the_cpus_its_workers_use():
    spec = container()
    env = {item["name"]: item["value"] for item in spec["env"]}
    requests = spec["resources"]["requests"]
    assert {"cpu", "memory"} <= set(requests) and "memory" in spec["resources"]["limits"]
    # One worker thread per core by default counts the node's cores, not the pod's.
    assert int(env["PRIAL_WORKERS"]) == int(requests["cpu"])


def test_services_and_the_disruption_budget_select_the_deployments_pods():
    objects = kubernetes()
    deployment = objects["Deployment/prial"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    ports = {port["name"]: port["containerPort"] for port in container()["ports"]}
    services = [o for o in objects.values() if o["kind"] == "Service"]
    assert len(services) == 2 and any(s["spec"].get("clusterIP") == "None" for s in services)
    for service in services:
        assert service["spec"]["selector"].items() <= labels.items()
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in ports
            assert port["port"] == ports[port["targetPort"]]
    [budget] = [o for o in objects.values() if o["kind"] == "PodDisruptionBudget"]
    assert budget["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert budget["spec"]["maxUnavailable"] < deployment["spec"]["replicas"]
    assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0


RECOMMENDED = ("name", "instance", "version", "component", "part-of", "managed-by")
# The worst health answer seen with the server saturated (docs/service.md).
SLOWEST_HEALTH_ANSWER_S = 0.55


def test_every_object_carries_the_recommended_labels_and_selects_by_name_and_instance():
    objects = kubernetes()
    pod_labels = objects["Deployment/prial"]["spec"]["template"]["metadata"]["labels"]
    for key, document in [*objects.items(), ("pods", {"metadata": {"labels": pod_labels}})]:
        labels = document["metadata"]["labels"]
        assert {f"app.kubernetes.io/{name}" for name in RECOMMENDED} <= set(labels), key
        assert labels["app.kubernetes.io/version"] == prial.__version__, key
    assert container()["image"] == f"prial:{prial.__version__}"
    # A selector never holds the version: a new version's pods would not match the old one's.
    selector = objects["Deployment/prial"]["spec"]["selector"]["matchLabels"]
    assert set(selector) == {"app.kubernetes.io/name", "app.kubernetes.io/instance"}


def test_replicas_spread_over_nodes_and_hold_no_service_account_token():
    pod = kubernetes()["Deployment/prial"]["spec"]["template"]
    [spread] = pod["spec"]["topologySpreadConstraints"]
    assert spread["topologyKey"] == "kubernetes.io/hostname" and spread["maxSkew"] == 1
    assert spread["labelSelector"]["matchLabels"].items() <= pod["metadata"]["labels"].items()
    assert pod["spec"]["automountServiceAccountToken"] is False


def test_the_network_policy_admits_the_served_ports_only_and_no_egress():
    objects = kubernetes()
    policy = objects["NetworkPolicy/prial"]["spec"]
    pod_labels = objects["Deployment/prial"]["spec"]["template"]["metadata"]["labels"]
    assert policy["podSelector"]["matchLabels"].items() <= pod_labels.items()
    assert set(policy["policyTypes"]) == {"Ingress", "Egress"} and policy["egress"] == []
    admitted = {port["port"] for rule in policy["ingress"] for port in rule["ports"]}
    assert admitted == {port["name"] for port in container()["ports"]}


def test_readiness_forgives_one_slow_health_answer():
    probe = container()["readinessProbe"]
    assert probe.get("timeoutSeconds", 1) >= 2 * SLOWEST_HEALTH_ANSWER_S
    assert probe.get("failureThreshold", 3) >= 2


# -- Compose --------------------------------------------------------------------

def test_compose_builds_the_image_and_sets_only_prial_serves_variables():
    [service] = compose()["services"].values()
    build = service["build"]
    assert (DEPLOY / build["context"] / build["dockerfile"]).resolve() == ROOT / "Dockerfile"
    assert "command" not in service and "entrypoint" not in service  # the image's: prial serve
    env = {key: str(value) for key, value in service["environment"].items()}
    assert set(env) <= {variable(flag) for flag in option_help()}
    command, image_env, _ = image()
    serves_here(command, {**image_env, **env})


def test_compose_publishes_the_served_ports_on_loopback_and_outlasts_the_drain():
    [service] = compose()["services"].values()
    command, image_env, _ = image()
    env = {**image_env, **{key: str(value) for key, value in service["environment"].items()}}
    published = {}
    for mapping in service["ports"]:
        host, host_port, container_port = mapping.split(":")
        assert host == "127.0.0.1", mapping  # plaintext, no token: not on the host's network
        published[int(container_port)] = int(host_port)
    served = {int(setting("--port", command, env) or ServeOptions().port),
              int(setting("--metrics-port", command, env))}
    assert set(published) == served
    assert seconds(service["stop_grace_period"]) > shutdown_seconds(command, env)
    assert int(env["PRIAL_WORKERS"]) == int(float(service["deploy"]["resources"]["limits"]["cpus"]))


@pytest.mark.parametrize("duration, value", [("15s", 15), ("1m30s", 90), ("500ms", 0.5), ("2h", 7200)])
def test_durations_are_read_as_compose_reads_them(duration, value):
    assert seconds(duration) == value


# -- Replicas -------------------------------------------------------------------

def test_calls_spread_over_replicas_that_share_nothing():
    """Two replicas and a client that balances its calls (round robin, as
    over the headless Service): the calls go to both, every answer the same."""
    calls = 40
    with ServerProcess() as one, ServerProcess() as two:
        target = f"ipv4:127.0.0.1:{one.port},127.0.0.1:{two.port}"
        with Client(target, timeout=10, options=[("grpc.lb_policy_name", "round_robin")]) as client:
            answers = {tuple(client.evaluate(["3s 2h Ah", "Kd Kh 4c"]).strengths.tolist()) for _ in range(calls)}
        assert len(answers) == 1
        evaluate = '"method": "Evaluate"'
        deadline = time.monotonic() + 10  # call log lines are written every 0.1 s
        while one.log().count(evaluate) + two.log().count(evaluate) < calls and time.monotonic() < deadline:
            time.sleep(0.05)
        served = (one.log().count(evaluate), two.log().count(evaluate))
        assert sum(served) == calls and min(served) >= calls // 4, served


# -- Limits of files and connections, and the front proxy ---------------------

def test_compose_gives_the_server_files_for_its_connections():
    nofile = compose()["services"]["prial"]["ulimits"]["nofile"]
    assert nofile["soft"] == nofile["hard"] >= 65536


def _envoy_connection_manager(config: dict[str, Any]) -> dict[str, Any]:
    [listener] = config["static_resources"]["listeners"]
    [chain] = listener["filter_chains"]
    [manager] = chain["filters"]
    return manager["typed_config"]


def test_the_envoy_example_holds_the_bounds_the_docs_give():
    """deploy/envoy/envoy.yaml is an example (no Envoy runs here): it parses,
    and holds the settings docs/service.md names, equal to the server's."""
    config = yaml.safe_load((DEPLOY / "envoy" / "envoy.yaml").read_text())
    manager = _envoy_connection_manager(config)
    defaults = ServeOptions()
    assert manager["max_request_headers_kb"] * 1024 == 16 * 1024
    assert manager["common_http_protocol_options"]["max_headers_count"] == 100
    assert seconds(manager["common_http_protocol_options"]["idle_timeout"]) == defaults.max_connection_idle_s
    assert manager["http2_protocol_options"]["max_concurrent_streams"] == defaults.max_streams_per_connection
    assert manager["http2_protocol_options"]["max_consecutive_inbound_frames_with_empty_payload"] == 1
    overload = config["layered_runtime"]["layers"][0]["static_layer"]["overload"]
    assert overload == {"premature_reset_total_stream_count": 500, "premature_reset_min_stream_lifetime_seconds": 1}
    [monitor] = config["overload_manager"]["resource_monitors"]
    assert monitor["name"] == "envoy.resource_monitors.global_downstream_max_connections"
    [cluster] = config["static_resources"]["clusters"]
    assert cluster["load_assignment"]["endpoints"][0]["lb_endpoints"][0]["endpoint"]["address"][
        "socket_address"]["port_value"] == ServeOptions().port
    docs = (ROOT / "docs" / "service.md").read_text()
    for named in ("max_request_headers_kb: 16", "max_headers_count: 100", "premature_reset_total_stream_count",
                  "premature_reset_min_stream_lifetime_seconds", "global_downstream_max_connections",
                  "deploy/envoy/envoy.yaml"):
        assert named in docs, named
