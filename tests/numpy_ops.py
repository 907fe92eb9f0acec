"""A numpy stand-in for the few ops the control-flow tests use, so that the undecorated
Python function can run on numpy values as the oracle for the compiled model."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx


class NumpyOps:
    @staticmethod
    def Cast(x: Any, to: int) -> np.ndarray:
        return np.asarray(x).astype(onnx.helper.tensor_dtype_to_np_dtype(to))

    @staticmethod
    def Identity(x: Any) -> np.ndarray:
        return np.asarray(x)

    @staticmethod
    def Abs(x: Any) -> np.ndarray:
        return np.abs(x)
