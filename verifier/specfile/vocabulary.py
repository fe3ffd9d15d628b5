"""The spec format's vocabulary, written once: the keys of each section, the words a key takes, and the limits
of what it may hold.  The loader reads files with these; each check kind reads its own keys with them."""
from __future__ import annotations

from ..cute.operand import Operand
from ..outcome import Expect
from .model import UMMA_INSTRUCTION

FAMILY_KEY = "family"         # a check for every value of its parameters (specfile/family.py)
FORMAT_VERSIONS = (1, 2)      # version 2 adds the Hopper keys (V2_KEYS); version 1 files stay valid
TOP_KEYS = ("version", "name", "description", "include", "mma_atoms", "copy_atoms", "checks")
MMA_KEYS = ("instruction", "shape_mnk", "thr_id", "types", "a", "b", "c", "e", "sp_sel", "source")
MMA_REQUIRED = ("shape_mnk", "thr_id", "types", "a", "b", "c")
COPY_KEYS = ("instruction", "thr_id", "src", "dst", "ref", "source")
COPY_REQUIRED = ("instruction", "thr_id", "src", "dst", "ref")
TYPE_KEYS = ("a", "b", "c", "d")
SCALE_TYPE_KEYS = ("sf",)   # optional in `types:`: a block-scaled MMA's scale factors (ValTypeSFA = ValTypeSFB)
SPARSE_TYPE_KEYS = ("e",)   # a structured-sparse MMA's metadata (ValTypeE: sparse_elem<8, uint8_t> ...), with `e:`
SP_SELS = 4                 # a sparse MMA atom's `sp_sel:` (GMMA::SparseSel) is 0..3

# the keys of a check, by the kind that reads them
# an operand read through a descriptor
GMMA_KEYS = ("gmem", "major", "smem_align", "descriptor", "tma_box", "tma_swizzle", "tma_tensors")
TMA_TENSORS_KEYS = ("map_of", "tiles_of")   # `tma_tensors:` the tensors the atom's map and the partition's tiles are of
TMEM_KEYS = ("tmem", "tmem_columns", "tmem_view", "store", "accumulator", "accumulator_stages")   # a TMEM copy
TMEM_VIEW_KEYS = ("layout", "column")      # `tmem_view:` the tensor the copy's tile is cut from, and its first column
TMEM_VIEW_OPTIONAL = ("stages",)           # ... and the stages (indices of its last mode) the copies take
ACCUMULATOR_KEYS = ("instruction", "m", "n")     # `accumulator:` the tcgen05.mma writing the TMEM tile
# `accumulator_stages:` the stage indices (the last mode of the staged accumulator) the MMAs write and the load reads
ACCUMULATOR_STAGE_KEYS = ("mma", "load")
# ... and, optionally, how many stages past the one whose barrier its thread waited on each side's slices take
ACCUMULATOR_WAIT_KEYS = ("mma_wait_offsets", "load_wait_offsets")
BUFFER_KEYS = ("buffer",)                                                # a shared buffer's writer and reader
BUFFER_FIELDS = ("bytes", "align", "reader")                             # `buffer:`
# `buffer:` the writer's view, or `unwritten` (what an importer read to find that nothing writes the reader's bytes);
# the stage indices the kernel's pipeline slices both views at
BUFFER_OPTIONAL = ("writer", "unwritten", "stages")
BUFFER_VIEW_FIELDS = ("by", "at", "layout", "source", "gmem", "tma_dim0",   # `writer:` / `reader:`
                      "tma_map_of", "tma_tiles_of", "tma_stores_write", "mn_tile_at",
                      "other_mn_tile_at", "stage_indices", "wait_offsets",
                      "fixed_after_wait")
SCALE_KEYS = ("scale_factors", "sf_vec_size", "tmem_alloc", "tmem_base")  # a block-scaled MMA's scale factors
METADATA_KEYS = ("metadata",)                                            # a structured-sparse wgmma's metadata
TILED_V2_KEYS = ("banks", "reduction", "smem_type", "tiled_copy", "smem_partition")   # a tiled path's version 2 keys
TILED_KEYS = ("smem", "copy_for", "copy_mma") + TILED_V2_KEYS            # a tiled path (smem: the TMA checks' too)
TILED_COPY_KEYS = ("layout_tv", "tiler")     # `tiled_copy:` a TiledCopy as its builder made it (TV layout, tile)
ATOM_LAYOUT_KEYS = ("atom_layout", "permutation")                        # make_tiled_mma's (copy_mma's too)
COMMON_KEYS = ("mma", "atom_layout", "permutation", "operand", "copy", "value_type", "smem", "expect", "copy_for",
               "copy_mma", "description", "source", "assumes")
V2_KEYS = GMMA_KEYS + TMEM_KEYS + TILED_V2_KEYS + BUFFER_KEYS + SCALE_KEYS + METADATA_KEYS
# every key of a check, in the order messages list them
CHECK_KEYS = GMMA_KEYS + TMEM_KEYS + TILED_V2_KEYS + BUFFER_KEYS + SCALE_KEYS + METADATA_KEYS + COMMON_KEYS

STORE_REQUIRED = ("copy", "value_type", "smem")      # `store:` after a TMEM load
STORE_KEYS = STORE_REQUIRED + ("tiled_copy",)        # ... and the store's TiledCopy as built (TILED_COPY_KEYS)
DESCRIPTOR_KEYS = ("lbo", "sbo", "base_offset", "swizzle")
DESCRIPTOR_SWIZZLES = ("NONE", "32B", "64B", "128B")
DESCRIPTOR_INSTRUCTIONS = ("wgmma.", UMMA_INSTRUCTION)   # the MMAs that read a shared operand through a descriptor
TMEM_INSTRUCTIONS = ("tcgen05.ld.", "tcgen05.st.")
BANKS_CONFLICT_FREE, BANKS_REPORT = "conflict_free", "report"
BANKS_MODES = (BANKS_CONFLICT_FREE, BANKS_REPORT)
REDUCTIONS = ("K",)          # a K-split tiled MMA whose partial C tiles the kernel reduces
# which partition of the shared tile a load's copy reads: the tiled copy's partition_S (default), or the tiled MMA's
# partition_A / partition_B (CUTLASS's mixed-input and cp.async RS mainloops: copy(tiled_copy, tCsA, retile_D(..)))
SMEM_PARTITION_COPY, SMEM_PARTITION_MMA = "copy", "mma"
SMEM_PARTITIONS = (SMEM_PARTITION_COPY, SMEM_PARTITION_MMA)
MAJORS = ("K", "MN")
OPERANDS = tuple(o.value for o in Operand)
EXPECTS = tuple(e.value for e in Expect)  # pass | fail | undecided (beyond the solver) | unsupported (no model yet)

MAX_GLOBAL_ELEMENTS = 1 << 40   # a global tensor is never enumerated (the parser's own limit)
MAX_TMEM_ELEMENTS = 128 * 512    # cells of a CTA's tensor memory
