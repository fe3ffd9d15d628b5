"""Pictures of a check: its layouts drawn as CuTe's print_latex draws them, as deterministic SVG or one
self-contained HTML page (`python -m verifier draw`)."""
