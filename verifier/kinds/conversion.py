"""An operand converted in registers between its copy and the MMA (`smem_type` of an A / B tile): the fact that the
conversion keeps each value's register, shared by the tiled kind (the load into registers) and the smem_mma kind
(the TMA that fills the tile a wgmma RS atom's A is loaded from)."""
from __future__ import annotations

from ..specfile.model import ValueType
from ..theorems.claims import Fact, Suspect, Unsupported


def register_conversion_fact(source: ValueType, target: ValueType, operand: str,
                             suspect: Suspect) -> Fact | Unsupported:
    """An operand loaded as `source` and converted in registers to the MMA's `target` type: a conversion CUTLASS
    makes element by element, keeping each value's place (cute/convert.py) — proved; one that does not widen is
    refuted (the MMA's type cannot take the tile's values); another widening one has no model."""
    from ..cute.convert import MIXED_INPUT_NARROW, MIXED_INPUT_WIDE, register_conversion
    title = (f"the registers convert each {source.name} value of {operand} to the MMA's {target.name} in place "
             "(element by element)")
    where = register_conversion(source.name, target.name)
    if where is not None:
        return Fact(title, True, f"{source.name} -> {target.name}: {where}", "a conversion that keeps each value's "
                    "register", suspect, subject=operand)
    if source.bits >= target.bits:
        return Fact(title, False, f"{source.name} ({source.bits} bits) -> {target.name} ({target.bits} bits): the "
                    f"MMA's {target.name} cannot hold the tile's values (a conversion in registers widens a narrow "
                    "operand to the MMA's type)", f"a narrower type converted to {target.name}", suspect,
                    subject=operand, point={"value": 0}, domain_size=0)
    return Unsupported(f"no model of converting {source.name} to {target.name} in registers (modelled: CUTLASS's "
                       f"mixed-input conversions of {', '.join(MIXED_INPUT_NARROW)} to "
                       f"{' or '.join(MIXED_INPUT_WIDE)})")
