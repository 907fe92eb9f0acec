"""Code outside scripts: eager op calls on numpy arrays and Python numbers, calling a script
function eagerly, exporting protos, passing script functions around."""

import numpy as np
import onnx

from onnxscript import FLOAT, OnnxFunction, Opset, opset18, script
from onnxscript import opset18 as op

custom = Opset("my.domain", 1)


@script(custom, default_opset=opset18)
def scale(x: FLOAT["N"], factor: float = 2.0) -> FLOAT["N"]:
    return x * factor


def export(function: OnnxFunction) -> onnx.ModelProto:
    return function.to_model_proto()


def main() -> None:
    x = np.array([1.0, -2.0, 3.0], dtype=np.float32)
    print(op.Add(x, 1.0), op.Relu(x), op.Concat(x, x, axis=0))
    print(scale(x), scale(x, factor=3.0))
    proto: onnx.FunctionProto = scale.to_function_proto()
    typed = scale.to_model_proto(io_types=FLOAT["N"])
    print(proto.name, export(scale).graph.name, typed.graph.input[0].name)
