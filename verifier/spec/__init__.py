"""Spec files: loading YAML (format version 1) into validated, located objects."""
from .loader import load_spec, load_specs
from .model import CheckSpec, CopyAtomSpec, Loc, MMAAtomSpec, Spec, SpecError, TiledSpec, ValueType

__all__ = ["CheckSpec", "CopyAtomSpec", "Loc", "MMAAtomSpec", "Spec", "SpecError", "TiledSpec", "ValueType",
           "load_spec", "load_specs"]
