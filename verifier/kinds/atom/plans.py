"""The atom theorems' plans (1, 2, 11 of an MMA atom; 3 of a copy atom), for the atom kinds and for every kind
whose check runs its atoms' theorems first (tiled, smem_mma, tmem)."""
from __future__ import annotations

from ...algebra.inttuple import AlgebraError
from ...cute.copy import TypedCopyAtom
from ...specfile.model import CheckSpec, Spec
from ...theorems.catalog import TheoremId
from ...theorems.claims import Item, Plan
from ..base import Context, Group, Planned, PlanOf, atom_key
from ..cute_objects import copy_atom, copy_model_for, mma_model_for
from . import theorems as AT

T = TheoremId
ALL_OPERANDS = ("A", "B", "C")


def mma_plans(spec: Spec, mma: str, operands: tuple[str, ...], context: Context) -> dict[TheoremId, PlanOf]:
    """Theorems 1, 2 and 11 of MMA atom `mma` on `operands` (a renaming theorem 2 finds is a line of information)."""
    atom = spec.mma_atoms[mma]
    suspects = context.suspects
    holds = AT.proved_by(context.settings)

    def bijective() -> Plan:
        return [item for op in operands for item in AT.bijective(atom, op, suspects)]

    def matches() -> Plan:
        model = mma_model_for(atom)
        renamed = AT.relabelling_info(atom, model, holds)
        if renamed:
            context.info.append(renamed)
        out: list[Item] = []
        for op in operands:
            p = AT.matches_instruction(atom, op, model, suspects, holds)
            if not isinstance(p, list):
                return p
            out += p
        if atom.e is not None:         # a structured-sparse MMA: its metadata layout against sp-meta's fragment
            from .metadata import metadata_matches
            out += metadata_matches(atom, suspects)
        elif "e" in atom.types:        # tcgen05.mma.sp: the metadata in tensor memory, its type against the kind's
            from .metadata import tmem_metadata_type
            out += tmem_metadata_type(atom, suspects)
        return out

    return {T.MMA_BIJECTIVE: bijective, T.MMA_MATCHES_INSTRUCTION: matches,
            T.MMA_TYPES: lambda: AT.types_match(atom, list(operands), suspects)}


def atom_group(spec: Spec, mma: str, operands: tuple[str, ...], context: Context) -> Group:
    """Theorems 1, 2 and 11 of MMA atom `mma` on `operands` as a group of their own, shared by the checks that use
    an atom of this definition (in any spec file): the plans read the atom, its hardware model and the settings, and
    name only the atom's fields as suspects but for the metadata's sp_sel (a check's `mma` key), which a proof
    never shows."""
    plans = mma_plans(spec, mma, operands, context)
    return Group(tuple(plans), lambda: Planned(plans), shared=("mma_plans", atom_key(spec.mma_atoms[mma]), operands))


def copy_plan(spec: Spec, check: CheckSpec, copy: str, context: Context) -> PlanOf:
    """Theorem 3 of copy atom `copy` moving the check's value type."""
    atom = spec.copy_atoms[copy]
    suspects = context.suspects

    def plan() -> Plan:
        bits = check.value_type.bits if check.value_type else None
        typed: TypedCopyAtom | AlgebraError | None = None
        if bits is not None:
            try:
                typed = copy_atom(atom).with_value_bits(bits)
            except AlgebraError as e:   # CuTe refuses Copy_Atom<Op, T> for this T
                typed = e
        model = copy_model_for(atom, None, bits)
        return AT.copy_routing(atom.name, atom.thr_id, atom.src, atom.dst, model, typed, suspects, atom.instruction)
    return plan
