"""Scoring logs of played hands (``prial score``) and sample logs to try it on.

- ``job``: ``score_file``, one job on either engine;
- ``local_engine`` and ``dask_engine``: where the chunks are scored, by
  the kernel and the pass of ``prial.logs`` (reading, typing, chunking,
  adjudicating, progress), which ``prial.audit`` stands on too;
- ``parts``: a scored chunk's tallies, and the errors file and summary
  made from the parts (the parts directory, resuming, one job per output
  and what a job may write are ``prial.logs``'s: ``journal``,
  ``fingerprint``, ``lock``, ``targets``); ``targets``: a job already
  complete, told by its summary;
- ``types``: the summary, and the public names of the options and the
  error;
- ``sample``: sample deal logs, fair or dealt with a ``Bias``;
  ``sample_laid``: sample logs of laid hands (nine-card Brag, Crash).

The names below load their module (and pyarrow) on first use.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_names, public_dir

if TYPE_CHECKING:
    from ..logs.progress import Progress
    from .job import score_file
    from .sample import Bias, sample_deals, write_sample_log
    from .sample_laid import sample_laid_deals
    from .types import ScoreError, ScoreOptions, ScoreSummary

_HOME = {"score_file": "job", "Progress": "types", "Bias": "sample", "sample_deals": "sample",
         "sample_laid_deals": "sample_laid", "write_sample_log": "sample", "ScoreError": "types",
         "ScoreOptions": "types", "ScoreSummary": "types"}

__all__ = ["Bias", "Progress", "ScoreError", "ScoreOptions", "ScoreSummary", "sample_deals", "sample_laid_deals",
           "score_file", "write_sample_log"]


# Hidden from type checkers, which see the TYPE_CHECKING imports above: to
# them a module __getattr__ makes every misspelt prial.score.name an Any.
if not TYPE_CHECKING:
    __getattr__ = lazy_names(__name__, _HOME, globals())
    __dir__ = public_dir(globals())
