"""An operand converted in registers between its copy and the MMA (`smem_type` of an A / B tile): the fact that the
conversion keeps each value's register, shared by the tiled kind (the load into registers) and the smem_mma kind
(the TMA that fills the tile a wgmma RS atom's A is loaded from)."""
from __future__ import annotations

from ..algebra.types import bare_type_name
from ..specfile.fields import Fields, read_choice
from ..specfile.model import SpecError, ValueType
from ..theorems.claims import Fact, Refusal, Suspect, Unsupported

LOOKUP_TABLE_INT4_RULE = "Lookup table only supports int4 being the quant type now."   # dequantize_A_kblock
# `conversion:` of a check whose operand the registers convert: how (absent: element by element, LayoutAwareConvert)
CONVERSION_KEY = "conversion"
CONVERSION_LOOKUP_TABLE = "lookup_table"     # CUTLASS's UseScaleLookupTable: lookup_table_convert with the scales
CONVERSIONS = (CONVERSION_LOOKUP_TABLE,)


def read_lookup_table(fields: Fields, needs: str | None) -> bool:
    """`conversion: lookup_table` of a check: True when given; `needs`, a key the check must then give too."""
    if not fields.has(CONVERSION_KEY):
        return False
    read_choice(fields.m[CONVERSION_KEY], fields.at(CONVERSION_KEY), f"'{CONVERSION_KEY}' of {fields.what}",
                CONVERSIONS, upper=False)
    if needs is not None and not fields.has(needs):
        raise SpecError(fields.at(CONVERSION_KEY), f"'{CONVERSION_KEY}' of {fields.what} says how the registers "
                                                   f"convert the shared tile's type: give it with '{needs}'")
    return True


def register_conversion_fact(source: ValueType, target: ValueType, operand: str, suspect: Suspect,
                             lookup_table: bool = False) -> Fact | Refusal | Unsupported:
    """An operand loaded as `source` and converted in registers to the MMA's `target` type: a conversion CUTLASS
    makes element by element, keeping each value's place (cute/convert.py) — proved; one that does not widen is
    refuted (the MMA's type cannot take the tile's values); another widening one has no model.  `lookup_table`
    (`conversion: lookup_table`): CUTLASS's lookup-table mode (lookup_table_convert) makes the conversion instead."""
    from ..cute.convert import MIXED_INPUT_NARROW, MIXED_INPUT_WIDE, register_conversion
    if lookup_table:
        return _lookup_table_fact(source, target, operand, suspect)
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


def _lookup_table_fact(source: ValueType, target: ValueType, operand: str, suspect: Suspect) -> Fact | Refusal:
    """The lookup-table mode's conversion (cute/convert.py, lookup_table_convert): an int4b_t source (CUTLASS's
    static_assert), each destination byte taken from a table of 8-bit values of the MMA's type."""
    from ..cute.convert import LOOKUP_TABLE_NARROW, LOOKUP_TABLE_WIDE, lookup_table_conversion
    title = (f"the lookup tables convert each {source.name} value of {operand} to the MMA's {target.name} in place "
             "(lookup_table_convert)")
    where = lookup_table_conversion(source.name, target.name)
    if where is not None:
        return Fact(title, True, f"{source.name} -> {target.name}: {where}", "a conversion that keeps each value's "
                    "register", suspect, subject=operand)
    if bare_type_name(source.name) != LOOKUP_TABLE_NARROW:
        return Refusal(LOOKUP_TABLE_INT4_RULE, f"the lookup-table mode converts a {source.name} {operand} "
                                               "(dequantize_A_kblock's static_assert)", suspect)
    return Fact(title, False, f"{source.name} -> {target.name} ({target.bits} bits): lookup_table_convert writes "
                f"one byte a value, taken from a table of 8-bit values", f"an 8-bit float MMA type "
                f"({' or '.join(LOOKUP_TABLE_WIDE)})", suspect, subject=operand, point={"value": 0}, domain_size=0)
