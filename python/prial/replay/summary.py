"""What a replay job found, in sum: printed, written beside the findings
as OUTPUT.summary.json, and returned by prial.replay_file."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..table import FINDINGS


@dataclass(frozen=True)
class ReplaySummary:
    """``records``: records read from the log, ``deals`` of them replayed
    (a row of findings each), ``bad_records`` set aside in the errors file;
    ``findings``: deals by finding (every name of prial.table.FINDINGS);
    ``actions``: actions of the deals replayed.  A resumed job counts what
    the run before it did too (``resumed_records``, ``resumed_actions``);
    the rate is this run's."""

    input: str
    output: str
    errors: str
    records: int
    deals: int
    bad_records: int
    actions: int
    findings: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FINDINGS, 0))
    seconds: float = 0.0
    engine: str = "local"
    resumed_records: int = 0
    resumed_actions: int = 0
    already_complete: bool = False

    @property
    def complete(self) -> bool:
        return self.records == self.deals + self.bad_records

    @property
    def actions_per_second(self) -> float:
        now = self.actions - self.resumed_actions
        return now / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-able data, as the summary file holds it."""
        return {"input": self.input, "output": self.output, "errors": self.errors, "engine": self.engine,
                "records": self.records, "deals": self.deals, "bad_records": self.bad_records,
                "complete": self.complete, "actions": self.actions, "findings": dict(self.findings),
                "resumed_records": self.resumed_records, "resumed_actions": self.resumed_actions,
                "seconds": round(self.seconds, 3), "actions_per_second": round(self.actions_per_second, 1)}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> ReplaySummary:
        names = ("input", "output", "errors", "engine", "records", "deals", "bad_records", "actions", "findings")
        return cls(**{name: data[name] for name in names})  # type: ignore[arg-type]
