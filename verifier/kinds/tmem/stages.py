"""Theorem 38: the stages of a staged accumulator that its MMAs write are the stages the TMEM load reads.

A kernel that overlaps one tile's epilogue with the next tile's MMAs keeps S accumulators in tensor memory, the last
mode of the accumulator tensor (`make_fragment_C(append(shape, S))`): the MMAs of a tile write the stage its pipeline
gives, the epilogue's tcgen05.ld reads the stage its own pipeline state gives.  `accumulator_stages` states every
stage index each side slices the tensor at (an importer reads them from the kernel); a stage written and never read
is a tile's result lost (the load reads another stage in its place), a stage read and never written is read before
any MMA wrote it.  The sides are all the MMAs that write the tensor and the loads that read it.  Where the importer
links a side's slices to the accumulator pipeline's barrier waits (`mma_wait_offsets`, `load_wait_offsets`: how many
stages past the one whose barrier its thread waited on they take), each side takes one offset and, where both are
linked, the same one: the same stages taken one step apart on one side pass the first fact and not this one, while
both sides a step past their waits rename the stages alike, which is harmless."""
from __future__ import annotations

from ...specfile.fields import stages_text
from ...specfile.vocabulary import ACCUMULATOR_STAGE_KEYS, ACCUMULATOR_WAIT_KEYS
from ...theorems.claims import Fact, Item, Plan
from ...theorems.stage_sets import WRITER_SIDE, StageSets, WaitOffsets
from ...theorems.suspects import Suspects
from .config import ACCUMULATOR_STAGES, TmemCheck

MMA_SIDE, LOAD_SIDE = ACCUMULATOR_STAGE_KEYS      # the sides of `accumulator_stages:`
MMA_WAITED, LOAD_WAITED = ACCUMULATOR_WAIT_KEYS    # ... and their offsets past the stage waited on
SIDE_NAMES = {MMA_SIDE: "MMAs", LOAD_SIDE: "TMEM loads"}     # the pipeline's writer and reader


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
    if stages.mma_waited is not None or stages.load_waited is not None:
        offsets = WaitOffsets(stages.mma_waited, stages.load_waited)
        who, key = (MMA_SIDE, MMA_WAITED) if offsets.at_fault == WRITER_SIDE else (LOAD_SIDE, LOAD_WAITED)
        facts.append(Fact(
            "the MMAs' and the TMEM loads' slices take the same stage of the barrier their thread waited on",
            offsets.holds, offsets.actual(SIDE_NAMES[MMA_SIDE], SIDE_NAMES[LOAD_SIDE]),
            "one offset a side, the same on both sides",
            suspects.field(f"{ACCUMULATOR_STAGES}.{key}", f"the stage the {SIDE_NAMES[who]} slice the accumulator at, "
                                                          "against the barrier their thread waited on"),
            subject=who, point=offsets.point, failing=0 if offsets.holds else 1, domain_size=1))
    return facts


__all__ = ["accumulator_stages"]
