"""E-mail goes out after the answer: pages queue what to send, and one thread of the process
writes and sends it.

A mail server takes half a second or more to take a message. Sent while the page waited, that
time said which addresses have an account (a reset asked for one answered in 0.59 s, for an
address without one in 0.01-0.02 s), and it held one of the process's few turns meanwhile.
Queued, every ask answers in the time of the one database query it makes. The message is
written in the thread as well (its templates, its language), so that no part of the work
depends on whether there was anyone to write to."""

import atexit
import logging
import queue
import threading
import time
from collections.abc import Callable

from django.utils import translation

logger = logging.getLogger(__name__)

Job = Callable[[], None]

# Mail still queued when the process stops gets this long to go out.
_DRAIN_SECONDS = 10.0

_jobs: queue.Queue[tuple[Job, str | None]] = queue.Queue()
_start_lock = threading.Lock()
_sender: threading.Thread | None = None


def send_later(job: Job) -> None:
    """Runs ``job`` (which writes and sends one or more e-mails) on the outbox's thread, in the
    language active now. A job that fails is logged; the page that queued it has answered."""
    _jobs.put((job, translation.get_language()))
    _ensure_sender()


def wait_sent(timeout: float = _DRAIN_SECONDS) -> bool:
    """Waits until everything queued so far was handed to the mail server (or failed); False
    if ``timeout`` passed first. For tests, and for the process's exit."""
    deadline = time.monotonic() + timeout
    with _jobs.all_tasks_done:
        while _jobs.unfinished_tasks:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            _jobs.all_tasks_done.wait(left)
    return True


def _ensure_sender() -> None:
    global _sender
    with _start_lock:
        if _sender is None or not _sender.is_alive():
            _sender = threading.Thread(target=_send_forever, name="outbox", daemon=True)
            _sender.start()


def _send_forever() -> None:
    while True:
        job, language = _jobs.get()
        try:
            with translation.override(language):
                job()
        except Exception:
            logger.exception("An e-mail could not be sent")
        finally:
            _jobs.task_done()


atexit.register(wait_sent)
