# SPDX-License-Identifier: Apache-2.0
"""Run a wrapper module's Python ``call`` and its planned call on the same
inputs and record what each did: every call of an instrumented global (op,
argument provenance, sizes) and every tensor's end, in the order they happen.

Tensors are labelled in the order they are first seen (inputs ``in<i>``, then
``t<n>``); a ``weakref.finalize`` on each records ``("dead", label)`` when its
last reference goes, so two traces are equal only if both runs dropped every
tensor at the same point between the same ops (what the caching allocator
sees: allocation, free, reuse).
"""

from __future__ import annotations

import importlib.util
import itertools
import pathlib
import weakref

import torch

WRAPPERS = pathlib.Path(__file__).resolve().parent.parent / "data" / "wrappers"
_count = itertools.count()


def load(relative: str, inject: dict | None = None):
    """A fresh module of ``tests/data/wrappers/<relative>`` (its own globals and call slots)."""
    path = WRAPPERS / relative
    spec = importlib.util.spec_from_file_location(f"_wrapper_{next(_count)}", path)
    module = importlib.util.module_from_spec(spec)
    vars(module).update(inject or {})
    spec.loader.exec_module(module)
    return module


class Recorder:
    def __init__(self) -> None:
        self.events: list[tuple] = []
        self._labels: dict[int, str] = {}
        self._next = 0

    def label(self, tensor: torch.Tensor, name: str | None = None) -> str:
        key = id(tensor)
        if key not in self._labels:
            if name is None:
                name = f"t{self._next}"
                self._next += 1
            self._labels[key] = name
            weakref.finalize(tensor, self._dead, key, name)
        return self._labels[key]

    def _dead(self, key: int, name: str) -> None:
        self._labels.pop(key, None)
        self.events.append(("dead", name))

    def describe(self, value: object) -> object:
        if isinstance(value, torch.Tensor):
            return (self.label(value), tuple(value.shape), tuple(value.stride()))
        if isinstance(value, (list, tuple)):
            return type(value)(self.describe(v) for v in value)
        if isinstance(value, (int, float, str, bool, type(None))):
            return value
        return f"<{type(value).__name__}>" if callable(value) else repr(value)

    def wrap(self, name: str, fn):
        def recorded(*args, **kwargs):
            self.events.append(("call", name, self.describe(args),
                                tuple(sorted((k, self.describe(v)) for k, v in kwargs.items()))))
            result = fn(*args, **kwargs)
            self.events.append(("result", name, self.describe(result)))
            return result

        return recorded


class RecordedKernel:
    """A Triton-like kernel object: ``run(*args, stream=...)`` recorded, then ``body``."""

    def __init__(self, recorder: Recorder, name: str, body) -> None:
        self.run = recorder.wrap(name + ".run", body)


EXTERN = ("mm", "addmm", "bmm", "baddbmm", "convolution")


def instrument(module, recorder: Recorder, names: tuple[str, ...]) -> None:
    """Replace the module globals ``names`` (and ``extern_kernels``'s kernels) with recorders."""
    from torch._inductor.select_algorithm import KernelNamespace, extern_kernels

    scope = vars(module)
    for name in names:
        scope[name] = recorder.wrap(name, scope[name])
    if "extern_kernels" in scope:
        recorded = KernelNamespace()  # the namespace type: the program resolves it once
        for name in EXTERN:
            setattr(recorded, name, recorder.wrap(f"extern_kernels.{name}",
                                                  getattr(extern_kernels, name)))
        scope["extern_kernels"] = recorded


def run(call, recorder: Recorder, inputs: list) -> object:
    """``call`` on fresh clones of ``inputs`` (the list holds their only references)."""
    args = [t.clone() if isinstance(t, torch.Tensor) else t for t in inputs]
    for i, t in enumerate(args):
        if isinstance(t, torch.Tensor):
            recorder.label(t, f"in{i}")
    result = call(args)
    recorder.events.append(("returned",))
    return result


def assert_bit_equal(expected: object, actual: object) -> None:
    assert type(expected) is type(actual), (type(expected), type(actual))
    if isinstance(expected, torch.Tensor):
        assert expected.dtype == actual.dtype and expected.shape == actual.shape
        assert expected.stride() == actual.stride()
        assert torch.equal(expected, actual)
    elif isinstance(expected, (list, tuple)):
        assert len(expected) == len(actual)
        for e, a in zip(expected, actual):
            assert_bit_equal(e, a)
    else:
        assert expected == actual
