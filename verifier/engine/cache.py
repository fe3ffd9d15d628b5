"""The proof cache: results kept on disk between runs, content-addressed.

Two levels, both keyed by a SHA-256 of everything the result depends on — the tool's own source and the
versions of Z3 and numpy, the decision settings, and the input:
- a check's result, keyed by the bytes of its spec file and every file that file includes (locations in
  reports come from them), and the check's name;
- an obligation's decision, keyed by its canonical text (the SMT-LIB script of its premise and claim over its
  variables, and its injectivity form).
Entries are JSON, rebuilt field by field by `jsoncodec` (never unpickled): a corrupt, truncated or foreign
entry is ignored and overwritten.  Each entry is signed (HMAC-SHA256 of its key and its bytes) with a secret kept
outside the cache directory — $CUTE_VERIFIER_CACHE_KEY, else a random key made once in
$XDG_CONFIG_HOME/cute-layout-verifier/cache.key (mode 600) — so an entry edited or written by anyone without the
secret is ignored, never a verdict.  The directory is bounded: entries a run reads are touched, and after a run the
least recently used are removed until it holds at most $CUTE_VERIFIER_CACHE_MAX_MB (default 512) MiB.
Writes go to a temporary file renamed into place, so concurrent runs never
read half an entry.  Undecided results and internal errors are not kept (a later run may do better).  The
directory is $XDG_CACHE_HOME/cute-layout-verifier (~/.cache/... without it), or --cache-dir; --no-cache turns
it off.
"""
from __future__ import annotations

import hashlib
import hmac
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

FORMAT = 2                      # the layout of an entry; a change makes every old entry foreign (2: signed)
KEY_ENV = "CUTE_VERIFIER_CACHE_KEY"      # a secret shared by the machines that share a cache (CI)
LIMIT_ENV = "CUTE_VERIFIER_CACHE_MAX_MB"
DEFAULT_LIMIT_MB = 512
PRUNE_TO = 0.8                  # a prune leaves the directory at this fraction of its limit
KEY_BYTES = 32
PACKAGE = Path(__file__).resolve().parent.parent     # the verifier package: every module a verdict depends on
_TEMPORARY_NAMES = itertools.count()


def default_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cute-layout-verifier"


def key_file() -> Path:
    """Where the signing key is kept: beside the user's configuration, never in a cache directory."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "cute-layout-verifier" / "cache.key"


@lru_cache(maxsize=None)
def signing_key() -> bytes:
    """The secret entries are signed with: $CUTE_VERIFIER_CACHE_KEY, else the key file (made with a random key the
    first time, mode 600); where neither can be had, a key of this process only (its entries serve this run)."""
    shared = os.environ.get(KEY_ENV)
    if shared:
        return hashlib.sha256(shared.encode()).digest()
    path = key_file()
    try:
        data = path.read_bytes()
        if len(data) >= KEY_BYTES:
            return data[:KEY_BYTES]
    except OSError:
        pass
    secret = os.urandom(KEY_BYTES)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(secret)
        return secret
    except FileExistsError:                 # another process made it first: its key is the key
        try:
            data = path.read_bytes()
            return data[:KEY_BYTES] if len(data) >= KEY_BYTES else secret
        except OSError:
            return secret
    except OSError:
        return secret


def limit_bytes() -> int:
    try:
        return max(1, int(os.environ.get(LIMIT_ENV, DEFAULT_LIMIT_MB))) << 20
    except ValueError:
        return DEFAULT_LIMIT_MB << 20


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

    def __init__(self, directory: Path, max_bytes: int | None = None) -> None:
        self.directory = Path(directory)
        self.max_bytes = max_bytes if max_bytes is not None else limit_bytes()
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
            payload, mac = doc["value"], doc["mac"]
            if not isinstance(payload, str) or not isinstance(mac, str) or not hmac.compare_digest(
                    mac, _mac(key, payload)):
                raise CodecError("an entry not signed with this machine's key")
            value = from_json(tp, json.loads(payload))
            if not isinstance(value, tp):
                raise CodecError(f"not a {tp.__name__}")
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            self.misses += 1
            return None
        self.hits += 1
        try:
            os.utime(self._path(key))      # used: the last to be pruned
        except OSError:
            pass
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
            payload = json.dumps(encoded, separators=(",", ":"))
            data = json.dumps({"format": FORMAT, "key": key, "value": payload, "mac": _mac(key, payload)},
                              separators=(",", ":"))
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


    def entries(self) -> list[tuple[float, int, Path]]:
        """(last use, bytes, path) of every entry in the directory."""
        out: list[tuple[float, int, Path]] = []
        for path in self.directory.glob("??/*.json"):
            try:
                st = path.stat()
            except OSError:
                continue
            out.append((st.st_mtime, st.st_size, path))
        return out

    def prune(self) -> int:
        """Remove the least recently used entries while the directory holds more than its limit; the bytes freed."""
        entries = self.entries()
        total = sum(size for _, size, _ in entries)
        if total <= self.max_bytes:
            return 0
        freed = 0
        for _, size, path in sorted(entries):
            if total - freed <= self.max_bytes * PRUNE_TO:
                break
            try:
                path.unlink()
                freed += size
            except OSError:
                continue
        return freed


def _mac(key: str, payload: str) -> str:
    return hmac.new(signing_key(), key.encode() + b"\0" + payload.encode(), hashlib.sha256).hexdigest()


def file_digest(path: str) -> str | None:
    """The identity of an input file: SHA-256 of its real path and its bytes; None when it cannot be read."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(os.path.realpath(path).encode() + b"\0" + f.read()).hexdigest()
    except OSError:
        return None
