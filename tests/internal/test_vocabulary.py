"""Every vocabulary is written once and the other places follow it: the
options' choices are the native enums', the type hints list the same
names, the gRPC enums map to them one to one, the CLI offers them, the
Category numbers are the core's and the proto's."""

from __future__ import annotations

import argparse
import typing

import pytest

import prial
from prial import _core
from prial import rules as rules_module
from prial.cli import build_parser
from prial.evaluator import OBJECTIVES
from prial.play.casino import GAMES
from prial._wire import convert
from prial.v1 import prial_pb2 as pb

OPTIONS = [  # (choices, type hint, proto enum, mapping, CLI flag)
    (tuple(rules_module.PRESETS), rules_module.Preset, pb.Preset, convert.PRESETS, "--rules"),
    (rules_module.ACE_TWO_THREE, rules_module.AceTwoThree, pb.AceTwoThree, convert.ACE_TWO_THREE, "--ace-two-three"),
    (rules_module.TOP_PRIAL, rules_module.TopPrial, pb.TopPrial, convert.TOP_PRIAL, "--top-prial"),
    (rules_module.WILD_TIES, rules_module.WildTies, pb.WildTies, convert.WILD_TIES, "--wild-ties"),
]


def test_rule_choices_are_the_native_enums():
    assert rules_module.ACE_TWO_THREE == tuple(_core.AceTwoThree.__members__) == ("top", "second", "bottom")
    assert rules_module.TOP_PRIAL == tuple(_core.TopPrial.__members__)
    assert rules_module.WILD_TIES == tuple(_core.WildTies.__members__)
    assert OBJECTIVES == tuple(_core.Objective.__members__)
    assert rules_module.MAX_JOKERS == 3


@pytest.mark.parametrize("choices, hint, proto_enum, mapping, flag", OPTIONS, ids=[o[-1] for o in OPTIONS])
def test_each_option_is_one_vocabulary(choices, hint, proto_enum, mapping, flag):
    assert typing.get_args(hint) == choices
    # Every proto value but UNSPECIFIED names one choice, and every choice has one.
    named = {number: option for number, option in mapping.items() if number != 0}
    assert sorted(named.values()) == sorted(choices)
    assert set(proto_enum.values()) == set(mapping)
    assert sorted(cli_choices(flag)) == sorted(choices)


def test_objectives_and_games_map_one_to_one():
    for choices, proto_enum, mapping in ((OBJECTIVES, pb.Objective, convert.OBJECTIVES),
                                         (GAMES, pb.Game, convert.GAMES)):
        assert set(proto_enum.values()) == set(mapping)
        assert sorted(v for k, v in mapping.items() if k) == sorted(choices)
    assert sorted(cli_choices("--objective", "partition")) == sorted(OBJECTIVES)


def test_categories_are_one_numbering():
    assert {c.name: c.value for c in prial.Category} == dict(pb.Category.items())
    assert [int(c) for c in prial.Evaluator().category_order] == [5, 4, 3, 2, 1, 0]


def cli_choices(flag: str, command: str = "rank") -> list[str]:
    subcommands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    action = next(a for a in subcommands.choices[command]._actions if flag in a.option_strings)
    return list(action.choices)
