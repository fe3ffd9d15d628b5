"""MLIR's textual form, as far as reading a CuTe DSL module needs it (no MLIR bindings, no DSL installed).

The printer writes one operation a line: `%r = dialect.op(%a, %b) {attrs} : signature loc(...)`, regions opening
with `{` at a line's end and closing with a line that starts with `}`.  This reader keeps every operation with its
results, its operands (resolved to the definition in scope: the printer reuses names in sibling regions), the text
between the name and the signature, the signature's operand and result types (with `!alias` types expanded), and
where it stands (the IR's own `loc(...)` where the module carries one, else the IR file's line and column).
Functions (`func.func`, `cuda.kernel`, `gpu.func`) are kept with their arguments.  Anything else on a line (an
attribute alias, a comment) is ignored by design; a line it cannot read as an operation is an IRSyntaxError.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .brackets import closing, find_top, split_top

MAX_IR_BYTES = 64 << 20
MAX_ALIAS_DEPTH = 32          # type aliases inside type aliases
MAX_TYPE_CHARS = 1 << 20      # one type with its aliases expanded

_ALIAS = re.compile(r"^(![A-Za-z_][\w$.-]*)\s*=\s*(.*)$")
_ATTR_ALIAS = re.compile(r"^(#[A-Za-z_][\w$.-]*)\s*=\s*(.*)$")
_RESULTS = re.compile(r"^(%[\w$.-]+(?::\d+)?(?:\s*,\s*%[\w$.-]+(?::\d+)?)*)\s*=\s*")
_OP_NAME = re.compile(r'^("?)([A-Za-z_][\w$.]*)\1')
_VALUE = re.compile(r"%[\w$.-]+(?:#\d+)?")
_ALIAS_USE = re.compile(r"![A-Za-z_][\w$.-]*")
_FUNC = re.compile(r"^(?:func\.func|cuda\.kernel|gpu\.func|llvm\.func)\s+(?:\w+\s+)*@([\w$.-]+)\s*\(")
_LOC_INLINE = re.compile(r'loc\("([^"]*)":(\d+):(\d+)\)')
_LOC_ALIAS = re.compile(r"loc\((#[\w$.-]+)\)")
_TRAILING_LOC = re.compile(r"\s+loc\((?:[^()]|\([^()]*\))*\)\s*$")


WHILE_CONDITION = "scf.condition"   # ends an scf.while's first region: the values it hands its `do` region


class IRSyntaxError(ValueError):
    """Text this reader cannot take as MLIR: `file:line:column: why`."""

    def __init__(self, file: str, line: int, column: int, why: str) -> None:
        super().__init__(f"{file}:{line}:{column}: {why}")
        self.file, self.line, self.column, self.why = file, line, column, why


@dataclass(frozen=True)
class Where:
    """Where something stands: the IR file's line and column, and the source location the IR names (if any)."""
    file: str
    line: int
    column: int
    source: str | None = None     # "path:line:col" from the module's loc(...)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Value:
    """An SSA value: its printed name and where it is defined (unique within the module)."""
    name: str
    where: Where
    function: str

    def __str__(self) -> str:
        return self.name


@dataclass(eq=False)
class Op:
    """One operation."""
    name: str                          # e.g. "cute.tiled.copy.partition_S"
    results: tuple[Value, ...]
    operands: tuple[Value, ...]
    head: str                          # the text between the name and the signature, values as written
    operand_types: tuple[str | None, ...]
    result_types: tuple[str, ...]
    where: Where
    function: str
    # the operation whose region holds this one (an scf.if, a loop; None at a function's top level), and which of its
    # regions (0: the first -- an scf.if's `then`, an scf.while's condition; 1: `else` / `do`)
    parent: Op | None = None
    region: int = 0


@dataclass(eq=False)
class Function:
    name: str
    kind: str                          # func.func | cuda.kernel | gpu.func | llvm.func
    arguments: tuple[Value, ...]
    argument_types: tuple[str, ...]
    where: Where
    ops: list[Op] = field(default_factory=list)
    attributes: str = ""               # the text after its arguments (`attributes {nvvm.reqntid = ...}`)


@dataclass
class Module:
    file: str
    aliases: dict[str, str]            # "!name" -> its type text, aliases inside expanded
    functions: list[Function]
    type_of: dict[Value, str]          # every value whose type the text states somewhere
    bound: dict[Value, Value] = field(default_factory=dict)   # a region's iter_args argument -> its initial value

    def ops(self) -> list[Op]:
        return [op for f in self.functions for op in f.ops]

    def kernels(self) -> list[Function]:
        return [f for f in self.functions if f.kind in ("cuda.kernel", "gpu.func")]


def _strip_strings(text: str) -> str:
    """The text with every quoted string blanked (so `%` inside a string is never a value)."""
    return re.sub(r'"(?:[^"\\]|\\.)*"', lambda m: " " * len(m.group(0)), text)


class _Reader:
    def __init__(self, text: str, file: str) -> None:
        self.file = file
        self.lines = text.split("\n")
        self.raw_aliases: dict[str, str] = {}
        self.locs: dict[str, str] = {}
        self.scopes: list[dict[str, Value]] = [{}]
        # beside each scope: the operation whose region it is and the region's number (None for a function's own)
        self.owners: list[tuple[Op | None, int]] = [(None, 0)]
        self.closed: tuple[Op | None, int] = (None, 0)   # the region the last `}` closed
        self.functions: list[Function] = []
        self.type_of: dict[Value, str] = {}
        self.bound: dict[Value, Value] = {}
        self.condition_values: list[Value] = []     # the values the last scf.condition hands its `do` region
        self.entering_do: list[Value] | None = None  # ... while that region's block label is still to come
        self._expanded: dict[str, str] = {}
        self.alias_lines: dict[str, int] = {}

    def error(self, line: int, column: int, why: str) -> IRSyntaxError:
        return IRSyntaxError(self.file, line, column, why)

    # -- types ----------------------------------------------------------------------------------------
    def expand(self, text: str, depth: int = 0) -> str:
        """A type with every `!alias` in it replaced by its definition (IRSyntaxError at the alias's line for a
        definition that nests too deep, refers to itself or grows past MAX_TYPE_CHARS)."""
        def one(m: re.Match[str]) -> str:
            name = m.group(0)
            if name not in self.raw_aliases:
                return name
            if name not in self._expanded:
                line = self.alias_lines[name]
                if depth >= MAX_ALIAS_DEPTH:
                    raise self.error(line, 1, f"type alias {name} nests more than {MAX_ALIAS_DEPTH} aliases deep "
                                              "(or refers to itself)")
                expanded = self.expand(self.raw_aliases[name], depth + 1)
                if len(expanded) > MAX_TYPE_CHARS:
                    raise self.error(line, 1, f"type alias {name} expands to more than {MAX_TYPE_CHARS} characters")
                self._expanded[name] = expanded
            return self._expanded[name]
        return _ALIAS_USE.sub(one, text)

    # -- values ---------------------------------------------------------------------------------------
    def define(self, name: str, where: Where, function: str) -> Value:
        v = Value(name, where, function)
        self.scopes[-1][name] = v
        return v

    def lookup(self, name: str, line: int, column: int) -> Value:
        base = name.split("#")[0]
        for scope in reversed(self.scopes):
            for key in (name, base, base + "#0"):
                if key in scope:
                    return scope[key]
        raise self.error(line, column, f"value {base} is used before it is defined")

    # -- the text -------------------------------------------------------------------------------------
    def read(self) -> Module:
        for n, raw in enumerate(self.lines, 1):
            m = _ALIAS.match(raw)
            if m:
                self.raw_aliases[m.group(1)] = m.group(2).strip()
                self.alias_lines[m.group(1)] = n
                continue
            m = _ATTR_ALIAS.match(raw)
            if m:
                lm = _LOC_INLINE.search(m.group(2))
                if lm and m.group(2).startswith("loc("):
                    src = _source_loc(lm)
                    if src is not None:
                        self.locs[m.group(1)] = src
        function: Function | None = None
        for n, raw in enumerate(self.lines, 1):
            stripped = raw.strip()
            column = len(raw) - len(raw.lstrip()) + 1
            if not stripped or stripped.startswith("//") or _ALIAS.match(raw) or _ATTR_ALIAS.match(raw):
                continue
            closes = 0
            while stripped.startswith("}"):
                closes += 1
                if len(self.scopes) > 1:
                    self.scopes.pop()
                    self.closed = self.owners.pop()
                stripped = stripped[1:].strip()
            if re.fullmatch(r"(?:else|do)\s*\{", stripped):     # the next region of the same operation
                self.open(self.closed[0], self.closed[1] + 1)
                self.entering_do = list(self.condition_values) if stripped.startswith("do") else None
                continue
            if not stripped or (closes and stripped.startswith(("{", ")", ":"))):   # a closed op's attributes
                continue
            opens = stripped.endswith("{")
            body = stripped[:-1].rstrip() if opens else stripped
            fm = _FUNC.match(body)
            if fm:
                function = self.function(fm, body, n, column)
            elif body.startswith(("module", "gpu.module", "builtin.module")) or body in ("", "^bb0:"):
                pass
            elif body.startswith("^"):              # a block label: its arguments are values
                args = [self.define(vm.group(0), Where(self.file, n, column), function.name if function else "")
                        for vm in _VALUE.finditer(_strip_strings(body))]
                # an scf.while's `do` region: its arguments are the values its scf.condition handed on, in order
                if self.entering_do is not None and len(self.entering_do) == len(args):
                    self.bound.update(zip(args, self.entering_do))
                self.entering_do = None
            else:
                op = self.op(body, n, column, function)
                if function is not None:
                    function.ops.append(op)
                if op.name == WHILE_CONDITION:
                    self.condition_values = list(op.operands[1:])
                self.entering_do = None            # a region whose first line is an operation has no block label
                # a region's block arguments (scf.for's induction variable, iter_args) belong to the region
                if opens:
                    inits = self._iter_inits(body, n, column)
                    self.open(op, 0)
                    for name in self._region_arguments(body):
                        v = self.define(name, op.where, op.function)
                        if name in inits:
                            self.bound[v] = inits[name]
                continue
            if opens:
                self.open(None, 0)
        aliases = {k: self.expand(k) for k in self.raw_aliases}
        return Module(self.file, aliases, self.functions, self.type_of, self.bound)

    def open(self, owner: Op | None, region: int) -> None:
        """A region begins: its own scope, and the operation it belongs to (None: a function's or a module's)."""
        self.scopes.append({})
        self.owners.append((owner, region))

    def _region_arguments(self, body: str) -> list[str]:
        """The values a region opened on this line binds: scf.for's induction variable, iter_args(%a = %init),
        scf.while (%a = %init, ...)."""
        text = _strip_strings(body)
        names: list[str] = []
        m = re.search(r"\b(?:scf\.for|affine\.for)\s+(%[\w$.-]+)\s*=", text)
        if m:
            names.append(m.group(1))
        names += list(self._bindings(text))
        return names

    @staticmethod
    def _bindings(text: str) -> dict[str, str]:
        """`%a = %init` pairs of iter_args(...) or of scf.while's (...)."""
        at = text.find("iter_args")
        if at < 0:
            w = re.search(r"\bscf\.while\s*\(", text)
            if w is None:
                return {}
            at = w.end() - 1
        close = closing(text[text.find("(", at):]) if "(" in text[at:] else -1
        start = text.find("(", at)
        inside = text[start:start + close + 1] if close >= 0 else text[at:]
        return {m.group(1): m.group(2) for m in re.finditer(r"(%[\w$.-]+)\s*=\s*(%[\w$.-]+(?:#\d+)?)", inside)}

    def _iter_inits(self, body: str, line: int, column: int) -> dict[str, Value]:
        """Each region argument's initial value (looked up before the region opens)."""
        text = _strip_strings(body)
        return {a: self.lookup(init, line, column + max(0, text.find(init)))
                for a, init in self._bindings(text).items()}

    def where(self, body: str, line: int, column: int) -> Where:
        source = None
        m = _LOC_INLINE.search(body)
        if m:
            source = _source_loc(m)
        else:
            a = _LOC_ALIAS.search(body)
            if a:
                source = self.locs.get(a.group(1))
        return Where(self.file, line, column, source)

    def function(self, fm: re.Match[str], body: str, line: int, column: int) -> Function:
        kind = body.split()[0]
        open_at = fm.end() - 1
        depth, close = 0, -1
        for i in range(open_at, len(body)):
            if body[i] in "([{<":
                depth += 1
            elif body[i] in ")]}>":
                depth -= 1
                if depth == 0:
                    close = i
                    break
        if close < 0:
            raise self.error(line, column + open_at, f"the arguments of function @{fm.group(1)} are not closed")
        where = self.where(body, line, column)
        self.scopes = [self.scopes[0], {}]
        self.owners = [(None, 0), (None, 0)]
        args: list[Value] = []
        types: list[str] = []
        for part in split_top(body[open_at + 1:close]):
            name, _, type_text = part.partition(":")
            name = name.strip()
            if not name.startswith("%"):
                raise self.error(line, column + open_at, f"argument '{part[:40]}' of @{fm.group(1)} has no name")
            v = self.define(name, where, fm.group(1))
            t = self.expand(_TRAILING_LOC.sub("", split_top(type_text.strip(), " {")[0].strip()).strip())
            args.append(v)
            types.append(t)
            self.type_of[v] = t
        f = Function(fm.group(1), kind, tuple(args), tuple(types), where, attributes=body[close + 1:])
        self.functions.append(f)
        return f

    def op(self, body: str, line: int, column: int, function: Function | None) -> Op:
        where = self.where(body, line, column)
        text = _TRAILING_LOC.sub("", body)
        results: list[str] = []
        m = _RESULTS.match(text)
        if m:
            for r in m.group(1).split(","):
                name, _, count = r.strip().partition(":")
                results += [name] if not count else [f"{name}#{i}" for i in range(int(count))]
            text = text[m.end():]
        nm = _OP_NAME.match(text)
        if nm is None:
            raise self.error(line, column, f"expected an operation, found '{text[:40]}'")
        name = nm.group(2)
        rest = text[nm.end():]
        colon = find_top(rest, " : ")
        head, signature = (rest, "") if colon < 0 else (rest[:colon], rest[colon + 3:])
        bound = set(self._region_arguments(body))       # a region's own arguments are not operands
        operands = [self.lookup(vm.group(0), line, column + len(body) - len(text) + nm.end() + vm.start())
                    for vm in _VALUE.finditer(_strip_strings(head)) if vm.group(0) not in bound]
        fname = function.name if function is not None else ""
        values = tuple(self.define(r, where, fname) for r in results)
        operand_types, result_types = self._signature(name, signature.strip(), len(operands), len(values))
        for v, t in zip(operands, operand_types):
            if t is not None:
                self.type_of.setdefault(v, t)
        for v, t in zip(values, result_types):
            self.type_of[v] = t
        parent, region = self.owners[-1]
        return Op(name, values, tuple(operands), head.strip(), operand_types, result_types, where, fname, parent,
                  region)

    def _signature(self, name: str, sig: str, n_operands: int, n_results: int
                   ) -> tuple[tuple[str | None, ...], tuple[str, ...]]:
        """Operand and result types of a signature: `(A, B) -> R`, `A to B`, `A, B` or `T`."""
        if not sig:
            return (None,) * n_operands, ()
        sig = split_top(sig, " {")[0].strip()      # a trailing attribute dictionary
        arrow = find_top(sig, "->")
        if arrow >= 0:
            ins = sig[:arrow].strip()
            outs = sig[arrow + 2:].strip()
            in_types = split_top(ins[1:-1]) if ins.startswith("(") and ins.endswith(")") else split_top(ins)
            out_types = split_top(outs[1:-1]) if outs.startswith("(") and outs.endswith(")") else [outs]
            return self._types(in_types, n_operands), tuple(self.expand(t) for t in out_types)
        to = find_top(sig, " to ")
        if to >= 0:
            return self._types([sig[:to]], n_operands), (self.expand(sig[to + 4:].strip()),)
        if sig.startswith("(") and closing(sig) == len(sig) - 1:
            return self._types(split_top(sig[1:-1]), n_operands), ()
        types = split_top(sig)
        if n_results and (len(types) == n_results and (n_operands == 0 or _names_result(name) or len(types) > 1)):
            return (None,) * n_operands, tuple(self.expand(t) for t in types)
        return self._types(types, n_operands), ()

    def _types(self, types: list[str], n: int) -> tuple[str | None, ...]:
        if len(types) != n:
            return (None,) * n
        return tuple(self.expand(t.strip()) for t in types)


def _source_loc(m: re.Match[str]) -> str | None:
    """A loc("file":line:col) that names a source file (not the printer's own "-" or a "<module>")."""
    file = m.group(1)
    if not file or file == "-" or file.startswith("<"):
        return None
    return f"{file}:{m.group(2)}:{m.group(3)}"


def _names_result(op: str) -> bool:
    """Whether an operation printed with one type after the colon names its result's type (the constructors) rather
    than its operand's (the accessors: get_iter, get_layout, slice ...)."""
    last = op.rsplit(".", 1)[-1]
    return last.startswith(("make_", "alloca", "constant", "assume", "static", "composition", "tile_to_shape",
                            "recast", "coalesce"))


def read_module(text: str, file: str) -> Module:
    """The module a text holds; IRSyntaxError (file:line:column: why) where it is not MLIR this reader takes."""
    if "\0" in text:
        raise IRSyntaxError(file, 1, 1, "not a text file")
    return _Reader(text, file).read()


__all__ = ["IRSyntaxError", "Where", "Value", "Op", "Function", "Module", "read_module", "MAX_IR_BYTES"]
