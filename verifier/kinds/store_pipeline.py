"""A staged shared tile's TMA-store pipeline, as theorem 40 takes it: the stage each store reads after a copy wrote it,
whether a proxy fence and a barrier separate them, and how many stores the waits leave reading.  Nothing in it is the
subtile kind's own (`subtiles:` reads it): any check of a tile stored through staged shared memory by TMA may state it:

    pipeline: {stages: [0, 1, 0, 1], fenced: [true, true, true, true], pending: [1, 1, 1, 1], pending_at_start: []}

`reads` (optional, one item a store): the stage each store reads where it is not the one its copy wrote.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ruamel.yaml.comments import CommentedSeq

from ..specfile.fields import Fields, is_int, show
from ..specfile.model import SpecError
from ..theorems.claims import Fact, Plan, Suspect

PIPELINE_KEY = "pipeline"
PIPELINE_FIELDS = ("stages", "fenced", "pending", "pending_at_start", "reads")
PIPELINE_REQUIRED = PIPELINE_FIELDS[:4]
MAX_STORES = 256                  # stores of one pass
MAX_PLACE = 1 << 24               # a stage's class: its place (an element offset) or its index's residue


@dataclass(frozen=True)
class StorePipeline:
    """The TMA stores' reads of the staged shared subtile (theorem 40): per subtile the stage its copy writes and its
    store reads (a class: equal classes are one place), whether a proxy fence and a barrier of the copy's threads
    separate the copy from the store, and how many stores may still be reading after its store's wait (None: no
    wait orders the next copy); and the stages of the stores still reading when the first copy runs.  `reads`: the
    stage each store reads, where a store reads another than its copy wrote (None: each reads its copy's)."""
    stages: tuple[int, ...]
    fenced: tuple[bool, ...]
    pending: tuple[int | None, ...]
    pending_at_start: tuple[int, ...]
    reads: tuple[int, ...] | None = None

    @property
    def read_stages(self) -> tuple[int, ...]:
        """The stage each store reads."""
        return self.stages if self.reads is None else self.reads


def read_pipeline(sub: Fields, n: int | None = None) -> StorePipeline:
    """`pipeline:` of `sub`, one item a store (`n` of them, or as many as its stages where None)."""
    pipe = sub.sub(PIPELINE_KEY, PIPELINE_FIELDS)
    pipe.require(PIPELINE_REQUIRED)
    if n is None:
        given = pipe.m["stages"]
        n = len(given) if isinstance(given, CommentedSeq) and 0 < len(given) <= MAX_STORES else 0
        if not n:
            raise SpecError(pipe.at("stages"), f"'stages' of {pipe.what} must be a list of 1 to {MAX_STORES} stages, "
                                               f"not {show(given)}")
    for key in PIPELINE_FIELDS[:3]:
        x = pipe.m[key]
        if not isinstance(x, CommentedSeq) or len(x) != n:
            raise SpecError(pipe.at(key), f"'{key}' of {pipe.what} must be a list of one item a store ({n}), not "
                                          f"{show(x)}")
    stages = naturals(pipe, "stages", n, n, MAX_PLACE)
    fenced = pipe.m["fenced"]
    for i, v in enumerate(fenced):
        if not isinstance(v, bool):
            raise SpecError(pipe.f.item(fenced, i), f"'fenced' of {pipe.what} must be a list of true / false; item {i} "
                                                    f"is {show(v)}")
    pending_seq = pipe.m["pending"]
    for i, v in enumerate(pending_seq):
        if v is not None and not (is_int(v) and 0 <= v < MAX_STORES):
            raise SpecError(pipe.f.item(pending_seq, i), f"'pending' of {pipe.what} must be a list of counts of "
                                                         f"stores (0..{MAX_STORES - 1}) or null; item {i} is {show(v)}")
    at_start = pipe.m["pending_at_start"]
    starts = () if isinstance(at_start, CommentedSeq) and not at_start else \
        naturals(pipe, "pending_at_start", 1, MAX_STORES, MAX_PLACE)
    reads = naturals(pipe, "reads", n, n, MAX_PLACE) if pipe.has("reads") else None
    return StorePipeline(stages, tuple(bool(v) for v in fenced),
                         tuple(None if v is None else int(v) for v in pending_seq), starts, reads)


def naturals(fields: Fields, key: str, lo: int, hi: int, limit: int) -> tuple[int, ...]:
    """`key` of `fields`: a list of lo..hi integers in 0..limit-1 (bad input at the item otherwise)."""
    x: Any = fields.m[key]
    want = f"a list of {lo} to {hi} integers in 0..{limit - 1}" if lo != hi else \
        f"a list of {lo} integers in 0..{limit - 1}"
    if not isinstance(x, CommentedSeq) or not lo <= len(x) <= hi:
        raise SpecError(fields.at(key), f"'{key}' of {fields.what} must be {want}, not {show(x)}")
    for i, v in enumerate(x):
        if not is_int(v) or not 0 <= v < limit:
            raise SpecError(fields.f.item(x, i), f"'{key}' of {fields.what} must be {want}; item {i} is {show(v)}")
    return tuple(int(v) for v in x)


def store_pipeline(pipe: StorePipeline, blame: Suspect) -> Plan:
    """Theorem 40: each store reads its stage after its copy's writes are fenced and met at a barrier; no copy writes
    a stage a store issued before it may still be reading (the stores' waits simulated in the kernel's order)."""
    unfenced = [i for i, f in enumerate(pipe.fenced) if not f]
    fence = Fact("every subtile's TMA store reads its stage after its copy's writes are fenced for the async proxy "
                 "and its threads met at a barrier", not unfenced,
                 f"subtile {unfenced[0]}'s store follows its copy with no proxy fence and barrier between them"
                 if unfenced else f"{len(pipe.fenced)} subtiles, each fenced", "fence.proxy.async, then a barrier",
                 blame, point={"subtile": unfenced[0]} if unfenced else None,
                 failing=len(unfenced) if unfenced else None, domain_size=len(pipe.fenced))
    reading: list[tuple[int | None, int]] = [(None, s) for s in pipe.pending_at_start]   # (subtile, stage)
    race: tuple[int, int | None, int] | None = None
    races = 0
    for i, stage in enumerate(pipe.stages):
        hit = next((r for r in reading if r[1] == stage), None)
        if hit is not None:
            races += 1
            race = race or (i, hit[0], stage)
        reading.append((i, pipe.read_stages[i]))
        after = pipe.pending[i]
        if after is not None:
            reading = reading[-after:] if after else []
    title = "no subtile's copy writes a stage a TMA store issued before it may still be reading"
    if race is None:
        free = Fact(title, True, f"{len(pipe.stages)} subtiles' copies, each into a stage no store may still read",
                    "the waits leave no store reading the stage written next", blame,
                    note="the stores' waits simulated in the kernel's order", domain_size=len(pipe.stages))
    else:
        i, j, stage = race
        if j is None:
            why = (f"a TMA store of the block's previous pass may still be reading it ({len(pipe.pending_at_start)} "
                   "stores are left reading when a pass ends)")
        else:
            last = pipe.pending[i - 1]
            waited = "no wait orders it after the stores" if last is None else \
                f"after subtile {i - 1}'s store the kernel waits until at most {last} stores are reading " \
                f"(cp.async.bulk.wait_group.read {last})"
            why = f"subtile {j}'s TMA store may still be reading it: {waited}"
        free = Fact(title, False, f"subtile {i}'s copy writes stage {stage} while {why}",
                    "a stage none of the stores still reading takes", blame,
                    note="the stores' waits simulated in the kernel's order", point={"subtile": i}, failing=races,
                    domain_size=len(pipe.stages))
    return [fence, free]


__all__ = ["PIPELINE_KEY", "StorePipeline", "naturals", "read_pipeline", "store_pipeline"]
