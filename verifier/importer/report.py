"""What an import did: the atoms it wrote, every definition it could not import (with why), and notes."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Failure:
    """A definition that was not imported: `could not import NAME (header:line): reason`."""
    name: str
    header: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"could not import {self.name} ({self.header}:{self.line}): {self.reason}"


@dataclass(frozen=True)
class Note:
    """Something a reader of the specs should know: an instance not made, a check left out."""
    name: str
    header: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"note: {self.name} ({self.header}:{self.line}): {self.text}"


@dataclass(frozen=True)
class Imported:
    name: str
    kind: str          # "mma" | "copy"
    header: str
    line: int
    spec_file: str


@dataclass
class ImportReport:
    include_dir: str
    out_dir: str
    imported: list[Imported] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    spec_files: list[str] = field(default_factory=list)
    headers_read: int = 0
    gmma_layout_atoms: int = 0      # GMMA::Layout_*_Atom_Bits read and compared with the verifier's facts

    def count(self, kind: str) -> int:
        return sum(1 for a in self.imported if a.kind == kind)

    def failure_for(self, name: str) -> Failure | None:
        return next((f for f in self.failures if f.name == name), None)

    def summary(self) -> str:
        files = Counter(a.spec_file for a in self.imported)
        lines = [f"read {self.headers_read} headers under {self.include_dir}",
                 f"imported {self.count('mma')} MMA atoms and {self.count('copy')} copy atoms "
                 f"into {len(self.spec_files)} spec files in {self.out_dir}"]
        lines += [f"  {path}: {n} atoms" for path, n in sorted(files.items())]
        if self.gmma_layout_atoms:
            bad = sum(1 for f in self.failures if f.name.startswith("GMMA::Layout_"))
            lines.append(f"read {self.gmma_layout_atoms} GMMA shared-memory layout atoms: "
                         + (f"{bad} disagree with the verifier's" if bad else "all agree with the verifier's"))
        if self.failures:
            lines.append(f"could not import {len(self.failures)} definitions")
        return "\n".join(lines)

    def text(self, notes: bool = True) -> str:
        """The whole report: summary, then one line per definition not imported, then the notes."""
        lines = [self.summary()]
        lines += [str(f) for f in self.failures]
        if notes:
            lines += [str(n) for n in self.notes]
        return "\n".join(lines)
