"""Reading a source a user names (a kernel, an IR file): a text file of bounded size, or why not."""
from __future__ import annotations

from pathlib import Path


class UnreadableFile(Exception):
    """The file cannot be read as text: `why`, in words (each caller says where)."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(why)
        self.path, self.why = path, why


def read_text_file(path: Path, limit: int) -> str:
    """The file's text (bytes that are not UTF-8 replaced); UnreadableFile when it is missing, larger than `limit`
    bytes, or binary."""
    if not path.is_file():
        raise UnreadableFile(path, "no such file")
    size = path.stat().st_size
    if size > limit:
        raise UnreadableFile(path, f"{size} bytes, more than the {limit} this reads")
    data = path.read_bytes()
    if b"\0" in data:
        raise UnreadableFile(path, "not a text file")
    return data.decode("utf-8", errors="replace")
