"""The transpose kind: wgmma's B transposed in shared memory by CUTLASS's AsyncTranspositionOperandB (theorem 34)."""
