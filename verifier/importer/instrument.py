"""A kernel source made into a host program that CuTe's own types describe: every function body of the file gets
a local tag type and, after each declaration it makes (and for each parameter and type template parameter), a
VERIFIER_NOTE of the declared type; kernel launches `k<<<...>>>(args)` become calls `k(args)`.  The compiler checks
the program's syntax only: each note it instantiates is a warning that spells the type as CuTe's templates made it.

The reader here finds function bodies by balancing braces on the text with comments and strings blanked (it does
not parse C++); it only adds text, so the compiler still reads every line the author wrote, at its own line."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .kernel_source import _without_template_heads, blank_comments, without_comments
from .preprocessor import literal_dead_lines
from .resolver import split_top

TAG = "verifier_tag_"
NOTE = "VERIFIER_NOTE"
SCOPE_NOTE = "VERIFIER_SCOPE_NOTE"     # a namespace-scope type alias: the collective members it declares
SCOPE = "verifier_scope"               # the `function` of a namespace-scope note
_SCOPE_ALIAS = re.compile(r"^(?:\s*#[^\n]*\n)*\s*using\s+([A-Za-z_]\w*)\s*=(?!=)")   # after any # lines
# words that begin a statement that declares nothing
STATEMENT_WORDS = {"return", "if", "for", "while", "do", "switch", "case", "default", "else", "goto", "break",
                   "continue", "throw", "delete", "try", "co_return", "co_await", "asm", "static_assert", "new",
                   "sizeof", "decltype", "alignof", "typedef", "template", "namespace", "using", "operator"}
# words before a declaration's type
SPECIFIERS = {"static", "constexpr", "const", "volatile", "inline", "register", "thread_local", "extern", "mutable",
              "typename", "__shared__", "__device__", "__host__", "__constant__", "__restrict__", "unsigned",
              "signed", "long", "short", "struct", "class", "enum", "CUTE_STATIC", "alignas"}
# a parenthesised group after one of these in a function's head is not its parameter list
NOT_PARAMETER_LISTS = {"__launch_bounds__", "alignas", "decltype", "__attribute__", "__declspec", "noexcept",
                       "sizeof", "alignof", "requires"}
# words of a parameter that are neither its type's name nor its own
QUALIFIER_WORDS = {"const", "volatile", "struct", "class", "typename", "__restrict__", "CUTLASS_GRID_CONSTANT",
                   "CUTE_GRID_CONSTANT", "__grid_constant__"}
# words of a built-in type: a parameter's type, never its name
BUILTIN_TYPE_WORDS = {"unsigned", "signed", "long", "short", "int", "char", "float", "double", "bool", "void", "auto"}
_IDENT = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True)
class Note:
    """A declaration the host program reports the type of."""
    function: str       # the function's name as written
    name: str
    line: int
    column: int
    how: str            # parameter | template | declaration | alias | binding
    statement: str = ""  # the declaring statement (comments and strings blanked, spaces collapsed)


@dataclass(frozen=True)
class Statement:
    """A statement of a function body (comments and strings blanked, spaces collapsed)."""
    function: str
    line: int
    column: int
    text: str


@dataclass(frozen=True)
class Loop:
    """A loop of a function body whose body is a braced block: `for (init; condition; step) {...}` or
    `while (condition) {...}` (clauses as written, comments blanked, spaces collapsed), and where its body lies."""
    function: str
    keyword: str                 # for | while
    line: int                    # the keyword's
    column: int
    clauses: tuple[str, ...]     # for: (init, condition, step); while: (condition,)
    body: tuple[tuple[int, int], tuple[int, int]]    # (line, column) of the body's `{` and of its `}`

    def holds(self, line: int, column: int) -> bool:
        """Whether the statement starting at (line, column) lies in the loop's body."""
        return self.body[0] < (line, column) < self.body[1]


# a loop's head: `for (...)` or `while (...)`, after the unrolling macros and pragmas a kernel writes before it
# (CUTE_UNROLL, CUTLASS_PRAGMA_NO_UNROLL, `#pragma unroll`)
@dataclass(frozen=True)
class Block:
    """A braced block of a function body: the keyword its head begins with (if, else, for, while, do, switch, try,
    catch; "" for a plain block) and where its body lies."""
    function: str
    keyword: str
    body: tuple[tuple[int, int], tuple[int, int]]    # (line, column) of its `{` and of its `}`

    def holds(self, line: int, column: int) -> bool:
        return self.body[0] < (line, column) < self.body[1]


BLOCK_HEAD = re.compile(r"^\s*(?:(?:[A-Z_][A-Z0-9_]*|#[^\n]*)\s+)*(if|else|for|while|do|switch|try|catch)\b")
LOOP_HEAD = re.compile(r"^\s*(?:(?:[A-Z_][A-Z0-9_]*|#[^\n]*)\s+)*(for|while)\s*\((.*)\)\s*$", re.S)


@dataclass
class Instrumented:
    text: str
    notes: list[Note] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    loops: list[Loop] = field(default_factory=list)                      # braced loops, in the order they close
    blocks: list[Block] = field(default_factory=list)                    # every braced block of a function body
    functions: list[tuple[str, int]] = field(default_factory=list)       # (name, line of its body)
    launches: list[int] = field(default_factory=list)                    # lines of `<<<...>>>` made calls


def _line_col(text: str, pos: int) -> tuple[int, int]:
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _close(text: str, i: int, open_: str, close: str) -> int:
    """The index of the bracket closing the one at `i`; -1 when none."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == open_:
            depth += 1
        elif text[j] == close:
            depth -= 1
            if depth == 0:
                return j
    return -1


def _open_back(text: str, j: int) -> int:
    """The `(` matching the `)` at `j`; -1 when none."""
    depth = 0
    for i in range(j, -1, -1):
        if text[i] == ")":
            depth += 1
        elif text[i] == "(":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _strip_angles(s: str) -> str:
    prev = None
    while prev != s:
        prev, s = s, re.sub(r"<[^<>]*>", "", s)
    return s


@dataclass(frozen=True)
class FunctionHead:
    name: str
    params: list[tuple[str, int]]           # (name, offset in the text) of each named parameter
    type_params: list[tuple[str, int]]      # the type template parameters of its own template head


_ENDS_AS_FUNCTION = re.compile(r"(?:\)|\bconst|\bnoexcept|\boverride|\bfinal|->[^;{}]*)\s*$")


def opens_scope(head: str) -> str:
    """What a `{` at namespace or class scope opens, by the text before it since the last `;`, `{` or `}`:
    "function", "scope" (a namespace, class, struct, union, enum, extern block) or "initializer"."""
    s = _strip_angles(_without_template_heads(head)).strip()
    kind = re.search(r"\b(struct|class|union|namespace|enum)\b", s)
    if kind is not None and "(" not in s[kind.end():]:
        return "scope"
    if not s or re.fullmatch(r"extern\s*", s):
        return "scope"
    if _ENDS_AS_FUNCTION.search(s):
        return "function"
    return "initializer"


def _function_head(text: str, start: int, brace: int) -> FunctionHead | None:
    """The function whose body opens at `brace`, its head being text[start:brace]."""
    head = text[start:brace]
    i = 0
    while i < len(head):
        if head[i] == "(":
            j = _close(head, i, "(", ")")
            if j < 0:
                return None
            before = _IDENT.findall(head[:i])
            word = before[-1] if before else ""
            if word and word not in NOT_PARAMETER_LISTS and word not in STATEMENT_WORDS and \
                    re.search(rf"\b{re.escape(word)}\s*$", head[:i]):
                return FunctionHead(word, _parameters(head, i + 1, j, start),
                                    _type_params(head[:i - len(word)], start))
            i = j + 1
            continue
        i += 1
    return None


def _parameters(head: str, a: int, b: int, base: int) -> list[tuple[str, int]]:
    inner = head[a:b]
    out: list[tuple[str, int]] = []
    offset = 0
    for part in split_top(inner):
        at = inner.find(part, offset)
        offset = at + len(part)
        decl = split_top(part, "=")[0] if "=" in part else part
        plain = _strip_angles(re.sub(r"\s*::\s*", "::", decl))
        words = [w for w in re.findall(r"[A-Za-z_][\w:]*", plain) if w not in QUALIFIER_WORDS]
        if len(words) < 2 or words[-1] in BUILTIN_TYPE_WORDS or "..." in decl or "(" in plain:
            continue                                   # unnamed, a pack, or a function-pointer parameter
        name = words[-1]
        hits = list(re.finditer(rf"\b{re.escape(name)}\b", decl))
        if not hits:
            continue
        out.append((name, base + a + at + hits[-1].start()))
    return out


def _type_params(before: str, base: int) -> list[tuple[str, int]]:
    """The type parameters of the last `template <...>` in `before` (a function's head before its name)."""
    last = None
    for m in re.finditer(r"\btemplate\s*<", before):
        last = m
    if last is None:
        return []
    depth, j = 1, last.end()
    while j < len(before) and depth:
        depth += {"<": 1, ">": -1}.get(before[j], 0)
        j += 1
    inner = before[last.end():j - 1]
    out: list[tuple[str, int]] = []
    offset = 0
    for part in split_top(inner):
        at = inner.find(part, offset)
        offset = at + len(part)
        tp = re.match(r"(?:class|typename)\s+([A-Za-z_]\w*)\s*(?:=.*)?$", part, re.S)
        if tp is not None:
            out.append((tp.group(1), base + last.end() + at + tp.start(1)))
    return out


def _declared(stmt: str) -> list[tuple[str, int, str]]:
    """The names a statement declares, with their offsets in it: `Tensor x = ...` -> [("x", 7, "declaration")]."""
    s = stmt
    m = re.match(r"\s*using\s+([A-Za-z_]\w*)\s*=", s)
    if m is not None:
        return [(m.group(1), m.start(1), "alias")]
    m = re.match(r"\s*(?:(?:const|constexpr|static)\s+)*auto\s*(?:const\s*)?[&]{0,2}\s*\[([^\]]*)\]", s)
    if m is not None:
        out = []
        for word in re.finditer(r"[A-Za-z_]\w*", m.group(1)):
            out.append((word.group(), m.start(1) + word.start(), "binding"))
        return out
    i = 0
    n = len(s)

    def skip_ws(k: int) -> int:
        while k < n and s[k].isspace():
            k += 1
        return k
    i = skip_ws(i)
    while True:
        w = _IDENT.match(s, i)
        if w is None:
            return []
        lead = w.group()
        if lead in STATEMENT_WORDS:
            return []
        i = w.end()
        if lead in SPECIFIERS:
            if lead == "alignas":
                i = skip_ws(i)
                if i < n and s[i] == "(":
                    i = _close(s, i, "(", ")") + 1
            i = skip_ws(i)
            continue
        break
    # the type: word(::word)* with balanced <...>
    while True:
        i = skip_ws(i)
        if i < n and s[i] == "<":
            depth = 0
            while i < n:
                depth += {"<": 1, ">": -1}.get(s[i], 0)
                i += 1
                if depth == 0:
                    break
            i = skip_ws(i)
        if s.startswith("::", i):
            w = _IDENT.match(s, skip_ws(i + 2))
            if w is None:
                return []
            i = w.end()
            continue
        break
    while True:
        i = skip_ws(i)
        w = _IDENT.match(s, i)
        if w is not None and w.group() in ("const", "volatile", "__restrict__"):
            i = w.end()
            continue
        if i < n and s[i] in "&*":
            i += 1
            continue
        break
    w = _IDENT.match(s, i)
    if w is None or w.group() in SPECIFIERS or w.group() in STATEMENT_WORDS:
        return []
    after = skip_ws(w.end())
    if after < n and s[after] not in "={([" :
        return []
    return [(w.group(), w.start(), "declaration")]


def launch_spans(text: str) -> list[tuple[int, int]]:
    """The `<<<...>>>` of each kernel launch in `text` (comments blanked): (start, end) offsets."""
    spans: list[tuple[int, int]] = []
    for m in re.finditer(r"<<<", text):
        if spans and m.start() < spans[-1][1]:
            continue
        j = text.find(">>>", m.end())
        if j >= 0:
            spans.append((m.start(), j + 3))
    return spans


def _blank_keeping_lines(segment: str) -> str:
    return re.sub(r"[^\n]", " ", segment)


def without_launches(source: str) -> str:
    """`source` with each kernel launch's `<<<...>>>` blanked (`k<<<g, b>>>(args)` -> `k(args)`), as nvcc's host pass
    makes it a call; lines and columns kept."""
    spans = launch_spans(blank_comments(source))
    out, last = [], 0
    for start, end in spans:
        out += [source[last:start], _blank_keeping_lines(source[start:end])]
        last = end
    return "".join(out) + source[last:]


_CONTROL = re.compile(r"^\s*(if|for|while|switch)\s*\(|^\s*(else|do)\b")


def guarded(text: str) -> tuple[str, str] | None:
    """A statement that is the body of braceless control heads -- `if (c) copy(a, b)`, `else gemm(...)`, `for (...)
    f(x)` -- as (the first head's keyword, the statement under the heads); None for a statement of its own."""
    m = _CONTROL.match(text)
    if m is None:
        return None
    keyword = m.group(1) or m.group(2)
    rest = text[m.end():]
    if m.group(1):                                 # past the head's balanced parentheses
        j = _close(text, m.end() - 1, "(", ")")
        if j < 0:
            return None
        rest = text[j + 1:]
    inner = guarded(rest)
    return keyword, (inner[1] if inner is not None else rest.strip())


def instrument(source: str) -> Instrumented:
    """The instrumented text (the same lines, with text added) and the notes it asks for.  The lines of a branch no
    compile takes (`#if 0`: a conditional on literals alone) are not read."""
    text = blank_comments(source)
    dead = literal_dead_lines(without_comments(source))
    if dead:
        text = "\n".join(" " * len(line) if n in dead else line for n, line in enumerate(text.split("\n"), 1))
    edits: list[tuple[int, int, str]] = []          # (start, end, replacement) on the original text
    out = Instrumented("")

    def note(function: str, name: str, pos: int, how: str, type_text: str, statement: str = "") -> str:
        line, col = _line_col(text, pos)
        out.notes.append(Note(function, name, line, col, how, " ".join(statement.split())))
        return f" {NOTE}({line}, {col}, {type_text});"

    # launches first: k<<<grid, block, ...>>>(args) -> k(args)
    for start, end in launch_spans(text):
        edits.append((start, end, _blank_keeping_lines(text[start:end])))
        out.launches.append(_line_col(text, start)[0])

    # frames: ("namespace", None), ("scope", None) at class scope, ("function", name) for a body, ("block", name)
    # inside one
    stack: list[tuple[str, str | None, int]] = []   # (kind, function, the paren depth outside it)
    # a loop's block on the stack (its depth there) -> (keyword, its (line, column), clauses, the body's `{`)
    open_loops: dict[int, tuple[str, tuple[int, int], tuple[str, ...], tuple[int, int]]] = {}
    open_blocks: dict[int, tuple[str, tuple[int, int]]] = {}     # a block on the stack -> (keyword, its `{`)
    boundary = 0
    paren = 0
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        in_function = bool(stack) and stack[-1][0] in ("function", "block")
        if c in "([":
            paren += 1
        elif c in ")]":
            paren = max(0, paren - 1)
        elif c == "{":
            if in_function:
                head = text[boundary:i].rstrip()
                if head.endswith(")") or head.endswith(("else", "do", "try", "mutable")) or not head.strip() \
                        or head.endswith(";") or re.search(r"\)\s*(?:mutable\s*)?(?:->[^{]*)?$", head):
                    stack.append(("block", stack[-1][1], paren))
                    word = BLOCK_HEAD.match(text[boundary:i])
                    open_blocks[len(stack)] = (word.group(1) if word else "", _line_col(text, i))
                    loop = LOOP_HEAD.match(text[boundary:i])
                    if loop is not None:
                        keyword_at = _line_col(text, boundary + loop.start(1))
                        clauses = tuple(" ".join(c.split()) for c in
                                        (loop.group(2).split(";") if loop.group(1) == "for" else [loop.group(2)]))
                        open_loops[len(stack)] = (loop.group(1), keyword_at, clauses, _line_col(text, i))
                    boundary = i + 1
                else:                                     # an initializer: skip it whole
                    j = _close(text, i, "{", "}")
                    i = n if j < 0 else j + 1
                    continue
            else:
                opened = opens_scope(text[boundary:i])
                fh = _function_head(text, boundary, i) if opened == "function" else None
                if fh is not None:
                    stack.append(("function", fh.name, paren))
                    out.functions.append((fh.name, _line_col(text, i)[0]))
                    added = [f" struct {TAG} {{}};"]
                    for name, pos in fh.type_params:
                        added.append(note(fh.name, name, pos, "template", name))
                    for name, pos in fh.params:
                        added.append(note(fh.name, name, pos, "parameter", f"decltype({name})"))
                    edits.append((i + 1, i + 1, "".join(added)))
                    boundary = i + 1
                elif opened == "initializer":
                    j = _close(text, i, "{", "}")
                    i = n if j < 0 else j + 1
                    continue
                else:
                    namespace = re.search(r"\bnamespace\b[\w:\s]*$", text[boundary:i]) is not None
                    stack.append(("namespace" if namespace else "scope", None, paren))
                    boundary = i + 1
            paren = 0
        elif c == "}":
            if stack:
                opened_block = open_blocks.pop(len(stack), None)
                if opened_block is not None:
                    out.blocks.append(Block(stack[-1][1] or "", opened_block[0], (opened_block[1], _line_col(text, i))))
                opened_loop = open_loops.pop(len(stack), None)
                if opened_loop is not None:
                    keyword, (kl, kc), clauses, brace = opened_loop
                    out.loops.append(Loop(stack[-1][1] or "", keyword, kl, kc, clauses, (brace, _line_col(text, i))))
                paren = stack.pop()[2]
            boundary = i + 1
        elif c == ";" and paren == 0:
            if all(k == "namespace" for k, _, _ in stack):
                m = _SCOPE_ALIAS.match(text[boundary:i])
                if m is not None:
                    line, col = _line_col(text, boundary + m.start(1))
                    out.notes.append(Note(SCOPE, m.group(1), line, col, "alias",
                                          " ".join(text[boundary:i].split())))
                    edits.append((i + 1, i + 1, f" {SCOPE_NOTE}({line}, {col}, {m.group(1)});"))
            if in_function:
                stmt = text[boundary:i]
                fname = stack[-1][1] or ""
                if stmt.strip():
                    lead = boundary + len(stmt) - len(stmt.lstrip())
                    sl, sc = _line_col(text, lead)
                    out.statements.append(Statement(fname, sl, sc, " ".join(stmt.split())))
                adds = []
                for name, off, how in _declared(stmt):
                    type_text = name if how == "alias" else f"decltype({name})"
                    adds.append(note(fname, name, boundary + off, how, type_text, stmt))
                if adds:
                    edits.append((i + 1, i + 1, "".join(adds)))
            boundary = i + 1
        i += 1
    pieces = []
    last = 0
    for a, b, rep in sorted(edits):
        pieces.append(source[last:a])
        pieces.append(rep)
        last = b
    pieces.append(source[last:])
    out.text = "".join(pieces)
    return out


__all__ = ["Block", "Instrumented", "Loop", "Note", "Statement", "guarded", "instrument", "opens_scope"]
