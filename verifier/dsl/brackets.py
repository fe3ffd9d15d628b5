"""Reading MLIR text at its top level: where quotes and brackets (`( [ { <`) are open, an `->` being no bracket.
One scanner; the splitting and searching the two readers (mlir_text.py, cute_types.py) need are built on it."""
from __future__ import annotations

from collections.abc import Iterator

OPEN, CLOSE = "([{<", ")]}>"
ARROW = "->"


def top_level(text: str) -> Iterator[tuple[int, int]]:
    """(position, depth) of every character outside quotes, depth counted before it; an `->` is yielded once, at
    its `-`, and a bracket at the depth outside it."""
    depth, i, quoted = 0, 0, False
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif text.startswith(ARROW, i):
            yield i, depth
            i += 1
        elif ch in OPEN:
            yield i, depth
            depth += 1
        elif ch in CLOSE:
            depth -= 1
            yield i, depth
        else:
            yield i, depth
        i += 1


def find_top(text: str, needle: str) -> int:
    """The first position of `needle` outside quotes and brackets, or -1."""
    for i, depth in top_level(text):
        if depth == 0 and text.startswith(needle, i):
            return i
    return -1


def closing(text: str) -> int:
    """The position of the bracket closing the one `text` opens with, or -1."""
    for i, depth in top_level(text):
        if i > 0 and depth == 0 and text[i] in CLOSE:
            return i
    return -1


def split_top(text: str, sep: str = ",") -> list[str]:
    """The parts between the top-level occurrences of `sep`, stripped (empty parts dropped for `,`)."""
    parts, start = [], 0
    cuts = [i for i, depth in top_level(text) if depth == 0 and text.startswith(sep, i)]
    for i in cuts:
        if i < start:          # inside a separator already taken (a separator longer than one character)
            continue
        parts.append(text[start:i].strip())
        start = i + len(sep)
    parts.append(text[start:].strip())
    return [p for p in parts if p] if sep == "," else parts
