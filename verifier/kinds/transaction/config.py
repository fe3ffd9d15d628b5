"""The transaction kind's configuration: an mbarrier a producer arms with `mbarrier.expect_tx` for a phase, and the
TMA loads that complete on it in that phase, each delivering its shared tile to this CTA's barrier:

    transaction:                        # (a transaction check names no atom)
      armed: 32768                      # the bytes expect_tx arms the barrier with for a phase
      loads:                            # the TMA loads whose transactions complete on it in that phase
        - {bytes: 16384, ctas: 1, by: "sA (tma_partition at k.mlir:228:7)"}   # the shared tile a load fills (its
        - {bytes: 16384, ctas: 1, by: "sB (tma_partition at k.mlir:234:7)"}   #   bytes a stage), times the CTAs whose
                                        #   tiles complete on this barrier (2 for a 2-CTA MMA's leader); `by` names it
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


from ...specfile.fields import Fields, refuse_keys, require_version2, show
from ...specfile.model import CheckSpec, Loc, SpecError, common_fields

TRANSACTION_KIND = "transaction"     # the kind's name in reports
TRANSACTION_KEY = "transaction"      # the key that makes a check a transaction check
TRANSACTION_KEYS = (TRANSACTION_KEY,)
TRANSACTION_FIELDS = ("armed", "loads")
LOAD_FIELDS = ("bytes", "ctas", "by")
NOT_READ = ("mma", "atom_layout", "permutation", "operand", "smem", "copy_for", "copy_mma", "value_type", "copy")
MAX_BYTES = 1 << 20                  # the transaction bytes one mbarrier phase counts (2^20 - 1 in PTX)
MAX_LOADS = 64
MAX_CTAS = 16                        # a cluster's CTAs


@dataclass(frozen=True)
class TransactionLoad:
    bytes: int          # the shared tile the load fills, a stage
    ctas: int           # the CTAs whose tiles complete on this barrier
    by: str
    loc: Loc


@dataclass(kw_only=True)
class TransactionCheck(CheckSpec):
    """A TMA barrier's armed bytes against the bytes its loads deliver (theorem 41)."""
    kind: ClassVar[str] = TRANSACTION_KIND
    armed: int
    loads: tuple[TransactionLoad, ...]

    def summary(self) -> str:
        return f"an mbarrier armed for {self.armed} bytes and its {len(self.loads)} TMA loads"


def reads_transaction_check(fields: Fields) -> bool:
    return fields.has(TRANSACTION_KEY)


def read_transaction_check(fields: Fields, named: CheckSpec) -> TransactionCheck:
    require_version2(fields, TRANSACTION_KEY)
    refuse_keys(fields, NOT_READ, "is not used by transaction checks")
    sub = fields.sub(TRANSACTION_KEY, TRANSACTION_FIELDS)
    sub.require(TRANSACTION_FIELDS)
    armed = sub.bounded_int("armed", 0, MAX_BYTES, "a number of bytes")
    loads: list[TransactionLoad] = []
    for load in sub.records("loads", MAX_LOADS, "load", "loads", LOAD_FIELDS):
        by = load.m["by"]
        if not isinstance(by, str) or not by.strip():
            raise SpecError(load.at("by"), f"'by' of {load.what} must be a text naming the load, not {show(by)}")
        loads.append(TransactionLoad(load.bounded_int("bytes", 1, MAX_BYTES, "a number of bytes"),
                                     load.bounded_int("ctas", 1, MAX_CTAS, "a number of CTAs"), by, load.loc))
    return TransactionCheck(**common_fields(named), armed=armed, loads=tuple(loads))
