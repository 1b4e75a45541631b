"""From a history log's tallies to its findings: the dealing tests of a
row log's audit on the dealt hands, and per group the rate of deals with
an illegal action and of mispaid deals, each with its interval and a
one-sided exact test of the group against the rest of the log,
Holm-corrected across groups; per player the nets and the rates of blind
play, seeing and folding."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules import Rules

# The types of the fields inherited from AuditResult, for what reads this
# class's annotations here (pdoc, typing.get_type_hints).
from .findings import AuditResult, DealingTest, ImpossibleGroup, PayoutGroup, findings, group_label, p_text  # noqa: F401
from .histories import LEFT_OUT, RATES, HistoryTally
from .history_arrays import Offence
from .stats import holm, more_than_rest, wilson

# In words: each rate's deals, and each reason a deal is left out of the dealing tests.
RATE_WORDS = {"illegal": ("deals replayed", "hold an illegal action"),
              "mispaid": ("deals whose payouts were checked", "are mispaid (a wrong winner or a wrong net)")}
LEFT_OUT_WORDS = {"carried_pack": "dealt from a pack carried from the deal before (not shuffled)",
                  "retained_hand": "with a hand kept from the deal before",
                  "hands_unknown": "with a hand not recorded",
                  "card_twice": "holding a card twice (impossible deals)",
                  "bad_setup": "that cannot start from their setup"}


@dataclass
class RateGroup:
    """One group's rate of one kind (``illegal`` or ``mispaid``), with its
    95 % Wilson interval and its test against the rest of the log."""

    kind: str
    group: dict[str, object]
    trials: int
    hits: int
    low: float
    high: float
    offences: list[Offence]
    p_value: float | None = None  # None: not tested (one group, or no deal checked)
    p_adjusted: float | None = None
    flagged: bool = False

    @property
    def rate(self) -> float | None:
        return self.hits / self.trials if self.trials else None

    def to_dict(self) -> dict[str, object]:
        return {"group": self.group, "trials": self.trials, "hits": self.hits, "rate": self.rate,
                "interval": [self.low, self.high], "p_value": self.p_value, "p_adjusted": self.p_adjusted,
                "flagged": self.flagged, "offences": [o._asdict() for o in self.offences]}


@dataclass(frozen=True)
class PlayerLine:
    """One player's deals, nets (as recorded; as adjudicated, over the
    deals whose money was decided) and the share of their deals in which
    they played blind (staked or saw before looking), saw and folded."""

    player: str
    deals: int
    net: int
    adjudicated_net: int
    blind: int
    see: int
    fold: int

    def rates(self) -> dict[str, float]:
        return {kind: getattr(self, kind) / self.deals if self.deals else 0.0 for kind in ("blind", "see", "fold")}

    def to_dict(self) -> dict[str, object]:
        return {"player": self.player, "deals": self.deals, "net": self.net, "adjudicated_net": self.adjudicated_net,
                "blind": self.blind, "see": self.see, "fold": self.fold,
                **{f"{kind}_rate": rate for kind, rate in self.rates().items()}}


@dataclass
class HistoryAuditResult(AuditResult):
    """An audit of hand histories: the dealing tests and impossible deals
    of ``AuditResult`` (``rows``: records read; ``bad_rows``: records
    unreadable; ``payouts``: none, the rates hold them) and the history's
    own findings."""

    actions: int = 0
    rates: dict[str, list[RateGroup]] = field(default_factory=dict)
    players: list[PlayerLine] = field(default_factory=list)
    left_out: dict[str, int] = field(default_factory=dict)
    dealing_deals: int = 0  # deals in the dealing tests

    def flagged_groups(self, kind: str) -> list[RateGroup]:
        """The groups whose rate stands out above the rest's, highest first."""
        return sorted((g for g in self.rates[kind] if g.flagged), key=lambda g: -(g.rate or 0.0))

    @property
    def rows_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, object]:
        data = super().to_dict()
        del data["payouts"]
        data["rows_per_second"] = None
        data.update({
            "histories": True, "actions": self.actions,
            "actions_per_second": round(self.rows_per_second, 1),
            "dealing_left_out": self.left_out, "dealing_deals": self.dealing_deals,
            "rates": {kind: {"flagged": [group_label(g.group) for g in self.flagged_groups(kind)],
                             "trials": sum(g.trials for g in groups), "hits": sum(g.hits for g in groups),
                             "groups": [g.to_dict() for g in groups]} for kind, groups in self.rates.items()},
            "players": [p.to_dict() for p in self.players],
        })
        return data


def history_findings(tally: HistoryTally, *, input: str, alpha: float, bad_records: int = 0,
                     seconds: float = 0.0) -> HistoryAuditResult:
    base = findings(tally.dealing, tally.rules or Rules(), input=input, alpha=alpha)
    keys = sorted(tally.rates, key=lambda k: [str(v) for v in k])
    rates: dict[str, list[RateGroup]] = {}
    for kind in RATES:
        groups = []
        for key in keys:
            counts = tally.rates[key]
            low, high = wilson(counts.hits[kind], counts.trials[kind])
            groups.append(RateGroup(kind, dict(zip(tally.by, key)), counts.trials[kind], counts.hits[kind], low, high,
                                    counts.offences[kind]))
        tested = [g for g in groups if g.trials] if len(groups) > 1 else []
        all_hits, all_trials = sum(g.hits for g in tested), sum(g.trials for g in tested)
        for g in tested:
            g.p_value = more_than_rest(g.hits, g.trials, all_hits, all_trials)
        for g, adjusted in zip(tested, holm([g.p_value or 1.0 for g in tested])):
            g.p_adjusted = adjusted
            g.flagged = adjusted < alpha
        rates[kind] = groups
    players = [PlayerLine(name, *(int(c) for c in counts)) for name, counts in sorted(tally.players.items())]
    result = HistoryAuditResult(
        input=input, by=list(tally.by), alpha=alpha, rows=tally.deals + bad_records, bad_rows=bad_records,
        deals=tally.deals, dealing=base.dealing, payouts=[], impossible=base.impossible, summaries={},
        seconds=seconds, actions=tally.actions, rates=rates, players=players,
        left_out={reason: tally.left_out[reason] for reason in LEFT_OUT},
        dealing_deals=sum(t.deals for t in base.dealing["categories"]))
    result.summaries = {**{k: v for k, v in base.summaries.items() if k != "payouts"}, **history_summaries(result)}
    return result


def history_summaries(result: HistoryAuditResult) -> dict[str, str]:
    """One plain sentence per rate, and one on the deals left out of the dealing tests."""
    words = {}
    for kind, groups in result.rates.items():
        noun, verb = RATE_WORDS[kind]
        trials, hits = sum(g.trials for g in groups), sum(g.hits for g in groups)
        if not trials:
            words[kind] = ("No deal could be replayed." if kind == "illegal"
                           else "No deal records an outcome that could be checked.")
            continue
        low, high = wilson(hits, trials)
        sentence = f"{hits:,} of {trials:,} {noun} ({hits / trials:.2%}, 95 % interval {low:.2%} to {high:.2%}) {verb}"
        flagged = result.flagged_groups(kind)
        tested = [g for g in groups if g.p_value is not None]
        if flagged:
            top = flagged[0]
            assert top.p_adjusted is not None and top.rate is not None
            sentence += (f"; {len(flagged)} of {len(tested)} groups stand{'s' if len(flagged) == 1 else ''} out above the rest, the highest "
                         f"{group_label(top.group)} with {top.hits:,} of {top.trials:,} ({top.rate:.2%}; adjusted p "
                         f"{p_text(top.p_adjusted)})")
        elif tested:
            sentence += (f"; no group stands out above the rest (every Holm-adjusted p-value at or above "
                         f"{result.alpha:g})")
        words[kind] = sentence + "."
    left = sum(result.left_out.values())
    words["left_out"] = (f"{result.dealing_deals:,} deals dealt from a shuffled pack were tested"
                         + (f"; {left:,} left out of the dealing tests: "
                            + "; ".join(f"{count:,} {LEFT_OUT_WORDS[reason]}"
                                        for reason, count in result.left_out.items() if count) if left else "")
                         + ".")
    return words
