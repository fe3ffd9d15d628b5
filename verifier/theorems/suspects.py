"""The spec fields a refutation points at: built with each claim, from the spec's recorded locations."""
from __future__ import annotations

from ..specfile.model import CheckSpec, Spec
from .claims import Suspect


class Suspects:
    """Suspects of one check: each method names a field of the spec (or of an atom it uses) and where it is."""

    def __init__(self, spec: Spec, check: CheckSpec) -> None:
        self.spec, self.check = spec, check
        self.mma = spec.mma_atoms.get(check.mma) if check.mma else None
        self.copy = spec.copy_atoms.get(check.copy) if check.copy else None

    def field(self, key: str, what: str) -> Suspect:
        """A key of the check itself (smem, value_type, copy_for, ...)."""
        return Suspect(what, self.check.field_locs.get(key, self.check.loc))

    def mma_layout(self, operand: str, why: str = "") -> Suspect:
        atom = self.mma
        if atom is None:
            return self.field("mma", "the check's MMA atom")
        what = f"the {operand} layout of MMA atom {atom.name} (MMA_Traits::{operand}Layout)"
        what += f": {why}" if why else ""
        return Suspect(what, atom.field_locs.get(operand.lower(), atom.loc), atom.source)

    def mma_type(self, operand: str) -> Suspect:
        atom = self.mma
        assert atom is not None
        key = operand.lower()
        member = "ValTypeSFA / ValTypeSFB" if key == "sf" else f"ValType{operand.upper()}"   # sf: the scale factors
        return Suspect(f"the {key} type of MMA atom {atom.name} (MMA_Traits::{member})",
                       atom.field_locs.get(f"types.{key}", atom.field_locs.get("types", atom.loc)), atom.source)

    def mma_instruction(self) -> Suspect:
        atom = self.mma
        assert atom is not None
        return Suspect(f"the instruction of MMA atom {atom.name} (its Op's asm)",
                       atom.field_locs.get("instruction", atom.loc), atom.source)

    def mma_shape(self) -> Suspect:
        atom = self.mma
        assert atom is not None
        return Suspect(f"the shape of MMA atom {atom.name} (MMA_Traits::Shape_MNK)",
                       atom.field_locs.get("shape_mnk", atom.loc), atom.source)

    def copy_traits(self) -> Suspect:
        atom = self.copy
        if atom is None:
            return self.field("copy", "the check's copy atom")
        return Suspect(f"the src/dst layouts of copy atom {atom.name} (Copy_Traits) against {atom.instruction}",
                       atom.field_locs.get("dst", atom.loc), atom.source)

    def copy_ref(self) -> Suspect:
        atom = self.copy
        if atom is None:
            return self.field("copy", "the check's copy atom")
        return Suspect(f"the reference layout of copy atom {atom.name} (Copy_Traits::RefLayout)",
                       atom.field_locs.get("ref", atom.loc), atom.source)

    def value_type(self, why: str) -> Suspect:
        return self.field("value_type", why)

    def copy_variant(self) -> Suspect:
        return self.field("copy", f"the copy atom {self.check.copy}: its variant (N or T) or its traits")

    def smem(self, why: str = "the shared-memory layout (row pitch, swizzle) or the copy variant for this "
                              "majorness") -> Suspect:
        return self.field("smem", why)

    def tiled_mma(self, why: str) -> Suspect:
        return self.field("atom_layout" if "atom_layout" in self.check.field_locs else "permutation", why)
