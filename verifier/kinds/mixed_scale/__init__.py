"""The mixed-input scale kind: an SM90 mixed-input GEMM's scales or zero points (theorems 31, 32)."""
