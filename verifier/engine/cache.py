"""The proof cache: results kept on disk between runs, content-addressed.

Two levels, both keyed by a SHA-256 of everything the result depends on — the tool's own source and the
versions of Z3 and numpy, the decision settings, and the input:
- a check's result, keyed by the bytes of its spec file and every file that file includes (locations in
  reports come from them), and the check's name;
- an obligation's decision, keyed by its canonical text (the SMT-LIB script of its premise and claim over its
  variables, and its injectivity form).
Entries are JSON, rebuilt field by field by `jsoncodec` (never unpickled): a corrupt, truncated or foreign
entry is ignored and overwritten.  Writes go to a temporary file renamed into place, so concurrent runs never
read half an entry.  Undecided results and internal errors are not kept (a later run may do better).  The
directory is $XDG_CACHE_HOME/cute-layout-verifier (~/.cache/... without it), or --cache-dir; --no-cache turns
it off.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import itertools
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from ..jsoncodec import CodecError, Encoded, from_json, to_json

T = TypeVar("T")

FORMAT = 1                      # the layout of an entry; a change makes every old entry foreign
PACKAGE = Path(__file__).resolve().parent.parent     # the verifier package: every module a verdict depends on
_TEMPORARY_NAMES = itertools.count()


def default_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cute-layout-verifier"


def library_version(module: str, distribution: str) -> str:
    """The installed version of `module` (from `distribution`), read from its dist-info directory next to it,
    without importing it (numpy and Z3 cost more to import than a warm run takes otherwise); imported only
    where no dist-info is found (a vendored or source copy)."""
    found = importlib.util.find_spec(module)
    if found is not None and found.origin:
        site = Path(found.origin).resolve().parent.parent
        prefix = f"{distribution.replace('-', '_')}-"
        for entry in sorted(site.glob(f"{prefix}*.dist-info")):
            return entry.name[len(prefix):-len(".dist-info")]
    imported = importlib.import_module(module)
    return str(getattr(imported, "__version__", None) or imported.get_version_string())


@lru_cache(maxsize=None)
def tool_fingerprint() -> str:
    """The tool's source, and the versions of the libraries a decision depends on."""
    z3_version, numpy_version = library_version("z3", "z3-solver"), library_version("numpy", "numpy")
    h = hashlib.sha256(f"format {FORMAT}; z3 {z3_version}; numpy {numpy_version}".encode())
    for path in fingerprinted_sources():
        with open(path, "rb") as f:
            h.update(os.path.relpath(path, PACKAGE).encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()


def fingerprinted_sources() -> list[str]:
    """Every Python module of the tool, sorted: a change to any of them (a kind, a hardware model, the algebra)
    makes every kept result foreign."""
    return sorted(os.path.join(folder, name) for folder, _, names in os.walk(PACKAGE) for name in names
                  if name.endswith(".py"))


class ProofCache:
    """One run's view of the cache directory.  Within the run, each input file is read and digested once (the
    digest names the bytes the run proved), and a value kept once (a check's result) is not encoded again when a
    later entry (the run's record) holds it too."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.hits = self.misses = 0
        self._digests: dict[str, str | None] = {}
        self._encoded: Encoded = {}
        self._folders: set[Path] = set()       # entry folders made (or found) by this run

    def file_digest(self, path: str) -> str | None:
        """file_digest(path), computed once per run."""
        if path not in self._digests:
            self._digests[path] = file_digest(path)
        return self._digests[path]

    def key(self, kind: str, *parts: bytes | str) -> str:
        h = hashlib.sha256(tool_fingerprint().encode() + b"\0" + kind.encode())
        for p in parts:
            h.update(b"\0" + (p if isinstance(p, bytes) else p.encode()))
        return h.hexdigest()

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str, tp: type[T]) -> T | None:
        """The entry of `key` rebuilt as `tp`, or None (absent, unreadable, corrupt or foreign)."""
        try:
            with open(self._path(key), "rb") as f:
                doc = json.loads(f.read(64 << 20))
            if not isinstance(doc, dict) or doc.get("key") != key or doc.get("format") != FORMAT:
                raise CodecError("foreign entry")
            value = from_json(tp, doc["value"])
            if not isinstance(value, tp):
                raise CodecError(f"not a {tp.__name__}")
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, key: str, value: Any) -> None:
        """Keep `value` under `key`; a cache that cannot be written is skipped (it only saves time)."""
        path = self._path(key)
        try:
            if path.parent not in self._folders:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._folders.add(path.parent)
            encoded = to_json(value, self._encoded)
            self._encoded[id(value)] = (value, encoded)
            data = json.dumps({"format": FORMAT, "key": key, "value": encoded}, separators=(",", ":"))
            # a name no other process (pid) and no other entry of this one (count) writes: created, never reused
            tmp = path.parent / f".tmp-{os.getpid()}-{next(_TEMPORARY_NAMES)}.json"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(data)
                os.replace(tmp, path)
            finally:
                if os.path.exists(tmp):        # not renamed into place: never leave a partial entry behind
                    os.unlink(tmp)
        except (OSError, CodecError):
            pass


def file_digest(path: str) -> str | None:
    """The identity of an input file: SHA-256 of its real path and its bytes; None when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(os.path.realpath(path).encode() + b"\0" + f.read()).hexdigest()
    except OSError:
        return None
