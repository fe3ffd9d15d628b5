"""What the C++ reader reads of a thread-gemm (thread_gemm.py), as the thread-gemm record carries it to the spec
writer: each fragment as one origin a thread and the values' layout, each fill's copies, C's block coordinates."""
from __future__ import annotations

from dataclasses import dataclass

from ..algebra.layout import Layout
from ..algebra.swizzle import ComposedLayout
from .k_tile_loop import KLoopRead


@dataclass(frozen=True)
class FragmentRead:
    """Thread t's value x is the tile's coordinate of colexicographic index origins[t] + values(x)."""
    origins: tuple[int, ...]
    values: Layout
    tile: tuple[int, int]


@dataclass(frozen=True)
class SourceRead:
    tensor: str                     # the global tensor copied from (its pointer, as written)
    tile_at: str                    # the block coordinate of its tile along the operand's rows
    k_tiles: tuple[str, ...]        # the k-tile each copy from it takes, in the kernel's order
    fragment: FragmentRead          # (thread, value) -> index in the global tile
    partition: str = ""             # the global partition the copies index (tAgA), as written
    k_mode: int = 0                 # its mode the copies index by k-tile
    copied_at: tuple[tuple[int, int], ...] = ()   # the (line, column) of the copy taking each of k_tiles


@dataclass(frozen=True)
class FillRead:
    smem: Layout | ComposedLayout   # the shared tile's layout (its stages included)
    smem_text: str                  # ... as the spec writes it
    destination: FragmentRead       # (thread, value) -> index in the shared tile (a stage of it)
    sources: tuple[SourceRead, ...]   # each global partition the copies read, in the kernel's order
    lines: tuple[int, ...]          # the copies' lines


@dataclass(frozen=True)
class ThreadGemmRead:
    tile: tuple[int, int, int]
    threads: int
    a: FragmentRead
    b: FragmentRead
    c: FragmentRead
    fills: tuple[FillRead, FillRead]
    c_at: tuple[str, str]
    store_line: int
    notes: tuple[str, ...]
    staged: tuple[int, ...] = ()    # lines of the copies of k-blocks into the registers the gemm multiplies
    k_loop: KLoopRead | None = None   # the loop that runs the k-tiles (None: `k_loop_not_read` says why)
    k_loop_not_read: str = ""


@dataclass(frozen=True)
class OperandFillsRead:
    """The fills of an MMA's shared operand tiles, the MMA's products another check's."""
    threads: int
    c_at: tuple[str, str]
    fills: tuple[tuple[str, tuple[int, int], FillRead], ...]   # (a or b, its shared tile's (rows, k), its fill)
    store_line: int
    k_loop: KLoopRead | None = None
    k_loop_not_read: str = ""


__all__ = ["OperandFillsRead", "FragmentRead", "SourceRead", "FillRead", "ThreadGemmRead"]
