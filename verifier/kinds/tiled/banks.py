"""Theorem 17, `smem.bank_conflicts`: every shared-memory instruction of a tiled check's copy takes its ideal
number of wavefronts (hardware/banks.py): within each phase of each warp's instruction, lanes that touch the
same bank touch the same 4-byte word.

The claim is over the offsets from the tile's base.  Adding the same multiple of 4 bytes to every address of an
instruction keeps which accesses share a bank and which share a word (bank = word mod 32): the proof over
offsets is the proof for every base that is a multiple of 4 — every base of a 4-to-16-byte access (theorem 6
proves its alignment), and the bases shared-memory tiles have for 1- and 2-byte accesses (the note says so).
`banks: report` instead evaluates the counts at one base, as information.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...hardware.banks import (BankModelError, SharedInstruction, parse_instruction, wavefronts, BANKS, LANES,
                              MATRIX_ROW_BYTES, MATRIX_ROWS, WAVEFRONT_BYTES, WORD)
from ...symbolic.expr import Var, compile_py, const, eq, implies, lt
from ...symbolic.obligation import Obligation
from .chain import OperandChain
from ...theorems.claims import Claim, Item, Plan, Unsupported
from .setup import TiledSetup
from ...theorems.suspects import Suspects

VECTOR_LOADS = {1: "ld.shared.u8", 2: "ld.shared.u16", 4: "ld.shared.b32", 8: "ld.shared.v2.b32",
                16: "ld.shared.v4.b32"}


@dataclass(frozen=True)
class BankShape:
    """How one warp's instruction splits into phases: `phases` of `lanes_per_phase` lanes, each touching
    `bytes_per_lane` contiguous bytes."""
    instruction: SharedInstruction
    phases: int
    lanes_per_phase: int
    bytes_per_lane: int


def bank_shape(setup: TiledSetup) -> BankShape | str:
    """The shared-memory instruction of the copy, or why the bank model has none."""
    model = setup.copy_hw
    if model is None:
        return f"no hardware model for '{setup.copy_spec.instruction}'"
    if model.family in ("ldmatrix", "stmatrix"):
        try:
            instr = parse_instruction(model.instruction)
        except BankModelError as e:
            return str(e)
        return BankShape(instr, instr.matrices, MATRIX_ROWS, MATRIX_ROW_BYTES)
    if model.direction not in ("load", "store"):
        return f"{model.instruction} is not a shared-memory load or store (cp.async and global copies are not modelled)"
    width = model.row_bytes
    if width not in VECTOR_LOADS:
        return f"{width}-byte shared-memory accesses are not modelled (1 to 16 bytes)"
    text = VECTOR_LOADS[width] if model.direction == "load" else VECTOR_LOADS[width].replace("ld.", "st.", 1)
    instr = parse_instruction(text)
    per_phase = min(LANES, WAVEFRONT_BYTES // width)
    return BankShape(instr, LANES // per_phase, per_phase, width)


def warps_of(setup: TiledSetup, chain: OperandChain) -> int | str:
    if chain.nthr % LANES:
        return f"the copy runs on {chain.nthr} threads, not whole warps"
    return chain.nthr // LANES


def bank_conflicts(setup: TiledSetup, chain: OperandChain, suspects: Suspects) -> Plan:
    shape = bank_shape(setup)
    if isinstance(shape, str):
        return Unsupported(shape)
    warps = warps_of(setup, chain)
    if isinstance(warps, str):
        return Unsupported(warps)
    vb = setup.value_bits
    paired = _paired_lanes(setup, chain, shape, warps)
    if paired:
        return Unsupported(f"lanes share addresses in pairs ({paired}); the merged phases wide loads then take "
                           "are not encoded")
    w, p = Var("warp", warps), Var("phase", shape.phases)
    i1, i2 = Var("lane_in_phase", shape.lanes_per_phase), Var("lane2_in_phase", shape.lanes_per_phase)
    words = max(1, shape.bytes_per_lane // WORD)      # a narrower access lies inside one word
    j1, j2 = Var("word_in_access", words), Var("word2_in_access", words)
    inst = chain.inst
    lane1, lane2 = p * shape.lanes_per_phase + i1, p * shape.lanes_per_phase + i2
    bits1 = chain.memory_offset(w * LANES + lane1, const(0)) * vb
    bits2 = chain.memory_offset(w * LANES + lane2, const(0)) * vb
    word1, word2 = bits1 // (8 * WORD) + j1, bits2 // (8 * WORD) + j2
    bank1, bank2 = word1 % BANKS, word2 % BANKS
    items: list[Item] = []
    if shape.bytes_per_lane >= WORD:
        t1 = Var("thread", chain.nthr)
        start = chain.memory_offset(t1, const(0)) * vb
        items.append(Claim(Obligation("every lane's access starts on a 4-byte word (bank = word mod 32)",
                                      [t1] + chain.inst, eq(start % (8 * WORD), 0),
                                      shown={"byte offset": start // 8}),
                           suspects.smem("the shared-memory layout: an access that is not word-aligned"),
                           subject=setup.operand))
    text = shape.instruction.text
    items.append(Claim(Obligation(f"{text}: lanes of one phase that touch the same bank touch the same word "
                                  f"({shape.phases} phase{'s' if shape.phases > 1 else ''} of "
                                  f"{shape.lanes_per_phase} lanes, 1 wavefront each)",
                                  [w, p, i1, i2, j1, j2] + inst, implies(eq(bank1, bank2), eq(word1, word2)),
                                  premise=lt(i1, i2),
                                  shown={"lane": lane1, "lane2": lane2, "byte offset": bits1 // 8,
                                         "byte offset2": bits2 // 8, "bank": bank1, "bank2": bank2,
                                         "word": word1, "word2": word2},
                                  note="offsets from the tile's base; the same for every base that is a multiple of "
                                       "4 bytes (shared-memory tiles are: CUTLASS aligns them to 128)"),
                       suspects.smem("the shared-memory layout (its swizzle): two lanes of one phase read "
                                     "different words of one bank"), subject=setup.operand))
    return items


def lane_offsets(setup: TiledSetup, chain: OperandChain, warps: int) -> list[list[list[int]]]:
    """Byte offsets [instance][warp][lane] each lane's access starts at (concrete)."""
    import itertools
    vb = setup.value_bits
    fn = compile_py([chain.memory_offset(chain.t, const(0)) * vb], [chain.t] + chain.inst)
    out = []
    for idx in itertools.product(*[range(n) for n in chain.instance_sizes]):
        out.append([[fn(warp * LANES + lane, *idx)[0] // 8 for lane in range(LANES)] for warp in range(warps)])
    return out


def _paired_lanes(setup: TiledSetup, chain: OperandChain, shape: BankShape, warps: int) -> str:
    if shape.instruction.access.value != "load" or shape.bytes_per_lane <= WORD or shape.instruction.matrices:
        return ""
    for inst in lane_offsets(setup, chain, warps):
        for addrs in inst:
            for pair in (1, 2):
                if all(addrs[lane] == addrs[lane ^ pair] for lane in range(LANES)):
                    return f"lane l and lane l^{pair}"
    return ""


def bank_counts(setup: TiledSetup, chain: OperandChain, base: int = 0) -> tuple[str, dict[tuple[int, int], int]] | str:
    """(instruction, {(wavefronts, ideal): how many warp instructions}) of the copy at `base`, or why none."""
    shape = bank_shape(setup)
    if isinstance(shape, str):
        return shape
    warps = warps_of(setup, chain)
    if isinstance(warps, str):
        return warps
    counts: dict[tuple[int, int], int] = {}
    for inst in lane_offsets(setup, chain, warps):
        for addrs in inst:
            wf = wavefronts(shape.instruction, [base + a for a in addrs])
            counts[(wf.count, wf.ideal)] = counts.get((wf.count, wf.ideal), 0) + 1
    return shape.instruction.text, counts


def bank_report(setup: TiledSetup, chain: OperandChain, base: int = 0) -> list[str]:
    """`banks: report`: the wavefronts of the copy's warp instructions at `base` (information, not a verdict)."""
    found = bank_counts(setup, chain, base)
    if isinstance(found, str):
        return [f"banks: no count: {found}"]
    text, counts = found
    parts = [f"{n} x {c} wavefronts (ideal {i})" for (c, i), n in sorted(counts.items())]
    return [f"banks: {text}, {sum(counts.values())} warp instructions at base {base:#x}: " + ", ".join(parts)]
