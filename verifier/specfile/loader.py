"""Reading spec files (format versions 1 and 2: README, "Spec format") into validated `Spec` objects.

ruamel.yaml's round-trip loader keeps the line and column of every node and refuses duplicate keys, so
every problem becomes a `SpecError` that says `file:line:column: message`; nothing else escapes.  Where libyaml
composes exactly the node tree ruamel's parser would (verifier/specfile/libyaml.py), it composes it, faster; every
error is still ruamel's.
Layout strings are parsed by the algebra's own parser, and its column is mapped back into the file.

Hostile input is bounded before it can cost much: files over MAX_SPEC_BYTES, flow collections nested deeper
than MAX_FLOW_NESTING, more than MAX_YAML_EVENTS parser events, documents whose aliases expand past
MAX_YAML_NODES nodes, keys that are lists or maps, and integers with absurdly many digits are refused with
one line; messages repeat at most ECHO_LIMIT characters of any value. An included file must show it is a
spec (a mapping with `version: 1`) before anything it contains is quoted, and it must lie inside the
repository of the spec the user named unless `allow_outside` is given.
"""
from __future__ import annotations

import os
import re
import stat
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Callable, Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import (MarkedYAMLError, MarkedYAMLFutureWarning, MarkedYAMLWarning, YAMLError,
                               YAMLFutureWarning, YAMLWarning)
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.parser import Parser
from ruamel.yaml.reader import ReaderError
from ruamel.yaml.scanner import Scanner

from ..algebra import Layout
from ..algebra.inttuple import flatten_to_tuple
from ..echo import ECHO_LIMIT, quote, quote_path, shorten
from . import libyaml
from .files import is_inside, repository_root, spec_files
from .library import LIBRARY_SCHEME, library_file, library_files
from .model import (METADATA_KEY, METADATA_UTCCP_COPIES, SCALE_KEY, TMA_COPIES, TMEM_METADATA_INSTRUCTION,
                    UTCCP_COPIES, CheckSpec, CopyAtomSpec, Loc, MMAAtomSpec, Spec, SpecError)
from .fields import (MAX_NAME_LENGTH, AtomTable, Fields,
                     YamlFile, is_int, read_choice, read_tiled, read_value_type, refuse_keys, show, value_kind)
from .family import FAMILY_KEY, FamilyCheck, read_family
from .sweep import MAX_SWEEP_CHECKS, SWEEP_KEY, expand
from .vocabulary import (CHECK_KEYS, COPY_KEYS, COPY_REQUIRED, EXPECTS, FORMAT_VERSIONS, MMA_KEYS, MMA_REQUIRED,
                         OPERANDS, SCALE_TYPE_KEYS, SP_SELS, SPARSE_TYPE_KEYS, TOP_KEYS, TYPE_KEYS, V2_KEYS)

MAX_SPEC_BYTES = 1 << 20   # the largest spec of the catalog is 114 KB; ruamel's pure parser reads ~0.3 MB a second
MAX_FLOW_NESTING = 64      # [ and { inside each other; ruamel's scanner slows quadratically with the depth
MAX_YAML_EVENTS = 30_000   # parser events (about one per node); the largest spec of specs/ has 9,455
MAX_FILE_CHECKS = MAX_SWEEP_CHECKS   # checks one file may hold, its sweeps expanded
MAX_YAML_NODES = 100_000   # nodes of the document with every alias expanded (a "billion laughs" has 10**9)
MAX_INT_CHARS = 40         # an integer written with more characters is a typo (CuTe's are 64-bit)
RUAMEL_WARNINGS = (YAMLWarning, YAMLFutureWarning, MarkedYAMLWarning, MarkedYAMLFutureWarning)
INT_TAG = "tag:yaml.org,2002:int"
FLOAT_TAG = "tag:yaml.org,2002:float"
_INT_START = re.compile(r"[-+]?[0-9]")
_FLOAT_START = re.compile(r"[-+]?(\.?[0-9]|\.(inf|nan))", re.IGNORECASE)



# --- atoms -------------------------------------------------------------------------------------------

def _check_tv_layout(fl: Fields, k: str, layout: Layout, threads: int) -> None:
    """A (thr,val) layout of an atom: rank 2, thr_id's threads in mode 0, and every value an index of the tile (a
    negative one is no coordinate: the theorems' address arithmetic would be asked to swizzle it)."""
    if layout.rank() != 2:
        raise SpecError(fl.at(k), f"'{k}' of {fl.what} must be a (thr,val) layout of rank 2, not rank {layout.rank()}")
    got = int(layout.mode(0).size())
    if got != threads:
        raise SpecError(fl.at(k), f"'{k}' of {fl.what} has {got} threads in mode 0, but thr_id has {threads}")
    lowest = _lowest_value(layout)
    if lowest < 0:
        raise SpecError(fl.at(k), f"'{k}' of {fl.what} maps a (thread, value) to the index {lowest}: a (thr,val) "
                                  "layout's values are indices into the atom's tile, never negative")


def _lowest_value(layout: Layout) -> int:
    """The least value a plain layout with integer strides takes: each negative stride at its mode's last index."""
    return sum((int(n) - 1) * int(d) for n, d in zip(flatten_to_tuple(layout.shape), flatten_to_tuple(layout.stride))
               if int(d) < 0)


def _thr_id(fl: Fields) -> Layout:
    """An atom's thr_id (its threads' indices): a layout of non-negative values."""
    thr_id: Layout = fl.layout("thr_id")        # a plain layout (no swizzle)
    if _lowest_value(thr_id) < 0:
        thread, index = next((i, int(v)) for i, v in enumerate(thr_id.values()) if int(v) < 0)     # the first
        raise SpecError(fl.at("thr_id"), f"'thr_id' of {fl.what} gives thread {thread} the index {index}: "
                                         "a thread's index is never negative")
    return thr_id


def _mma_atom(f: YamlFile, name: str, m: Any, loc: Loc) -> MMAAtomSpec:
    fl = Fields(f, m, f"MMA atom {quote(name)}", loc)
    fl.only(MMA_KEYS)
    fl.require(MMA_REQUIRED)
    thr_id = _thr_id(fl)
    threads = int(thr_id.size())
    operands = {}
    for k in ("a", "b", "c"):
        operands[k] = fl.layout(k)
        _check_tv_layout(fl, k, operands[k], threads)
    types_fl = fl.sub("types", TYPE_KEYS + SCALE_TYPE_KEYS + SPARSE_TYPE_KEYS)
    types_fl.require(TYPE_KEYS)
    types = {k: read_value_type(types_fl.m[k], types_fl.at(k), f"type of '{k}' in {fl.what}")
             for k in TYPE_KEYS + tuple(k for k in SCALE_TYPE_KEYS + SPARSE_TYPE_KEYS if types_fl.has(k))}
    e, sp_sel = _metadata(fl, types_fl, threads)
    return MMAAtomSpec(name=name, instruction=fl.opt_str("instruction"),
                       shape_mnk=fl.int_list("shape_mnk", 3, 3),  # type: ignore[arg-type]
                       thr_id=thr_id, types=types, a=operands["a"], b=operands["b"], c=operands["c"],
                       loc=loc, field_locs=fl.locs, source=fl.opt_str("source"), e=e, sp_sel=sp_sel)


def _metadata(fl: Fields, types_fl: Fields, threads: int) -> tuple[Layout | None, int]:
    """A structured-sparse MMA's metadata: `e:` (MMA_Traits::ELayout) with its type `types: {e: ...}`, and `sp_sel:`
    (the Op's sparsity selector, default 0); all three or none but `sp_sel`.  A tcgen05.mma.sp atom reads its metadata
    from tensor memory: CuTe's traits give it ValTypeE and no thread layout, so `types: {e: ...}` alone."""
    if not fl.has("e"):
        tmem_metadata = (fl.opt_str("instruction") or "").strip().startswith(TMEM_METADATA_INSTRUCTION)
        if tmem_metadata and fl.has("sp_sel"):
            raise SpecError(fl.at("sp_sel"), f"'sp_sel' of {fl.what}: tcgen05.mma.sp takes its sparsity selector from "
                                             "the instruction descriptor of each MMA (CuTe: bit 0 of the metadata's "
                                             "tensor-memory address), not from the atom")
        for k, where in (("sp_sel", fl),) + ((("e", types_fl),) if not tmem_metadata else ()):
            if where.has(k):
                raise SpecError(where.at(k), f"'{k}' of {fl.what} belongs to a structured-sparse MMA: give its "
                                             "metadata layout 'e' (MMA_Traits::ELayout) too")
        return None, 0
    e = fl.layout("e")
    _check_tv_layout(fl, "e", e, threads)
    if not types_fl.has("e"):
        raise SpecError(fl.at("types"), f"{fl.what} has a metadata layout 'e': 'types' needs its type 'e' "
                                        "(MMA_Traits::ValTypeE, e.g. sparse_elem<8,uint8_t>)")
    sp_sel = 0
    if fl.has("sp_sel"):
        x = fl.m["sp_sel"]
        if not is_int(x) or not 0 <= x < SP_SELS:
            raise SpecError(fl.at("sp_sel"), f"'sp_sel' of {fl.what} is the sparsity selector, an integer in "
                                             f"0..{SP_SELS - 1}, not {show(x)}")
        sp_sel = int(x)
    return e, sp_sel


def _copy_atom(f: YamlFile, name: str, m: Any, loc: Loc) -> CopyAtomSpec:
    fl = Fields(f, m, f"copy atom {quote(name)}", loc)
    fl.only(COPY_KEYS)
    fl.require(COPY_REQUIRED)
    thr_id = _thr_id(fl)
    threads = int(thr_id.size())
    src, dst = fl.layout("src"), fl.layout("dst")
    ref_word = fl.m["ref"]
    if isinstance(ref_word, str) and str(ref_word).strip() in ("src", "dst"):
        ref_is = str(ref_word).strip()
        ref = src if ref_is == "src" else dst
    else:
        ref_is, ref = "layout", fl.layout("ref")
    for k, layout in (("src", src), ("dst", dst), ("ref", ref)):
        _check_tv_layout(fl, k, layout, threads)
    return CopyAtomSpec(name=name, instruction=fl.opt_str("instruction"), thr_id=thr_id, src=src, dst=dst,
                        ref=ref, ref_is=ref_is, loc=loc, field_locs=fl.locs, source=fl.opt_str("source"))


def _assumes(fl: Fields) -> tuple[str, ...]:
    """`assumes:` one sentence or a list of them."""
    if not fl.has("assumes"):
        return ()
    x = fl.m["assumes"]
    items = [x] if isinstance(x, str) else list(x) if isinstance(x, CommentedSeq) else None
    if items is None or not all(isinstance(i, str) for i in items):
        raise SpecError(fl.at("assumes"), f"'assumes' of {fl.what} must be a sentence or a list of sentences, "
                                          f"not {show(x)}")
    return tuple(str(i) for i in items)


def _family(f: YamlFile, name: str, m: CommentedMap, loc: Loc, atoms: AtomTable) -> FamilyCheck:
    """A `family:` check (version 2): every member built as a check of its own (specfile/family.py)."""
    from ..kinds.shared_tile import shared_tile_bytes
    if f.version < 2:
        raise SpecError(f.key(m, FAMILY_KEY), f"'{FAMILY_KEY}' of check {quote(name)} is a version 2 key: the file "
                                              "needs 'version: 2'")
    return read_family(f, name, m, loc, lambda n, body: _check(f, n, body, loc, atoms), shared_tile_bytes)


def _check(f: YamlFile, name: str, m: Any, loc: Loc, atoms: AtomTable) -> CheckSpec:
    """One check: the fields every check has, then its kind's (the kind registry says which kind it is)."""
    from ..kinds.registry import atomless_keys, kind_keys, recognise
    fl = Fields(f, m, f"check {quote(name)}", loc)
    fl.only(CHECK_KEYS + tuple(k for k in kind_keys() if k not in CHECK_KEYS))
    if not fl.has("mma") and not fl.has("copy") and not any(fl.has(k) for k in atomless_keys()):
        raise SpecError(loc, f"{fl.what} names no atom: give 'mma', 'copy' or both")
    check = CheckSpec(name=name, loc=loc, field_locs=fl.locs, description=fl.opt_str("description"),
                      source=fl.opt_str("source"), assumes=_assumes(fl))
    mma: MMAAtomSpec | None = None
    if fl.has("mma"):
        check.mma = atoms.lookup(fl, "mma", atoms.mma, "MMA atom")
        mma = atoms.mma[check.mma]
        tiled = read_tiled(fl, mma)
        check.atom_layout, check.permutation = tiled.atom_layout, tiled.permutation
    else:
        refuse_keys(fl, ("atom_layout", "permutation", "operand"), "needs 'mma'")
    for k in V2_KEYS:
        if fl.has(k) and f.version < 2:
            raise SpecError(fl.f.key(fl.m, k), f"'{k}' of {fl.what} is a version 2 key: the file needs 'version: 2'")
    if fl.has("copy"):
        named = fl.opt_str("copy")
        builtin = TMA_COPIES + UTCCP_COPIES + METADATA_UTCCP_COPIES    # copies named by CuTe's Op, no atom needed
        if named in builtin and f.version < 2:
            what = "TMA" if named in TMA_COPIES else "tcgen05.cp"
            raise SpecError(fl.at("copy"), f"{fl.what}: the {what} copy {named} is a version 2 feature: the file "
                                           "needs 'version: 2'")
        if named in UTCCP_COPIES and not fl.has(SCALE_KEY):
            raise SpecError(fl.at("copy"), f"{fl.what}: {named} (tcgen05.cp) copies a block-scaled MMA's scale "
                                           f"factors: a check of it says whose with '{SCALE_KEY}: A' or B")
        if named in METADATA_UTCCP_COPIES and not fl.has(METADATA_KEY):
            raise SpecError(fl.at("copy"), f"{fl.what}: {named} (tcgen05.cp.128x128b) copies a tcgen05.mma.sp's "
                                           f"metadata into tensor memory: a check of it says '{METADATA_KEY}: A'")
        copy = named if named in builtin else atoms.lookup(fl, "copy", atoms.copy, "copy atom")
        check.copy = copy
        if not fl.has("value_type"):
            raise SpecError(loc, f"{fl.what} names copy atom {quote(check.copy)} but no 'value_type' "
                                 "(the element type the copy moves, e.g. half_t)")
        check.value_type = read_value_type(fl.m["value_type"], fl.at("value_type"), f"'value_type' of {fl.what}")
    else:
        refuse_keys(fl, ("value_type",), "needs 'copy'")
    if fl.has("operand"):
        check.operand = read_choice(fl.m["operand"], fl.at("operand"), f"'operand' of {fl.what}", OPERANDS,
                                    upper=True)
    typed = recognise(fl, mma).read(fl, check, mma, atoms)
    if fl.has("expect"):
        typed.expect = read_choice(fl.m["expect"], fl.at("expect"), f"'expect' of {fl.what}", EXPECTS, upper=False)
    return typed


# --- reading one file --------------------------------------------------------------------------------

def _read_text(path: str) -> str:
    """The text of a spec file; refusals say what is wrong with the file, never what it contains."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise SpecError(None, f"spec file {quote_path(path)} not found") from None
    except OSError as e:   # a symlink loop (ELOOP), a permission, a name too long
        raise SpecError(None, f"cannot read spec file {quote_path(path)}: {e.strerror}") from None
    if not stat.S_ISREG(info.st_mode):   # a directory, a FIFO or a device would block or never end
        raise SpecError(None, f"{quote_path(path)} is not a regular file")
    if info.st_size > MAX_SPEC_BYTES:
        raise SpecError(None, f"spec file {quote_path(path)} has {info.st_size} bytes; at most {MAX_SPEC_BYTES} "
                              f"({MAX_SPEC_BYTES >> 20} MiB) are supported")
    try:
        with open(path, "rb") as fp:
            data = fp.read(MAX_SPEC_BYTES + 1)
    except OSError as e:
        raise SpecError(None, f"cannot read spec file {quote_path(path)}: {e.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise SpecError(Loc(path, line, column), "not UTF-8 text") from None


class _YAMLTooLarge(Exception):
    """More parser events than MAX_YAML_EVENTS: raised from inside ruamel's composer, at the event's mark."""

    def __init__(self, mark: Any) -> None:
        super().__init__("too many YAML events")
        self.mark = mark


class _BoundedParser(Parser):
    """ruamel's parser, stopped after MAX_YAML_EVENTS events (the composer asks for them one by one).  Not the
    round-trip parser: comments are never read, and skipping them saves a quarter of the parse."""

    def get_event(self) -> Any:
        self.events_seen = getattr(self, "events_seen", 0) + 1
        event = super().get_event()
        if self.events_seen > MAX_YAML_EVENTS:
            raise _YAMLTooLarge(event.start_mark)
        return event


def _yaml() -> YAML:
    yaml = YAML(typ="rt")            # round-trip: every node keeps its line and column; loads no objects
    yaml.Scanner = Scanner           # the plain scanner and parser: positions and quoting styles, no comments
    yaml.Parser = _BoundedParser
    yaml.allow_duplicate_keys = False
    yaml.preserve_quotes = True      # so that a layout's column inside "..." can be found
    return yaml


def _compose_with_ruamel(text: str) -> Node | None:
    """ruamel's pure parser on `text`, with a parser of its own (event counts are kept per parser)."""
    root: Node | None = _yaml().compose(text)
    return root


def _mark_loc(path: str, mark: Any) -> Loc:
    return Loc(path, mark.line + 1, mark.column + 1) if mark is not None else Loc(path, 1, 1)


def _check_flow_nesting(path: str, text: str) -> None:
    """Refuses [ and { nested more than MAX_FLOW_NESTING deep (counted in all the text, quotes included)."""
    depth = 0
    for m in re.finditer(r"[\[\]{}]", text):
        depth = depth + 1 if m.group() in "[{" else max(0, depth - 1)
        if depth > MAX_FLOW_NESTING:
            line = text.count("\n", 0, m.start()) + 1
            column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
            raise SpecError(Loc(path, line, column), f"nested too deeply (more than {MAX_FLOW_NESTING} levels of "
                                                     "[ and {)")


def _check_nodes(path: str, root: Node | None) -> None:
    """Before any object is built: every mapping key is a scalar, no integer has absurdly many digits, and the
    document, each alias expanded where it is used, has at most MAX_YAML_NODES nodes."""
    stack: list[Node] = [root] if root is not None else []
    visits = 0
    while stack:
        node = stack.pop()
        visits += 1
        if visits > MAX_YAML_NODES:
            raise SpecError(_mark_loc(path, root.start_mark if root is not None else None),
                            f"the document expands to more than {MAX_YAML_NODES} nodes (YAML aliases?)")
        if isinstance(node, MappingNode):
            for key, value in node.value:
                if not isinstance(key, ScalarNode):
                    raise SpecError(_mark_loc(path, key.start_mark),
                                    f"a key must be a plain name, not {_node_kind(key)}")
                stack += (key, value)
        elif isinstance(node, SequenceNode):
            stack += node.value
        elif isinstance(node, ScalarNode):
            problem = _number_problem(node)
            if problem is not None:
                raise SpecError(_mark_loc(path, node.start_mark), problem)


def _number_problem(node: ScalarNode) -> str | None:
    """What ruamel could not build from a scalar tagged (or resolved) as a number: a huge integer (Python refuses
    to convert more than 4300 digits), or text that does not start like a number (ruamel fails on it)."""
    if node.tag == INT_TAG:
        if len(node.value) > MAX_INT_CHARS:
            return f"an integer of {len(node.value)} characters is too large (at most {MAX_INT_CHARS})"
        if not _INT_START.match(node.value):
            return "a value tagged !!int is not an integer"
    if node.tag == FLOAT_TAG and not _FLOAT_START.match(node.value):
        return "a value tagged !!float is not a number"
    return None


def _node_kind(node: Node) -> str:
    return "a list" if isinstance(node, SequenceNode) else "a mapping" if isinstance(node, MappingNode) else "a value"


def _parse_yaml(path: str, text: str, quote: bool) -> Any:
    """The document in `text`; YAML errors quote the text only when `quote` (never for an include)."""
    _check_flow_nesting(path, text)
    yaml = _yaml()
    try:
        with warnings.catch_warnings():   # ruamel warns (a reused anchor...) with excerpts of the file, on stderr
            for category in RUAMEL_WARNINGS:
                warnings.simplefilter("ignore", category)
            root = libyaml.compose(text, MAX_YAML_EVENTS, _compose_with_ruamel)
            if root is libyaml.NOT_COMPOSED:
                root = yaml.compose(text)
            _check_nodes(path, root)
            return yaml.constructor.construct_document(root) if root is not None else None
    except _YAMLTooLarge as e:
        raise SpecError(_mark_loc(path, e.mark), f"the document has more than {MAX_YAML_EVENTS} YAML nodes") from None
    except MarkedYAMLError as e:
        raise _yaml_error(path, e, quote) from None
    except ReaderError as e:   # a character YAML does not allow; it knows only the offset
        raise _reader_error(path, text, e, quote) from None
    except YAMLError as e:
        problem = " ".join(str(e).split()) if quote else "unreadable"
        raise SpecError(Loc(path, 1, 1), f"bad YAML: {shorten(problem, 4 * ECHO_LIMIT)}") from None
    except RecursionError:
        raise SpecError(Loc(path, 1, 1), "bad YAML: nested too deeply") from None
    except (ValueError, ArithmeticError, KeyError) as e:   # a scalar ruamel cannot convert: 2001-13-45, !!bool x
        detail = f": {shorten(str(e))}" if quote else ""
        raise SpecError(Loc(path, 1, 1), f"bad YAML: a value cannot be read{detail}") from None


def _reader_error(path: str, text: str, e: ReaderError, quote: bool) -> SpecError:
    line = text.count("\n", 0, e.position) + 1
    column = e.position - (text.rfind("\n", 0, e.position) + 1) + 1
    code = ord(e.character) if isinstance(e.character, str) and len(e.character) == 1 else e.character
    char = f" (U+{code:04X})" if isinstance(code, int) and quote else ""
    return SpecError(Loc(path, line, column), f"bad YAML: {e.reason}{char}")


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def _yaml_error(path: str, e: MarkedYAMLError, quote: bool) -> SpecError:
    """One line from ruamel's error: quoted excerpts (a duplicate key's value...) shortened, or dropped."""
    mark = e.problem_mark or e.context_mark
    loc = _mark_loc(path, mark)
    problem = str(e.problem or "syntax error")
    if isinstance(e, DuplicateKeyError):   # the key is enough; ruamel also quotes both values
        problem = problem.split(" with value ")[0]
    problem = _excerpts(problem, quote)
    if e.context and e.context_mark is not None and e.context_mark is not mark:
        cm = e.context_mark
        problem += f" ({_excerpts(str(e.context), quote)} that starts at line {cm.line + 1}, column {cm.column + 1})"
    elif e.context:
        problem += f" ({_excerpts(str(e.context), quote)})"
    return SpecError(loc, f"bad YAML: {problem}")


def _excerpts(text: str, quote: bool) -> str:
    """ruamel's message on one line, each quoted excerpt of the file cut short (or left out)."""
    def cut(m: re.Match[str]) -> str:
        return m.group()[0] + shorten(m.group()[1:-1]) + m.group()[-1] if quote else "..."
    return shorten(" ".join(_QUOTED.sub(cut, text).split()), 4 * ECHO_LIMIT)


def _read_document(path: str, quote: bool) -> Any:
    return _parse_yaml(path, _read_text(path), quote)


def _spec_kind_problem(doc: Any) -> str | None:
    """Why a document is not a spec at all (without a word of its content), or None."""
    if not isinstance(doc, CommentedMap):
        return f"its top level is {value_kind(doc)}, not a mapping"
    if "version" not in doc:
        return "it has no 'version'"
    if not is_int(doc["version"]) or doc["version"] not in FORMAT_VERSIONS:
        return f"its 'version' is not one of {', '.join(map(str, FORMAT_VERSIONS))}"
    return None


# --- repositories and includes -----------------------------------------------------------------------

class _Loader:
    """Loads files and their includes once each; `stack` is the include chain, for cycles."""

    def __init__(self, allow_outside: bool = False, only: frozenset[str] | None = None) -> None:
        self.allow_outside = allow_outside
        self.only = only              # build only the checks of these names (the others: named, not read)
        self.cache: dict[str, Spec] = {}
        self.stack: list[str] = []

    def load(self, path: str, included_at: Loc | None = None, root: str | None = None) -> Spec:
        """`path` as the user named it (root None: its repository is computed) or as included at `included_at`."""
        root = repository_root(path) if root is None else root
        key = os.path.realpath(path)
        if key in self.stack:
            chain = " -> ".join(os.path.basename(p) for p in self.stack[self.stack.index(key):] + [key])
            raise SpecError(included_at, f"include cycle: {chain}")
        if key not in self.cache:
            self.stack.append(key)
            try:
                self.cache[key] = self._load_file(path, included_at, root)
            finally:
                self.stack.pop()
        return self.cache[key]

    def _load_file(self, path: str, included_at: Loc | None, root: str) -> Spec:
        f = YamlFile(path)
        doc = _read_document(path, quote=True) if included_at is None else _included_document(path, included_at)
        top = Fields(f, doc, f"the top level of {path}", Loc(path, 1, 1))
        top.only(TOP_KEYS)
        if "version" not in doc or not is_int(doc["version"]) or doc["version"] not in FORMAT_VERSIONS:
            where = top.at("version") if "version" in doc else top.loc
            got = show(doc["version"]) if "version" in doc else "nothing"
            raise SpecError(where, f"'version' must be {' or '.join(map(str, FORMAT_VERSIONS))} (the spec formats "
                                   f"this tool reads), not {got}")
        f.version = int(doc["version"])
        top.require(("name",))
        spec_name = top.opt_str("name")
        if not spec_name:
            raise SpecError(top.at("name"), "'name' must be a non-empty string")
        atoms = AtomTable()
        includes = self._includes(f, top, atoms, root)   # first, so that a clash points at this file's atom
        for n, m, loc in self._section(f, top, "mma_atoms"):
            atoms.add(atoms.mma, _mma_atom(f, n, m, loc), "MMA atom", loc)
        for n, m, loc in self._section(f, top, "copy_atoms"):
            atoms.add(atoms.copy, _copy_atom(f, n, m, loc), "copy atom", loc)
        checks: dict[str, CheckSpec] = {}
        unbuilt: dict[str, None] = {}
        wanted = None if self.only is None else self.only.__contains__
        for n, m, loc in _expand_sweeps(f, self._section(f, top, "checks"), wanted):
            if n in checks or n in unbuilt:
                raise SpecError(loc, f"check {quote(n)} is defined twice (a sweep expands into a name used again)")
            if wanted is not None and not wanted(n):
                unbuilt[n] = None
                continue
            if isinstance(m, CommentedMap) and FAMILY_KEY in m:
                checks[n] = _family(f, n, m, loc, atoms)
            else:
                checks[n] = _check(f, n, m, loc, atoms)
        closure = [path] + [p for inc in includes for p in self.cache[os.path.realpath(inc)].closure]
        return Spec(path=path, name=spec_name, version=f.version, mma_atoms=atoms.mma, copy_atoms=atoms.copy,
                    checks=checks, includes=includes, loc=f.node(doc), description=top.opt_str("description"),
                    closure=list(dict.fromkeys(closure)), unbuilt=list(unbuilt))

    def _includes(self, f: YamlFile, top: Fields, atoms: AtomTable, root: str) -> list[str]:
        if not top.has("include"):
            return []
        x = top.m["include"]
        items = [(x, top.at("include"))] if isinstance(x, str) else None
        if isinstance(x, CommentedSeq):
            items = [(v, f.item(x, i)) for i, v in enumerate(x)]
        if items is None:
            raise SpecError(top.at("include"), f"'include' must be a list of file paths, not {show(x)}")
        paths = []
        for rel, loc in items:
            path = self._include_path(f, rel, loc, root)
            try:
                inc = self.load(path, loc, root)
            except SpecError as e:
                if e.loc is None or e.loc.file == f.path:
                    raise
                raise SpecError(e.loc, f"{e.message} (included from {loc})") from None
            for mma_atom in inc.mma_atoms.values():   # only atoms are imported, never the include's checks
                atoms.add(atoms.mma, mma_atom, "MMA atom", loc)
            for copy_atom in inc.copy_atoms.values():
                atoms.add(atoms.copy, copy_atom, "copy atom", loc)
            paths.append(path)
        return paths

    def _include_path(self, f: YamlFile, rel: Any, loc: Loc, root: str) -> str:
        """The file an `include:` item names, relative to the including file; it must exist and, unless
        allow_outside, lie (symlinks followed) inside the repository of the spec the user named."""
        if not isinstance(rel, str) or not rel.strip():
            raise SpecError(loc, f"an include must be a file path, not {show(rel)}")
        if not rel.isprintable():
            raise SpecError(loc, f"an include must be a printable file path, not {quote(rel)}")
        if rel.startswith(LIBRARY_SCHEME):          # the installed atom library: trusted, wherever the spec is
            found = library_file(rel)
            if found is None:
                raise SpecError(loc, f"{quote(rel)} names no file of the installed atom library (it has "
                                     f"{', '.join(LIBRARY_SCHEME + 'atoms/' + n for n in library_files()[:4])}, ...)")
            return str(found)
        path = os.path.normpath(os.path.join(os.path.dirname(f.path), str(rel)))
        if not os.path.lexists(path):
            raise SpecError(loc, f"included file {quote_path(rel)} not found (looked for {quote_path(path)})")
        if not self.allow_outside and not is_inside(path, root):
            raise SpecError(loc, f"included file {quote_path(rel)} is outside the repository {quote_path(root)}; "
                                 "pass --allow-outside to permit it")
        return path

    @staticmethod
    def _section(f: YamlFile, top: Fields, section: str) -> list[tuple[str, Any, Loc]]:
        """(name, body, where the name is written) for each entry of a top-level section, in file order."""
        if not top.has(section):
            return []
        table = top.m[section]
        if not isinstance(table, CommentedMap):
            raise SpecError(top.at(section), f"'{section}' must be a mapping of names to entries, not {show(table)}")
        entries = []
        for name, body in table.items():
            loc = f.key(table, name)
            _check_name(name, loc, section)
            entries.append((str(name), body, loc))
        return entries


def _included_document(path: str, included_at: Loc) -> Any:
    """An included file's document, refused at the include line, with no word of its content, unless it is a spec
    (a mapping with `version: 1`)."""
    shown = quote_path(path)
    try:
        doc = _read_document(path, quote=False)
    except SpecError as e:
        where = f" at {e.loc}" if e.loc is not None else ""
        raise SpecError(included_at, f"included file {shown} is not a spec file ({e.message}{where})") from None
    problem = _spec_kind_problem(doc)
    if problem is not None:
        raise SpecError(included_at, f"included file {shown} is not a spec file ({problem})")
    return doc


def _expand_sweeps(f: YamlFile, entries: list[tuple[str, Any, Loc]],
                   wanted: Callable[[str], bool] | None = None) -> list[tuple[str, Any, Loc]]:
    """Checks as written, with every swept template (`sweep:`, version 2; spec/sweep.py) expanded in place (the
    bodies of expanded checks not `wanted` are not built: their entries carry None)."""
    out: list[tuple[str, Any, Loc]] = []
    for name, body, loc in entries:
        if isinstance(body, CommentedMap) and SWEEP_KEY in body:
            if f.version < 2:
                raise SpecError(f.key(body, SWEEP_KEY), f"'{SWEEP_KEY}' of check {quote(name)} is a version 2 key: "
                                                        "the file needs 'version: 2'")
            out += expand(f, name, body, loc, CHECK_KEYS, lambda n, at: _check_name(n, at, "checks"), wanted)
        else:
            out.append((name, body, loc))
        if len(out) > MAX_FILE_CHECKS:      # the sweeps' cap holds each sweep; this one the whole file
            raise SpecError(loc, f"the file's checks number more than {MAX_FILE_CHECKS} once its sweeps are "
                                 f"expanded (at check {quote(name)}); split it into several files")
    return out


def _check_name(name: Any, loc: Loc, section: str) -> None:
    """A check or atom name: a non-empty, printable string of at most MAX_NAME_LENGTH characters."""
    if not isinstance(name, str) or not name.strip():
        raise SpecError(loc, f"a name in '{section}' must be a non-empty string, not {show(name)}")
    if not name.isprintable():
        raise SpecError(loc, f"a name in '{section}' must be printable (no control characters, tabs or "
                             f"newlines), not {quote(name)}")
    if len(name) > MAX_NAME_LENGTH:
        raise SpecError(loc, f"a name in '{section}' has {len(name)} characters; at most {MAX_NAME_LENGTH} "
                             f"are supported: {quote(name)}")


# --- entry points ------------------------------------------------------------------------------------

def mma_atoms_from_text(origin: str, text: str) -> dict[str, MMAAtomSpec]:
    """The MMA atoms of a YAML document holding an `mma_atoms:` section alone, read and checked as a spec file's are;
    `origin` names where the text comes from in a message (atoms built by a rule, not a user's file)."""
    f = YamlFile(origin)
    top = Fields(f, _parse_yaml(origin, text, quote=False), f"the MMA atoms of {origin}", Loc(origin, 1, 1))
    top.only(("mma_atoms",))
    return {n: _mma_atom(f, n, m, loc) for n, m, loc in _Loader._section(f, top, "mma_atoms")}


def load_spec(path: str | Path, allow_outside: bool = False) -> Spec:
    """Loads and validates one spec file with its includes; every problem raises SpecError(file:line:column).
    Includes must lie inside the spec's repository unless `allow_outside`."""
    return _Loader(allow_outside).load(str(path))


class SpecLoader:
    """Loads spec files one at a time as `load_specs` loads a list of them: a file read once (as a spec or as an
    include) is not parsed again by this loader.  A worker process proving file after file keeps one."""

    def __init__(self, allow_outside: bool = False) -> None:
        self._loader = _Loader(allow_outside)

    def load(self, path: str | Path) -> Spec:
        return self._loader.load(str(path))


def load_specs(paths: Iterable[str | Path], allow_outside: bool = False,
               only: Iterable[str] | None = None) -> list[Spec]:
    """Loads files, and every *.yaml / *.yml under directories (recursively, sorted; directory symlinks are
    not followed), each file once.  `only`: build just the checks of these names (`prove --check`); every other
    check is named in `Spec.unbuilt`, its body not read (so not validated either)."""
    loader, seen, specs = _Loader(allow_outside, frozenset(only) if only is not None else None), set(), []
    for path in spec_files(paths):
        key = os.path.realpath(path)
        if key not in seen:
            seen.add(key)
            specs.append(loader.load(path))
    return specs


