"""The MMA atom a prescreen check names: shared by the builders' rules and the per-family rule modules, which the
builders import (so it lives apart from both).  The atom families' own module defines it (`cute/mma_families.py`)."""
from __future__ import annotations

from ..cute.mma_families import MMAAtomFacts

__all__ = ["MMAAtomFacts"]
