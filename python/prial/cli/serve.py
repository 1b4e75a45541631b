"""``prial serve``: the gRPC service.

Each option is declared once, in ``OPTIONS``: its flag, the ``ServeOptions``
field it sets (whose default is the option's default) and its environment
variable (named after the flag), so that the flag, the variable and the
dataclass cannot drift apart.  The environment is read only for ``prial
serve``, and only for options not given on the command line: a bad
variable must not break ``prial rank``, nor one the command line overrides
(Kubernetes, for instance, sets ``<SERVICE>_PORT=tcp://...`` for every
Service).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shlex
import sys
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import ConfigurationError
from ..service.options import MiB, ServeOptions
from .common import NON_NEGATIVE, PORT, POSITIVE, seconds, whole

ENV_PREFIX = "PRIAL_"
SWITCH_VALUES = {"1": True, "0": False}  # a switch's variable: 1 as if the flag were given, 0 as if not


@dataclasses.dataclass(frozen=True)
class Option:
    """One option of ``prial serve``."""

    flag: str
    field: str  # the ServeOptions field it sets
    help: str  # what it does; the default and the variable are added from the rest
    parse: Callable[[str], Any] | None = None  # None: any text (an address, a path)
    unit: int = 1  # the field holds the flag's value times this (the MiB options hold bytes)
    default_text: str | None = None  # the default in words, where the field's None stands for one
    group: str | None = None
    switch: bool = False  # takes no value; given, it sets the field to the opposite of its default

    @property
    def dest(self) -> str:
        return self.flag.removeprefix("--").replace("-", "_")

    @property
    def env(self) -> str:
        return ENV_PREFIX + self.dest.upper()

    @property
    def default(self) -> Any:
        return DEFAULTS[self.field]

    def field_value(self, value: Any) -> Any:
        """What the field gets from the flag's (or the variable's) value."""
        if self.switch:
            return not self.default if value else self.default
        return value * self.unit if self.unit != 1 else value

    def help_text(self) -> str:
        if self.switch:
            return f"{self.help} (env {self.env}=1)"
        default = self.default_text
        if default is None and self.default is not None:
            value = self.default // self.unit if self.unit != 1 else self.default
            default = f"{value:g}" if isinstance(value, float) else str(value)
        return f"{self.help} ({f'default {default}; ' if default else ''}env {self.env})"


DEFAULTS: Mapping[str, Any] = {f.name: f.default for f in dataclasses.fields(ServeOptions)}

SECURITY, OPERATIONS = "security", "operations"

OPTIONS = (
    Option("--host", "host", "address to listen on, 0.0.0.0 for all"),
    Option("--port", "port", "port; 0 picks a free one", PORT),
    Option("--port-file", "port_file", "write the bound port here once serving, for --port 0"),
    Option("--workers", "workers", "threads per process for native work, beside the event loop that answers "
           "small calls, health and idle streams", POSITIVE, default_text="one per core"),
    Option("--processes", "processes", "pre-forked server processes sharing the port via SO_REUSEPORT", POSITIVE),
    Option("--threads-per-call", "threads_per_call", "native threads per batch: a 1M-hand batch takes well "
           "under a millisecond in C++, and calls in parallel use the other cores", POSITIVE),
    Option("--max-batch", "max_batch", "hands per batch; more -> RESOURCE_EXHAUSTED", POSITIVE),
    Option("--max-stream-batches", "max_stream_batches", "batches per EvaluateStream call; more -> "
           "RESOURCE_EXHAUSTED", POSITIVE),
    Option("--max-message-mb", "max_message_bytes", "largest message either way, MiB; a 1M-hand 5-card batch "
           "is ~5 MiB", whole(1, 2047), unit=MiB),
    Option("--max-concurrent-rpcs", "max_concurrent_rpcs", "calls in flight per method and process (a stream "
           "from its first message to its end); more -> RESOURCE_EXHAUSTED; health checks are never refused",
           POSITIVE, default_text="8 x workers, at least 64"),
    Option("--max-bytes-in-flight-mb", "max_bytes_in_flight", "memory for the work in flight per process, MiB "
           "(a request counts ten times its size; see docs/service.md); a request past it -> RESOURCE_EXHAUSTED",
           POSITIVE, unit=MiB),
    Option("--table-cache-mb", "table_cache_bytes", "memory for the tables of the rulesets kept between calls "
           "per process, MiB; past it the least recently used go (see docs/service.md)", NON_NEGATIVE, unit=MiB),
    Option("--idle-timeout", "idle_timeout_s", "seconds a call may wait for its (next) request message; then "
           "DEADLINE_EXCEEDED", seconds(above=True)),
    Option("--max-streams-per-connection", "max_streams_per_connection", "HTTP/2 streams one connection may "
           "hold open", POSITIVE),
    Option("--tls-cert", "tls_cert", "PEM certificate chain: serve TLS", group=SECURITY),
    Option("--tls-key", "tls_key", "PEM private key for --tls-cert", group=SECURITY),
    Option("--tls-client-ca", "tls_client_ca", "PEM CA bundle: require client certificates (mutual TLS)",
           group=SECURITY),
    Option("--auth-token-file", "auth_token_file", "bearer tokens, one a line: calls without one get "
           "UNAUTHENTICATED (health Check and List are exempt)", group=SECURITY),
    Option("--reload-interval", "reload_interval_s", "seconds between looks at the TLS and token files: "
           "changed, they are reloaded as on SIGHUP (0: on SIGHUP only)", seconds(), group=SECURITY),
    Option("--metrics-port", "metrics_port", "serve Prometheus metrics on this port (on --host)", PORT,
           group=OPERATIONS),
    Option("--grace", "grace_seconds", "seconds calls in flight get at shutdown", seconds(), group=OPERATIONS),
    Option("--drain", "drain_seconds", "seconds to keep serving after health turns NOT_SERVING at shutdown",
           seconds(), group=OPERATIONS),
    Option("--keepalive-time", "keepalive_time_s", "seconds between keepalive pings", seconds(above=True),
           group=OPERATIONS),
    Option("--keepalive-timeout", "keepalive_timeout_s", "seconds to wait for a ping ack", seconds(above=True),
           group=OPERATIONS),
    Option("--max-connection-idle", "max_connection_idle_s", "close connections without a call this many "
           "seconds (clients reconnect when they next call)",
           seconds(above=True), group=OPERATIONS),
    Option("--max-connections", "max_connections", "connections one process holds at once; past them a new "
           "connection is closed at once", POSITIVE, default_text="the open-files limit less 100",
           group=OPERATIONS),
    Option("--health-port", "health_port", "also serve the health service alone, plaintext, on this port "
           "(on --host), with a connection cap of its own: probes get through when clients hold every "
           "connection of --port", PORT, group=OPERATIONS),
    Option("--max-connection-age", "max_connection_age_s", "close connections older than this many seconds; "
           "clients then reconnect, through the load balancer", seconds(above=True), group=OPERATIONS),
    Option("--max-connection-age-grace", "max_connection_age_grace_s", "seconds calls get on an aged-out "
           "connection", seconds(), group=OPERATIONS),
    Option("--no-call-log", "log_calls", "no per-call log line", group=OPERATIONS, switch=True),
)

ENVIRONMENT_HELP = f"""\
Every option can also be set in the environment, in the variable shown
with it: {ENV_PREFIX} and the option's name in capitals, dashes as
underscores ({ENV_PREFIX}MAX_BATCH=100000 for --max-batch 100000). An option
given on the command line wins, and its variable is then not read. A
variable set but empty counts as unset. A switch's variable is 1 (as if
the option were given) or 0. Values are checked as the option's are."""


def cmd_serve(args: argparse.Namespace) -> int:
    """Exit 0 after a SIGTERM/SIGINT drained every process, 1 if one did not
    stop cleanly, the server cannot listen or a file an option names will
    not do (one line on stderr), 2 for options that cannot go together or a
    bad variable (``prial``'s handler, one line)."""
    from ..service.lifecycle import StartupError
    from ..service.supervisor import serve

    options = serve_options(args, os.environ)
    try:
        return serve(options)
    except StartupError as exc:
        print(f"prial: error: {exc}", file=sys.stderr)
        return 1


def serve_options(args: argparse.Namespace, environ: Mapping[str, str]) -> ServeOptions:
    """The options given, else their variables in ``environ``, else the defaults."""
    values: dict[str, Any] = {}
    for option in OPTIONS:
        given = getattr(args, option.dest)
        value = given if given is not None else from_environment(option, environ)
        if value is not None:
            values[option.field] = option.field_value(value)
    return ServeOptions(**values)


def from_environment(option: Option, environ: Mapping[str, str]) -> Any:
    """The value of ``option``'s variable, None if unset or empty;
    ConfigurationError (bad input, exit 2) naming the variable if bad."""
    text = environ.get(option.env, "")
    if not text:
        return None
    shown = f"{option.env}={shlex.quote(text) if text.isprintable() else repr(text)}"
    if option.switch:
        if text not in SWITCH_VALUES:
            raise ConfigurationError(f"{shown}: must be 1 (as {option.flag}) or 0 (see: prial serve --help)")
        return SWITCH_VALUES[text]
    if option.parse is None:
        return text
    try:
        return option.parse(text)
    except argparse.ArgumentTypeError as exc:
        raise ConfigurationError(f"{shown}: {exc} (see: prial serve --help)") from None


def register(sub: argparse._SubParsersAction) -> None:
    serve = sub.add_parser(
        "serve", help="run the gRPC service prial.v1.Prial",
        description="Serve prial.v1.Prial with health checking and reflection. SIGTERM/SIGINT: "
                    "health turns NOT_SERVING, calls in flight finish within --grace, exit 0. SIGHUP: the "
                    "TLS and token files are read again; nothing stops.",
        epilog=ENVIRONMENT_HELP)
    groups = {name: serve.add_argument_group(name) for name in (SECURITY, OPERATIONS)}
    for option in OPTIONS:
        parser = groups[option.group] if option.group else serve
        # None, not the default: an option not given is looked up in the environment.
        if option.switch:
            parser.add_argument(option.flag, dest=option.dest, action="store_true", default=None,
                                help=option.help_text())
        else:
            parser.add_argument(option.flag, dest=option.dest, type=option.parse, help=option.help_text())
    serve.set_defaults(func=cmd_serve)
