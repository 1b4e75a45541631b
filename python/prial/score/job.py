"""``prial score``: one job, on the local engine or on Dask."""

from __future__ import annotations

import os
from pathlib import Path

from ..logs.formats import detect_format, format_of_suffix
from ..logs.lock import JobLock
from ..logs.options import ScoreOptions, check_engine
from ..logs.progress import Progress
from ..logs.targets import check_existing, check_names
from .local_engine import score_local
from .types import ScoreError, ScoreSummary


def default_output(input_path: str, fmt: str) -> str:
    """INPUT.scored.EXT, EXT the input's own extension if it names ``fmt``
    (the output's format), else that format's (``hands.txt`` read as CSV
    gives ``hands.scored.csv``)."""
    path = Path(input_path)
    suffix = path.suffix if format_of_suffix(path.suffix) == fmt else f".{fmt}"
    return str(path.with_name(path.stem + ".scored" + suffix))


def score_file(
    input: str | os.PathLike[str],
    output: str | os.PathLike[str] | None = None,
    *,
    options: ScoreOptions | None = None,
    input_format: str | None = None,
    output_format: str | None = None,
    errors: str | None = None,
    resume: bool = False,
    overwrite: bool = False,
    progress: Progress | None = None,
    engine: str = "local",
    scheduler: str | None = None,
    workers: int = 2,
) -> ScoreSummary:
    """Scores a hand log; see README "Scoring hand logs".

    Writes ``output`` (format from its extension or ``output_format``), the
    errors file (CSV; default ``OUTPUT.errors.csv``) and ``OUTPUT.summary.json``.
    None of them may be the input; none that exists is replaced, nor a
    partial run in ``OUTPUT.parts`` discarded, without ``overwrite``
    (``resume`` continues a partial run, and does nothing for a complete
    one: ``already_complete`` is then set).  One job at a time writes an
    output: while one holds ``OUTPUT.lock``, another is refused, naming its pid.
    ``engine="local"``: this process, native threads, resumable.
    ``engine="dask"``: Dask partitions on ``scheduler`` (an address such as
    ``tcp://host:8786``) or on a LocalCluster of ``workers`` processes.
    ``progress``: where to show how far the job is (``Progress("bar")``,
    ``Progress("log")``, from ``prial.score``); nothing by default.
    """
    options = options or ScoreOptions()
    input = str(input)
    fmt_in = detect_format(input, input_format)
    output = str(output) if output is not None else default_output(input, output_format or fmt_in)
    fmt_out = detect_format(output, output_format)
    check_engine(engine)
    check_names(input, output, errors)
    if engine == "dask" and resume:
        raise ScoreError("--resume is for the local engine; a failed Dask job is simply rerun")
    with JobLock(output, "prial score"):
        check_existing(output, errors, overwrite=overwrite, resume=resume, job="scoring")
        if engine == "dask":
            # Named first when missing: the engine's own imports would
            # otherwise name pandas, which comes with it.
            import dask  # noqa: F401

            from .dask_engine import score_dask

            return score_dask(input, output, fmt_in, fmt_out, options, errors, scheduler, workers, progress)
        return score_local(input, output, fmt_in, fmt_out, options, errors, resume, progress)
