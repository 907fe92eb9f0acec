"""Export with dynamic shapes and compare with torch at several sizes: the one place the
dynamic-shape suites (symbolic arithmetic, OpInfo samples, real models, control flow)
export, check and run models."""

from __future__ import annotations

import contextlib
import copy
import inspect
import logging
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
import torch

TOLERANCE = 1e-4
"""Largest difference from torch allowed, relative to the output's scale."""


_REGISTRIES: dict[tuple[Any, ...], Any] = {}


@contextlib.contextmanager
def reused_torch_registry() -> Iterator[None]:
    """Within it, torch.onnx reuses the registry it builds of our functions: it builds one
    anew on every export, reading the signature of each of ~2,000 functions (a third of a
    small export's time). Reused only for the same opset and the same registered functions
    (a function registered later makes a new one), and copied each time, so what an export
    adds to it stays in that export; what an export computes is unchanged."""
    from torch.onnx._internal.exporter import _registration

    from onnxscript.function_libs.torch_lib.registration import registered_ops

    original = _registration.ONNXRegistry.__dict__["from_torchlib"]

    def from_torchlib(cls: Any, opset_version: Any = None, **kwargs: Any) -> Any:
        if opset_version is None:
            opset_version = original.__func__.__defaults__[0]
        key = (
            cls,
            opset_version,
            tuple(kwargs.items()),
            *((r.qualified_name, id(r.function), r.is_complex) for r in registered_ops()),
        )
        if key not in _REGISTRIES:
            _REGISTRIES[key] = original.__func__(cls, opset_version, **kwargs)
        registry = copy.copy(_REGISTRIES[key])
        registry.functions = {k: list(v) for k, v in registry.functions.items()}
        return registry

    _registration.ONNXRegistry.from_torchlib = classmethod(from_torchlib)
    try:
        yield
    finally:
        _registration.ONNXRegistry.from_torchlib = original


def export(
    module: torch.nn.Module,
    args: tuple[Any, ...],
    dynamic_shapes: Any = None,
    *,
    optimize: bool = True,
    kwargs: dict[str, Any] | None = None,
) -> Any:
    """``torch.onnx.export(dynamo=True)`` with torch's log quiet; the ONNXProgram."""
    logging.disable(logging.WARNING)
    try:
        with reused_torch_registry():
            return torch.onnx.export(
                module,
                args,
                kwargs=kwargs,
                dynamic_shapes=dynamic_shapes,
                dynamo=True,
                optimize=optimize,
                verbose=False,
            )
    finally:
        logging.disable(logging.NOTSET)


def export_program(program: Any, args: tuple[Any, ...], *, optimize: bool = True) -> Any:
    """A ``torch.export`` program (captured already, with its dynamic dims) through
    ``torch.onnx.export(dynamo=True)``, torch's log quiet; the ONNXProgram."""
    logging.disable(logging.WARNING)
    try:
        with reused_torch_registry():
            return torch.onnx.export(program, args, dynamo=True, optimize=optimize, verbose=False)
    finally:
        logging.disable(logging.NOTSET)


def flat_tensors(value: Any) -> list[torch.Tensor]:
    """The tensors of a (nested) output, in order; numbers as 0-d tensors."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for item in value for t in flat_tensors(item)]
    if isinstance(value, dict):
        return [t for item in value.values() for t in flat_tensors(item)]
    if hasattr(value, "to_tuple"):  # transformers' ModelOutput
        return flat_tensors(value.to_tuple())
    return [torch.as_tensor(value)]


def numpy_of(tensor: torch.Tensor) -> np.ndarray:
    """A tensor as torch.onnx represents it (complex as real pairs on a last axis)."""
    tensor = tensor.detach().resolve_conj().resolve_neg()
    return (torch.view_as_real(tensor) if tensor.is_complex() else tensor).numpy()


@dataclass
class Difference:
    """How far the ONNX outputs are from torch's: the worst relative difference over all
    outputs, or what did not match (shape, count, element type)."""

    relative: float
    mismatch: str = ""

    @property
    def ok(self) -> bool:
        return not self.mismatch and self.relative <= TOLERANCE


def compare(got: Sequence[np.ndarray], expected: Sequence[np.ndarray]) -> Difference:
    if len(got) != len(expected):
        return Difference(float("inf"), f"{len(got)} outputs, torch gives {len(expected)}")
    worst = 0.0
    for index, (g, e) in enumerate(zip(got, expected)):
        g = np.asarray(g)
        if g.shape != e.shape:
            return Difference(float("inf"), f"output {index}: shape {g.shape}, torch {e.shape}")
        if e.dtype == np.bool_ or np.issubdtype(e.dtype, np.integer):
            if not np.array_equal(g.astype(e.dtype), e):
                return Difference(float("inf"), f"output {index}: values differ")
            continue
        if e.size == 0:
            continue
        scale = max(float(np.nanmax(np.abs(e))), 1e-6)
        finite = np.isfinite(e)
        if not np.array_equal(finite, np.isfinite(g)):
            return Difference(float("inf"), f"output {index}: non-finite values differ")
        diff = float(np.max(np.abs(g[finite].astype(np.float64) - e[finite]), initial=0.0))
        worst = max(worst, diff / scale)
    return Difference(worst)


def run_onnx(model: onnx.ModelProto, args: Sequence[torch.Tensor]) -> list[np.ndarray]:
    """The model run by onnxruntime on ``args`` (the model's inputs in order)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    session = onnxruntime.InferenceSession(model.SerializeToString(), options)
    names = [i.name for i in session.get_inputs()]
    if len(names) != len(args):
        raise ValueError(f"the model takes {len(names)} inputs, {len(args)} given")
    return session.run(None, {n: numpy_of(a) for n, a in zip(names, args)})


def onnx_session(model: onnx.ModelProto) -> Any:
    """An onnxruntime session of the model, its log quiet."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    return onnxruntime.InferenceSession(model.SerializeToString(), options)


def run_session(session: Any, args: Sequence[torch.Tensor]) -> list[np.ndarray]:
    """The session run on ``args`` (the model's inputs in order)."""
    names = [i.name for i in session.get_inputs()]
    if len(names) != len(args):
        raise ValueError(f"the model takes {len(names)} inputs, {len(args)} given")
    return list(session.run(None, {n: numpy_of(a) for n, a in zip(names, args)}))


def run_onnx_each(
    model: onnx.ModelProto, inputs: Sequence[Sequence[torch.Tensor]]
) -> list[list[np.ndarray]]:
    """The model run by onnxruntime on each tuple of ``inputs`` (one session)."""
    session = onnx_session(model)
    return [run_session(session, args) for args in inputs]


def check_at(
    program: Any, module: torch.nn.Module, inputs: Sequence[tuple[Any, ...]]
) -> list[Difference]:
    """The exported model against ``module`` on each tuple of ``inputs`` (tensors, in the
    order of the model's inputs; other sizes than the export's)."""
    model = program.model_proto
    results = []
    for args in inputs:
        with torch.no_grad():
            expected = [numpy_of(t) for t in flat_tensors(module(*args))]
        got = run_onnx(model, flat_tensors(args))
        results.append(compare(got, expected))
    return results


def all_dynamic(args: Sequence[Any]) -> tuple[Any, ...]:
    """A ``dynamic_shapes`` spec with every dim of every tensor argument dynamic
    (``Dim.DYNAMIC``: torch keeps relations between dims and refuses to export when
    the model fixes one)."""
    dynamic = torch.export.Dim.DYNAMIC
    return tuple(
        {axis: dynamic for axis in range(a.dim())} if isinstance(a, torch.Tensor) else None
        for a in args
    )


Dims = frozenset[tuple[int, int]]
"""Dims of a model's arguments, as ``(argument index, axis)`` pairs."""


def candidate_dims(args: Sequence[Any]) -> Dims:
    """The dims torch.export could keep dynamic: those of size 2 or more (it always
    specializes sizes 0 and 1)."""
    return frozenset(
        (index, axis)
        for index, a in enumerate(args)
        if isinstance(a, torch.Tensor)
        for axis in range(a.dim())
        if a.shape[axis] >= 2
    )


def dynamic_spec(module: torch.nn.Module, args: Sequence[Any], dims: Dims, hint: Any = None) -> Any:
    """A ``dynamic_shapes`` spec making ``dims`` dynamic (``hint``, ``Dim.DYNAMIC`` by
    default) and every other dim static; nested in one tuple when ``forward`` takes
    ``*args`` (torch matches the spec to the parameters)."""
    hint = torch.export.Dim.DYNAMIC if hint is None else hint
    spec = tuple(
        {axis: hint for axis in range(a.dim()) if (index, axis) in dims} or None
        if isinstance(a, torch.Tensor)
        else None
        for index, a in enumerate(args)
    )
    return (spec,) if _takes_varargs(module) else spec


def _takes_varargs(module: torch.nn.Module) -> bool:
    parameters = inspect.signature(module.forward).parameters.values()
    return any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters)


_NAMED_DIM = re.compile(r"(?:L\['(\w+)'\]|\w+)((?:\[\d+\])*)\.(?:size\(\)|shape)\[(\d+)\]")


def named_dims(error: BaseException, module: torch.nn.Module) -> Dims:
    """The dims of ``module``'s arguments an export error names: ``L['y'].size()[1]`` (a
    parameter), ``L['args'][1].size()[2]`` (the second of ``*args``) or
    ``inputs[1].shape[0]`` (the arguments in order)."""
    parameters = list(inspect.signature(module.forward).parameters.values())
    found = set()
    for name, indices, axis in _NAMED_DIM.findall(str(error)):
        numbers = [int(n) for n in re.findall(r"\d+", indices)]
        index = _argument_index(parameters, name, numbers)
        if index is not None:
            found.add((index, int(axis)))
    return frozenset(found)


def _argument_index(
    parameters: list[inspect.Parameter], name: str, numbers: list[int]
) -> int | None:
    """The position among the arguments of parameter ``name`` (``numbers``: the indices
    after it, the first of which picks an item of ``*args``); without a name, the first
    index is the position."""
    if not name:
        return numbers[0] if numbers else None
    for position, parameter in enumerate(parameters):
        if parameter.name != name:
            continue
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            return position + numbers[0] if numbers else None
        return position
    return None


@dataclass
class Capture:
    """A ``torch.export`` capture keeping as many dims dynamic as torch allows:
    ``dynamic`` the dims kept, ``fixed`` the candidates made static and why."""

    program: Any
    dynamic: Dims
    fixed: dict[tuple[int, int], str]


def capture_dynamic(module: torch.nn.Module, args: tuple[Any, ...]) -> Capture:
    """Capture with every candidate dim dynamic; where torch refuses, make static the
    dims its error names, else those ``Dim.AUTO`` specializes, else one dim at a time
    until capture succeeds. Raises torch's error when not even static shapes capture."""
    dims = candidate_dims(args)
    fixed: dict[tuple[int, int], str] = {}
    while dims:
        try:
            return Capture(_export_program(module, args, dims), dims, fixed)
        except Exception as error:
            reason = error_summary(error)
            named = named_dims(error, module) & dims
            if named:
                fixed |= dict.fromkeys(named, reason)
                dims -= named
                continue
            found = _auto_capture(module, args, dims) or _drop_one(module, args, dims)
            if found is None:
                fixed |= dict.fromkeys(dims, reason)
                break
            fixed |= dict.fromkeys(dims - found.dynamic, reason)
            return Capture(found.program, found.dynamic, fixed)
    return Capture(_export_program(module, args, frozenset()), frozenset(), fixed)


def _export_program(
    module: torch.nn.Module, args: tuple[Any, ...], dims: Dims, hint: Any = None
) -> Any:
    """Copies of the tensors are captured: torch.export marks the dims it is told are
    dynamic on the tensors themselves, which would hold for later captures."""
    logging.disable(logging.WARNING)
    try:
        spec = dynamic_spec(module, args, dims, hint) if dims else None
        return torch.export.export(module, _copies(args), dynamic_shapes=spec)
    finally:
        logging.disable(logging.NOTSET)


def _auto_capture(module: torch.nn.Module, args: tuple[Any, ...], dims: Dims) -> Capture | None:
    """``Dim.AUTO`` on ``dims``: torch specializes silently what it must; the capture
    and the dims that stayed symbolic, or None when it fails too."""
    try:
        program = _export_program(module, args, dims, torch.export.Dim.AUTO)
    except Exception:
        return None
    kept = symbolic_dims(program) & dims
    return Capture(program, kept, {}) if kept else None


def _drop_one(module: torch.nn.Module, args: tuple[Any, ...], dims: Dims) -> Capture | None:
    """The first capture with one dim of ``dims`` made static (at most a few tries)."""
    for dim in sorted(dims)[:MAX_SINGLE_TRIES]:
        rest = dims - {dim}
        try:
            return Capture(_export_program(module, args, rest), rest, {})
        except Exception:
            continue
    return None


MAX_SINGLE_TRIES = 4
"""Dims tried one by one when torch's error names none and ``Dim.AUTO`` fails too."""


def symbolic_dims(program: Any) -> Dims:
    """The dims of a program's user inputs that are symbolic."""
    from torch.export.graph_signature import InputKind

    user = [s for s in program.graph_signature.input_specs if s.kind == InputKind.USER_INPUT]
    nodes = {n.name: n for n in program.graph.nodes if n.op == "placeholder"}
    found = set()
    for index, spec in enumerate(user):
        value = nodes[spec.arg.name].meta.get("val")
        for axis, size in enumerate(getattr(value, "shape", ())):
            if _is_symbolic(size):
                found.add((index, axis))
    return frozenset(found)


def _is_symbolic(size: Any) -> bool:
    """A size that is a symbol's expression (torch may give a specialized dim as a
    SymInt of a number)."""
    return isinstance(size, torch.SymInt) and not size.node.expr.is_number


def error_summary(error: BaseException) -> str:
    """Why torch refused dynamic dims, briefly: the usual refusals by name, else the
    first informative line of the error."""
    text = str(error)
    for marker, summary in REFUSALS.items():
        if marker in text:
            return summary
    lines = [line.strip(" -") for line in text.splitlines() if line.strip(" -")]
    return " ".join((lines[0] if lines else type(error).__name__).split())[:200]


REFUSALS = {
    "specialized it to be a constant": "torch specializes the dim (the op needs its size)",
    "0/1 specialized": "torch specializes sizes 0 and 1",
    "data-dependent": "torch.export: data-dependent expression",
    "Not all values of": "torch.export: the op constrains the dim (a relation torch cannot keep)",
}
"""Markers of torch's usual refusals of a dynamic dim, with their summaries."""


GROWTH: tuple[tuple[str, Callable[[int], int]], ...] = (
    ("+1", lambda n: n + 1),
    ("x2", lambda n: 2 * n),
    ("+2", lambda n: n + 2),
)
"""Rules giving the symbols of a capture's dynamic dims new values."""

Sizes = dict[tuple[int, int], int]
"""New sizes of dims of a model's arguments."""


def resized(args: Sequence[Any], sizes: Sizes) -> tuple[Any, ...]:
    """``args`` with the dims of ``sizes`` made that long; the new elements repeat the old
    ones (indices stay in range, masks and domains stay valid), floating ones scaled by a
    factor per dim (no ties where the sample has none, for sorts and arg-extrema)."""
    result = []
    for index, a in enumerate(args):
        if isinstance(a, torch.Tensor):
            for axis in range(a.dim()):
                size = sizes.get((index, axis))
                if size is not None and size != a.shape[axis]:
                    a = _resize_axis(a, axis, size)
        result.append(a)
    return tuple(result)


def _resize_axis(tensor: torch.Tensor, axis: int, size: int) -> torch.Tensor:
    old = tensor.shape[axis]
    positions = torch.arange(size) % old
    grown = tensor.index_select(axis, positions)
    if tensor.is_floating_point() or tensor.is_complex():
        factor = torch.where(torch.arange(size) < old, 1.0, 1.0 - 2.0 ** -(axis + 4))
        shape = [1] * tensor.dim()
        shape[axis] = size
        grown = grown * factor.reshape(shape).to(grown.dtype)
    return grown


@dataclass
class _Symbolic:
    """A capture's dynamic dims as torch sees them: each dim's expression in the
    symbols (``s0``, ``2*s1``) and the symbols' values in the sample."""

    expressions: dict[tuple[int, int], Any]
    hints: dict[Any, int]

    @property
    def symbols(self) -> list[Any]:
        found = {s for e in self.expressions.values() for s in e.free_symbols}
        return sorted(found, key=str)

    def sizes(self, grow: Callable[[int], int], grown: Sequence[Any]) -> Sizes:
        """Each dim's size with the ``grown`` symbols given ``grow(hint)``."""
        values = {s: grow(v) if s in grown else v for s, v in self.hints.items()}
        return {dim: int(e.subs(values)) for dim, e in self.expressions.items()}


def _symbolic(program: Any, dims: Dims) -> _Symbolic:
    from torch.export.graph_signature import InputKind

    user = [s for s in program.graph_signature.input_specs if s.kind == InputKind.USER_INPUT]
    nodes = {n.name: n for n in program.graph.nodes if n.op == "placeholder"}
    expressions, hints = {}, {}
    for index, axis in dims:
        size = nodes[user[index].arg.name].meta["val"].shape[axis]
        if not _is_symbolic(size):
            continue
        expression = size.node.expr
        environment = size.node.shape_env
        known = getattr(environment, "backed_var_to_val", None) or environment.var_to_val
        if all(s in known for s in expression.free_symbols):
            expressions[(index, axis)] = expression
            hints |= {s: int(known[s]) for s in expression.free_symbols}
    return _Symbolic(expressions, hints)


def other_inputs(
    program: Any, module: torch.nn.Module, args: tuple[Any, ...], dims: Dims
) -> tuple[str, tuple[Any, ...]] | None:
    """Inputs of other sizes for a capture with ``dims`` dynamic, which both the module
    and the captured program (its guards) accept: every symbol of torch's (dims torch
    relates share one) given a new value by the first rule of :data:`GROWTH` that works,
    else as many symbols as work one by one. The rule's name ("+1", or "+1 on 2 of 3
    sizes") and the inputs; None when no rule gives valid inputs."""
    symbolic = _symbolic(program, dims)
    symbols = symbolic.symbols
    if not symbols:
        return None
    runnable = program.module()
    for name, grow in GROWTH:
        candidate = resized(args, symbolic.sizes(grow, symbols))
        if _accepted(candidate, module, runnable):
            return name, candidate
    for name, grow in GROWTH:
        chosen: list[Any] = []
        for symbol in symbols:
            candidate = resized(args, symbolic.sizes(grow, [*chosen, symbol]))
            if _accepted(candidate, module, runnable):
                chosen.append(symbol)
        if chosen:
            inputs = resized(args, symbolic.sizes(grow, chosen))
            return f"{name} on {len(chosen)} of {len(symbols)} sizes", inputs
    return None


def _accepted(candidate: tuple[Any, ...], *runs: Callable[..., Any]) -> bool:
    """Whether each of ``runs`` (the module, the captured program) takes ``candidate``."""
    try:
        with torch.no_grad():
            for run in runs:
                run(*_copies(candidate))
    except Exception:
        return False
    return True


def _copies(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """Copies of the tensors (an in-place op must not change the inputs compared later)."""
    return tuple(a.clone() if isinstance(a, torch.Tensor) else a for a in args)


__all__ = [
    "GROWTH",
    "TOLERANCE",
    "Capture",
    "Difference",
    "Dims",
    "Sizes",
    "all_dynamic",
    "candidate_dims",
    "capture_dynamic",
    "check_at",
    "compare",
    "dynamic_spec",
    "error_summary",
    "export",
    "export_program",
    "flat_tensors",
    "named_dims",
    "numpy_of",
    "onnx_session",
    "other_inputs",
    "resized",
    "run_onnx",
    "run_onnx_each",
    "run_session",
    "symbolic_dims",
]
