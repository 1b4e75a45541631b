"""Scoring logs of played hands (``prial score``) and sample logs to try it on.

- ``job``: ``score_file``, one job on either engine;
- ``local_engine`` and ``dask_engine``: where the chunks are scored;
- ``chunk``: the kernel shared by both (cards, strengths, categories);
- ``adjudicate``: deals found and decided;
- ``columns``: the log's columns; ``formats``: the file formats;
  ``io``: readers and writers;
- ``parts``: the parts directory, its journal and the output writer;
- ``types``: options, summary and the job's error; ``progress``: how far
  a job is, on stderr;
- ``sample``: sample deal logs, fair or dealt with a ``Bias``.

The names below load their module (and pyarrow) on first use, so that
``prial.score.formats`` stays cheap to import for the command line.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_names, public_dir

if TYPE_CHECKING:
    from .job import score_file
    from .progress import Progress
    from .sample import Bias, sample_deals, write_sample_log
    from .types import ScoreError, ScoreOptions, ScoreSummary

_HOME = {"score_file": "job", "Progress": "progress", "Bias": "sample", "sample_deals": "sample",
         "write_sample_log": "sample", "ScoreError": "types", "ScoreOptions": "types", "ScoreSummary": "types"}

__all__ = ["Bias", "Progress", "ScoreError", "ScoreOptions", "ScoreSummary", "sample_deals", "score_file",
           "write_sample_log"]


# Hidden from type checkers, which see the TYPE_CHECKING imports above: to
# them a module __getattr__ makes every misspelt prial.score.name an Any.
if not TYPE_CHECKING:
    __getattr__ = lazy_names(__name__, _HOME, globals())
    __dir__ = public_dir(globals())
