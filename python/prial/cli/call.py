"""``prial call``: every RPC of a running prial server from the command line.

Where a local command exists (rank, partition, showdown, crash, casino,
settle-partition, classic, odds), its RPC takes the same arguments and prints the same table: the
command is one function of its arguments and a backend, here the server
(``prial.cli.remote``, loaded only when a call is made).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import stat
import sys
from collections import deque
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, NamedTuple, TextIO

import numpy as np

from ..cards import format_cards
from ..errors import InvalidHandError
from . import classic, crash_match, deal_crash, hands, partition_games, play, settle
from .common import (
    Failure,
    add_rules_options,
    check_cards,
    print_table,
    rules_from_args,
    seconds,
    whole,
)

if TYPE_CHECKING:
    from ..client import FieldViolation
    from .remote import Remote

Command = Callable[[argparse.Namespace, "Remote"], int]

DESCRIPTION = """\
Call a prial server (prial serve): one subcommand per RPC, card text in, a
table out (--json: machine-readable). evaluate, partition, showdown, crash,
casino, settle-partition, classic and odds take the arguments of prial
rank, partition, showdown, crash, casino, settle-partition, classic and
odds and print their tables.

Card text is read here: a typo is refused before any call (exit 2). What
the server refuses comes back as its error, with the request fields at
fault (exit 1), as does a server that cannot be reached or takes longer
than --timeout. The connection options go before or after the RPC."""

EXAMPLES = """\
examples:
  prial call evaluate "3s 2h Ah" "Kd Kh 4c" --rules teen_patti
  prial call stream hands.txt --batch 5000 --json
  prial call partition "Ah Ad 3c 4d 5s 9h 9c Kh Qs 7d 7c 2h Js" --objective expected_points
  prial call showdown "3s 2h Ah" "Kd Kh 4c" --seer 2 --stakes 5 5
  prial call showdown-batch "3s 2h Ah | Kd Kh 4c" "7s 7h Qc | 7d 7c Qh"
  prial call crash "As Ad Ah | Ks Kd Kh | Qs Qd Qh | Js Jd Jh / 2c" \\
                   "10s 10d 10h | 9s 9d 9h | 8s 8d 8h | 7s 7d 7h / 3c"
  prial call casino "Ah Kh Qh" "Jc Jd 4s" --ante 10 --pair-bonus 5
  prial call settle-partition --game six_card "As Ad Ah | Ks Kd 2h" "3c 3d 3h | Qc Qd 4h" --carry 4
  prial call classic "Jc 9d Ah / stand" "Ks Kh 7c / draw" --seed 7
  prial call odds --hand "As Kd Qh" --opponents 2
  prial call equity "As Kd Qh 5c" --opponents 3 --samples 100000
  prial call --target prial.example:50051 --tls-ca ca.pem --token-file token health"""


def register(sub: argparse._SubParsersAction) -> None:
    call = sub.add_parser("call", help="call a running prial server, every RPC", description=DESCRIPTION,
                          epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    connection_options(call, again=False)
    rpcs = call.add_subparsers(dest="rpc", metavar="RPC", required=True)

    def rpc(name: str, help: str, description: str, arguments: Callable[[argparse.ArgumentParser], None],
            command: Command) -> None:
        parser = rpcs.add_parser(name, help=help, description=description)
        arguments(parser)
        connection_options(parser, again=True)
        parser.set_defaults(func=lambda args: call_server(args, command))

    rpc("evaluate", "rank hands: prial rank on the server (Evaluate)",
        f"{hands.RANK_DESCRIPTION} The table of prial rank; hands of 4 or 5 cards, ranked by their best three, "
        "add the best-of key (the discard tie-break included). RPC Evaluate.",
        hands.rank_arguments, hands.rank)
    rpc("stream", "rank a file of hands, one a line (EvaluateStream)",
        "Rank the hands of FILE, one a line, over one stream: sent in batches of --batch hands, printed "
        "as the answers come, a row per hand in order (line: its line in FILE; hand: its cards as prial "
        "writes them, so that the columns line up for the whole stream). Every hand of a stream has "
        "the number of cards of the first (3, 4 or 5). --timeout covers the whole stream. "
        "RPC EvaluateStream.",
        stream_arguments, stream)
    rpc("partition", "split 6-15 cards into hands: prial partition (Partition)",
        f"{hands.PARTITION_DESCRIPTION} The table of prial partition. RPC Partition.",
        hands.partition_arguments, hands.partition)
    rpc("showdown", "decide a showdown: prial showdown (Showdown)",
        f"{play.SHOWDOWN_DESCRIPTION} The table of prial showdown. RPC Showdown.",
        play.showdown_arguments, play.showdown)
    rpc("showdown-batch", "many two-player sees at once (ShowdownBatch)",
        "Decide many sees between two players at once: each PAIR is the seer's cards, \"|\", the seen "
        "player's cards, e.g. \"3s 2h Ah | Kd Kh 4c\". The seer wins with a strictly better hand only; "
        "four and five cards compare by their best three, then the discards (docs/rules.md, \"Sees in "
        "bulk\"). Every hand has the number of cards of the first (3, 4 or 5). RPC ShowdownBatch.",
        showdown_batch_arguments, showdown_batch)
    rpc("crash", "score a round of Crash: prial crash (CrashShowdown)",
        f"{settle.CRASH_DESCRIPTION} The table of prial crash. RPC CrashShowdown.",
        settle.crash_arguments, settle.crash)
    rpc("crash-match", "play a file of Crash rounds as a match: prial crash-match (CrashMatch)",
        f"{crash_match.DESCRIPTION} The tables of prial crash-match. RPC CrashMatch.",
        crash_match.crash_match_arguments, crash_match.crash_match)
    rpc("deal-crash", "deal Crash from a seed, with spare hands: prial deal-crash (DealCrash)",
        f"{deal_crash.DESCRIPTION} The table of prial deal-crash. RPC DealCrash.",
        deal_crash.arguments, deal_crash.deal_crash)
    rpc("casino", "settle a casino hand: prial casino (SettleCasino)",
        f"{settle.CASINO_DESCRIPTION} The table of prial casino. RPC SettleCasino.",
        settle.casino_arguments, settle.casino)
    rpc("settle-partition", "settle nine-, seven- or six-card Brag: prial settle-partition (SettlePartitionGame)",
        f"{partition_games.DESCRIPTION} The table of prial settle-partition. RPC SettlePartitionGame.",
        partition_games.arguments, partition_games.settle_partition)
    rpc("classic", "settle a deal of classic three-stake Brag: prial classic (SettleClassic)",
        f"{classic.DESCRIPTION} The tables of prial classic. RPC SettleClassic.",
        classic.arguments, classic.classic)
    rpc("odds", "category odds and equity: prial odds (Odds, Equity)",
        f"{play.ODDS_DESCRIPTION} The tables of prial odds. RPCs Odds and, with --hand, Equity.",
        play.odds_arguments, play.odds)
    rpc("equity", "win, tie and lose chances of a hand (Equity)",
        "Win, tie and lose probabilities of HAND against random opponent hands of as many cards: exact, "
        "every deal enumerated, where feasible, else sampled, and its percentile. The equity table of "
        "prial odds --hand. "
        "RPC Equity.",
        play.equity_arguments, play.equity)
    rpc("health", "SERVING or NOT_SERVING (grpc.health.v1)",
        "Print the server's health: SERVING or NOT_SERVING. Exit 0 only if SERVING, so that the command "
        "serves as a health probe (a draining server answers NOT_SERVING). Health checks need no token.",
        health_arguments, health)


def connection_options(parser: argparse.ArgumentParser, *, again: bool) -> None:
    """The connection options, on ``prial call`` and ``again`` on each RPC
    so they may follow it (there SUPPRESS keeps a value given before)."""
    group = parser.add_argument_group("connection")

    def default(value: object) -> object:
        return argparse.SUPPRESS if again else value

    group.add_argument("--target", type=target, default=default("127.0.0.1:50051"), metavar="HOST:PORT",
                       help="the server (default 127.0.0.1:50051; an IPv6 address in brackets, [::1]:50051)")
    group.add_argument("--timeout", type=seconds(above=True), default=default(10.0), metavar="SECONDS",
                       help="deadline of the call (default 10)")
    group.add_argument("--tls", action="store_true", default=default(False),
                       help="TLS, the server's certificate checked against the system's roots")
    group.add_argument("--tls-ca", default=default(None), metavar="PEM",
                       help="TLS, the server's certificate checked against this CA bundle")
    group.add_argument("--tls-cert", default=default(None), metavar="PEM",
                       help="a client certificate chain, for mutual TLS (with --tls-key)")
    group.add_argument("--tls-key", default=default(None), metavar="PEM", help="the client certificate's key")
    group.add_argument("--token-file", default=default(None), metavar="FILE",
                       help="the bearer token: the first line not blank nor a # comment (a file in the "
                            "format of prial serve --auth-token-file serves)")


# A target in gRPC's own syntax (dns:///host:port, unix:/path, ...) is
# gRPC's to read; the usual HOST:PORT is checked here, so that a port that
# cannot exist is not reported as a refused connection.
_GRPC_SCHEME = re.compile(r"^(?:dns|unix|unix-abstract|ipv4|ipv6|vsock):")


def target(text: str) -> str:
    """An argparse type: a server's HOST:PORT, the port from 1 to 65535."""
    if _GRPC_SCHEME.match(text):
        return text
    host, colon, port = text.rpartition(":")
    if not colon:
        raise argparse.ArgumentTypeError(f"{text!r} has no port: expected HOST:PORT, e.g. {text}:50051")
    if not host or host == "[]":
        raise argparse.ArgumentTypeError(f"{text!r} has no host: expected HOST:PORT, e.g. 127.0.0.1:{port}")
    if ":" in host and not (host.startswith("[") and host.endswith("]")):
        raise argparse.ArgumentTypeError(f"{text!r}: an IPv6 address goes in brackets, e.g. [::1]:50051")
    if not (port.isascii() and port.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r}: the port {port!r} is not a number")
    if not 1 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r}: port {int(port):,} cannot exist; ports are 1 to 65,535")
    return text


def call_server(args: argparse.Namespace, command: Command) -> int:
    if not args.debug:
        # gRPC's own log lines on stderr would come before the one-line error.
        os.environ.setdefault("GRPC_VERBOSITY", "NONE")
    from ..client import PrialRpcError
    from .remote import connect, failure

    server = connect(args)
    try:
        return command(args, server)
    except PrialRpcError as exc:
        raise failure(exc, args) from None
    finally:
        server.close()


# -- RPCs without a local command ---------------------------------------------

def stream_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE",
                        help="hands, one a line, e.g. 3s 2h Ah (blank lines and # comments skipped); "
                             "- for standard input")
    parser.add_argument("--batch", type=whole(1, 100_000), default=1000, metavar="N",
                        help="hands per request (default 1000; at most 100,000, the server's limit "
                             "for described hands)")
    parser.add_argument("--json", action="store_true", help="machine-readable output: a JSON object a line")
    add_rules_options(parser)


def stream(args: argparse.Namespace, server: Remote) -> int:
    from ..client import PrialRpcError
    from .remote import failure, ranked_hands

    table = None
    line_digits = len(str(most_lines(args.file) or PIPE_LINES))
    with numbered_lines(args.file) as (name, lines):
        reader = StreamedHands(name, lines, args.batch)
        try:
            for answer in server.evaluate_stream(reader.batches(), rules=rules_from_args(args), describe=True):
                batch = reader.sent.popleft()
                numbers = [number for number, _, _ in batch.hands]
                ranked = list(zip(numbers, ranked_hands(answer, [(text, cards) for _, text, cards in batch.hands])))
                if args.json:
                    for number, r in ranked:
                        print(json.dumps({"line": number, **hands.rank_json(r)}))
                else:
                    # Widths fixed by the first batch for the whole stream.
                    table = table or hands.rank_table([r for _, r in ranked], first=["line"],
                                                      first_widths=[line_digits])
                    table.write([[number, *hands.rank_cells(r._replace(hand=format_cards(r.cards)))]
                                 for number, r in ranked])
                sys.stdout.flush()  # each batch as it comes
        except PrialRpcError as exc:
            raise failure(exc, args, reader.locate) from None
    return 0


# Line numbers of standard input from a pipe, whose length is unknown: up
# to ten digits (ten billion hands, some 90 GB of text).
PIPE_LINES = 10**10 - 1


def most_lines(path: str) -> int | None:
    """The most lines a file can hold, for a regular file (every line but
    the last ends in a byte of its own); None for a pipe or a terminal."""
    try:
        info = os.fstat(sys.stdin.fileno()) if path == "-" else os.stat(path)
    except (OSError, ValueError):  # io.UnsupportedOperation, a missing file: said when opened
        return None
    return info.st_size + 1 if stat.S_ISREG(info.st_mode) else None


class Batch(NamedTuple):
    """One request of a stream: its position, and (line, text, cards) of each hand."""

    index: int
    hands: list[tuple[int, str, list[int]]]


class StreamedHands:
    """The hands of a file in batches, read as the stream asks for them (in
    gRPC's thread), and the batches sent but not yet answered."""

    def __init__(self, name: str, lines: Iterator[tuple[int, str]], batch: int) -> None:
        self.name = name
        self.lines = lines
        self.batch = batch
        self.sent: deque[Batch] = deque()
        self._count = 0
        self._size = OneSize()

    def batches(self) -> Iterator[np.ndarray]:
        # A bad line ends the stream: the client answers the batches sent
        # before it, then raises its error.
        pending: list[tuple[int, str, list[int]]] = []
        for number, text in self.lines:
            where = f"{self.name} line {number} ({text!r})"
            pending.append((number, text, self._size.check(check_cards(text, where), where)))
            if len(pending) == self.batch:
                yield self._send(pending)
                pending = []
        if pending:
            yield self._send(pending)

    def _send(self, pending: list[tuple[int, str, list[int]]]) -> np.ndarray:
        self.sent.append(Batch(self._count, pending))
        self._count += 1
        return np.array([cards for _, _, cards in pending], dtype=np.uint8)

    def locate(self, violation: FieldViolation) -> str:
        """Where in the file a field violation of the stream points."""
        for batch in self.sent:
            if batch.index == violation.batch_index and violation.hand_index is not None:
                number, text, _ = batch.hands[violation.hand_index]
                return f" ({self.name} line {number}: {text!r})"
        return ""


@contextlib.contextmanager
def numbered_lines(path: str) -> Iterator[tuple[str, Iterator[tuple[int, str]]]]:
    """The name of a file ("-": standard input) and its lines worth reading,
    (number, text): blank lines and # comments are skipped."""
    if path == "-":
        yield "standard input", _numbered("standard input", sys.stdin)
        return
    with open(path, encoding="utf-8") as f:
        yield path, _numbered(path, f)


def _numbered(name: str, f: TextIO) -> Iterator[tuple[int, str]]:
    number = 0
    try:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if text and not text.startswith("#"):
                yield number, text
    except UnicodeDecodeError as exc:
        raise Failure(f"{name} line {number + 1}: not UTF-8 text ({exc.reason})") from None


def showdown_batch_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pairs", nargs="*", metavar="PAIR",
                        help='a see: the seer\'s cards | the seen player\'s, e.g. "3s 2h Ah | Kd Kh 4c"')
    parser.add_argument("--file", metavar="FILE",
                        help="read the pairs from FILE instead, one a line (blank lines and # comments skipped); "
                             "- for standard input")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(parser)


def showdown_batch(args: argparse.Namespace, server: Remote) -> int:
    if bool(args.pairs) == bool(args.file):
        raise InvalidHandError("give the sees as PAIR arguments or in --file FILE, one of the two")
    if args.pairs:
        given = [(f"pair {n} ({text!r})", text) for n, text in enumerate(args.pairs, 1)]
    else:
        with numbered_lines(args.file) as (name, lines):
            given = [(f"{name} line {n} ({text!r})", text) for n, text in lines]
        if not given:
            raise Failure(f"{name} holds no pair: one a line, the seer's cards | the seen player's")
    size = OneSize()
    pairs = [_pair(where, text, size) for where, text in given]
    wins = server.showdown_batch(np.array([seer[1] for seer, _ in pairs], dtype=np.uint8),
                                 np.array([seen[1] for _, seen in pairs], dtype=np.uint8),
                                 rules=rules_from_args(args))
    if args.json:
        print(json.dumps([{"seer": seer, "seen": seen, "seer_wins": bool(win)}
                          for ((seer, _), (seen, _)), win in zip(pairs, wins)], indent=2))
        return 0
    print_table(["pair", "seer", "seen", "winner"],
                [(n, seer, seen, "seer" if win else "seen")
                 for n, (((seer, _), (seen, _)), win) in enumerate(zip(pairs, wins), 1)])
    return 0


def _pair(where: str, text: str, size: OneSize) -> tuple[tuple[str, list[int]], tuple[str, list[int]]]:
    """The seer's and the seen player's hands of "SEER | SEEN": (text, cards) each."""
    parts = [part.strip() for part in text.split("|")]
    if len(parts) != 2:
        raise InvalidHandError(f"{where}: expected the seer's cards | the seen player's")
    seer, seen = parts
    return ((seer, size.check(check_cards(seer, f"{where} seer"), f"{where} seer")),
            (seen, size.check(check_cards(seen, f"{where} seen player"), f"{where} seen player")))


class OneSize:
    """Hands of one size, that of the first hand checked: 3, 4 or 5 cards."""

    def __init__(self) -> None:
        self.first: tuple[int, str] | None = None

    def check(self, cards: list[int], where: str) -> list[int]:
        if self.first is None:
            if len(cards) not in (3, 4, 5):
                raise InvalidHandError(f"{where}: {len(cards)} cards; a hand has 3, 4 or 5")
            self.first = (len(cards), where)
        elif len(cards) != self.first[0]:
            raise InvalidHandError(f"{where}: {len(cards)} cards, but the first hand has {self.first[0]} "
                                   f"({self.first[1]}); every hand must have as many")
        return cards


def health_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--service", default="", help='a service name, e.g. prial.v1.Prial ("": the whole server)')
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def health(args: argparse.Namespace, server: Remote) -> int:
    status = server.health(args.service)
    print(json.dumps({"service": args.service, "status": status}) if args.json else status)
    return 0 if status == "SERVING" else 1
