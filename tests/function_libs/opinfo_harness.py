"""Run torch's OpInfo samples through our ATen library, two ways, and compare with torch.

- **exported**: a module calling the op on the sample is exported with
  ``torch.onnx.export(dynamo=True)`` (our functions, through torch's dispatcher) and run
  with onnxruntime;
- **eager**: the same module is captured with ``torch.export`` and decomposed as torch.onnx
  does, and its ATen graph is evaluated node by node by calling our functions on numpy
  arrays (onnxscript's eager mode).

Each sample ends as "pass", "fail: <why>" or "skip: <why>" (nothing comparable: e.g. a
sample torch itself rejects, non-float outputs of random ops).
"""

from __future__ import annotations

import logging
import operator
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from tests.function_libs import backward_samples

OPS = [
    "add",
    "sub",
    "rsub",
    "mul",
    "div.no_rounding_mode",
    "div.trunc_rounding",
    "div.floor_rounding",
    "floor_divide",
    "remainder",
    "fmod",
    "pow",
    "neg",
    "abs",
    "exp",
    "log",
    "sqrt",
    "rsqrt",
    "reciprocal",
    "sin",
    "cos",
    "tanh",
    "sigmoid",
    "erf",
    "floor",
    "ceil",
    "trunc",
    "round",
    "sign",
    "nn.functional.relu",
    "nn.functional.gelu",
    "nn.functional.silu",
    "nn.functional.leaky_relu",
    "nn.functional.elu",
    "nn.functional.hardtanh",
    "clamp",
    "maximum",
    "minimum",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "logical_and",
    "logical_or",
    "logical_not",
    "bitwise_not",
    "isnan",
    "isinf",
    "where",
    "clone",
    "mm",
    "bmm",
    "matmul",
    "addmm",
    "nn.functional.linear",
    "t",
    "nn.functional.conv2d",
    "nn.functional.layer_norm",
    "softmax",
    "log_softmax",
    "nn.functional.max_pool2d",
    "nn.functional.avg_pool2d",
    "nn.functional.adaptive_avg_pool2d",
    "nn.functional.embedding",
    "sum",
    "mean",
    "amax",
    "amin",
    "prod",
    "max.reduction_with_dim",
    "min.reduction_with_dim",
    "argmax",
    "argmin",
    "any",
    "all",
    "var",
    "view",
    "reshape",
    "permute",
    "transpose",
    "expand",
    "unsqueeze",
    "squeeze",
    "cat",
    "select",
    "split",
    "split_with_sizes",
    "index_select",
    "gather",
    "nn.functional.pad.constant",
    "full_like",
    "zeros_like",
    "ones_like",
    "arange",
    "nn.functional.batch_norm",
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "tan",
    "sinh",
    "cosh",
    "atan2",
    "expm1",
    "log1p",
    "log2",
    "log10",
    "logical_xor",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "flip",
    "repeat",
    "nonzero",
    "scatter",
    "scatter_add",
    "scatter_reduce.sum",
    "topk",
    "sort",
    "cumsum",
    "var.unbiased",
    "nn.functional.group_norm",
    "nn.functional.interpolate.nearest",
    "nn.functional.interpolate.bilinear",
    "nn.functional.pad.reflect",
    "nn.functional.pad.replicate",
    "select_scatter",
    "fill",
    "nn.functional.dropout",
    "scatter_reduce.prod",
    "scatter_reduce.amax",
    "scatter_reduce.amin",
    "index_put",
    "nn.functional.avg_pool3d",
    "nn.functional.max_pool3d",
    "nn.functional.grid_sample",
    "slice_scatter",
    "diagonal",
    "masked_scatter",
    "cdist",
    "nn.functional.adaptive_avg_pool1d",
    "nn.functional.adaptive_avg_pool3d",
    "nn.functional.pdist",
    "as_strided",
]
"""OpInfo entries (name[.variant]) whose ATen operators the library implements."""

ALL_ENTRIES = OPS + backward_samples.ENTRIES
"""Every sample set the harness runs: the OpInfo entries, then the gradient operators."""

SAMPLES_PER_OP = 3
RTOL, ATOL = 1e-4, 1e-5


@dataclass
class Outcome:
    op: str
    sample: int
    mode: str
    result: str  # "pass", "fail: ...", "skip: ..."


def opinfos() -> dict[str, Any]:
    from torch.testing._internal.common_methods_invocations import op_db

    wanted = set(OPS) | backward_samples.forward_entries()
    found = {}
    for info in op_db:
        key = info.name + (f".{info.variant_test_name}" if info.variant_test_name else "")
        if key in wanted:
            found[key] = info
    return found


def entry_samples(
    name: str, infos: dict[str, Any]
) -> Iterator[tuple[int, torch.nn.Module, tuple[torch.Tensor, ...]]]:
    """The samples of an OpInfo entry, or of a gradient operator (``grad:<name>``)."""
    if name.startswith(backward_samples.PREFIX):
        return backward_samples.gradient_samples(name, infos, SAMPLES_PER_OP)
    return samples(infos[name])


class _OneOp(torch.nn.Module):
    """``op(*tensors, **kwargs)`` with the sample's tensors as the module's inputs."""

    def __init__(self, op: Any, template: list[Any], kwargs: dict[str, Any]) -> None:
        super().__init__()
        self.op, self.template, self.kwargs = op, template, kwargs

    def forward(self, *tensors: torch.Tensor) -> Any:
        given = iter(tensors)
        args = [next(given) if isinstance(a, torch.Tensor) else a for a in self.template]
        return self.op(*args, **self.kwargs)


def samples(info: Any) -> Iterator[tuple[int, _OneOp, tuple[torch.Tensor, ...]]]:
    dtype = torch.float32 if torch.float32 in info.dtypes else sorted(info.dtypes, key=str)[0]
    for index, sample in enumerate(info.sample_inputs("cpu", dtype, requires_grad=False)):
        if index >= SAMPLES_PER_OP:
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


def _flat(result: Any) -> list[np.ndarray]:
    if isinstance(result, torch.Tensor):
        return [result.detach().numpy()]
    if isinstance(result, (list, tuple)):
        return [r for item in result for r in _flat(item)]
    return [np.asarray(result)]


def _compare(got: list[Any], expected: list[np.ndarray]) -> str:
    if len(got) != len(expected):
        return f"fail: {len(got)} outputs, torch gives {len(expected)}"
    for g, e in zip(got, expected):
        g = np.asarray(g)
        if g.shape != e.shape:
            return f"fail: shape {g.shape}, torch {e.shape}"
        if e.dtype == np.bool_ or np.issubdtype(e.dtype, np.integer):
            if not np.array_equal(g.astype(e.dtype), e):
                return "fail: values differ"
        elif not np.allclose(g, e, rtol=RTOL, atol=ATOL, equal_nan=True):
            return f"fail: max difference {np.nanmax(np.abs(g.astype(np.float64) - e)):.2e}"
    return "pass"


def _judge(
    got: list[Any],
    expected: list[np.ndarray],
    module: torch.nn.Module,
    tensors: tuple[torch.Tensor, ...],
) -> str:
    """The comparison with torch; where values differ, the sample still passes when ours
    are no farther from torch's float64 result than torch's own float32 ones (ops that
    cancel, like a normalization's gradient, differ from torch by rounding alone)."""
    verdict = _compare(got, expected)
    if not verdict.startswith("fail: max difference"):
        return verdict
    wider = tuple(t.double() if t.is_floating_point() else t for t in tensors)
    try:
        reference = _flat(module(*wider))
    except Exception:
        return verdict
    for g, e, r in zip(got, expected, reference):
        ours = np.nanmax(np.abs(np.asarray(g, dtype=np.float64) - r), initial=0.0)
        torchs = np.nanmax(np.abs(e.astype(np.float64) - r), initial=0.0)
        if ours > torchs + ATOL + RTOL * np.nanmax(np.abs(r), initial=0.0):
            return verdict
    return "pass"


def run_exported(module: torch.nn.Module, tensors: tuple[torch.Tensor, ...]) -> str:
    import onnxruntime

    expected = _flat(module(*tensors))
    logging.disable(logging.WARNING)
    try:
        program = torch.onnx.export(module, tensors, dynamo=True, optimize=False, verbose=False)
    except Exception as error:  # the outcome records why
        return f"fail: export: {_short(error)}"
    finally:
        logging.disable(logging.NOTSET)
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    try:
        session = onnxruntime.InferenceSession(program.model_proto.SerializeToString(), options)
        feeds = {i.name: t.numpy() for i, t in zip(session.get_inputs(), tensors)}
        got = session.run(None, feeds)
    except Exception as error:
        return f"fail: onnxruntime: {_short(error)}"
    return _judge(got, expected, module, tensors)


def run_eager(
    module: torch.nn.Module, tensors: tuple[torch.Tensor, ...], table: dict[str, Any]
) -> str:
    """Evaluate the decomposed ATen graph with our functions on numpy arrays."""

    expected = _flat(module(*tensors))
    exported = torch.export.export(module, tensors).run_decompositions()
    values: dict[str, Any] = {}
    inputs = iter(tensors)
    graph = exported.graph_module.graph
    for node in graph.nodes:
        if node.op == "placeholder":
            values[node.name] = next(inputs).numpy()
        elif node.op == "call_function":
            outcome = _eager_node(node, values, table)
            if isinstance(outcome, str):
                return outcome
        elif node.op == "output":
            got = [values[a.name] if hasattr(a, "name") else a for a in node.args[0]]
            flat = [
                r for item in got for r in (item if isinstance(item, (list, tuple)) else [item])
            ]
            # Updated buffers and mutated inputs come first; the user's outputs last.
            return _judge(flat[len(flat) - len(expected) :], expected, module, tensors)
    return "fail: no output"


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
    if getattr(node.target, "__module__", None) == "_operator":
        name = f"_operator::{node.target.__name__}"
    else:
        name = node.target.name() if hasattr(node.target, "name") else str(node.target)
    function = table.get(name)
    if function is None:
        return f"skip: eager: {name} is torch's own or not in the library"
    if "dtype" in kwargs and kwargs["dtype"] is None:
        kwargs["dtype"] = -1
    try:
        result = function(*args, **kwargs)
    except Exception as error:
        return f"fail: eager {name}: {_short(error)}"
    values[node.name] = result
    return None


def _short(error: BaseException) -> str:
    text = str(error)
    marker = text.find("Exception summary")
    if marker >= 0:
        text = text[marker + len("Exception summary") :]
    return " ".join(text.split())[:160]


def torchlib_table() -> dict[str, Any]:
    from onnxscript._framework_apis.torch_2_11 import get_torchlib_ops

    return {record.qualified_name: record.function for record in get_torchlib_ops()}


def run_all(ops: list[str] | None = None) -> list[Outcome]:
    infos = opinfos()
    table = torchlib_table()
    outcomes = []
    for name in ops or ALL_ENTRIES:
        for index, module, tensors in entry_samples(name, infos):
            outcomes.append(Outcome(name, index, "exported", run_exported(module, tensors)))
            try:
                eager = run_eager(module, tensors, table)
            except Exception as error:
                eager = f"skip: torch.export: {_short(error)}"
            outcomes.append(Outcome(name, index, "eager", eager))
    return outcomes
