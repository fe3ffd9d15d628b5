"""The C++ reader's element-wise copies (theorem 43): a kernel that copies each thread's partition of a global tile
into registers and from them into the same place of another global tensor's tile (CuTe's tutorial `tiled_copy.cu`),
or from one global partition straight into another.

    Tensor tile_S = S(make_coord(_, _), blockIdx.x, blockIdx.y);    // a tile of tiled_divide(tensor, block_shape)
    ThrCopy thr_copy = tiled_copy.get_thread_slice(threadIdx.x);
    Tensor thr_tile_S = thr_copy.partition_S(tile_S);                // or local_partition(tile_S, thr, threadIdx.x)
    Tensor fragment = make_fragment_like(thr_tile_D);
    copy(tiled_copy, thr_tile_S, fragment);
    copy(tiled_copy, fragment, thr_tile_D);

Each side's partition is computed on its tile's coordinates for every thread (thread_gemm.py's reading, the
compiler's type giving the same shape) and its threads' origins read back as a layout of the thread: the
element-wise check's `thread_values`, (thr, val) -> the tile's index.  A copy pairs its source's value v with its
destination's value v (the register tensor is of both partitions' shape), so the output's value v is computed from
the input's value v.  The tensors' extents are run-time values: the check is one tile's, every side taken at the same
block coordinates as written (another coordinate on one side is a reason, not a guess), which is stated with the
launch's grid as an assumption."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..algebra.inttuple import IntTuple
from ..algebra.layout import Layout
from .cpp_values import Memory, Value, copy_atom_name, memory_of
from .instrument import Statement
from .thread_gemm import NotRead, ThreadGemmReader, _shape_of
from .thread_gemm_read import FragmentRead

MAX_THREADS = 1024
# copy operations that move each thread's own values, value v to value v (the copy atoms an element-wise copy may use)
ELEMENT_COPIES = ("UniversalCopy", "AutoVectorizingCopy", "DefaultCopy", "AutoCopyAsync")


@dataclass(frozen=True)
class CopySide:
    """One global side of an element-wise copy: its tensor, tile, block coordinates and (thr, val) -> tile index."""
    tensor: str
    tile: tuple[int, int]
    at: tuple[str, str]
    thread_values: Layout
    partition: str                  # the partition the copy reads or writes, as written


@dataclass(frozen=True)
class ElementwiseCopyRead:
    output: CopySide
    source: CopySide
    threads: int
    values: int
    lines: tuple[int, ...]          # the copies'
    through: str | None             # the register tensor between them (None: a copy from global to global)


def thread_layout(origins: tuple[int, ...]) -> Layout:
    """A layout of the thread giving `origins` (thread t -> origins[t]): its modes read off in order, each the longest
    run of threads whose origins step alike whose extent divides the threads left (NotRead where that layout does
    not give every origin)."""
    threads = len(origins)
    if origins[0] != 0:
        raise NotRead(f"thread 0's values start at index {origins[0]} of the tile, not at its first element")
    shape: list[int] = []
    stride: list[int] = []
    unit = 1
    while unit < threads:
        step = origins[unit]
        left = threads // unit
        runs = [e for e in range(2, left + 1) if left % e == 0 and
                all(origins[k * unit] == k * step for k in range(e))]
        if not runs:
            raise NotRead("the threads' origins in the tile are no layout of the thread")
        shape.append(runs[-1])
        stride.append(step)
        unit *= runs[-1]
    if not shape:
        return Layout(1, 0)
    layout = Layout(tuple(shape), tuple(stride)) if len(shape) > 1 else Layout(shape[0], stride[0])
    if any(int(layout(t)) != origins[t] for t in range(threads)):
        raise NotRead("the threads' origins in the tile are no layout of the thread")
    return layout


def _values_layout(fragment: FragmentRead, threads: int) -> Layout:
    """(thr, val) -> the tile's index of a side's partition."""
    thr = thread_layout(fragment.origins[:threads])
    shape: IntTuple = (thr.shape, fragment.values.shape)
    return Layout(shape, (thr.stride, fragment.values.stride))


def _side(reader: ThreadGemmReader, name: str, line: int, threads: int | None) -> tuple[CopySide, int]:
    v = reader.value(name, line)
    fragment, part = reader.fragment(v, threads, None)
    if part.tile.at is None or "_" in part.tile.at:
        raise NotRead(f"{part.tile.value.name} is not one block's tile")
    if part.threads > MAX_THREADS:
        raise NotRead(f"{v.name}: a partition among {part.threads} threads")
    count = threads if threads is not None else part.threads
    return CopySide(part.tile.tensor, part.tile.shape, part.tile.at, _values_layout(fragment, count), v.name), count


def _whole(text: str) -> bool:
    return text.strip().isidentifier()


def per_thread(reader: ThreadGemmReader, copy: Statement, by: str | None) -> None:
    """NotRead unless the copy at `copy` moves each thread's values itself (value v of its source to value v of its
    destination): a copy of no atom (CuTe's vectorizing copy), or one whose TiledCopy or Copy_Atom `by` is of an
    element copy (UniversalCopy, AutoVectorizingCopy, DefaultCopy) -- not an instruction that moves values between
    threads."""
    if by is None:
        return
    v = reader.value(by, copy.line)
    node = v.node
    atom = node.args[0] if node is not None and node.is_("TiledCopy") and node.args else node
    name = copy_atom_name(atom)[0] if atom is not None and atom.is_("Copy_Atom") else None
    if name is None or not name.startswith(ELEMENT_COPIES):
        raise NotRead(f"the copy at line {copy.line} is made by {by} ({name or 'no copy atom the compiler described'})"
                      ", not an element copy: which thread's value lands where is the instruction's")


def read_elementwise_copy(reader: ThreadGemmReader, load: tuple[Statement, str, str],
                          store: tuple[Statement, str, str] | None, atoms: tuple[str | None, str | None] = (None, None)
                          ) -> ElementwiseCopyRead:
    """The element-wise copy of `load` (global partition -> registers) and `store` (those registers -> a global
    partition), or of `load` alone where it copies from one global partition into another (store None)."""
    st_load, src, dst = load
    if store is None:
        st_store, through, out = st_load, None, dst
    else:
        st_store, reg, out = store
        if reg.strip() != dst.strip():
            raise NotRead(f"the copy at line {st_store.line} stores {reg.strip()}, not the registers {dst.strip()} the "
                          f"copy at line {st_load.line} loads")
        through = dst.strip()
    per_thread(reader, st_load, atoms[0])
    if store is not None:
        per_thread(reader, st_store, atoms[1])
    for text in (src, dst, out):
        if not _whole(text):
            raise NotRead(f"{text.strip()}: a sliced operand (the reader reads whole partitions)")
    source, threads = _side(reader, src.strip(), st_load.line, None)
    output, _ = _side(reader, out.strip(), st_store.line, threads)
    values = int(source.thread_values.mode(1).size())
    if int(output.thread_values.mode(1).size()) != values:
        raise NotRead(f"{source.partition} holds {values} values a thread, {output.partition} "
                      f"{output.thread_values.mode(1).size()}: a copy pairs them one to one")
    if through is not None:
        reg_v: Value = reader.value(through, st_load.line)
        if reg_v.node is None or memory_of(reg_v.node) is not Memory.REGISTER:
            raise NotRead(f"{through} is not a register tensor")
        shapes = {_shape_of(reader.value(x, st_load.line).node) for x in (src.strip(), through)}
        if len(shapes) != 1:
            raise NotRead(f"{through} is not of {source.partition}'s shape: a copy of part of it")
        word = re.compile(rf"\b{re.escape(through)}\b")
        between = [st for st in reader.statements if (st_load.line, st_load.column) < (st.line, st.column) <
                   (st_store.line, st_store.column)]
        other = next((st for st in between if word.search(st.text)), None)
        if other is not None:
            raise NotRead(f"{through} is also used at line {other.line} ({other.text[:60]}), between the copies: "
                          "what it does to the registers is not read")
    if source.tensor == output.tensor:
        raise NotRead(f"{source.partition} and {output.partition} are partitions of one tensor, {source.tensor}: a "
                      "copy of a tensor onto itself")
    if source.at != output.at:
        raise NotRead(f"{output.partition}'s tile is taken at ({', '.join(output.at)}), {source.partition}'s at "
                      f"({', '.join(source.at)}): the element-wise check compares sides at one tile")
    return ElementwiseCopyRead(output, source, threads, values,
                               tuple(sorted({st_load.line, st_store.line})), through)


__all__ = ["CopySide", "ElementwiseCopyRead", "read_elementwise_copy", "thread_layout"]
