"""The scale kind: a block-scaled MMA's scale factors from global memory to the tensor core (theorems 24-26)."""
