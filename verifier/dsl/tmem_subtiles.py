"""An epilogue's loop over the subtiles of a tensor-memory accumulator stage, read for theorem 42 (the subtile-order
kind): CUTLASS's Blackwell epilogue

    for i in cutlass.range(subtiles):                     # scf.for, not unrolled
        cute.copy(t2r, tTR_tAcc[(None, None, None, i)], tTR_rAcc)          # tcgen05.ld of subtile i
        cute.copy(r2s, tRS_rC, tRS_sC[(None, None, None, i % stages)])     # registers -> a stage of the shared subtile
        fence, barrier
        cute.copy(tma_store, bSG_sC[(None, i % stages)], bSG_gC[(None, i)])  # the stage -> subtile i's place

For each pass: the accumulator subtile the load reads ((m, n) of the stage: the sliced mode's offset in tensor memory,
through the accumulator's own layout), the stage the copy writes and the stage the store reads (the stage modes'
indices, where both modes give an index the same place), and where the store puts its box ((m, n) of the tile the
stores' coordinates were divided from: the sliced mode's steps, each along a mode of the global tensor).  An index is
a constant, or the loop's counter plus constants modulo a count; anything else is a reason the loop is not read.
"""
from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass

from ..algebra.layout import Layout
from ..algebra.inttuple import AlgebraError, flatten_to_tuple
from .cute_types import COORD_SPACE, TypeTextError, layout_of, memref_of, space_of
from .flow import FOR, SLICE, KernelFlow, enclosing_loop
from .stage_index import ADD, YIELD, StageIndexes
from .mlir_text import Op, Value

MAX_SUBTILES = 256            # the passes a loop may run to be read (the subtile-order check's own bound)
SEARCH_DEPTH = 16             # operations followed back from a copy's operand to the slice it takes
TMA_STORE = "tma_store"       # the word of a TMA store atom's type
COORD, TMEM, SMEM = COORD_SPACE, "tmem", "smem"     # what a sliced tensor holds (`space_of`)
_LOOP_COUNTER = re.compile(r"^\s*(%[\w$.-]+)\s*=")
_COORD = re.compile(r'!cute\.coord<"(.*)">')
_CT_LAYOUT = re.compile(r'!cute\.coord_tensor<"[^"]*",\s*"([^"]*)">')
_LEAF = re.compile(r"(\d+)(?:@(\d+))?")


@dataclass(frozen=True)
class SubtileOrderRead:
    tile: tuple[int, int]                                   # the accumulator stage (M, N)
    subtile: tuple[int, int]
    stages: int
    steps: tuple[tuple[tuple[int, int], int, int, tuple[int, int]], ...]   # (load, write, read, place) a pass
    where: str                                              # the loop


class _NotRead(Exception):
    pass


def _sliced(flow: KernelFlow, v: Value, kind: str) -> tuple[Value, Value | int, Op]:
    """The `cute.slice` of a tensor in `kind` (a memory space, or COORD) that `v` is made from, nearest first: its
    tensor and the index of its last mode (the one `?` of its coordinate, or a constant)."""
    seen: set[Value] = set()
    todo = deque([(v, 0)])
    while todo:
        cur, depth = todo.popleft()
        op = flow.defining.get(cur)
        if op is None or depth > SEARCH_DEPTH or cur in seen:
            continue
        seen.add(cur)
        if op.name == SLICE and len(op.operands) == 2 and space_of(flow.type_of(op.operands[0])) == kind:
            coord = flow.defining.get(op.operands[1])
            m = _COORD.fullmatch((flow.type_of(op.operands[1]) or "").strip())
            if coord is None or m is None:
                raise _NotRead(f"{op.where}: the slice's coordinate is not read")
            last = m.group(1).rstrip(")").rsplit(",", 1)[-1].strip()
            if last == "?" and m.group(1).count("?") == 1 and len(coord.operands) == 1:
                return op.operands[0], coord.operands[0], op
            if last.isdigit() and "?" not in m.group(1):
                return op.operands[0], int(last), op
            raise _NotRead(f"{op.where}: the slice's coordinate {m.group(1)} takes no one subtile or stage")
        todo.extend((o, depth + 1) for o in op.operands)
    raise _NotRead(f"{v} is no slice of a {kind} tensor this reader follows")


def _last_mode(flow: KernelFlow, v: Value) -> Layout:
    try:
        layout = memref_of(flow.type_of(v) or "").layout()
    except TypeTextError as e:
        raise _NotRead(f"{v}: its layout is not read ({e})") from None
    inner = getattr(layout, "b", layout)
    if not isinstance(inner, Layout) or not inner.is_static():
        raise _NotRead(f"{v}: its layout is not static")
    return inner.mode(inner.rank() - 1)


@dataclass(frozen=True)
class _Index:
    """A slice's index as the subtile loop runs it: `constant`, or (the counter + `offset`) mod `modulus` (None: no
    remainder taken), where a stage index may also add the counter to a value `before` the reader does not know (a
    persistent kernel's subtiles of the tiles before: `(before + i) % stages`; a count the loop carries from its
    start) -- read as 0: two stages of one such value are equal exactly when these are."""
    constant: int | None = None
    offset: int = 0
    modulus: int | None = None
    before: Value | None = None

    def at(self, value: int) -> int:
        """The index at the pass whose counter is `value`."""
        if self.constant is not None:
            return self.constant
        i = value + self.offset
        return i % self.modulus if self.modulus else i


def _index(flow: KernelFlow, forms: StageIndexes, index: Value | int, counter: tuple[str, object],
           loop: Op | None = None) -> _Index:
    """`index` as the loop runs it (`loop`: a stage index, which may add the counter to a value before it)."""
    if isinstance(index, int):
        return _Index(constant=index)
    form = forms.form(index)
    base, before, counted = form.base, None, (form.base.name, form.base.where) == counter
    op = flow.defining.get(base)
    if loop is not None and form.modulus and not counted and op is not None and op.name == ADD and \
            len(op.operands) == 2:
        for mine, other in (op.operands, tuple(reversed(op.operands))):
            made = flow.defining.get(other)
            if (mine.name, mine.where) == counter and (made is None or not _inside(made, loop)):
                before, counted = other, True
                break
    if loop is not None and form.modulus and not counted and _steps_by_one(flow, forms, base, loop):
        before, counted = base, True                 # the pass's value: its start + the counter
    if not counted:
        raise _NotRead(f"{index}: an index that is not the subtile loop's counter plus constants modulo a count")
    return _Index(offset=form.offset, modulus=form.modulus, before=before)


def _steps_by_one(flow: KernelFlow, forms: StageIndexes, carried: Value, loop: Op) -> bool:
    """Whether `carried` is a value `loop` carries from pass to pass (iter_args) that each pass hands on plus one (a
    CUTLASS epilogue's stage counter): at pass i it is its start plus i."""
    if carried.where != loop.where or carried not in flow.module.bound:
        return False
    arguments = re.findall(r"(%[\w$.-]+)\s*=\s*%", loop.head[loop.head.find("iter_args"):]) \
        if "iter_args" in loop.head else []
    if carried.name not in arguments:
        return False
    yields = [op for op in flow.function.ops if op.name == YIELD and op.parent is loop]
    if len(yields) != 1 or len(yields[0].operands) != len(arguments):
        return False
    handed = forms.form(yields[0].operands[arguments.index(carried.name)])
    return handed.base == carried and handed.offset == 1 and handed.modulus is None


def _split_modes(text: str) -> list[str]:
    """The top-level modes of a layout's shape or stride text `(a,(b,c),d)`."""
    inner = text.strip()
    if not (inner.startswith("(") and inner.endswith(")")):
        return [inner]
    inner, depth, start, out = inner[1:-1], 0, 0, []
    for i, ch in enumerate(inner):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            out.append(inner[start:i])
            start = i + 1
    return out + [inner[start:]]


def _basis_modes(type_text: str) -> list[list[tuple[int, int, int]]]:
    """A coordinate tensor's top-level modes, each its leaves (extent, step, global mode along which it steps)."""
    m = _CT_LAYOUT.search(type_text)
    if m is None or ":" not in m.group(1):
        raise _NotRead(f"a coordinate tensor's layout is not read ({type_text[:80]})")
    shape, stride = m.group(1).split(":", 1)
    out = []
    for s, d in zip(_split_modes(shape), _split_modes(stride)):
        extents = [int(x) if x.isdigit() else None for x in re.findall(r"\?|\d+", re.sub(r"\{[^}]*\}", "", s))]
        steps = _LEAF.findall(d)
        if len(extents) != len(steps):
            raise _NotRead(f"a coordinate tensor's mode {s}:{d} is not read")
        out.append([(e if e is not None else 0, int(c), int(g) if g else -1) for e, (c, g) in zip(extents, steps)])
    return out


def _mn_bases(modes: list[list[tuple[int, int, int]]]) -> dict[int, int]:
    """Which global coordinate the tile's m and n step along: {coordinate: 0 for m, 1 for n}, from the stores'
    coordinate tensor's modes -- an (M, N) first mode of two unit steps (partition_C's ((M, N), ...)), or first two
    modes of one unit step each (a local tile's (M, N))."""
    kept = [[leaf for leaf in mode if leaf[0] != 1] for mode in modes]       # a unit extent steps nowhere
    first = kept[0] if kept else []
    pairs = first if len(first) == 2 else [m[0] for m in kept[:2] if len(m) == 1] if len(kept) >= 2 else []
    if len(pairs) != 2 or any(step != 1 or along < 0 for _, step, along in pairs) or pairs[0][2] == pairs[1][2]:
        raise _NotRead("the stores' coordinate tensor has no (M, N) mode of unit steps this reader reads")
    return {pairs[0][2]: 0, pairs[1][2]: 1}


def _box(mode: list[tuple[int, int, int]], tensor_modes: dict[int, int]) -> tuple[int, int]:
    """The (rows, columns) of the box a TMA store puts: its coordinate tensor's first mode, unit steps along m and n."""
    box = [1, 1]
    for extent, step, along in mode:
        if extent == 1:
            continue
        if step != 1 or along not in tensor_modes or extent == 0:
            raise _NotRead("the TMA store's box is not of unit steps along m and n")
        box[tensor_modes[along]] *= extent
    return box[0], box[1]


def _place(mode: list[tuple[int, int, int]], index: int, tensor_modes: dict[int, int]) -> tuple[int, int]:
    """(m, n) a coordinate tensor's mode `mode` moves by at `index` (colexicographic over its leaves)."""
    place = [0, 0]
    for extent, step, along in mode:
        if extent == 0:
            raise _NotRead("a subtile mode of run-time extent")
        digit, index = index % extent, index // extent
        if digit and step:
            if along not in tensor_modes:
                raise _NotRead(f"a subtile step along global coordinate {along}, which is neither m nor n of the tile")
            place[tensor_modes[along]] += digit * step
    return place[0], place[1]


def read_subtile_order(flow: KernelFlow, t2r: Value, r2s: Value,
                       accumulator: str | None) -> SubtileOrderRead | str | None:
    """The subtile loop of the TMEM load `t2r` whose registers the tiled copy `r2s` stores (`accumulator`: the
    accumulator's view in tensor memory, its stages the last mode; None: not read); None where the load is in no loop;
    else why it is not read."""
    loads = [c for c in flow.copies if len(c.operands) >= 3 and c.operands[0] == t2r]
    looped = [(c, loop) for c in loads if (loop := enclosing_loop(c)) is not None and loop.name == FOR]
    if not looped:
        return None
    if accumulator is None:
        return "the accumulator's view in tensor memory is not read"
    try:
        return _read(flow, looped[0][0], looped[0][1], r2s, accumulator)
    except (_NotRead, AlgebraError) as e:
        return str(e)


def _require_partition(flow: KernelFlow, v: Value, actor: Value, what: str) -> None:
    """`v` must re-view a partition made by the tiled copy `actor` (the slice taken of its own partition)."""
    p = flow.partition_of(v)
    if p is None or p.actor != actor:
        raise _NotRead(f"{what} {v} is not of a partition by its own tiled copy")


def _inside(op: Op, loop: Op) -> bool:
    cur = op.parent
    while cur is not None and cur is not loop:
        cur = cur.parent
    return cur is loop


def _read(flow: KernelFlow, load: Op, loop: Op, r2s: Value, accumulator: str) -> SubtileOrderRead:
    counter = _LOOP_COUNTER.match(loop.head)
    bounds = [flow.integer(v) for v in loop.operands[:3]]
    if counter is None or len(bounds) != 3 or any(b is None for b in bounds):
        raise _NotRead(f"{loop.where}: the subtile loop's bounds are not constants")
    lo, hi, step = (int(b) for b in bounds if b is not None)
    passes = list(range(lo, hi, step)) if step > 0 else []
    if not 0 < len(passes) <= MAX_SUBTILES:
        raise _NotRead(f"{loop.where}: a subtile loop of {len(passes)} passes")
    who = (counter.group(1), loop.where)
    acc = layout_of(accumulator)
    if not isinstance(acc, Layout):
        raise _NotRead("the accumulator's tensor-memory layout is not read")
    # (m, n) of a stage: the leaves of more than one element of every mode but the last (the stages, one or more); a
    # view of no stage mode has one such leaf left, and is not read
    leaves = [(int(e), int(d)) for k in range(acc.rank() - 1)
              for e, d in zip(flatten_to_tuple(acc.mode(k).shape), flatten_to_tuple(acc.mode(k).stride)) if e != 1]
    if len(leaves) != 2:
        raise _NotRead(f"the accumulator {acc} has no stage of two modes (M, N) this reader reads")
    (M, m_step), (N, n_step) = leaves
    at = {m * m_step + n * n_step: (m, n) for m in range(M) for n in range(N)}
    # the load: the subtile mode of the tensor-memory partition
    tmem, load_index, _ = _sliced(flow, load.operands[1], TMEM)
    _require_partition(flow, tmem, load.operands[0], "the TMEM load's subtile slice")
    tmem_mode = _last_mode(flow, tmem)
    # the copy into the shared subtile, and the TMA store, in the loop
    copies = [c for c in flow.copies if len(c.operands) >= 3 and _inside(c, loop)]
    # the copy of the registers into the shared subtile: the tiled copy's copies into shared memory (an alpha-beta
    # epilogue's loads of C into registers by the same tiled copy read it, and are not this copy)
    writes = [c for c in copies if c.operands[0] == r2s and space_of(flow.type_of(c.operands[2])) == SMEM]
    stores = [c for c in copies if TMA_STORE in (c.operand_types[0] or "")]
    if len(writes) != 1 or len(stores) != 1:
        raise _NotRead(f"{loop.where}: {len(writes)} copies of the registers into shared memory and {len(stores)} "
                       "TMA stores in the subtile loop (one of each is read)")
    shared, write_index, _ = _sliced(flow, writes[0].operands[2], SMEM)
    stored, read_index, _ = _sliced(flow, stores[0].operands[1], SMEM)
    places, place_index, _ = _sliced(flow, stores[0].operands[2], COORD)
    _require_partition(flow, shared, r2s, "the copy's stage slice")
    if flow.defining.get(flow.root(stored)) is not flow.defining.get(flow.root(places)):
        raise _NotRead(f"{stores[0].where}: the TMA store's stage and its place are not of one tma_partition")
    write_mode, read_mode = _last_mode(flow, shared), _last_mode(flow, stored)
    indices = int(write_mode.size())
    if int(read_mode.size()) != indices or any(int(write_mode(k)) != int(read_mode(k)) for k in range(indices)):
        raise _NotRead(f"the copy's stage mode {write_mode} and the TMA store's {read_mode} are not one")
    # a stage is a place of the stage mode: indices the mode puts at one place are one stage
    places_of = list(dict.fromkeys(int(write_mode(k)) for k in range(indices)))
    stage_of = [places_of.index(int(write_mode(k))) for k in range(indices)]
    stages = len(places_of)
    partition = flow.defining.get(flow.root(places))
    source = partition.operands[4] if partition is not None and len(partition.operands) > 4 else None
    if source is None:
        raise _NotRead(f"{stores[0].where}: the TMA store's coordinates are not a tma_partition's")
    tensor_modes = _mn_bases(_basis_modes(flow.type_of(flow.root(source)) or ""))
    place_modes = _basis_modes(flow.type_of(places) or "")
    place_mode = place_modes[-1]
    subtile = _box(place_modes[0], tensor_modes)       # what each store puts: its box, (rows, columns)
    forms = StageIndexes(flow)
    loaded, placed = _index(flow, forms, load_index, who), _index(flow, forms, place_index, who)
    written, read_from = _index(flow, forms, write_index, who, loop), _index(flow, forms, read_index, who, loop)
    if written.before != read_from.before:
        raise _NotRead("the copy's and the store's stage indices add the counter to different values")
    steps = []
    for value in passes:
        offset = int(tmem_mode(loaded.at(value)))
        if offset not in at:
            raise _NotRead(f"the subtile loaded at tensor-memory offset {offset} is no (m, n) of the stage")
        write, read = written.at(value), read_from.at(value)
        if not (0 <= write < indices and 0 <= read < indices):
            raise _NotRead("a stage index past the shared subtile's stages")
        steps.append((at[offset], stage_of[write], stage_of[read], _place(place_mode, placed.at(value), tensor_modes)))
    return SubtileOrderRead((M, N), subtile, stages, tuple(steps), str(loop.where))


__all__ = ["SubtileOrderRead", "read_subtile_order"]
