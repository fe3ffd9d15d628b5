"""The chain of one scale factor, as one would trace it by hand: its global byte, the TMA box element bringing it,
its shared byte, the tcgen05.cp that moves it and the TMEM bytes it lands in, and the MMA k-block that reads it
(its scale address, factor ID and the bytes the tensor core reads)."""
from __future__ import annotations

from collections.abc import Mapping

from ...cute import blockscaled as BS
from ...hardware import tcgen05_cp as CP
from ...hardware import umma_scale as US
from ...theorems.claims import ChainLine, Trace
from .setup import UTCCP_SHAPE, ScaleSetup


class ScaleChain:
    def __init__(self, setup: ScaleSetup) -> None:
        self.setup = setup

    def lines(self, trace: Trace, point: Mapping[str, int]) -> tuple[str, list[ChainLine]]:
        s = self.setup
        if trace is Trace.SCALE_COPY:
            return self.copy_lines(point)
        if trace is Trace.SCALE_READ:
            k = int(point.get("k_block", 0)) * s.k_mma + int(point.get("vector", 0)) * s.vs
            odd = int(point.get("odd_tile", 0))
            mma_row = int(point.get("n", 0)) if s.remapped else int(point.get("mn", 0))
            return self.factor_lines(mma_row + odd * s.odd_shift, k, 0, (odd, 0), odd)
        k = int(point.get("factor", 0)) * s.vs
        if "n_tile" in point:        # the odd-tile glue: column n of N tile t is row n (+ the shift) of its SF tile
            t = int(point["n_tile"])
            return self.factor_lines(int(point.get("n", 0)) + (t % 2) * s.odd_shift, k, 0,
                                     (t, int(point.get("tile_k", 0))), t % 2)
        return self.factor_lines(int(point.get("mn", 0)), k, int(point.get("stage", 0)),
                                 (int(point.get("tile_mn", 0)), int(point.get("tile_k", 0))))

    def factor_lines(self, mn: int, k: int, stage: int, tile: tuple[int, int],
                     odd: int = 0) -> tuple[str, list[ChainLine]]:
        """Factor (mn, k) of the CTA tile `tile`, in `stage`: every step from the global tensor to the MMA (`odd`:
        the tile is an odd N tile of a CTA N of 64 / 192, whose MMA reads from row odd_shift on)."""
        s = self.setup
        check = s.check
        out: list[ChainLine] = []
        row, kk = tile[0] * s.mn + mn, tile[1] * s.tile_k + k
        if s.remapped and s.load_layout is not None:
            g = BS.value_at(s.load_layout, row, kk)
            column = tile[0] * s.rows_read + mn - (tile[0] % 2) * s.odd_shift
            out.append(ChainLine("global", f"the collective's remapped SFB coordinates ({row}, {kk}) = byte {g}; "
                                           f"layout_SF({column}, {kk}) = byte {BS.value_at(check.gmem, column, kk)}  "
                                           f"[N tile {tile[0]} of N = {s.rows_read}, SF tile row {mn}]"))
        else:
            g = BS.value_at(check.gmem, row, kk)
            out.append(ChainLine("global", f"layout_SF({row}, {kk}) = byte {g}  "
                                           f"[tile ({tile[0]}, {tile[1]}) of {s.tiles[0]} x {s.tiles[1]}]"))
        sb = BS.value_at(s.smem_view, mn, k, stage) if s.smem_view.rank() > 2 else BS.value_at(s.smem_view, mn, k)
        out.append(ChainLine("shared", f"smem_layout({mn}, {k}, stage {stage}) = byte {sb}"))
        if s.tma is not None:
            local = sb - stage * s.stage_bytes
            element, run, index = local // s.tma.elem_bytes, 1, []
            for b in s.tma.box:
                index.append((element // run) % b)
                run *= b
            read = BS.value_at(s.tile_index, *tile) + local % s.tma.elem_bytes + sum(
                i * gs for i, gs in zip(index, s.tma.global_strides))
            out.append(ChainLine("TMA", f"box {s.tma.box} element {tuple(index)} (stage byte {local}) reads global "
                                        f"byte {read}" + ("" if read == g else f"  -- not {g}")))
        cells = []
        for p in range(BS.REPLICAS):
            e = BS.value_at(s.tmem_view, mn, p, k)
            lane, column, byte = BS.tmem_fields(e)
            cells.append(f"lane {lane} column {check.tmem_base + column} byte {byte}")
        out.append(ChainLine("TMEM", "tmem_layout puts it at " + "; ".join(cells)))
        copy = next((c for c in s.copies if 0 <= sb - stage * s.stage_bytes - c.smem_start
                     < BS.UTCCP_ROWS * BS.UTCCP_ROW_BYTES), None)
        if copy is not None:
            off = sb - stage * s.stage_bytes - copy.smem_start
            row = (off % 128) // 16 + 8 * (off // copy.sbo if copy.sbo else 0)
            lane0, column0 = copy.tmem_element // BS.TMEM_LANE_UNIT, (copy.tmem_element % BS.TMEM_LANE_UNIT) // 4
            d = CP.destination(UTCCP_SHAPE, lane0, column0, row, off % 16, 0)
            out.append(ChainLine("tcgen05.cp", f"copy {copy.index} (source +{copy.smem_start}, SBO {copy.sbo}) "
                                               f"row {row} byte {off % 16} -> lane {int(d.lane)}+32p, column "
                                               f"{check.tmem_base + int(d.column)}, byte {int(d.byte)}"))
        if s.vec is not None and k // s.k_mma < s.k_blocks:
            kb, j = k // s.k_mma, (k % s.k_mma) // s.vs
            lane0, col0, sf_id = BS.tmem_fields(s.tsf_element(kb))
            if s.remapped:          # an odd N tile: the address two columns on, its columns from row odd_shift
                col0 += odd * BS.ODD_TILE_COLUMNS
            mma_row = mn - odd * s.odd_shift if s.remapped else mn
            cell = US.scale_cell(lane0, col0, sf_id, mma_row, j, 0)
            out.append(ChainLine("MMA", f"k-block {kb} gets the scale address lane {lane0} column "
                                        f"{check.tmem_base + col0}, ID {sf_id}; tcgen05.mma reads vector {j} of "
                                        f"{'row' if check.scaled == 'A' else 'column'} {mma_row} at lane "
                                        f"{int(cell.lane)}+32p, column {check.tmem_base + int(cell.column)}, byte "
                                        f"{int(cell.byte)}"))
        return f"scale factor ({mn}, {k}) of {check.scaled}, stage {stage}", out

    def copy_lines(self, point: Mapping[str, int]) -> tuple[str, list[ChainLine]]:
        s = self.setup
        row, byte, p = int(point.get("row", 0)), int(point.get("byte", 0)), int(point.get("subpartition", 0))
        stage = int(point.get("stage", 0))
        out: list[ChainLine] = []
        for copy in s.copies:
            lane0, column0 = copy.tmem_element // BS.TMEM_LANE_UNIT, (copy.tmem_element % BS.TMEM_LANE_UNIT) // 4
            src = stage * s.stage_bytes + copy.smem_start + (row % 8) * 16 + (row // 8) * copy.sbo + byte
            d = CP.destination(UTCCP_SHAPE, lane0, column0, row, byte, p)
            out.append(ChainLine(f"copy {copy.index}", f"reads shared byte {src}, writes lane {int(d.lane)} column "
                                                       f"{s.check.tmem_base + int(d.column)} byte {int(d.byte)}"))
        return f"row {row}, byte {byte}, sub-partition {p} of each tcgen05.cp, stage {stage}", out
