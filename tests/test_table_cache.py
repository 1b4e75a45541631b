"""The rulesets' tables kept between calls are bounded in bytes, whatever
the number of rulesets a caller cycles through, and answers stay right
once a ruleset's tables have gone and are built again."""

from __future__ import annotations

import bisect
import gc
import itertools
import os
import subprocess
import sys
from typing import NamedTuple

import numpy as np
import pytest

import prial
from prial import Rules

MIB = 1 << 20


class Bound(NamedTuple):
    bytes: int
    outside: int
HAND = "As Ks Qs Js Ts"
# Distinct rulesets, each with tables of its own: suit orders.  Five-card
# equity builds a ruleset's key and counting tables, 89 MB of them.
RULESETS = [Rules(suit_order="".join(order)) for order in itertools.permutations("shdc")][:10]


def let_go() -> int:
    """Lets every cached ruleset's tables go but standard Brag's (a lookup
    under a bound of 0); returns the bytes of tables still alive: held
    outside the cache (an Evaluator a test before this one keeps) or
    standard Brag's, which the bound does not govern."""
    prial.set_table_cache_limit(0)
    prial.percentile("As Ks Qs", Rules())
    gc.collect()
    return prial.table_cache_info().bytes


@pytest.fixture
def limit():
    """A 100 MiB bound for the test, on top of the tables alive outside
    the cache (``limit.outside``); after it, the tables it left go and the
    default is put back."""
    before = prial.table_cache_info().limit
    outside = let_go()
    prial.set_table_cache_limit(100 * MIB)
    yield Bound(100 * MIB, outside)
    let_go()
    prial.set_table_cache_limit(before)


def test_cycling_through_rulesets_keeps_the_tables_within_the_bound(limit):
    first = [prial.equity(HAND, rules=rules) for rules in RULESETS[:3]]
    for rules in RULESETS:
        # The bound is kept at each lookup; the tables this call builds
        # after its own lookup come on top until the next one.
        result = prial.equity(HAND, rules=rules)
        built = prial.Evaluator(rules).table_bytes
        info = prial.table_cache_info()
        assert info.bytes <= limit.outside + limit.bytes + built, (info, built, limit)
        assert result.exact and result.win + result.tie + result.lose == pytest.approx(1)
    # A bound's worth kept, not every ruleset's (890 MB).
    assert 1 <= info.rulesets < len(RULESETS)
    # The first rulesets' tables went long ago: built again, same answers.
    assert [prial.equity(HAND, rules=rules) for rules in RULESETS[:3]] == first


def test_a_ruleset_bigger_than_the_bound_still_answers(limit):
    prial.set_table_cache_limit(0)
    rules = RULESETS[5]
    fresh = prial.equity(HAND, rules=rules, with_percentile=True)
    big = prial.Evaluator(rules).table_bytes
    assert big > 80 * MIB
    assert prial.equity(HAND, rules=rules, with_percentile=True) == fresh
    prial.percentile("As Ks Qs", RULESETS[6])  # the next lookup lets the big one go
    info = prial.table_cache_info()
    assert info.rulesets == 1 and info.bytes < limit.outside + big


def test_the_percentile_is_the_share_of_hands_strictly_below():
    # Against a count over every hand of the pack, in rulesets with and
    # without wild cards and suit ties.
    for rules in (None, Rules(wild="deuces"), Rules(jokers=1), Rules(lowball=True, suit_order="shdc")):
        ev = prial.Evaluator(rules)
        for width in (3, 4):
            hands = list(itertools.combinations(range(ev.pack_size), width))
            keys = sorted(ev.best_of_batch(np.array(hands, dtype=np.uint8)).tolist())
            for hand in hands[:: len(hands) // 7]:
                below = bisect.bisect_left(keys, ev.best_of(list(hand)).key)
                assert prial.percentile(list(hand), rules) == below / len(keys)


@pytest.mark.parametrize("limit_value", [-1, 1.5, True, "big"])
def test_a_bad_bound_is_refused_in_one_line(limit_value):
    with pytest.raises(prial.ConfigurationError, match="table cache limit must be a whole number of bytes"):
        prial.set_table_cache_limit(limit_value)


@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                    reason="under AddressSanitizer freed memory waits in its quarantine (the unsanitized run "
                           "checks the growth)")
def test_cycling_through_crash_values_keeps_an_evaluator_bounded():
    # Every crash_value is an option set of its own, with a partitioner of
    # its own (23 KB): 3,000 of them took 68 MB when each was kept.
    script = (
        "import prial\n"
        "def rss():\n"
        "    with open('/proc/self/status') as f:\n"
        "        return next(int(l.split()[1]) for l in f if l.startswith('VmRSS:')) / 1024\n"
        "ev = prial.Evaluator()\n"
        "deal = 'Ah Kh Qh 9c 9d 9s 2c 3d 5h 7s 8c Td Js'\n"
        "first = ev.partition(deal, objective='expected_points', crash_value=0.5)\n"
        "for i in range(200):\n"
        "    ev.partition(deal, objective='expected_points', crash_value=i / 7)\n"
        "before = rss()\n"
        "for i in range(3000):\n"
        "    ev.partition(deal, objective='expected_points', crash_value=i / 3)\n"
        "print(rss() - before, ev.partition(deal, objective='expected_points', crash_value=0.5) == first)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    grown, same = done.stdout.split()
    assert float(grown) < 20, done.stdout
    assert same == "True"
