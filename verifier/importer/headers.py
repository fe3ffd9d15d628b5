"""Reading CUTLASS's MMA_Traits / Copy_Traits headers into atom spec files (the library behind `import-cutlass`)."""
from __future__ import annotations

from dataclasses import replace

import os
from pathlib import Path

from .atoms import CopyRecord, MMARecord, family, read_copy, read_mma
from .gmma_layouts import read_gmma_layout_atoms
from .instantiate import instances_of
from .report import Failure, Imported, ImportReport, Note
from .resolver import Index, Resolver, ResolveError
from .scanner import Header, no_cycle_collection, scan
from .writer import spec_text, write_spec

DEFAULT_OUT = Path("specs/cutlass")
# one spec file's contents: its MMA atoms, its copy atoms, and the headers they come from
Family = tuple[list[MMARecord], list[CopyRecord], list[str]]


class ImportInputError(Exception):
    """The include directory is not a CUTLASS include tree (exit status 2)."""


def include_root(path: Path) -> Path:
    """The directory that holds cute/ (the CUTLASS `include` directory; `include/cute` is accepted too)."""
    path = Path(path)
    if not path.is_dir():
        raise ImportInputError(f"{path}: no such directory")
    if (path / "cute" / "atom").is_dir():
        return path
    if path.name == "cute" and (path / "atom").is_dir():
        return path.parent
    if (path / "include" / "cute" / "atom").is_dir():
        return path / "include"
    raise ImportInputError(f"{path}: not a CUTLASS include directory (no cute/atom/ under it)")


def _scan_file(job: tuple[str, str]) -> Header:
    path, label = job
    return scan(Path(path).read_text(encoding="utf-8", errors="replace"), label)


def _read_headers(root: Path, jobs: int = 1) -> tuple[list[Header], list[str]]:
    """Traits headers (whose atoms are imported) and arch headers (Ops, instructions, enums), scanned in `jobs`
    processes when more than one (each header is scanned on its own; the order of the result is the files')."""
    atom_dir, arch_dir = root / "cute" / "atom", root / "cute" / "arch"
    traits = sorted(list(atom_dir.glob("mma_traits*.hpp")) + list(atom_dir.glob("copy_traits*.hpp")))
    others = sorted(p for p in atom_dir.glob("*.hpp") if p not in traits)
    arch = sorted(arch_dir.glob("*.hpp")) if arch_dir.is_dir() else []
    if not traits:
        raise ImportInputError(f"{atom_dir}: no mma_traits*.hpp or copy_traits*.hpp headers")
    files = traits + others + arch
    for p in files:
        if not os.access(p, os.R_OK) or not p.is_file():
            raise ImportInputError(f"{p}: cannot read the header")
    work = [(str(p), p.relative_to(root.parent).as_posix()) for p in files]
    try:
        if jobs > 1 and len(work) > 1:
            from concurrent.futures import ProcessPoolExecutor
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                # the largest headers first, so that the small ones even out the end
                order = sorted(range(len(work)), key=lambda i: -files[i].stat().st_size)
                scanned = dict(zip(order, pool.map(_scan_file, [work[i] for i in order])))
            headers = [scanned[i] for i in range(len(work))]
        else:
            headers = [_scan_file(w) for w in work]
    except OSError as e:
        raise ImportInputError(f"{e.filename}: {e.strerror}") from None
    return headers, [p.relative_to(root.parent).as_posix() for p in traits]


def import_cutlass(include_dir: Path, out_dir: Path, jobs: int = 1) -> ImportReport:
    """Import every MMA_Traits / Copy_Traits of `include_dir` (CUTLASS's include/) into `out_dir`, its headers
    scanned in `jobs` processes."""
    with no_cycle_collection():     # millions of short-lived acyclic objects: collected when the import ends
        return _import_cutlass(include_dir, out_dir, jobs)


def _import_cutlass(include_dir: Path, out_dir: Path, jobs: int) -> ImportReport:
    root = include_root(Path(include_dir))
    headers, traits_headers = _read_headers(root, jobs)
    report = ImportReport(str(include_dir), str(out_dir), headers_read=len(headers))
    resolver = Resolver(Index(headers))
    families: dict[str, Family] = {}
    first_seen: dict[tuple[str, str], tuple[str, int]] = {}
    for decl in resolver.index.traits:
        if decl.header not in traits_headers:
            continue
        fam = family(decl.header)
        mma, copy, fam_headers = families.setdefault(fam, ([], [], []))
        if decl.header not in fam_headers:
            fam_headers.append(decl.header)
        found = instances_of(decl, resolver)
        report.failures += found.failures
        report.notes += found.notes
        for inst in found.atoms:
            where = (inst.decl.header, inst.decl.line)
            key = (fam, inst.name)
            if key in first_seen:
                h, line = first_seen[key]
                report.failures.append(Failure(inst.name, *where, f"defined again (first at {h}:{line})"))
                continue
            first_seen[key] = where
            try:
                if decl.name == "MMA_Traits":
                    mma.append(read_mma(inst, resolver))
                else:
                    record, note = read_copy(inst, resolver)
                    copy.append(record)
                    if note:
                        report.notes.append(Note(inst.name, *where, note))
            except ResolveError as e:
                report.failures.append(Failure(inst.name, *where, str(e)))
                continue
            except RecursionError:
                report.failures.append(Failure(inst.name, *where, "nested too deeply"))
                continue
            report.imported.append(Imported(inst.name, "mma" if decl.name == "MMA_Traits" else "copy",
                                            *where, str(Path(out_dir) / f"{fam}.yaml")))
    notes, failures = read_gmma_layout_atoms(resolver)
    report.gmma_layout_atoms = len(notes) + len(failures)
    report.notes += notes
    report.failures += failures
    _write(report, families, Path(out_dir))
    report.failures.sort(key=lambda f: (f.header, f.line))
    report.notes.sort(key=lambda n: (n.header, n.line))
    return report


# atoms a spec file holds: a family with more is written as several files (<family>.yaml, <family>_2.yaml, ...), each
# well under the loader's YAML event limit (the 736 extended sparse GMMA atoms, each with its metadata layout, are not)
ATOMS_PER_FILE = 512


def _write(report: ImportReport, families: dict[str, Family], out_dir: Path) -> None:
    for fam, (mma, copy, fam_headers) in sorted(families.items()):
        if not mma and not copy:
            continue
        parts = max(1, -(-(len(mma) + len(copy)) // ATOMS_PER_FILE))
        for part in range(parts):
            stem = fam if part == 0 else f"{fam}_{part + 1}"
            path = out_dir / f"{stem}.yaml"
            lo, hi = part * ATOMS_PER_FILE, (part + 1) * ATOMS_PER_FILE
            part_copy = copy[max(0, lo - len(mma)):max(0, hi - len(mma))]
            text = spec_text(f"cutlass_{stem}", fam_headers, mma[lo:hi], part_copy, {h: h for h in fam_headers})
            try:
                write_spec(path, text)
            except OSError as e:
                raise ImportInputError(f"{path}: cannot write: {e}") from None
            report.spec_files.append(str(path))
            if part:        # the atoms of this part are in this file, not the family's first
                moved = {r.name for r in mma[lo:hi]} | {r.name for r in part_copy}
                first = str(out_dir / f"{fam}.yaml")
                report.imported = [replace(a, spec_file=str(path)) if a.name in moved and a.spec_file == first
                                   else a for a in report.imported]
