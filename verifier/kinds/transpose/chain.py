"""The chain of one element of B's transposition, as one would trace it by hand: the warp tile and the warp, call and
slot that move it, the lane and value, the coordinate (n, k), the byte the writer put it at and the one the lane
loads, the byte the lane stores it to and the one wgmma's descriptor reads B(n, k) from."""
from __future__ import annotations

from collections.abc import Mapping

from ...cute.transpose import Transposition
from ...symbolic.expr import Expr, evaluate
from ...theorems.claims import ChainLine, Trace
from .ownership import owner_table
from .setup import TransposeSetup


def _int(e: Expr) -> int:
    return int(evaluate([e], {})[0])


class TransposeChain:
    def __init__(self, setup: TransposeSetup) -> None:
        self.setup = setup

    def lines(self, trace: Trace, point: Mapping[str, int]) -> tuple[str, list[ChainLine]]:
        return self.element_lines(int(point.get("base", 0)) * self.setup.align, int(point.get("stage", 0)),
                                  int(point.get("tile_n", 0)), int(point.get("tile_k", 0)), int(point.get("lane", 0)),
                                  int(point.get("value", 0)))

    def element_lines(self, base: int, stage: int, tile_n: int, tile_k: int, lane: int,
                      value: int) -> tuple[str, list[ChainLine]]:
        s = self.setup
        t = s.transposition
        title = f"stage {stage}, warp tile (n {tile_n}, k {tile_k}), lane {lane}, value {value}, buffer at {base:#x}"
        if not isinstance(t, Transposition):
            return title, [ChainLine("transposition", str(t))]
        per = t.warpgroup_tile // t.warp_tile
        owner = owner_table(t).get((tile_n % per, tile_k))
        mover = next((wt for wt in t.schedule if (wt.n, wt.k) == (tile_n % per, tile_k)), None)
        out = [ChainLine("warp tile", f"warpgroup tile {tile_n // per} along N, its warp tile (n {tile_n % per}, k "
                                      f"{tile_k}): " + (f"warpgroup {owner[0]} warp {owner[1]} (CTA warp "
                                                        f"{4 + 4 * owner[0] + owner[1]}), call {owner[2]}, slot "
                                                        f"{mover.slot if mover else '?'}" if owner else
                                                        "moved by no warp"))]
        inside = t.coord_of(lane, value)
        w = t.warp_tile
        n, k = tile_n * w + inside % w, tile_k * w + inside // w
        out.append(ChainLine("lane", f"the tiled copy's (lane {lane}, value {value}) -> (n {inside % w}, k "
                                     f"{inside // w}) of the warp tile = B(n {n}, k {k})"))
        wrote = _int(s.written_address(base, n, k, stage))
        loaded = _int(s.load_address(base, n, k, stage))
        by = "TMA" if s.check.by_tma else s.check.copy
        out.append(ChainLine("written", f"{by} put B({n},{k}) of stage {stage} at {wrote:#x}"))
        out.append(ChainLine("load", f"sB({n},{k},{stage}) (position-independent) = {loaded:#x}: "
                                     + ("the byte written" if loaded == wrote else "NOT the byte written")))
        stored = _int(s.store_address(base, n, k, stage))
        read = _int(s.descriptor_address(base, n, k, stage))
        out.append(ChainLine("store", f"gmma_sB({n},{k},{stage}) = {stored:#x}"))
        r = s.read
        out.append(ChainLine("wgmma reads", f"B(n {n % r.rows}, k {k % r.k_instr}) of N block {n // r.rows}, k-block "
                                            f"{k // r.k_instr} through the descriptor at {read:#x}: "
                                            + ("the byte stored" if read == stored else "NOT the byte stored")))
        return title, out
