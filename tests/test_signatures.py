"""Every public callable of prial shows its parameters' types and its
result's in ``inspect.signature``, the native ones (evaluate, best_of,
parse_cards ...) included, and the types name real objects."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator

import pytest

import prial

# Names whose annotations refer to modules loaded on first use (pandas, pyarrow).
LAZY = {"audit_file", "audit_table", "score_file", "sample_deals", "write_sample_log"}


def public_callables() -> Iterator[tuple[str, Callable[..., object]]]:
    """prial's functions, and the methods its public classes define themselves
    (not those inherited from int, tuple or Exception)."""
    for name in prial.__all__:
        value = getattr(prial, name)
        if isinstance(value, type):
            for member in dir(value):
                if member.startswith("_") and member != "__init__":
                    continue
                owner = next((k for k in value.__mro__ if member in vars(k)), None)
                if owner is None or not owner.__module__.startswith("prial"):
                    continue
                attribute = inspect.getattr_static(value, member)
                if isinstance(attribute, (property, type)) or not callable(getattr(value, member)):
                    continue
                if member == "__init__" and owner.__module__ == "prial._core":
                    continue  # a native class's constructor is not part of the API here
                yield f"{name}.{member}", getattr(value, member)
        elif callable(value):
            yield name, value


CALLABLES = dict(public_callables())
NATIVE = ["evaluate", "evaluate_batch", "best_of", "best_of_batch", "parse_cards", "format_cards",
          "Evaluator.evaluate", "Evaluator.evaluate_batch", "Evaluator.best_of", "Evaluator.best_of_batch"]


def test_the_native_functions_are_among_them():
    assert set(NATIVE) <= set(CALLABLES)
    assert len(CALLABLES) > 60


@pytest.mark.parametrize("name", sorted(CALLABLES))
def test_every_parameter_and_result_is_annotated(name):
    signature = inspect.signature(CALLABLES[name])
    missing = [p.name for p in signature.parameters.values()
               if p.annotation is inspect.Parameter.empty and p.name not in ("self", "cls")
               and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    assert missing == [], f"{name}{signature}"
    # Its result's type too, for every function written in Python (the typed
    # faces of native ones included); CancelFlag.cancel, native and without
    # parameters, shows none.
    function = getattr(CALLABLES[name], "__func__", CALLABLES[name])
    if inspect.isfunction(function) and not name.endswith("__init__"):
        assert signature.return_annotation is not inspect.Signature.empty, f"{name}{signature}"


@pytest.mark.parametrize("name", NATIVE)
def test_the_native_functions_types_resolve(name):
    signature = inspect.signature(CALLABLES[name], eval_str=True)
    for parameter in signature.parameters.values():
        assert not isinstance(parameter.annotation, str), (name, parameter)
    assert not isinstance(signature.return_annotation, str)
    assert CALLABLES[name].__doc__ and "--" not in CALLABLES[name].__doc__.splitlines()[0]


def test_the_native_signatures_read_as_written():
    assert str(inspect.signature(prial.evaluate)) == "(hand: 'CardsLike') -> 'HandValue'"
    assert str(inspect.signature(prial.parse_cards)) == "(text: 'str') -> 'list[int]'"
    assert str(inspect.signature(prial.best_of_batch)) == (
        "(hands: 'npt.NDArray[np.uint8]', *, threads: 'int | None' = None, cancel: 'CancelFlag | None' = None)"
        " -> 'npt.NDArray[np.uint32]'")
    # And they are the native functions still: the same answers and errors.
    assert prial.evaluate("3s 2h Ah").description == "Run, 3-2-A"
    assert prial.parse_cards("3s 2h Ah") == [7, 2, 50]
    with pytest.raises(prial.InvalidHandError, match="unknown rank 'Z'"):
        prial.best_of("Zs 2h Ah 4c")
    with pytest.raises(TypeError):
        prial.evaluate_batch(prial.random_hands(2), 1)  # threads is keyword-only
