"""Repeating a user's text in a message: cut short, control characters escaped (no module here imports more)."""
from __future__ import annotations

ECHO_LIMIT = 60             # at most this many characters of the user's text are repeated in a message
PATH_ECHO_LIMIT = 200       # characters of a path repeated in a message


def shorten(text: str, limit: int = ECHO_LIMIT) -> str:
    """`text`, cut to `limit` characters with a trailing '...' when longer (for echoing user data)."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def quote(text: str, limit: int = ECHO_LIMIT) -> str:
    """`text` quoted for a message: control characters escaped (repr), cut after `limit` characters."""
    shown = repr(text[:limit])
    return shown if len(text) <= limit else shown[:-1] + "..." + shown[-1]


def quote_path(path: str) -> str:
    return quote(path, PATH_ECHO_LIMIT)
