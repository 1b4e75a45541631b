"""Simulate: many deals played natively by chosen policies under chosen
table rules, the policies rotated through the seats, and each policy's mean
net per deal with a 95 % interval (docs/rules.md, "Simulating a table").

The interval is computed over blocks of consecutive deals, not over deals:
the block means are close to independent and normal even where single
deals are not."""


import itertools
import math
from collections.abc import Sequence
from typing import NamedTuple, Union

import numpy as np

from ..errors import ConfigurationError, InvalidHandError
from .batch import self_play
from .rules import TableRules

# A seat's player: None (or "random") for uniformly random legal actions, a
# share 0..1 for the threshold player (stays in while its hand beats at
# least that share of all hands).
Policy = Union[float, str, None]

_Z = 1.959963984540054  # the normal's 97.5 % point


class PolicyResult(NamedTuple):
    """One policy's figures: ``mean`` net chips per deal, its 95 %
    interval ``low``..``high``, and the same for its difference from the
    first policy (``diff_*``; zero for the first policy itself)."""

    policy: str
    mean: float
    low: float
    high: float
    diff_mean: float
    diff_low: float
    diff_high: float


class Simulation(NamedTuple):
    """What :func:`simulate` measured: ``deals`` played, ``blocks`` of
    ``block`` deals the intervals were computed over, ``actions`` taken,
    and a :class:`PolicyResult` per policy, in the order given."""

    deals: int
    blocks: int
    block: int
    actions: int
    policies: tuple[PolicyResult, ...]


def _threshold(policy: Policy, index: int) -> float:
    if policy is None or policy == "random":
        return -1.0
    if isinstance(policy, (int, float)) and not isinstance(policy, bool) and 0 <= policy <= 1:
        return float(policy)
    raise ConfigurationError(f"policy {index} must be None or 'random' (random legal actions) or a share from 0 to 1 "
                             f"(the threshold player); got {policy!r}", field="policies")


def policy_name(policy: Policy) -> str:
    return "random" if policy is None or policy == "random" else f"threshold {float(policy):g}"  # type: ignore[arg-type]


def t_quantile_975(df: int) -> float:
    """Student's t 97.5 % point, by the Cornish-Fisher expansion about the
    normal's (within 0.001 from 10 degrees of freedom on)."""
    z = _Z
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))


def block_interval(values: np.ndarray, block: int) -> tuple[float, float, float]:
    """Mean of ``values`` (per deal, in order) and the 95 % interval of the
    mean of its whole blocks of ``block`` deals."""
    blocks = len(values) // block
    means = values[: blocks * block].reshape(blocks, block).mean(axis=1)
    mean = float(means.mean())
    half = t_quantile_975(blocks - 1) * float(means.std(ddof=1)) / math.sqrt(blocks)
    return mean, mean - half, mean + half


MIN_BLOCKS = 10
MAX_SEATINGS = 720  # every order of six players


def seatings(n: int, seed: int) -> list[tuple[int, ...]]:
    """The orders the policies sit in, each played alike: every order of
    them where there are at most 720, else 720 drawn from the seed.  Every
    order, not only the rotations: whom a policy sits after matters too,
    and two policies alike must come out alike."""
    if math.factorial(n) <= MAX_SEATINGS:
        return list(itertools.permutations(range(n)))
    rng = np.random.default_rng(seed)
    return [tuple(int(p) for p in rng.permutation(n)) for _ in range(MAX_SEATINGS)]


def simulate(table: TableRules, policies: Sequence[Policy], deals: int, *, seed: int = 0,
             stack: int | None = None, block: int = 1000) -> Simulation:
    """Plays ``deals`` deals natively at ``table``, one seat per policy;
    the policies sit in every order in turn (:func:`seatings`, a share of
    the deals each), so that no policy gains from where it sits.  Deals are seeded: the same
    arguments give the same figures.  ``stack``: every player's chips at
    the start of each deal (None: no stacks).  The intervals are computed
    over blocks of ``block`` deals, at least ten of them."""
    if not isinstance(table, TableRules):
        raise InvalidHandError(f"table must be a prial.TableRules; got {table!r}", field="table")
    if isinstance(policies, str) or not isinstance(policies, Sequence) or len(policies) < 2:
        raise ConfigurationError(f"policies must list one policy a seat, at least two; got {policies!r}",
                                 field="policies")
    thresholds = [_threshold(p, i) for i, p in enumerate(policies)]
    for name, value, least in (("block", block, 1), ("deals", deals, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ConfigurationError(f"{name} must be a whole number from {least}; got {value!r}", field=name)
    if deals // block < MIN_BLOCKS:
        raise ConfigurationError(f"{deals:,} deals make {deals // block} blocks of {block:,}; the intervals need at "
                                 f"least {MIN_BLOCKS} (more deals, or a smaller block)", field="deals")
    n = len(policies)
    per_policy = np.empty((n, deals), dtype=np.float64)
    actions = 0
    done = 0
    plans = seatings(n, seed)
    for turn, plan in enumerate(plans):
        count = deals // len(plans) + (turn < deals % len(plans))
        if count == 0:
            break
        # Seat s is policy plan[s].  The seatings' deals interleave (deal k
        # of this seating is deal turn + k * len(plans) of the whole), so
        # that a block holds every seating alike.
        nets, taken = self_play(table, [None if thresholds[p] < 0 else thresholds[p] for p in plan], count,
                                seed=(seed + done) % 2**64, stack=stack)
        for s, p in enumerate(plan):
            per_policy[p, turn::len(plans)] = nets[:, s]
        actions += int(taken.sum())
        done += count
    results = []
    for i, policy in enumerate(policies):
        mean, low, high = block_interval(per_policy[i], block)
        diff = block_interval(per_policy[i] - per_policy[0], block) if i else (0.0, 0.0, 0.0)
        results.append(PolicyResult(policy_name(policy), mean, low, high, *diff))
    return Simulation(deals, deals // block, block, actions, tuple(results))
