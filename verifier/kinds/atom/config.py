"""The atom kinds' configurations: an MMA atom checked alone, and a copy atom checked alone with a value type.

Both are named by what a check names, nothing more: `mma:` (optionally with `operand:`), or `copy:` with
`value_type:`.  Keys of the other kinds are refused here, with the reason.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...specfile.fields import Fields, refuse_keys
from ...specfile.model import CheckKind, CheckSpec, MMAAtomSpec, ValueType, common_fields
from ...specfile.vocabulary import TILED_KEYS

NOT_AN_ATOM_CHECK = "is only used by checks that name both 'mma' and 'copy'"


@dataclass(kw_only=True)
class MmaAtomCheck(CheckSpec):
    """An MMA atom alone: its A, B and C layouts (or the one `operand`) against the instruction."""
    kind: ClassVar[str] = CheckKind.MMA
    mma: str


@dataclass(kw_only=True)
class CopyAtomCheck(CheckSpec):
    """A copy atom alone, moving `value_type`: its source and destination layouts against the instruction."""
    kind: ClassVar[str] = CheckKind.COPY
    copy: str
    value_type: ValueType


def read_atom_check(fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None) -> MmaAtomCheck | CopyAtomCheck:
    """The configuration of a check that names one atom (the loader has read its common fields into `named`)."""
    refuse_keys(fields, TILED_KEYS, NOT_AN_ATOM_CHECK)
    common = common_fields(named)
    if named.mma is not None:
        return MmaAtomCheck(**common)
    return CopyAtomCheck(**common)


def reads_atom_check(fields: Fields, mma: MMAAtomSpec | None) -> bool:
    """A check that names an MMA atom or a copy atom, not both (with both it is a path, another kind's)."""
    return fields.has("mma") != fields.has("copy")


