"""Theorem 35 `mixed.shuffled_a`: the value-shuffled narrow A of an SM90 mixed-input GEMM, from the reordered global
tensor to the RS wgmma's A fragment.

For every CTA tile, k-tile (the stage it is loaded into), thread, fragment value, M block and k-block:
- TMA: the box make_tma_copy_A_sm90<TmaElementA> derives is encodable, covers a stage exactly at 128-byte aligned
  destinations, distinct (m, k, stage) have distinct shared elements, and every element (m, k) of every tile comes
  from the global element the reordered layout gives (m0 + m, k0 + k) to SmemLayoutA(m, k, stage) -- box word u at the
  stage's destination + u bytes a word (hardware/tma.py), read from the tile's first word + sum u_d stride_d, and the
  element's place inside its TMA element (a nibble of a byte for 4-bit A) the same in both;
- registers: copy(tiled_copy, tCsA(_,_,kb,s), retile_D(load)(_,_,kb)) puts logical element l of the thread's
  partition_A into the register retile_D gives l; dequantize_A_kblock(kb) converts chunk by chunk, the converter
  LayoutAwareConvert picks for each chunk writing each destination register from the source register its code
  reads (cute/convert.py); the register of fragment value (i, m block, k-block) the wgmma reads as A element i of
  thread t (PTX ISA, wgmma's A fragment from registers, at the origin partition_A gives the warpgroup's slice) is,
  after the k-block's conversion, made from the register the copy filled with SmemLayoutA(m, k, stage) of that very
  (m, k); and no conversion of a k-block writes a register outside that k-block's fragment (another k-block's
  registers may be read by a wgmma in flight; past the fragment is outside the array).

Each part is decided by exhaustive enumeration of its whole domain on integers (the tables of setup.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...cute.convert import register_conversion
from ...hardware import tma as TMA
from ...hardware.shared_memory import SM90_BLOCK_SHARED_BYTES
from ...numeric import load_numpy
from ...symbolic.decide import INJECTIVE_BITMAP_SPAN
from ...theorems.claims import Fact, Item, Plan, Refusal, Unsupported
from ...theorems.suspects import Suspects
from .setup import BYTE, HardwareA, ShuffleSetup

if TYPE_CHECKING:
    from numpy import ndarray

ENUMERATION = "exhaustive enumeration on integers"


Failure = tuple[dict[str, int], str]     # a failing point, named, and what it holds


@dataclass
class Failures:
    """The failing points of a fact decided over a whole domain, in the domain's order: the first one and their
    number (the rest are counted, not named)."""
    first: Failure | None = None
    count: int = 0


def _point_fact(title: str, failures: Failures, total: int, expected: str, suspect: object, note: str) -> Fact:
    """A fact decided over a whole domain: holds when nothing failed; else the first failing point and the count."""
    if failures.first is None:
        return Fact(title, True, f"all {total} points", expected, suspect, note=f"{note}; {ENUMERATION}",  # type: ignore[arg-type]
                    domain_size=total)
    point, actual = failures.first
    return Fact(title, False, actual, expected, suspect, note=f"{note}; {ENUMERATION}", point=point,  # type: ignore[arg-type]
                failing=failures.count, domain_size=total)


# what a refusal of the mainloop's pipeline blames (the tile's K is SmemLayoutA's second mode here)
MAINLOOP_FIELD_LABELS = {"smem": "the shared A's stages (SmemLayoutA's third mode: the mainloop's Stages)",
                         "mma": "the MMA atom (the mainloop reads A from registers)",
                         "tile": "the shared A's K (SmemLayoutA's second mode over the tiled MMA's K: the k-blocks)"}


def shuffled_a(setup: ShuffleSetup, suspects: Suspects) -> Plan:
    check, atom = setup.check, setup.atom
    instruction = suspects.mma_instruction()
    side = setup.side
    if setup.mainloop is not None:
        rule, given, field = setup.mainloop
        return Refusal(rule, f"the mixed-input mainloop (sm90_mma_tma_gmma_rs_warpspecialized_mixed_input.hpp): "
                             f"{given}", suspects.field(field if field != "tile" else "smem",
                                                        MAINLOOP_FIELD_LABELS[field]))
    items: list[Item] = [Fact("the atom is a wgmma RS atom (A from registers)", side.hardware_a is not None,
                              side.model_problem or str(atom.instruction), "wgmma.mma_async with A from registers",
                              instruction)]
    assert check.value_type is not None
    narrow, wide = check.value_type.name, side.a_type.name if side.a_type is not None else "?"
    value_type = suspects.field("value_type", f"the narrow type {narrow}")
    where = register_conversion(narrow, wide)
    items.append(Fact(f"CUTLASS's mixed-input mainloop converts {narrow} to the MMA's {wide} in registers",
                      where is not None, f"{narrow} -> {wide}", "one of the modelled mixed-input conversions "
                      "(cute/convert.py)", value_type))
    if setup.tile_problem is not None:
        return Unsupported(setup.tile_problem)
    if not all(f.holds for f in items if isinstance(f, Fact)):
        return items
    if setup.tma_refusal is not None:      # make_tma_copy_A_sm90 of the stage does not compile
        return Refusal(setup.tma_refusal.rule, setup.tma_refusal.detail,
                       suspects.field("smem", "the shared A layout against the global one (make_tma_copy's box)"))
    items += _tma(setup, suspects)
    if not all(f.holds for f in items if isinstance(f, Fact)):
        return items
    if setup.cute_refusal is not None:
        return Refusal(setup.cute_refusal, "make_tiled_copy_A(Copy_Atom<AutoVectorizingCopy, Narrow>, tiled_mma) and "
                                           "its partitions of A", suspects.field("copy", check.copy))
    if setup.dequantize_refusal is not None:
        rule, detail = setup.dequantize_refusal
        return Refusal(rule, detail, suspects.field("smem", "the shared A layout (SmemLayoutA: the register buffer "
                                                            "the copy fills is laid out like its partition)"))
    if setup.reads is None:
        return Unsupported(f"the copy {check.copy} has no copy atom the spec defines")
    items += _registers(setup, suspects)
    return items


def _tma(setup: ShuffleSetup, suspects: Suspects) -> list[Item]:
    check = setup.check
    smem = suspects.field("smem", "the shared A (SmemLayoutA, its stages)")
    gmem = suspects.field("gmem", "the reordered global A (tile_to_shape of compute_memory_reordering_atom)")
    items: list[Item] = []
    bm, bk, stages = setup.blk_m, setup.blk_k, setup.stages
    layout = check.smem
    positions = setup.shared
    clash = Failures()
    if not _distinct(positions):                         # a repeat: the first named, in the buffer's order
        seen: dict[int, int] = {}
        for x, p in enumerate(positions.tolist()):
            if p not in seen:
                seen[p] = x
                continue
            y = seen[p]
            if clash.first is None:
                clash.first = ({"element": y, "element2": x}, f"(m {y % bm}, k {(y // bm) % bk}, stage "
                               f"{y // (bm * bk)}) and (m {x % bm}, k {(x // bm) % bk}, stage {x // (bm * bk)}) "
                               f"both at element {p}")
            clash.count += 1
    items.append(_point_fact(f"distinct (m, k, stage) of the {bm}x{bk}x{stages} buffer have distinct shared "
                             "elements", clash, len(positions), "distinct elements", smem,
                             "element = m + BLK_M (k + BLK_K stage)"))
    footprint = -(-int(layout.cosize()) * setup.narrow_bits // BYTE)
    items.append(Fact("the A buffer fits shared memory", footprint <= SM90_BLOCK_SHARED_BYTES, f"{footprint} bytes",
                      f"at most {SM90_BLOCK_SHARED_BYTES} bytes", smem))
    items.append(Fact("the shared tile's elements map to the global tensor's as one TMA box", setup.tma is not None,
                      setup.tma_problem or "one box", "whole TMA elements of the global tensor's runs", gmem))
    tma, tensor_map = setup.tma, setup.tensor_map
    if tma is None or tensor_map is None or not all(f.holds for f in items if isinstance(f, Fact)):
        return items
    refusal = TMA.encode_refusal_nd(tensor_map)
    items.append(Fact("cuTensorMapEncodeTiled accepts the box", refusal is None, refusal or "accepted",
                      "no rule broken", gmem if "Stride" in (refusal or "") else smem,
                      note=f"box {tma.box} {tensor_map.dtype}, global dims {tma.global_dim}, strides "
                           f"{tma.global_strides[1:]} bytes"))
    stage_bits = bm * bk * setup.narrow_bits
    items.append(Fact("the box writes the stage's A and nothing else", tma.box_words * tma.word_bits == stage_bits,
                      f"a box of {tma.box_words * tma.word_bits // BYTE} bytes", f"the stage's {stage_bits // BYTE} "
                      "bytes", smem))
    stride_bits = setup.stage_stride * setup.narrow_bits
    align = suspects.field("smem_align", f"the A buffer's alignment ({check.smem_align} bytes)")
    items.append(Fact(f"every stage's destination is {TMA.SMEM_ALIGN}-byte aligned",
                      check.smem_align % TMA.SMEM_ALIGN == 0
                      and (stages == 1 or stride_bits % (TMA.SMEM_ALIGN * BYTE) == 0),
                      f"a buffer {check.smem_align}-byte aligned, stages {stride_bits // BYTE} bytes apart",
                      f"multiples of {TMA.SMEM_ALIGN}", align if check.smem_align % TMA.SMEM_ALIGN else smem))
    if not all(f.holds for f in items if isinstance(f, Fact)):
        return items
    items.append(_placement(setup, gmem))
    return items


def _distinct(values: ndarray[Any, Any]) -> bool:
    """Whether the integers are pairwise distinct: counted over their range when it spans at most
    INJECTIVE_BITMAP_SPAN times their number (the enumeration of injectivity claims draws the same line), else
    sorted."""
    import numpy as np
    if values.size < 2:
        return True
    low, high = int(values.min()), int(values.max())
    if values.dtype == np.int64 and high - low < INJECTIVE_BITMAP_SPAN * values.size:
        return int(np.bincount(values - low).max()) <= 1
    ordered = np.sort(values)
    return bool((ordered[1:] != ordered[:-1]).all())


def _placement(setup: ShuffleSetup, gmem: object) -> Fact:
    """Every element (m, k) of every tile and stage: the global element TMA reads for it and the shared byte it
    lands at, against the reordered layout and SmemLayoutA."""
    check, tma, tensor_map = setup.check, setup.tma, setup.tensor_map
    assert tma is not None and tensor_map is not None
    bm, bk, n = setup.blk_m, setup.blk_k, tma.elements_per_word
    word_bytes = tma.word_bits // BYTE
    strides = [g // word_bytes for g in tma.global_strides]           # TMA elements
    g = check.gmem
    stage_bytes = setup.stage_stride * setup.narrow_bits // BYTE
    failures = Failures()
    total = 0
    load_numpy()
    import numpy as np
    shared = setup.shared                                # (m, k[, stage]) colexicographic -> element
    gm = int(g.mode(0).size())
    glob = g.values_array()                              # (m, k) colexicographic -> global element
    words = np.arange(tma.box_words, dtype=np.int64)
    index: list[Any] = []                                # each box word's traversal index, dimension by dimension
    run = 1
    for d, b in enumerate(tma.box):
        index.append((words // run) % b if d < tma.rank - 1 else words // run)
        run *= b
    # where the hardware puts each box word: every stage (a tensor map without a swizzle moves a box's bytes with
    # its destination, so stage 0's words say it for every stage; a swizzled one is walked stage by stage); the
    # model's own arithmetic, on every word at once
    walked = range(setup.stages) if tensor_map.swizzle is not TMA.TmaSwizzle.NONE else range(1)
    for s in walked:
        lands = TMA.smem_address_nd(tensor_map, s * stage_bytes, tuple(index), 0)
        want_at = s * stage_bytes + words * word_bytes
        total += tma.box_words
        wrong = np.nonzero(lands != want_at)[0]
        if wrong.size and failures.first is None:
            word = int(wrong[0])
            failures.first = ({"stage": s, "word": word},
                              f"box word {word} of stage {s} lands at byte {int(lands[word])}, not "
                              f"{s * stage_bytes + word * word_bytes}")
        failures.count += int(wrong.size)
    offsets = sum((i * d for i, d in zip(index, strides)), np.zeros_like(words))    # box word -> global TMA element
    shared_at = np.asarray(shared[:bm * bk], dtype=np.int64).reshape(bk, bm)          # [k, m] -> element
    glob_at = np.asarray(glob, dtype=np.int64)
    word_of, within = shared_at // n, shared_at % n
    inside = word_of < len(offsets)
    m_index, k_index = np.arange(bm), np.arange(bk)
    for mt in range(setup.tiles[0]):
        for kt in range(setup.tiles[1]):
            first = int(glob[mt * bm + gm * kt * bk])
            read = first // n + np.where(inside, offsets[np.minimum(word_of, len(offsets) - 1)], -1)
            want = glob_at[mt * bm + m_index[None, :] + gm * (kt * bk + k_index[:, None])]
            total += bm * bk
            bad = (read != want // n) | (within != want % n) | (first % n != 0)
            failing = int(np.count_nonzero(bad))
            if failing and failures.first is None:
                k, m = (int(i) for i in np.unravel_index(int(np.argmax(bad)), bad.shape))   # the first, k-major
                local, w, got = int(shared_at[k, m]), int(want[k, m]), int(read[k, m])
                failures.first = ({"tile_m": mt, "tile_k": kt, "m": m, "k": k},
                                  f"shared element {local} (box word {local // n}, position {local % n}) is read from "
                                  f"global word {got}, position {local % n}; the global element is {w} (word {w // n}, "
                                  f"position {w % n})")
            failures.count += failing
    return _point_fact("TMA brings every element (m, k) of every tile and stage from the global element the "
                       "reordered layout gives it to the shared element SmemLayoutA gives it", failures, total,
                       "the reordered layout's element", gmem,
                       f"box {tma.box} of {tma.word_bits}-bit TMA elements ({n} narrow elements a TMA element) at "
                       f"each stage's first byte; every one of the {setup.tiles[0]} x {setup.tiles[1]} tiles")


def _registers(setup: ShuffleSetup, suspects: Suspects) -> list[Item]:
    check = setup.check
    assert setup.reads is not None and setup.coords is not None and setup.load is not None
    assert setup.view is not None and setup.fragment is not None and setup.side.hardware_a is not None
    copy = suspects.field("copy", f"the shared -> register copy {check.copy}")
    smem = suspects.field("smem", "the shared A (SmemLayoutA): the order the registers follow")
    reads, coords, view, fragment = setup.reads, setup.coords, setup.view, setup.fragment
    values, m_blocks, k_blocks = (int(fragment.mode(i).size()) for i in range(3))
    per_kb = values * m_blocks
    items: list[Item] = []
    # the registers each k-block's conversion writes, in program order: the last writer of each register
    last: dict[tuple[int, int], tuple[int, int | None, str]] = {}     # (k_block, register) -> chunk, source, name
    outside = Failures()
    frag_table = fragment.values()
    kb_registers = [set(frag_table[per_kb * kb:per_kb * (kb + 1)]) for kb in range(k_blocks)]
    writes = 0
    for c, conv in zip(setup.chunks, setup.converters):
        for d, q in conv.writes:
            writes += 1
            reg = c.dst + d
            last[(c.k_block, reg)] = (c.index, None if q is None else c.src + q, conv.name)
            if reg in kb_registers[c.k_block]:
                continue
            if outside.first is None:
                outside.first = ({"k_block": c.k_block, "chunk": c.index, "position": d},
                                 f"{conv.name} of chunk {c.index} of k-block {c.k_block} writes fragment register "
                                 f"{reg}, " + (f"k-block {next(i for i, rs in enumerate(kb_registers) if reg in rs)}'s"
                                               if any(reg in rs for rs in kb_registers) else
                                               f"past the fragment's {int(fragment.cosize())} registers"))
            outside.count += 1
    converters = sorted({conv.name for conv in setup.converters})
    items.append(_point_fact("no conversion of a k-block writes a register outside that k-block's A fragment",
                             outside, writes, "registers of its own k-block", suspects.field(
                                 "value_type", f"the converter of {check.value_type.name if check.value_type else ''}"
                                 f" ({'; '.join(converters)})"),
                             "dequantize_A_kblock: LayoutAwareConvert chunk by chunk; another k-block's registers may "
                             "be read by a wgmma in flight"))
    # copy: load register -> logical element of the k-block slice (retile_D's inverse)
    view_values, cv = view.values(), int(view.mode(0).size()) * int(view.mode(1).size())
    copied = [{view_values[l + cv * kb]: l for l in range(per_kb)} for kb in range(k_blocks)]
    hw = setup.side.hardware_a
    assert len(hw[0]) == values      # the side's table covers the atom's values: the fragment's
    failures, total = _register_failures(setup, last, copied, hw, reads.values(), coords.values(), frag_table)
    items.append(_point_fact(REGISTERS_TITLE, failures, total, REGISTERS_EXPECTED,
                             copy if failures.first is not None and "not written" not in failures.first[1] else smem,
                             _registers_note(converters)))
    return items


REGISTERS_TITLE = ("every register of the RS fragment holds, after its k-block's conversion, the element (m, k) the "
                   "wgmma reads there: the copy's shared element SmemLayoutA(m, k, stage)")
REGISTERS_EXPECTED = "SmemLayoutA of the element the wgmma's A fragment reads (PTX ISA)"


def _registers_note(converters: list[str]) -> str:
    return (f"per thread: partition_A -> make_tensor_like -> retile_D -> dequantize_A_kblock ({', '.join(converters)}) "
            "-> partition_fragment_A; every thread, value, M block, k-block and stage")


def _register_failures(setup: ShuffleSetup, last: dict[tuple[int, int], tuple[int, int | None, str]],
                       copied: list[dict[int, int]], hw: HardwareA, read_values: list[int],
                       coord_values: list[int], frag_values: list[int]) -> tuple[Failures, int]:
    """Every (thread, value, M block, k-block, stage) of the fragment decided on whole arrays: the register the wgmma
    reads as A(m, k) must hold SmemLayoutA(m, k, stage) after its k-block's conversion.  Returns the failing points
    (the first named, in the order thread, k-block, M block, value, stage) and the number of points."""
    load_numpy()
    import numpy as np
    assert setup.fragment is not None
    values, m_blocks, k_blocks = (int(setup.fragment.mode(i).size()) for i in range(3))
    per_kb = values * m_blocks
    per_stage, stages, bm, bk = per_kb * k_blocks, setup.stages, setup.blk_m, setup.blk_k
    warpgroup = len(hw)
    # (k-block, M block, value) -> the register, and the copy element its writer reads (-1: none, `missing` says why)
    register = np.empty((k_blocks, m_blocks, values), dtype=np.int64)
    source = np.full((k_blocks, m_blocks, values), -1, dtype=np.int64)
    missing: dict[tuple[int, int, int], str] = {}
    for kb in range(k_blocks):
        for r in range(m_blocks):
            for i in range(values):
                reg = register[kb, r, i] = frag_values[i + values * (r + m_blocks * kb)]
                writer = last.get((kb, reg))
                if writer is None or writer[1] is None:
                    missing[kb, r, i] = (f"fragment register {reg} is " + (
                        "not written by the k-block's conversion" if writer is None else
                        f"made by {writer[2]} from no source element"))
                elif writer[1] not in copied[kb]:
                    missing[kb, r, i] = (f"fragment register {reg} is made from load register {writer[1]}, which the "
                                         "copy does not fill")
                else:
                    source[kb, r, i] = copied[kb][writer[1]]
    threads = np.arange(setup.threads)
    lanes, groups = threads % warpgroup, threads // warpgroup
    offset = np.asarray(setup.read_offset, dtype=np.int64)                         # [t]
    first = np.asarray(setup.coord_offset, dtype=np.int64)[groups * warpgroup]      # [t]
    coords = np.asarray(coord_values, dtype=np.int64)
    origin = first[:, None, None] + coords[values * (np.arange(m_blocks)[None, :]
                                                     + m_blocks * np.arange(k_blocks)[:, None])][None]   # [t, kb, r]
    table = np.asarray(hw, dtype=np.int64)                                           # [lane, value, (m, k)]
    m = (origin % bm)[..., None] + table[lanes, :, 0][:, None, None, :]             # [t, kb, r, i]
    k = (origin // bm)[..., None] + table[lanes, :, 1][:, None, None, :]
    stage = np.arange(stages)
    found = (source >= 0)[None, ..., None]                                           # [1, kb, r, i, 1]
    # a register without a source is a failure whatever it holds: its reads are not made (index 0 stands in)
    read_at = (np.maximum(source, 0) + per_kb * np.arange(k_blocks)[:, None, None])[None, ..., None] + per_stage * stage
    want_at = np.where(found, (m + bm * k)[..., None] + bm * bk * stage, 0)          # [t, kb, r, i, s]
    got = offset[:, None, None, None, None] + np.asarray(read_values, dtype=np.int64)[read_at]
    want = setup.shared[want_at]
    bad = ~found | (got != want)
    failures = Failures(count=int(np.count_nonzero(bad)))
    if failures.count:                     # the first failing point, named (the rest are counted)
        t, kb, r, i, s = (int(x) for x in np.unravel_index(int(np.argmax(bad)), bad.shape))
        point = {"thread": t, "value": i, "m_block": r, "k_block": kb, "stage": s}
        if (kb, r, i) in missing:
            failures.first = point, missing[kb, r, i]
        else:
            writer = last[(kb, int(register[kb, r, i]))]
            failures.first = point, (f"fragment register {register[kb, r, i]} holds shared element "
                                     f"{got[t, kb, r, i, s]} (load register {writer[1]}, copy element "
                                     f"{source[kb, r, i]}), not A({m[t, kb, r, i]}, {k[t, kb, r, i]})'s element "
                                     f"{want[t, kb, r, i, s]}")
    return failures, int(got.size)
