"""What large request bodies cost a real daphne in memory: the peak of its resident memory over
what it held before, for anonymous multipart POSTs to /login/ of 100 MB (with and without a
Content-Length) and of 19 MB, within the limit. tests/fudgetable/test_body_limit.py holds
the 100 MB ones to less than twice MAX_BODY_MB; docs/performance.md has the figures.

    .venv/bin/python -m tests.benchmarks.request_bodies
"""

import http.client
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil

from tests.e2e.server import AppServer

MB = 1024 * 1024


class PeakMemory:
    """A process's resident memory, sampled every few milliseconds while the block runs."""

    def __init__(self, pid: int) -> None:
        self.process = psutil.Process(pid)
        self.before = self.peak = self.process.memory_info().rss
        self._running = True
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while self._running:
            self.peak = max(self.peak, self.process.memory_info().rss)
            time.sleep(0.002)

    def __enter__(self) -> "PeakMemory":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        time.sleep(0.2)  # the answer's last allocations
        self._running = False
        self._thread.join()

    @property
    def grown(self) -> int:
        return self.peak - self.before


def megabytes(count: int) -> Iterator[bytes]:
    block = b"x" * MB
    for _ in range(count):
        yield block


def post(
    server: AppServer, size: int, *, declared: bool, kind: str = "multipart"
) -> tuple[int, str]:
    """An anonymous POST of ``size`` MB to /login/, with its length or sent chunked."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=300)
    headers = {"Content-Type": f"{kind}/form-data; boundary=x"}
    if declared:
        headers["Content-Length"] = str(size * MB)
    connection.request(
        "POST", "/login/", body=megabytes(size), headers=headers, encode_chunked=not declared
    )
    response = connection.getresponse()
    answer = (response.status, response.read().decode())
    connection.close()
    return answer


def warmed(server: AppServer) -> None:
    """Django's request path loaded, as in a server that has answered a few requests."""
    post(server, 1, declared=True, kind="application")


def peak_of(server: AppServer, size: int, *, declared: bool) -> tuple[int, str, int]:
    """``post``'s answer, and how much the server's memory grew at its peak meanwhile."""
    assert server.process is not None
    with PeakMemory(server.process.pid) as memory:
        status, words = post(server, size, declared=declared)
    return status, words, memory.grown


def main() -> None:
    with tempfile.TemporaryDirectory() as workdir:
        server = AppServer(Path(workdir))  # the health check and /login/ need no database
        server.start()
        try:
            warmed(server)
            for size, declared in ((100, True), (100, False), (19, True)):
                status, _, grown = peak_of(server, size, declared=declared)
                how = "with its length" if declared else "chunked"
                print(f"{size} MB {how}: {status}, peak +{grown / MB:.0f} MB")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
