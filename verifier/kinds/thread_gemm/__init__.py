"""The thread-gemm kind: a block's GEMM computed by CuTe's gemm on the threads' own partitions of shared tiles."""
