"""The scale kind's neighbours for `--suggest`: CuTe's own layouts instead of hand-written ones (the shared SF tile
Sm1xxBlkScaledConfig builds, tmem_sf_frg's TMEM tile), the SF buffer aligned as CUTLASS's SharedStorage aligns it,
the other TMEM data path, and the scale type and vector size the MMA instruction takes.  The TMEM column of the SF
tile is not searched: it follows the accumulators' columns, which the check does not hold."""
from __future__ import annotations

from typing import Iterator

from ...cute import blockscaled as BS
from ...hardware import umma_scale as US
from ...specfile.model import Spec
from ..base import Change, Neighbour
from .config import DEFAULT_SMEM_ALIGN, ScaleCheck

SF_ALLOC_CPP = {BS.SfAlloc.DUPLICATED_4BY1: "UMMA::TmemAllocMode::ScaleFactorDuplicated4by1",
                BS.SfAlloc.DUPLICATED_2BY2: "UMMA::TmemAllocMode::ScaleFactorDuplicated2by2"}


def scale_changes(spec: Spec, check: ScaleCheck) -> Iterator[Neighbour]:
    atom = spec.mma_atoms.get(check.mma)
    if check.smem_align < DEFAULT_SMEM_ALIGN:
        yield (Change("smem_align", str(check.smem_align), str(DEFAULT_SMEM_ALIGN),
                      f"alignas({DEFAULT_SMEM_ALIGN}) on the SF buffer (CUTLASS's SharedStorage aligns each array)"),
               {"smem_align": DEFAULT_SMEM_ALIGN})
    if check.tmem is not None:
        yield (Change("tmem", str(check.tmem), "(removed)", "tmem_sf_frg<SF, VS, ...>(tCsSF) (CuTe's TMEM SF "
                      "layout of the shared tile's shape)"), {"tmem": None})
    for other in BS.SfAlloc:
        if other is not check.tmem_alloc:
            cpp = f"tmem_sf_frg<..., {SF_ALLOC_CPP[other]}>"
            yield Change("tmem_alloc", check.tmem_alloc.value, other.value, cpp), {"tmem_alloc": other}
    if atom is None:
        return
    sf_type = atom.types.get("sf")
    if sf_type is not None and check.value_type is not None and sf_type.name != check.value_type.name:
        yield (Change("value_type", check.value_type.name, sf_type.name, f"ElementSF = cutlass::{sf_type.name} (the "
                      "MMA atom's ValTypeSFA / ValTypeSFB)"), {"value_type": sf_type})
    k = atom.shape_mnk[2]
    vec = US.scale_vec_of(atom.instruction or "", k)
    if isinstance(vec, US.ScaleVec) and k % vec.factors == 0 and k // vec.factors != check.sf_vec_size:
        vs = k // vec.factors
        yield (Change("sf_vec_size", str(check.sf_vec_size), str(vs), f"SFVecSize = {vs} (the instruction's "
                      f".scale_vec::{vec.value} for its K of {k})"), {"sf_vec_size": vs})
    shape = check.sf_shape
    if shape.problem() is None:
        smem = BS.sf_smem(shape, check.stages)
        if str(smem) != str(check.smem):
            yield (Change("smem", str(check.smem), str(smem), "Sm1xxBlkScaledConfig's SmemLayoutSF (the collective "
                          "builder's, tile_to_shape of the SF atom over the stages)"), {"smem": smem})

