"""The chain of a TMEM check at one (thread, register, call), for witnesses and `explain`:
CuTe's partition -> the coordinate and its TMEM cell; the call's address -> the cell the instruction moves; the
warp's lane quarter."""
from __future__ import annotations

from collections.abc import Mapping

from ...cute.tmem import DP_CELLS
from ...hardware.tmem_copy import WARP_LANE_QUARTER, lane_quarter, register_cell
from ...theorems.claims import ChainLine, Trace
from .theorems import TmemSetup


def _cell(address: int) -> str:
    return f"lane {address // DP_CELLS}, column {address % DP_CELLS}"


class TmemChain:
    def __init__(self, setup: TmemSetup) -> None:
        self.setup = setup

    def lines(self, trace: Trace, point: Mapping[str, int]) -> tuple[str, list[ChainLine]]:
        return self.register_lines(point.get("thread", 0), point.get("register", 0), point.get("call", 0))

    def register_lines(self, thread: int, register: int, call: int) -> tuple[str, list[ChainLine]]:
        s = self.setup
        warp, lane = thread // 32, thread % 32
        shape = s.check.tmem.shape
        coord_index = int(s.reg_frag((thread, register, call)))
        coord = _coordinate(coord_index, shape)
        cute_addr = int(s.coord_to_addr(coord_index)) if coord_index < s.tile_size else None
        base = int(s.tmem_frag((thread, 0, call)))
        cell = register_cell(s.form.shape, s.form.num, lane, register)
        hw = base + DP_CELLS * int(cell.lane) + int(cell.column)
        first = lane_quarter(warp)
        hw_lane = hw // DP_CELLS
        verb = "loads it into the register" if s.form.load else "stores the register into it"
        title = f"thread {thread} (warp {warp}, lane {lane}), register {register} of copy call {call}"
        out = [
            ChainLine("CuTe partition", f"make_tmem_copy pairs it with coordinate {coord} of the {shape} tile"
                      + (f", whose cell is {_cell(cute_addr)} (tmem layout {s.coord_to_addr})" if cute_addr is not None
                         else f": outside the tile's {s.tile_size} coordinates")),
            ChainLine("call address", f"the call's TMEM partition starts at {_cell(base)} (taddr {base:#x})"),
            ChainLine("instruction", f"{s.form.instruction}: lane {lane}'s register {register} is the cell "
                      f"+{int(cell.lane)} lanes, +{int(cell.column)} columns: {_cell(hw)}; the warp {verb}"),
            ChainLine("agreement", "the same cell" if cute_addr == hw else
                      "a different cell: the register does not hold the coordinate CuTe says"),
            ChainLine("lane quarter", f"warp {warp} may access lanes {first}..{first + WARP_LANE_QUARTER - 1}: lane "
                      f"{hw_lane} is {'inside' if first <= hw_lane < first + WARP_LANE_QUARTER else 'outside'}"),
        ]
        return title, out


def _coordinate(index: int, shape: object) -> tuple[int, ...]:
    """Colex index -> the coordinate of a (flat or nested) rank-2 shape, as (row, column) of its modes."""
    from ...algebra.inttuple import product
    modes = shape if isinstance(shape, tuple) else (shape,)
    out = []
    rest = index
    for i, m in enumerate(modes):
        n = int(product(m))
        out.append(rest % n if i < len(modes) - 1 else rest)
        rest //= n
    return tuple(out)
