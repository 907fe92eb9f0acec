"""Measure the newest ai.onnx opset and IR version that onnxruntime releases load.

For each onnxruntime release given (default: every minor release the package supports),
this makes a virtual environment with that release and onnx, and asks onnxruntime to load a
one-node model (``Abs``) at rising opset and IR versions. The result is the table in
``onnxscript/runtime.py``, so that choosing default versions needs no probing (and no
import of onnxruntime) for a known release. Usage::

    python tools/ort_limits.py [1.17 1.18 ...]

It prints one line per release: ``"1.17": (opset, ir),``. A release that cannot be
installed on this Python prints a comment instead.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import venv
from pathlib import Path

RELEASES = [f"1.{minor}" for minor in range(17, 33)]

PROBE = r"""
import onnx, onnx.helper, onnxruntime

def loads(opset, ir):
    x = onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1])
    y = onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1])
    graph = onnx.helper.make_graph([onnx.helper.make_node("Abs", ["x"], ["y"])], "p", [x], [y])
    model = onnx.helper.make_model(
        graph, opset_imports=[onnx.helper.make_opsetid("", opset)], ir_version=ir
    )
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 4
    try:
        onnxruntime.InferenceSession(
            model.SerializeToString(), options, providers=["CPUExecutionProvider"]
        )
    except Exception:
        return False
    return True

ir = max(i for i in range(3, 20) if loads(13, i))
opset = max(o for o in range(13, 40) if loads(o, ir))
print(onnxruntime.__version__, opset, ir)
"""


def measure(release: str, root: Path) -> str:
    where = root / release
    venv.create(where, with_pip=True)
    python = where / "bin" / "python"
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", f"onnxruntime=={release}.*", "onnx"],
        capture_output=True,
        text=True,
    )
    if installed.returncode != 0:
        return f"# {release}: cannot be installed here"
    probed = subprocess.run([str(python), "-c", PROBE], capture_output=True, text=True)
    if probed.returncode != 0:
        # Releases built against numpy 1 do not import beside numpy 2.
        subprocess.run([str(python), "-m", "pip", "install", "-q", "numpy<2"], capture_output=True)
        probed = subprocess.run([str(python), "-c", PROBE], capture_output=True, text=True)
    if probed.returncode != 0:
        return f"# {release}: probe failed: {probed.stderr.strip().splitlines()[-1:]}"
    version, opset, ir = probed.stdout.split()
    return f'"{release}": ({opset}, {ir}),  # measured with onnxruntime {version}'


def main() -> None:
    releases = sys.argv[1:] or RELEASES
    with tempfile.TemporaryDirectory() as tmp:
        for release in releases:
            print(measure(release, Path(tmp)), flush=True)


if __name__ == "__main__":
    main()
