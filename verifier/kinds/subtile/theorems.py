"""Theorem 39: an accumulator stored subtile by subtile reaches every place of the tile it was computed for.

The tiled MMA's thread t holds the accumulator element (m, n) of the CTA's tile in the register its C fragment
(`accumulator`: (value, m, n) -> register) gives the fragment coordinate whose partition_C place is (m, n).  For each
subtile the kernel hands value k of the register-to-shared tiled copy's source the register `registers[k]`; the
copy's thread t puts value k at the subtile's place partition_D(subtile)(t, k) = (x, y), and the store puts the shared
tile's (x, y) at (m0 + x, n0 + y) of the CTA's tile (`at`).  The theorem: for every subtile, thread and value,
(m, n) = (m0 + x, n0 + y); and every register of the fragment is stored by exactly one subtile's value (none stored
twice, none left behind).

Where the stores state the stages their copies write and they read (`write`, `read`), a store puts what the last copy
into the stage it reads wrote, up to and including its own subtile's copy (theorem 42's rule): that copy's registers
are the ones it places at `at`, and each register counts as stored once per store that puts it.  A store of a stage
no copy of the tile wrote before it puts what an earlier tile left: refuted.

What it takes from the rest of the kernel's checks: that thread t of the copy is thread t of the MMA (the
thread-slice check proves the copy's slices), and that the store puts the shared tile's (x, y) at `at` + (x, y) (the
buffer check proves the shared tile's writer and the TMA store agree on its bytes; the TMA store's box over the
subtile is its atom's).  Decided by exhaustive enumeration of every subtile, thread and value."""
from __future__ import annotations

from typing import Any, cast

from ...algebra.inttuple import flatten_to_tuple
from ...algebra.layout import Layout
from ...cute.copy import TiledCopy
from ...cute.mma import TiledMMA
from ...cute.tensor import Tensor
from ...specfile.model import CopyAtomSpec, MMAAtomSpec
from ...theorems.claims import Fact, Plan, Suspect, Unsupported
from ...theorems.suspects import Suspects
from ..cute_objects import copy_atom, copy_model_for, mma_atom, refused_as, thread_layout
from .config import SubtileCheck, SubtileStore

ENUMERATION = "exhaustive enumeration on integers"
C = "C"


def _place(index: int, rows: int) -> tuple[int, int]:
    """(m, n) of an index into a column-major (rows, cols) tile."""
    return index % rows, index // rows


def subtile_stores(check: SubtileCheck, mma_spec: MMAAtomSpec, copy_spec: CopyAtomSpec, suspects: Suspects) -> Plan:
    """Theorem 39 (see the module's docstring)."""
    mma = refused_as("make_tiled_mma(atom, atom_layout, permutation)", "atom_layout")(TiledMMA)(
        mma_atom(mma_spec), thread_layout(check.atom_layout), check.permutation)
    bits = check.value_type.bits if check.value_type else int(mma_spec.types["c"].bits)
    typed = refused_as(f"Copy_Atom<{copy_spec.name}, {bits}-bit>", "value_type")(
        copy_atom(copy_spec).with_value_bits)(bits)
    given = check.tiled_copy
    tiled = refused_as("make_tiled_copy_tv of the given layout_tv and tiler", "tiled_copy")(TiledCopy)(
        typed, given.layout_tv, given.tiler)
    acc = check.accumulator
    fragment = suspects.field("subtiles.accumulator", "the accumulator fragment (value, m, n) -> register")
    copy_blame = suspects.field("tiled_copy", "the register-to-shared tiled copy")
    registers_blame = suspects.field("subtiles.stores", "the accumulator registers each subtile's copy is handed, "
                                                        "and where its store puts it")
    threads = mma.num_threads()
    rows, cols = int(acc.mode(1).size()) * int(mma.tile_size(0)), int(acc.mode(2).size()) * int(mma.tile_size(1))
    tile = Tensor(0, Layout((rows, cols), (1, rows)))           # (m, n) -> m + rows * n
    parts = mma.partitions(tile, C, range(threads))             # thread t: fragment coordinate -> (m, n) index
    n_acc = int(acc.size())
    shape_fact = Fact("the accumulator is the tiled MMA's C fragment of its tile",
                      flatten_to_tuple(parts[0].layout.shape) == flatten_to_tuple(acc.shape),
                      f"accumulator {acc}", f"partition_C of the {rows}x{cols} tile: shape {parts[0].layout.shape}",
                      fragment)
    register_of = [int(acc(i)) for i in range(n_acc)]
    one_to_one = Fact("the accumulator fragment puts its values in distinct registers 0..size-1",
                      sorted(register_of) == list(range(n_acc)), f"accumulator {acc}",
                      f"a one-to-one layout onto registers 0..{n_acc - 1}", fragment)
    same_threads = Fact("the copy runs on the MMA's threads", tiled.num_threads == threads,
                        f"{tiled.num_threads} copy threads", f"{threads} MMA threads", copy_blame)
    facts = [shape_fact, one_to_one, same_threads]
    if not all(f.holds for f in facts):
        return [f for f in facts if not f.holds]
    model = copy_model_for(copy_spec, "store", bits)
    if model is None:
        return Unsupported(f"no hardware model for '{copy_spec.instruction}' (copy atom {copy_spec.name})")
    if model.register_side != "src":
        return Unsupported(f"'{copy_spec.instruction}' does not store registers to memory")
    coordinate_of = {r: i for i, r in enumerate(register_of)}   # register -> fragment coordinate (colexicographic)
    sub_rows, sub_cols = check.shape
    subtile = Tensor(0, Layout((sub_rows, sub_cols), (1, sub_rows)))
    dsts = [tiled.partition_D(subtile, t) for t in range(threads)]
    atom_threads, v_dst, v_src = typed.num_thr, typed.num_val_dst, typed.num_val_src
    n_dst = dsts[0].size()
    n_src = n_dst // v_dst * v_src
    sizes = Fact("every subtile hands the copy as many values as its partition of the subtile takes",
                 all(len(s.registers) == n_src for s in check.stores),
                 ", ".join(str(len(s.registers)) for s in check.stores) + " registers",
                 f"{n_src} values a thread ({n_dst // v_dst} copies of {v_src}: partition_D of the "
                 f"{sub_rows}x{sub_cols} subtile)", registers_blame)
    sources = _sources(check)
    unwritten = [i for i, j in enumerate(sources) if j is None]
    written = Fact("every store reads a stage a copy of this tile wrote before it", not unwritten,
                   f"{len(sources)} stores, each of a stage written before it" if not unwritten else
                   f"subtile {unwritten[0]}'s store reads stage {_read_stage(check.stores[unwritten[0]])}, which no "
                   f"copy of the {len(sources)} subtiles wrote before it (it holds what an earlier tile left)",
                   "the stage of a copy up to the store's own",
                   Suspect(f"subtile {unwritten[0]}'s stages", check.stores[unwritten[0]].loc) if unwritten
                   else registers_blame,
                   point={"subtile": unwritten[0]} if unwritten else None,
                   failing=len(unwritten) if unwritten else None, domain_size=len(sources))
    if unwritten:
        return [written]
    placed = [check.stores[j].registers for j in sources if j is not None]    # the registers each store puts
    stored = [r for registers in placed for r in registers]
    counts: dict[int, int] = {}
    for r in stored:
        counts[r] = counts.get(r, 0) + 1
    twice = sorted(r for r, c in counts.items() if c > 1)
    outside = sorted(r for r in counts if r not in coordinate_of)
    missing = [r for r in range(n_acc) if r not in counts]
    problems = ([f"register {twice[0]} stored {counts[twice[0]]} times"] if twice else []) + \
        ([f"register {outside[0]} is no accumulator register"] if outside else []) + \
        ([f"register {missing[0]} never stored"] if missing else [])
    moved_from = next(((s, j) for s, j in enumerate(sources) if j != s), None)
    if problems and moved_from is not None:
        problems.append(f"subtile {moved_from[0]}'s store reads the stage subtile {moved_from[1]}'s copy wrote")
    once = Fact("every accumulator register is stored by exactly one subtile's store", not problems,
                "; ".join(problems) if problems else f"{len(stored)} values over {len(check.stores)} subtiles",
                f"registers 0..{n_acc - 1}, each once", registers_blame)
    if not sizes.holds:
        return [sizes, once]
    facts_before = [written] if check.stores[0].stages is not None else []
    # the instruction's routing, the same for every subtile: destination (thread, value) -> its place (x, y) of the
    # subtile and the source (thread, value) that writes it
    routes: list[tuple[int, int, int, int, tuple[int, int]]] = []
    reached: dict[tuple[int, int], int] = {}        # (source thread, source value) -> destinations it reaches
    for t in range(threads):
        group, lane = divmod(t, atom_threads)
        if lane >= model.dst_lanes:
            continue                        # no data reaches this lane's side of the instruction
        for v in range(n_dst):
            inst, within = divmod(v, v_dst)
            # the models' arithmetic is Python's operators: integers in, integers out
            s_lane, s_bit = model.source_of(cast(Any, lane), cast(Any, within * bits))
            src_thread = group * atom_threads + int(cast(Any, s_lane))
            k = int(cast(Any, s_bit)) // bits + v_src * inst
            reached[(src_thread, k)] = reached.get((src_thread, k), 0) + 1
            routes.append((t, v, src_thread, k, _place(int(dsts[t](v)), sub_rows)))
    unreached = [(src, k) for src in range(threads) for k in range(n_src) if reached.get((src, k), 0) != 1]
    elements: dict[tuple[int, int], tuple[int, int] | None] = {}   # (thread, register) -> the accumulator's (m, n)

    def element(thread: int, register: int) -> tuple[int, int] | None:
        if (thread, register) not in elements:
            c = coordinate_of.get(register)
            elements[(thread, register)] = None if c is None else _place(int(parts[thread](c)), rows)
        return elements[(thread, register)]

    failing, witness = 0, None
    for s, store in enumerate(check.stores):
        m0, n0 = store.at
        for t, v, src_thread, k, (x, y) in routes:
            r = placed[s][k]
            got = element(src_thread, r)
            if got != (m0 + x, n0 + y):
                failing += 1
                if witness is None:
                    witness = (s, t, v, src_thread, k, r, got, (m0 + x, n0 + y), (x, y))
    first_unreached = unreached[0] if unreached else None
    domain = len(check.stores) * threads * n_dst
    moved = Fact("the copy moves every value it is handed to shared memory exactly once", not unreached,
                 "every (thread, value), each once" if first_unreached is None else
                 f"thread {first_unreached[0]}'s value {first_unreached[1]} reaches shared memory "
                 f"{'more than once' if reached.get(first_unreached, 0) else 'nowhere'} ({len(unreached)} such)",
                 f"{threads * n_src} values a subtile, each once ({model.instruction})", copy_blame,
                 note=ENUMERATION)
    title = ("every accumulator element reaches its own place of the tile: what the copy writes at each place of a "
             "subtile is the element the store puts there")
    if witness is None:
        place = Fact(title, True, f"{domain} (subtile, thread, value) points", "each at its own (m, n)",
                     registers_blame, note=ENUMERATION, domain_size=domain)
    else:
        s, t, v, src_thread, k, r, got, want, xy = witness
        held = f"accumulator {got}" if got is not None else "no accumulator element"
        source = sources[s]
        whose = "" if source == s else \
            f" (its store reads stage {_read_stage(check.stores[s])}, last written by subtile {source}'s copy)"
        place = Fact(title, False,
                     f"subtile {s} (at {check.stores[s].at}){whose}: thread {t}'s value {v} writes the subtile's {xy} "
                     f"with thread {src_thread}'s value {k} ({model.instruction}), register {r}: {held}",
                     f"accumulator {want}, the place the store gives the subtile's {xy}",
                     Suspect(f"subtile {s}'s registers and place", check.stores[s].loc),
                     note=ENUMERATION, point={"subtile": s, "thread": t, "value": v}, failing=failing,
                     domain_size=domain)
    return [*facts_before, sizes, once, moved, place]


def _read_stage(store: SubtileStore) -> int:
    return store.stages[1] if store.stages is not None else 0


def _sources(check: SubtileCheck) -> list[int | None]:
    """For each store, the subtile whose copy wrote what it reads: the last copy up to its own into the stage it
    reads (its own where the stores state no stages); None where no copy before it wrote that stage."""
    if check.stores[0].stages is None:
        return list(range(len(check.stores)))
    out: list[int | None] = []
    for s, store in enumerate(check.stores):
        read = _read_stage(store)
        out.append(next((j for j in range(s, -1, -1)
                         if (w := check.stores[j].stages) is not None and w[0] == read), None))
    return out


__all__ = ["subtile_stores"]
