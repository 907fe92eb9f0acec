"""Refresh ``docs/torch_lib_ops_missing.md``: the overloads onnxscript 0.7.2 registers
(``tests/function_libs/data/onnxscript_0_7_2_overloads.txt``) that we do not, each with
the reason it is missing. Reasons already written are kept, a newly missing overload gets
"pending", a registered one leaves the table. Run: ``python tools/missing_overloads.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / "tests" / "function_libs" / "data" / "onnxscript_0_7_2_overloads.txt"
DOC = ROOT / "docs" / "torch_lib_ops_missing.md"
PENDING = "pending"

HEADER = """# Overloads of onnxscript 0.7.2 not registered here

onnxscript 0.7.2 registers {count} distinct ATen overloads (the list:
`tests/function_libs/data/onnxscript_0_7_2_overloads.txt`). Each one this package does
not register is below with the reason; `tests/function_libs/test_overload_superset.py`
fails on a missing overload absent from this table, and (with
`ONNXSCRIPT_STRICT_SUPERSET=1`) on a reason still "{pending}". Refreshed by
`python tools/missing_overloads.py`, which keeps the reasons written here.

| overload | reason |
| --- | --- |
"""

_ROW = re.compile(r"^\|\s*`?([^|`]+?)`?\s*\|\s*(.*?)\s*\|\s*$")


def baseline_overloads(path: Path = BASELINE) -> list[str]:
    """The qualified names of the list (comment lines skipped)."""
    lines = (line.strip() for line in path.read_text().splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def read_table(text: str) -> dict[str, str]:
    """The table's rows: overload -> reason (the header and rule rows skipped)."""
    rows: dict[str, str] = {}
    for line in text.splitlines():
        match = _ROW.match(line.strip())
        if match is None or match[1] == "overload" or set(match[1]) <= set("- "):
            continue
        rows[match[1].strip()] = match[2]
    return rows


def render(missing: list[str], reasons: dict[str, str], count: int) -> str:
    rows = "".join(
        f"| `{name}` | {reasons.get(name, '').strip() or PENDING} |\n" for name in missing
    )
    return HEADER.format(count=count, pending=PENDING) + rows


def main() -> None:
    from onnxscript._framework_apis.torch_2_11 import get_torchlib_ops

    ours = {record.qualified_name for record in get_torchlib_ops()}
    baseline = baseline_overloads()
    reasons = read_table(DOC.read_text()) if DOC.exists() else {}
    missing = [name for name in baseline if name not in ours]
    DOC.write_text(render(missing, reasons, len(baseline)))
    print(f"{len(missing)} of {len(baseline)} overloads of 0.7.2 missing; {DOC} written")


if __name__ == "__main__":
    main()
