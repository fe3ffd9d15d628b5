"""The buffer kind's configuration: one shared-memory allocation, the view its writer stores through and the view
its reader loads through (theorem 23).

    buffer:
      bytes: 65536            # the allocation's size
      align: 16               # what the allocation guarantees of its base address (bytes)
      writer: {by: "...", at: 0, layout: "Sw<2,4,3> o smem_ptr[16b](unset) o (128,32):(32,1)"}
      reader: {by: "...", at: 0, layout: "Sw<2,3,3> o 0 o (128,32):(32,1)"}
      # in place of `writer`: `unwritten: "..."`, what an importer read to find that nothing the kernel runs writes
      # the reader's bytes (theorem 23 then refutes the check: the reader reads memory no one filled)
      # a TMA side may give `gmem: "(4096,4096):(4096,1)"` and `tma_dim0: 1`: the global tensor its atom copies
      # and the mode of it the atom's dimension 0 runs along, which must be its contiguous one
      # stages: 4             # the kernel's pipeline slices both views at stage indices 0..3 of their last mode
      #                       #   (past the views' own stages CuTe reads the mode past its extent)
      # a side may give `stage_indices: [0, 1, 2, 3]`: every stage index its copies slice it at (an importer reads
      # them); where both sides give them, the writer must fill exactly the stages the reader reads
      # a side may give `wait_offsets: [0]`: how many stages past the one whose barrier its thread waited on its
      # slices take (an importer reads them where a slice's index and a barrier's are of one base); one offset a side,
      # the same on both sides where both give them;
      # `fixed_after_wait: [0]`: the static stages it takes right after its pipeline waited on a cycling one (none may)
      # a TMA side may give `tma_map_of: "host argument 0"` and `tma_tiles_of: "host argument 0"`: the global tensor
      # its atom's tensor map was made from and the one whose tiles its partition takes (an importer names them);
      # they must be one tensor; with `tma_stores_write: ["host argument 2"]` (the tensors the kernel's TMA stores
      # write, which an importer states on a TMA load the tensor core reads) its map's tensor must be none of them
      # such a load may give `mn_tile_at: ["%18 (line 67)"]` and `other_mn_tile_at: ["%17 (line 66)"]`: the values
      # it takes its M (A) or N (B) tiles at, and those the MMA's other operand takes its tiles at; none in both

A view is `at` bytes into the allocation and maps the coordinates both sides name (the tile's (m, k, ...)) to
elements of `value_type`: a plain layout gives element offsets; `Sw<B,M,S> o OFFSET o L` swizzles the element
offset (a position-independent swizzle: CuTe's composed layout); `Sw<B,M,S> o smem_ptr[Nb](unset) o L` swizzles
the byte address (CuTe's swizzled pointer, which depends on where the buffer lies)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from ruamel.yaml.comments import CommentedSeq

from ...algebra.inttuple import flatten_to_tuple, product
from ...algebra.layout import Layout, make_layout
from ...algebra.swizzle import ComposedLayout, SmemPtrFlag, Swizzle
from ...specfile.fields import Fields, is_int, show
from ...specfile.model import CheckKind, CheckSpec, SpecError, common_fields
from ...theorems.stage_sets import READER_SIDE, WRITER_SIDE
from ...specfile.vocabulary import BUFFER_FIELDS, BUFFER_OPTIONAL, BUFFER_VIEW_FIELDS, MAX_GLOBAL_ELEMENTS

MAX_BUFFER_BYTES = 1 << 24          # far above any shared memory: a size past it is a typo
MAX_STAGES = 1 << 10                # a pipeline's stages: far above any kernel's
WRITER, READER = WRITER_SIDE, READER_SIDE      # a buffer's two sides
UNWRITTEN = "unwritten"             # a buffer's field in place of its writer: why nothing writes the reader's bytes
STAGE_INDICES = "stage_indices"     # a side's field: the stage indices its copies take
WAIT_OFFSETS = "wait_offsets"       # a side's field: the stages past the waited one its slices take
FIXED_AFTER_WAIT = "fixed_after_wait"   # a side's field: static stages taken right after a cycling wait
TMA_MAP_OF, TMA_TILES_OF = "tma_map_of", "tma_tiles_of"   # a TMA side's fields: its map's tensor, its tiles'
TMA_STORES_WRITE = "tma_stores_write"       # a TMA load's field: the tensors the kernel's TMA stores write
MN_TILE_AT, OTHER_MN_TILE_AT = "mn_tile_at", "other_mn_tile_at"   # an MMA operand's load: its tiles' and the other's


@dataclass(frozen=True)
class BufferView:
    """One side's view of the buffer: who uses it, where it starts and its layout."""
    by: str                          # what reads or writes through it, in words (an importer names the copy)
    at: int                          # bytes from the allocation's base to the view's first element
    layout: Layout | ComposedLayout  # (coordinate) -> element offset (or byte address, for a swizzled pointer)
    source: str | None = None        # where the view is made (an importer's file:line:column)
    gmem: Layout | None = None       # a TMA side: the global tensor its atom copies from or to
    tma_dim0: int | None = None      # ... and the global mode its atom's dimension 0 runs along (the atom's basis)
    stage_indices: tuple[int, ...] | None = None   # every stage index (of the last mode) its copies take, ascending
    wait_offsets: tuple[int, ...] | None = None    # the stages past the one whose barrier was waited on its slices
                                                   # take, ascending (0: the waited stage)
    fixed_after_wait: tuple[int, ...] | None = None    # static stages its slices take right after its pipeline
                                                       # waited on a cycling stage
    tma_map_of: str | None = None    # a TMA side: the global tensor its atom's tensor map was made from (a name)
    tma_tiles_of: str | None = None  # ... and the one whose tiles its partition takes
    tma_stores_write: tuple[str, ...] | None = None    # the tensors the kernel's TMA stores write (an MMA
                                                       # operand's TMA load: its map's tensor none of them)
    mn_tile_at: tuple[str, ...] | None = None          # an MMA operand's TMA load: the values it takes its
                                                       # M (A) or N (B) tiles at
    other_mn_tile_at: tuple[str, ...] | None = None    # ... and those the MMA's other operand takes its tiles at

    @property
    def inner(self) -> Layout:
        inner = self.layout.b if isinstance(self.layout, ComposedLayout) else self.layout
        assert isinstance(inner, Layout)
        return inner

    @property
    def address_swizzle(self) -> Swizzle | None:
        """The swizzle of a swizzled pointer: it acts on the byte address."""
        if isinstance(self.layout, ComposedLayout) and isinstance(self.layout.offset, SmemPtrFlag) and \
                isinstance(self.layout.a, Swizzle):
            return self.layout.a
        return None

    @property
    def offset_swizzle(self) -> Swizzle | None:
        """The swizzle of a composed layout: it acts on the element offset."""
        if isinstance(self.layout, ComposedLayout) and not isinstance(self.layout.offset, SmemPtrFlag) and \
                isinstance(self.layout.a, Swizzle):
            return self.layout.a
        return None


@dataclass(kw_only=True)
class BufferCheck(CheckSpec):
    """A shared buffer between its writer and its reader (theorem 23).  `copy` names the writer's copy atom.  A
    buffer with no writer (`writer` None) gives `unwritten`: what was read to find that nothing writes it (its
    check names the reader's atom: its copy, or the MMA whose descriptor reads it)."""
    kind: ClassVar[str] = CheckKind.BUFFER
    bytes: int
    align: int
    writer: BufferView | None
    reader: BufferView
    stages: int | None = None        # the pipeline's stage indices 0..stages-1, where they exceed the views' own
    unwritten: str | None = None     # with no writer: why nothing the kernel runs writes the reader's bytes

    @property
    def shape(self) -> tuple[int, ...]:
        """The size of each mode of the coordinates both views name."""
        return mode_sizes(self.reader.inner)

    def summary(self) -> str:
        writer = self.writer.by if self.writer is not None else "nothing writes it"
        return (f"{self.value_type.name if self.value_type else ''} buffer of {self.bytes} bytes: "
                f"{writer} -> {self.reader.by}")


def mode_sizes(layout: Layout) -> tuple[int, ...]:
    """The sizes of a layout's top-level modes: its 1-D coordinate per mode (views with the same sizes name the same
    coordinates, however each mode is nested)."""
    return tuple(int(layout.mode(i).size()) for i in range(layout.rank()))


def reads_buffer_check(fields: Fields) -> bool:
    return fields.has("buffer")


def _positive_int(fl: Fields, k: str, hi: int) -> int:
    x = fl.m[k]
    if not is_int(x) or not 0 < x <= hi:
        raise SpecError(fl.at(k), f"'{k}' of {fl.what} must be an integer in 1..{hi}, not {show(x)}")
    return int(x)


def _view(fl: Fields, k: str, bits: int | None, limit: int) -> BufferView:
    """A side's view (`bits`: the buffer's elements, where the check names their type)."""
    sub = fl.sub(k, BUFFER_VIEW_FIELDS)
    sub.require(("at", "layout"))
    at = sub.m["at"]
    if not is_int(at) or not 0 <= at < limit:
        raise SpecError(sub.at("at"), f"'at' of {sub.what} must be a byte offset in 0..{limit - 1}, not {show(at)}")
    layout = sub.layout("layout", swizzle_ok=True)
    if isinstance(layout, ComposedLayout):
        if not isinstance(layout.a, Swizzle) or not isinstance(layout.b, Layout):
            raise SpecError(sub.at("layout"), f"'layout' of {sub.what} must be a layout, a swizzle composed with one "
                                              f"or a swizzled pointer's (Sw<B,M,S> o smem_ptr[{bits}b](unset) o L)")
        if isinstance(layout.offset, SmemPtrFlag) and bits is not None and layout.offset.bits not in (None, bits):
            raise SpecError(sub.at("layout"), f"'layout' of {sub.what} is a swizzled pointer to {layout.offset.bits}-"
                                              f"bit elements; the buffer holds {bits}-bit ones")
    if sub.has(TMA_MAP_OF) != sub.has(TMA_TILES_OF):
        raise SpecError(sub.loc, f"{sub.what} gives '{TMA_MAP_OF}' and '{TMA_TILES_OF}' together: the global tensor "
                                 "its TMA atom's tensor map was made from and the one whose tiles it takes")
    if sub.has(TMA_STORES_WRITE) and not sub.has(TMA_MAP_OF):
        raise SpecError(sub.at(TMA_STORES_WRITE), f"'{TMA_STORES_WRITE}' of {sub.what} needs '{TMA_MAP_OF}': the "
                                                  "tensor its TMA atom's map was made from, compared with them")
    if sub.has(MN_TILE_AT) != sub.has(OTHER_MN_TILE_AT):
        raise SpecError(sub.loc, f"{sub.what} gives '{MN_TILE_AT}' and '{OTHER_MN_TILE_AT}' together: the values its "
                                 "MMA operand takes its tiles at and those the other operand takes its tiles at")
    if sub.has("gmem") != sub.has("tma_dim0"):
        raise SpecError(sub.loc, f"{sub.what} gives 'gmem' and 'tma_dim0' together: a TMA side's global tensor and "
                                 "the mode of it its atom's dimension 0 runs along")
    gmem = sub.layout("gmem", max_elements=MAX_GLOBAL_ELEMENTS) if sub.has("gmem") else None
    dim0 = None
    if gmem is not None:
        dim0 = sub.m["tma_dim0"]
        if not is_int(dim0) or not 0 <= dim0 < gmem.rank():
            raise SpecError(sub.at("tma_dim0"), f"'tma_dim0' of {sub.what} must be a mode of its global tensor, "
                                                f"0..{gmem.rank() - 1}, not {show(dim0)}")
    return BufferView(
        sub.opt_str("by") or k, int(at), layout, sub.opt_str("source"), gmem, int(dim0) if dim0 is not None else None,
        stage_indices=(sub.index_set(STAGE_INDICES, "stage indices", "stage", MAX_STAGES)
                       if sub.has(STAGE_INDICES) else None),
        wait_offsets=(sub.index_set(WAIT_OFFSETS, "offsets in stages", "offset", MAX_STAGES)
                      if sub.has(WAIT_OFFSETS) else None),
        fixed_after_wait=(sub.index_set(FIXED_AFTER_WAIT, "stage indices", "stage", MAX_STAGES)
                          if sub.has(FIXED_AFTER_WAIT) else None),
        tma_map_of=sub.opt_str(TMA_MAP_OF), tma_tiles_of=sub.opt_str(TMA_TILES_OF),
        tma_stores_write=_names(sub, TMA_STORES_WRITE) if sub.has(TMA_STORES_WRITE) else None,
        mn_tile_at=_names(sub, MN_TILE_AT) if sub.has(MN_TILE_AT) else None,
        other_mn_tile_at=_names(sub, OTHER_MN_TILE_AT) if sub.has(OTHER_MN_TILE_AT) else None)


def _names(sub: Fields, key: str) -> tuple[str, ...]:
    """A side's list of distinct names (`tma_stores_write`, `mn_tile_at`), at least one."""
    x, loc = sub.m[key], sub.at(key)
    want = "a list of distinct names (strings)"
    if not isinstance(x, CommentedSeq) or not x:
        raise SpecError(loc, f"'{key}' of {sub.what} must be {want}, not {show(x)}")
    for i, v in enumerate(x):
        if not isinstance(v, str):
            raise SpecError(sub.f.item(x, i), f"'{key}' of {sub.what} must be {want}; item {i} is {show(v)}")
        if v in x[:i]:
            raise SpecError(sub.f.item(x, i), f"'{key}' of {sub.what} must be {want}; item {i} repeats {v!r}")
    return tuple(str(v) for v in x)


def read_buffer_check(fields: Fields, named: CheckSpec) -> BufferCheck:
    buf = fields.sub("buffer", BUFFER_FIELDS + BUFFER_OPTIONAL)
    if named.value_type is None and not buf.has(UNWRITTEN):    # a buffer nothing writes has no writer's copy
        raise SpecError(fields.loc, f"{fields.what} needs 'copy' (the writer's copy atom) and 'value_type' (the "
                                    "buffer's element type)")
    buf.require(BUFFER_FIELDS)
    size = _positive_int(buf, "bytes", MAX_BUFFER_BYTES)
    align = _positive_int(buf, "align", MAX_BUFFER_BYTES)
    if align & (align - 1):
        raise SpecError(buf.at("align"), f"'align' of {buf.what} must be a power of two, not {align}")
    bits = named.value_type.bits if named.value_type is not None else None
    if buf.has(WRITER) == buf.has(UNWRITTEN):
        raise SpecError(buf.loc, f"{buf.what} gives '{WRITER}' (the view its writer stores through) or "
                                 f"'{UNWRITTEN}' (why nothing writes the reader's bytes), one of them")
    reader = _view(buf, READER, bits, size)
    if not buf.has(WRITER):
        unwritten = buf.opt_str(UNWRITTEN)
        if not unwritten:
            raise SpecError(buf.at(UNWRITTEN), f"'{UNWRITTEN}' of {buf.what} must be a text saying why nothing writes "
                                               "the reader's bytes")
        stages = _positive_int(buf, "stages", MAX_STAGES) if buf.has("stages") else None
        if stages is not None:
            reader = _at_stages(buf, reader, stages)
        return BufferCheck(**common_fields(named), bytes=size, align=align, writer=None, reader=reader, stages=stages,
                           unwritten=unwritten)
    writer = _view(buf, WRITER, bits, size)
    if mode_sizes(writer.inner) != mode_sizes(reader.inner):
        raise SpecError(buf.at(READER), f"the reader's view of {fields.what} has modes of sizes "
                                        f"{mode_sizes(reader.inner)}, the writer's {mode_sizes(writer.inner)}: both "
                                        "must name the same coordinates")
    stages = None
    if buf.has("stages"):
        stages = _positive_int(buf, "stages", MAX_STAGES)
        writer, reader = (_at_stages(buf, v, stages) for v in (writer, reader))
    return BufferCheck(**common_fields(named), bytes=size, align=align, writer=writer, reader=reader, stages=stages)


def _at_stages(buf: Fields, view: BufferView, stages: int) -> BufferView:
    """The view read at stage indices 0..stages-1 of its last mode, as CuTe reads a mode at an index past its extent:
    the mode's last leaf takes the quotient (its extent grown, its stride kept); the leaves before it must divide
    `stages`."""
    inner = view.inner
    if inner.rank() < 2:
        raise SpecError(buf.at("stages"), f"'stages' of {buf.what}: the {view.by} view has no stage mode (its last "
                                          "of two or more)")
    last = inner.mode(inner.rank() - 1)
    shape, stride = flatten_to_tuple(last.shape), flatten_to_tuple(last.stride)
    before = product(shape[:-1]) if all(isinstance(x, int) for x in shape) else 0
    if not before or stages % before:
        raise SpecError(buf.at("stages"), f"'stages' of {buf.what}: {stages} stages do not fill the {view.by} "
                                          f"view's stage mode {last} (its leaves before the last must divide them)")
    grown = Layout(shape[:-1] + (stages // before,), stride)
    modes = [inner.mode(i) for i in range(inner.rank() - 1)] + [grown]
    layout = make_layout(*modes)
    composed = view.layout
    new: Layout | ComposedLayout = (ComposedLayout(composed.a, composed.offset, layout)
                                    if isinstance(composed, ComposedLayout) else layout)
    return replace(view, layout=new)
