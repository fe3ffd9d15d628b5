"""`prescreen-cutlass`: the GEMM kernels CUTLASS's generator (`cutlass_library`) emits, each mapped to the CuTe
configuration its collective builder would build, proved before nvcc ever sees them."""
