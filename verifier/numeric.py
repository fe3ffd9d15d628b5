"""numpy, imported where a procedure needs it, with OpenBLAS's thread pool at one thread: the prover calls no BLAS
routine, and the default pool (one thread a core) costs more CPU than the import itself (benchmarks/slow_shapes.py,
section pitch).  The environment is restored at once, so a program that uses the verifier as a library and imports
numpy later itself is not changed; a user's own OPENBLAS_NUM_THREADS is respected."""
from __future__ import annotations

import os
import sys

BLAS_THREADS_VARIABLE = "OPENBLAS_NUM_THREADS"


def load_numpy() -> None:
    """Import numpy (once) with one BLAS thread unless the user chose a number."""
    if "numpy" in sys.modules or BLAS_THREADS_VARIABLE in os.environ:
        import numpy  # noqa: F401
        return
    os.environ[BLAS_THREADS_VARIABLE] = "1"
    try:
        import numpy  # noqa: F401
    finally:
        del os.environ[BLAS_THREADS_VARIABLE]


__all__ = ["load_numpy"]
