"""The optional extras of prial and the modules each brings: one list,
for the one-line message a command or a lazily loaded name gives when an
extra is not installed."""

from __future__ import annotations

# module (its top-level package) -> the extra that installs it
EXTRAS = {"pyarrow": "logs", "dask": "dask", "distributed": "dask", "pandas": "dask", "matplotlib": "report"}


def missing_extra(exc: BaseException) -> str | None:
    """What to tell a user whose ``exc`` is a missing extra's module; None
    for any other error."""
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        top = exc.name.split(".")[0]
        if top in EXTRAS:
            return f"this needs {top}, which is not installed: pip install \"prial[{EXTRAS[top]}]\""
    return None
