"""``ModuleList`` and ``Sequential``: modules held by index, as in ``torch.nn``.

Children are registered under ``"0"``, ``"1"``, ... so parameter paths read
``layers.0.weight``. A ``ModuleList`` is iterated, not called, so its children are named
with its own name (``layers.0``) and scope their values and parameters with it; a
``Sequential`` is called, opens its own scope, and its children keep ``"0"``, ``"1"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, overload

from onnxscript.nn.module import Module

if TYPE_CHECKING:
    from onnxscript.builder.op_builder import OpBuilder


class ModuleList(Module):
    """A list of modules: ``append``, ``extend``, indexing, slicing, ``len``, iteration."""

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def _child_name(self, key: str) -> str:
        return f"{self._name}.{key}" if self._name else key

    def _set_name(self, name: str) -> None:
        super()._set_name(name)
        for key, module in self.named_children():
            module._set_name(self._child_name(key))

    def _register_child(self, key: str, module: Module) -> None:
        if not isinstance(module, Module):
            raise TypeError(f"{type(self).__name__} holds modules, not {type(module).__name__}")
        self._modules[key] = module
        module._set_name(self._child_name(key))
        object.__setattr__(self, key, module)

    def append(self, module: Module) -> ModuleList:
        self._register_child(str(len(self._modules)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        for module in modules:
            self.append(module)
        return self

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return self.children()

    @overload
    def __getitem__(self, index: int) -> Module: ...
    @overload
    def __getitem__(self, index: slice) -> ModuleList: ...
    def __getitem__(self, index: int | slice) -> Module | ModuleList:
        items = list(self.children())
        if isinstance(index, slice):
            part = ModuleList()
            for key, module in enumerate(items[index]):
                part._modules[str(key)] = module  # the modules keep their names
            return part
        try:
            return items[index]
        except IndexError:
            raise IndexError(
                f"index {index} is out of range for a {type(self).__name__} of {len(items)}"
            ) from None

    def forward(self, op: OpBuilder, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(
            "a ModuleList is not called: iterate over it (for layer in self.layers: "
            "x = layer(op, x)), or use Sequential"
        )


class Sequential(ModuleList):
    """Modules called in order, each on the previous one's output."""

    def __init__(self, *modules: Module) -> None:
        super().__init__(modules)

    def _child_name(self, key: str) -> str:
        return key

    def forward(self, op: OpBuilder, input: Any) -> Any:
        for module in self.children():
            input = module(op, input)
        return input


__all__ = ["ModuleList", "Sequential"]
