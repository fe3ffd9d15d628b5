"""Theorem 41: a TMA barrier is armed for exactly the bytes its loads deliver in a phase.

The producer arms an mbarrier with `mbarrier.expect_tx` for the bytes of a phase; each TMA load that names the
barrier completes its transaction bytes on it (PTX ISA: cp.async.bulk.tensor's mbarrier::complete_tx::bytes), and
the phase completes when the armed bytes have all arrived.  Every load fills its shared tile (a stage of it) in this
CTA -- a multicast load's tile is filled by the loads of every CTA of its mask, the whole tile arriving here -- and a
2-CTA MMA's loads complete the tiles of both CTAs on the leader's barrier.  Armed for fewer bytes, the phase completes
before the tiles have landed (the consumer reads what is not there yet); for more, it never completes (a hang).
Decided on the check's integers."""
from __future__ import annotations

from ...theorems.claims import Fact, Plan
from ...theorems.suspects import Suspects
from .config import TransactionCheck


def transaction_bytes(check: TransactionCheck, suspects: Suspects) -> Plan:
    delivered = sum(load.bytes * load.ctas for load in check.loads)
    terms = " + ".join(f"{load.bytes}" + (f" x {load.ctas}" if load.ctas > 1 else "") + f" ({load.by})"
                       for load in check.loads)
    blame = suspects.field("transaction", "the bytes the barrier is armed for (mbarrier.expect_tx) and the loads "
                                          "that complete on it")
    outcome = "" if check.armed == delivered else \
        (" -- the phase completes before the tiles have landed" if check.armed < delivered else
         " -- the phase never completes")
    return [Fact("the barrier is armed for exactly the bytes its TMA loads deliver in a phase",
                 check.armed == delivered, f"armed for {check.armed} bytes{outcome}",
                 f"{delivered} bytes = {terms}", blame)]


__all__ = ["transaction_bytes"]
