"""``prial sample --histories``: seeded hand histories of whole deals played
by the table's policies, faults planted at chosen rates, and the answer key
saying which deal holds which (docs/histories.md, "prial sample
--histories")."""

from __future__ import annotations

import argparse
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import InvalidHandError
from ..table import FAULTS, Fault, Sampled
from .common import CHIPS, Failure
from .table import RULESET_OPTIONS, add_table_options, share, table_fields, table_from_args

DEFAULT_RATE = 0.1
# Bytes a deal of four players takes at least, by format (measured: about
# 1,300 in JSON Lines, 7,000 in CSV, where the rules repeat on every row).
DEAL_BYTES = {"jsonl": 600, "csv": 3000, "parquet": 40}
# What only one mode of prial sample takes.
DEAL_LOG_ONLY = {"bias": None, "won": "coin", "dealers": 0}
HISTORIES_ONLY = ("fault", "key", "policies", "stack", "flat", "rules_table")
# The table every sampled deal is played at (its records' table_id).
TABLE = "t0"


def fault_spec(text: str) -> Fault:
    """An argparse type: ``--fault KIND[:rate=R][:dealer=N]``, as --bias
    is written: KIND one of FAULTS, R the share of deals (default 0.1), N
    the seat whose deals as dealer it is limited to."""
    kind, *parts = text.split(":")
    if kind not in FAULTS:
        raise argparse.ArgumentTypeError(f"fault {text!r}: unknown kind {kind!r} (one of {', '.join(FAULTS)})")
    given: dict[str, str] = {}
    for part in parts:
        key, equals, value = part.partition("=")
        if not equals or key not in ("rate", "dealer") or key in given:
            raise argparse.ArgumentTypeError(f"fault {text!r}: {part!r} is not rate=R or dealer=N, each once")
        given[key] = value
    try:
        rate = float(given.get("rate", DEFAULT_RATE))
    except ValueError:
        rate = -1.0
    if not 0 <= rate <= 1:
        raise argparse.ArgumentTypeError(f"fault {text!r}: rate must be a number from 0 to 1")
    dealer = given.get("dealer")
    if dealer is not None and not re.fullmatch(r"[0-9]+", dealer):
        raise argparse.ArgumentTypeError(f"fault {text!r}: dealer must be a seat number")
    return Fault(kind, rate, None if dealer is None else f"p{int(dealer)}")


fault_spec.__name__ = "fault"


def policies_spec(text: str) -> list[float | None]:
    """An argparse type: ``random`` or a share for each seat, comma-separated
    (one for every seat)."""
    return [None if word.strip() == "random" else share(word.strip()) for word in text.split(",")]


policies_spec.__name__ = "policies"


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("hand histories (--histories FILE)")
    group.add_argument("--fault", type=fault_spec, action="append", metavar="SPEC",
                       help=f"KIND[:rate=R][:dealer=N]: plant a fault ({', '.join(FAULTS)}) in a share R of the "
                            f"deals (default {DEFAULT_RATE}), only those seat N dealt if given; e.g. "
                            "mispaid-pot:rate=0.05:dealer=2; may be given several times, drawn in order, at most "
                            "one a deal")
    group.add_argument("--key", metavar="FILE",
                       help="write the answer key as JSON Lines: each deal's id, its fault (null: none) and "
                            "what a replay must find of it")
    group.add_argument("--policies", type=policies_spec, metavar="P[,...]",
                       help="how each seat plays: random (uniformly random legal actions, the default) or a "
                            "share S (play on with a hand beating S of all hands, else fold); one for every seat "
                            "or one a seat")
    group.add_argument("--stack", type=CHIPS, metavar="CHIPS", help="each player's chips (default: no stacks)")
    group.add_argument("--rules-table", metavar="FILE",
                       help=f"write the table's rules once, to FILE (a rules table of one, {TABLE}, as prial replay "
                            f"--rules-table reads), each record naming them by rules_ref instead of holding them")
    group.add_argument("--flat", action="store_true",
                       help="Parquet in the flat form, one row an action (CSV always is)")
    add_table_options(parser)


def check_mode(args: argparse.Namespace) -> None:
    """A flag of the other mode is refused, said in one line."""
    if args.histories is None:
        table_flags = [f"table_{f.name}" for f in table_fields()] + list(RULESET_OPTIONS)
        wrong = next((n for n in (*HISTORIES_ONLY, *table_flags) if getattr(args, n) not in (None, False)), None)
        if wrong is not None:
            name = wrong.removeprefix("table_").replace("_", "-")
            raise InvalidHandError(f"--{name} is for hand histories (--histories FILE), not a deal log (-o)")
        return
    wrong = next((n for n, default in DEAL_LOG_ONLY.items() if getattr(args, n) != default), None)
    if wrong is not None:
        raise InvalidHandError(f"--{wrong} is for a deal log (-o FILE); hand histories take --fault and the "
                               "table's options")


def write(args: argparse.Namespace) -> tuple[int, int]:
    """The histories asked for, written; (deals, faults planted)."""
    from ..logs.histories import write_histories
    from ..logs.histories.read import file_format
    from ..table import sample_histories
    from .limits import check_disk

    fmt, _ = file_format(args.histories, args.format)
    for path in (args.histories, args.key, args.rules_table):
        if path is not None and os.path.lexists(path) and not args.overwrite:
            raise Failure(f"{path} exists: --overwrite replaces it")
    names = [os.path.abspath(path) for path in (args.histories, args.key, args.rules_table) if path is not None]
    if len(set(names)) != len(names):
        raise InvalidHandError("--histories, --key and --rules-table must each name a file of its own")
    check_disk("--deals", args.deals, DEAL_BYTES[fmt], f"a {fmt} history file of that many deals", args.histories)
    policies = args.policies
    if policies is not None and len(policies) == 1:
        policies = policies * args.players
    for fault in args.fault or ():
        if fault.dealer is not None and int(fault.dealer[1:]) >= args.players:
            raise InvalidHandError(f"--fault {fault.kind}: dealer={fault.dealer[1:]} is not a seat of the "
                                   f"{args.players} players (0 to {args.players - 1})")
    table = table_from_args(args)
    sampled = sample_histories(table, args.deals, players=args.players, seed=args.seed, policies=policies,
                               faults=args.fault or (), stack=args.stack)
    key: list[dict[str, Any]] = []
    tables = None if args.rules_table is None else {TABLE: table}
    try:
        deals = write_histories(_noted(sampled, key), args.histories, format=args.format, flat=args.flat or None,
                                tables=tables)
    except InvalidHandError as exc:  # the sampler's own checks name its arguments: say the flags
        flag = {"stack": "--stack or --pot-cap", "policies": "--policies"}.get(exc.field or "")
        raise InvalidHandError(f"{flag}: {exc}" if flag else str(exc), field=exc.field) from None
    if args.key is not None:
        _write(args.key, "".join(json.dumps(entry) + "\n" for entry in key))
    if tables is not None:
        _write(args.rules_table, json.dumps({name: rules.to_dict() for name, rules in tables.items()}, indent=2) + "\n")
    return deals, sum(entry["fault"] is not None for entry in key)


def _write(path: str, text: str) -> None:
    """``text`` to ``path``, written beside it and moved there whole."""
    part = Path(path).with_name(f".{Path(path).name}.part")
    try:
        part.write_text(text)
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)


def _noted(sampled: Iterator[Sampled], key: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The records, each noted in the key as it goes by."""
    for s in sampled:
        entry: dict[str, Any] = {"deal_id": s.record["deal_id"], "fault": s.fault,
                                 "finding": "ok" if s.fault is None else FAULTS[s.fault]}
        if s.code is not None:
            entry.update(action_index=s.action_index, code=s.code)
        key.append(entry)
        yield s.record
