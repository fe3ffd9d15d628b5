"""Spec files: loading YAML (format versions 1 and 2) into validated, located objects.

The loader (and ruamel.yaml) is imported when `load_spec` / `load_specs` is first used, not with the package:
a warm start reports cached results without reading YAML."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .model import CheckSpec, CopyAtomSpec, Loc, MMAAtomSpec, Spec, SpecError, TiledSpec, ValueType

if TYPE_CHECKING:
    from .loader import load_spec, load_specs

__all__ = ["CheckSpec", "CopyAtomSpec", "Loc", "MMAAtomSpec", "Spec", "SpecError", "TiledSpec", "ValueType",
           "load_spec", "load_specs"]


def __getattr__(name: str) -> Any:
    if name in ("load_spec", "load_specs"):
        from . import loader
        return getattr(loader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
