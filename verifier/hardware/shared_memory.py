"""How much shared memory one thread block may use, per architecture: the opt-in limit the driver reports as
cudaDevAttrMaxSharedMemoryPerBlockOptin (an H200: 232,448 bytes = 227 KiB; the SM's 228 KiB less the 1 KiB the
hardware keeps per block), which CUTLASS's builders also size their pipelines by (sm90_smem_capacity_bytes,
sm100_smem_capacity_bytes).  A CTA's buffers must fit in it; the theorems and the prescreen read it from here."""
from __future__ import annotations

SM90_BLOCK_SHARED_BYTES = 232448       # sm_90 (Hopper): 227 KiB opt-in
SM100_BLOCK_SHARED_BYTES = 232448      # sm_100 (Blackwell datacenter): 227 KiB opt-in

# architecture (compute capability x 10) -> the most shared memory a block may use
BLOCK_SHARED_BYTES = {90: SM90_BLOCK_SHARED_BYTES, 100: SM100_BLOCK_SHARED_BYTES}

__all__ = ["BLOCK_SHARED_BYTES", "SM90_BLOCK_SHARED_BYTES", "SM100_BLOCK_SHARED_BYTES"]
