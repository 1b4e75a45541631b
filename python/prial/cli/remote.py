"""``prial call``'s backend: a prial server through ``prial.client``, and
its failures in words.  Imported only by ``prial call``, so that the other
commands do not load gRPC."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Sequence

import grpc

from ..cards import parse_cards
from ..categories import Category
from ..client import Client, Evaluation, FieldViolation, PrialRpcError
from ..errors import ConfigurationError
from ..rules import Rules
from ..service.options import read_option_file, read_tokens
from .backend import Ranked
from .common import Failure


class Remote(Client):
    """A server as a command's backend (see ``prial.cli.backend``): the
    methods it shares with ``Local`` are the client's."""

    def rank(self, hands: Sequence[str], rules: Rules) -> list[Ranked]:
        answer = self.evaluate(list(hands), rules=rules, describe=True)
        return ranked_hands(answer, [(hand, parse_cards(hand)) for hand in hands])


def ranked_hands(answer: Evaluation, hands: Sequence[tuple[str, list[int]]]) -> list[Ranked]:
    """The hands of a request, (text, cards) each, ranked by its answer."""
    descriptions = answer.descriptions or [""] * len(hands)
    return [
        Ranked(text, cards, int(answer.strengths[i]), None if answer.keys is None else int(answer.keys[i]),
               Category(int(answer.categories[i])), descriptions[i])
        for i, (text, cards) in enumerate(hands)
    ]


def connect(args: argparse.Namespace) -> Remote:
    """The server of the connection options."""
    if bool(args.tls_cert) != bool(args.tls_key):
        raise ConfigurationError("--tls-cert and --tls-key go together (the client certificate and its key)")
    return Remote(
        args.target, timeout=args.timeout, tls=args.tls,
        root_certificates=read_option_file("--tls-ca", args.tls_ca) if args.tls_ca else None,
        certificate_chain=read_option_file("--tls-cert", args.tls_cert) if args.tls_cert else None,
        private_key=read_option_file("--tls-key", args.tls_key) if args.tls_key else None,
        # The server's own token file serves too: its first token is sent.
        token=read_tokens(args.token_file, "--token-file")[0] if args.token_file else None,
    )


def failure(exc: PrialRpcError, args: argparse.Namespace,
            locate: Callable[[FieldViolation], str] | None = None) -> Failure:
    """A failed call in words: what went wrong and what to do, then the
    field violations, each with ``locate``'s words for where it came from."""
    lines = [_what_failed(exc, args)]
    for v in exc.field_violations:
        said = "" if v.description == exc.message else f": {v.description}"
        lines.append(f"  field {v.field or '(the whole request)'}{locate(v) if locate else ''}{said}")
    return Failure("\n".join(lines))


def _what_failed(exc: PrialRpcError, args: argparse.Namespace) -> str:
    code, message, target = exc.code, exc.message, args.target
    if code == grpc.StatusCode.UNAVAILABLE:
        return _unreachable(message, args)
    if code == grpc.StatusCode.UNAUTHENTICATED:
        if args.token_file:
            return (f"{target} refused the token of --token-file {args.token_file} (UNAUTHENTICATED): "
                    f"give a file holding one of the server's --auth-token-file tokens")
        return f"{target} wants a bearer token (UNAUTHENTICATED): give --token-file FILE"
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return (f"no answer from {target} within {args.timeout:g} s (DEADLINE_EXCEEDED): give a longer --timeout, "
                f"or check --target")
    if code == grpc.StatusCode.INVALID_ARGUMENT:
        return f"the server refused the request (INVALID_ARGUMENT): {message}"
    if code == grpc.StatusCode.RESOURCE_EXHAUSTED:
        return f"the server refused the call, over one of its limits (RESOURCE_EXHAUSTED): {message}"
    return f"the call failed ({code.name}): {message}"


# gRPC's text ends with the last connection attempt's error: "CODE: ipv4:HOST:PORT: what happened".
_LAST_ERROR = re.compile(r"^(?:.*last error: )?(?:[A-Z_]+: )?(?:ipv[46]:\S+ )?", re.S)


def _unreachable(message: str, args: argparse.Namespace) -> str:
    reason = _LAST_ERROR.sub("", message, count=1)
    said = reason.lower()
    if "wrong_version_number" in said:
        what, hint = "the server does not speak TLS", "leave out --tls and --tls-ca"
    elif "certificate_verify_failed" in said:
        what, hint = ("its certificate failed the check",
                      "give the CA that signed it with --tls-ca, and a --target host it names")
    elif "handshake" in said:
        what, hint = f"the TLS handshake failed: {reason}", "check --tls-ca, --tls-cert and --tls-key"
    elif "refused" in said:
        what, hint = "connection refused", "is prial serve running there? Give its address with --target HOST:PORT"
    elif "resolv" in said:
        what, hint = "unknown host", "check the host of --target"
    elif args.tls or args.tls_ca:
        what, hint = reason, "does the server want a client certificate (--tls-cert and --tls-key)?"
    else:
        what, hint = reason, "if the server uses TLS, give --tls-ca (or --tls)"
    return f"cannot reach {args.target}: {what} (UNAVAILABLE): {hint}"
