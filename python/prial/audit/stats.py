"""The statistics of an audit, free of scipy: chi-square tail
probabilities, a quadratic-form goodness-of-fit test against an exact
covariance, Holm's correction and Wilson's interval."""

from __future__ import annotations

import math

import numpy as np


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` degrees of freedom: the
    regularized upper incomplete gamma Q(df/2, x/2), by its series below
    the mean and its continued fraction above (Lentz's method)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {df}")
    if x <= 0:
        return 1.0
    a, z = df / 2, x / 2
    log_front = a * math.log(z) - z - math.lgamma(a)
    if z < a + 1:
        term = total = 1 / a
        k = a
        while abs(term) > abs(total) * 1e-15:
            k += 1
            term *= z / k
            total += term
        return max(0.0, 1.0 - math.exp(log_front) * total)
    tiny = 1e-300
    b = z + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


def quadratic_form_test(observed: np.ndarray, expected: np.ndarray, covariance: np.ndarray) -> tuple[float, int]:
    """(statistic, rank of ``C``) of ``(o - e)' C+ (o - e)``, where ``C``
    is the exact covariance of ``o`` under the hypothesis and ``C+`` its
    pseudo-inverse on the directions in which the counts vary (exact linear
    constraints, such as every seat holding one category a deal, drop out).
    Chi-square with that many degrees of freedom, for large counts.

    ``o`` and ``e`` may also be (d, m): m count vectors of one covariance,
    the statistic summed over them."""
    values, vectors = np.linalg.eigh(covariance)
    kept = values > values.max(initial=0.0) * 1e-10
    projected = vectors[:, kept].T @ (observed - expected)
    weights = values[kept] if projected.ndim == 1 else values[kept][:, None]
    return float(np.sum(projected ** 2 / weights)), int(kept.sum())


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: a family of
    tests is held to an error rate of alpha by flagging adjusted p < alpha."""
    m = len(p_values)
    order = sorted(range(m), key=p_values.__getitem__)
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def wilson(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson's score interval for a proportion (95 % by default); (0, 1)
    with no trials."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    # The interval holds p; rounding must not put p outside it (at 0 or 1).
    return max(0.0, min(p, (centre - spread) / scale)), min(1.0, max(p, (centre + spread) / scale))


def more_than_rest(hits: int, trials: int, all_hits: int, all_trials: int) -> float:
    """One-sided p-value that a group's rate (``hits`` of ``trials``) is
    higher than the rest's (the others of ``all_hits`` of ``all_trials``):
    Fisher's exact test, the chance under one common rate that a group of
    ``trials`` gets ``hits`` or more of the ``all_hits`` (the upper tail of
    the hypergeometric law), summed in logs so that any log size is exact."""
    if trials == 0 or hits == 0:
        return 1.0
    misses = all_trials - all_hits

    def log_comb(n: int, k: int) -> float:
        return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)

    whole = log_comb(all_trials, trials)
    terms = [log_comb(all_hits, k) + log_comb(misses, trials - k) - whole
             for k in range(hits, min(all_hits, trials) + 1) if trials - k <= misses]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in terms))
