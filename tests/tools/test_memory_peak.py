"""``onnxscript.tools.memory_peak``: another process measures this one's memory while code
runs (0.7.2's API; the results below are those 0.7.2 gives on the same calls)."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from onnxscript.tools import memory_peak
from onnxscript.tools.memory_peak import (
    MemorySpy,
    Monitor,
    flatten,
    get_memory_rss,
    start_spying_on,
)


def test_memory_rss_is_this_processs_resident_memory():
    before = get_memory_rss(os.getpid())
    block = np.ones(2**24, dtype=np.uint8)  # 16 MiB, touched
    after = get_memory_rss(os.getpid())
    assert before > 10 * 2**20
    assert after - before >= 15 * 2**20
    del block


def test_monitor_records_peak_sum_count_first_and_last():
    monitor = Monitor()
    for mem in (10.0, 30.0, 20.0):
        monitor.update(mem)
    assert (monitor.max_peak, monitor.average, monitor.n_measures) == (30.0, 60.0, 3)
    assert (monitor.begin, monitor.end) == (10.0, 20.0)
    assert repr(monitor) == "Monitor(peak=30.0, average=60.0, n=3)"
    assert monitor.to_dict() == {"peak": 30.0, "mean": 20.0, "n": 3.0, "begin": 10.0, "end": 20.0}
    # 0.7.2 divides n by the unit too ({"n": 1.5} here) and fails on an empty monitor
    assert monitor.to_dict(unit=2) == {
        "peak": 15.0,
        "mean": 10.0,
        "n": 3.0,
        "begin": 5.0,
        "end": 10.0,
    }
    assert Monitor().to_dict()["mean"] == 0.0


def test_spying_sees_a_peak_and_flatten_gives_mib():
    spy = start_spying_on(delay=0.005)
    assert isinstance(spy, MemorySpy) and spy.pid == os.getpid() and spy.child_process.is_alive()
    block = np.ones(2**26, dtype=np.uint8)  # 64 MiB, held for several measures
    time.sleep(0.2)
    total = int(block.sum())
    del block
    stats = spy.stop()
    assert total > 0
    assert not spy.child_process.is_alive()
    assert list(stats) == ["cpu"] and len(stats["cpu"]) == 1
    cpu = stats["cpu"][0]
    assert cpu.n_measures >= 2 and cpu.max_peak >= cpu.begin
    flat = flatten(stats, prefix="x_")
    assert sorted(flat) == ["x_begin", "x_end", "x_mean", "x_n", "x_peak"]
    assert flat["x_peak"] == pytest.approx(cpu.max_peak / 2**20)
    assert flat["x_peak"] - flat["x_begin"] >= 32  # the 64 MiB block was seen


def test_a_spy_is_started_when_made_and_start_returns_it():
    spy = MemorySpy(os.getpid(), delay=0.01)
    assert spy.start() is spy
    stats = spy.stop()
    assert stats["cpu"][0].n_measures >= 1


def test_cuda_without_pynvml_fails_at_once(monkeypatch):
    real = memory_peak.importlib.import_module

    def without_pynvml(name, *args):
        if name == "pynvml":
            raise ImportError("no pynvml")
        return real(name, *args)

    monkeypatch.setattr(memory_peak.importlib, "import_module", without_pynvml)
    # 0.7.2's spying process dies on the import and its stop() waits forever
    with pytest.raises(ImportError):
        start_spying_on(cuda=True)
