"""with_preset (a log row's game): a ruleset under another preset takes
that preset's own wild cards where it kept its own preset's."""

from __future__ import annotations

from prial import Rules
from prial.rules import with_preset


def test_the_braggers_follow_the_preset():
    assert with_preset(Rules(preset="classic"), "brag").wild_cards == frozenset()
    assert with_preset(Rules(), "classic") == Rules(preset="classic")
    nine = with_preset(Rules(preset="classic", wild="bragger_nine"), "brag")
    assert nine.wild == "bragger_nine" and len(nine.wild_cards) == 2
    assert with_preset(Rules(wild="deuces", lowball=True), "classic").wild == "deuces"
