"""Property test: random programs of the script language (the generator of the converter's
own property test), compiled, translated back and compiled again give the same graph, the
same text when translated again, and the same results.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given

from onnxscript import FLOAT, INT64, script
from onnxscript.testing import run_model
from tests.converter.test_random_programs import INPUTS, programs
from tests.helpers import define, fuzz_settings
from tests.reverse.common import assert_roundtrip


@fuzz_settings(40)
@given(programs())
def test_random_programs_round_trip(source):
    model = script()(define(source, {"FLOAT": FLOAT, "INT64": INT64})).to_model_proto()
    # The results are compared on INPUTS (below) instead of random inputs.
    _, back = assert_roundtrip(model, run=False)
    with np.errstate(all="ignore"):
        for inputs in INPUTS:
            args = [np.asarray(v) for v in inputs]
            expected = run_model(model, args)
            got = run_model(back, args)
            np.testing.assert_array_equal(got[0], expected[0])
