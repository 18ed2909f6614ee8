"""A redis-server of a test's own, on a free port, that the test stops and starts: never the
shared one the second test pass uses."""

import os
import shutil
import socket
import subprocess
import tempfile
import time

import pytest

from tests.e2e.server import free_port


class RedisServer:
    """One redis-server keeping nothing on disk, so a restart comes back empty, as a Redis
    used as a cache and a channel layer usually does."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            message = "redis-server not found: `apt-get install redis-server` (scripts/test does)"
            if os.environ.get("CI", "").lower() == "true":
                pytest.fail(message)
            pytest.skip(message)
        self.binary = binary
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = tempfile.mkdtemp(prefix="redis-")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        options = ["--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.workdir]
        keep_nothing = ["--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(
            [self.binary, *options, *keep_nothing], stdout=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError(f"redis-server did not listen on {self.port}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)
