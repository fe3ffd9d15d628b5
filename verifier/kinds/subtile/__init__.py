"""The epilogue-subtile kind: the accumulator's registers stored subtile by subtile (theorem 39)."""
