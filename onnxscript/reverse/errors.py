"""The exception raised when a proto cannot be translated."""

from __future__ import annotations


class TranslationError(ValueError):
    """The proto cannot be translated (for example it reads a value nobody defines, or
    uses a construct that scripts cannot express, such as a list-of-graphs attribute)."""
