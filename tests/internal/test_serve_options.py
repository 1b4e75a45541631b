"""``prial serve``'s options are declared once (prial.cli.serve.OPTIONS):
the parser's options, their variables and the ServeOptions fields are the
same set, the defaults are the dataclass's, and an option's variable gives
what the option gives."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from prial.cli import build_parser
from prial.cli.serve import OPTIONS, serve_options
from prial.server import ServeOptions


def serve_parser() -> argparse.ArgumentParser:
    [sub] = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return sub.choices["serve"]


def parser_flags() -> set[str]:
    """The options of prial serve's parser, --help and --debug (the command line's own) aside."""
    return {flag for action in serve_parser()._actions for flag in action.option_strings
            if flag.startswith("--") and flag not in ("--help", "--debug")}


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["serve", *argv])


# A value for every option, none its default (a new option without one fails below).
SAMPLES = {
    "--host": "0.0.0.0", "--port": "6000", "--port-file": "/run/port", "--workers": "3", "--processes": "2",
    "--threads-per-call": "2", "--max-batch": "1000", "--max-stream-batches": "10", "--max-message-mb": "8",
    "--max-concurrent-rpcs": "5", "--max-bytes-in-flight-mb": "32", "--table-cache-mb": "64", "--idle-timeout": "1.5",
    "--max-streams-per-connection": "7", "--tls-cert": "c.pem", "--tls-key": "k.pem", "--tls-client-ca": "ca.pem",
    "--auth-token-file": "tokens", "--reload-interval": "0.5", "--metrics-port": "9100", "--grace": "2", "--drain": "1",
    "--keepalive-time": "30", "--keepalive-timeout": "5", "--max-connection-idle": "60",
    "--max-connections": "500", "--health-port": "50052",
    "--max-connection-age": "300", "--max-connection-age-grace": "30", "--no-call-log": None,
}


def test_every_option_is_declared_once_and_sets_one_field():
    assert {option.flag for option in OPTIONS} == parser_flags() == set(SAMPLES)
    assert sorted(option.field for option in OPTIONS) == sorted(f.name for f in dataclasses.fields(ServeOptions))
    assert len({option.env for option in OPTIONS}) == len(OPTIONS)


def test_no_option_given_and_no_variable_is_the_dataclass_defaults():
    assert serve_options(parse(), {}) == ServeOptions()


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.flag)
def test_the_variable_gives_what_the_option_gives(option):
    value = SAMPLES[option.flag]
    argv = [option.flag] if value is None else [option.flag, value]
    from_flag = serve_options(parse(*argv), {})
    assert from_flag != ServeOptions()
    assert serve_options(parse(), {option.env: "1" if value is None else value}) == from_flag
    if option.switch:
        assert serve_options(parse(), {option.env: "0"}) == ServeOptions()


def test_units_are_converted_once():
    options = serve_options(parse("--max-message-mb", "8"), {"PRIAL_MAX_BYTES_IN_FLIGHT_MB": "32"})
    assert (options.max_message_bytes, options.max_bytes_in_flight) == (8 << 20, 32 << 20)
