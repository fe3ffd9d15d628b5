"""The thread-slice kind: which slice of a tiled copy each thread takes (theorem 37)."""
