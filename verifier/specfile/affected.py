"""Which specs a change touches: a spec is affected when it, or any file it includes (transitively), changed."""
from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path
from typing import Iterable

from .vocabulary import FORMAT_VERSIONS
from .model import Spec, SpecError

# YAML declaring a spec format version this tool reads
SPEC_HEAD = re.compile(rb"^version\s*:\s*(?:" + b"|".join(str(v).encode() for v in FORMAT_VERSIONS) + rb")\s*(#.*)?$",
                       re.MULTILINE)


def include_closure(spec: Spec) -> list[Path]:
    """The spec's own file and every file it includes, directly or through other includes (resolved paths), as
    the loader recorded them."""
    return list(dict.fromkeys(Path(p).resolve() for p in spec.closure or [spec.path]))


def fingerprint(spec: Spec, root: Path) -> str:
    """A digest of the spec and its include closure (paths relative to `root`, and contents)."""
    h = hashlib.sha256()
    for p in sorted(include_closure(spec)):
        rel = p.relative_to(root) if p.is_relative_to(root) else p
        h.update(str(rel).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def affected(specs: Iterable[Spec], changed: Iterable[str | Path]) -> list[Spec]:
    """The specs that are, or include, one of the changed files."""
    touched = {Path(c).resolve() for c in changed}
    return [s for s in specs if touched & set(include_closure(s))]


def git_root(path: str | Path) -> Path:
    p = Path(path).resolve()
    top = subprocess.run(["git", "-C", str(p if p.is_dir() else p.parent), "rev-parse", "--show-toplevel"],
                         capture_output=True, text=True)
    if top.returncode != 0:
        raise SpecError(None, f"{path} is not inside a git repository")
    return Path(top.stdout.strip())


def tracked_specs(root: Path) -> list[str]:
    """The files git tracks under `root` that look like specs (YAML declaring a `version:`)."""
    listing = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--", "*.yaml", "*.yml"],
                             capture_output=True)
    out = []
    for name in listing.stdout.decode(errors="replace").split("\0"):
        p = root / name
        if name and p.is_file():
            with p.open("rb") as f:
                head = f.read(1 << 16)
            if SPEC_HEAD.search(head):
                out.append(str(p))
    return sorted(out)
