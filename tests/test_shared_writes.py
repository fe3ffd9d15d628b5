"""The DSL reader's account of shared-memory writes (verifier/dsl/shared_writes.py): the bytes a view may reach are
never fewer than its own, a swizzle's block included, so a write is said to miss a reader only where it does."""
from __future__ import annotations

from verifier.dsl.cute_types import memref_of
from verifier.dsl.flow import Allocation, Pointer, SharedView
from verifier.dsl.mlir_text import Value, Where
from verifier.dsl.shared_writes import SharedWrites, Written, _extent

HERE = Where("k.mlir", 1, 1)
TILE = '"(64,64):(64,1)"'            # 4096 half: 8192 bytes


def _view(offset: int, align: int, swizzle: str = "", layout: str = TILE, element: str = "f16") -> SharedView:
    allocation = Allocation(Value("%smem", HERE, "k"), 32768, align, 0, HERE)
    memref = memref_of(f"!cute.memref<{element}, smem, align<{align}>, {swizzle + ', ' if swizzle else ''}{layout}>")
    return SharedView(Value("%view", HERE, "k"), Pointer(allocation, offset, element, memref.ptr_swizzle), memref, HERE)


def test_a_view_spans_its_layout_s_bytes_from_its_pointer():
    assert _extent(_view(1024, 1024)) == (1024, 1024 + 8192)


def test_a_view_whose_extent_is_not_read_spans_its_allocation():
    assert _extent(_view(1024, 1024, layout='"(?,64):(64,1)"')) == (1024, 32768)      # an extent known at run time
    assert _extent(_view(1024, 1024, layout='"(64,64):(-1,64)"')) == (0, 32768)        # reaching before its pointer


def test_a_pointer_swizzle_keeps_addresses_in_their_block_of_2_to_the_m_plus_b():
    # Sw<3,4,3> flips bits 4..6 of the byte address: each address stays in its 128-byte block
    assert _extent(_view(1024, 1024, "S<3,4,3>")) == (1024, 9216)
    assert _extent(_view(1040, 1024, "S<3,4,3>")) == (1024, 9216 + 128)        # not on a block: whole blocks
    # an allocation whose base is not aligned to a block: a block more on each side
    assert _extent(_view(1024, 16, "S<3,4,3>")) == (896, 9216 + 128)


def test_a_composed_swizzle_rounds_the_view_s_end_to_its_block():
    # Sw<2,3,3> on element offsets flips bits 3..4: blocks of 32 elements from the view's pointer
    assert _extent(_view(0, 16, layout='"S<2,3,3> o 0 o (10,1):(1,0)"')) == (0, 64)


def test_a_write_misses_a_view_only_where_their_ranges_miss():
    view = _view(1024, 1024, "S<3,4,3>")
    a = view.pointer.allocation.value
    writes = SharedWrites((Written(a, 0, 16, HERE, "barriers"), Written(a, 9216, 17408, HERE, "sB")), 5)
    assert writes.over(view) == []
    touching = SharedWrites((Written(a, 9215, 9216, HERE, "one byte"),), 1)
    assert [w.what for w in touching.over(view)] == ["one byte"]
    other = SharedWrites((Written(Value("%other", HERE, "k"), 1024, 9216, HERE, "elsewhere"),), 1)
    assert other.over(view) == []
