"""Hypothesis strategies for random CuTe layouts."""
from hypothesis import strategies as st

from verifier.algebra import Layout
from verifier.algebra.inttuple import flatten_to_tuple, product


def _leaf_shapes(max_leaf: int, pow2: bool):
    return st.sampled_from([1, 2, 4, 8]) if pow2 else st.integers(1, max_leaf)


def shapes(max_leaf=6, max_rank=3, pow2=False):
    leaf = _leaf_shapes(max_leaf, pow2)
    mode = st.one_of(leaf, st.lists(leaf, min_size=1, max_size=3).map(tuple))
    return st.one_of(leaf, st.lists(mode, min_size=1, max_size=max_rank).map(tuple)).filter(
        lambda s: product(s) <= 512)


def _strides_like(shape, stride_leaf):
    if isinstance(shape, tuple):
        return st.tuples(*[_strides_like(s, stride_leaf) for s in shape])
    return stride_leaf


def layouts(max_leaf=6, max_rank=3, pow2=False, zero_strides=True, max_stride=64):
    if pow2:
        leaf = st.sampled_from(([0] if zero_strides else []) + [1, 2, 4, 8, 16, 32, 64])
    else:
        leaf = st.integers(0 if zero_strides else 1, max_stride)
    return shapes(max_leaf, max_rank, pow2).flatmap(
        lambda s: _strides_like(s, leaf).map(lambda d: Layout(s, d)))


def injective(layout: Layout) -> bool:
    vals = layout.values()
    return len(set(vals)) == len(vals)


def compact_layouts(pow2=True, max_rank=3):
    """Bijections onto [0, size): a random permutation of modes of a compact layout."""
    def build(shape_and_perm):
        shape, perm = shape_and_perm
        flat = flatten_to_tuple(shape)
        order = sorted(range(len(flat)), key=lambda i: perm[i])
        strides = [0] * len(flat)
        acc = 1
        for i in order:
            strides[i] = acc
            acc *= flat[i]
        from verifier.algebra.inttuple import unflatten
        return Layout(shape, unflatten(tuple(strides), shape))
    return shapes(pow2=pow2, max_rank=max_rank).flatmap(
        lambda s: st.permutations(list(range(len(flatten_to_tuple(s))))).map(lambda p: (s, p))).map(build)
