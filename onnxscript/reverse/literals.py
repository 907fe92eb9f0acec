"""Python literals for untrusted values: strings, bytes, numbers, doc strings and comments.

Everything here returns text that Python parses back to exactly the given value and that
cannot end the literal early, whatever the value contains (quotes, backslashes, newlines,
NUL, line separators, ...).
"""

from __future__ import annotations

import math

import numpy as np

from onnxscript.errors import TranslationError


def string(value: str) -> str:
    """A string literal: ``repr`` escapes quotes, backslashes and every line break.

    Double quotes are preferred, as in formatted Python code. A proto string field that
    is not UTF-8 text (protobuf then gives ``bytes``) is a :class:`TranslationError`.
    """
    if type(value) is not str:
        raise TranslationError(f"a name or text field of the model is not UTF-8 text: {value!r}")
    text = repr(value)
    if text[0] == "'" and '"' not in value:
        return '"' + text[1:-1] + '"'
    return text


def text_or_bytes(value: bytes) -> str:
    """A ``str`` literal when ``value`` is UTF-8 text, else ``bytes([...])``.

    Scripts reject ``b"..."`` literals, while ``bytes([...])`` is evaluated when the script
    is compiled, so both forms can be used inside a script.
    """
    try:
        return string(value.decode("utf-8"))
    except UnicodeDecodeError:
        return "bytes([" + ", ".join(str(b) for b in value) + "])"


def python_float(value: float) -> str:
    """A double, written so that it reads back bit for bit (``float('nan')`` for NaN)."""
    if math.isfinite(value):
        return repr(value)
    if math.isnan(value):
        return 'float("nan")'
    return 'float("inf")' if value > 0 else 'float("-inf")'


def float32(value: float) -> str:
    """A float32 value with the fewest digits that read back to the same float32.

    Attribute floats are stored as float32; ``0.1`` reads better than
    ``0.10000000149011612`` and converts back to the same bits.
    """
    if math.isfinite(value):
        text = str(np.float32(value))
        if "e" not in text and "." not in text and "inf" not in text:
            text += ".0"
        return text
    return python_float(value)


def _printable(line: str) -> str:
    """``line`` with every character that is not printable escaped (``\\x00``, ``\\u2028``)."""
    if line.isprintable():
        return line
    out = []
    for ch in line:
        if ch.isprintable():
            out.append(ch)
        else:
            code = ord(ch)
            out.append(
                f"\\x{code:02x}"
                if code < 0x100
                else f"\\u{code:04x}"
                if code < 0x10000
                else f"\\U{code:08x}"
            )
    return "".join(out)


def comment_lines(text: str, indent: str) -> list[str]:
    """``text`` as comment lines; control characters and line separators are escaped so
    that nothing in ``text`` can start a new line of code."""
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    return [f"{indent}# {_printable(line)}".rstrip() for line in lines]


def docstring(text: str, indent: str) -> list[str]:
    """Lines of a doc string literal for ``text``.

    Plain text becomes a triple-quoted block; anything that could be misread inside one
    (backslashes, quotes at the edges, control characters) falls back to ``repr``.
    """
    lines = text.split("\n")
    plain = (
        '"""' not in text
        and "\\" not in text
        and not text.endswith('"')
        and not text.startswith('"')
        and all(line.isprintable() for line in lines)
        and "\r" not in text
    )
    if not plain:
        return [indent + repr(text)]
    if len(lines) == 1:
        return [f'{indent}"""{text}"""']
    out = [f'{indent}"""{lines[0]}']
    out.extend((indent + line) if line else "" for line in lines[1:])
    out.append(f'{indent}"""')
    return out
