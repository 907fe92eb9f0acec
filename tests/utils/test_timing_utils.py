"""``onnxscript.utils.timing_utils``: each step does its job and prints its time, as in
onnxscript 0.7.2 (``Load time: ...``)."""

from __future__ import annotations

import re

import onnx
import onnx.helper as oh

from onnxscript.utils import timing_utils


def _model() -> onnx.ModelProto:
    graph = oh.make_graph(
        [oh.make_node("Neg", ["x"], ["t"]), oh.make_node("Neg", ["t"], ["y"])],
        "g",
        [oh.make_tensor_value_info("x", 1, [2])],
        [oh.make_tensor_value_info("y", 1, None)],
    )
    return oh.make_model(graph, opset_imports=[oh.make_opsetid("", 18)])


def test_timeit_returns_the_result_and_prints_the_message(capsys):
    timed = timing_utils.timeit(lambda a, b=1: a + b, "msg")
    assert timed(1, b=2) == 3
    assert re.fullmatch(r"msg time: [0-9.e-]+\n", capsys.readouterr().out)


def test_each_step_prints_its_time(tmp_path, capsys):
    path = str(tmp_path / "m.onnx")
    timing_utils.save(_model(), path)
    loaded = timing_utils.load(path)
    assert [n.op_type for n in loaded.graph.node] == ["Neg", "Neg"]
    inferred = timing_utils.infer(loaded)
    assert [v.name for v in inferred.graph.value_info] == ["t"]
    timing_utils.fold_constants(loaded)
    timing_utils.remove_unused(loaded)
    optimized = timing_utils.optimize(_model())
    onnx.checker.check_model(optimized, full_check=True)
    printed = [line.split(" time: ")[0] for line in capsys.readouterr().out.splitlines()]
    assert printed == ["Save", "Load", "Infer", "Fold Constants", "Remove Unused", "Optimize"]
