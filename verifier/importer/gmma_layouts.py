"""GMMA shared-memory layout atoms (`GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom_Bits`) read from CUTLASS's
headers and compared with the verifier's own facts (verifier/cute/gmma.py): an import reports each one as
agreeing, or as a disagreement with both values, so a CUTLASS that changes an atom cannot go unnoticed."""
from __future__ import annotations

import re

from ..algebra.layout import Layout
from ..algebra.swizzle import Swizzle
from ..algebra.layout_atoms import GMMA_ATOMS_BITS
from .report import Failure, Note
from .resolver import Resolver, ResolveError, normalize, qualified

ATOM_BITS = re.compile(r"^Layout_(K|MN)_(INTER|SW32|SW64|SW128)_Atom_Bits$")
POINTER_FLAGS = ("smem_ptr_flag", "smem_ptr_flag_bits<1>")    # smem_ptr_flag is smem_ptr_flag_bits<1>


def read_gmma_layout_atoms(resolver: Resolver) -> tuple[list[Note], list[Failure]]:
    notes: list[Note] = []
    failures: list[Failure] = []
    for name, decls in sorted(resolver.index.aliases.items()):
        m = ATOM_BITS.match(name)
        if not m:
            continue
        major, swizzle = m.group(1), m.group(2)
        b, shape, stride = GMMA_ATOMS_BITS[(major, swizzle)]
        fact = Layout(shape, stride)      # (mn, k) -> bit
        want = f"Sw<{b},4,3> o smem_ptr[1b] o {fact}"
        for decl in decls:
            where = (decl.header, decl.line)
            full = f"GMMA::{name}"
            try:
                value = resolver.alias_value(qualified(decl), decl.header)
            except ResolveError as e:
                failures.append(Failure(full, *where, str(e)))
                continue
            targs = getattr(value, "targs", None)
            if str(value) != "ComposedLayout" or not targs or len(targs) != 3:
                failures.append(Failure(full, *where, f"not a ComposedLayout<Swizzle, smem_ptr_flag, Layout>: {value}"))
                continue
            sw, flag, layout = targs
            same = (isinstance(sw, Swizzle) and (sw.B, sw.M, sw.S) == (b, 4, 3)
                    and normalize(str(flag)) in POINTER_FLAGS and isinstance(layout, Layout)
                    and layout.shape == fact.shape and layout.values() == fact.values())
            got = f"{sw} o {flag} o {layout}"
            if same:
                notes.append(Note(full, *where, f"{got}: agrees with the verifier's "
                                                f"GMMA::Layout_{major}_{swizzle}_Atom"))
            else:
                failures.append(Failure(full, *where, f"{got} disagrees with the verifier's GMMA::Layout_{major}_"
                                                      f"{swizzle}_Atom ({want}, verifier/cute/gmma.py)"))
    return notes, failures
