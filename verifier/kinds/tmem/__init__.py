"""The TMEM kind: a tcgen05.ld / tcgen05.st tiled copy of a tensor-memory tile (make_tmem_copy)."""
