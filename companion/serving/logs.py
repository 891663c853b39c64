"""The server's log on stderr: a line per record with its time (UTC), level and logger, as text
for a terminal or as JSON lines for a log collector. Whatever the format, journald or a
collector must be able to sort, filter and search it without knowing this program."""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import TextIO

FORMATS = ("text", "json")
LEVELS = ("debug", "info", "warning", "error")


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {"time": self.formatTime(record), "level": record.levelname, "logger": record.name,
                "message": record.getMessage()}
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


ROUTINE = ("alembic",)  # loggers whose INFO is routine on every start


class Routine(logging.Filter):
    """The INFO of the ``ROUTINE`` loggers (Alembic's "Context impl SQLiteImpl." and a line for
    each migration step, on every start) as DEBUG: kept for --log-level debug, out of the
    journal otherwise. On the handler: a logger's own filter never sees its children's records."""

    def __init__(self, level: int) -> None:
        super().__init__()
        self.level = level

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.INFO and record.name.split(".")[0] in ROUTINE:
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return record.levelno >= self.level


def _utc(formatter: logging.Formatter) -> logging.Formatter:
    formatter.converter = time.gmtime
    formatter.default_msec_format = "%s.%03dZ"
    formatter.default_time_format = "%Y-%m-%dT%H:%M:%S"
    return formatter


def configure(level: str = "info", fmt: str = "text", stream: TextIO | None = None) -> None:
    """Send every logger's records at ``level`` and above to ``stream`` (stderr) in ``fmt``."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(_utc(JsonLines() if fmt == "json" else
                              logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")))
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    handler.addFilter(Routine(root.level))
