"""Shared-memory banks: how many wavefronts one warp-wide shared-memory instruction takes, and which lanes conflict.

Shared memory has 32 banks of 4-byte words (word w is in bank w mod 32).  A wavefront reads or writes at most one
word per bank (any number of lanes may read that word: a broadcast).  The instruction's lanes are split into
phases, each served by its own wavefronts; a phase takes as many as the most distinct words any bank holds for
it.  Checked against Nsight Compute's counters on an H200 (tools/gpu/capture_banks.cu, tests/data/hw/banks.json.gz:
LDS/STS of 8 to 128 bits, ldmatrix / stmatrix x1/x2/x4 with and without .trans, cp.async; 696 patterns):

- 8-, 16- and 32-bit loads and stores: one phase of 32 lanes (lanes touching different bytes of one word do
  not conflict).  64-bit: two phases of 16 lanes (halves); 128-bit: four
  phases of 8 lanes (quarters).  ldmatrix / stmatrix: one phase per 8x8 matrix, its 8 row addresses (16 bytes
  each) given by lanes 8j..8j+7.
- Found on the hardware, not in the common account: a 64- or 128-bit *load* whose lanes come in pairs that read
  the same address — lane l and lane l^1 everywhere, or lane l and lane l^2 everywhere — is served as the 16
  lanes of one of each pair: one phase (64-bit) or two phases of 8 (128-bit), so a broadcast LDS.128 takes 2
  wavefronts, not 4.  Other repetitions (lane l and l^4, l^8, l^16, or l^3) are not merged, nor are stores.
- cp.async (LDGSTS) is not modelled: its 4- and 8-byte forms follow neither rule in the captured counters
  (conflict-free copies already take 4 wavefronts, and a few random patterns take fewer than fixed 8-lane
  phases would), and the counters do not see LDGSTS.BYPASS.128 (cp.async.cg 16 bytes) at all.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .registry import qualifiers

SECTION = "Shared-memory banks (32 x 4 bytes), validated with Nsight Compute on an H200"
BANKS = 32
WORD = 4
LANES = 32
WAVEFRONT_BYTES = BANKS * WORD
MATRIX_ROW_BYTES = 16
MATRIX_ROWS = 8


class Access(str, Enum):
    LOAD = "load"
    STORE = "store"


@dataclass(frozen=True)
class SharedInstruction:
    """A warp-wide shared-memory instruction: per-lane vectors (`bytes_per_lane`) or 8x8 matrices (`matrices`)."""
    text: str
    access: Access
    bytes_per_lane: int = 0        # ld.shared / st.shared
    matrices: int = 0              # ldmatrix / stmatrix: .x1 / .x2 / .x4

    @property
    def alignment(self) -> int:
        return MATRIX_ROW_BYTES if self.matrices else self.bytes_per_lane


class BankModelError(ValueError):
    """An instruction or an address list the model cannot judge (the message says why)."""


TYPE_BITS = {"b8": 8, "u8": 8, "s8": 8, "b16": 16, "u16": 16, "s16": 16, "f16": 16, "bf16": 16,
             "b32": 32, "u32": 32, "s32": 32, "f32": 32, "b64": 64, "u64": 64, "s64": 64, "f64": 64, "b128": 128}


def parse_instruction(text: str) -> SharedInstruction:
    """ld.shared[.v2|.v4].TYPE, st.shared[...], ldmatrix / stmatrix .x1/.x2/.x4[.trans] (operands ignored)."""
    op, q = qualifiers(text)
    if op in ("ldmatrix", "stmatrix"):
        counts = [int(x[1:]) for x in q if x in ("x1", "x2", "x4")]
        if "shared" not in q or len(counts) != 1 or "m8n8" not in q or "b16" not in q:
            raise BankModelError(f"{text.strip()[:80]!r}: expected {op}.sync.aligned.m8n8.x1|x2|x4[.trans].shared.b16")
        return SharedInstruction(text.strip(), Access.LOAD if op == "ldmatrix" else Access.STORE, matrices=counts[0])
    if op in ("ld", "st") and "shared" in q:
        vec = 4 if "v4" in q else 2 if "v2" in q else 1
        types = [TYPE_BITS[x] for x in q if x in TYPE_BITS]
        if len(types) != 1:
            raise BankModelError(f"{text.strip()[:80]!r}: expected one element type (.b32, .v2.b32, .v4.b32, ...)")
        width = vec * types[0] // 8
        if width not in (1, 2, 4, 8, 16):
            raise BankModelError(f"{text.strip()[:80]!r}: {width}-byte accesses are not modelled (1 to 16 bytes)")
        return SharedInstruction(text.strip(), Access.LOAD if op == "ld" else Access.STORE, bytes_per_lane=width)
    if op == "cp" and q[:1] == ["async"]:
        raise BankModelError("cp.async (LDGSTS) is not modelled: the H200's counters fit no bank rule for its 4- and "
                             "8-byte forms and do not observe its 16-byte form")
    raise BankModelError(f"{text.strip()[:80]!r} is not a shared-memory load or store the bank model knows")


@dataclass(frozen=True)
class Phase:
    lanes: tuple[int, ...]         # the lanes it serves
    wavefronts: int
    worst_bank: int                # a bank holding `wavefronts` distinct words for it
    worst_lanes: tuple[int, ...]   # lanes of that bank that read / write different words


@dataclass
class Wavefronts:
    count: int
    ideal: int                     # one wavefront per phase
    phases: list[Phase] = field(default_factory=list)
    merged_pairs: int = 0          # 1 or 2: the lane pairing (l, l^k) a load was served by; 0: none

    @property
    def conflicts(self) -> int:
        return self.count - self.ideal


def _words(addr: int, nbytes: int) -> range:
    """The 4-byte words bytes [addr, addr + nbytes) lie in."""
    return range(addr // WORD, (addr + nbytes - 1) // WORD + 1)


def _phase(lanes: list[int], addrs: list[int], nbytes: int) -> Phase:
    per_bank: dict[int, dict[int, list[int]]] = {}
    for lane in lanes:
        for w in _words(addrs[lane], nbytes):
            per_bank.setdefault(w % BANKS, {}).setdefault(w, []).append(lane)
    bank = max(per_bank, key=lambda b: (len(per_bank[b]), -b))
    words = per_bank[bank]
    worst = tuple(sorted({ls[0] for ls in words.values()})) if len(words) > 1 else ()
    return Phase(tuple(lanes), len(words), bank, worst)


def wavefronts(instr: SharedInstruction, addrs: list[int]) -> Wavefronts:
    """Wavefronts of one execution with lane i at shared byte address addrs[i] (absolute; 32 lanes)."""
    if len(addrs) != LANES:
        raise BankModelError(f"expected {LANES} addresses, one per lane, not {len(addrs)}")
    for lane, a in enumerate(addrs):
        if a < 0 or a % instr.alignment:
            raise BankModelError(f"lane {lane}: address {a} is not {instr.alignment}-byte aligned")
    if instr.matrices:
        groups = [list(range(MATRIX_ROWS * j, MATRIX_ROWS * (j + 1))) for j in range(instr.matrices)]
        phases = [_phase(g, addrs, MATRIX_ROW_BYTES) for g in groups]
        return Wavefronts(sum(p.wavefronts for p in phases), len(phases), phases)
    w = instr.bytes_per_lane
    per_phase = min(LANES, WAVEFRONT_BYTES // w)
    lanes = list(range(LANES))
    merged = 0
    if instr.access is Access.LOAD and w > WORD:
        for pair in (1, 2):
            if all(addrs[lane] == addrs[lane ^ pair] for lane in range(LANES)):
                lanes, merged = [lane for lane in range(LANES) if not lane & pair], pair
                break
    groups = [lanes[i:i + per_phase] for i in range(0, len(lanes), per_phase)]
    phases = [_phase(g, addrs, w) for g in groups]
    return Wavefronts(sum(p.wavefronts for p in phases), len(phases), phases, merged)
