"""Theorem 37: the threads that run a tiled copy take its slices as its layouts mean them.

A tiled copy's TV layout gives thread u of its T threads slice u: the elements `get_slice(u)` / `partition_S` /
`partition_D` hand it, and every check of the copy (its partitions, the registers it pairs, the shared tile it fills)
reads thread u's elements as slice u's.  The kernel hands get_slice a coordinate it computes from threadIdx.x; the
copy means what its checks prove when some block of T consecutive threads, starting at a warp of the launch, takes
slice u at its thread first + u, and where the instruction ties a thread's data to its place -- ldmatrix / stmatrix a
lane's row address and registers, tcgen05.ld / st a warp's lane quarter of tensor memory (PTX ISA: warp w of a
warpgroup reaches lanes 32(w%4)..32(w%4)+31) -- the block starts at a place of the span (slice = threadIdx.x modulo
the instruction's span).  Every block leaving a slice unmoved, moving one twice or outside the copy, or taking one at
a place the instruction does not allow refutes it; a block that permutes the slices among its threads is
unsupported (harmless for an element-wise copy whose registers meet no other partition).

Where the kernel's control flow says which threads run the copy (`runs:`), the block is not sought but read: those
threads, in order, in groups of T (each group one run of the copy), must each take slice u at their u-th thread, the
group T consecutive threads from a warp -- a group taking a slice twice, none, one outside the copy or one at a place
the instruction does not allow, or a last group of fewer than T threads (slices no thread moves), refutes it; groups
that only permute the slices are unsupported, as above; no thread running it is unsupported.

Over CTAs (`unit: cta`), the slices are a TMA copy's tile split among the CTAs of a cluster that share it: the
`block` CTAs whose loads reach one CTA's tile (the multicast group; one for a load without multicast), in groups of
T, each take slice u at their u-th CTA -- a slice taken twice, by no CTA or outside the tile refutes it (a coordinate
the same in every CTA; a plain load, whose CTA alone writes its tile); a permutation is unsupported.

Decided by exhaustive enumeration of every candidate block (every running thread, every CTA) and every member."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...theorems.claims import Fact, Plan, Suspect, Unsupported
from ...theorems.suspects import Suspects
from .config import SliceCheck, SliceUnit

ENUMERATION = "exhaustive enumeration on integers"
WARP = 32
# what a copy instruction ties to a thread's place, by its PTX instruction: the span its thread index is taken modulo
# (1: nothing -- an element-wise copy moves whatever elements its slice names)
PLACE_SPANS: tuple[tuple[str, int, str], ...] = (
    ("tcgen05.ld", 128, "its lane and its warp's lane quarter of tensor memory"),
    ("tcgen05.st", 128, "its lane and its warp's lane quarter of tensor memory"),
    ("ldmatrix", WARP, "its lane (the row address it hands the instruction, the registers it is given)"),
    ("stmatrix", WARP, "its lane (the row address it hands the instruction, the registers it is given)"),
)
NO_PLACE = (1, "nothing (an element-wise copy)")


def place_span(instruction: str | None) -> tuple[int, str]:
    """The span a thread's index is taken modulo by the instruction, and what it ties."""
    text = (instruction or "").strip()
    return next(((span, what) for prefix, span, what in PLACE_SPANS if text.startswith(prefix)), NO_PLACE)


@dataclass(frozen=True)
class BlockOutcome:
    """Slices the threads [first, first + threads) take: `problem` None when each slice is taken once, at a place the
    instruction allows (the thread's own place modulo its span); `own` when thread first + u takes slice u."""
    first: int
    problem: tuple[int, str] | None      # (thread, what is wrong)
    failing: int                         # threads of the block that take a wrong slice
    own: bool


def take(check: SliceCheck, first: int, span: int) -> BlockOutcome:
    """Thread first + u for u in [0, threads) takes slice coordinate(first + u)."""
    return take_group(check, range(first, first + check.threads), span)


def take_group(check: SliceCheck, group: Sequence[int], span: int) -> BlockOutcome:
    """The u-th thread of `group` takes slice coordinate(group[u]): `own` when each takes slice u and the group is
    consecutive threads from a warp; `problem` None when each slice is taken once, at a place the instruction allows
    (a group of fewer threads than the copy's leaves slices untaken)."""
    taken: dict[int, int] = {}
    problem: tuple[int, str] | None = None
    failing = 0
    who = check.unit.noun
    aligned = check.unit is SliceUnit.CTA or (bool(group) and group[0] % WARP == 0)    # threads: from a warp
    own = bool(group) and aligned and group[-1] - group[0] == len(group) - 1
    for u, tid in enumerate(group):
        try:
            s = check.coordinate(tid)
        except ZeroDivisionError as e:
            why = f"its coordinate {check.coordinate.text} is undefined at tid = {tid} ({e})"
        else:
            own = own and s == u
            if not 0 <= s < check.threads:
                why = f"{who} {tid} takes slice {s}, outside the copy's slices 0..{check.threads - 1}"
            elif s in taken:
                why = f"{who}s {taken[s]} and {tid} both take slice {s}"
            elif (s - tid) % span:
                why = (f"thread {tid} takes slice {s}, whose place differs from its own ({s % span} against "
                       f"{tid % span} modulo {span})")
            else:
                taken[s] = tid
                continue
            taken.setdefault(s, tid)
        own = False
        failing += 1
        problem = problem or (tid, why)
    if problem is None and len(group) < check.threads:
        missing = next(s for s in range(check.threads) if s not in taken)
        running = "write each CTA's tile" if check.unit is SliceUnit.CTA else "running it"
        problem = (group[-1], f"the last {len(group)} {who}(s) {running} take {len(group)} of its "
                              f"{check.threads} slices: no {who} takes slice {missing}")
        failing, own = check.threads - len(group), False
    return BlockOutcome(group[0] if group else 0, problem, failing, own)


def thread_slice(check: SliceCheck, instruction: str | None, suspects: Suspects, info: list[str]) -> Plan:
    """Theorem 37: some warp-aligned block of `threads` threads inside the launch takes slice u at its thread
    first + u, at a place the instruction allows (verified); every block takes some slice twice, none, one outside
    the copy, or one at a place the instruction does not allow (refuted); else the block permutes the slices among
    its threads, which is `unsupported` (right for an element-wise copy whose registers meet no other partition,
    wrong where they do: which it is, is not read)."""
    if check.unit is SliceUnit.CTA:
        return _cta_slices(check, suspects, info)
    span, ties = place_span(instruction)
    suspect = suspects.field("slice", f"the thread coordinate {check.coordinate.text} handed to get_slice / "
                                      "partition for this tiled copy")
    title = (f"a block of {check.threads} consecutive threads takes the copy's slices, thread first + u slice u, "
             f"each at its own place ({ties})")
    expected = f"slices 0..{check.threads - 1}, each once" + (f", slice = tid modulo {span}" if span > 1 else "")
    if check.runs is not None:
        return _read_threads(check, span, ties, expected, suspect, info)
    firsts = range(0, check.block - check.threads + 1, WARP)
    if not firsts:
        return [Fact(title, False, f"the copy has {check.threads} threads, the block {check.block}", expected,
                     suspect, note=ENUMERATION, point={"tid": 0}, failing=check.threads, domain_size=check.threads)]
    outcomes = [take(check, first, span) for first in firsts]
    found = next((o for o in outcomes if o.own), None)
    if found is not None:
        last = found.first + check.threads - 1
        info.append(f"the threads {found.first}..{last} of the block run the tiled copy of {check.copy} (the block "
                    f"of {check.threads} threads whose coordinates {check.coordinate.text} are their own slices; which "
                    "threads run it is the kernel's control flow, not read)")
        return [Fact(title, True, f"threads {found.first}..{last} take slices 0..{check.threads - 1}", expected,
                     suspect, note=f"{len(firsts)} blocks of {check.threads} threads starting at a warp tried; "
                                   f"{ENUMERATION}", domain_size=check.threads * len(firsts))]
    permuted = next((o for o in outcomes if o.problem is None), None)
    if permuted is not None:
        last = permuted.first + check.threads - 1
        return Unsupported(f"the threads {permuted.first}..{last} take every slice of the copy once, at places its "
                           f"instruction allows, but not each its own ({check.coordinate.text}): right for an "
                           "element-wise copy whose registers meet no other partition, wrong where they do (the other "
                           "checks read thread u's elements as slice u's); which it is, is not read")
    worst = min(outcomes, key=lambda o: o.failing)
    assert worst.problem is not None
    tid, why = worst.problem
    return [Fact(title, False, f"no block of {check.threads} threads starting at a warp of the {check.block}-thread "
                               f"block does; the threads from {worst.first}: {why}", expected, suspect,
                 note=f"{len(firsts)} blocks of {check.threads} threads starting at a warp tried; {ENUMERATION}",
                 point={"tid": tid}, failing=worst.failing, domain_size=check.threads * len(firsts))]


def _span_text(threads: Sequence[int]) -> str:
    """Thread indices as runs: `128..255, 384..511`."""
    runs: list[tuple[int, int]] = []
    for t in threads:
        if runs and t == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], t)
        else:
            runs.append((t, t))
    return ", ".join(f"{a}..{b}" if a != b else str(a) for a, b in runs)


def _judged_groups(check: SliceCheck, members: Sequence[int], span: int, title: str, expected: str,
                   suspect: Suspect, lead: str, verified: str, permuted: str, info: list[str]) -> Plan:
    """The members that take the slices (the threads that run the copy, or the CTAs that share the tile), in order,
    in groups of the copy's slices: a group taking a slice twice, none or outside (or a last group too short) refutes;
    every group taking slice u at its u-th member verifies (`verified` said as info); else the groups permute the
    slices (`permuted`: unsupported).  `lead` opens the actual value of a fact."""
    groups = [list(members[i:i + check.threads]) for i in range(0, len(members), check.threads)]
    outcomes = [take_group(check, g, span) for g in groups]
    who = check.unit.noun
    note = (f"the {len(members)} {who}s that take the slices, in {len(groups)} group(s) of {check.threads}; "
            f"{ENUMERATION}")
    wrong = next((o for o in outcomes if o.problem is not None), None)
    if wrong is not None:
        assert wrong.problem is not None
        member, why = wrong.problem
        return [Fact(title, False, f"{lead}{why}", expected, suspect, note=note, point={"tid": member},
                     failing=sum(o.failing for o in outcomes), domain_size=len(members))]
    if all(o.own for o in outcomes):
        info.append(verified)
        return [Fact(title, True, f"{lead}each group of {check.threads} {who}s takes slices 0..{check.threads - 1} in "
                                  "order", expected, suspect, note=note, domain_size=len(members))]
    return Unsupported(permuted)


def _read_threads(check: SliceCheck, span: int, ties: str, expected: str, suspect: Suspect, info: list[str]) -> Plan:
    """Theorem 37 where `runs:` says which threads run the copy: those threads in order, in groups of `threads`."""
    assert check.runs is not None
    runs = check.runs
    try:
        running = [tid for tid in range(check.block) if runs(tid)]
    except ZeroDivisionError as e:
        return Unsupported(f"the condition {runs.text} of the threads that run the copy is undefined for a thread of "
                           f"the block ({e})")
    if not running:
        return Unsupported(f"no thread of the {check.block}-thread block runs the copy ({runs.text}): nothing to check")
    where = f"the threads {_span_text(running)} run it ({runs.text})"
    title = (f"the threads that run the copy take its slices in groups of {check.threads}, the u-th thread of a group "
             f"slice u, each at its own place ({ties})")
    return _judged_groups(
        check, running, span, title, expected, suspect, f"{where}; ",
        f"the threads {_span_text(running)} of the block run the tiled copy of {check.copy} (its conditions: "
        f"{runs.text}), each group of {check.threads} taking its slices in order",
        f"{where} and take every slice of the copy once a group, at places its instruction allows, but not each its "
        f"own ({check.coordinate.text}, or a group of threads that are not consecutive from a warp): right for an "
        "element-wise copy whose registers meet no other partition, wrong where they do; which it is, is not read",
        info)


def _cta_slices(check: SliceCheck, suspects: Suspects, info: list[str]) -> Plan:
    """Theorem 37 over CTAs (`unit: cta`): the `block` CTAs that share a TMA copy's tile, in groups of `threads`,
    each group's u-th CTA taking slice u (a multicast load's slices, a 2-CTA MMA's halves); a slice taken twice, by
    no CTA or outside the tile refutes it; a group that permutes the slices is unsupported (which CTA's shared memory
    each slice must reach is not read)."""
    suspect = suspects.field("slice", f"the CTA coordinate {check.coordinate.text} handed to the partition of the "
                                      "tile the CTAs share")
    title = (f"the {check.block} CTAs that share the tile of {check.copy} take its {check.threads} slices, the u-th "
             "CTA of a group slice u")
    return _judged_groups(
        check, range(check.block), NO_PLACE[0], title, f"slices 0..{check.threads - 1}, each once a group", suspect,
        "", f"the {check.block} CTAs take the {check.threads} slices of the tile of {check.copy} in order",
        f"the CTAs take every slice of the tile once a group, but not each its own ({check.coordinate.text}): which "
        "CTA's shared memory each slice must reach is not read", info)
