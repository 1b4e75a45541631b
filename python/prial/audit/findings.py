"""From an audit's tallies to its findings: one goodness-of-fit test per
group for the hand categories and one for the cards, Holm-corrected
across groups; impossible deals; dispute rates with their intervals.

The unit of the dealing tests is the deal.  A group's counts per seat are
sums over its deals, which are independent; two seats of one deal are not,
and the tests use the exact covariance of a fair deal (``laws``), so the
statistic is chi-square under fair dealing however many seats a deal has.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from .._core import format_cards
from ..categories import Category
from ..rules import Rules, with_preset
from .laws import DealLaw, deal_law
from .stats import chi2_sf, holm, quadratic_form_test, wilson
from .tally import DealingTally, GroupKey, Tally

# A test needs at least this many expected hands in each cell it compares
# (rarer categories are pooled until they reach it); below it the
# chi-square law is a poor guide and the group is reported untested.
MIN_EXPECTED = 5.0
# Seats present in fewer than this share of a group's deals are left out
# of its tests, so that an occasional extra seat does not pool every
# category away.
MIN_SEAT_SHARE = 0.1
Z95 = 1.959963984540054

DEALING_TESTS = ("categories", "cards")


class _AsDict:
    """``as_dict()``, the old name of ``to_dict()`` (every result has ``to_dict()``)."""

    def as_dict(self) -> dict[str, object]:
        """Deprecated: ``to_dict()``."""
        warnings.warn(f"{type(self).__name__}.as_dict() is deprecated; use to_dict()", DeprecationWarning,
                      stacklevel=2)
        return self.to_dict()  # type: ignore[attr-defined]  # every subclass has it


@dataclass(frozen=True)
class Effect(_AsDict):
    """The most deviant cell of a test: a seat and a category or card,
    with its standardized residual (observed minus expected, in standard
    deviations of a fair deal)."""

    seat: int
    what: str  # a category name, or a card such as "As"
    observed: int
    expected: float
    residual: float

    def to_dict(self) -> dict[str, object]:
        return {"seat": self.seat, "what": self.what, "observed": self.observed,
                "expected": round(self.expected, 3), "residual": round(self.residual, 3)}


@dataclass(frozen=True)
class Frequency(_AsDict):
    """Observed and expected frequency of one category or card, with the
    range 95 % of fair logs of this size would give."""

    what: str
    observed: float
    expected: float
    low: float
    high: float

    def to_dict(self) -> dict[str, object]:
        return {"what": self.what, "observed": self.observed, "expected": self.expected,
                "fair_low": self.low, "fair_high": self.high}


@dataclass
class DealingTest(_AsDict):
    """One group's test of one kind (``categories`` or ``cards``)."""

    kind: str
    group: dict[str, object]
    game: str
    cards: int
    deals: int
    seats: list[int]
    statistic: float | None = None
    df: int | None = None
    p_value: float | None = None
    p_adjusted: float | None = None
    flagged: bool = False
    effect: Effect | None = None
    # Categories pooled over the seats; cards at the effect's seat.
    frequencies: list[Frequency] = field(default_factory=list)
    untested: str | None = None  # why not, when no test was made

    def to_dict(self) -> dict[str, object]:
        return {
            "group": self.group, "game": self.game, "cards": self.cards, "deals": self.deals, "seats": self.seats,
            "statistic": _rounded(self.statistic), "df": self.df, "p_value": self.p_value,
            "p_adjusted": self.p_adjusted, "flagged": self.flagged,
            "effect": self.effect.to_dict() if self.effect else None,
            "frequencies": [f.to_dict() for f in self.frequencies], "untested": self.untested,
        }


@dataclass(frozen=True)
class PayoutGroup(_AsDict):
    """One group's logged winners against prial's adjudication."""

    group: dict[str, object]
    deals: int
    adjudicated: int  # deals adjudicated that record who won
    unadjudicable: int
    disputes: int
    disputed_deals: list[object]  # the first ones, up to the audit's limit
    low: float
    high: float  # 95 % Wilson interval of the dispute rate
    # Adjudicated deals with no result to check, apart from the rate:
    uncontested: int = 0  # one player
    no_result: int = 0  # no row logged as won

    @property
    def rate(self) -> float | None:
        return self.disputes / self.adjudicated if self.adjudicated else None

    def to_dict(self) -> dict[str, object]:
        return {"group": self.group, "deals": self.deals, "adjudicated": self.adjudicated,
                "unadjudicable": self.unadjudicable, "disputes": self.disputes, "rate": self.rate,
                "interval": [self.low, self.high], "uncontested": self.uncontested, "no_result": self.no_result,
                "disputed_deals": self.disputed_deals}


@dataclass(frozen=True)
class ImpossibleGroup(_AsDict):
    group: dict[str, object]
    deals: int  # deals holding a card twice
    listed: list[object]

    def to_dict(self) -> dict[str, object]:
        return {"group": self.group, "deals": self.deals, "listed": self.listed}


@dataclass
class AuditResult(_AsDict):
    """What ``prial audit`` found; ``to_dict`` is its JSON, and the report's
    figures.  ``summaries`` holds one plain sentence per test."""

    input: str
    by: list[str]
    alpha: float
    rows: int
    bad_rows: int
    deals: int
    dealing: dict[str, list[DealingTest]]
    payouts: list[PayoutGroup]
    impossible: list[ImpossibleGroup]
    summaries: dict[str, str]
    seconds: float = 0.0

    def flagged(self, kind: str) -> list[DealingTest]:
        """The groups that stand out in one test, largest effect first."""
        hits = [t for t in self.dealing[kind] if t.flagged]
        return sorted(hits, key=lambda t: -abs(t.effect.residual) if t.effect else 0.0)

    @property
    def rows_per_second(self) -> float:
        return self.rows / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "input": self.input, "by": self.by, "alpha": self.alpha, "rows": self.rows,
            "bad_rows": self.bad_rows, "deals": self.deals,
            "summaries": self.summaries,
            "dealing": {kind: {"flagged": [group_label(t.group) for t in self.flagged(kind)],
                               "groups": [t.to_dict() for t in tests]} for kind, tests in self.dealing.items()},
            "impossible_deals": {"deals": sum(g.deals for g in self.impossible),
                                 "groups": [g.to_dict() for g in self.impossible]},
            "payouts": {"adjudicated": sum(g.adjudicated for g in self.payouts),
                        "disputes": sum(g.disputes for g in self.payouts),
                        "uncontested": sum(g.uncontested for g in self.payouts),
                        "no_result": sum(g.no_result for g in self.payouts),
                        "groups": [g.to_dict() for g in self.payouts]},
            "seconds": round(self.seconds, 3), "rows_per_second": round(self.rows_per_second, 1),
        }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def group_label(group: dict[str, object]) -> str:
    """ "dealer=3, table=A", or "all deals" with no --by columns."""
    return ", ".join(f"{k}={v}" for k, v in group.items()) or "all deals"


def mixes_laws(tests: list[DealingTest]) -> bool:
    """Do the tests span several games or hand sizes (each its own law)?"""
    return len({(t.game, t.cards) for t in tests}) > 1


def label_of(test: DealingTest, several: bool) -> str:
    """The test's group, with its game and hand size when ``several``."""
    label = group_label(test.group)
    return f"{label} ({test.game}, {test.cards} cards)" if several else label


# ---- the dealing tests ----

def _seats_tested(counts: DealingTally) -> np.ndarray:
    present = counts.seat_deals
    return np.flatnonzero((present > 0) & (present >= MIN_SEAT_SHARE * present.max(initial=0)))


def _covariance(n_s: np.ndarray, n_st: np.ndarray, within: np.ndarray, cross: np.ndarray) -> np.ndarray:
    """Covariance of seat-major per-seat count vectors summed over deals:
    ``n_s`` deals of each seat, ``n_st`` deals of each pair of seats."""
    return np.kron(np.diag(n_s), within) + np.kron(n_st - np.diag(n_s), cross)


def _pooling(p: np.ndarray, fewest: int) -> np.ndarray:
    """(B, K) 0/1 map pooling the rarest categories until every pooled
    cell expects at least MIN_EXPECTED hands at the least dealt seat."""
    order = [k for k in np.argsort(p, kind="stable").tolist() if p[k] > 0]
    buckets: list[list[int]] = []
    current: list[int] = []
    for k in order:
        current.append(k)
        if p[current].sum() * fewest >= MIN_EXPECTED:
            buckets.append(current)
            current = []
    if current:  # the commonest leftovers join the last full bucket
        if buckets:
            buckets[-1].extend(current)
        else:
            buckets.append(current)
    pool = np.zeros((len(buckets), len(p)))
    for b, members in enumerate(buckets):
        pool[b, members] = 1
    return pool


def _test(observed: np.ndarray, n_s: np.ndarray, n_st: np.ndarray, mean: np.ndarray, within: np.ndarray,
          cross: np.ndarray) -> tuple[float, int, float]:
    expected = np.outer(n_s, mean)
    statistic, df = quadratic_form_test(observed.ravel().astype(float), expected.ravel(),
                                        _covariance(n_s.astype(float), n_st.astype(float), within, cross))
    return statistic, df, chi2_sf(statistic, df) if df else 1.0


def _effect(observed: np.ndarray, n_s: np.ndarray, seats: np.ndarray, mean: np.ndarray,
            names: list[str]) -> Effect:
    expected = np.outer(n_s, mean)
    spread = np.sqrt(np.outer(n_s, mean * (1 - mean)))
    residual = np.divide(observed - expected, spread, out=np.zeros_like(expected), where=spread > 0)
    s, k = np.unravel_index(int(np.argmax(np.abs(residual))), residual.shape)
    return Effect(seat=int(seats[s]), what=names[k], observed=int(observed[s, k]),
                  expected=float(expected[s, k]), residual=float(residual[s, k]))


def _frequencies(observed: np.ndarray, deals: float, pair_deals: float, mean: np.ndarray, within: np.ndarray,
                 cross: np.ndarray, names: list[str]) -> list[Frequency]:
    """Observed share of each cell over ``deals`` hands, with the fair
    95 % range (``pair_deals``: ordered pairs of those hands in one deal)."""
    spread = np.sqrt(np.maximum(deals * np.diag(within) + pair_deals * np.diag(cross), 0)) / deals
    return [Frequency(names[k], float(observed[k] / deals), float(mean[k]),
                      float(max(0.0, mean[k] - Z95 * spread[k])), float(mean[k] + Z95 * spread[k]))
            for k in range(len(names)) if mean[k] > 0]


def _category_test(test: DealingTest, counts: DealingTally, law: DealLaw) -> None:
    seats = np.asarray(test.seats)
    n_s, n_st = counts.seat_deals[seats], counts.pair_deals[np.ix_(seats, seats)]
    observed = counts.categories[seats]
    names = [c.name for c in Category]
    p = law.category_mean
    test.effect = _effect(observed, n_s, seats, p, names)
    hands = int(n_s.sum())
    test.frequencies = _frequencies(observed.sum(axis=0), hands, float(n_st.sum() - hands), p,
                                    law.category_cov, law.category_cross, names)
    pool = _pooling(p, int(n_s.min()))
    if len(pool) < 2:
        test.untested = f"too few deals ({counts.deals:,}) for the rarer categories"
        return
    test.statistic, test.df, test.p_value = _test(observed @ pool.T, n_s, n_st, pool @ p,
                                                  pool @ law.category_cov @ pool.T, pool @ law.category_cross @ pool.T)


def _card_test(test: DealingTest, counts: DealingTally, law: DealLaw) -> None:
    seats = np.asarray(test.seats)
    n = law.pack_size
    n_s, n_st = counts.seat_deals[seats], counts.pair_deals[np.ix_(seats, seats)]
    observed = counts.cards[seats][:, :n]
    names = format_cards(list(range(n))).split()
    test.effect = _effect(observed, n_s, seats, law.card_mean, names)
    row = test.seats.index(test.effect.seat)
    test.frequencies = _frequencies(observed[row], float(n_s[row]), 0.0, law.card_mean, law.card_cov,
                                    law.card_cross, names)
    needed = math.ceil(MIN_EXPECTED / law.card_mean[0])
    if n_s.min() < needed:
        test.untested = f"too few deals ({counts.deals:,}; each card test needs {needed:,} a seat)"
        return
    test.statistic, test.df = _card_statistic(observed, np.outer(n_s, law.card_mean), n_s, n_st, law)
    test.p_value = chi2_sf(test.statistic, test.df)


def _card_statistic(observed: np.ndarray, expected: np.ndarray, n_s: np.ndarray, n_st: np.ndarray,
                    law: DealLaw) -> tuple[float, int]:
    """The quadratic-form test of the seat-by-card counts, without the
    (seats x cards)-square covariance: both of a fair deal's card
    covariances (one seat, two seats) are ``a I + b J`` with rows summing
    to zero, so on the directions where counts vary the whole covariance
    is ``M (x) I`` with ``M`` seats-square: the statistic is ``sum over
    cards of d_c' M+ d_c``, with ``rank(M) (N - 1)`` degrees of freedom."""
    within = law.card_cov[0, 0] - law.card_cov[0, 1]  # the ``a`` of each
    cross = law.card_cross[0, 0] - law.card_cross[0, 1]
    m = within * np.diag(n_s.astype(float)) + cross * (n_st - np.diag(n_s)).astype(float)
    statistic, rank = quadratic_form_test(observed.astype(float), expected, m)
    return statistic, rank * (law.pack_size - 1)


_RUN = {"categories": _category_test, "cards": _card_test}


def findings(tally: Tally, rules: Rules, *, input: str, alpha: float, seconds: float = 0.0) -> AuditResult:
    """The audit's findings from its tallies; ``rules`` as for scoring (a
    log's ``game`` column replaces their preset)."""
    keys = sorted(tally.groups, key=_sort_key)
    dealing: dict[str, list[DealingTest]] = {kind: [] for kind in DEALING_TESTS}
    for key in keys:
        group = dict(zip(tally.by, key))
        for (game, width), counts in sorted(tally.groups[key].dealing.items(), key=lambda kv: _sort_key(kv[0])):
            game_rules = rules if game is None else with_preset(rules, game)
            law = deal_law(game_rules, width)
            seats = _seats_tested(counts).tolist()
            for kind in DEALING_TESTS:
                test = DealingTest(kind=kind, group=group, game=game_rules.preset, cards=width,
                                   deals=counts.deals, seats=seats)
                if counts.deals:
                    _RUN[kind](test, counts, law)
                else:
                    test.untested = "no sound deals"
                dealing[kind].append(test)
    for tests in dealing.values():
        tested = [t for t in tests if t.p_value is not None]
        for test, adjusted in zip(tested, holm([t.p_value for t in tested if t.p_value is not None])):
            test.p_adjusted = adjusted
            test.flagged = adjusted < alpha
    payouts = []
    for key in keys:
        g = tally.groups[key]
        low, high = wilson(g.disputes, g.adjudicated)
        payouts.append(PayoutGroup(group=dict(zip(tally.by, key)), deals=g.deals, adjudicated=g.adjudicated,
                                   unadjudicable=g.unadjudicable, disputes=g.disputes,
                                   disputed_deals=g.disputed_ids, low=low, high=high, uncontested=g.uncontested,
                                   no_result=g.no_result))
    impossible = [ImpossibleGroup(dict(zip(tally.by, key)), tally.groups[key].impossible,
                                  tally.groups[key].impossible_ids)
                  for key in keys if tally.groups[key].impossible]
    result = AuditResult(input=input, by=list(tally.by), alpha=alpha, rows=tally.rows, bad_rows=tally.bad_rows,
                         deals=sum(g.deals for g in tally.groups.values()), dealing=dealing, payouts=payouts,
                         impossible=impossible, summaries={}, seconds=seconds)
    result.summaries = summaries(result)
    return result


def _sort_key(key: GroupKey) -> tuple[tuple[int, str], ...]:
    """Groups in a stable order whatever their values' types (None first)."""
    return tuple((0, "") if v is None else (1, f"{v:020d}" if isinstance(v, int) and v >= 0 else str(v))
                 for v in key)


# ---- in words ----

def p_text(p: float) -> str:
    """ "= 0.0031", or "< 1e-300" for a p-value beyond a float's reach."""
    return "< 1e-300" if p < 1e-300 else f"= {p:.2g}"


def p_cell(p: float) -> str:
    """A p-value in a table: "0.00312", or "< 1e-300" as ``p_text`` says."""
    return "< 1e-300" if p < 1e-300 else f"{p:.3g}"


def summaries(result: AuditResult) -> dict[str, str]:
    """One plain sentence per test."""
    words = {}
    several = mixes_laws(result.dealing["categories"])
    for kind, noun in (("categories", "hand categories"), ("cards", "cards per seat")):
        tests = result.dealing[kind]
        tested = [t for t in tests if t.p_value is not None]
        flagged = result.flagged(kind)
        untested = len(tests) - len(tested)
        tail = f" ({untested} group{'s' if untested != 1 else ''} too small to test)" if untested else ""
        if not tested:
            words[kind] = f"No group had enough deals to test the {noun}{tail}."
        elif not flagged:
            groups = "the one group tested" if len(tested) == 1 else f"all {len(tested)} groups tested"
            words[kind] = (f"The {noun} fit fair dealing in {groups} (every Holm-adjusted p-value at or above "
                           f"{result.alpha:g}){tail}.")
        else:
            top = flagged[0]
            assert top.effect is not None and top.p_adjusted is not None
            e = top.effect
            held = (f"{Category[e.what].label.lower()} hands" if kind == "categories" else f"the {e.what}")
            direction = "more" if e.residual > 0 else "fewer"
            standing = ("The one group tested stands out" if len(tested) == 1
                        else f"{len(flagged)} of {len(tested)} groups stand out")
            words[kind] = (f"{standing} in the {noun}; the strongest is {label_of(top, several)}, whose seat {e.seat} "
                           f"got {held} {e.observed:,} times where a fair deal expects {e.expected:,.1f} "
                           f"({abs(e.residual):.1f} standard deviations {direction}; adjusted p "
                           f"{p_text(top.p_adjusted)}){tail}.")
    total = sum(g.deals for g in result.impossible)
    if not total:
        words["impossible"] = "No deal held a card twice."
    else:
        first = [str(d) for g in result.impossible for d in g.listed][:5]
        words["impossible"] = (f"{total:,} deal{'s' if total != 1 else ''} held a card twice (impossible from one "
                               f"pack), among them deal {', '.join(first)}.")
    adjudicated = sum(g.adjudicated for g in result.payouts)
    disputes = sum(g.disputes for g in result.payouts)
    if not adjudicated:
        words["payouts"] = ("No deal both records who won and can be adjudicated, so no payout was checked"
                            + _unchecked(result.payouts) + ".")
    else:
        low, high = wilson(disputes, adjudicated)
        worst = max((g for g in result.payouts if g.adjudicated), key=lambda g: g.rate or 0.0)
        words["payouts"] = (f"{disputes:,} of {adjudicated:,} adjudicated deals ({disputes / adjudicated:.2%}, 95 % "
                            f"interval {low:.2%} to {high:.2%}) record a winner other than prial's adjudication"
                            + (f"; the highest rate is {group_label(worst.group)}'s, {worst.rate:.2%}"
                               if len(result.payouts) > 1 else "") + _unchecked(result.payouts) + ".")
    return words


def _unchecked(groups: list[PayoutGroup]) -> str:
    """The adjudicated deals left out of the dispute rate, and why."""
    uncontested = sum(g.uncontested for g in groups)
    no_result = sum(g.no_result for g in groups)
    parts = [f"{uncontested:,} uncontested (one player)" if uncontested else "",
             f"{no_result:,} with no result recorded (no player logged as the winner)" if no_result else ""]
    said = " and ".join(p for p in parts if p)
    return f"; not counted as disputes: {said}" if said else ""
