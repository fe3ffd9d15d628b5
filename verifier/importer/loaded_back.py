"""A reader's spec loaded back before it is handed on: the spec loader refusing what a reader wrote (a check of
mismatched fields, a layout its value type cannot have) is the reader's bug -- an internal error, exit 4 -- and never
reaches the user as their bad input (exit 2) when they prove the spec."""
from __future__ import annotations

import tempfile
from pathlib import Path

from ..specfile.model import Spec, SpecError

WRITTEN_NAME = "written.yaml"       # the name the written text is loaded under (the message says "line L:C")


class ReaderBug(Exception):
    """A reader wrote a spec the loader refuses (a bug of the tool)."""


def load_written(text: str, reader: str, path: Path) -> Spec:
    """The spec `reader` wrote (its text), written to `path` and loaded as `prove` loads it; ReaderBug when the loader
    refuses it."""
    from ..specfile import load_spec
    path.write_text(text, encoding="utf-8")
    try:
        return load_spec(path, allow_outside=True)
    except SpecError as e:
        where = f"line {e.loc.line}:{e.loc.column}" if e.loc is not None else "its text"
        raise ReaderBug(f"{reader} wrote a spec the spec loader refuses, at {where} of what it wrote: "
                        f"{e.message}") from None


def load_back(text: str, reader: str) -> None:
    """Load the spec `reader` wrote as `prove` will (`load_written`, in a temporary directory)."""
    with tempfile.TemporaryDirectory(prefix="verifier_written_") as tmp:
        load_written(text, reader, Path(tmp) / WRITTEN_NAME)


__all__ = ["ReaderBug", "load_back", "load_written"]
