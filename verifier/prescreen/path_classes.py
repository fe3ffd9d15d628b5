"""Operand paths proved once for a class of them: SM90 descriptor-read operands that differ only in their stage
count, and operands A that differ only in their atom's N as well.

A class's members are OperandChecks equal in every field but
- the stage count of their shared layout `tile_to_shape(GMMA::Layout_<major>_<swizzle>_Atom<T>, (MN, K, PIPE))`
  (stage mode outermost, of one stride: stage s is stage 0 moved by s strides), and
- for operand A read through the descriptor (an SS atom), the atom's N: the descriptor check reads an atom for
  operand A only through its M, K, major-ness, sparsity, CTA group and A type (`smem_mma.setup.atom_side`).

What carries a proof from one member to another (README, "Every stage count at once"): theorems 14-16 are decided
over one stage starting at every place a stage can start, the same obligation for every stage count when the
stages' starts leave no gap -- a condition that holds for every smaller stage count when it holds for the largest,
and `no_gaps` checks it for the largest before a class is made; theorem 9 is decided over stage 0 or over the whole
buffer (a whole buffer one-to-one is one-to-one over its first stages); theorem 13's facts are a stage's, or the
footprint's (fitting at the largest stage count, it fits at every smaller one).  Theorems 1 and 2 are the atom's
own: a member of another N is proved with its own atom in its kernel's operand B path, which `fold` requires.

A class is proved at its largest stage count (the representative) and cross-checked at its smallest (another atom
where the class has several): both must be verified with the same theorems' statuses, or every member of the class
is proved as its own path (`Plan.unfold`)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Hashable, Iterable

from ..hardware import tma as TMA
from ..kinds.smem_mma.setup import SMEM_BYTES
from .builders import OperandCheck, PathCheck

# the SM90 GMMA descriptor-read tiles a class may hold: tile_to_shape(GMMA atom, (MN, K, PIPE)[, order])
GMMA_TILE = re.compile(r"^(tile_to_shape\(GMMA::Layout_(?:K|MN)_(?:INTER|SW32|SW64|SW128)_Atom<(\w+)>, "
                       r"\((\d+),(\d+),)(\d+)(\)(?:, \(\d,\d,3\))?\))$")
GMMA_ATOM = re.compile(r"^SM90_(\d+)x(\d+)x(\d+)_")
FILLED_BY = ("SM90_TMA_LOAD", "SM80_CP_ASYNC_CACHEALWAYS_ZFILL<")    # the writers a class may have
STAGE_MARK = "{stages}"
BYTES_OF = {"half_t": 2, "bfloat16_t": 2, "tfloat32_t": 4, "float": 4, "float_e4m3_t": 1, "float_e5m2_t": 1,
            "int8_t": 1, "uint8_t": 1}
ATOM_N_FIELDS = ("shape_mnk", "instruction")      # an atom's fields that write its N (B and C layouts: not read)
ATOM_B_SIDE = ("b", "c")


@dataclass(frozen=True)
class Member:
    """What a foldable path's class is keyed by, and where in it the path lies."""
    key: Hashable
    stages: int
    atom_n: int


def _atom_key(check: OperandCheck) -> Hashable:
    """The atom as operand A's descriptor check reads it: its N erased from its name and fields, B and C dropped."""
    m = GMMA_ATOM.match(check.mma.name)
    assert m is not None
    name = check.mma.name[:m.start(2)] + "N" + check.mma.name[m.end(2):]
    fields = tuple((k, re.sub(r"n\d+k", "nNk", v) if k == "instruction" else
                    re.sub(r"^\[(\d+), \d+, (\d+)\]$", r"[\1, N, \2]", v) if k == "shape_mnk" else v)
                   for k, v in check.mma.fields if k not in ATOM_B_SIDE)
    return name, fields


def member(check: PathCheck) -> Member | None:
    """`check`'s class, or None when it is proved as its own path."""
    if type(check) is not OperandCheck or check.operand not in ("A", "B") or check.permutation is not None or \
            check.major is not None or check.smem_type is not None or check.smem_partition is not None or \
            check.conversion is not None or not check.copy.startswith(FILLED_BY):
        return None
    atom = GMMA_ATOM.match(check.mma.name)
    tile = GMMA_TILE.match(check.smem)
    if atom is None or tile is None or "_SS" not in check.mma.name or tile.group(2) not in BYTES_OF:
        return None
    stages = int(tile.group(5))
    if not no_gaps(int(tile.group(3)) * int(tile.group(4)) * BYTES_OF[tile.group(2)], stages):
        return None
    smem = tile.group(1) + STAGE_MARK + tile.group(6)
    if check.operand == "A":
        return Member((replace(check, smem=smem, mma=replace(check.mma, name="", fields=())), _atom_key(check)),
                      stages, int(atom.group(2)))
    return Member(replace(check, smem=smem), stages, int(atom.group(2)))


def no_gaps(stage_bytes: int, stages: int, align: int = TMA.SMEM_ALIGN) -> bool:
    """Whether a buffer of `stages` stages of `stage_bytes` (compact, `align`-byte aligned starts) fits shared
    memory with its stages' starts leaving no gap (`smem_mma.setup.Sm90Setup.stage_start`: a step no larger than
    the number of bases), so that theorems 14-16 are one obligation for it and every smaller stage count."""
    footprint = stage_bytes * stages
    if footprint > SMEM_BYTES or stage_bytes % align:
        return False
    return stage_bytes // align <= (SMEM_BYTES - footprint) // align + 1


@dataclass
class PathClass:
    """Operand paths proved by one of them (`representative`), cross-checked on another (`cross_check`)."""
    members: list[PathCheck]
    representative: PathCheck            # the largest stage count
    cross_check: PathCheck | None        # the smallest stage count (another atom where there is one)
    stage_counts: tuple[int, ...]        # the members' stage counts, ascending


@dataclass
class Plan:
    classes: dict[PathCheck, PathClass] = field(default_factory=dict)   # each member -> its class
    own: list[PathCheck] = field(default_factory=list)             # paths proved as themselves

    def first_round(self) -> list[PathCheck]:
        """The paths proved first: every path proved as itself, and each class's representative and cross-check."""
        seen: dict[int, PathClass] = {id(c): c for c in self.classes.values()}
        out = list(self.own)
        for c in seen.values():
            out.append(c.representative)
            if c.cross_check is not None:
                out.append(c.cross_check)
        return out

    def distinct(self) -> list[PathClass]:
        return list({id(c): c for c in self.classes.values()}.values())


def fold(paths: Iterable[PathCheck], kernels: Iterable[tuple[PathCheck, ...]]) -> Plan:
    """The classes of `paths` (each kernel's paths: `kernels`).  An operand A path joins a class of other atoms only
    where every kernel it is in has an operand path of its own atom besides it (whose theorems 1 and 2 prove that
    atom); otherwise its class keeps its atom."""
    paths = list(paths)
    # by the objects' identities first (a mapping's paths are one object each per mapping worker's chunk), then
    # each distinct object hashed once
    covered_id: dict[int, bool] = {}
    object_of: dict[int, PathCheck] = {}
    for checks in kernels:
        for c in checks:
            if isinstance(c, OperandCheck) and c.operand == "A":
                own_atom = any(isinstance(d, OperandCheck) and d.operand != "A" and (d.mma is c.mma or d.mma == c.mma)
                               for d in checks)
                covered_id[id(c)] = covered_id.get(id(c), True) and own_atom
                object_of[id(c)] = c
    covered: dict[PathCheck, bool] = {}
    for i, c in object_of.items():
        covered[c] = covered.get(c, True) and covered_id[i]
    by_key: dict[Hashable, list[tuple[Member, PathCheck]]] = {}
    plan = Plan()
    for c in paths:
        m = member(c)
        if m is None:
            plan.own.append(c)
            continue
        key = m.key
        if isinstance(c, OperandCheck) and c.operand == "A" and not covered.get(c, False):
            key = (key, c.mma)
        by_key.setdefault(key, []).append((m, c))
    for found in by_key.values():
        if len(found) == 1:
            plan.own.append(found[0][1])
            continue
        ordered = sorted(found, key=lambda mc: (mc[0].stages, mc[0].atom_n))
        representative = ordered[-1][1]
        smallest = ordered[0][0].stages
        # the smallest stage count, of another atom than the representative's where the class has one
        candidates = [c for m, c in ordered if m.stages == smallest]
        other = [c for c in candidates if isinstance(c, OperandCheck) and isinstance(representative, OperandCheck)
                 and c.mma != representative.mma]
        cross = (other or candidates)[0]
        cls = PathClass([c for _, c in found], representative, None if cross is representative else cross,
                        tuple(sorted({m.stages for m, _ in found})))
        for _, c in found:
            plan.classes[c] = cls
    return plan
