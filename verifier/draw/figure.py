"""What a picture holds, independent of how it is written: panels of cells on a grid (in cell units)."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class View(str, Enum):
    """Every picture `draw --view` names; a check draws the ones its kind has."""
    MMA = "mma"              # A, B and C TV layouts of the tiled MMA
    COPY = "copy"            # a copy's source and destination values
    SMEM = "smem"            # a shared tile's bytes (the tiled kind's offsets, a descriptor check's stage)
    BANKS = "banks"          # the tile coloured by bank
    TMEM = "tmem"            # tensor-memory cells and the registers they go to
    BYTES = "bytes"          # a buffer's bytes as written and as read
    FACTORS = "factors"      # a block-scaled MMA's scale-factor tile
    SCALES = "scales"        # shared scale slots: a blockwise GEMM's (and the accumulators they scale), a mixed-input
                             # GEMM's (and the A elements they multiply)
    TRANSPOSE = "transpose"  # a warp tile of B as AsyncTranspositionOperandB moves it: each element's lane, value

# CuTe's print_latex colours for threads (thread % 8), as RGB
CUTE_COLORS = ("#afafff", "#afffaf", "#ffffaf", "#ffafaf", "#d2d2ff", "#d2ffd2", "#ffffd2", "#ffd2d2")
CONFLICT = "#d00000"        # outline of conflicting lanes' elements and of a counterexample's cells
EXPECTED = "#0057e7"        # outline of where a counterexample's element was expected (the other side)
EMPTY = "#ffffff"


def thread_color(thread: int) -> str:
    return CUTE_COLORS[thread % len(CUTE_COLORS)]


def bank_color(bank: int) -> str:
    """32 distinguishable pastel colours, one per shared-memory bank (hue steps of 360/32, light)."""
    import colorsys
    r, g, b = colorsys.hls_to_rgb((bank * 11 % 32) / 32.0, 0.80, 0.65)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


@dataclass(frozen=True)
class Cell:
    row: int
    col: int
    label: str                                   # one or two short lines, "\n"-separated
    fill: str
    info: tuple[tuple[str, str], ...] = ()       # shown on hover: (name, value)
    outline: str | None = None
    mark: str = ""                               # why it is outlined, e.g. "theorem 2: CuTe's layout puts it here"


@dataclass
class Panel:
    title: str
    rows: int
    cols: int
    x: int = 0                                   # position of the top-left cell, in cells
    y: int = 0
    row_axis: str = "m"
    col_axis: str = "k"
    cells: list[Cell] = field(default_factory=list)


@dataclass
class Figure:
    title: str
    panels: list[Panel]
    caption: list[str] = field(default_factory=list)

    @property
    def width_cells(self) -> int:
        return max((p.x + p.cols for p in self.panels), default=0)

    @property
    def height_cells(self) -> int:
        return max((p.y + p.rows for p in self.panels), default=0)
