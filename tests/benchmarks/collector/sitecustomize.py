"""Logs the collector's passes in a benchmark's server processes (live_table --gc-log).

Python imports ``sitecustomize`` at start-up if it is on the path; live_table puts this folder
on the servers' PYTHONPATH only when asked, so the product carries no instrument. Each pass
is a line ``time generation milliseconds collected`` in FUDGETABLE_GC_LOG.<pid>.
"""

import gc
import os
import time

_path = os.environ.get("FUDGETABLE_GC_LOG")
if _path:
    _log = open(f"{_path}.{os.getpid()}", "a", buffering=1)  # noqa: SIM115 (the process's life)
    _started: dict[int, float] = {}

    def _timed(phase: str, info: dict[str, int]) -> None:
        generation = info["generation"]
        if phase == "start":
            _started[generation] = time.perf_counter()
            return
        took = (time.perf_counter() - _started.pop(generation, time.perf_counter())) * 1000
        _log.write(f"{time.time():.3f} {generation} {took:.2f} {info['collected']}\n")

    gc.callbacks.append(_timed)
