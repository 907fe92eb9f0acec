"""Property test: random programs of the script language (the generator of the converter's
own property test), compiled, translated back and compiled again give the same graph, the
same text when translated again, and the same results.
"""

from __future__ import annotations

import itertools
import os

import numpy as np
from hypothesis import HealthCheck, given, settings

from onnxscript import FLOAT, INT64, register_source, script
from onnxscript.reverse import proto2python
from onnxscript.testing.isomorphism import differences
from tests.converter.test_random_programs import INPUTS, programs
from tests.reverse.common import compiled, run

_ids = itertools.count()
_EXAMPLES = int(os.environ.get("ONNXSCRIPT_FUZZ_EXAMPLES", "40"))


@settings(
    max_examples=_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize="ONNXSCRIPT_FUZZ_EXAMPLES" not in os.environ,
)
@given(programs())
def test_random_programs_round_trip(source):
    filename = f"<reverse-random-{next(_ids)}>"
    register_source(source, filename)
    namespace = {"FLOAT": FLOAT, "INT64": INT64}
    exec(compile(source, filename, "exec"), namespace)
    model = script()(namespace["f"]).to_model_proto()
    text = proto2python(model)
    back = compiled(text)
    found = differences(model, back, canonical=True)
    assert not found, f"{source}\n{text}"
    again = proto2python(back)
    assert again == text, f"{source}\n{text}\n---\n{again}"
    with np.errstate(all="ignore"):
        for inputs in INPUTS:
            args = [np.asarray(v) for v in inputs]
            expected = run(model, *args)
            got = run(back, *args)
            np.testing.assert_array_equal(got[0], expected[0])
