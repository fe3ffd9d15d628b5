"""The operand paths of a CUTLASS collective mainloop the source names at namespace scope (`using CollectiveMainloop =
typename CollectiveBuilder<...>::CollectiveOp;`, a GemmKernel or a device adapter holding one): its kernel body is
CUTLASS's, not the file's, so the paths are read off the members the collective declares, as the compiler spelled
them (host_prelude.hpp's `verifier_record::collective<m_TiledMma<...>, m_SmemLayoutA<...>, ...>`):
- each operand a TMA copy (`GmemTiledCopyA` SM90_TMA_LOAD / _MULTICAST) fills and an SS atom of `TiledMma` reads
  through a descriptor: a descriptor check of `SmemLayoutA` (its first stage) with a representative global tensor
  whose contiguous mode is the one `StrideA` makes static 1;
- every other collective (register-sourced A, a copy CUTLASS's threads make) is listed with the reason."""
from __future__ import annotations

import re
from pathlib import Path

from ..algebra.syntax import ParseError, parse_layout
from ..dsl.flow import Skipped
from ..dsl.kernel_checks import DescriptorRecord, Record, SliceRecord, mn_k_pipe
from ..kinds.slice.config import SliceUnit
from ..dsl.mlir_text import Where
from ..specfile.model import TMA_COPIES
from .cpp_types import TypeNode, TypeSyntaxError, layout_text
from .compile_notes import CompileFailed, NotedType
from .instrument import SCOPE, Instrumented
from .kernel_source import blank_comments
from .source_files import UnreadableFile, read_text_file
from .kernel_paths import (ASSUME_ALIGN, ASSUME_GMEM, SHARED_TILE_ALIGN, TILED_MMA_ARGS, Instantiation, PathReader,
                           TCGEN05_ATOMS, RefusedInDeviceCode, atom_layout_text, check_pointer_width, first_stage_text,
                           instantiations, mma_atom_name, representative_gmem, a_source, umma_major)

COLLECTIVE = "collective"                  # host_prelude.hpp's verifier_record::collective
MEMBER_PREFIX = "m_"                       # ... and its wrappers m_<Member>
ABSENT = "absent"
TMA_LOADS = ("SM90_TMA_LOAD", "SM90_TMA_LOAD_MULTICAST", "SM100_TMA_2SM_LOAD", "SM100_TMA_2SM_LOAD_MULTICAST")
# the mainloop policies (by a word of their name) whose collectives keep shared buffers besides A's and B's tiles
OTHER_BUFFERS = (("Blockwise", "blockwise scale buffers"), ("BlockScaled", "scale-factor buffers"),
                 ("MixedInput", "scale and zero-point buffers"), ("Sparse", "sparse metadata buffer (E)"))
# the mainloop policies (by a word of their name) whose MMA reads other shared buffers than TMA fills: why
TRANSFORMING_POLICIES = (("FastF32", "the mainloop's transform warps convert the TMA-filled float tiles into the bf16 "
                                     "buffers the MMA reads (emulated f32), buffers the collective reader does not "
                                     "read"),)
COLLECTIVE_MEMBERS = ("SmemLayout", "GmemTiledCopy", "Stride", "Element")   # what an operand's check is read from
ASSUME_COLLECTIVE = ("CUTLASS's collective {policy} fills the tile with {copy} and reads it with {mma} as its "
                     "members say (its kernel body is CUTLASS's: the members are read, the body is not)")


def _short(node: TypeNode) -> str:
    return node.base().split("::")[-1]


def members(node: TypeNode) -> dict[str, TypeNode] | None:
    """{member: its type} of a collective note; None when the alias is no collective (no TiledMma)."""
    if _short(node) != COLLECTIVE:
        return None
    out: dict[str, TypeNode] = {}
    for wrapped in node.args:
        name = _short(wrapped)
        if name.startswith(MEMBER_PREFIX) and wrapped.args:
            out[name[len(MEMBER_PREFIX):]] = wrapped.args[0]
    return out if "TiledMma" in out else None


def _contiguous_mode(stride: TypeNode) -> int | None:
    """The mode of (MN, K[, L]) whose stride is the static 1 (`cute::C<1>`)."""
    for i, s in enumerate(stride.args[:2]):
        if _short(s) == "C" and s.args and s.args[0].name == "1":
            return i
    return None


UNPACKED = "_unpacksmem_t"       # CuTe's 4- and 6-bit float types as tcgen05.mma's f8f6f4 kinds read them: a byte each


def _tile_type(element: str, tiled_mma_atom: TypeNode, op: str) -> str:
    """The type of the shared tile TMA fills: the collective's ElementA / ElementB, or the MMA's operand type where that
    is the element unpacked a byte each (float_e2m1_t -> float_e2m1_unpacksmem_t: an SM100 f8f6f4 collective lays out
    and loads its 4- and 6-bit operand as the MMA's ValType, a byte an element)."""
    atom = tiled_mma_atom.args[0] if tiled_mma_atom.is_("MMA_Atom") and tiled_mma_atom.args else tiled_mma_atom
    index = "AB".index(op)
    if len(atom.args) > index:
        operand_type = _short(atom.args[index])
        if operand_type.endswith(UNPACKED) and operand_type[:-len(UNPACKED)] + "_t" == element:
            return operand_type
    return element


def collective_records(file: str, inst: Instantiation, reader: PathReader) -> None:
    """The descriptor checks of every collective alias of the namespace-scope instantiation `inst`."""
    for values in inst.values.values():
        for v in values:
            found = members(v.node) if v.node is not None else None
            if found is not None:
                _collective(file, v.name, v.note.line, v.note.column, found, reader)


def _collective(file: str, alias: str, line: int, column: int, m: dict[str, TypeNode], reader: PathReader) -> None:
    where = Where(file, line, column, None)
    what = f"collective {alias}"
    tiled_mma = m["TiledMma"]
    if len(tiled_mma.args) not in TILED_MMA_ARGS:
        reader.skipped.append(Skipped(where, what, "its TiledMma has no TiledMMA type"))
        return
    mma, why, majors = mma_atom_name(tiled_mma.args[0])
    if mma is None:
        reader.skipped.append(Skipped(where, what, why))
        return
    policy = _short(m["DispatchPolicy"]) if "DispatchPolicy" in m else "of no dispatch policy"
    for word, buffers in OTHER_BUFFERS:
        if word in policy:         # the collective's other shared buffers: only A's and B's tiles are read
            reader.skipped.append(Skipped(where, f"{what}, its {buffers}", f"not read: the collective reader reads "
                                                                           f"A's and B's tiles only ({policy})"))
    transformed = next((why for word, why in TRANSFORMING_POLICIES if word in policy), None)
    for op in ("A", "B"):
        about = f"{what}, operand {op}"
        if transformed is not None:     # the MMA reads another buffer than the one TMA fills
            reader.skipped.append(Skipped(where, about, f"{transformed} ({policy}): not checked"))
            continue
        a_elsewhere = a_source(mma) if op == "A" else None
        if a_elsewhere is not None:
            reader.skipped.append(Skipped(where, about, f"{mma} {a_elsewhere}: not checked"))
            continue
        named = {k: m.get(f"{k}{op}") for k in COLLECTIVE_MEMBERS}
        missing = [f"{k}{op}" for k, v in named.items() if v is None]
        if missing:
            reader.skipped.append(Skipped(where, about, f"the collective declares no {', '.join(missing)}"))
            continue
        layout, copy, stride, element = (named[k] for k in COLLECTIVE_MEMBERS)
        assert layout is not None and copy is not None and stride is not None and element is not None
        copy_name = _short(copy)
        if copy_name not in TMA_LOADS:
            reader.skipped.append(Skipped(where, about, f"GmemTiledCopy{op} is {copy_name}, not a TMA load: "
                                                        "CUTLASS's threads fill the tile (not checked)"))
            continue
        inner = _contiguous_mode(stride)
        try:
            if inner is None:
                raise TypeSyntaxError(f"Stride{op} {stride.text()[:80]} has no mode of a static unit stride among "
                                      "its first two (a unit stride nested inside a mode, as a permuted or GETT "
                                      "layout has, is not read)")
            value_type = _tile_type(_short(element), tiled_mma.args[0], op)
            gmem = representative_gmem(inner, value_type)
            tile = layout_text(layout)
            if mma.startswith(TCGEN05_ATOMS):    # tile_to_mma_shape: ((MMA_MN, MMA_K), REST_MN, REST_K, PIPE)
                tile = str(mn_k_pipe(parse_layout(tile)))
            smem = first_stage_text(tile)
            check_pointer_width(smem, value_type)
            atom_layout = atom_layout_text(tiled_mma.args[1])
        except RefusedInDeviceCode as e:
            raise CompileFailed(f"{where}: CuTe refuses this configuration: {e}", refused_by_cute=True) from None
        except (TypeSyntaxError, ParseError, ValueError) as e:
            reader.skipped.append(Skipped(where, about, f"not read: {e}"))
            continue
        cta_slices = _cta_slices(m.get("DispatchPolicy"), mma, op, copy_name)
        if cta_slices is not None:
            count, writers, why = cta_slices
            reader.add(SliceRecord(reader.unique(f"{alias}_cta_slice_{op.lower()}"), where,
                                   f"{what}: operand {op}'s tile ({policy}, {copy_name}): {why}", TMA_COPIES[0],
                                   value_type, count, writers, "tid", unit=SliceUnit.CTA,
                                   assumes=[ASSUME_COLLECTIVE.format(policy=policy, copy=copy_name, mma=mma)]))
        name = reader.unique(f"{alias}_desc_{op.lower()}")
        reader.add(DescriptorRecord(
            name, where,
            f"{what}: operand {op} of {mma} ({policy}), filled by {copy_name}", mma,
            atom_layout, op, value_type, smem, gmem, SHARED_TILE_ALIGN,
            assumes=[ASSUME_ALIGN, ASSUME_GMEM.format(f"Stride{op} makes the static 1", gmem),
                     ASSUME_COLLECTIVE.format(policy=policy, copy=copy_name, mma=mma)],
            copy=TMA_COPIES[0], major=umma_major(mma, majors, op)))


def cluster_shape(policy: TypeNode | None) -> tuple[int, int, int] | None:
    """The ClusterShape a mainloop dispatch policy carries (`cute::tuple<C<2>, C<1>, C<1>>` among its arguments)."""
    for arg in policy.args if policy is not None else []:
        dims = [a.args[0].name for a in arg.args if _short(a) == "C" and a.args]
        if _short(arg) in ("tuple", "Shape") and len(arg.args) == 3 and len(dims) == 3 and \
                all(d.isdigit() for d in dims):
            return int(dims[0]), int(dims[1]), int(dims[2])
    return None


MULTICAST_OPS = "_MULTICAST"  # CuTe's TMA load ops that write every CTA of their mask: SM90_TMA_LOAD_MULTICAST, ...
PAIR_ATOMS = "2x1SM"          # a tcgen05.mma of a CTA pair (cta_group::2): CuTe's SM100_MMA_..._2x1SM_...


def _cta_slices(policy: TypeNode | None, mma: str, op: str, copy: str) -> tuple[int, int, str] | None:
    """How the collective splits operand `op`'s tile among the CTAs of its cluster: (slices, CTAs writing each
    CTA's tile, why), None where it does not split it.  CUTLASS's collectives make the TMA atom of A over the
    cluster's N extent and B's over its M extent (an SM100 2-CTA MMA's B over its CTA pairs along M), and partition
    it there whatever the atom: a multicast atom writes its slice into every CTA of the extent, a plain one into its
    own CTA's shared memory alone.  A 2-CTA MMA's pair is two CTAs along the cluster's M."""
    cluster = cluster_shape(policy)
    if cluster is None:
        return None
    pair = PAIR_ATOMS in mma
    if pair and cluster[0] % 2:
        return None if op != "A" else (2, 1, f"the 2-CTA MMA {mma} takes its tile from a pair of CTAs along the "
                                             f"cluster's M, which has {cluster[0]} CTA(s): its CTAs have no pair")
    extent = cluster[1] if op == "A" else cluster[0] // (2 if pair else 1)
    if extent < 2:
        return None
    along = "N" if op == "A" else ("M (in CTA pairs)" if pair else "M")
    writers = extent if copy.endswith(MULTICAST_OPS) else 1
    return (extent, writers, f"the tile is split among the {extent} CTAs along the cluster's {along}, each loading "
                             f"its slice with {copy}, " + ("which multicasts it to all of them" if writers > 1 else
                                                            "which writes its own CTA's shared memory alone"))


# `using NAME = typename cutlass::gemm::collective::CollectiveBuilder<` or `using NAME = cutlass::gemm::collective::
# CollectiveMma<`: a mainloop a file declares (in comment-blanked text)
_BUILDER_ALIAS = re.compile(r"\busing\s+([A-Za-z_]\w*)\s*=\s*(?:typename\s+)?(?:cutlass\s*::\s*)?gemm\s*::\s*"
                            r"collective\s*::\s*(?:CollectiveBuilder\s*<|CollectiveMma\s*<)")
# `using NAME = typename cutlass::epilogue::collective::CollectiveBuilder<`, `... epilogue::collective::
# CollectiveEpilogue<`, `DefaultEpilogue<`, ...: an epilogue a file declares
_EPILOGUE_ALIAS = re.compile(r"\busing\s+([A-Za-z_]\w*)\s*=\s*(?:typename\s+)?(?:cutlass\s*::\s*)?epilogue\s*::\s*"
                             r"collective\s*::\s*(?:\w+\s*::\s*)*\w+\s*<")
EPILOGUE_NOT_READ = ("not read: the collective reader checks mainloops (their A and B tiles through TMA and the MMA's "
                     "descriptors); an epilogue collective's shared layouts, its copies and its partition of the "
                     "accumulator are not checked")
NOT_AT_SCOPE = ("declared inside a class or a function, whose aliases this reader does not read (a namespace-scope "
                "alias naming the same collective, such as a GemmKernel's, is read): name it at namespace scope with "
                "the template arguments the kernel uses (`using Mainloop = typename Runner<...>::CollectiveMainloop;`, "
                "or the alias's own type) and import again")


def unread_collectives(file: str, source: str, ins: Instrumented) -> list[Skipped]:
    """The CUTLASS collectives the file builds (`using X = typename ...CollectiveBuilder<...>`) in an alias not at
    namespace scope, each listed with what to do: their members are never noted, so nothing else would name them;
    and every epilogue collective it names, which no check reads."""
    text = blank_comments(source)
    at_scope = {n.line for n in ins.notes if n.function == SCOPE}
    out = []
    for m in _BUILDER_ALIAS.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        if line not in at_scope:
            column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
            out.append(Skipped(Where(file, line, column, None), f"collective {m.group(1)}", NOT_AT_SCOPE))
    for m in _EPILOGUE_ALIAS.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
        out.append(Skipped(Where(file, line, column, None), f"collective epilogue {m.group(1)}", EPILOGUE_NOT_READ))
    return out


# `#include "local.hpp"`: a header of the example's own (quoted), beside the file
_LOCAL_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.MULTILINE)
MAX_HEADER_BYTES = 4 << 20
IN_HEADER = ("declared in {header}, a header the file includes, whose aliases the instrumented compile does not "
             "note: name it at namespace scope in {file} with the template arguments the kernel uses (`using "
             "Mainloop = ...;`) and import again")


def header_collectives(file: Path, source: str) -> list[Skipped]:
    """The CUTLASS mainloop collectives built in the file's own headers (`#include "..."` beside it, one level), each
    listed with what to do: the compile notes the file's namespace-scope aliases only, so nothing else would name
    them (example 51 builds its mainloop inside a function template of its gett_kernel.cuh)."""
    out: list[Skipped] = []
    base = file.resolve().parent
    for m in _LOCAL_INCLUDE.finditer(source):         # (a line comment never matches: the directive opens it)
        header = (base / m.group(1)).resolve()
        if base not in header.parents or not header.is_file():
            continue                    # CUTLASS's or the system's headers; a path outside the example's folder
        try:
            text = blank_comments(read_text_file(header, MAX_HEADER_BYTES))
        except UnreadableFile:
            continue
        for a in _BUILDER_ALIAS.finditer(text):
            line = text.count("\n", 0, a.start()) + 1
            column = a.start() - (text.rfind("\n", 0, a.start()) + 1) + 1
            out.append(Skipped(Where(str(header), line, column, None), f"collective {a.group(1)}",
                               IN_HEADER.format(header=m.group(1), file=file.name)))
    return out


def collective_paths(file: str, ins: Instrumented, noted: list[NotedType]) -> tuple[list[Record], list[Skipped]]:
    """The descriptor checks of the collectives the file's namespace-scope aliases name, and what is not checked."""
    records: list[Record] = []
    skipped: list[Skipped] = []
    for inst in instantiations(ins, noted):
        if inst.function == SCOPE:
            reader = PathReader(file, inst, "namespace scope")
            collective_records(file, inst, reader)
            records += reader.records
            skipped += reader.skipped
    return records, skipped


__all__ = ["collective_paths", "members", "unread_collectives"]
