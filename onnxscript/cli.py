"""The command line: ``onnxscript model.onnx`` (the console script installed with the
package) or ``python -m onnxscript model.onnx`` prints the model as script.

    onnxscript model.onnx              # print the script
    onnxscript model.onnx -o model.py  # write it to a file
    onnxscript model.onnx --check      # also compile it back and report
    onnxscript --version               # the package's version

``--check`` compiles the script back, compares the result with the original model (same
nodes up to renaming), translates it again (the text must not change) and runs both
models with onnxruntime on random inputs; the exit code is 1 when any of that fails.

Any failure (a missing, corrupt or malformed model, a file that cannot be written) is one
line on stderr and exit code 1 (2 for a missing file); set ``ONNXSCRIPT_TRACEBACK=1`` to
see the full traceback instead.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from onnxscript import __version__
from onnxscript.errors import TRACEBACK_VARIABLE
from onnxscript.reverse.options import Options


def program_name(argv0: str) -> str:
    """The program as the user invoked it, for the usage line: ``onnxscript`` (the console
    script), else ``python -m onnxscript`` (``argv0`` is then the path of ``__main__.py``)."""
    name = argv0.replace("\\", "/").rsplit("/", 1)[-1]
    return "onnxscript" if name in ("onnxscript", "onnxscript.exe") else "python -m onnxscript"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=program_name(sys.argv[0] if sys.argv else ""),
        description="Translate an ONNX model (or function) into onnxscript source.",
    )
    parser.add_argument("--version", action="version", version=f"onnxscript {__version__}")
    parser.add_argument("model", help="an ONNX model file (.onnx)")
    parser.add_argument("-o", "--output", help="write the script here instead of printing it")
    parser.add_argument(
        "--check", action="store_true", help="compile the script back and report whether it matches"
    )
    parser.add_argument("--function-name", help="name of the main function")
    parser.add_argument("--rename", action="store_true", help="short variable names")
    parser.add_argument(
        "--operators",
        action="store_true",
        help="write arithmetic and comparisons as Python operators",
    )
    parser.add_argument(
        "--inline-const",
        action="store_true",
        help="write small constants used once where they are used",
    )
    parser.add_argument(
        "--skip-initializers",
        action="store_true",
        help="make initializers inputs of the main function",
    )
    parser.add_argument(
        "--inline-limit",
        type=int,
        default=Options.inline_limit,
        help=f"largest tensor (elements) written in place (default {Options.inline_limit})",
    )
    parser.add_argument(
        "--large-limit",
        type=int,
        default=Options.large_limit,
        help="tensors with more elements are read from the model file at "
        f"compile time (default {Options.large_limit})",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    path = args.model
    if not os.path.exists(path):
        print(f"error: {path}: no such file", file=sys.stderr)
        return 2
    options = {
        "function_name": args.function_name,
        "rename": args.rename,
        "use_operators": args.operators,
        "inline_const": args.inline_const,
        "skip_initializers": args.skip_initializers,
        "inline_limit": args.inline_limit,
        "large_limit": args.large_limit,
        # Large tensors are read back from the model; an absolute path keeps working when
        # the script is run from another directory.
        "tensor_file": os.path.abspath(path),
    }
    try:
        return _run(args, path, options)
    except Exception as exc:
        if os.environ.get(TRACEBACK_VARIABLE):
            raise
        print(f"error: {path}: {_one_line(exc)}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace, path: str, options: dict[str, Any]) -> int:
    import onnx

    from onnxscript.reverse import proto2python
    from onnxscript.reverse.roundtrip import check

    model = onnx.load(path, load_external_data=False)
    source = proto2python(model, **options)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(source)
    else:
        sys.stdout.write(source)
    if not args.check:
        return 0
    result = check(model, source, **options)
    print(result.report(), file=sys.stderr if not args.output else sys.stdout)
    return 0 if result.ok else 1


def _one_line(exc: BaseException) -> str:
    """The exception as one line: its type (unless the message is the whole story) and
    the first line of its message."""
    lines = str(exc).strip().splitlines()
    message = lines[0] if lines else ""
    kind = type(exc).__name__
    if isinstance(exc, OSError) and exc.strerror:
        message = exc.strerror + (f": {exc.filename}" if exc.filename else "")
    return f"{kind}: {message}" if message else kind


if __name__ == "__main__":
    sys.exit(main())
