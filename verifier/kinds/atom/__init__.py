"""The atom kinds: an MMA atom alone (theorems 1, 2, 11) and a copy atom alone with its value type (theorem 3)."""
