"""The Showdown RPC's response is encoded by the native core; it must be
the message the generic converter builds from prial.showdown's result."""

from __future__ import annotations

from hypothesis import given, settings

import prial
from prial import Evaluator, _core
from prial._wire.convert import cards_to_proto, result_to_proto
from prial.v1 import prial_pb2 as pb

from ..conftest import legal_showdowns
from ..test_grpc_rpcs import SHOWDOWNS


def _response_fields(message, prefix=""):
    """Names of the fields ``message`` sets, nested ones as a.b."""
    names = set()
    for field, value in message.ListFields():
        names.add(prefix + field.name)
        if field.message_type is not None and not field.message_type.GetOptions().map_entry:
            for item in (value if field.is_repeated else [value]):
                names |= _response_fields(item, f"{prefix}{field.name}.")
    return names


def _native_and_python_messages(players, options):
    expected = result_to_proto(prial.showdown(players, **options), pb.ShowdownResponse)
    # As the server passes them: the request's prial.v1.Player messages.
    request_players = [pb.Player(id=p.id, cards=cards_to_proto(p.cards, "cards"), blind=p.blind, stake=p.stake)
                       for p in players]
    encoded = _core.encode_showdown_response(
        Evaluator(options.get("rules")), request_players, options.get("seer"), options.get("coverer"), options.get("cards_per_hand", 0), options.get("pot", 0),
        options.get("old_pot", 0))
    return pb.ShowdownResponse.FromString(encoded), expected


@settings(max_examples=400, deadline=None)
@given(legal_showdowns())
def test_native_showdown_message_equals_the_python_results_message(table):
    """The Showdown RPC's response is encoded natively (cpp/service); it must
    be the message the generic converter builds from prial.showdown's result."""
    native, expected = _native_and_python_messages(*table)
    assert native == expected


def test_every_showdown_response_field_is_encoded():
    """The examples above set every field of the response between them, so
    a field the encoder misses (or a .proto change it does not follow)
    cannot go unnoticed."""
    exercised = set()
    for players, options in SHOWDOWNS:
        native, expected = _native_and_python_messages(players, options)
        assert native == expected
        exercised |= _response_fields(expected)
    every = {f.name for f in pb.ShowdownResponse.DESCRIPTOR.fields}
    every |= {f"hands.{f.name}" for f in pb.PlayerHand.DESCRIPTOR.fields}
    every |= {f"cover.{f.name}" for f in pb.CoverResult.DESCRIPTOR.fields}
    assert every - exercised == set()
