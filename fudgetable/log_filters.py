"""Filters for the log's one handler."""

import logging


class RefusalsWithoutTraceback(logging.Filter):
    """A refused request (a 4xx: a 403 for a player at a GM's page, a 404) is one line: it is
    the app answering as designed, and its traceback only buried the real errors. A 5xx keeps
    its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", 500) < 500:
            record.exc_info = None
            record.exc_text = None
        return True
