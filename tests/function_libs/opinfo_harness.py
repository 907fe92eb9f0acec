"""Run torch's OpInfo samples through our ATen library, two ways, and compare with torch.

- **exported**: a module calling the op on the sample is exported with
  ``torch.onnx.export(dynamo=True)`` (our functions, through torch's dispatcher) and run
  with onnxruntime;
- **eager**: the same module is captured with ``torch.export``, decomposed to the Core
  ATen IR, and its ATen graph is evaluated node by node by calling our functions on numpy
  arrays (onnxscript's eager mode).

Each sample ends as "pass", "fail: <why>" or "skip: <why>" (nothing to run: torch.export
cannot capture the sample, or the graph calls an operator the library leaves to torch).
Outputs of random ops and of `empty` (uninitialized) are compared by shape and element
type only.
"""

from __future__ import annotations

import functools
import logging
import operator
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from tests.function_libs import recorded_samples
from tests.function_libs.dynamic_export import reused_torch_registry
from tests.function_libs.opinfo_entries import OPS

ALL_ENTRIES = OPS + recorded_samples.ENTRIES
"""Every sample set the harness runs: the OpInfo entries, then the overloads whose
samples are recorded from torch's own calls (``call:<overload>``)."""

SAMPLES_PER_OP = 3
RTOL, ATOL = 1e-4, 1e-5


@dataclass
class Outcome:
    op: str
    sample: int
    mode: str
    result: str  # "pass", "fail: ...", "skip: ..."
    overloads: tuple[str, ...] = ()  # what the sample's graph called


@dataclass
class Verdict:
    result: str
    overloads: tuple[str, ...] = ()


def opinfos() -> dict[str, Any]:
    from torch.testing._internal.common_methods_invocations import op_db

    return {
        info.name + (f".{info.variant_test_name}" if info.variant_test_name else ""): info
        for info in op_db
    }


def entry_samples(
    name: str, infos: dict[str, Any], count: int = SAMPLES_PER_OP
) -> Iterator[tuple[int, torch.nn.Module, tuple[torch.Tensor, ...]]]:
    """The first ``count`` samples of an OpInfo entry (``name``, or ``name@complex64`` for
    its complex samples), or recorded from torch's calls of an overload
    (``call:<overload>``: ``count`` per OpInfo entry recorded)."""
    if name.startswith(recorded_samples.PREFIX):
        return recorded_samples.recorded_samples(name, infos, count)
    entry, _, dtype_name = name.partition("@")
    return samples(infos[entry], getattr(torch, dtype_name) if dtype_name else None, count)


class _OneOp(torch.nn.Module):
    """``op(*tensors, **kwargs)`` with the sample's tensors as the module's inputs."""

    def __init__(self, op: Any, template: list[Any], kwargs: dict[str, Any]) -> None:
        super().__init__()
        self.op, self.template, self.kwargs = op, template, kwargs

    def forward(self, *tensors: torch.Tensor) -> Any:
        given = iter(tensors)
        args = [next(given) if isinstance(a, torch.Tensor) else a for a in self.template]
        return self.op(*args, **self.kwargs)


def samples(
    info: Any, dtype: torch.dtype | None = None, count: int = SAMPLES_PER_OP
) -> Iterator[tuple[int, _OneOp, tuple[torch.Tensor, ...]]]:
    """The first ``count`` samples of ``dtype`` (float32 if the entry has it, else its
    first)."""
    if dtype is None:
        dtype = torch.float32 if torch.float32 in info.dtypes else sorted(info.dtypes, key=str)[0]
    for index, sample in enumerate(info.sample_inputs("cpu", dtype, requires_grad=False)):
        if index >= count:
            return
        template = [sample.input, *sample.args]
        if any(
            isinstance(a, (list, tuple)) and any(isinstance(t, torch.Tensor) for t in a)
            for a in template
        ):
            tensors = tuple(
                t
                for a in template
                for t in (a if isinstance(a, (list, tuple)) else [a])
                if isinstance(t, torch.Tensor)
            )
            module = _ListOp(info.op, template, dict(sample.kwargs))
        else:
            tensors = tuple(a for a in template if isinstance(a, torch.Tensor))
            module = _OneOp(info.op, template, dict(sample.kwargs))
        yield index, module, tensors


class _ListOp(_OneOp):
    """Like :class:`_OneOp` for ops taking a list of tensors (``cat``)."""

    def forward(self, *tensors: torch.Tensor) -> Any:
        given = iter(tensors)
        args = []
        for a in self.template:
            if isinstance(a, (list, tuple)):
                args.append([next(given) if isinstance(t, torch.Tensor) else t for t in a])
            else:
                args.append(next(given) if isinstance(a, torch.Tensor) else a)
        return self.op(*args, **self.kwargs)


def _numpy(tensor: torch.Tensor) -> np.ndarray:
    """A tensor as torch.onnx represents it: complex ones as real with a trailing axis of 2."""
    tensor = tensor.detach().resolve_conj().resolve_neg()
    return (torch.view_as_real(tensor) if tensor.is_complex() else tensor).numpy()


def flat_outputs(result: Any) -> list[np.ndarray]:
    if isinstance(result, torch.Tensor):
        return [_numpy(result)]
    if isinstance(result, (list, tuple)):
        return [r for item in result for r in flat_outputs(item)]
    return [np.asarray(result)]


def _compare(got: list[Any], expected: list[np.ndarray], random: bool = False) -> str:
    if len(got) != len(expected):
        return f"fail: {len(got)} outputs, torch gives {len(expected)}"
    for g, e in zip(got, expected):
        g = np.asarray(g)
        if g.shape != e.shape:
            return f"fail: shape {g.shape}, torch {e.shape}"
        if random:
            if g.dtype != e.dtype:
                return f"fail: element type {g.dtype}, torch {e.dtype}"
            continue
        if e.dtype == np.bool_ or np.issubdtype(e.dtype, np.integer):
            if not np.array_equal(g.astype(e.dtype), e):
                return "fail: values differ"
        elif not np.allclose(g, e, rtol=RTOL, atol=ATOL, equal_nan=True):
            return f"fail: max difference {np.nanmax(np.abs(g.astype(np.float64) - e)):.2e}"
    return "pass"


def judge(
    got: list[Any],
    expected: list[np.ndarray],
    module: torch.nn.Module,
    tensors: tuple[torch.Tensor, ...],
    random: bool = False,
) -> str:
    """The comparison with torch; where values differ, the sample still passes when ours
    are no farther from torch's float64 result than torch's own float32 ones (ops that
    cancel, like a normalization's gradient, differ from torch by rounding alone)."""
    verdict = _compare(got, expected, random)
    if not verdict.startswith("fail: max difference"):
        return verdict
    wider = tuple(
        t.to(torch.complex128) if t.is_complex() else t.double() if t.is_floating_point() else t
        for t in tensors
    )
    try:
        reference = flat_outputs(module(*wider))
    except Exception:
        return verdict
    for g, e, r in zip(got, expected, reference):
        ours = np.nanmax(np.abs(np.asarray(g, dtype=np.float64) - r), initial=0.0)
        torchs = np.nanmax(np.abs(e.astype(np.float64) - r), initial=0.0)
        if ours > torchs + ATOL + RTOL * np.nanmax(np.abs(r), initial=0.0):
            return verdict
    return "pass"


def graph_overloads(graph: Any) -> tuple[str, ...]:
    """The ATen (and prims, _operator) overloads a graph calls, by qualified name."""
    return tuple(sorted({_target_name(n.target) for n in graph.nodes if n.op == "call_function"}))


def _target_name(target: Any) -> str:
    if getattr(target, "__module__", None) == "_operator":
        return f"_operator::{target.__name__}"
    return target.name() if hasattr(target, "name") else str(target)


ASSERTIONS = {
    "aten::_assert_tensor_metadata",
    "aten::_assert_scalar",
    "aten::_assert_async",
    "aten::_assert_async.msg",
    "aten::sym_constrain_range_for_size",
    "aten::sym_constrain_range",
}
"""Checks that torch.onnx removes from the graph before translating it; eager skips them."""


def run_exported(module: torch.nn.Module, tensors: tuple[torch.Tensor, ...]) -> Verdict:
    import onnxruntime

    expected = flat_outputs(module(*tensors))
    logging.disable(logging.WARNING)
    try:
        with reused_torch_registry():
            program = torch.onnx.export(module, tensors, dynamo=True, optimize=False, verbose=False)
    except Exception as error:  # the outcome records why
        return Verdict(_capture_skip(module, tensors) or f"fail: export: {short_error(error)}")
    finally:
        logging.disable(logging.NOTSET)
    graph = program.exported_program.graph if program.exported_program else None
    used = graph_overloads(graph) if graph is not None else ()
    random = uncompared(used, graph)
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    try:
        session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), options)
        feeds = {i.name: _numpy(t) for i, t in zip(session.get_inputs(), tensors)}
        got = session.run(None, feeds)
    except Exception as error:
        return Verdict(f"fail: onnxruntime: {short_error(error)}", used)
    return Verdict(judge(got, expected, module, tensors, random), used)


def _capture_skip(module: torch.nn.Module, tensors: tuple[torch.Tensor, ...]) -> str | None:
    """ "skip: ..." when torch.export itself cannot capture the sample (data-dependent
    shapes, say): then there is no graph for the library to translate."""
    try:
        torch.export.export(module, tensors)
    except Exception as error:
        return f"skip: torch.export: {short_error(error)}"
    return None


UNCOMPARED_OVERLOADS = {
    "aten::native_dropout",
    "aten::bernoulli",
    "aten::bernoulli.p",
    "aten::rand",
    "aten::randn",
    "aten::randint",
    "aten::randint.low",
    "aten::randperm",
    "aten::normal.Tensor_Tensor",
    "aten::normal.Tensor_float",
    "aten::normal.float_Tensor",
    "aten::normal.float_float",
    "aten::normal_functional",
    "aten::multinomial",
    "aten::randint_like.low_dtype",
    "aten::uniform",
    "aten::rand_like",
    "aten::randn_like",
    "aten::randint_like",
    "aten::empty.memory_format",
    "aten::empty_strided",
    "aten::empty_like",
    "aten::new_empty",
    "aten::new_empty_strided",
}
"""Overloads whose values are random or uninitialized (``empty``): a sample calling one
compares shapes and element types only."""


def uncompared(used: tuple[str, ...], graph: Any = None) -> bool:
    """Whether a sample's values are random: its graph calls an overload of
    :data:`UNCOMPARED_OVERLOADS`, or passes a nonzero ``dropout_p`` (attention)."""
    return not UNCOMPARED_OVERLOADS.isdisjoint(used) or (
        graph is not None and any(_drops_out(n) for n in graph.nodes)
    )


def _drops_out(node: Any) -> bool:
    schema = getattr(node.target, "_schema", None) if node.op == "call_function" else None
    if schema is None:
        return False
    given = dict(zip((a.name for a in schema.arguments), node.args)) | dict(node.kwargs)
    dropout = given.get("dropout_p", 0.0)
    return isinstance(dropout, (int, float)) and dropout > 0


def run_eager(
    module: torch.nn.Module,
    tensors: tuple[torch.Tensor, ...],
    table: dict[str, Any],
) -> Verdict:
    """Evaluate the ATen graph with our functions on numpy arrays. The graph is decomposed
    to the Core ATen IR (torch.export's default), not as torch.onnx does (which keeps the
    operators the library registers): eager mode so tests the core functions that the
    exported path may not reach. Type promotion is made explicit as torch.onnx does."""
    from torch.onnx._internal.exporter import _fx_passes

    expected = flat_outputs(module(*tensors))
    try:
        exported = torch.export.export(module, tensors).run_decompositions(core_decompositions())
    except Exception as error:
        return Verdict(f"skip: torch.export: {short_error(error)}")
    _fx_passes.insert_type_promotion_nodes(exported.graph_module)
    graph = exported.graph_module.graph
    used = graph_overloads(graph)
    random = uncompared(used, graph)
    values = _placeholder_values(exported, tensors)
    for node in graph.nodes:
        if node.op == "call_function":
            outcome = _eager_node(node, values, table)
            if isinstance(outcome, str):
                return Verdict(outcome, used)
        elif node.op == "output":
            got = [values[a.name] if hasattr(a, "name") else a for a in node.args[0]]
            flat = [
                r for item in got for r in (item if isinstance(item, (list, tuple)) else [item])
            ]
            # Updated buffers and mutated inputs come first; the user's outputs last.
            judged = judge(flat[len(flat) - len(expected) :], expected, module, tensors, random)
            return Verdict(judged, used)
    return Verdict("fail: no output", used)


def core_decompositions() -> Any:
    """torch.export's default decompositions less those of operators tagged core: the
    default table also decomposes some core operators (col2im, the norm gradients,
    reflection pads, squeeze.dim, ...), which the Core ATen IR keeps. A copy per call
    (torch may change the table it is given)."""
    return _core_table().copy()


@functools.cache
def _core_table() -> Any:
    table = torch.export.default_decompositions()
    for overload in [o for o in list(table) if torch.Tag.core in o.tags]:
        table.pop(overload)
    return table


def _placeholder_values(exported: Any, tensors: tuple[torch.Tensor, ...]) -> dict[str, Any]:
    """The graph's inputs: the sample's tensors, and the parameters, buffers and tensor
    constants torch.export lifted."""
    from torch.export.graph_signature import InputKind

    given = iter(tensors)
    values: dict[str, Any] = {}
    for spec in exported.graph_signature.input_specs:
        if spec.kind == InputKind.USER_INPUT:
            value = next(given)
        elif spec.kind == InputKind.CONSTANT_TENSOR:
            value = exported.constants[spec.target]
        else:
            value = exported.state_dict[spec.target]
        values[spec.arg.name] = _numpy(value) if isinstance(value, torch.Tensor) else value
    return values


def _eager_node(node: Any, values: dict[str, Any], table: dict[str, Any]) -> str | None:
    def convert(arg: Any) -> Any:
        if isinstance(arg, torch.fx.Node):
            return values[arg.name]
        if isinstance(arg, (list, tuple)):
            return [convert(a) for a in arg]
        if isinstance(arg, torch.dtype):
            from torch.onnx._internal.exporter._core import torch_dtype_to_onnx_dtype

            return int(torch_dtype_to_onnx_dtype(arg))
        if isinstance(arg, (torch.device, torch.layout, torch.memory_format)):
            return str(arg)
        return arg

    args = [convert(a) for a in node.args]
    kwargs = {k: convert(v) for k, v in node.kwargs.items()}
    if node.target is operator.getitem:
        values[node.name] = args[0][args[1]]
        return None
    name = _target_name(node.target)
    if name in ASSERTIONS:
        return None
    if any(_is_complex(a) for a in [*node.args, *node.kwargs.values()]):
        name += COMPLEX  # torch.onnx's dispatcher picks the complex variant the same way
    function = table.get(name)
    if function is None:
        return f"skip: eager: {name} is torch's own or not in the library"
    if "dtype" in kwargs and kwargs["dtype"] is None:
        kwargs["dtype"] = -1
    try:
        result = function(*args, **kwargs)
    except Exception as error:
        return f"fail: eager {name}: {short_error(error)}"
    values[node.name] = result
    return None


def short_error(error: BaseException) -> str:
    text = str(error)
    marker = text.find("Exception summary")
    if marker >= 0:
        text = text[marker + len("Exception summary") :]
    return " ".join(text.split())[:160]


COMPLEX = " (complex)"
"""Suffix of a complex variant's key in :func:`torchlib_table`."""


def _is_complex(arg: Any) -> bool:
    if isinstance(arg, torch.fx.Node):
        value = arg.meta.get("val")
        return isinstance(value, torch.Tensor) and value.is_complex()
    if isinstance(arg, (list, tuple)):
        return any(_is_complex(a) for a in arg)
    return False


def torchlib_table() -> dict[str, Any]:
    """Qualified name -> function; complex variants under ``name + COMPLEX``."""
    from onnxscript._framework_apis.torch_2_11 import get_torchlib_ops

    return {
        record.qualified_name + (COMPLEX if record.is_complex else ""): record.function
        for record in get_torchlib_ops()
    }


def run_all(ops: list[str] | None = None) -> list[Outcome]:
    infos = opinfos()
    table = torchlib_table()
    outcomes = []
    for name in ops or ALL_ENTRIES:
        for index, module, tensors in entry_samples(name, infos):
            exported = run_exported(module, tensors)
            outcomes.append(Outcome(name, index, "exported", exported.result, exported.overloads))
            eager = run_eager(module, tensors, table)
            outcomes.append(Outcome(name, index, "eager", eager.result, eager.overloads))
    return outcomes
