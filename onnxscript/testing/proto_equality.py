"""Field-by-field equality of two onnx protos (onnxscript 0.7's ``assert_onnx_proto_equal``).

Every field is compared, names and order included, except:

- a field left unset equals the same field set to its default (``""``, ``0``, an empty
  message), as protobuf reads them;
- ``opset_import`` (by domain and version), ``value_info`` (by name) and ``functions`` (by
  domain, name and overload) are compared as collections keyed that way, in any order;
- a float NaN equals a NaN.

For comparing up to value names and node order, see :mod:`onnxscript.testing.isomorphism`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any

Message = Any
"""A protobuf message (``onnx.ModelProto``, ``onnx.NodeProto``, ...)."""

_KEYS: dict[str, Callable[[Any], Hashable]] = {
    "opset_import": lambda o: (o.domain, o.version),
    "value_info": lambda v: v.name,
    "functions": lambda f: (f.domain, f.name, f.overload),
}
"""The repeated fields compared regardless of order, and the key of their elements."""


def assert_onnx_proto_equal(
    actual: Message, expected: Message, ignore_initializer_value_proto: bool = False
) -> None:
    """Assert that two onnx protos have the same fields with the same values (see the
    module docstring for what is disregarded); AssertionError listing the differences
    otherwise. With ``ignore_initializer_value_proto``, the ``value_info`` entries of
    a graph's initializers are disregarded (on either side: each graph's own)."""
    for value in (actual, expected):
        if not hasattr(value, "DESCRIPTOR") or not hasattr(value, "ListFields"):
            raise TypeError(f"expected an onnx proto, got {type(value).__name__}")
    errors = _differences(actual, expected, ignore_initializer_value_proto)
    if errors:
        raise AssertionError("\n".join(errors))


def _differences(actual: Message, expected: Message, ignore_initializers: bool) -> list[str]:
    if type(actual) is not type(expected):
        return [f"Type not equal: {type(actual)} != {type(expected)}"]
    errors: list[str] = []
    for field in actual.DESCRIPTOR.fields:
        name = field.name
        a_value = getattr(actual, name)
        b_value = getattr(expected, name)
        is_message = field.message_type is not None
        if field.is_repeated:
            if name in _KEYS:
                if name == "value_info" and ignore_initializers and hasattr(actual, "initializer"):
                    a_value = _without_initializers(a_value, actual.initializer)
                    b_value = _without_initializers(b_value, expected.initializer)
                errors.extend(_keyed_differences(name, a_value, b_value, ignore_initializers))
            else:
                errors.extend(
                    _sequence_differences(name, a_value, b_value, is_message, ignore_initializers)
                )
        elif is_message:
            # unset on both sides: equal (an unset message reads as an empty one, whose own
            # message fields would be read forever: TypeProto holds TypeProtos)
            if actual.HasField(name) or expected.HasField(name):
                errors.extend(_differences(a_value, b_value, ignore_initializers))
        elif not _same(a_value, b_value):
            errors.append(
                f"Field {name} not equal. field_actual: {a_value}, field_expected: {b_value}"
            )
    if errors:
        return [f"Protos not equal: {type(actual)} != {type(expected)}", *errors]
    return []


def _without_initializers(
    value_infos: Sequence[Message], initializers: Sequence[Message]
) -> list[Message]:
    """The value infos of a graph but those of its initializers."""
    names = {init.name for init in initializers}
    return [info for info in value_infos if info.name not in names]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)


def _sequence_differences(
    name: str, actual: Sequence[Any], expected: Sequence[Any], messages: bool, ignore: bool
) -> list[str]:
    if len(actual) != len(expected):
        return [
            f"Field {name} not equal: len(a)={len(actual)}, len(b)={len(expected)} "
            f"Field type: {type(actual)}"
        ]
    errors: list[str] = []
    for index, (a_item, b_item) in enumerate(zip(actual, expected)):
        if messages:
            inner = _differences(a_item, b_item, ignore)
            if inner:
                errors.extend(inner)
                errors.append(
                    f"\nCaused by the above error\n\nField {name} index {index} in sequence not equal."
                )
        elif not _same(a_item, b_item):
            errors.append(
                f"Field {name} index {index} in sequence not equal: - {a_item!r} + {b_item!r}"
            )
    return errors


def _keyed_differences(
    name: str,
    actual: Sequence[Message],
    expected: Sequence[Message],
    ignore: bool,
) -> list[str]:
    key = _KEYS[name]
    a_by_key: dict[Hashable, list[Message]] = {}
    b_by_key: dict[Hashable, list[Message]] = {}
    for items, by_key in ((actual, a_by_key), (expected, b_by_key)):
        for item in items:
            by_key.setdefault(key(item), []).append(item)
    only_a = a_by_key.keys() - b_by_key.keys()
    only_b = b_by_key.keys() - a_by_key.keys()
    a_dups = sorted((k for k, v in a_by_key.items() if len(v) > 1), key=repr)
    b_dups = sorted((k for k, v in b_by_key.items() if len(v) > 1), key=repr)
    counts_differ = any(
        len(a_by_key[k]) != len(b_by_key[k]) for k in a_by_key.keys() & b_by_key.keys()
    )
    if only_a or only_b or counts_differ:
        return [
            f"Field {name} not equal: keys_only_in_actual={set(only_a)}, "
            f"keys_only_in_expected={set(only_b)}. Field type: {list}. "
            f"Duplicated a_keys: {a_dups}, duplicated b_keys: {b_dups}"
        ]
    errors: list[str] = []
    for k in sorted(a_by_key, key=repr):
        for index, (a_item, b_item) in enumerate(zip(a_by_key[k], b_by_key[k])):
            inner = _differences(a_item, b_item, ignore)
            if inner:
                errors.extend(inner)
                errors.append(
                    f"\nCaused by the above error\n\nField {name} {k!r} ({index}) not equal."
                )
    return errors


__all__ = ["assert_onnx_proto_equal"]
