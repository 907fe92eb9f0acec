"""``Module``: a PyTorch-style building block whose ``forward`` records ops on a builder.

Submodules and parameters assigned as attributes are registered (in assignment order), so
``named_parameters()``, ``state_dict()`` and ``load_state_dict()`` work as in PyTorch.
``module(op, x)`` runs ``forward(op, x)`` inside the module's naming scope (its name, for
a submodule the attribute it is assigned to), after registering its parameters as
initializers named by that scope. ``as_function = True`` records the call as one node of a
model-local function instead (``onnxscript.nn.functions``).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import onnx_ir as ir

from onnxscript.nn.parameter import Parameter
from onnxscript.nn.state import StateDictError, fitted

if TYPE_CHECKING:
    from onnxscript.builder.op_builder import OpBuilder


class LoadResult(NamedTuple):
    """What ``load_state_dict(strict=False)`` did not match (as in PyTorch)."""

    missing_keys: list[str]
    unexpected_keys: list[str]


class Module:
    """Base class of modules: subclasses set parameters and submodules in ``__init__``
    (after ``super().__init__()``) and define ``forward(self, op, *args, **kwargs)``.

    ``name`` scopes the names of the module's values, nodes and parameters; a submodule
    left unnamed takes the name of the attribute it is assigned to.
    """

    as_function: bool = False
    """Record each call as one node calling a model-local function (see
    ``onnxscript.nn.functions``), instead of the ops themselves."""

    _name: str | None
    _parameters: dict[str, Parameter | None]
    _modules: dict[str, Module | None]

    def __init__(self, name: str | None = None) -> None:
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_modules", {})

    # -- registration -----------------------------------------------------------------------
    @property
    def name(self) -> str | None:
        """The module's scope name (None for an unnamed root module)."""
        return self._name

    def _set_name(self, name: str) -> None:
        """Name the module (when assigned as an attribute); containers rename children."""
        object.__setattr__(self, "_name", name)

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, (Parameter, Module)) and "_parameters" not in self.__dict__:
            raise AttributeError(
                f"cannot assign {type(value).__name__} {name!r} before Module.__init__(): "
                "call super().__init__() first in __init__"
            )
        registries = self.__dict__.get("_parameters"), self.__dict__.get("_modules")
        params, modules = registries
        if isinstance(value, Parameter):
            if value.name is None:
                value.name = name
            assert params is not None and modules is not None
            modules.pop(name, None)
            params[name] = value
        elif isinstance(value, Module):
            if value._name is None:
                value._set_name(name)
            assert params is not None and modules is not None
            params.pop(name, None)
            modules[name] = value
        elif params is not None and modules is not None:
            if value is None and name in params:
                params[name] = None
            elif value is None and name in modules:
                modules[name] = None
            else:
                params.pop(name, None)
                modules.pop(name, None)
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        self._parameters.pop(name, None)
        self._modules.pop(name, None)
        object.__delattr__(self, name)

    # -- calling ----------------------------------------------------------------------------
    def __call__(self, op: OpBuilder, *args: Any, **kwargs: Any) -> Any:
        """Run ``forward(op, *args, **kwargs)`` in the module's scope of ``op``'s builder."""
        builder = getattr(op, "builder", None)
        if builder is None or not hasattr(builder, "push_module"):
            raise TypeError(
                f"call a module with a builder's op first: {type(self).__name__}(...)(op, x) "
                f"where op = GraphBuilder(graph).op, not {type(op).__name__}"
            )
        if self.as_function:
            from onnxscript.nn.functions import call_as_function

            return call_as_function(self, op, args, kwargs)
        return self.run_forward(op, args, kwargs)

    def run_forward(self, op: OpBuilder, args: Any, kwargs: Mapping[str, Any]) -> Any:
        """The ops of ``forward`` recorded inline, in the module's naming scope."""
        builder = op.builder
        with builder.module(self._name or "", type(self).__name__):
            for param in self._parameters.values():
                if param is not None:
                    param.realize(builder)
            return self.forward(op, *args, **kwargs)

    def forward(self, op: OpBuilder, *args: Any, **kwargs: Any) -> Any:
        """The computation: ``op.X(...)`` calls on the inputs and parameters."""
        raise NotImplementedError(f"{type(self).__name__} defines no forward(self, op, ...) method")

    # -- traversal --------------------------------------------------------------------------
    def named_children(self) -> Iterator[tuple[str, Module]]:
        for key, module in self._modules.items():
            if module is not None:
                yield key, module

    def children(self) -> Iterator[Module]:
        for _, module in self.named_children():
            yield module

    def named_modules(self, prefix: str = "") -> Iterator[tuple[str, Module]]:
        """This module (named ``prefix``) and every submodule, each once."""
        seen: set[int] = set()
        stack: list[tuple[str, Module]] = [(prefix, self)]
        while stack:
            key, module = stack.pop(0)
            if id(module) in seen:
                continue
            seen.add(id(module))
            yield key, module
            children = [(_join(key, k), m) for k, m in module.named_children()]
            stack[0:0] = children

    def modules(self) -> Iterator[Module]:
        for _, module in self.named_modules():
            yield module

    def named_parameters(
        self, prefix: str = "", recurse: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        """Parameters by their dotted attribute path (``layers.0.weight``), each once."""
        seen: set[int] = set()
        owners = self.named_modules(prefix) if recurse else iter([(prefix, self)])
        for key, module in owners:
            for attr, param in module._parameters.items():
                if param is not None and id(param) not in seen:
                    seen.add(id(param))
                    yield _join(key, attr), param

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    # -- state ------------------------------------------------------------------------------
    def state_dict(self, prefix: str = "") -> dict[str, ir.TensorProtocol | None]:
        """Each parameter's value by its dotted path (None when it has no data yet)."""
        return {key: param.const_value for key, param in self.named_parameters(prefix)}

    def load_state_dict(self, state_dict: Mapping[str, Any], strict: bool = True) -> LoadResult:
        """Give the parameters the values of ``state_dict`` (``onnx_ir`` tensors, numpy
        arrays or torch tensors), cast to each parameter's element type.

        Every value is checked before any is set: a value of the wrong shape raises
        :class:`StateDictError`, as do (with ``strict``) missing and unknown keys.
        """
        params = dict(self.named_parameters())
        missing = [key for key in params if key not in state_dict]
        unexpected = [key for key in state_dict if key not in params]
        if strict and unexpected:
            raise StateDictError(_unexpected_message(unexpected, params))
        if strict and missing:
            raise StateDictError(f"missing key(s) in state_dict: {', '.join(map(repr, missing))}")
        tensors = {
            key: fitted(state_dict[key], key, param.shape, param.dtype)
            for key, param in params.items()
            if key in state_dict
        }
        for key, tensor in tensors.items():
            params[key].set_data(tensor, key)
        return LoadResult(missing, unexpected)

    # -- display ----------------------------------------------------------------------------
    def __repr__(self) -> str:
        lines = [f"{type(self).__name__}("]
        items: list[tuple[str, object]] = [
            *((k, p) for k, p in self._parameters.items() if p is not None),
            *self.named_children(),
        ]
        for key, item in items:
            text = repr(item).replace("\n", "\n  ")
            lines.append(f"  ({key}): {text}")
        lines.append(")")
        return "\n".join(lines)


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _unexpected_message(unexpected: list[str], params: Mapping[str, Parameter]) -> str:
    parts = []
    for key in unexpected:
        close = difflib.get_close_matches(key, list(params), n=1)
        parts.append(f"{key!r} (did you mean {close[0]!r}?)" if close else repr(key))
    known = list(params)
    shown = ", ".join(known[:8]) + (", ..." if len(known) > 8 else "")
    return f"unexpected key(s) in state_dict: {', '.join(parts)}; the module's keys: {shown}"


__all__ = ["LoadResult", "Module"]
