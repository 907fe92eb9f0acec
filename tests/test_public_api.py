"""The public API: every public name importable, nothing private leaking, one error base."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import types

import pytest

import onnxscript
import onnxscript.errors as errors
from onnxscript.opsets import opset_names

PUBLIC_MODULES = [
    "onnxscript",
    "onnxscript.builder",
    "onnxscript.errors",
    "onnxscript.evaluator",
    "onnxscript.onnx_types",
    "onnxscript.opsets",
    "onnxscript.reverse",
    "onnxscript.testing",
    "onnxscript.values",
]


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_every_name_in_all_is_importable(module_name: str):
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    assert names, f"{module_name} declares no __all__"
    for name in names:
        assert getattr(module, name) is not None, f"{module_name}.{name}"
    scope: dict[str, object] = {}
    exec(f"from {module_name} import *", scope)
    assert set(names) <= set(scope)


def test_dir_lists_public_names_and_opsets_only():
    # ``ir`` (the onnx_ir package), ``nn`` and ``optimizer`` are listed but not in __all__:
    # ``import *`` would load them.
    expected = sorted([*onnxscript.__all__, *opset_names(), "ir", "nn", "optimizer", "__version__"])
    assert dir(onnxscript) == expected
    assert all(not name.startswith("_") or name == "__version__" for name in dir(onnxscript))


def test_no_private_helper_leaks_into_the_package_namespace():
    leaked = [
        name
        for name, value in vars(onnxscript).items()
        if not name.startswith("_")
        and name not in onnxscript.__all__
        and not (isinstance(value, types.ModuleType) and value.__name__.startswith("onnxscript."))
        and not (name == "ir" and value.__name__ == "onnx_ir")
    ]
    assert leaked == []


def test_lazy_names_resolve_and_unknown_names_fail_clearly():
    assert onnxscript.Tensor.__name__ == "Tensor"
    assert callable(onnxscript.proto2python) and callable(onnxscript.register_source)
    assert onnxscript.opset18.version == 18
    assert onnxscript.GraphBuilder.__name__ == "GraphBuilder"
    assert onnxscript.OpBuilder.__name__ == "OpBuilder"
    with pytest.raises(AttributeError, match="no attribute 'opset999'"):
        onnxscript.opset999
    with pytest.raises(AttributeError, match="no attribute 'compile_function'"):
        onnxscript.compile_function


def _exception_classes() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(onnxscript.__path__, "onnxscript."):
        if info.name in ("onnxscript.mypy_plugin", "onnxscript.__main__"):
            continue  # needs mypy / runs the command line
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__.startswith("onnxscript.")
            ):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return list(found.values())


INTERNAL_EXCEPTIONS = {
    "onnxscript.reverse.source_writer.Mismatch",
    "onnxscript.inference.evaluate._LeftToRuntime",
}
"""Raised and caught inside the package: control flow of the reverse translator, and of
constant folding (a node left for the runtime)."""


def test_every_error_the_package_raises_derives_from_one_base():
    classes = _exception_classes()
    assert len(classes) >= 9
    outside = [
        f"{c.__module__}.{c.__qualname__}"
        for c in classes
        if not issubclass(c, (errors.OnnxScriptError, Warning))  # warnings are not raised
        and f"{c.__module__}.{c.__qualname__}" not in INTERNAL_EXCEPTIONS
    ]
    assert outside == []


def test_errors_keep_their_builtin_bases():
    assert issubclass(errors.ScriptError, ValueError)
    assert issubclass(errors.TranslationError, ValueError)
    assert issubclass(errors.LoweringError, ValueError)
    for cls in (
        errors.BindingError,
        errors.AttributeValueError,
        errors.OperatorTypeError,
        errors.InputTypeError,
    ):
        assert issubclass(cls, TypeError)
    assert issubclass(errors.EagerEvaluationError, RuntimeError)
    assert onnxscript.ScriptError is errors.ScriptError
    assert onnxscript.OnnxScriptError is errors.OnnxScriptError
