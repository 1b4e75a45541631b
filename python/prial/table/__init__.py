"""The betting table: a deal of Brag, four- or five-card Brag, Teen Patti
or draw Brag from the ante to the pot (docs/rules.md, "10. The
betting")."""

from ..errors import IllegalActionError
from .batch import CODES, ENDINGS, STATUSES, ReplayResult, deals_as_arrays, replay_batch, self_play
from .deal import Deal
from .history import History, Outcome, from_record, history_schema, read_record, record_of, to_record
from .records import Action, DealResult, Event, Pot, PotResult, Seat, View
from .replay import FINDINGS, Finding, replay_histories
from .rules import GAMES, TableRules
from .sampling import FAULTS, Fault, Sampled, sample_histories
from .simulation import PolicyResult, Simulation, simulate

__all__ = ["CODES", "ENDINGS", "FAULTS", "FINDINGS", "GAMES", "STATUSES", "Action", "Deal", "DealResult", "Event",
           "Fault", "Finding", "History", "IllegalActionError", "Outcome", "PolicyResult", "Pot", "PotResult",
           "ReplayResult", "Sampled", "Seat", "Simulation", "TableRules", "View", "deals_as_arrays", "from_record",
           "history_schema", "read_record", "record_of", "replay_batch", "replay_histories", "sample_histories",
           "self_play", "simulate", "to_record"]
