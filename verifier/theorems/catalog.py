"""The theorems of a check, with stable ids (used by reports, JUnit, SARIF and `--check` output)."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class TheoremId(str, Enum):
    MMA_BIJECTIVE = "mma.bijective"
    MMA_MATCHES_INSTRUCTION = "mma.matches_instruction"
    COPY_ROUTING = "copy.routing"
    COPY_DST_MATCHES_MMA = "copy.dst_matches_mma"
    COPY_SRC_MATCHES_DST = "copy.src_matches_dst"
    COPY_ADDRESSING = "copy.addressing"
    FRAGMENT_ALIASING = "fragment.aliasing"
    END_TO_END = "end_to_end"
    SMEM_INJECTIVE = "smem.injective"
    SMEM_IN_BOUNDS = "smem.in_bounds"
    MMA_TYPES = "mma.types"
    COPY_VALUE_TYPE = "copy.value_type"
    TMA_ENCODABLE = "tma.encodable"
    TMA_PLACEMENT = "tma.placement"
    GMMA_DESCRIPTOR = "gmma.descriptor"
    GMMA_END_TO_END = "gmma.end_to_end"
    SMEM_BANK_CONFLICTS = "smem.bank_conflicts"
    C_OWNERSHIP = "c.ownership"
    TMEM_COPY = "tmem.copy"
    TMEM_LANE_ACCESS = "tmem.lane_access"
    TMEM_ALLOCATION = "tmem.allocation"
    TMEM_STORE = "tmem.store"
    BUFFER_AGREEMENT = "buffer.agreement"
    SCALE_TMA = "scale.tma"
    SCALE_COPY = "scale.copy"
    SCALE_READ = "scale.read"
    SPARSE_METADATA_TMA = "sparse.metadata_tma"
    SPARSE_METADATA_READ = "sparse.metadata_read"
    SPARSE_METADATA_TMEM = "sparse.metadata_tmem"
    BLOCKWISE_LOAD = "blockwise.load"
    BLOCKWISE_READ = "blockwise.read"
    MIXED_SCALE_LOAD = "mixed.scale_load"
    MIXED_SCALE_READ = "mixed.scale_read"
    MIXED_SHUFFLED_A = "mixed.shuffled_a"
    GMMA_TRANSPOSE = "gmma.transpose"
    TMEM_ACCUMULATOR = "tmem.accumulator"
    THREAD_SLICE = "copy.thread_slice"
    TMEM_ACCUMULATOR_STAGES = "tmem.accumulator_stages"
    EPILOGUE_SUBTILES = "epilogue.subtiles"
    EPILOGUE_STORE_PIPELINE = "epilogue.store_pipeline"
    TMA_TRANSACTION_BYTES = "tma.transaction_bytes"
    EPILOGUE_SUBTILE_ORDER = "epilogue.subtile_order"
    ELEMENTWISE_COORDINATES = "elementwise.coordinates"
    GEMM_THREAD_PRODUCTS = "gemm.thread_products"
    GEMM_SHARED_FILL = "gemm.shared_fill"
    GEMM_K_TILE_LOOP = "gemm.k_tile_loop"


@dataclass(frozen=True)
class Theorem:
    number: int
    id: TheoremId
    title: str
    statement: str


T = TheoremId
THEOREMS: tuple[Theorem, ...] = (
    Theorem(1, T.MMA_BIJECTIVE, "MMA atom well-formed",
            "the operand TV layout is a bijection from (thread, value) onto the operand tile"),
    Theorem(2, T.MMA_MATCHES_INSTRUCTION, "MMA atom vs instruction",
            "the operand TV layout equals the instruction's fragment layout from the PTX ISA"),
    Theorem(3, T.COPY_ROUTING, "Copy routing",
            "S(src) = D(dst) for every (src, dst) pair the instruction routes, in bits and in value units"),
    Theorem(4, T.COPY_DST_MATCHES_MMA, "Register-side agreement",
            "F o right_inverse(R) o D (the copy's register side) equals the MMA operand TV layout, "
            "and right_inverse(R) is a right inverse of R"),
    Theorem(5, T.COPY_SRC_MATCHES_DST, "Source agreement",
            "for every hardware route src -> dst, partition_S's coordinate for src equals the one dst holds"),
    Theorem(6, T.COPY_ADDRESSING, "Addressing contract",
            "the addresses partition_S produces satisfy the instruction (contiguous, aligned rows / vectors) "
            "for every allowed base address, swizzle included"),
    Theorem(7, T.FRAGMENT_ALIASING, "Fragment aliasing",
            "retile_D puts each copied value at the register where partition_fragment expects its coordinate, "
            "and both recasts to 32-bit registers are valid"),
    Theorem(8, T.END_TO_END, "End to end",
            "for every lane and fragment slot, the element the hardware delivers through the addresses of (6) "
            "is smem[layout(coordinate the MMA instruction reads from that slot)]"),
    Theorem(9, T.SMEM_INJECTIVE, "Shared tile injective",
            "the shared-memory layout maps distinct coordinates of the operand tile to distinct elements"),
    Theorem(10, T.SMEM_IN_BOUNDS, "Shared tile in bounds",
            "every coordinate the copy's shared-memory partition touches lies inside the tile, and every offset "
            "inside the tile's footprint [0, cosize)"),
    Theorem(11, T.MMA_TYPES, "MMA types",
            "the MMA atom's value types are the instruction's operand types"),
    Theorem(12, T.COPY_VALUE_TYPE, "Copy value type",
            "the copy's value type has the MMA operand's element width (narrower for a converted C tile)"),
    Theorem(13, T.TMA_ENCODABLE, "TMA copy encodable",
            "cuTensorMapEncodeTiled accepts the tensor map make_tma_copy builds (box limits, inner box bytes against "
            "the swizzle span, 16-byte global strides) and every box's copy runs: 16-byte start offsets, "
            "128-byte aligned destinations for every allowed base address, the swizzle's alignment, whole boxes"),
    Theorem(14, T.TMA_PLACEMENT, "TMA placement",
            "every element (mn, k) of every stage lands at base + smem_layout(mn, k, stage) * sizeof(T), for every "
            "allowed base address"),
    Theorem(15, T.GMMA_DESCRIPTOR, "Descriptor agreement",
            "for every stage, k-block and M/N block of the tile and every (mn, k) a wgmma instruction reads, the "
            "descriptor make_gmma_desc builds (start, LBO, SBO, base offset, swizzle) makes the tensor core read "
            "base + smem_layout(mn, k, stage) * sizeof(T); its fields are encodable"),
    Theorem(16, T.GMMA_END_TO_END, "Hopper end to end",
            "the element wgmma consumes as A(m,k) / B(n,k) of each slice is the one TMA wrote for the tile's element "
            "(mn0+m, k0+k), through the TMA box and the descriptor, for every stage and base address, and no other "
            "element of the buffer is written to that byte"),
    Theorem(17, T.SMEM_BANK_CONFLICTS, "Bank-conflict free",
            "every shared-memory instruction of the copy (each warp, tile repeat and phase) takes its ideal number "
            "of wavefronts for every base address: lanes of one phase that touch one bank touch one word"),
    Theorem(18, T.C_OWNERSHIP, "C-store ownership",
            "a store of the C tile writes every element of the tile exactly once (one (thread, value) of the store "
            "per element; with `reduction: K`, once per K slice of the tiled MMA), nothing outside the tile, through "
            "an injective shared-memory layout"),
    Theorem(19, T.TMEM_COPY, "TMEM tiled copy",
            "for every thread of the warpgroup, copy call and register of the tiled copy make_tmem_copy builds, the "
            "tensor-memory cell tcgen05.ld / tcgen05.st moves (from the address the call's TMEM partition gives) is "
            "the cell of the tile coordinate CuTe pairs with that register; every coordinate is moved exactly once"),
    Theorem(20, T.TMEM_LANE_ACCESS, "TMEM lane access",
            "the lanes of a warp give tcgen05.ld / tcgen05.st one TMEM address, and every TMEM lane the instruction "
            "touches lies in the warp's quarter: lanes 32*(warp%4) to 32*(warp%4)+31"),
    Theorem(21, T.TMEM_ALLOCATION, "TMEM allocation",
            "tcgen05.alloc's column count is a power of two in [32, 512], and every cell of the TMEM tile lies in "
            "lanes [0, 128) and the allocated columns; with `tmem_view`, so does every cell of the tensor the tile "
            "is cut from, at its first column (of the stages its copies take, where `stages` names them), and the "
            "stages taken lie on cells of their own"),
    Theorem(22, T.TMEM_STORE, "Epilogue store after a TMEM load",
            "with `store:`, the copy make_tiled_copy_D builds over the TMEM copy writes every register the load filled "
            "to smem[layout(coordinate it holds)]: retile_S takes each register where the load left its coordinate, "
            "the instruction writes each element where the shared layout puts its source register's coordinate, "
            "rows contiguous and aligned"),
    Theorem(23, T.BUFFER_AGREEMENT, "Producer/consumer agreement",
            "every element the writer of a shared buffer stores (cp.async, TMA, a register store) lands at its own "
            "byte inside the allocation, and at the byte where the buffer's reader (ldmatrix, a descriptor, a "
            "vector load) looks for that same element, for every base address the allocation allows, swizzles "
            "included; with `stages`, at every stage index the kernel's pipeline takes, its stages at distinct "
            "offsets; with `stage_indices` on both sides, the writer fills exactly the stages the reader reads; "
            "with `wait_offsets` (and `fixed_after_wait`) on a side, each of its slices takes the stage whose "
            "barrier its thread waited on, none a fixed stage right after a wait on a cycling one; "
            "with `tma_map_of` and `tma_tiles_of`, a TMA side's partition takes the tiles of its map's tensor; with "
            "`tma_stores_write`, an MMA operand's TMA load reads no tensor the kernel's TMA stores write; with "
            "`mn_tile_at`, it takes its M (A) or N (B) tiles at other values than the other operand's"),
    Theorem(24, T.SCALE_TMA, "Scale factors: TMA",
            "the TMA box CuTe derives for a stage of a block-scaled MMA's scale-factor tile is encodable, covers the "
            "stage exactly at 128-byte aligned destinations, and brings every factor (mn, k) of every CTA tile and "
            "stage from the global byte layout_SF(mn0+mn, k0+k) to the byte the shared layout gives it"),
    Theorem(25, T.SCALE_COPY, "Scale factors: tcgen05.cp",
            "each tcgen05.cp make_utccp_copy issues reads, through its shared-memory descriptor, the bytes of the "
            "factors CuTe's TMEM layout puts where the instruction writes them (every copy of the four 32-lane "
            "sub-partitions), every factor of the stage is written once a sub-partition, inside the allocated "
            "columns, and the descriptors are encodable"),
    Theorem(26, T.SCALE_READ, "Scale factors: the MMA's read",
            "for every k-block of the tile, every row (A) or column (B) the MMA multiplies and every scale vector of "
            "its K, the tensor-memory byte tcgen05.mma reads as that row's factor, through the scale address and "
            "factor ID CuTe gives it, in each of the four sub-partitions, is the one CuTe's TMEM layout gives the "
            "factor of (mn, k); the vector size is the instruction's and the ID one its layout allows"),
    Theorem(27, T.SPARSE_METADATA_TMA, "Sparse metadata: TMA",
            "the TMA box CuTe derives for a stage of a structured-sparse MMA's metadata E (make_tma_copy_A_sm90"
            "<uint64_t>; SM100: make_tma_atom_A_sm100<uint64_t>) is encodable, covers the stage exactly at 128-byte "
            "aligned destinations, the stages do not overlap, no two elements of E share a shared position, and "
            "every element (m, k) of every CTA tile and stage comes from the global element LayoutE(m0+m, k0+k) to "
            "the position SmemLayoutE(m, k, stage), bit for bit"),
    Theorem(28, T.SPARSE_METADATA_READ, "Sparse metadata: the wgmma's sp-meta",
            "for every thread of the consumer warpgroups, every wgmma of the K tile (M repeat, k-block) and every "
            "sp-meta bit the instruction reads under its sp-sel, the metadata bit CuTe's path delivers there (the "
            "shared element partition_S of make_tiled_copy_E reads through the ELayout, retile_D, recast<uint32_t>) "
            "is the one of the row and chunk, at the chunk's bit, that wgmma.mma_async.sp reads that bit as, in the "
            "rows of A the same wgmma reads (partition_A) and its k-block's K; the sp-sel is one the type allows, "
            "ValTypeE the instruction's bits a logical element, each wgmma's metadata one 32-bit register.  SM100 "
            "(tcgen05.mma.sp): ValTypeE, K and every MMA's sparsity selector (bit 0 of the address CuTe hands it) "
            "are the kind's, and for every part tCtE(_, _, i) an MMA is handed, every row and chunk, the TMEM bits "
            "the instruction reads under its [sp-meta-tmem] and selector are those CuTe's TMEM layout holds that "
            "row's and chunk's metadata in -- the read layout drawn only in the PTX ISA's Figures 262-267 and "
            "inferred from JAX's Mosaic GPU (.kind::f16, f8f6f4, i8; .kind::tf32 unsupported)"),
    Theorem(29, T.BLOCKWISE_LOAD, "Blockwise scales: the load",
            "for every CTA tile, k-tile and stage of a blockwise-scaled GEMM, the scale loader (the scale warp's "
            "predicated cp.async copy_if, or the TMA box CuTe derives) writes every shared slot of the stage exactly "
            "once, with the global scale layout_SF gives the block the shared layout says that slot holds; the shared "
            "layout gives each (mn, k) the slot of its block (mn / gMN, k / gK), distinct blocks and stages distinct "
            "slots, and layout_SF one scale a block"),
    Theorem(30, T.BLOCKWISE_READ, "Blockwise scales: the accumulator's read",
            "for every thread, accumulator value and scale K block, the shared slot the reader hands the thread (SM90: "
            "partition_C of the broadcast scale view by the tiled MMA; SM100: partition_D of the epilogue-tiled view "
            "by the tcgen05.ld tiled copy, through accum()'s registers) is the slot of the scale block of the "
            "accumulator element the thread holds in hardware (the wgmma accumulator fragment; the TMEM cell "
            "tcgen05.ld reads): accumulator (m, n) of K block kb is multiplied by SFA(m / gM, kb) * SFB(n / gN, kb)"),
    Theorem(31, T.MIXED_SCALE_LOAD, "Mixed-input scales: the load",
            "the TMA box CuTe derives for a stage of a mixed-input GEMM's scale (zero-point) tile (SmemLayoutScale, "
            "(BLK_M, 1) a stage) is encodable, covers the stage exactly at 128-byte aligned destinations with the "
            "transaction bytes CUTLASS expects, the stages do not overlap, and every scale of row m of every CTA tile, "
            "scale column and stage comes from the global element (m0+m, column) to the slot SmemLayoutScale(m, 0, "
            "stage); the column the producer loads for k-tile kt is kt / reload_factor"),
    Theorem(32, T.MIXED_SCALE_READ, "Mixed-input scales: the A element's factor",
            "for every thread, k-tile, k-block, A element of the k-block's fragment and stage, the register "
            "dequantize_A_kblock multiplies the converted A(m, k) by (adds as its zero point) holds, after the k-block "
            "0 copy make_tiled_copy_A(Copy_Atom<AutoVectorizingCopy, Scale>) makes from partition_A of the scale tile, "
            "the slot of row m, where (m, k) is the element the RS wgmma reads from that register (PTX ISA fragment); "
            "and the column loaded for the k-tile is the group (k0 + k) / group_size of every k of the tile, for every "
            "group size the check names; lookup-table scales (conversion: lookup_table): the table "
            "lookup_table_convert converts A(m, k) with (its negative one, and the positive one derived from it at "
            "k-block 0) is row m's"),
    Theorem(33, T.SPARSE_METADATA_TMEM, "Sparse metadata: tensor memory",
            "for a tcgen05.mma.sp's metadata E (SM100): each tcgen05.cp.128x128b make_utccp_copy issues for a stage "
            "reads, through its shared-memory descriptor, the metadata CuTe's TMEM layout (tmem_e_frg) puts in each "
            "tensor-memory element it writes; the copies write every element of the TMEM tile exactly once, inside "
            "tensor memory and the allocated columns; the descriptors are encodable; and every k-block's MMA of every "
            "k-tile is handed (tCtE(_, _, math_mma_e_stage_idx * UtccpReuseCnt + k_block)) the part of the TMEM tile "
            "that holds E of the rows and K of the A slice the same MMA multiplies (partition_A)"),
    Theorem(35, T.MIXED_SHUFFLED_A, "Value-shuffled mixed-input A",
            "for every CTA tile, k-tile (stage), thread, fragment value, M block and k-block of a mixed-input GEMM "
            "whose narrow A is value-shuffled (compute_memory_reordering_atom): TMA brings each element (m, k) from "
            "the reordered global layout to SmemLayoutA(m, k, stage) (an encodable box covering the stage at "
            "128-byte aligned destinations, distinct elements at distinct places); the copy from partition_A into "
            "the buffer make_tensor_like lays out like it, and LayoutAwareConvert's converter of each chunk, make "
            "the register the RS wgmma reads as A(m, k) (PTX ISA fragment) from that very element; no conversion "
            "writes a register of another k-block"),
    Theorem(34, T.GMMA_TRANSPOSE, "B transposed in shared memory",
            "CUTLASS's AsyncTranspositionOperandB moves B from the MN-major tile TMA (or cp.async) wrote to the "
            "K-major tile wgmma reads: for every stage, warp tile, lane and value, the lane loads element (n, k) from "
            "the byte the writer put it at and stores it at the byte wgmma's descriptor reads B(n, k) from, for every "
            "base address; distinct elements go to distinct bytes and every (n, k) of the stage is moved exactly "
            "once; every byte a lane stores is loaded only before the store — by its own warp in that call (before "
            "its __syncwarp) or an earlier one, or in an earlier call a barrier separates — (no race on the in-place "
            "buffer); and every element of a k-block is stored by a call fenced before that k-block's wgmma"),
    Theorem(36, T.TMEM_ACCUMULATOR, "TMEM accumulator placement",
            "with `accumulator:`, every element (row, column) of the TMEM tile lies where the tcgen05.mma writes "
            "D: at the address of its MMA's first element plus the lane and column offsets of the instruction's data "
            "path layout (PTX ISA Layouts A, B, D, E, F, G: M, .cta_group and .ws choose it), for every row this "
            "CTA holds and every MMA tile along N"),
    Theorem(37, T.THREAD_SLICE, "Thread slice",
            "the threads that run a tiled copy take its slices as its layouts mean them: for some block of as many "
            "consecutive threads as the copy has, starting at a warp inside the launch, thread first + u hands "
            "get_slice / partition the coordinate u (an expression of its index), and where the copy's instruction "
            "ties a thread's data to its place (ldmatrix / stmatrix: its lane; tcgen05.ld / st: its lane and its "
            "warp's lane quarter) the slice is that very place (a block that permutes the slices among its "
            "threads: unsupported); where the check states which threads run the copy (`runs:`), those threads, in "
            "groups of the copy's, each take slice u at their u-th; over CTAs (`unit: cta`), the CTAs whose TMA "
            "loads reach one CTA's tile take its slices, each once"),
    Theorem(38, T.TMEM_ACCUMULATOR_STAGES, "TMEM accumulator stages",
            "with `accumulator_stages` in a TMEM check of a staged accumulator (its last mode the stage: one tile's "
            "MMAs write a stage while the epilogue drains another): the stages the MMAs that write it (their D) "
            "slice it at are exactly the stages the tcgen05.ld loads slice it at -- no stage written and never read "
            "(a tile's result lost), none read and never written; with `mma_wait_offsets` / `load_wait_offsets`, "
            "each side's slices take one stage past the one whose barrier its thread waited on, the same on both "
            "sides (both a step past: the stages renamed alike)"),
    Theorem(39, T.EPILOGUE_SUBTILES, "Epilogue subtiles",
            "an accumulator stored one subtile at a time (a shared C tile smaller than the tiled MMA's): for every "
            "subtile, thread and value of the register-to-shared tiled copy, the accumulator register the kernel hands "
            "that value holds the element (m, n) of the tile (partition_C through the C fragment's layout) that the "
            "copy's partition_D of the subtile and the store's place of the subtile put it at; and every register of "
            "the fragment is stored exactly once"),
    Theorem(40, T.EPILOGUE_STORE_PIPELINE, "Epilogue store pipeline",
            "with `pipeline:` in an epilogue-subtile check: every subtile's TMA store reads its stage of the shared "
            "subtile after the copy's writes are fenced for the async proxy and its threads met at a barrier; and no "
            "subtile's copy writes a stage a TMA store issued before it may still be reading -- after each store the "
            "kernel's cp.async.bulk.wait_group.read N (followed by a barrier) leaves at most the last N stores "
            "reading, none bounded where there is no such wait, and the stores still reading when the first copy "
            "runs (a loop's previous pass) count too"),
    Theorem(41, T.TMA_TRANSACTION_BYTES, "TMA transaction bytes",
            "a transaction check: the bytes a producer arms an mbarrier with (mbarrier.expect_tx) for a phase are "
            "exactly the bytes the TMA loads that complete on it deliver -- each load's shared tile, a stage of it "
            "(a multicast tile arriving whole; a partition copied with another atom than it was made with: its "
            "boxes times the copies' box), times the CTAs whose tiles complete on this barrier (a 2-CTA MMA's "
            "leader); fewer lets the phase complete before the tiles land, more never completes it"),
    Theorem(42, T.EPILOGUE_SUBTILE_ORDER, "Epilogue subtile order",
            "a subtile-order check: an epilogue loop that loads an accumulator stage from tensor memory a subtile a "
            "pass, copies it into a stage of a staged shared subtile and TMA-stores a stage: each store puts the "
            "subtile that the last copy of this pass into the stage it reads wrote (none: a stage an earlier tile "
            "left) at that subtile's place; the subtiles loaded tile the stage, and no two stores share a place"),
    Theorem(43, T.ELEMENTWISE_COORDINATES, "Element-wise coordinates",
            "an element-wise check: a kernel that divides tensors of one shape by their tilers, slices every side at "
            "one tile, partitions it at one thread and computes each output value lane by lane from input values: "
            "for every tile of the output, thread and value, the input values it is computed from are the inputs' "
            "elements at its own coordinate, and the output's threads and values cover its tile once"),
    Theorem(44, T.GEMM_THREAD_PRODUCTS, "Thread GEMM products",
            "a thread-gemm check: CuTe's gemm on each thread's own partitions (one UniversalFMA a product) adds A's "
            "value (i, k) times B's value (j, k) into C's value (i, j); C's threads and values cover the block's tile "
            "once, and every product multiplies A's element of C's row by B's element of C's column at one k, each "
            "row taking every k of the tile once"),
    Theorem(45, T.GEMM_SHARED_FILL, "Thread GEMM shared fills",
            "a thread-gemm check with fills: each shared tile the gemm reads holds the global tile's element at each "
            "coordinate -- its layout gives distinct coordinates distinct elements, every value the threads copy "
            "lands at the coordinate it has in the global tile, every element is written, the global tile is C's "
            "block along the operand's rows, and both operands copy the same k-tiles"),
    Theorem(46, T.GEMM_K_TILE_LOOP, "Thread GEMM k-tile loop",
            "a thread-gemm or operand-fills check with its k-tile loop: the loop around the gemm runs its variable "
            "over 0, 1, ..., K-1, each once, for every k-tile count K >= 1, and (where the copies' places against "
            "the gemm are stated) each pass's gemm multiplies its own k-tile"),
)

BY_ID: dict[TheoremId, Theorem] = {t.id: t for t in THEOREMS}
ALL: tuple[TheoremId, ...] = tuple(t.id for t in THEOREMS)
