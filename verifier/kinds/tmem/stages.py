"""Theorem 38: the stages of a staged accumulator that its MMAs write are the stages the TMEM load reads.

A kernel that overlaps one tile's epilogue with the next tile's MMAs keeps S accumulators in tensor memory, the last
mode of the accumulator tensor (`make_fragment_C(append(shape, S))`): the MMAs of a tile write the stage its pipeline
gives, the epilogue's tcgen05.ld reads the stage its own pipeline state gives.  `accumulator_stages` states every
stage index each side slices the tensor at (an importer reads them from the kernel); a stage written and never read
is a tile's result lost (the load reads another stage in its place), a stage read and never written is read before
any MMA wrote it.  The sides are all the MMAs that write the tensor and the loads that read it.  Where the importer
links a side's slices to the accumulator pipeline's barrier waits (`mma_wait_offsets`, `load_wait_offsets`), each
slice must take the stage whose barrier its thread waited on (offset 0): the same stages, taken one step apart, pass
the first fact and not this one."""
from __future__ import annotations

from ...specfile.fields import stages_text
from ...specfile.vocabulary import ACCUMULATOR_STAGE_KEYS, ACCUMULATOR_WAIT_KEYS
from ...theorems.claims import Fact, Item, Plan, Suspect
from ...theorems.stage_sets import StageSets
from ...theorems.suspects import Suspects
from .config import ACCUMULATOR_STAGES, TmemCheck

MMA_SIDE, LOAD_SIDE = ACCUMULATOR_STAGE_KEYS      # the sides of `accumulator_stages:`
MMA_WAITED, LOAD_WAITED = ACCUMULATOR_WAIT_KEYS    # ... and their offsets past the stage waited on
SIDE_NAMES = {MMA_SIDE: "MMAs", LOAD_SIDE: "TMEM loads"}


def accumulator_stages(check: TmemCheck, suspects: Suspects) -> Plan:
    """Theorem 38: one fact, decided on the two sets of stage indices."""
    stages = check.accumulator_stages
    assert stages is not None
    sets = StageSets(stages.mma, stages.load)
    problem = sets.problem("written")
    actual = (f"the MMAs write {stages_text(list(stages.mma))}, the load reads {stages_text(list(stages.load))}"
              + (f": {problem}" if problem else ""))
    side = LOAD_SIDE if sets.reader_at_fault else MMA_SIDE
    blame = suspects.field(f"{ACCUMULATOR_STAGES}.{side}",
                           f"the stage indices {'the TMEM load slices' if side == LOAD_SIDE else 'the MMAs slice'} the "
                           "staged accumulator at")
    facts: list[Item] = [Fact("the MMAs write exactly the stages of the accumulator the TMEM load reads", not problem,
                              actual, "the same stages on both sides", blame, subject=side,
                              point=None if sets.first is None else {"stage": sets.first}, failing=sets.failing,
                              domain_size=sets.size)]
    for who, key, offsets in ((MMA_SIDE, MMA_WAITED, stages.mma_waited), (LOAD_SIDE, LOAD_WAITED, stages.load_waited)):
        if offsets is not None:
            facts.append(_waited_stage(who, offsets, suspects.field(
                f"{ACCUMULATOR_STAGES}.{key}", f"the stage the {SIDE_NAMES[who]} slice the accumulator at, against the "
                                               "barrier their thread waited on")))
    return facts


def _waited_stage(side: str, offsets: tuple[int, ...], blame: Suspect) -> Fact:
    """A side's slices take the stage of the barrier its thread waited on: the accumulator pipeline's barrier at
    index i tells of stage i alone (full, to the epilogue; empty, to the MMAs), so a slice of another stage after
    that wait takes a stage nothing has synchronised (the epilogue reads a stage the MMAs may still write, the MMAs
    write a stage the epilogue may still read)."""
    past = [d for d in offsets if d]
    actual = (f"a slice takes the stage {past[0]} past the one whose barrier its thread waited on" if past else
              "each linked slice takes the stage of the barrier waited on")
    return Fact(f"the {SIDE_NAMES[side]}' slices take the stage of the barrier their thread waited on", not past,
                actual, "the waited stage (offset 0)", blame, subject=side,
                point={"stage_offset": past[0]} if past else None, failing=len(past), domain_size=len(offsets))


__all__ = ["accumulator_stages"]
