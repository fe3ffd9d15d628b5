"""The sparse metadata kind: a structured-sparse wgmma's metadata from global memory to the sp-meta register."""
