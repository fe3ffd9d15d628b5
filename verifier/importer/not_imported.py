"""Why a CUTLASS definition is not imported as an atom: the facts about CUTLASS each reason states, named once.

A reason here is never "the verifier has no model": each says what the definition is in CUTLASS (a copy whose size
and placement are chosen at run time, a prefetch with no destination, a layout CuTe itself refuses).  Definitions
the importer could read but does not yet (a template without an instantiation rule, traits with arguments of a
form it does not read) keep the reasons `instantiate.py` gives them.
"""
from __future__ import annotations

import re

# --- Copy_Traits<Op, NumBitsPerTMA, ...>: the TMA and bulk copies of copy_traits_sm90_tma.hpp, _sm90_im2col.hpp,
# copy_traits_sm100_tma.hpp and _sm100_im2col.hpp.  Each is templated on NumBitsPerTMA, the bits one copy moves,
# which CuTe picks when the copy is made (make_tma_copy / make_tma_atom from the tensors it is given, or the bulk
# copy's partitioning), and one elected thread issues it: its layouts are (1,NumBitsPerTMA):(0,1), not the fixed
# (thread, value) routing of a warp-level instruction that a copy atom of spec format 1 is.
_ONE_THREAD_COPY = ("its Copy_Traits take NumBitsPerTMA, the bits of one copy, which CuTe chooses when the copy is "
                    "made from the tensors it is given, and one elected thread issues it: the layouts are "
                    "(1,NumBitsPerTMA), not the fixed (thread, value) routing of a warp-level instruction that a "
                    "copy atom of spec format 1 is")
TMA_LOAD = ("a TMA load (cp.async.bulk.tensor, global to shared memory) other than the tiled SM90_TMA_LOAD: "
            + _ONE_THREAD_COPY + "; where each element lands is decided by the tensor map (the TMA descriptor "
            "CuTe encodes at run time); version 2 checks prove the tiled load's placement, `copy: SM90_TMA_LOAD` "
            "(hardware/tma.py)")
TMA_IM2COL = ("an im2col TMA copy (cp.async.bulk.tensor .im2col: a convolution's filter windows gathered from or "
              "scattered to global memory): " + _ONE_THREAD_COPY + "; the elements it moves are chosen by the "
              "im2col tensor map at run time")
TMA_STORE = ("a TMA store or reduction (cp.async.bulk.tensor / cp.reduce.async.bulk.tensor, shared to global "
             "memory): " + _ONE_THREAD_COPY + "; where each element goes is decided by the tensor map at run time")
TMA_PREFETCH = ("a TMA prefetch (cp.async.bulk.prefetch.tensor, global memory into the L2 cache): it writes no "
                "shared memory and no register, so there is no destination whose contents a check could prove")
BULK_COPY = ("a bulk copy (cp.async.bulk, a contiguous run of bytes between global and shared memory, no tensor "
             "map): " + _ONE_THREAD_COPY)
BULK_PREFETCH = ("a bulk prefetch (cp.async.bulk.prefetch, global memory into the L2 cache): it writes no shared "
                 "memory and no register, so there is no destination whose contents a check could prove")
BULK_COPY_AUTO = ("SM90_BULK_COPY_AUTO is a placeholder with layouts (1,1):(0,0): CuTe's copy() replaces it by a "
                  "sized bulk copy (SM90_BULK_COPY_G2S / _S2G) for the tensors it is given; it issues no "
                  "instruction of its own")

# the Op's name -> the reason, the first pattern that matches (prefetches before the copies they prefetch for)
_COPY_TRAITS_REASONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"TMA.*::PREFETCH$"), TMA_PREFETCH),
    (re.compile(r"BULK.*::PREFETCH$"), BULK_PREFETCH),
    (re.compile(r"^SM90_BULK_COPY_AUTO$"), BULK_COPY_AUTO),
    (re.compile(r"^SM90_BULK_COPY_(?:G2S|S2G)$"), BULK_COPY),
    (re.compile(r"_TMA_\w*IM2COL"), TMA_IM2COL),
    (re.compile(r"_TMA_(?:STORE|REDUCE)"), TMA_STORE),
    (re.compile(r"_TMA_(?:2SM_)?LOAD"), TMA_LOAD),
)

# --- a definition CuTe itself refuses: evaluating it fails one of CuTe's own static_asserts (the algebra's
# AlgebraError, the rule CuTe's message states), so no program can instantiate the atom (CUTLASS 4.2's two SM80
# U1U1 POPC atoms: their ALayout's shape ((4,8),(32,2)) and stride ((512,1),((16,8))) are not congruent, and
# compiling MMA_Atom<...> with CuTe fails "Mismatched ranks", tests/data/oracle_atoms_rejected.json.gz)
CUTE_REFUSES = "CUTLASS's own definition fails CuTe's static_assert, so CuTe cannot instantiate this atom either"


def extra_arguments_reason(kind: str, op: str, extra: list[str]) -> str:
    """Why `kind<op, extra...>` (traits with more template arguments than the Op) is not imported."""
    if kind == "Copy_Traits":
        found = next((reason for pattern, reason in _COPY_TRAITS_REASONS if pattern.search(op)), None)
        if found is not None:
            return found
    return f"{kind} with extra template arguments ({', '.join(extra)}) is not a warp-level atom of spec format 1"


# --- a definition whose instruction the PTX ISA describes, for the part the atom defines, only in figures: the text
# (read through its published Markdown) gives no row / column formula that decides it, and no GPU of that
# architecture is available to probe it.  Each reason names the figures and what the text does say (a fact about the
# documentation, not a missing model of what the text decides).
_SM120_SCALE_FIGURES = (
    "its SFALayout / SFBLayout route the scale factors of scale-a-data / scale-b-data, and which lane and byte of them "
    "scale which row of A and which column of B is drawn only in PTX ISA Figures 43, 44 and 45 (\"Block Scaling for "
    "mma.sync\", 9.7.14.3): the text says only which thread pair of each quad supplies SF_A (thread-id-a: lanes % 4 "
    "in {0, 1} or {2, 3}), which thread of each quad supplies SF_B (thread-id-b), and which bytes (byte-id-a / -b, "
    "Table 37), not the row of A or column of B each lane's factor belongs to")
SM120_BLOCK_SCALED = ("sm_120a's block-scaled mma.sync (.kind::mxf8f6f4 / .kind::mxf4 / .kind::mxf4nvf4 "
                      ".block_scale.scale_vec::NX): " + _SM120_SCALE_FIGURES + "; no sm_120 GPU is available to probe "
                      "it, so the atom's scale layouts can be neither proved nor refuted")
_SPARSE_K64_FIGURES = (
    "its B fragment is drawn only in PTX ISA Figures 132-135 and its metadata (the atom's ELayout) only in Figures "
    "136-137 (\"Matrix Fragments for sparse mma.m16n8k64 with .u8 / .s8 / .e4m3 / .e5m2 type\", 9.7.14.6.2.6): the "
    "text gives A's rows and column ranges and no formula for B or for the metadata's threads and bits")
SM120_SPARSE_K64 = ("sm_120a's structured-sparse mma.sp.sync.aligned.m16n8k64 .kind::f8f6f4: " + _SPARSE_K64_FIGURES
                    + "; no sm_120 GPU is available to probe them")
SM120_SPARSE_K64_BLOCK_SCALED = (
    "sm_120a's structured-sparse block-scaled mma.sp.sync.aligned.m16n8k64 .kind::mxf8f6f4 .block_scale: "
    + _SPARSE_K64_FIGURES + "; and " + _SM120_SCALE_FIGURES + "; no sm_120 GPU is available to probe them")
SM120_SPARSE_K128_BLOCK_SCALED = (
    "sm_120a's structured-sparse block-scaled mma.sp.sync.aligned.m16n8k128 .kind::mxf4 / .kind::mxf4nvf4 "
    ".block_scale: its B fragment is drawn only in PTX ISA Figures 142-145 and its metadata (the atom's ELayout) only "
    "in Figures 146-147 (\"Matrix Fragments for sparse mma.m16n8k128 with .u4 / .s4 integer type\", 9.7.14.6.2.8, "
    "which covers .e2m1): the text gives A's rows and column ranges and no formula for B or for the metadata; and "
    + _SM120_SCALE_FIGURES + "; no sm_120 GPU is available to probe them")
# the template (its name without namespaces) -> why it is not imported
DRAWN_ONLY: dict[str, str] = {
    "SM120_16x8x64_TN_VS": SM120_BLOCK_SCALED,
    "SM120_16x8x32_TN_VS": SM120_BLOCK_SCALED,
    "SM120_SPARSE_16x8x64_TN": SM120_SPARSE_K64,
    "SM120_SPARSE_16x8x64_TN_VS": SM120_SPARSE_K64_BLOCK_SCALED,
    "SM120_SPARSE_16x8x128_TN_VS": SM120_SPARSE_K128_BLOCK_SCALED,
}


def drawn_only_reason(template: str) -> str | None:
    """Why a template whose instruction the PTX ISA draws only in figures is not imported, or None."""
    return DRAWN_ONLY.get(template.split("::")[-1])


def states_a_documentation_fact(reason: str) -> bool:
    """Whether a reason is one of the facts about the PTX ISA's text above (a figure-only description)."""
    return reason in DRAWN_ONLY.values()


# reasons that state a fact about CUTLASS (the definition is no warp-level atom, or CuTe refuses it)
FACT_REASONS: tuple[str, ...] = (TMA_LOAD, TMA_IM2COL, TMA_STORE, TMA_PREFETCH, BULK_COPY, BULK_PREFETCH,
                                 BULK_COPY_AUTO)


def states_a_cutlass_fact(reason: str) -> bool:
    """Whether a reason for not importing a definition is one of the facts above (not a gap of the importer)."""
    return reason in FACT_REASONS or CUTE_REFUSES in reason
