"""Saving and checking models whose weights do not fit in one protobuf message.

Neither function makes a second copy of the weights in memory:

* :func:`save_with_external_data` streams every tensor to the data file with onnx_ir's
  writer (``tofile``: a tensor backed by torch memory is written from that memory, a lazy
  tensor is computed once), and lets the kernel drop the file's pages from its cache once
  they are written. Without that, saving grows the page cache by the whole file, and
  growing it is what a 2.5 GB save spends most of its time on in a virtual machine (fresh
  guest pages are faulted in from the host; here 5.5-13 s against 1.4-1.8 s when the same
  pages are reused), and what counts against the memory limit of a container.
* :func:`check_with_onnx` gives onnx's checker the model by path, with every large tensor
  in external data. The checker reads no external tensor (it checks that the file is
  there), so the data file is a sparse file of the right size: no tensor is serialized,
  read or written.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np
import onnx
import onnx_ir as ir

from onnxscript.ir_utils.graphs import model_graphs

RELEASE_EVERY_BYTES = 64 * 1024 * 1024
"""How many bytes are written between two requests to drop the data file's cached pages."""

IN_MEMORY_CHECK_BYTES = 256 * 1024 * 1024
"""Up to this many bytes of initializers, :func:`check_with_onnx` checks one serialized
message (tensor contents included); above it, by path with placeholder external data."""

_EXTERNAL_ABOVE_BYTES = 1024
"""Tensors above this size are external in the placeholder model that is checked."""


def _initializers(model: ir.Model) -> Iterator[tuple[ir.Value, ir.TensorProtocol]]:
    """The initializers of every graph of ``model`` with their tensors."""
    for graph in model_graphs(model):
        for value in graph.initializers.values():
            if value.const_value is not None:
                yield value, value.const_value


def initializer_bytes(model: ir.Model) -> int:
    """The size of every initializer of every graph (the tensors are not read)."""
    return sum(tensor.nbytes for _, tensor in _initializers(model))


@contextlib.contextmanager
def _swapped(values: list[ir.Value], tensors: list[ir.TensorProtocol]) -> Iterator[None]:
    """``values`` hold ``tensors`` inside the block, their own tensors again after it."""
    originals = [v.const_value for v in values]
    try:
        for value, tensor in zip(values, tensors):
            value.const_value = tensor
        yield
    finally:
        for value, original in zip(values, originals):
            value.const_value = original


class _PageReleaser:
    """Asks the kernel to drop a file's cached pages every ``every`` bytes written: the
    pages already written back go at once, the others are queued for writing back (and go
    at a later request). Where ``posix_fadvise`` does not exist this does nothing."""

    def __init__(self, every: int | None = None) -> None:
        self.every = every if every is not None else RELEASE_EVERY_BYTES
        self.pending = 0

    def wrote(self, file: IO[bytes], count: int) -> None:
        self.pending += count
        if self.pending < self.every or not hasattr(os, "posix_fadvise"):
            return
        self.pending = 0
        try:
            file.flush()
            os.posix_fadvise(file.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
        except (OSError, ValueError, AttributeError):  # not a real file: nothing to drop
            pass


class _ReleasingTensor(ir.LazyTensor):
    """A tensor as :func:`save_with_external_data` writes it, then releases the written
    pages: a big in-memory one (numpy's or torch's) from its memory in slices, any other
    by its own ``tofile`` (a lazy tensor is computed there, once). No copy is made here."""

    def __init__(self, tensor: ir.TensorProtocol, releaser: _PageReleaser) -> None:
        super().__init__(
            lambda: tensor,
            dtype=tensor.dtype,
            shape=ir.Shape(tensor.shape.numpy()),
            name=tensor.name,
        )
        self._source = tensor
        self._releaser = releaser

    def tofile(self, file: Any) -> None:
        source = self._source
        array = _file_order_array(source) if source.nbytes > self._releaser.every else None
        if array is not None:
            # In slices, so that the pages of one big tensor are released as it goes.
            data = array.reshape(-1).view(np.uint8).data
            for start in range(0, len(data), self._releaser.every):
                piece = data[start : start + self._releaser.every]
                file.write(piece)
                self._releaser.wrote(file, len(piece))
            return
        write: Callable[[Any], object] | None = getattr(source, "tofile", None)
        if write is not None:
            write(file)
        else:
            file.write(source.tobytes())
        self._releaser.wrote(file, source.nbytes)


def _file_order_array(tensor: ir.TensorProtocol) -> np.ndarray | None:
    """The in-memory array of an ``ir.Tensor`` (torch's tensors are ones) when its memory
    is the tensor's bytes as ONNX stores them: contiguous, whole-byte elements,
    little-endian; else None (the tensor writes itself)."""
    if not isinstance(tensor, ir.Tensor) or tensor.dtype.bitwidth < 8:
        return None
    if tensor.dtype == ir.DataType.STRING:
        return None
    try:
        array = tensor.numpy()
    except (TypeError, RuntimeError, ValueError):  # e.g. a fake tensor: its tofile says why
        return None
    order = array.dtype.byteorder
    if order == ">" or (order == "=" and sys.byteorder != "little"):
        return None
    if array.nbytes != tensor.nbytes or not array.flags.c_contiguous:
        return None
    return array


def save_with_external_data(
    model: ir.Model, path: str | os.PathLike[str], data_name: str | None = None
) -> None:
    """Save ``model`` to ``path`` with its tensors in ``data_name`` (default:
    ``<file name>.data``) beside it; the model is unchanged afterwards."""
    path = Path(path)
    releaser = _PageReleaser()
    values: list[ir.Value] = []
    wrapped: list[ir.TensorProtocol] = []
    for value, tensor in _initializers(model):
        if not isinstance(tensor, ir.ExternalTensor):  # mapped from a file: written as is
            values.append(value)
            wrapped.append(_ReleasingTensor(tensor, releaser))
    with _swapped(values, wrapped):
        ir.save(model, path, external_data=data_name or f"{path.name}.data")


def check_with_onnx(model: ir.Model) -> None:
    """``onnx.checker.check_model(..., full_check=True)`` on ``model``: one serialized
    message for a model of at most :data:`IN_MEMORY_CHECK_BYTES` of initializers; for a
    bigger one, by path, its large tensors in (placeholder) external data."""
    if initializer_bytes(model) <= IN_MEMORY_CHECK_BYTES:
        onnx.checker.check_model(ir.serde.serialize_model(model), full_check=True)
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.onnx"
        data = "model.onnx.data"
        values: list[ir.Value] = []
        placeholders: list[ir.TensorProtocol] = []
        offset = 0
        for value, tensor in _initializers(model):
            if tensor.nbytes <= _EXTERNAL_ABOVE_BYTES or tensor.dtype == ir.DataType.STRING:
                continue
            values.append(value)
            placeholders.append(
                ir.ExternalTensor(
                    data,
                    offset,
                    tensor.nbytes,
                    tensor.dtype,
                    shape=ir.Shape(tensor.shape.numpy()),
                    name=tensor.name or value.name or "",
                    base_dir=folder,
                )
            )
            offset += tensor.nbytes
        with _swapped(values, placeholders):
            proto = ir.serde.serialize_model(model)
        with open(Path(folder) / data, "wb") as file:
            file.truncate(offset)  # sparse: nothing is written
        onnx.save(proto, path)
        del proto
        onnx.checker.check_model(str(path), full_check=True)


__all__ = ["check_with_onnx", "initializer_bytes", "save_with_external_data"]
