"""``prial call``: call a running prial server."""

from __future__ import annotations

import argparse
import json
import sys

from ..categories import Category
from .common import add_rules_options, print_table, rules_from_args, seconds


def cmd_call(args: argparse.Namespace) -> int:
    from ..client import Client, PrialRpcError

    token = None
    if args.token_file:
        with open(args.token_file) as f:
            token = f.readline().strip()
    root = None
    if args.tls_ca:
        with open(args.tls_ca, "rb") as f:
            root = f.read()
    with Client(args.target, timeout=args.timeout, tls=args.tls, root_certificates=root, token=token) as client:
        try:
            if args.rpc == "health":
                print(client.health(args.service))
                return 0
            result = client.evaluate(args.hands, rules=rules_from_args(args), describe=True)
        except PrialRpcError as exc:
            print(f"prial: {exc}", file=sys.stderr)
            for violation in exc.field_violations:
                print(f"  {violation.field}: {violation.description}", file=sys.stderr)
            return 1
    rows = [
        {"hand": hand, "strength": int(strength), "key": None if result.keys is None else int(result.keys[i]),
         "category": Category(int(category)).name, "description": description}
        for i, (hand, strength, category, description) in enumerate(
            zip(args.hands, result.strengths, result.categories, result.descriptions or []))
    ]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        keyed = result.keys is not None
        print_table(
            ["hand", "strength", *(["key"] if keyed else []), "category", "description"],
            [(r["hand"], r["strength"], *([r["key"]] if keyed else []), r["category"], r["description"])
             for r in rows],
        )
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    call = sub.add_parser(
        "call", help="call a running prial server",
        description="Call a prial server (prial serve) from the command line.")
    call.add_argument("--target", default="127.0.0.1:50051", help="host:port (default 127.0.0.1:50051)")
    call.add_argument("--timeout", type=seconds(above=True), default=10.0, help="deadline in seconds (default 10)")
    call.add_argument("--tls", action="store_true", help="use TLS with the system roots")
    call.add_argument("--tls-ca", help="PEM CA bundle to verify the server (implies TLS)")
    call.add_argument("--token-file", help="file whose first line is the bearer token")
    rpcs = call.add_subparsers(dest="rpc", metavar="RPC", required=True)
    evaluate = rpcs.add_parser("evaluate", help="rank hands (Evaluate)",
                               description="Rank 3-, 4- or 5-card hands on the server.")
    evaluate.add_argument("hands", nargs="+", metavar="HAND", help='a hand, e.g. "3s 2h Ah"')
    evaluate.add_argument("--json", action="store_true", help="machine-readable output")
    add_rules_options(evaluate)
    health = rpcs.add_parser("health", help="health status (grpc.health.v1)",
                             description="Print SERVING or NOT_SERVING.")
    health.add_argument("--service", default="", help='service name ("" = the whole server)')
    call.set_defaults(func=cmd_call)
