"""The value-shuffled mixed-input kind (theorem 35)."""
