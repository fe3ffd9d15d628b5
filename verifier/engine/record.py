"""The run record: a whole run's results with the digest of every file it read, kept in the proof cache, so that a
later identical run whose files all still have those digests reports them without loading a spec (the warm
start)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..symbolic.procedure import Settings
from ..theorems.result import CheckResult
from .cache import ProofCache, default_dir
from .proving import CACHED_VERDICTS

def make_cache(cache_dir: str | None, no_cache: bool) -> ProofCache | None:
    if no_cache:
        return None
    return ProofCache(Path(cache_dir) if cache_dir else default_dir())


@dataclass
class FileDigest:
    path: str            # as the loader named it (its realpath is hashed too)
    sha256: str


@dataclass
class RunRecord:
    """A whole run's results, and every file it read with its digest: a later identical run whose files all
    still have these digests reports these results without loading a spec (the warm start)."""
    read: list[FileDigest]
    results: list[CheckResult]

    def files(self) -> list[str]:
        return [d.path for d in self.read]


@dataclass
class RunRecordKey:
    """Where a run's record lives: the settings, the check names, the spec files the paths name (found as the
    loader finds them, each with its digest and the repository it belongs to, which decides what it may
    include), and --allow-outside."""
    cache: ProofCache
    key: str

    @staticmethod
    def of(cache: ProofCache, paths: list[str], files: list[str], checks: list[str] | None, settings: Settings,
           allow_outside: bool) -> "RunRecordKey | None":
        from ..specfile.files import repository_root
        parts = [repr(settings), repr(sorted(set(checks or []))), repr(allow_outside), repr(list(paths))]
        for f in files:
            digest = cache.file_digest(f)
            if digest is None:
                return None
            parts.append(f"{f}\0{digest}\0{repository_root(f)}")
        return RunRecordKey(cache, cache.key("run", *parts))

    def lookup(self) -> RunRecord | None:
        record = self.cache.get(self.key, RunRecord)
        if record is None or any(self.cache.file_digest(d.path) != d.sha256 for d in record.read):
            return None
        return record

    def keep(self, closure: list[str], results: list[CheckResult]) -> None:
        """Record `results` with the digest of every file of `closure` (the specs and all they include)."""
        if any(r.verdict not in CACHED_VERDICTS for r in results):
            return
        digests = [FileDigest(p, self.cache.file_digest(p) or "") for p in dict.fromkeys(closure)]
        if all(d.sha256 for d in digests):
            self.cache.put(self.key, RunRecord(digests, results))
