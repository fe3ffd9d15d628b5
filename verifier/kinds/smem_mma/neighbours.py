"""The smem_mma kind's neighbours for `--suggest`: CuTe's descriptor instead of hand-written fields, make_tma_copy's
box, the buffer aligned to the swizzle's repeat, and the atom of the other major-ness."""
from __future__ import annotations

import re
from typing import Iterator

from ...specfile.model import Spec
from ..base import Change, Neighbour
from .config import SmemMmaCheck


def gmma_changes(spec: Spec, check: SmemMmaCheck) -> Iterator[Neighbour]:
    if check.descriptor:
        yield (Change("descriptor", str(check.descriptor), "(removed)",
                      "make_gmma_desc<Major>(smem tensor) (CuTe's descriptor, not hand-written fields)"),
               {"descriptor": {}})
    if check.tma_box is not None:
        yield (Change("tma_box", str(list(check.tma_box)), "(removed)", "make_tma_copy(SM90_TMA_LOAD{}, gmem, "
                      "smem_layout) (the box CuTe derives from the layout)"), {"tma_box": None})
    if check.tma_swizzle is not None:
        yield (Change("tma_swizzle", check.tma_swizzle.value, "(removed)", "make_tma_copy(SM90_TMA_LOAD{}, gmem, "
                      "smem_layout) (the swizzle CuTe reads off the layout)"), {"tma_swizzle": None})
    for align in (1024, 512, 256):
        if check.smem_align != align:
            yield (Change("smem_align", str(check.smem_align or 128), str(align),
                          f"alignas({align}) on the shared-memory buffer"), {"smem_align": align})
    name = check.mma or ""
    for a, b in (("GMMA::Major::MN", "GMMA::Major::K"), ("GMMA::Major::K", "GMMA::Major::MN")):
        for m in re.finditer(re.escape(a), name):
            other = name[:m.start()] + b + name[m.end():]
            if other in spec.mma_atoms:
                yield Change("mma", name, other, f"MMA_Atom<{other}>"), {"mma": other}
