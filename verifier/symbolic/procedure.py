"""Which decision procedure decides an obligation, and the settings of a run: plain data every report reads (a
warm run reads them back from the proof cache without importing the procedures themselves)."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..outcome import Status

ENUMERATION_LIMIT = 1 << 22     # points; beyond this no enumeration (decision, cross-check or count)


class Procedure(str, Enum):
    Z3 = "z3-bitvector"
    ENUMERATION = "enumeration"
    EVALUATION = "evaluation"     # a fact computed exactly on integers (no quantified variables)
    STRIDES = "strides"           # a layout's injectivity read off its strides (symbolic/strides.py)


@dataclass(frozen=True)
class Settings:
    timeout_s: float = 30.0
    cross_check: bool = False
    enumeration_limit: int = ENUMERATION_LIMIT
    procedure: Procedure | None = None     # force one procedure where it applies (tests compare the verdicts)


DEFAULT_SETTINGS = Settings()


@dataclass
class CrossCheck:
    procedure: Procedure
    status: Status | None          # None: the second procedure does not apply (note says why)
    seconds: float = 0.0
    note: str = ""
