"""The atom library installed with the tool: the spec files of CuTe's MMA and copy atoms (specs/atoms in a checkout,
verifier/atom_library in a wheel — one directory, the first a link to the second's source).  A spec names one of its
files with `include: ["cute-verifier:atoms/sm80_f16.yaml"]`, from any directory, with no copy of the library."""
from __future__ import annotations

import re
from pathlib import Path

LIBRARY_SCHEME = "cute-verifier:"
_LIBRARY_FILE = re.compile(r"atoms/([A-Za-z0-9_.-]+\.yaml)")


def atom_library_dir() -> Path:
    """The installed atom library (its real directory)."""
    return (Path(__file__).resolve().parent.parent / "atom_library").resolve()


def library_file(name: str) -> Path | None:
    """The library file `cute-verifier:atoms/NAME.yaml` names, or None when the name is no such file."""
    m = _LIBRARY_FILE.fullmatch(name[len(LIBRARY_SCHEME):]) if name.startswith(LIBRARY_SCHEME) else None
    if m is None or m.group(1).startswith("."):
        return None
    path = atom_library_dir() / m.group(1)
    return path if path.is_file() else None


def library_files() -> list[str]:
    return sorted(p.name for p in atom_library_dir().glob("*.yaml"))


__all__ = ["LIBRARY_SCHEME", "atom_library_dir", "library_file", "library_files"]
