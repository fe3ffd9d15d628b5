"""The element-wise kind: a kernel whose every output value is computed from its inputs at its own coordinate."""
