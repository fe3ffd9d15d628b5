"""Check kinds: each a package behind one protocol (base.py), registered once (registry.py).

- atom:      an MMA atom alone (theorems 1, 2, 11) or a copy atom alone (theorem 3);
- tiled:     a tiled MMA's operand copied between shared memory and registers (theorems 1-12, 17, 18);
- smem_mma:  a wgmma / tcgen05.mma operand read from shared memory through a descriptor, filled by TMA (1, 2, 9,
             11-16);
- tmem:      a tcgen05.ld / st tiled copy of a tensor-memory tile (3, 19-22).
"""
