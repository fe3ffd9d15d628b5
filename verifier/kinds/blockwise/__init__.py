"""Blockwise-scaled GEMMs: the scales of A or B, global memory -> shared memory -> the accumulators (29, 30)."""
