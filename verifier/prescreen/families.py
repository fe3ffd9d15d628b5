"""A high instantiation level's kernel space as families, with exact kernel counts.

At `--level 9999` CUTLASS's SM90 generator stamps out millions of GEMM kernels; building each one's GemmOperation,
naming it and filtering it through the Manifest does not finish.  Here the generator runs as it is (its own logic
decides the space) with two things changed while it runs:

- `to_grouped_schedule`, a pure lookup the schedule rules call millions of times, is memoized (same answers);
- `CreateGemmUniversal3xOperator` and `CreateSparseGemmUniversal3xOperator` record their arguments instead of
  expanding them kernel by kernel.  For each (layout, tile but its cluster shape, data types) one is called with, the
  real Create runs once, on one schedule and tile scheduler (a "probe"), with the tile's cluster shape replaced by
  markers; its GemmOperations give CUTLASS's own name (the markers then replaced by the call's cluster), the
  Manifest's compute-capability and shared-memory filter, and the KernelConfig.  Every (kernel schedule, epilogue
  schedule, tile scheduler) of the call is then a kernel whose name is the probe's name with the schedules' suffixes
  (CUTLASS's suffix tables) in place of the probe's: the Manifest's de-duplication by name (the first kernel of a
  name wins) is applied to these names, exactly.  A call's kernels are counted by kernel schedule, not one by one:
  the ends its schedules give its names (`_Ends`) are made once for each list of schedules, and a name part met for
  the first time takes them all.

A family is the kernels that differ only in what the operand paths do not read: their epilogue schedule, C and D
types, tile scheduler and name (but the parts of it blockwise.py reads), and on SM90 their cluster shape
(`IGNORED_FIELDS`).  Its kernel count is exact; its `samples` (the least- and the greatest-named member) are rebuilt by
`sample_config` through CUTLASS's real Create and Manifest, for family_run.py to compare with the family.  A Create
call the probe cannot stand for (several layouts or data types at once, explicit complex transforms, a name that does
not end in the schedules' suffixes) runs the real Create into the real Manifest; those kernels, and every other
creator's (CUTLASS 2.x), are grouped into families the same way, each one a member as the generator built it, and the
names of both sides are checked against each other (the Manifest's filter is wrapped).

With two jobs or more, GenerateSM<arch>'s call sequence is cut in two (SPLIT_AT) and each part runs in its own child
at once; the parts' families are merged (`merge`), which is what one run gives when no kernel
name was emitted by both parts (`shared_name`: the Manifest keeps the first kernel of a name, and a name in both would
be counted twice) -- with one, the whole sequence runs again in one child.  CUTLASS's generator emits a space's
kernels in an order that differs between processes (it iterates sets of objects hashed by identity), so a family's
first and last members would differ from run to run: a family is sampled at its least- and greatest-named members,
named by the least, and the families are listed in the order of those names.
"""
from __future__ import annotations

import copy
import re
import sys
from dataclasses import dataclass, field, replace
from contextlib import contextmanager
from functools import lru_cache, partial
from typing import Any, Callable, Iterator

from .blockwise import BLOCKWISE_KINDS, NAME
from .space import (KernelConfig, SpaceError, config_of, enum_name, gc_paused, in_child, in_children,
                    manifest_args, run_generator)

FAMILY_LIMIT_S = 600           # a family enumeration running longer is refused, never waited on
# KernelConfig fields an architecture's mapper (builders.py) does not read: members of one family may differ in them
# (family_run.py maps a family with them blanked, so its rules cannot read them; tests/test_prescreen_families.py maps
# every member of whole spaces with them, so a rule that starts reading one is caught there)
IGNORED_FIELDS: dict[int, tuple[str, ...]] = {90: ("cluster",)}
# what a blanked configuration holds in the fields a family key or a family's mapping leaves out
BLANKED: dict[str, Any] = {"name": "", "schedule": "", "cluster": (0, 0, 0)}
FAMILY_ARCHITECTURES = (90,)   # the architectures whose --level space is enumerated by families (tested on SM90)
# kinds whose mapper reads the kernel's name (blockwise.py: the parts its NAME pattern names, e.g. the scale
# granularities): a family's members agree on those parts
NAME_READING_KINDS = BLOCKWISE_KINDS
# the generator's Create functions recorded (both expand product(layouts, first tile, data types, complex transforms,
# schedules, tile schedulers) into GemmOperations appended to the Manifest), and the parameters they take
CREATORS = ("CreateGemmUniversal3xOperator", "CreateSparseGemmUniversal3xOperator")
CREATE_PARAMETERS = ("manifest", "layouts", "tile_descriptions", "data_types", "schedules", "complex_transforms",
                     "epilogue_functor", "swizzling_functor", "tile_schedulers", "gemm_kind")
SAMPLE_HIGH = True             # sample the greatest-named member as well as the least-named
RECORDED_CLUSTER = 6           # a recorded member tuple's cluster shape (see `_Space.create`)
ALIGN_END = re.compile(r"align\d+$")        # how a name's part before the schedules' suffixes ends
ALIGN_IN = re.compile(r"align\d")           # a suffix holding this could be confused with a name's part
NO_SUFFIXES: frozenset[str] = frozenset()
CLUSTER_MARK = "\x00{}\x00"                  # what a probe's cluster entry i is written as in its name
# where the call sequence of GenerateSM<arch> is cut for two generator runs at once (--jobs 2 or more): the first call
# of this function starts the second part.  A choice of speed only (at --level 9999 the blockwise calls are about half
# the sequence's time): the merge is exact wherever the cut lies.
SPLIT_AT: dict[int, str] = {90: "GenerateSM90_TensorOp_fp8_WGMMA_gemm_with_blockwise"}


class _ClusterMark(int):
    """A probe tile's cluster entry: the int the Manifest's filter and config_of read, named by a marker."""
    def __str__(self) -> str:
        return CLUSTER_MARK.format(int(self))


@dataclass(frozen=True)
class Call:
    """One (layout, tile, data types) of a Create call, as the generator passed it (enough to call it again)."""
    layout: tuple[tuple[Any, ...], ...]
    tile: Any                   # TileDescription
    data_type: Any              # dict
    epilogue_functor: Any
    swizzling_functor: Any
    gemm_kind: Any              # None: the creator takes none (its kind is its own)
    creator: str                # the generator's Create function (one of CREATORS)


@dataclass(frozen=True)
class Member:
    """One kernel of a family: a Create call's schedules and its expected name, or the KernelConfig itself (a
    kernel the generator built)."""
    name: str
    call: Call | None = None
    kernel_schedule: Any = None
    epilogue_schedule: Any = None
    tile_scheduler: Any = None
    config: KernelConfig | None = None


# a member while generating: (its name, the Create call's recorded member tuple or the Member itself)
Named = tuple[str, Member | tuple[Any, ...]]


@dataclass
class Family:
    config: KernelConfig            # its least-named member's configuration (made by `merge`; before, a member's)
    kernels: int = 0
    samples: list[Member] = field(default_factory=list)     # the least-named member, then the greatest-named
    names: list[str] | None = None  # every member's name, kept when asked for (small levels, the tests)
    low: Named | None = None        # while generating: the least-named member so far, and the greatest-named
    high: Named | None = None

    def meet(self, name: str, member: Member | tuple[Any, ...]) -> None:
        """Count a member named `name`."""
        self.meet_many(1, name, name, member, member, [name])

    def meet_many(self, kernels: int, low: str, high: str, low_member: Member | tuple[Any, ...],
                  high_member: Member | tuple[Any, ...], names: list[str] | None) -> None:
        """Count `kernels` members, the least-named `low` and the greatest-named `high` among them (`names`: all of
        their names, when the family keeps them)."""
        self.kernels += kernels
        if self.low is None or low < self.low[0]:
            self.low = (low, low_member)
        if self.high is None or high > self.high[0]:
            self.high = (high, high_member)
        if self.names is not None and names is not None:
            self.names += names


@dataclass
class _ProbeOp:
    ok: bool                  # passes the Manifest's compute-capability / shared-memory filter
    pattern: str              # its name up to the schedules' suffixes as a format string: cluster entry i at {i}
                              # (the name's own braces doubled)
    part: str | None          # what a mapper reads of the name (`_name_part`, which reads no cluster entry); None:
                              # a name the pattern does not match, whose part is the whole name (made per call)
    base: KernelConfig        # its KernelConfig with name, schedule and cluster blanked
    config: KernelConfig      # its KernelConfig (marker name, marker cluster)


def _plain(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, _plain(v)) for k, v in value.items())
    return value


def _hashable(value: Any) -> Any:
    """`_plain(value)` for a layout (pairs of a LayoutType and an int) or a data-type dict (DataTypes), quickly."""
    if isinstance(value, dict):
        items = tuple(value.items())
        if all(type(v) is not dict and type(v) is not list for _, v in items):
            return items
    elif all(type(x) is list and len(x) == 2 for x in value):
        return tuple((x[0], x[1]) for x in value)
    return _plain(value)


def _tile_key(tile: Any) -> tuple[Any, ...]:
    """Every attribute of a TileDescription and its MathInstruction, the cluster shape left out."""
    return (tuple((k, _plain(v)) for k, v in vars(tile).items() if k not in ("cluster_shape", "math_instruction")),
            tuple((k, _plain(v)) for k, v in vars(tile.math_instruction).items()))


def _pairs(value: Any) -> bool:
    """Whether a Create call's layout is the generator's list of [LayoutType, alignment] pairs."""
    return all(type(x) is list and len(x) == 2 for x in value)


@dataclass(frozen=True)
class _Tile:
    """What a Create call's TileDescription gives the listing (the tile kept, so that its id stays its own)."""
    tile: Any
    value: int                       # the number of its value, the cluster shape left out
    cluster: tuple[int, int, int]
    cluster_text: tuple[str, ...]    # the cluster's entries as a name writes them

    @classmethod
    def of(cls, tile: Any, values: dict[tuple[Any, ...], int]) -> _Tile:
        shape = [int(c) for c in tile.cluster_shape]
        return cls(tile, values.setdefault(_tile_key(tile), len(values)), (shape[0], shape[1], shape[2]),
                   tuple(map(str, tile.cluster_shape)))


@dataclass(frozen=True)
class _Ends:
    """The ends of the kernel names a Create call's schedules give (the schedules' suffixes), each end once: by
    kernel schedule (in the order met), each end with the epilogue schedule and tile scheduler of the call's first
    kernel that ends so."""
    groups: tuple[tuple[Any, list[tuple[str, Any, Any]]], ...]
    all: frozenset[str]
    kept: tuple[list[Any], list[Any]]     # the schedules' lists: their members' ids key the table


class _Recorder:
    """The manifest a probe's real Create appends to."""
    kernel_filter = ""

    def __init__(self) -> None:
        self.ops: list[Any] = []

    def append(self, op: Any) -> None:
        self.ops.append(op)


class _Space:
    """The state of one generator run: the families and the names emitted so far."""

    def __init__(self, arch: int, manifest: Any, blank: Any, keep_names: bool) -> None:
        from cutlass_library import library
        self.arch = arch
        self.manifest = manifest
        self.blank = blank                     # a Manifest with nothing in it: its filter without de-duplication
        self.keep_names = keep_names
        self.ignored = IGNORED_FIELDS.get(arch, ())
        self.seen: dict[str, frozenset[str]] = {}    # name part before the suffixes -> the suffixes emitted with it
        self.suffix_sets: dict[frozenset[str], frozenset[str]] = {}   # each set of suffixes kept once (memory)
        self.real_prefixes: set[str] = set()   # the same split of the names the real Manifest holds
        # a probe key -> the probe's ops (None: the real Create stands for it), with the Call and the data types'
        # values it was made for (kept: the key names them by identity)
        self.probes: dict[tuple[Any, ...], tuple[list[_ProbeOp] | None, Call, tuple[Any, ...]]] = {}
        # a tile object (kept, so that its id stays its own) -> the number of its value (cluster left out): the
        # generator hands the same TileDescription to all its layouts and data types
        self.tile_keys: dict[int, _Tile] = {}
        self.tile_values: dict[tuple[Any, ...], int] = {}
        self.layouts: dict[tuple[Any, ...], tuple[Any, ...]] = {}   # a layout's identity key -> the layout (kept)
        self.suffixes: dict[tuple[int, int, int], str] = {}
        self.tables_of: dict[tuple[Any, ...], _Ends] = {}    # the schedules of a call (by identity) -> its names' ends
        self.fast: dict[tuple[Any, ...], Family] = {}     # (probe op, kernel schedule, cluster, name part)
        self.by_key: dict[tuple[KernelConfig, str, str, tuple[int, int, int] | None], Family] = {}
        self.tables = (library.TileSchedulerSuffixes, library.KernelScheduleSuffixes,
                       library.EpilogueScheduleSuffixes)

    # -- names ----------------------------------------------------------------------------------------------------
    def suffix(self, tile_scheduler: Any, kernel_schedule: Any, epilogue_schedule: Any) -> str:
        # keyed by the members' ids: CUTLASS's schedules are Enum members (kept alive by the tables), whose Python
        # __hash__ the listing would otherwise call for every kernel
        key = (id(tile_scheduler), id(kernel_schedule), id(epilogue_schedule))
        found = self.suffixes.get(key)
        if found is None:
            t, k, e = self.tables
            found = t[tile_scheduler] + k[kernel_schedule] + e[epilogue_schedule]
            # a name splits into (part ending in align<digits>, suffix) one way only when no suffix starts with a
            # digit or holds align<digit> (see `holds`)
            if found[:1].isdigit() or ALIGN_IN.search(found):
                raise SpaceError(f"the schedule suffix {found!r} would make kernel names ambiguous to split")
            found = self.suffixes[key] = found
        return found

    def holds(self, name: str) -> bool:
        """Whether a family member of this name was emitted (`_holds`)."""
        return _holds(self.seen, name)

    def ends(self, schedules: Any, tile_schedulers: Any) -> _Ends:
        """The ends of the names a Create call's schedules give (`_Ends`), made once for each list of schedules and
        tile schedulers alike (by the identities of their members: CUTLASS's Enum members, kept by its tables)."""
        key = (tuple([(id(k), id(e)) for k, e in schedules]), tuple(map(id, tile_schedulers)))
        found = self.tables_of.get(key)
        if found is None:
            by_schedule: dict[int, tuple[Any, list[tuple[str, Any, Any]]]] = {}
            taken: set[str] = set()
            for kernel_schedule, epilogue_schedule in schedules:
                for tile_scheduler in tile_schedulers:
                    end = self.suffix(tile_scheduler, kernel_schedule, epilogue_schedule)
                    if end not in taken:        # the call's first kernel of a name is the one the Manifest keeps
                        taken.add(end)
                        by_schedule.setdefault(id(kernel_schedule), (kernel_schedule, []))[1].append(
                            (end, epilogue_schedule, tile_scheduler))
            every = frozenset(taken)
            found = self.tables_of[key] = _Ends(tuple(by_schedule.values()),
                                                self.suffix_sets.setdefault(every, every),
                                                (list(schedules), list(tile_schedulers)))
        return found

    # -- the patched Manifest filter and Create -------------------------------------------------------------------
    def real_filter(self, original: Callable[[Any], bool]) -> Callable[[Any], bool]:
        def filter_(op: Any) -> bool:
            if not original(op):
                return False
            name = op.procedural_name()
            if self.holds(name):
                return False
            for m in re.finditer(r"align\d+", name):
                self.real_prefixes.add(name[:m.end()])
            return True
        return filter_

    def probe(self, original: Callable[..., Any], call: Call, tile: Any, schedule: Any,
              tile_scheduler: Any) -> list[_ProbeOp] | None:
        marked = copy.copy(tile)
        marked.cluster_shape = [_ClusterMark(i) for i in range(len(tile.cluster_shape))]
        recorder = _Recorder()
        original(recorder, [[list(x) for x in call.layout]], [marked], call.data_type, [schedule],
                 epilogue_functor=call.epilogue_functor, swizzling_functor=call.swizzling_functor,
                 tile_schedulers=[tile_scheduler], **_kind(call.gemm_kind))
        out = []
        for op in recorder.ops:
            name = op.procedural_name()
            end = self.suffix(tile_scheduler, schedule[0], schedule[1])
            if not name.endswith(end) or not ALIGN_END.search(name[:len(name) - len(end)]):
                return None
            config = config_of(op, self.arch)
            base = _blank(config)
            template = name[:len(name) - len(end)]
            unmarked = re.sub(CLUSTER_MARK.format(r"\d+"), "1", template)      # any cluster: no part reads it
            part: str | None = _name_part(config.kind, unmarked)
            if config.kind in NAME_READING_KINDS and NAME.search(unmarked) is None:
                part = None
            pattern = template.replace("{", "{{").replace("}", "}}")
            for i in range(len(tile.cluster_shape)):
                pattern = pattern.replace(CLUSTER_MARK.format(i), f"{{{i}}}")
            out.append(_ProbeOp(bool(self.blank.filter(op)), pattern, part, base, config))
        return out

    def create(self, original: Callable[..., Any], creator: str) -> Callable[..., Any]:
        """`original` (the generator's Create function `creator`) recorded: its parameters, in its order (the
        universal one takes a GemmKind last, the sparse one does not)."""
        defaults = original.__defaults__ or ()
        names = original.__code__.co_varnames[:original.__code__.co_argcount]
        default = dict(zip(names[len(names) - len(defaults):], defaults))
        if names[:9] != CREATE_PARAMETERS[:9] or names[9:] not in ((), CREATE_PARAMETERS[9:]):
            raise SpaceError(f"cutlass_library's {creator} takes {names}, not the parameters families.py knows")
        default_kind = default.get("gemm_kind")      # None: the sparse creator's (it takes no kind)

        def create_(manifest: Any, layouts: Any, tile_descriptions: Any, data_types: Any,
                    schedules: Any = default["schedules"], complex_transforms: Any = None,
                    epilogue_functor: Any = default["epilogue_functor"],
                    swizzling_functor: Any = default["swizzling_functor"],
                    tile_schedulers: Any = default["tile_schedulers"],
                    gemm_kind: Any = default_kind) -> list[Any]:
            data = [data_types] if isinstance(data_types, dict) else data_types
            if len(layouts) != 1 or len(data) != 1 or \
                    complex_transforms is not None or not tile_descriptions or not schedules or not tile_schedulers or \
                    len(tile_descriptions[0].cluster_shape) != 3:
                return list(original(manifest, layouts, tile_descriptions, data_types, schedules,
                                     complex_transforms, epilogue_functor, swizzling_functor, tile_schedulers,
                                     **_kind(gemm_kind)))
            tile = tile_descriptions[0]        # the Manifest has no kernel filter: Create takes the first tile
            known = self.tile_keys.get(id(tile))
            if known is None or known.tile is not tile:
                known = self.tile_keys[id(tile)] = _Tile.of(tile, self.tile_values)
            # the probe's key by the identities of the values it holds (CUTLASS's enum members, whose Python __hash__
            # would run a dozen times a call): every object named by an id here stays alive as long as the key does
            # (the layout in `self.layouts`, the data types' values in the probe's Call), so no id is another's
            layout_key = tuple([(id(x[0]), x[1]) for x in layouts[0]]) if _pairs(layouts[0]) else None
            layout = self.layouts.get(layout_key) if layout_key is not None else None
            if layout is None:
                layout = _hashable(layouts[0])
                if layout_key is not None:
                    self.layouts[layout_key] = layout
            data_key = tuple([(k, id(v)) for k, v in data[0].items()])
            # the schedules are not in the key: they change a kernel's schedule fields and its name's suffixes only
            key = (creator, layout_key if layout_key is not None else layout, known.value, data_key,
                   id(epilogue_functor), id(swizzling_functor), id(gemm_kind))
            found = self.probes.get(key)
            if found is None:
                call = Call(layout, tile, data[0], epilogue_functor, swizzling_functor, gemm_kind, creator)
                found = self.probes[key] = (self.probe(original, call, tile, schedules[0], tile_schedulers[0]),
                                            call, tuple(data[0].values()))
            probe = found[0]
            if probe is None:
                return list(original(manifest, layouts, tile_descriptions, data_types, schedules,
                                     complex_transforms, epilogue_functor, swizzling_functor, tile_schedulers,
                                     **_kind(gemm_kind)))
            # the Call's fields (made a Call for a sampled member only)
            call_fields = (layout, tile, data[0], epilogue_functor, swizzling_functor, gemm_kind, creator)
            ends = self.ends(schedules, tile_schedulers)
            cluster = known.cluster
            cluster_key = None if "cluster" in self.ignored else cluster
            for op in probe:
                if not op.ok:
                    continue
                prefix = op.pattern.format(*known.cluster_text)
                emitted = self.seen.get(prefix, NO_SUFFIXES)
                real = prefix in self.real_prefixes      # the real Manifest holds names of this prefix
                part = op.part if op.part is not None else _name_part(op.config.kind, prefix)
                fresh = not emitted and not real         # every end of the call is a new name
                added: set[str] = set()
                for kernel_schedule, group in ends.groups:
                    if fresh:
                        new = group
                    else:
                        new = [e for e in group if e[0] not in emitted and
                               not (real and prefix + e[0] in self.manifest.operations_by_name)]
                        if not new:
                            continue
                        added.update(e[0] for e in new)
                    fast = (id(op), id(kernel_schedule), cluster_key, part)   # (ids: see `suffix`)
                    family = self.fast.get(fast)
                    if family is None:
                        schedule = enum_name(kernel_schedule)
                        whole = (op.base, schedule, part, cluster_key)
                        family = self.fast[fast] = self.by_key.get(whole) or self.new_family(
                            whole, replace(op.config, name=prefix + new[0][0], schedule=schedule, cluster=cluster))
                    low, high = min(new), max(new)
                    family.meet_many(len(new), prefix + low[0], prefix + high[0],
                                     (call_fields, kernel_schedule, low[1], low[2], prefix, low[0], cluster),
                                     (call_fields, kernel_schedule, high[1], high[2], prefix, high[0], cluster),
                                     [prefix + e[0] for e in new] if self.keep_names else None)
                if fresh:
                    self.seen[prefix] = ends.all
                elif added:
                    grown = emitted | added
                    self.seen[prefix] = self.suffix_sets.setdefault(grown, grown)
            return []
        return create_

    def new_family(self, key: tuple[KernelConfig, str, str, tuple[int, int, int] | None],
                   config: KernelConfig) -> Family:
        """A new family of `key` (a configuration with its name, schedule and cluster blanked, its schedule, the part
        of its name a mapper reads, its cluster unless ignored), the configuration of the member met first `config`
        (until `merge` makes it the least-named member's)."""
        found = self.by_key[key] = Family(config, names=[] if self.keep_names else None)
        return found

    def share(self) -> Share:
        """What this run found, for `merge`: its recorded families, the real Manifest's kernels in its order, and the
        names it emitted (for the check that two runs emitted no name alike)."""
        from cutlass_library.library import OperationKind
        operations = self.manifest.operations.get(OperationKind.Gemm, {})
        manifest = [config_of(op, self.arch) for by_name in operations.values() for ops in by_name.values()
                    for op in ops]
        return Share(list(self.by_key.items()), manifest, self.seen, {c.name for c in manifest})


@dataclass
class Share:
    """One generator run's families (`_Space.share`): a run of the whole call sequence, or of a contiguous part."""
    families: list[tuple[tuple[Any, ...], Family]]   # (family key, family), in the order first met
    manifest: list[KernelConfig]                      # the real Manifest's kernels, in its order
    seen: dict[str, frozenset[str]]                   # recorded names: part up to align<digits> -> suffixes
    manifest_names: set[str]


def _holds(seen: dict[str, frozenset[str]], name: str) -> bool:
    """Whether `seen` (recorded names: the part up to align<digits> -> the schedules' suffixes) holds `name`.  With
    every part ending in a digit and no suffix starting with one or holding align<digit>, two splits of one string
    cannot both be kept, so comparing splits compares names."""
    for m in re.finditer(r"align\d+", name):
        if name[m.end():] in seen.get(name[:m.end()], ()):
            return True
    return False


def shared_name(first: Share, second: Share) -> str | None:
    """A kernel name both runs emitted, or None: two parts of the call sequence merge exactly only without one (the
    Manifest keeps the first kernel of a name)."""
    small, large = sorted((first.seen, second.seen), key=len)
    for prefix, suffixes in small.items():
        common = suffixes & large.get(prefix, NO_SUFFIXES)
        if common:
            return prefix + min(common)
    for names, other in ((first.manifest_names, second), (second.manifest_names, first)):
        for name in names:
            if name in other.manifest_names or _holds(other.seen, name):
                return name
    return None


def merge(shares: list[Share], keep_names: bool) -> list[Family]:
    """The families of runs of contiguous parts of the call sequence (no name emitted by two of them: `shared_name`),
    with the real Manifests' kernels grouped in -- what one run of the whole sequence gives: a family met in several
    parts is one family.  Each family's samples are its least- and greatest-named members, its configuration the
    least-named one's, and the families are in the order of those names: none of it follows the order the generator
    emitted the kernels in, which differs from process to process."""
    by_key: dict[tuple[Any, ...], Family] = {}
    for part in shares:
        for key, family in part.families:
            found = by_key.get(key)
            if found is None:
                by_key[key] = family
                continue
            found.kernels += family.kernels
            assert family.low is not None and family.high is not None and found.low is not None and \
                found.high is not None
            found.low, found.high = min(found.low, family.low, key=_name), max(found.high, family.high, key=_name)
            if found.names is not None and family.names is not None:
                found.names += family.names
    for part in shares:
        for config in part.manifest:
            whole = (_blank(config), config.schedule, _name_part(config.kind, config.name),
                     None if "cluster" in IGNORED_FIELDS.get(config.arch, ()) else config.cluster)
            grown = by_key.get(whole)
            if grown is None:
                grown = by_key[whole] = Family(config, names=[] if keep_names else None)
            grown.meet(config.name, Member(config.name, config=config))
    out = list(by_key.values())
    for family in out:
        assert family.low is not None and family.high is not None
        low, high, recorded = _sample(family.low), _sample(family.high), family.low[1]
        if isinstance(recorded, Member):            # a kernel the generator built: its own configuration
            assert recorded.config is not None
            family.config = recorded.config
        else:                                       # a recorded member: the family's, with its name and cluster
            family.config = replace(family.config, name=low.name, cluster=recorded[RECORDED_CLUSTER])
        family.samples = [low] + ([high] if SAMPLE_HIGH and high.name != low.name else [])
        family.low = family.high = None
    return sorted(out, key=lambda f: f.config.name)


def _blank(config: KernelConfig) -> KernelConfig:
    """A configuration with what a family key holds apart blanked: its name, schedule and cluster (the key's own
    parts: (blanked configuration, schedule, name part, cluster unless ignored))."""
    return replace(config, **BLANKED)


def _name(named: Named) -> str:
    return named[0]


def _sample(named: Named) -> Member:
    recorded = named[1]
    return recorded if isinstance(recorded, Member) else _member(recorded)


def _name_part(kind: str, name: str) -> str:
    """What a mapper reads of a kernel's name: for the kinds in NAME_READING_KINDS, the named parts of blockwise.py's
    NAME pattern (the whole name when it does not match); nothing for the others."""
    if kind not in NAME_READING_KINDS:
        return ""
    found = NAME.search(name)
    return name if found is None else repr(sorted(found.groupdict().items()))


def _kind(gemm_kind: Any) -> dict[str, Any]:
    """The GemmKind argument of a Create call: none for a creator that takes none."""
    return {} if gemm_kind is None else {"gemm_kind": gemm_kind}


def _member(recorded: tuple[Any, ...]) -> Member:
    call, kernel_schedule, epilogue_schedule, tile_scheduler, prefix, end, _ = recorded
    return Member(prefix + end, Call(*call), kernel_schedule, epilogue_schedule, tile_scheduler)


@contextmanager
def _patched(space: _Space) -> Iterator[None]:
    """CUTLASS's generator with Create recorded into `space` and to_grouped_schedule memoized, restored after."""
    from cutlass_library import generator, library, sm90_utils
    originals = {creator: getattr(generator, creator) for creator in CREATORS}
    original_grouped = library.to_grouped_schedule
    grouped: dict[tuple[int, bool], tuple[Any, Any]] = {}    # (id of the schedule, grouped) -> (schedule, answer)

    def to_grouped_schedule(schedule: Any, is_grouped: bool) -> Any:
        # keyed by id (an Enum member's __hash__ runs in Python), the schedule kept beside its answer: an id is
        # reused only after its object is gone, and this one stays
        key = (id(schedule), is_grouped)
        found = grouped.get(key)
        if found is None or found[0] is not schedule:
            found = grouped[key] = (schedule, original_grouped(schedule, is_grouped))
        return found[1]

    modules = [m for m in (generator, library, sm90_utils) if "to_grouped_schedule" in m.__dict__]
    try:
        for creator, original in originals.items():
            setattr(generator, creator, space.create(original, creator))
        space.manifest.filter = space.real_filter(space.manifest.filter)
        for m in modules:
            m.to_grouped_schedule = to_grouped_schedule
        yield
    finally:
        for creator, original in originals.items():
            setattr(generator, creator, original)
        for m in modules:
            m.to_grouped_schedule = original_grouped


@contextmanager
def _part_of_sequence(arch: int, part: int | None) -> Iterator[None]:
    """GenerateSM<arch> running only its part `part` of its calls (None: all of them): part 0 the calls before the
    first call of SPLIT_AT[arch], part 1 that call and those after it.  Each of the generator's GenerateSM<arch>_*
    functions is wrapped; a call made inside another runs with it."""
    if part is None:
        yield
        return
    from cutlass_library import generator
    cut = SPLIT_AT[arch]
    reached = [False]
    depth = [0]

    def wrapped(original: Callable[..., Any], name: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if depth[0] == 0:
                reached[0] = reached[0] or name == cut
                if reached[0] != (part == 1):
                    return None
            depth[0] += 1
            try:
                return original(*args, **kwargs)
            finally:
                depth[0] -= 1
        return call

    originals = {name: getattr(generator, name) for name in _sequence(arch)}
    try:
        for name, original in originals.items():
            setattr(generator, name, wrapped(original, name))
        yield
    finally:
        for name, original in originals.items():
            setattr(generator, name, original)


def _sequence(arch: int) -> tuple[str, ...]:
    """The generator functions GenerateSM<arch> calls (the names its code refers to)."""
    from cutlass_library import generator
    top = getattr(generator, f"GenerateSM{arch}")
    return tuple(n for n in dict.fromkeys(top.__code__.co_names)
                 if n.startswith(f"GenerateSM{arch}_") and callable(getattr(generator, n, None)))


def generate_share(arch: int, level: str = "", part: int | None = None, keep_names: bool = False) -> Share:
    """The families of the kernels the generator emits for `arch` at `level` in its part `part` of the call sequence
    (None: the whole sequence), in this process."""
    try:
        from cutlass_library import manifest
    except ImportError as e:
        raise SpaceError(f"cutlass_library is not installed ({e}): pip install --no-deps nvidia-cutlass") from None
    space = _Space(arch, manifest.Manifest(manifest_args(arch, level)), manifest.Manifest(manifest_args(arch, level)),
                   keep_names)
    with _patched(space), _part_of_sequence(arch, part):
        run_generator(arch, level, space.manifest)
    return space.share()


def generator_alone(arch: int, level: str, part: int | None) -> None:
    """The generator's part `part` of its call sequence (None: all of it) at `level`, run as `generate_share` runs it
    but with its 3.x Create calls doing nothing: what listing the space costs before a kernel is built, named or
    recorded (benchmarks/prescreen.py --generator-floor)."""
    from cutlass_library import generator, manifest

    def nothing(*args: Any, **kwargs: Any) -> list[Any]:
        return []
    m = manifest.Manifest(manifest_args(arch, level))
    space = _Space(arch, m, manifest.Manifest(manifest_args(arch, level)), False)
    with _patched(space), _part_of_sequence(arch, part), gc_paused():
        for creator in CREATORS:          # in place of the recording ones (_patched restores the originals)
            setattr(generator, creator, nothing)
        run_generator(arch, level, m)


def generate_families(arch: int, level: str = "", keep_names: bool = False) -> list[Family]:
    """The families of the kernels the generator emits for `arch` at `level`, in this process."""
    return merge([generate_share(arch, level, None, keep_names)], keep_names)


def _share_of_part(part: int) -> Callable[[int, str], Share]:
    return partial(_share_in_child, part=part)


def _share_in_child(arch: int, level: str, part: int) -> Share:
    return generate_share(arch, level, part)


def families(arch: int, level: str, limit_s: float = FAMILY_LIMIT_S, jobs: int = 1) -> list[Family]:
    """`generate_families` in a child process stopped after `limit_s` seconds; with two jobs or more and an
    architecture whose sequence SPLIT_AT cuts, its two parts in two children at once, merged (`merge`) when no name
    was emitted by both (else the whole sequence again, in one child)."""
    if jobs < 2 or arch not in SPLIT_AT or SPLIT_AT[arch] not in _sequence(arch):
        return in_child(generate_families, arch, level, limit_s)
    shares = in_children([_share_of_part(0), _share_of_part(1)], arch, level, limit_s)
    name = shared_name(shares[0], shares[1])
    if name is None:
        return merge(shares, keep_names=False)
    print(f"prescreen-cutlass: both parts of the generator's calls emit {name}: listing it in one run",
          file=sys.stderr, flush=True)
    return in_child(generate_families, arch, level, limit_s)


@lru_cache(maxsize=None)
def _sample_args(arch: int, level: str) -> Any:
    """The Manifest's arguments for the samples of one space, made once (the Manifest only reads them)."""
    return manifest_args(arch, level)


def sample_config(member: Member, arch: int, level: str) -> KernelConfig:
    """A family member through the per-kernel path: its Create call run again by CUTLASS's real Create into a real
    Manifest, the kernel of its name taken from the Manifest."""
    if member.config is not None:
        return member.config
    from cutlass_library import generator, manifest
    from cutlass_library.library import OperationKind
    call = member.call
    assert call is not None
    m = manifest.Manifest(_sample_args(arch, level))
    getattr(generator, call.creator)(
        m, [[list(x) for x in call.layout]], [call.tile], call.data_type,
        [[member.kernel_schedule, member.epilogue_schedule]], epilogue_functor=call.epilogue_functor,
        swizzling_functor=call.swizzling_functor, tile_schedulers=[member.tile_scheduler], **_kind(call.gemm_kind))
    found = [op for by_name in m.operations.get(OperationKind.Gemm, {}).values() for ops in by_name.values()
             for op in ops if op.procedural_name() == member.name]
    if len(found) != 1:
        raise SpaceError(f"{member.name}: CUTLASS's Create, called again for this family member, emits "
                         f"{len(found)} kernels of its name")
    return config_of(found[0], arch)
