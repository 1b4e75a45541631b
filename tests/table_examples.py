"""The four worked examples of the SPEC's section 8 (pagat's Three Card
Brag) as scripts that either the reference or prial can be walked through.

A step is (player, kind, amount, checks): ``checks`` is what must hold
before the step, with the player to act: ``least`` of their stake, ``see``
the price of their see (None: no see allowed), ``kinds_in`` and
``kinds_out`` kinds that must and must not be legal.  A player who is to
play open looks on their first turn (a ("X", "look") step).
"""

from __future__ import annotations

PLAYERS_4 = ["A", "B", "C", "D"]
PLAYERS_5 = ["A", "B", "C", "D", "E"]

# Hands chosen so the see at the end of examples 3 and 4 has a known winner:
# E holds a prial of aces and C a pair, A and B high cards.
HANDS_4 = ["Kh 9d 4c", "Qs 8h 3d", "Jc Jd 6s", "Ts 7c 2h"]
HANDS_5 = ["Kh 9d 4c", "Qs 8h 3d", "Jc Jd 6s", "Ts 7c 2h", "As Ad Ac"]


def step(player, kind, amount=None, **checks):
    return (player, kind, amount, checks)


# 1. Four open players: A stakes 2, B folds, C stakes 2, D stakes 2; to stay
#    in, A must stake at least 2 more.
EXAMPLE_1 = [
    step("A", "look"), step("A", "stake", 2, least=1),
    step("B", "look"), step("B", "fold"),
    step("C", "look"), step("C", "stake", 2, least=2),
    step("D", "look"), step("D", "stake", 2, least=2),
    step("A", "stake", 2, least=2, see=None),
]

# 2. A stakes 2, B folds, C stakes 4, D folds: A may see C for 8, stake at
#    least 4, or fold.  If A stakes 4, C may see for 8, stake at least 4, or fold.
EXAMPLE_2 = [
    step("A", "look"), step("A", "stake", 2, least=1, see=None),
    step("B", "look"), step("B", "fold"),
    step("C", "look"), step("C", "stake", 4, least=2, see=None),
    step("D", "look"), step("D", "fold", least=4, see=None),
    step("A", "stake", 4, least=4, see=8, kinds_in=("stake", "see", "fold")),
    step("C", "see", least=4, see=8, kinds_in=("stake", "see", "fold")),
]


def _example_3():
    s = []
    # round 1: A 1, B 1, C 1, D folds, E 2 (everyone looks on their first turn)
    s += [step("A", "look"), step("A", "stake", 1, least=1),
          step("B", "look"), step("B", "stake", 1, least=1),
          step("C", "look"), step("C", "stake", 1, least=1),
          step("D", "look"), step("D", "fold", least=1),
          step("E", "look"), step("E", "stake", 2, least=1)]
    # rounds 2-3: A, B, C, E 2 each
    for _ in range(2):
        s += [step(p, "stake", 2, least=2, see=None) for p in "ABCE"]
    # round 4: A 2, B folds, C 2, E 5
    s += [step("A", "stake", 2, least=2), step("B", "fold", least=2),
          step("C", "stake", 2, least=2), step("E", "stake", 5, least=2, see=None)]
    # rounds 5-6: A, C, E 5
    for _ in range(2):
        s += [step(p, "stake", 5, least=5, see=None) for p in "ACE"]
    # round 7: A 5, C folds, E 10
    s += [step("A", "stake", 5, least=5, see=None), step("C", "fold", least=5, see=None),
          step("E", "stake", 10, least=5, see=10)]
    # rounds 8-9: A 10, E 10
    for _ in range(2):
        s += [step("A", "stake", 10, least=10, see=20), step("E", "stake", 10, least=10, see=20)]
    # round 10: A pays 20 to see E
    s += [step("A", "see", least=10, see=20)]
    return s


EXAMPLE_3 = _example_3()


def _example_4():
    s = []
    # round 1: A 1 (open), B 1 (blind), C 2, D 1 (blind), E 2
    s += [step("A", "look"), step("A", "stake", 1, least=1),
          step("B", "stake", 1, least=1),
          step("C", "look"), step("C", "stake", 2, least=1),
          step("D", "stake", 1, least=1),
          step("E", "look"), step("E", "stake", 2, least=2)]
    # rounds 2-3: A 2, B 1 (blind), C 2, D 1 (blind), E 2
    for _ in range(2):
        s += [step("A", "stake", 2, least=2), step("B", "stake", 1, least=1), step("C", "stake", 2, least=2),
              step("D", "stake", 1, least=1), step("E", "stake", 2, least=2)]
    # round 4: A 2, B 1 (blind), C 4, D 2 (blind), E folds
    s += [step("A", "stake", 2, least=2), step("B", "stake", 1, least=1), step("C", "stake", 4, least=2),
          step("D", "stake", 2, least=2), step("E", "fold", least=4)]
    # round 5: A 4, B 5 (blind), C 10, D folds
    s += [step("A", "stake", 4, least=4), step("B", "stake", 5, least=2), step("C", "stake", 10, least=10),
          step("D", "fold", least=5, see=None)]
    # round 6: A folds, B 5 (blind), C 10 -- C may not see B
    s += [step("A", "fold", least=10, see=None),
          step("B", "stake", 5, least=5, see=10, kinds_in=("see", "stake", "fold", "look")),
          step("C", "stake", 10, least=10, see=None, kinds_in=("stake", "fold"), kinds_out=("see",))]
    # round 7: B 5 (blind), C 10
    s += [step("B", "stake", 5, least=5, see=10), step("C", "stake", 10, least=10, see=None, kinds_out=("see",))]
    # round 8: B pays 10 to see C
    s += [step("B", "see", least=5, see=10)]
    return s


EXAMPLE_4 = _example_4()

EXAMPLES = {
    # name: (players, hands, dealer so that A acts first, steps)
    "example_1": (PLAYERS_4, HANDS_4, 3, EXAMPLE_1),
    "example_2": (PLAYERS_4, HANDS_4, 3, EXAMPLE_2),
    "example_3": (PLAYERS_5, HANDS_5, 4, EXAMPLE_3),
    "example_4": (PLAYERS_5, HANDS_5, 4, EXAMPLE_4),
}


def staked_in_rounds(steps, player, upto_step):
    """Chips ``player`` staked in the first ``upto_step`` steps."""
    return sum(a for p, k, a, _ in steps[:upto_step] if p == player and k == "stake")
