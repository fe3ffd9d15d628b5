"""Finding spec files (directories searched as `load_specs` searches them) and the repository a spec belongs to.
No YAML here: the warm start finds a run's files without loading the loader."""
from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from ..echo import quote_path, shorten
from .model import SpecError

SPEC_SUFFIXES = (".yaml", ".yml")


def spec_files(paths: Iterable[str | Path]) -> list[str]:
    """The spec files the paths name, in the order they are loaded (directories searched as load_specs does)."""
    files: list[str] = []
    for p in map(str, map(Path, paths)):
        if not p.isprintable():
            raise SpecError(None, f"{quote_path(p)}: a spec path must be printable")
        if os.path.isdir(p):
            files += _directory_specs(p)
        elif os.path.lexists(p):
            files.append(p)       # a file, or something _read_text refuses with a reason (a loop, a FIFO)
        else:
            raise SpecError(None, f"{p}: no such spec file or directory")
    return files


def _directory_specs(top: str) -> list[str]:
    """The spec files under `top`, sorted; refuses a directory without any (saying which links were skipped)."""
    found: list[str] = []
    skipped_links: list[str] = []
    pending = [top]
    while pending:   # an explicit stack: a deep tree cannot exhaust Python's recursion
        directory = pending.pop()
        for entry in _entries(directory):
            if entry.is_symlink() and _is_dir(entry.path):
                skipped_links.append(entry.name)   # never followed: it may point back up the tree
            elif _is_dir(entry.path):
                pending.append(entry.path)
            elif entry.name.endswith(SPEC_SUFFIXES):
                if not entry.path.isprintable():
                    raise SpecError(None, f"{quote_path(entry.path)}: a spec path must be printable")
                found.append(entry.path)
    if not found:
        links = f" (directory symlinks are not followed: {shorten(', '.join(sorted(skipped_links)))})" \
            if skipped_links else ""
        raise SpecError(None, f"{top}: no spec files (*.yaml, *.yml) in this directory{links}")
    return sorted(found)


def _entries(directory: str) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(directory) as it:
            return list(it)
    except OSError as e:
        raise SpecError(None, f"{quote_path(directory)}: cannot list the directory: {e.strerror}") from None


def _is_dir(path: str) -> bool:
    """os.path.isdir, which follows links and says False for a loop or a dangling link."""
    return os.path.isdir(path)


def repository_root(spec_path: str) -> str:
    """The nearest directory above `spec_path` that holds a `.git` entry; without one (a source tarball), the
    working directory when the spec lies inside it (`prove specs/...` run from the project), else the spec's
    own directory."""
    start = os.path.dirname(os.path.abspath(spec_path))
    here = start
    while True:
        if os.path.lexists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            cwd = os.getcwd()
            return cwd if is_inside(start, cwd) else start
        here = parent


def is_inside(path: str, directory: str) -> bool:
    real, root = os.path.realpath(path), os.path.realpath(directory)
    try:
        return os.path.commonpath([real, root]) == root
    except ValueError:   # different drives
        return False
