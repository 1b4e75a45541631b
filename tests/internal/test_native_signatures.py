"""The native module's callables: inspect.signature works on each (module
functions, methods, bound methods) with the parameter names of
prial/_core.pyi, and everything bound has a docstring."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import prial
from prial import _core

STUB = Path(_core.__file__).with_name("_core.pyi")
if not STUB.exists():  # an editable or source layout
    STUB = Path(__file__).parents[2] / "python" / "prial" / "_core.pyi"


def _params(node: ast.FunctionDef) -> list[str]:
    a = node.args
    return [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]


def _stub() -> tuple[dict[str, list[str]], dict[str, dict[str, list[str] | None]]]:
    """(functions: name -> parameters, classes: name -> {member: parameters, None for a property})."""
    functions: dict[str, list[str]] = {}
    classes: dict[str, dict[str, list[str] | None]] = {}
    for node in ast.parse(STUB.read_text()).body:
        if isinstance(node, ast.FunctionDef):
            functions[node.name] = _params(node)
        elif isinstance(node, ast.ClassDef):
            members: dict[str, list[str] | None] = {}
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    is_property = any(isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list)
                    members[item.name] = None if is_property else _params(item)
            classes[node.name] = members
    return functions, classes


FUNCTIONS, CLASSES = _stub()
NATIVE = _core.Evaluator(prial.Rules()._config())


def _names(signature: inspect.Signature) -> list[str]:
    return list(signature.parameters)


def test_every_public_callable_is_in_the_stub():
    public = {name for name in dir(_core) if not name.startswith("_") and callable(getattr(_core, name))}
    assert public == set(FUNCTIONS) | set(CLASSES)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_module_function(name):
    function = getattr(_core, name)
    assert _names(inspect.signature(function)) == FUNCTIONS[name]
    assert function.__doc__ and function.__doc__.strip()


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_class(name):
    cls = getattr(_core, name)
    assert cls.__doc__ and cls.__doc__.strip()
    for member, params in CLASSES[name].items():
        attribute = inspect.getattr_static(cls, member)
        assert getattr(cls, member).__doc__.strip(), f"{name}.{member} has no docstring"
        if params is None:  # a property / read-only attribute
            assert not callable(attribute) or hasattr(attribute, "__get__")
            continue
        assert _names(inspect.signature(getattr(cls, member))) == params, f"{name}.{member}"


def test_class_signatures():
    assert _names(inspect.signature(_core.Evaluator)) == CLASSES["Evaluator"]["__init__"][1:]
    assert _names(inspect.signature(_core.RulesConfig)) == CLASSES["RulesConfig"]["__init__"][1:]


# What prial.Evaluator offers as methods, the native module offers as
# functions taking the evaluator first.
OPERATIONS = ("evaluate", "evaluate_batch", "best_of", "best_of_batch", "partition", "partition_batch")


def test_evaluator_operations_take_the_evaluator_first():
    # One form: a native Evaluator has its constructor and properties only.
    assert [m for m, p in CLASSES["Evaluator"].items() if p is not None] == ["__init__"]
    for name, params in FUNCTIONS.items():
        if "evaluator" in params:
            assert params[0] == "evaluator", name
    for name in OPERATIONS:
        assert FUNCTIONS[name][0] == "evaluator"
        assert not hasattr(NATIVE, name)


@pytest.mark.parametrize("name", OPERATIONS)
def test_bound_methods(name):
    expected = FUNCTIONS[name][1:]  # without the evaluator
    assert _names(inspect.signature(getattr(prial.Evaluator(), name))) == expected


def test_public_module_functions_of_prial():
    assert _names(inspect.signature(prial.evaluate)) == ["hand"]
    assert _names(inspect.signature(prial.evaluate_batch)) == ["hands", "threads", "cancel"]


def test_defaults_and_kinds():
    sig = inspect.signature(_core.partition_batch)
    assert sig.parameters["hands"].default == 4
    assert sig.parameters["objective"].default == "lexicographic"
    assert sig.parameters["min_category"].default is None
    assert sig.parameters["crash_value"].default == 0.0
    assert sig.parameters["threads"].kind is inspect.Parameter.KEYWORD_ONLY
    sig = inspect.signature(_core.showdown_batch)
    assert sig.parameters["threads"].kind is inspect.Parameter.KEYWORD_ONLY
    assert sig.parameters["threads"].default is None
    for p in inspect.signature(_core.RulesConfig).parameters.values():
        assert p.kind is inspect.Parameter.KEYWORD_ONLY


def test_signatures_are_not_in_the_docstrings():
    assert not _core.evaluate.__doc__.startswith("evaluate(")
    assert _core.showdown_batch.__text_signature__.startswith("(evaluator, ")


@pytest.mark.parametrize("face, native", [
    (prial.parse_cards, _core.parse_cards),
    (prial.format_cards, _core.format_cards),
    *[(getattr(prial.Evaluator, name), getattr(_core, name))
      for name in ("evaluate", "evaluate_batch", "best_of", "best_of_batch")],
])
def test_a_typed_face_has_its_native_functions_parameters_and_words(face, native):
    typed, bare = list(inspect.signature(face).parameters.values()), list(inspect.signature(native).parameters.values())
    if bare[0].name == "evaluator":  # a method's face: self in its place
        assert typed[0].name == "self"
        typed, bare = typed[1:], bare[1:]
    assert [(p.name, p.kind, p.default) for p in typed] == [(p.name, p.kind, p.default) for p in bare]
    assert face.__doc__ == native.__doc__
