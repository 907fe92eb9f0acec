"""The ONNX backend node tests as files, for conformance runs (``tools/*_conformance.py``).

:func:`generate` writes the node test cases of the installed onnx
(``onnx.backend.test.case.node``) in the backend-test layout: ``<case>/model.onnx``,
``<case>/test_data_set_<k>/{input,output}_<j>.pb`` and the case's tolerances in
``<case>/tolerance.json``. :func:`load` reads a case back.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnx.numpy_helper

from onnxscript.evaluator.tensor import TensorSequence


@dataclass
class Case:
    """One node test: the model and its data sets (inputs, expected outputs)."""

    name: str
    model: onnx.ModelProto
    data_sets: list[tuple[list[Any], list[Any]]]
    rtol: float
    atol: float


def _collect() -> list[Any]:
    import onnx.backend.test.case.node as node_cases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases: list[Any] = node_cases.collect_testcases(None)
    return [c for c in cases if c.kind == "node" and c.model is not None]


def case_names() -> list[str]:
    """The names of the node test cases, sorted."""
    return sorted(c.name for c in _collect())


def _to_proto(value: Any, value_info: onnx.ValueInfoProto) -> Any:
    kind = value_info.type.WhichOneof("value")
    if kind == "sequence_type":
        return onnx.numpy_helper.from_list([np.asarray(v) for v in value], value_info.name)
    if kind == "optional_type":
        return onnx.numpy_helper.from_optional(value, value_info.name)
    if kind == "map_type":
        return onnx.numpy_helper.from_dict(value, value_info.name)
    if isinstance(value, onnx.TensorProto):
        return value
    return onnx.numpy_helper.from_array(np.asarray(value), value_info.name)


def generate(dest: Path, names: Collection[str] | None = None) -> list[Path]:
    """Write the node test cases (all, or those in ``names``) into ``dest``; returns the
    case folders, sorted."""
    folders = []
    for case in _collect():
        if names is not None and case.name not in names:
            continue
        folder = dest / case.name
        write_case(Case(case.name, case.model, case.data_sets or [], case.rtol, case.atol), folder)
        folders.append(folder)
    return sorted(folders)


def write_case(case: Case, folder: Path) -> None:
    """``case`` in onnx's backend-test layout (``model.onnx``, ``test_data_set_<k>/``), with
    its tolerance, as :func:`load` reads it back."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "model.onnx").write_bytes(case.model.SerializeToString())
    (folder / "tolerance.json").write_text(json.dumps({"rtol": case.rtol, "atol": case.atol}))
    graph = case.model.graph
    for k, (inputs, outputs) in enumerate(case.data_sets):
        data = folder / f"test_data_set_{k}"
        data.mkdir(exist_ok=True)
        for prefix, values, infos in (
            ("input", inputs, graph.input),
            ("output", outputs, graph.output),
        ):
            for j, value in enumerate(values):
                proto = _to_proto(value, infos[j])
                (data / f"{prefix}_{j}.pb").write_bytes(proto.SerializeToString())


def read_value(path: Path, type_proto: onnx.TypeProto) -> Any:
    """A value file as an array, a :class:`TensorSequence` (which keeps the element type of
    an empty sequence), an optional's value or ``None``, or a dict (a map)."""
    kind = type_proto.WhichOneof("value")
    data = path.read_bytes()
    if kind == "sequence_type":
        seq = onnx.SequenceProto()
        seq.ParseFromString(data)
        elem = type_proto.sequence_type.elem_type
        elem_type = elem.tensor_type.elem_type if elem.HasField("tensor_type") else None
        return TensorSequence(onnx.numpy_helper.to_list(seq), elem_type or None)
    if kind == "optional_type":
        opt = onnx.OptionalProto()
        opt.ParseFromString(data)
        return onnx.numpy_helper.to_optional(opt)
    if kind == "map_type":
        mapping = onnx.MapProto()
        mapping.ParseFromString(data)
        return onnx.numpy_helper.to_dict(mapping)
    tensor = onnx.TensorProto()
    tensor.ParseFromString(data)
    return onnx.numpy_helper.to_array(tensor)


def model_file(folder: Path) -> Path:
    """The model of a case folder: ``model.onnx``, or else its one ``.onnx`` file."""
    default = folder / "model.onnx"
    if default.exists():
        return default
    found = sorted(folder.glob("*.onnx"))
    if len(found) != 1:
        raise FileNotFoundError(f"{folder} holds {len(found)} .onnx files, not one")
    return found[0]


DEFAULT_TOLERANCE = {"rtol": 1e-3, "atol": 1e-7}
"""The tolerances of a case that states none (onnx's backend runner's defaults)."""


def load(folder: Path) -> Case:
    """Read back a case written by :func:`generate`, or one of onnx's backend-test folders
    (which have no ``tolerance.json``: :data:`DEFAULT_TOLERANCE`)."""
    model = onnx.load(str(model_file(folder)))
    tolerance_file = folder / "tolerance.json"
    tolerance = DEFAULT_TOLERANCE
    if tolerance_file.exists():
        tolerance = json.loads(tolerance_file.read_text())
    data_sets = []
    for data in sorted(folder.glob("test_data_set_*")):
        values = []
        for prefix, infos in (("input", model.graph.input), ("output", model.graph.output)):
            values.append(
                [
                    read_value(data / f"{prefix}_{j}.pb", vi.type)
                    for j, vi in enumerate(infos)
                    if (data / f"{prefix}_{j}.pb").exists()
                ]
            )
        data_sets.append((values[0], values[1]))
    return Case(folder.name, model, data_sets, tolerance["rtol"], tolerance["atol"])
