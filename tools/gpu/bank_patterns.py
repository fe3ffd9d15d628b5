#!/usr/bin/env python3
"""The shared-memory access patterns `capture_banks.cu` runs under Nsight Compute: one warp-wide instruction
each, with the byte offset every lane passes (into a 1024-byte aligned shared buffer).

    python3 tools/gpu/bank_patterns.py OUT.txt      # one line per pattern: id kind a0 a1 ... a31

Deterministic (fixed seeds).  Nothing here knows a bank model: the patterns are chosen to exercise one
(contiguous, strided, broadcast and multicast, padded columns, the 16-byte-chunk swizzles CuTe's layouts use,
ldmatrix / stmatrix row addresses of swizzled and unswizzled tiles, random), and the hardware's counters decide.
"""
from __future__ import annotations

import random
import sys
from typing import Callable

LANES = 32
BUFFER = 48 * 1024        # bytes of the shared buffer; every address stays below it
# kinds: the instruction each pattern issues (capture_banks.cu switches on the index)
KINDS = ("lds32", "lds64", "lds128", "sts32", "sts64", "sts128",
         "ldsm_x1", "ldsm_x2", "ldsm_x4", "ldsm_x1_trans", "ldsm_x2_trans", "ldsm_x4_trans",
         "stsm_x1", "stsm_x2", "stsm_x4", "stsm_x1_trans", "stsm_x2_trans", "stsm_x4_trans",
         "cpasync4", "cpasync8", "cpasync16", "lds16", "lds8", "sts16", "sts8")
WIDTH = {"lds32": 4, "lds64": 8, "lds128": 16, "sts32": 4, "sts64": 8, "sts128": 16,
         "cpasync4": 4, "cpasync8": 8, "cpasync16": 16, "lds16": 2, "lds8": 1, "sts16": 2, "sts8": 1}


def sw(addr: int, b: int) -> int:
    """Swizzle<b,4,3> on a byte address: 16-byte chunk bits 4.. XOR bits 7.. (CuTe's GMMA / TMA swizzle)."""
    return addr ^ (((addr >> 7) & ((1 << b) - 1)) << 4) if b else addr


def vector_patterns(w: int) -> dict[str, list[int]]:
    """Per-lane addresses for a w-byte load / store (every address w-aligned)."""
    rng = random.Random(1000 + w)
    pats: dict[str, list[int]] = {}
    pats["contiguous"] = [lane * w for lane in range(LANES)]
    for s in (2, 3, 4, 5, 8, 16, 17, 32, 33):
        pats[f"stride{s}"] = [lane * s * w for lane in range(LANES)]
    pats["broadcast"] = [0] * LANES
    for g in (2, 4, 8, 16):
        pats[f"groups_of_{g}"] = [(lane // g) * w for lane in range(LANES)]      # g lanes share one address
        pats[f"modulo_{g}"] = [(lane % g) * w for lane in range(LANES)]          # only g distinct addresses
    pats["column_128B_rows"] = [lane * 128 for lane in range(LANES)]
    pats["column_132B_rows"] = [lane * (128 + w) for lane in range(LANES)]     # padded by one vector
    pats["same_bank_16_words"] = [(lane % 16) * 128 for lane in range(LANES)]
    if w == 16:
        # a K-major tile of 128-byte rows read in 16-byte chunks: row = lane % 8 (conflicting) or lane // 8
        for b in (0, 1, 2, 3):
            pats[f"rows_down_sw{b}"] = [sw((lane % 8) * 128 + (lane // 8) * 16, b) for lane in range(LANES)]
            pats[f"rows_across_sw{b}"] = [sw((lane // 8) * 128 + (lane % 8) * 16, b) for lane in range(LANES)]
        pats["quarter_repeats"] = [(lane % 8) * 16 for lane in range(LANES)]      # every quarter the same 128 B
        pats["quarter_pairs"] = [(lane % 16) * 16 for lane in range(LANES)]
    if w == 8:
        pats["half_repeats"] = [(lane % 16) * 8 for lane in range(LANES)]         # both halves the same 128 B
        for b in (0, 3):
            pats[f"rows_down_sw{b}"] = [sw((lane % 16) * 128 + (lane // 16) * 8, b) for lane in range(LANES)]
    if w == 4:
        for b in (0, 3):
            pats[f"rows_down_sw{b}"] = [sw((lane % 32) * 128, b) for lane in range(LANES)]
    perm = list(range(LANES))
    for seed in range(3):
        rng.shuffle(perm)
        pats[f"permuted_{seed}"] = [p * w for p in perm]
        pats[f"random_{seed}"] = [rng.randrange(0, 4096 // w) * w for _ in range(LANES)]
    return pats


def narrow_patterns(w: int) -> dict[str, list[int]]:
    """Per-lane addresses for 1- and 2-byte accesses: several lanes inside one 4-byte word, or not."""
    rng = random.Random(3000 + w)
    pats: dict[str, list[int]] = {"contiguous": [lane * w for lane in range(LANES)], "broadcast": [0] * LANES}
    for s in (2, 4, 8, 16, 32, 64, 65):
        pats[f"stride{s}"] = [lane * s * w for lane in range(LANES)]
    pats["same_word_lanes"] = [(lane // (4 // w)) * 4 + (lane % (4 // w)) * w for lane in range(LANES)]
    pats["column_128B_rows"] = [lane * 128 for lane in range(LANES)]
    pats["column_128B_rows_bytes"] = [lane * 128 + (lane % (4 // w)) * w for lane in range(LANES)]
    pats["two_words_per_bank"] = [(lane % 2) * 128 + (lane // 2) * 4 for lane in range(LANES)]
    pats["same_bank_other_bytes"] = [(lane % 4) * 128 + (lane // 4 % (4 // w)) * w for lane in range(LANES)]
    for seed in range(3):
        pats[f"random_{seed}"] = [rng.randrange(0, 4096 // w) * w for _ in range(LANES)]
    return pats


def repeat_patterns(w: int) -> dict[str, list[int]]:
    """Loads where lanes repeat addresses in chosen arrangements: which phases (half- or quarter-warps) share a
    wavefront, and which lane groups limit it.  Addresses are w-byte vectors; v(i) is the i-th distinct one."""
    def v(i: int) -> int:
        return i * w
    per_phase = 128 // w                   # lanes of one phase: 32, 16 or 8
    pats: dict[str, list[int]] = {}
    quads = {"AAAA": (0, 0, 0, 0), "AAAB": (0, 0, 0, 1), "AABB": (0, 0, 1, 1), "ABAB": (0, 1, 0, 1),
             "ABBA": (0, 1, 1, 0), "ABCC": (0, 1, 2, 2), "ABCD": (0, 1, 2, 3)}
    for name, q in quads.items():          # every quad of lanes the same shape, quad i on its own vectors
        pats[f"quads_{name}"] = [v(4 * (lane // 4) + q[lane % 4]) for lane in range(LANES)]
        pats[f"quads_{name}_shared"] = [v(q[lane % 4]) for lane in range(LANES)]   # all quads the same vectors
    for name, q in (("AABB", (0, 0, 1, 1)), ("ABCD", (0, 1, 2, 3))):     # pairs of lanes, pairs of quads
        pats[f"octets_{name}"] = [v(4 * (lane // 8) + q[(lane // 2) % 4]) for lane in range(LANES)]
    contiguous = [v(lane) for lane in range(LANES)]
    phases = LANES // per_phase
    for uniform in range(1, 1 << phases):   # some phases all on one vector, the others contiguous
        bits = "".join("u" if uniform >> i & 1 else "c" for i in range(phases))
        pats[f"phases_{bits}"] = [v(1000 // w + lane // per_phase) if uniform >> (lane // per_phase) & 1
                                  else contiguous[lane] for lane in range(LANES)]
    for split in (2, 4, 8, 16):             # the first `split` lanes of every phase uniform, the rest distinct
        if split < per_phase:
            pats[f"head{split}_uniform"] = [v(200 // w) if lane % per_phase < split else contiguous[lane]
                                            for lane in range(LANES)]
    return pats


def matrix_patterns(matrices: int) -> dict[str, list[int]]:
    """Row addresses for ldmatrix / stmatrix .x1/.x2/.x4: lane 8j + r gives row r of matrix j (16 bytes)."""
    rng = random.Random(2000 + matrices)
    pats: dict[str, list[int]] = {}

    def rows(addr: Callable[[int, int], int]) -> list[int]:
        return [addr(lane // 8 % matrices, lane % 8) if lane < 8 * matrices else addr(0, lane % 8)
                for lane in range(LANES)]

    for pitch in (16, 32, 64, 128, 144, 256, 272):
        pats[f"pitch{pitch}_k_adjacent"] = rows(lambda j, r, p=pitch: r * p + j * 16)      # matrices along K
        pats[f"pitch{pitch}_m_adjacent"] = rows(lambda j, r, p=pitch: (8 * j + r) * p)     # matrices along M
    for b, pitch in ((1, 32), (2, 64), (3, 128)):
        pats[f"sw{b}_k_adjacent"] = rows(lambda j, r, p=pitch, b=b: sw(r * p + j * 16, b))
        pats[f"sw{b}_m_adjacent"] = rows(lambda j, r, p=pitch, b=b: sw((8 * j + r) * p, b))
        # CuTe's SM80 A tile (16x16 halves of a 64-wide K-major tile): lanes 0-15 rows, 16-31 the next 16 bytes
        pats[f"sw{b}_sm80_a"] = [sw((lane % 16) * 128 + (lane // 16) * 16, b) for lane in range(LANES)]
    pats["sm80_a_unswizzled"] = [(lane % 16) * 128 + (lane // 16) * 16 for lane in range(LANES)]
    pats["broadcast"] = [0] * LANES
    pats["one_row_per_matrix"] = rows(lambda j, r: j * 16)
    pats["random"] = [rng.randrange(0, 2048) * 16 for _ in range(LANES)]
    return pats


def patterns() -> list[tuple[str, str, list[int]]]:
    out: list[tuple[str, str, list[int]]] = []
    for kind in KINDS:
        if kind.startswith(("ldsm", "stsm")):
            n = int(kind.split("_x")[1][0])
            pats = matrix_patterns(n)
            if kind.startswith("stsm"):   # fewer for stores: the same addressing
                pats = {k: v for k, v in pats.items() if "144" not in k and "272" not in k and "32_" not in k}
        elif WIDTH[kind] < 4:
            pats = narrow_patterns(WIDTH[kind])
        else:
            pats = vector_patterns(WIDTH[kind])
            if kind.startswith("lds"):
                pats.update(repeat_patterns(WIDTH[kind]))
            if kind.startswith("cpasync"):
                pats = {k: v for k, v in pats.items() if not k.startswith(("modulo", "groups", "permuted"))}
        for name, addrs in pats.items():
            assert len(addrs) == LANES and all(0 <= a < BUFFER for a in addrs), (kind, name)
            align = 16 if kind.startswith(("ldsm", "stsm")) else WIDTH[kind]
            assert all(a % align == 0 for a in addrs), (kind, name)
            out.append((f"{kind}/{name}", kind, addrs))
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], "w", encoding="utf-8") as f:
        for pid, kind, addrs in patterns():
            f.write(f"{pid} {KINDS.index(kind)} {' '.join(map(str, addrs))}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
