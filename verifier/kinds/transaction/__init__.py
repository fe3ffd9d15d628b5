"""The transaction kind: a TMA barrier armed for the bytes its loads deliver (theorem 41)."""
