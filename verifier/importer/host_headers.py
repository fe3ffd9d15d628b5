"""Headers that launch kernels, made readable by the host compiler: CUTLASS's device-level adapters
(`cutlass/kernel_launch.h`, `gemm/device/*.h`) launch with `k<<<grid, block, smem, stream>>>(args)`, which only nvcc
parses.  For the host compile of `import-kernel --compile`, each header of CUTLASS's include directories (and of
the user's `-I` directories) that launches a kernel gets a copy with each `<<<...>>>` blanked — the call nvcc's host
pass makes of it, lines and columns unchanged — in an overlay directory searched before the originals.  A copy's
`#include "x.h"` of a file beside the original is written as that file's absolute path (the copy lives elsewhere).

The overlay is rebuilt on every compile (a copy is rewritten only where its bytes would change), so an edited header
is seen; the compile's dependency manifest names the originals, not the copies."""
from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path

from .instrument import without_launches

HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".cuh", ".inl", ".hxx")
MAX_HEADER_BYTES = 4 << 20
_QUOTE_INCLUDE = re.compile(r'^(\s*#\s*include\s*)"([^"]+)"', re.M)


def overlay_dir(cache: Path, roots: tuple[Path, ...]) -> Path:
    """Where the overlay of `roots` lives (one per set of include directories)."""
    digest = hashlib.sha256("\0".join(str(r.resolve()) for r in roots).encode()).hexdigest()[:16]
    return cache / "headers" / digest


def _launching_headers(root: Path) -> list[Path]:
    out: list[Path] = []
    for folder, _, names in os.walk(root):
        for name in names:
            if not name.endswith(HEADER_SUFFIXES):
                continue
            path = Path(folder) / name
            try:
                if path.stat().st_size <= MAX_HEADER_BYTES and b"<<<" in path.read_bytes():
                    out.append(path)
            except OSError:
                continue
    return sorted(out)


def _absolute_siblings(text: str, original: Path, copy_of: dict[Path, Path]) -> str:
    """`#include "x.h"` of a file beside `original` as that file's absolute path: its copy where it has one."""
    def absolute(m: re.Match[str]) -> str:
        beside = (original.parent / m.group(2)).resolve()
        if not beside.is_file():
            return m.group(0)
        return f'{m.group(1)}"{copy_of.get(beside, beside)}"'
    return _QUOTE_INCLUDE.sub(absolute, text)


def _write_if_changed(path: Path, text: str) -> None:
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except (OSError, UnicodeDecodeError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".header-")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(tmp, path)


def build_overlay(overlay: Path, roots: tuple[Path, ...]) -> dict[str, str]:
    """Write the overlay of `roots` (each header that launches a kernel, launches blanked) and return
    {copy: original}.  A root listed first wins where two hold the same relative path, as the compiler's search
    does."""
    copy_of: dict[Path, Path] = {}               # original (resolved) -> its copy
    taken: set[Path] = set()
    for root in roots:
        for original in _launching_headers(root):
            copy = overlay / original.relative_to(root)
            if copy not in taken:
                taken.add(copy)
                copy_of[original.resolve()] = copy
    for original, copy in copy_of.items():
        text = original.read_text(encoding="utf-8", errors="replace")
        _write_if_changed(copy, _absolute_siblings(without_launches(text), original, copy_of))
    return {str(copy): str(original) for original, copy in copy_of.items()}


__all__ = ["overlay_dir", "build_overlay"]
