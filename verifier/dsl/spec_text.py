"""The checks `import-dsl` read from CuTe DSL IR, written as one spec file (version 2) with the atoms they name
copied from the atom library, each check's `source:` its IR location, and what was not read as comments."""
from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from ..importer.kernel_spec import ATOMS_LINE, load_atom_library
from ..importer.writer import copy_atom_lines, mma_atom_lines, scalar
from ..specfile.model import TMA_COPIES, CopyAtomSpec, MMAAtomSpec
from ..specfile.vocabulary import ACCUMULATOR_WAIT_KEYS
from ..kinds.slice.config import SliceUnit
from .flow import Skipped
from .elementwise import SideRead
from ..kinds.thread_gemm.config import bound_text
from ..importer.thread_gemm_read import FillRead, FragmentRead, KLoopRead
from .kernel_checks import (BufferRecord, DescriptorRecord, ElementwiseRecord, KernelChecks, OperandRecord, Record,
                            OperandFillsRecord, SliceRecord, SubtileOrderRecord, SubtileRecord, ThreadGemmRecord,
                            TransactionRecord, TmemRecord)


class DslInputError(Exception):
    """Bad input: one line (file:line:column: why), exit status 2."""


def _source(r: Record) -> str:
    w = r.where
    return f"{w.source} ({w})" if w.source else str(w)


def _common(r: OperandRecord | DescriptorRecord | SubtileRecord) -> list[str]:
    lines = [f"    mma: {scalar(r.mma)}", f"    atom_layout: {r.atom_layout}"]
    if isinstance(r, (OperandRecord, SubtileRecord)) and r.permutation is not None:
        lines.append(f"    permutation: {r.permutation}")
    return lines


def record_lines(r: Record) -> list[str]:
    out = [f"  {scalar(r.name)}:"]
    if isinstance(r, OperandRecord):
        out.append(f"    description: {json.dumps(r.what)}")
        out += _common(r)
        out += [f"    operand: {r.operand}", f"    copy: {scalar(r.copy)}", f"    value_type: {scalar(r.value_type)}"]
        if r.tiled_copy is not None:
            out.append(f"    tiled_copy: {{layout_tv: {json.dumps(r.tiled_copy.layout_tv)}, "
                       f"tiler: {r.tiled_copy.tiler}}}")
        out.append(f"    smem: {json.dumps(r.smem)}")
        if r.smem_type is not None:
            out.append(f"    smem_type: {scalar(r.smem_type)}")
        if r.tiles is not None:
            out.append(f"    tiles: {{copied_from: {json.dumps(r.tiles[0])}, fragment_of: {json.dumps(r.tiles[1])}}}")
    elif isinstance(r, DescriptorRecord):
        out.append(f"    description: {json.dumps(r.what)}")
        out += _common(r)
        out += [f"    operand: {r.operand}", f"    copy: {scalar(r.copy)}", f"    value_type: {scalar(r.value_type)}",
                f"    smem: {json.dumps(r.smem)}"]
        if r.gmem is not None:
            out.append(f"    gmem: {json.dumps(r.gmem)}")
        out.append(f"    smem_align: {r.smem_align}")
        if r.major is not None:
            out.append(f"    major: {r.major}")
        if r.tma_box is not None:
            out.append(f"    tma_box: [{r.tma_box[0]}, {r.tma_box[1]}]")
        if r.tma_swizzle is not None:
            out.append(f"    tma_swizzle: {r.tma_swizzle}")
        if r.tensors is not None:
            out.append(f"    tma_tensors: {{map_of: {json.dumps(r.tensors.map_of)}, "
                       f"tiles_of: {json.dumps(r.tensors.tiles_of)}}}")
        if r.tile_type is not None:
            out.append(f"    smem_type: {scalar(r.tile_type)}")
    elif isinstance(r, TmemRecord):
        out.append(f"    description: {json.dumps(r.what)}")
        out += [f"    copy: {scalar(r.copy)}", f"    value_type: {scalar(r.value_type)}",
                f"    tmem: {json.dumps(r.tmem)}"]
        if r.tmem_columns is not None:
            out.append(f"    tmem_columns: {r.tmem_columns}")
        view = r.tmem_view
        if view is not None:
            taken = f", stages: {list(view.stages)}" if view.stages is not None else ""
            out.append(f"    tmem_view: {{layout: {json.dumps(view.layout)}, column: {view.column}{taken}}}")
        if r.store_copy is not None and r.store_value_type is not None and r.store_smem is not None:
            out += ["    store:", f"      copy: {scalar(r.store_copy)}",
                    f"      value_type: {scalar(r.store_value_type)}",
                    f"      smem: {json.dumps(r.store_smem)}"]
            if r.store_tiled_copy is not None:
                out.append(f"      tiled_copy: {{layout_tv: {json.dumps(r.store_tiled_copy.layout_tv)}, "
                           f"tiler: {r.store_tiled_copy.tiler}}}")
        stages = r.accumulator_stages
        if stages is not None:
            waits = "".join(f", {key}: {list(offsets)}" for key, offsets in
                            zip(ACCUMULATOR_WAIT_KEYS, (stages.mma_waited, stages.load_waited)) if offsets is not None)
            out.append(f"    accumulator_stages: {{mma: {list(stages.mma)}, load: {list(stages.load)}{waits}}}")
    elif isinstance(r, SubtileRecord):
        out.append(f"    description: {json.dumps(r.what)}")
        out += _common(r)
        out += [f"    copy: {scalar(r.copy)}", f"    value_type: {scalar(r.value_type)}",
                f"    tiled_copy: {{layout_tv: {json.dumps(r.tiled_copy.layout_tv)}, tiler: {r.tiled_copy.tiler}}}",
                "    subtiles:", f"      accumulator: {json.dumps(r.accumulator)}",
                f"      shape: [{r.shape[0]}, {r.shape[1]}]", "      stores:"]
        written: list[tuple[int, int] | None] = list(r.stages) if r.stages is not None else [None] * len(r.stores)
        out += [f"        - {{at: [{at[0]}, {at[1]}], registers: [{', '.join(map(str, registers))}]" +
                ("" if wr is None else f", write: {wr[0]}, read: {wr[1]}") + "}"
                for (at, registers), wr in zip(r.stores, written)]
        pipe = r.pipeline
        if pipe is not None:
            out.append(f"      pipeline: {{stages: {list(pipe.stages)}, "
                       f"fenced: [{', '.join('true' if f else 'false' for f in pipe.fenced)}], "
                       f"pending: [{', '.join('null' if p is None else str(p) for p in pipe.pending)}], "
                       f"pending_at_start: {list(pipe.pending_at_start)}" +
                       ("" if pipe.reads is None else f", reads: {list(pipe.reads)}") + "}")
    elif isinstance(r, SubtileOrderRecord):
        out.append(f"    description: {json.dumps(r.what)}")
        order = r.read
        out += ["    subtile_order:", f"      tile: [{order.tile[0]}, {order.tile[1]}]",
                f"      subtile: [{order.subtile[0]}, {order.subtile[1]}]", f"      stages: {order.stages}",
                "      subtiles:"]
        out += [f"        - {{load: [{load[0]}, {load[1]}], write: {write}, read: {read}, place: [{place[0]}, "
                f"{place[1]}]}}" for load, write, read, place in order.steps]
    elif isinstance(r, ElementwiseRecord):
        out.append(f"    description: {json.dumps(r.what)}")
        e = r.read
        threads = e.threads or (None,) * (1 + len(e.inputs))
        out += ["    elementwise:", f"      shape: [{e.output.shape[0]}, {e.output.shape[1]}]",
                f"      output: {_elementwise_side(e.output, threads[0])}", "      inputs:"]
        out += [f"        - {_elementwise_side(side, thread)}" for side, thread in zip(e.inputs, threads[1:])]
        out.append("      values:")
        out += ["        - [" + ", ".join(f"[{k}, {q}]" for k, q in sources) + "]" for sources in e.values]
    elif isinstance(r, ThreadGemmRecord):
        out.append(f"    description: {json.dumps(r.what)}")
        g = r.read
        out += ["    thread_gemm:", f"      tile: [{g.tile[0]}, {g.tile[1]}, {g.tile[2]}]",
                f"      threads: {g.threads}"]
        for key, fragment, fill in (("a", g.a, g.fills[0]), ("b", g.b, g.fills[1]), ("c", g.c, None)):
            out += [f"      {key}:", f"        origins: [{', '.join(map(str, fragment.origins))}]",
                    f"        values: {json.dumps(str(fragment.values.plain()))}"]
            if fill is not None:
                out += ["        fill:"] + _fill_lines(fill, fragment.tile, "          ")
        out.append(f"        tile_at: [{json.dumps(g.c_at[0])}, {json.dumps(g.c_at[1])}]")
        out += _k_loop_lines(g.k_loop, "      ")
    elif isinstance(r, OperandFillsRecord):
        out.append(f"    description: {json.dumps(r.what)}")
        f = r.read
        out += ["    fills:", f"      threads: {f.threads}",
                f"      tile_at: [{json.dumps(f.c_at[0])}, {json.dumps(f.c_at[1])}]"]
        for operand, tile, fill in f.fills:
            out += [f"      {operand}:", f"        tile: [{tile[0]}, {tile[1]}]"]
            out += _fill_lines(fill, tile, "        ")
        out += _k_loop_lines(f.k_loop, "      ")
    elif isinstance(r, TransactionRecord):
        out.append(f"    description: {json.dumps(r.what)}")
        out += ["    transaction:", f"      armed: {r.armed}", "      loads:"]
        out += [f"        - {{bytes: {n}, ctas: {ctas}, by: {json.dumps(by)}}}" for n, ctas, by in r.loads]
    elif isinstance(r, SliceRecord):
        out.append(f"    description: {json.dumps(r.what)}")
        out += [f"    copy: {scalar(r.copy)}", f"    value_type: {scalar(r.value_type)}",
                f"    slice: {{threads: {r.threads}, block: {r.block}, coordinate: {json.dumps(r.coordinate)}"
                + (f", runs: {json.dumps(r.runs)}" if r.runs is not None else "")
                + (f", unit: {r.unit.value}" if r.unit is not SliceUnit.THREAD else "") + "}"]
    else:
        writer = r.writer.by if r.writer is not None else "nothing writes it"
        what = f"{writer} -> {r.reader.by}" + "".join("; " + n for n in r.notes)
        out.append(f"    description: {json.dumps(what)}")
        if r.mma is not None:           # a buffer nothing writes, read by the MMA's descriptor: no copy to name
            out.append(f"    mma: {scalar(r.mma)}")
        else:
            out += [f"    copy: {scalar(r.copy)}", f"    value_type: {scalar(r.value_type)}"]
        out += ["    buffer:", f"      bytes: {r.bytes}", f"      align: {r.align}"]
        if r.stages is not None:
            out.append(f"      stages: {r.stages}")
        if r.unwritten is not None:
            out.append(f"      unwritten: {json.dumps(r.unwritten)}")
        for key, side in (("writer", r.writer), ("reader", r.reader)):
            if side is None:
                continue
            gmem = (f", gmem: {json.dumps(side.gmem)}, tma_dim0: {side.tma_dim0}"
                    if side.gmem is not None and side.tma_dim0 is not None else "")
            taken = _listed("stage_indices", sorted(side.taken.indices)) if side.taken is not None else ""
            waited = ""
            if side.waited is not None:
                waited = (_listed("wait_offsets", sorted(side.waited.offsets)) if side.waited.offsets else "") + \
                    (_listed("fixed_after_wait", sorted(side.waited.fixed)) if side.waited.fixed else "")
            tma = (f", tma_map_of: {json.dumps(side.tensors.map_of)}, tma_tiles_of: "
                   f"{json.dumps(side.tensors.tiles_of)}" if side.tensors is not None else "")
            if side.stores is not None:
                tma += _listed("tma_stores_write", map(json.dumps, side.stores))
            if side.tiles_at is not None:
                tma += _listed("mn_tile_at", map(json.dumps, side.tiles_at[0])) + \
                    _listed("other_mn_tile_at", map(json.dumps, side.tiles_at[1]))
            out.append(f"      {key}: {{by: {json.dumps(side.by)}, at: {side.at}, layout: {json.dumps(side.layout)}"
                       f"{gmem}{tma}{taken}{waited}, source: {json.dumps(str(side.where))}}}")
    if r.assumes:
        out.append("    assumes:")
        out += [f"      - {json.dumps(a)}" for a in r.assumes]
    out.append(f"    source: {json.dumps(_source(r))}")
    return out


def _fill_lines(fill: FillRead, tile: tuple[int, int], indent: str) -> list[str]:
    """A fill's keys (smem, destination, sources), each line at `indent`; a source's own tile where it is not the
    shared tile's."""
    out = [f"{indent}smem: {json.dumps(fill.smem_text)}",
           f"{indent}destination: {{{_fragment_fields(fill.destination)}}}", f"{indent}sources:"]
    out += [f"{indent}  - {{from: {json.dumps(source.tensor)}, tile_at: {json.dumps(source.tile_at)}, "
            f"k_tiles: [{', '.join(json.dumps(k) for k in source.k_tiles)}], "
            f"{_fragment_fields(source.fragment, source.fragment.tile != tile)}}}" for source in fill.sources]
    return out


def _k_loop_lines(loop: KLoopRead | None, indent: str) -> list[str]:
    """The k-tile loop's key (theorem 46), where the reader read the loop."""
    if loop is None:
        return []
    reads = f", reads: {{{', '.join(f'{o}: {json.dumps(e)}' for o, e in loop.reads)}}}" if loop.reads else ""
    return [f"{indent}k_loop: {{variable: {json.dumps(loop.variable)}, start: {loop.start}, "
            f"condition: {json.dumps(loop.condition)}, bound: {json.dumps(bound_text(*loop.bound))}, "
            f"step: {loop.step}{reads}}}"]


def _fragment_fields(f: FragmentRead, tile: bool = False) -> str:
    """A thread-gemm fragment's fields (one line): its origins (one a thread), its values' layout, its tile."""
    return (f"tile: [{f.tile[0]}, {f.tile[1]}], " if tile else "") + \
        f"origins: [{', '.join(map(str, f.origins))}], values: {json.dumps(str(f.values.plain()))}"


def _elementwise_side(side: SideRead, thread: str | None) -> str:
    tv = f", thread_values: {json.dumps(side.thread_values.plain())}" if side.thread_values is not None else ""
    shift = f", tile_offset: {side.rest_offset}" if side.rest_offset else ""
    slice_of = f", thread: {json.dumps(thread)}" if thread is not None else ""
    return f"{{tile: [{side.tile[0]}, {side.tile[1]}]{tv}{shift}{slice_of}}}"


def atoms_of(records: list[Record]) -> tuple[set[str], set[str]]:
    mma: set[str] = set()
    copy: set[str] = set()
    for r in records:
        if isinstance(r, (OperandRecord, DescriptorRecord, SubtileRecord)):
            mma.add(r.mma)
        if isinstance(r, (OperandRecord, SubtileRecord)):
            copy.add(r.copy)
        if isinstance(r, BufferRecord) and r.mma is not None:
            mma.add(r.mma)
        if isinstance(r, (BufferRecord, DescriptorRecord)) and r.copy and r.copy not in TMA_COPIES:
            copy.add(r.copy)
        if isinstance(r, SliceRecord) and r.copy not in TMA_COPIES:
            copy.add(r.copy)
        if isinstance(r, TmemRecord):
            copy.add(r.copy)
            if r.store_copy is not None:
                copy.add(r.store_copy)
    return mma, copy


DSL_READER = "The CuTe DSL kernels `python -m verifier import-dsl` read from"


def spec_text(name: str, files: list[str], kernels: list[KernelChecks], mma_lib: dict[str, MMAAtomSpec],
              copy_lib: dict[str, CopyAtomSpec], reader: str = DSL_READER) -> str:
    records = [r for k in kernels for r in k.records]
    used_mma, used_copy = atoms_of(records)
    out = ["version: 2", f"name: {scalar(name)}", "description: >-",
           f"  {reader} " + ", ".join(files) + ";",
           ATOMS_LINE, ""]
    if used_mma:
        out.append("mma_atoms:")
        for n in sorted(used_mma):
            a = mma_lib[n]
            out += mma_atom_lines(a.name, a.instruction, a.shape_mnk, a.thr_id, {k: v.name for k, v in a.types.items()},
                                  (a.a, a.b, a.c), a.source)
        out.append("")
    if used_copy:
        out.append("copy_atoms:")
        for n in sorted(used_copy):
            c = copy_lib[n]
            out += copy_atom_lines(c.name, c.instruction, c.thr_id, c.src, c.dst, c.ref, c.ref_is, c.source)
        out.append("")
    out.append("checks:")
    for k in kernels:
        out.append(f"  # kernel {k.kernel}")
        for r in k.records:
            out += record_lines(r)
        for s in k.skipped:
            out.append(f"  # {'proved by another check' if s.covered else 'not checked'}: {s}")
    return "\n".join(out) + "\n"


def add_family_atoms(kernels: list[KernelChecks], mma_lib: dict[str, MMAAtomSpec]) -> None:
    """The MMA atoms the records name that the library does not define but an atom family's rule builds, added to
    `mma_lib` (kernel_spec.family_atoms)."""
    from ..importer.kernel_spec import family_atoms
    names = (r.mma for k in kernels for r in k.records
             if isinstance(r, (OperandRecord, DescriptorRecord, SubtileRecord)))
    mma_lib.update(family_atoms(names, mma_lib))


def resolve_atoms(kernels: list[KernelChecks], mma_lib: dict[str, MMAAtomSpec],
                  copy_lib: dict[str, CopyAtomSpec]) -> None:
    """The records' atoms looked up: an MMA atom the library lacks built by its family's rule where one builds it
    (`add_family_atoms`), a record whose atom is still unknown made a Skipped (`drop_unknown_atoms`)."""
    add_family_atoms(kernels, mma_lib)
    drop_unknown_atoms(kernels, mma_lib, copy_lib)
    note_tile_types(kernels, mma_lib)


def note_tile_types(kernels: list[KernelChecks], mma_lib: dict[str, MMAAtomSpec]) -> None:
    """A descriptor check whose tile holds another type than the one its MMA atom names for the operand (the tile's
    type is the check's value type, as the readers take it from the tile) states it (`smem_type`): the prover judges
    whether the tensor core reads those values as they are (theorem 12)."""
    for r in (r for k in kernels for r in k.records if isinstance(r, DescriptorRecord) and r.mma in mma_lib):
        want = mma_lib[r.mma].types.get(r.operand.lower())
        if want is not None and want.name != r.value_type and r.tile_type is None:
            r.tile_type = r.value_type


def drop_unknown_atoms(kernels: list[KernelChecks], mma_lib: dict[str, MMAAtomSpec],
                       copy_lib: dict[str, CopyAtomSpec]) -> None:
    """A record naming an atom the library does not define becomes a Skipped (its reason says which)."""
    for k in kernels:
        kept: list[Record] = []
        for r in k.records:
            mma = r.mma if isinstance(r, (OperandRecord, DescriptorRecord, BufferRecord, SubtileRecord)) else None
            copy = r.copy if isinstance(r, (OperandRecord, BufferRecord, TmemRecord, DescriptorRecord, SliceRecord,
                                            SubtileRecord)) \
                and r.copy and r.copy not in TMA_COPIES else None
            if isinstance(r, TmemRecord) and r.store_copy is not None and r.store_copy not in copy_lib:
                copy = r.store_copy
            if mma is not None and mma not in mma_lib:
                k.skipped.append(Skipped(r.where, f"check {r.name}", f"the atom library defines no MMA atom {mma}"))
            elif copy is not None and copy not in copy_lib:
                k.skipped.append(Skipped(r.where, f"check {r.name}", f"the atom library defines no copy atom {copy}"))
            else:
                kept.append(r)
        dropped = {r.name for r in k.records} - {r.name for r in kept}
        # a path another check would have proved is not checked when that check is dropped: said so, and no longer
        # counted as covered
        k.skipped = [Skipped(s.where, s.what, f"the same operand path as check {s.covered_by}, which is not checked "
                                              "either (the atom library lacks its atom)")
                     if s.covered_by in dropped else s for s in k.skipped]
        k.records = kept


def library(atoms: Path) -> tuple[dict[str, MMAAtomSpec], dict[str, CopyAtomSpec]]:
    from ..importer.kernel_spec import KernelInputError
    try:
        return load_atom_library(atoms)
    except KernelInputError as e:
        raise DslInputError(str(e)) from None


def _listed(key: str, items: Iterable[object]) -> str:
    """A side's list field in flow style, `, key: [a, b]` (its items written as given)."""
    return f", {key}: [{', '.join(map(str, items))}]"
