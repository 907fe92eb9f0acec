"""onnxscript 0.7's ``onnxscript.tools.memory_peak``: the memory a process uses, measured
by another process while code runs.

.. code-block:: python

    from onnxscript.tools.memory_peak import flatten, start_spying_on

    spy = start_spying_on()
    ...  # the code to measure
    print(flatten(spy.stop()))  # peak, mean, number of measures, first and last, in MiB
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
from typing import Any


def get_memory_rss(pid: int) -> int:
    """The resident memory (bytes) of process ``pid``: psutil's measure when installed,
    else Linux's ``/proc/<pid>/statm``."""
    try:
        psutil = importlib.import_module("psutil")
    except ImportError:
        with open(f"/proc/{pid}/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE")
    rss: int = psutil.Process(pid).memory_info().rss
    return rss


class Monitor:
    """The measures of one memory: the peak, their sum (``average``), their number, the
    first and the last."""

    def __init__(self) -> None:
        self.max_peak: float = 0
        self.average: float = 0
        self.n_measures = 0
        self.begin: float = 0
        self.end: float = 0

    def update(self, mem: float) -> None:
        """Add a measure."""
        if self.n_measures == 0:
            self.begin = mem
        self.max_peak = max(self.max_peak, mem)
        self.average += mem
        self.end = mem
        self.n_measures += 1

    def to_dict(self, unit: int = 1) -> dict[str, float]:
        """``peak``, ``mean``, ``begin``, ``end`` in ``unit`` bytes, and ``n`` the number
        of measures (0.7 divides ``n`` by ``unit`` too)."""
        mean = self.average / self.n_measures if self.n_measures else 0.0
        return {
            "peak": self.max_peak / unit,
            "mean": mean / unit,
            "n": float(self.n_measures),
            "begin": self.begin / unit,
            "end": self.end / unit,
        }

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(peak={self.max_peak}, average={self.average}, "
            f"n={self.n_measures})"
        )

    def send(self, conn: Any) -> None:
        """Send the measures through a multiprocessing connection."""
        conn.send((self.max_peak, self.average, self.n_measures, self.begin, self.end))

    @classmethod
    def recv(cls, conn: Any) -> Monitor:
        """A monitor with the measures received from a connection."""
        monitor = cls()
        values = conn.recv()
        monitor.max_peak, monitor.average, monitor.n_measures, monitor.begin, monitor.end = values
        return monitor


_STOP = "stop"


def _gpu_memories() -> Any:
    """A function giving the memory used on each CUDA device (pynvml's measure)."""
    pynvml = importlib.import_module("pynvml")
    pynvml.nvmlInit()
    handles = [pynvml.nvmlDeviceGetHandleByIndex(i) for i in range(pynvml.nvmlDeviceGetCount())]

    def used() -> list[float]:
        return [float(pynvml.nvmlDeviceGetMemoryInfo(h).used) for h in handles]

    return used


def _spy(pid: int, delay: float, cuda: bool, conn: Any) -> None:
    """The spying process: measure every ``delay`` seconds until told to stop, then send
    the monitors back."""
    cpu = Monitor()
    gpu_used = _gpu_memories() if cuda else None
    gpus = [Monitor() for _ in gpu_used()] if gpu_used is not None else []

    def measure() -> None:
        cpu.update(get_memory_rss(pid))
        if gpu_used is not None:
            for monitor, used in zip(gpus, gpu_used()):
                monitor.update(used)

    measure()  # before the spied process goes on: the first measure is the baseline
    conn.send("ready")
    while not (conn.poll(delay) and conn.recv() == _STOP):
        measure()
    measure()
    conn.send(len(gpus))
    cpu.send(conn)
    for monitor in gpus:
        monitor.send(conn)
    conn.close()


class MemorySpy:
    """Spies on the memory of process ``pid`` every ``delay`` seconds from another process
    (started at once; ``start`` returns the spy); ``stop`` ends it and returns the
    measures: ``{"cpu": [Monitor]}``, plus ``"gpus"`` (one monitor per CUDA device, through
    pynvml) with ``cuda``."""

    def __init__(self, pid: int, delay: float = 0.01, cuda: bool = False) -> None:
        if cuda:
            importlib.import_module("pynvml")  # fail here, not in the spying process

        self.pid = pid
        self.delay = delay
        self.cuda = cuda
        self.parent_conn, self.child_conn = multiprocessing.Pipe()
        self.child_process = multiprocessing.Process(
            target=_spy, args=(pid, delay, cuda, self.child_conn), daemon=True
        )
        self.start()

    def start(self) -> MemorySpy:
        """Start spying (done when made); returns the spy once the measures have begun."""
        if self.child_process.pid is None:
            self.child_process.start()
            ready = self.parent_conn.recv()
            if ready != "ready":
                raise RuntimeError(f"the memory spy did not start: {ready!r}")
        return self

    def stop(self) -> dict[str, list[Monitor]]:
        """Stop spying; the measures by kind (``cpu``, ``gpus``)."""
        self.parent_conn.send(_STOP)
        n_gpus = self.parent_conn.recv()
        stats = {"cpu": [Monitor.recv(self.parent_conn)]}
        if self.cuda:
            stats["gpus"] = [Monitor.recv(self.parent_conn) for _ in range(n_gpus)]
        self.child_process.join()
        return stats


def start_spying_on(pid: int | None = None, delay: float = 0.01, cuda: bool = False) -> MemorySpy:
    """A :class:`MemorySpy` on process ``pid`` (this one by default), started; call its
    ``stop()`` after the code to measure."""
    return MemorySpy(os.getpid() if pid is None else pid, delay, cuda)


def flatten(ps: dict[str, list[Monitor]], prefix: str = "") -> dict[str, float]:
    """The measures of :meth:`MemorySpy.stop` in MiB, as one flat dictionary:
    ``<prefix>peak``, ... for the process, ``<prefix>gpu<i>_peak``, ... for each GPU."""
    flat: dict[str, float] = {}
    for monitor in ps.get("cpu", []):
        flat.update({f"{prefix}{k}": v for k, v in monitor.to_dict(unit=2**20).items()})
    for index, monitor in enumerate(ps.get("gpus", [])):
        flat.update({f"{prefix}gpu{index}_{k}": v for k, v in monitor.to_dict(unit=2**20).items()})
    return flat


__all__ = ["MemorySpy", "Monitor", "flatten", "get_memory_rss", "start_spying_on"]
