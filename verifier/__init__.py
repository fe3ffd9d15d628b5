"""cute-layout-verifier: a symbolic prover of CuTe layout equivalence (copy atoms vs MMA atoms)."""
__version__ = "0.1.0"
