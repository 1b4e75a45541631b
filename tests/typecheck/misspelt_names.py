"""Mistakes a user makes, each of which the checkers must report.

Every line carries the ignore comment of the exact error it must raise, for
mypy and for basedpyright; both are configured to report an ignore that
suppresses nothing, so a mistake that stops being an error (a name turned
Any, an array of unknown dtype) fails the check.  Only type-checked, never run.
"""

# What a mistake leaves is of unknown type: that consequence is not what
# these lines check (tests/typecheck/public_api.py checks for unknown types).
# pyright: reportUnknownMemberType=false, reportUnknownVariableType=false

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

import prial
import prial.score
from prial import scor_file  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]
from prial.client import AsyncClient, Client, Evaluation, RetryPolicy
from prial.score import Progress


def names(summary: prial.ScoreSummary, client: Client, hands: NDArray[np.uint8]) -> None:
    scor_file("deals.csv")
    rows: int = summary.rows_inn  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]
    options = prial.ScoreOptions(describ=True)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    prial.score_fil("deals.csv")  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]
    prial.score.score_fiel("deals.csv")  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]
    prial.Evaluator().evaluate_bach(hands)  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]
    prial.evalute("3s 2h Ah")  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]
    prial.Rules(preset="teen_pati")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    prial.Category.PRAIL  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]
    prial.house_edge(paytabel="casino_brag")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    prial.odds().rows[0].probabilty  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]
    Client(timout=1.0)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    AsyncClient(timout=1.0)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    AsyncClient(retrys=None)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    RetryPolicy(max_atempts=3)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    client.evaluate(hands, describ=True)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    client.evaluate(hands).strength  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]
    Progress("loud")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    del rows, options


def types(client: Client, hands: NDArray[np.uint8]) -> None:
    keys: NDArray[np.uint32] = prial.evaluate_batch(hands)  # type: ignore[assignment]  # pyright: ignore[reportAssignmentType]
    codes: NDArray[np.uint8] = client.evaluate(hands).strengths  # type: ignore[assignment]  # pyright: ignore[reportAssignmentType]
    wins: NDArray[np.uint16] = client.showdown_batch(hands, hands)  # type: ignore[assignment]  # pyright: ignore[reportAssignmentType]
    given: int = prial.showdown([]).to_dict()["pot"]  # type: ignore[assignment]  # pyright: ignore[reportAssignmentType]
    summary: str = prial.score_file("deals.csv")  # type: ignore[assignment]  # pyright: ignore[reportAssignmentType]
    Client(retries=3)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    RetryPolicy(codes=("UNAVAILABLE",))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    del keys, codes, wins, given, summary


async def forgotten_await(client: AsyncClient, hands: NDArray[np.uint8]) -> None:
    result: Evaluation = client.evaluate(hands)  # type: ignore[assignment]  # pyright: ignore[reportAssignmentType]
    for part in client.evaluate_stream([hands]):  # type: ignore[attr-defined]  # pyright: ignore[reportGeneralTypeIssues]
        del part
    del result
