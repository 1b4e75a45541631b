"""Typed faces of the native functions prial makes public.

``inspect.signature`` reads a native function's parameters from its text
signature, the first line of the docstring that cpp/bindings writes
(``evaluate(self, hand)``); CPython refuses annotations there, so a native
function's signature can name its parameters but never give their types.
Each public native function is therefore reached through a one-line
Python function with the same parameters, annotated, which calls it:
``face_of(native)`` gives that function the native docstring, so the words
stay with the C++ and the types are here (the cost: one Python call,
tens of nanoseconds on calls of hundreds).  A test holds the parameters of
each face equal to the native function's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])


def face_of(native: Callable[..., object]) -> Callable[[F], F]:
    """A decorator: the function it decorates is the typed face of ``native``."""

    def face(function: F) -> F:
        function.__doc__ = native.__doc__
        return function

    return face
