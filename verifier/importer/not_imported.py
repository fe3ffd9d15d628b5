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


# reasons that state a fact about CUTLASS (the definition is no warp-level atom, or CuTe refuses it)
FACT_REASONS: tuple[str, ...] = (TMA_LOAD, TMA_IM2COL, TMA_STORE, TMA_PREFETCH, BULK_COPY, BULK_PREFETCH,
                                 BULK_COPY_AUTO)


def states_a_cutlass_fact(reason: str) -> bool:
    """Whether a reason for not importing a definition is one of the facts above (not a gap of the importer)."""
    return reason in FACT_REASONS or CUTE_REFUSES in reason
