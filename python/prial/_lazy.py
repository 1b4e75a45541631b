"""Names a package loads from its submodules on first use (so that
``import prial`` does not load pyarrow, matplotlib or the gRPC stack)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ._extras import missing_extra


def lazy_names(package: str, homes: dict[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that imports each name of
    ``homes`` from its submodule (``{"score_file": "job"}``) when first
    asked for, and keeps it in ``namespace`` as a plain attribute: later
    uses skip the hook, and what reads the namespace (pdoc) finds it."""

    def __getattr__(name: str) -> Any:
        if name not in homes:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        try:
            value = namespace[name] = getattr(importlib.import_module(f".{homes[name]}", package), name)
        except ModuleNotFoundError as exc:  # an extra not installed: say which, under the name asked for
            missing = missing_extra(exc)
            if missing is None:
                raise
            raise ModuleNotFoundError(f"{package}.{name}: {missing}", name=exc.name) from None
        return value

    return __getattr__


def public_dir(namespace: dict[str, Any]) -> Callable[[], list[str]]:
    """A module ``__dir__`` for the module whose globals are ``namespace``:
    its ``__all__`` (names loaded on first use included, which ``dir()``,
    tab completion and ``help()`` would otherwise miss) and its dunder
    attributes, but not the helpers its code imports (``Any``,
    ``TYPE_CHECKING``, ``warnings``)."""

    def __dir__() -> list[str]:
        dunders = {name for name in namespace if name.startswith("__") and name.endswith("__")}
        return sorted(dunders | set(namespace["__all__"]))

    return __dir__
