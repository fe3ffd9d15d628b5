"""The MMA atom a prescreen check names: shared by the builders' rules and the per-family rule modules, which the
builders import (so it lives apart from both)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MMAAtomFacts:
    """An MMA atom the check names, with its MMA_Traits when the spec must define it (GMMA atoms of any N)."""
    name: str
    fields: tuple[tuple[str, str], ...] = ()      # spec keys -> YAML text; empty: the atom library defines it


__all__ = ["MMAAtomFacts"]
