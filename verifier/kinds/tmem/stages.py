"""Theorem 38: the stages of a staged accumulator that its MMAs write are the stages the TMEM load reads.

A kernel that overlaps one tile's epilogue with the next tile's MMAs keeps S accumulators in tensor memory, the last
mode of the accumulator tensor (`make_fragment_C(append(shape, S))`): the MMAs of a tile write the stage its pipeline
gives, the epilogue's tcgen05.ld reads the stage its own pipeline state gives.  `accumulator_stages` states every
stage index each side slices the tensor at (an importer reads them from the kernel); a stage written and never read
is a tile's result lost (the load reads another stage in its place), a stage read and never written is read before
any MMA wrote it.  The sides are all the MMAs that write the tensor and the one load of the check."""
from __future__ import annotations

from ...specfile.fields import stages_text
from ...specfile.vocabulary import ACCUMULATOR_STAGE_KEYS
from ...theorems.claims import Fact, Plan
from ...theorems.suspects import Suspects
from .config import ACCUMULATOR_STAGES, TmemCheck

MMA_SIDE, LOAD_SIDE = ACCUMULATOR_STAGE_KEYS      # the sides of `accumulator_stages:`


def accumulator_stages(check: TmemCheck, suspects: Suspects) -> Plan:
    """Theorem 38: one fact, decided on the two sets of stage indices."""
    stages = check.accumulator_stages
    assert stages is not None
    written, read = set(stages.mma), set(stages.load)
    unread, unwritten = sorted(written - read), sorted(read - written)
    if unread:
        problem = f"{stages_text(unread)} written and never read"
    elif unwritten:
        problem = f"{stages_text(unwritten)} read and never written"
    else:
        problem = ""
    actual = (f"the MMAs write {stages_text(list(stages.mma))}, the load reads {stages_text(list(stages.load))}"
              + (f": {problem}" if problem else ""))
    side = LOAD_SIDE if unread or not unwritten else MMA_SIDE
    blame = suspects.field(f"{ACCUMULATOR_STAGES}.{side}",
                           f"the stage indices {'the TMEM load slices' if side == LOAD_SIDE else 'the MMAs slice'} the "
                           "staged accumulator at")
    left = unread or unwritten
    return [Fact("the MMAs write exactly the stages of the accumulator the TMEM load reads", not problem, actual,
                 "the same stages on both sides", blame, subject=side,
                 point={"stage": left[0]} if left else None, failing=len(left),
                 domain_size=len(written | read))]


__all__ = ["accumulator_stages"]
