"""``python -m onnxscript model.onnx``: see :mod:`onnxscript.cli`."""

import sys

from onnxscript.cli import main

sys.exit(main())
