"""The thread coordinate a C++ kernel hands a TiledCopy's get_slice, as written in its source, spelled in the
thread-slice check's expression language (verifier/kinds/slice/coordinate.py: `tid` for threadIdx.x, integers,
+ - * / % ^ & | << >>): the casts and CuTe's static integers a kernel writes around it dropped.

    copy_a.get_slice(threadIdx.x)                  tid          (each thread its own slice: no check)
    t2r.get_slice(threadIdx.x % 128)               tid % 128
    s2r.get_slice(int(threadIdx.x) - 128)          (tid) - 128
    s2r.get_slice(_0{})                            0

Anything else (another thread register, a variable, a call) is not spelled: the caller lists the slice."""
from __future__ import annotations

import re

from ..kinds.slice.coordinate import CoordinateError, plain, read_coordinate

THREAD_INDEX = "tid"
_THREAD = re.compile(r"\bthreadIdx\s*\.\s*x\b")
# what a kernel writes around an integer that does not change it: casts, CuTe's static integers, unsigned suffixes
_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bstatic_cast\s*<\s*(?:unsigned\s+)?(?:int|unsigned|uint32_t|int32_t|int64_t|uint64_t|"
                r"size_t)\s*>\s*\("), "("),
    (re.compile(r"\((?:unsigned\s+)?(?:int|unsigned|uint32_t|int32_t|int64_t|uint64_t|size_t)\)"), ""),
    (re.compile(r"\b(?:int|uint32_t|int32_t|int64_t|uint64_t|size_t)\s*\("), "("),
    (re.compile(r"\b(?:cute\s*::\s*)?Int\s*<\s*(\d+)\s*>\s*\{\s*\}"), r"\1"),
    (re.compile(r"\b(?:cute\s*::\s*)?_(\d+)\s*\{\s*\}"), r"\1"),
    (re.compile(r"\b(\d+)[uU][lL]{0,2}\b"), r"\1"),
)


def without_casts(text: str) -> str:
    """`text` without what a kernel writes around an integer that does not change it (casts, CuTe's static
    integers, unsigned suffixes), its spaces collapsed."""
    for pattern, repl in _REWRITES:
        text = pattern.sub(repl, text)
    return " ".join(text.split())


def cpp_coordinate(text: str) -> str | None:
    """`text` (a get_slice argument) as a coordinate expression of tid, or None where it is not one."""
    e = without_casts(_THREAD.sub(THREAD_INDEX, text.strip()))
    try:
        read_coordinate(e)
    except CoordinateError:
        return None
    return plain(e)

