"""The branches of a C++ source's preprocessor conditionals that a compile with given macros would take.

`#if / #ifdef / #ifndef / #elif / #else / #endif` are evaluated with the `-D` macros and the file's own object-like
`#define`s (and `#undef`s) in the branches taken, as the C preprocessor does: `defined(X)`, integer literals,
`! ~ * / % + - << >> < > <= >= == != & ^ | && || ?:`, parentheses; an identifier no macro defines is 0.  Two things
are never guessed: a condition on a macro only the compiler defines (`__CUDA_ARCH__`, `__CUDACC__`, ...) or CUTLASS's
headers define for the target (`CUTLASS_ARCH_MMA_SM90_SUPPORTED`, any `CUTLASS_` / `CUTE_` name; give it with -D),
and one this evaluator cannot read (a function-like macro): such a conditional and every branch after it
is *undecided*, its lines are not read, and the caller lists it.  Lines of branches not taken, or undecided, are
blanked (newlines kept, so line numbers stay)."""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

# macros the compiler defines, whose value depends on the compile (the device pass, the target): never assumed
COMPILER_MACROS = frozenset({"__CUDA_ARCH__", "__CUDACC__", "__NVCC__", "__CUDACC_RTC__", "__CUDA_ARCH_FEAT_SM90_ALL",
                             "__CUDA_ARCH_FEAT_SM100_ALL", "__CUDA_ARCH_SPECIFIC__", "__CUDA_ARCH_FAMILY_SPECIFIC__",
                             "__clang__", "__GNUC__", "_MSC_VER", "__CUDACC_VER_MAJOR__", "__CUDACC_VER_MINOR__"})
# macros CUTLASS's and CuTe's headers define from the compile's target (CUTLASS_ARCH_MMA_SM90_SUPPORTED, ...): what
# the source's includes would say is not known without them, so never assumed either
HEADER_MACRO = re.compile(r"^(?:CUTLASS|CUTE)_")
_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(\w+)(.*)$")
_TOKEN = re.compile(r"\s*(?:(\d+)[uUlL]*|([A-Za-z_]\w*)|(&&|\|\||<<|>>|<=|>=|==|!=|[!~*/%+\-<>&^|?:()]))")


class Undecided(Exception):
    """A condition this evaluator will not decide: why."""


@dataclass(frozen=True)
class Branch:
    """One branch of a conditional, as decided."""
    line: int             # the directive's line
    directive: str        # `#if COND`, `#else of #if COND (line N)`, ...
    taken: bool | None    # None: undecided (its lines are not read)
    why: str = ""


def _tokens(expr: str) -> list[str]:
    out, pos = [], 0
    expr = expr.strip()
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if m is None or m.end() == pos:
            raise Undecided(f"cannot read '{expr[pos:pos + 20]}'")
        out.append(m.group(1) or m.group(2) or m.group(3))
        pos = m.end()
    return out


class _Expr:
    """A recursive-descent evaluator of a #if expression (C's precedence), macros already known."""

    BINARY = [("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="), ("<<", ">>"),
              ("+", "-"), ("*", "/", "%")]

    def __init__(self, tokens: list[str], macros: Mapping[str, str], depth: int = 0) -> None:
        self.t, self.i, self.macros, self.depth = tokens, 0, macros, depth

    def peek(self) -> str | None:
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self) -> str:
        tok = self.peek()
        if tok is None:
            raise Undecided("the condition ends early")
        self.i += 1
        return tok

    def parse(self) -> int:
        v = self.conditional()
        if self.peek() is not None:
            raise Undecided(f"cannot read the condition at '{self.peek()}'")
        return v

    def conditional(self) -> int:
        c = self.binary(0)
        if self.peek() == "?":
            self.take()
            a = self.conditional()
            if self.take() != ":":
                raise Undecided("a ?: without its ':'")
            b = self.conditional()
            return a if c else b
        return c

    def binary(self, level: int) -> int:
        if level == len(self.BINARY):
            return self.unary()
        v = self.binary(level + 1)
        while self.peek() in self.BINARY[level]:
            op = self.take()
            w = self.binary(level + 1)
            v = _apply(op, v, w)
        return v

    def unary(self) -> int:
        tok = self.take()
        if tok == "!":
            return int(not self.unary())
        if tok == "~":
            return ~self.unary()
        if tok == "-":
            return -self.unary()
        if tok == "+":
            return self.unary()
        if tok == "(":
            v = self.conditional()
            if self.take() != ")":
                raise Undecided("unbalanced parentheses")
            return v
        if tok.isdigit():
            return int(tok)
        if tok == "defined":
            paren = self.peek() == "("
            if paren:
                self.take()
            name = self.take()
            if paren and self.take() != ")":
                raise Undecided("defined( without its ')'")
            if (name in COMPILER_MACROS or HEADER_MACRO.match(name)) and name not in self.macros:
                raise Undecided(f"it depends on {name}, which {_definer(name)} defines (give -D {name}[=VALUE])")
            return int(name in self.macros)
        if self.peek() == "(":
            raise Undecided(f"it calls the function-like macro {tok}")
        if tok in self.macros:
            if self.depth > 32:
                raise Undecided(f"macro {tok} expands more than 32 levels deep")
            text = self.macros[tok].strip() or "0"
            return _Expr(_tokens(text), self.macros, self.depth + 1).parse()
        if tok in COMPILER_MACROS or HEADER_MACRO.match(tok):
            raise Undecided(f"it depends on {tok}, which {_definer(tok)} defines (give -D {tok}=VALUE)")
        return 0                     # C: an identifier no macro defines is 0


def _definer(name: str) -> str:
    return "the compiler" if name in COMPILER_MACROS else "CUTLASS's headers (for the compile's target)"


def _apply(op: str, a: int, b: int) -> int:
    if op in ("/", "%") and b == 0:
        raise Undecided("it divides by zero")
    table = {"||": lambda: int(bool(a) or bool(b)), "&&": lambda: int(bool(a) and bool(b)), "|": lambda: a | b,
             "^": lambda: a ^ b, "&": lambda: a & b, "==": lambda: int(a == b), "!=": lambda: int(a != b),
             "<": lambda: int(a < b), ">": lambda: int(a > b), "<=": lambda: int(a <= b), ">=": lambda: int(a >= b),
             "<<": lambda: a << min(b, 64), ">>": lambda: a >> min(b, 64), "+": lambda: a + b, "-": lambda: a - b,
             "*": lambda: a * b, "/": lambda: int(a / b), "%": lambda: a - b * int(a / b)}
    return int(table[op]())


def evaluate(condition: str, macros: Mapping[str, str]) -> bool:
    """A #if condition's value (Undecided: why it is not decided)."""
    return bool(_Expr(_tokens(condition), macros).parse())


@dataclass
class _Frame:
    head: str            # the #if / #ifdef / #ifndef line as written
    line: int
    parent_active: bool
    taken: bool          # a branch of this conditional was taken already
    undecided: bool      # a branch could not be decided: every later one is not read
    active: bool         # the current branch is read


def select_branches(text: str, defines: Mapping[str, str]) -> tuple[str, list[Branch]]:
    """The text with the lines of branches not taken (or undecided) blanked, and every branch as decided.  A line
    ending in `\\` continues its directive."""
    macros = dict(defines)
    lines = text.split("\n")
    out: list[str] = []
    branches: list[Branch] = []
    stack: list[_Frame] = []
    for first, i, raw in _logical_lines(lines):
        active = all(f.active for f in stack)
        m = _DIRECTIVE.match(raw)
        kept = [lines[k] for k in range(first, i + 1)]
        if m is None:
            out += kept if active else [""] * len(kept)
            continue
        name, rest = m.group(1), m.group(2).strip()
        line = first + 1
        if name in ("if", "ifdef", "ifndef"):
            cond = rest if name == "if" else (f"defined({rest.split()[0]})" if rest else "0")
            if name == "ifndef":
                cond = f"!{cond}"
            frame = _Frame(f"#{name} {rest}", line, active, False, False, False)
            _decide(frame, cond, macros, f"#{name} {rest}", line, branches)
            stack.append(frame)
        elif name in ("elif", "elifdef", "elifndef", "else") and stack:
            frame = stack[-1]
            what = f"#{name} {rest} of {frame.head} (line {frame.line})".replace("  ", " ")
            if frame.undecided:
                frame.active = False
                branches.append(Branch(line, what, None, "an earlier branch is undecided"))
            elif frame.taken:
                frame.active = False
                if frame.parent_active:
                    branches.append(Branch(line, what, False, "an earlier branch is taken"))
            elif name == "else":
                frame.active = frame.taken = frame.parent_active
                if frame.parent_active:
                    branches.append(Branch(line, what, True))
            else:
                cond = rest if name == "elif" else (f"defined({rest})" if name == "elifdef" else f"!defined({rest})")
                _decide(frame, cond, macros, what, line, branches)
        elif name == "endif" and stack:
            stack.pop()
        elif active and name == "define" and rest:
            dm = re.match(r"([A-Za-z_]\w*)(\(?)(.*)$", rest)
            if dm and not dm.group(2):
                macros[dm.group(1)] = dm.group(3).strip()
        elif active and name == "undef" and rest:
            macros.pop(rest.split()[0], None)
        out += [""] * len(kept)      # a directive is never a declaration
    return "\n".join(out), branches


def _logical_lines(lines: list[str]) -> Iterator[tuple[int, int, str]]:
    """Each logical line: (its first physical line's index, its last's, its text), a line ending in `\\` joined
    with the next."""
    i = 0
    while i < len(lines):
        first = i
        raw = lines[i]
        while raw.endswith("\\") and i + 1 < len(lines):
            i += 1
            raw = raw[:-1] + " " + lines[i]
        yield first, i, raw
        i += 1


def _decide(frame: _Frame, cond: str, macros: Mapping[str, str], what: str, line: int,
            branches: list[Branch]) -> None:
    if not frame.parent_active:
        frame.active = False
        return
    try:
        value = evaluate(cond, macros)
    except Undecided as e:
        frame.undecided, frame.active = True, False
        branches.append(Branch(line, what, None, str(e)))
        return
    frame.active = value
    frame.taken = frame.taken or value
    branches.append(Branch(line, what, value))


__all__ = ["COMPILER_MACROS", "Branch", "Undecided", "evaluate", "literal_dead_lines", "select_branches"]


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def literal_dead_lines(text: str) -> set[int]:
    """The lines (1-based) of the branches no compile takes: those of a conditional whose conditions name no macro
    (`#if 0`, `#if 1 ... #else`, integer literals and operators only) that are not taken.  A conditional naming a
    macro is the compile's to decide, and every branch of it from that condition on is kept."""
    dead: set[int] = set()
    stack: list[list[bool]] = []          # per conditional: [decided, taken, active]
    for first, i, raw in _logical_lines(text.split("\n")):
        m = _DIRECTIVE.match(raw)
        name, rest = (m.group(1), m.group(2).strip()) if m else ("", "")
        if name in ("if", "ifdef", "ifndef"):
            frame = [False, False, True]
            if name == "if" and not _IDENTIFIER.search(rest):
                try:
                    frame = [True, evaluate(rest, {}), False]
                    frame[2] = frame[1]
                except Undecided:
                    frame = [False, False, True]
            stack.append(frame)
        elif name in ("elif", "elifdef", "elifndef", "else") and stack:
            frame = stack[-1]
            if frame[0]:
                if frame[1]:
                    frame[2] = False
                elif name == "else":
                    frame[1] = frame[2] = True
                elif name == "elif" and not _IDENTIFIER.search(rest):
                    try:
                        frame[1] = frame[2] = evaluate(rest, {})
                    except Undecided:
                        frame[0], frame[2] = False, True
                else:
                    frame[0], frame[2] = False, True      # a macro's condition: the compile decides from here
        elif name == "endif" and stack:
            stack.pop()
        elif not all(f[2] for f in stack):
            dead.update(range(first + 1, i + 2))
    return dead
