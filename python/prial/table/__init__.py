"""The betting table: a deal of Brag, four- or five-card Brag or Teen
Patti from the ante to the pot (docs/rules.md, "10. The betting")."""

from ..errors import IllegalActionError
from .batch import CODES, ENDINGS, STATUSES, ReplayResult, deals_as_arrays, replay_batch, self_play
from .deal import Deal
from .history import History, Outcome, from_record, history_schema, read_record, to_record
from .records import Action, DealResult, Event, Pot, PotResult, Seat, View
from .rules import GAMES, TableRules
from .simulation import PolicyResult, Simulation, simulate

__all__ = ["CODES", "ENDINGS", "GAMES", "STATUSES", "Action", "Deal", "DealResult", "Event", "History",
           "IllegalActionError", "Outcome", "PolicyResult", "Pot", "PotResult", "ReplayResult", "Seat", "Simulation",
           "TableRules", "View", "deals_as_arrays", "from_record", "history_schema", "read_record", "replay_batch",
           "self_play", "simulate", "to_record"]
