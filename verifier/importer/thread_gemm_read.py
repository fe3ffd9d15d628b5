"""What the C++ reader reads of a thread-gemm (thread_gemm.py), as the thread-gemm record carries it to the spec
writer: each fragment as one origin a thread and the values' layout, each fill's copies, C's block coordinates."""
from __future__ import annotations

from dataclasses import dataclass

from ..algebra.layout import Layout
from ..algebra.swizzle import ComposedLayout


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


TILE = ""                           # a FillEvent's `into` for the shared tile itself


@dataclass(frozen=True)
class FillEvent:
    """One copy of a fill, where it stands: into the shared tile (TILE) or a register tensor, of the global k-tile
    `k_tile` (as written) or of the register tensor `registers`."""
    at: tuple[int, int]
    into: str
    k_tile: str | None = None
    registers: str | None = None


@dataclass(frozen=True)
class FillRead:
    smem: Layout | ComposedLayout   # the shared tile's layout (its stages included)
    smem_text: str                  # ... as the spec writes it
    destination: FragmentRead       # (thread, value) -> index in the shared tile (a stage of it)
    sources: tuple[SourceRead, ...]   # each global partition the copies read, in the kernel's order
    lines: tuple[int, ...]          # the copies' lines
    events: tuple[FillEvent, ...] = ()   # the copies, in the kernel's order


@dataclass(frozen=True)
class KLoopRead:
    """`for (v = start; v <condition> a*K + b; v += step)` around the gemm, K the k-tile count."""
    line: int
    variable: str
    start: int
    condition: str                  # <, <= or != (the kind's K_CONDITIONS)
    bound: tuple[int, int]          # (a, b): the bound a*K + b
    step: int
    direct: bool                    # every fill's copies take k-tile `variable` itself
    # each operand's k-tile at the gemm of pass v, an expression of v and K (the spec's language); empty where the
    # copies' order is not read (`order_not_read` says why)
    reads: tuple[tuple[str, str], ...] = ()
    order_not_read: str = ""


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


__all__ = ["OperandFillsRead", "FragmentRead", "SourceRead", "FillEvent", "FillRead", "ThreadGemmRead", "TILE",
           "KLoopRead"]
