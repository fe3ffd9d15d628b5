"""The declarations of a C++ kernel source that can carry a CuTe configuration, grouped by the scope (struct,
function) that holds them.

Read without a compiler: comments and string literals are blanked (offsets, hence line numbers, are kept),
braces are matched to find scopes (a `{` after `)` or after a struct / class / namespace head opens one; a
`{` after a type name, `>` or `=` is an initializer), and in each scope these declarations are collected:

    using NAME = TYPE;                       auto NAME = EXPR;         TiledMMA NAME = EXPR;
    Copy_Atom<...> NAME;  Copy_Atom<...> NAME{};                     constexpr int NAME = EXPR;

Everything else (statements, other declarations) is not read.  Preprocessor conditionals are evaluated with the
given macros (preprocessor.py): only the branches a compile takes are read.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from .preprocessor import Branch, select_branches
from .resolver import split_top

_COMMENT_OR_STRING = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)
_PREPROCESSOR = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
_SCOPE_HEAD = re.compile(r"\b(struct|class|namespace|union)\s+([A-Za-z_]\w*)")
_FUNCTION_HEAD = re.compile(r"([A-Za-z_]\w*)\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*(?:const\s*)?(?:noexcept\s*)?$")
# declarations (their expression runs to the next `;` outside brackets)
_USING = re.compile(r"\busing\s+([A-Za-z_]\w*)\s*=")
_TYPED = re.compile(r"\b(?:static\s+)?(?:constexpr\s+)?(?:const\s+)?(?:auto|TiledMMA|TiledCopy|int|size_t|"
                    r"uint32_t|int32_t|bool)\s+([A-Za-z_]\w*)\s*=")
_ATOM_VARIABLE = re.compile(r"\b(Copy_Atom\s*<)")
KEYWORDS_NOT_SCOPES = {"if", "for", "while", "switch", "catch", "return", "sizeof", "decltype", "alignof"}


@dataclass(frozen=True)
class Declaration:
    name: str
    text: str            # the C++ expression or type it declares the name to be
    line: int
    column: int
    declared: str        # how: "using", "auto", "variable"


@dataclass
class Scope:
    """A struct, class, namespace or function body, with the declarations written directly in it."""
    kind: str            # struct | class | namespace | union | function | file
    name: str
    head: str            # the text before its `{`, shortened
    line: int
    declarations: list[Declaration] = field(default_factory=list)
    parent: "Scope | None" = None
    params: list[str] = field(default_factory=list)      # template parameter names (a struct template)
    spec_args: list[str] | None = None                   # `struct X<args>`: a specialization's argument texts
    bases: list[str] = field(default_factory=list)       # `struct X : Base<...>`: its base classes' texts

    def lookup_chain(self) -> list["Scope"]:
        """This scope and its enclosing ones, innermost first (where a name is looked up)."""
        out: list[Scope] = []
        s: Scope | None = self
        while s is not None:
            out.append(s)
            s = s.parent
        return out


def _blank(m: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", m.group())


def blank_comments(text: str) -> str:
    """Comments, string / character literals and preprocessor lines replaced by spaces (newlines kept)."""
    return _PREPROCESSOR.sub(_blank, _COMMENT_OR_STRING.sub(_blank, text))


def without_comments(text: str) -> str:
    """Comments and string / character literals replaced by spaces (newlines kept), preprocessor lines as written."""
    return _COMMENT_OR_STRING.sub(_blank, text)


def compiled_text(source: str, defines: Mapping[str, str]) -> tuple[str, list[Branch]]:
    """The source as a compile with `defines` reads it: comments and strings blanked, the branches of its
    preprocessor conditionals not taken (or undecided) blanked, directives blanked; and every branch decided."""
    text, branches = select_branches(without_comments(source), defines)
    return _PREPROCESSOR.sub(_blank, text), branches


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _statement_end(text: str, start: int) -> int:
    """The `;` ending the declaration that starts at `start`, outside (), [] and {}; -1 when none."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                return -1
        elif c == ";" and depth == 0:
            return i
    return -1


def _balanced(s: str, start: int) -> int:
    """The index after the `>` closing the `<` at `start`."""
    depth, j = 0, start
    while j < len(s):
        depth += {"<": 1, ">": -1}.get(s[j], 0)
        j += 1
        if depth == 0:
            break
    return j


def template_signature(head: str, name: str) -> tuple[list[str], list[str] | None]:
    """A struct head's template parameter names and, for a specialization, its argument texts:
    `template <int SizeK> struct X<half_t, layout::ColumnMajor, 8, SizeK>` -> (["SizeK"], ["half_t", ...])."""
    s = " ".join(head.split())
    params: list[str] = []
    last = None
    for m in re.finditer(r"\btemplate\s*<", s):
        last = m
    struct_at = re.search(rf"\b(?:struct|class)\s+{re.escape(name)}\b", s)
    if last is not None and struct_at is not None and last.start() < struct_at.start():
        inner = s[last.end():_balanced(s, last.end() - 1) - 1]
        for item in split_top(inner):
            item = item.split("=")[0].strip()
            ident = re.findall(r"[A-Za-z_]\w*", item)
            if ident:
                params.append(ident[-1])
    spec: list[str] | None = None
    if struct_at is not None:
        rest = s[struct_at.end():].lstrip()
        if rest.startswith("<"):
            spec = split_top(rest[1:_balanced(rest, 0) - 1])
    return params, spec


def base_classes(head: str, name: str) -> list[str]:
    """`struct X<...> : public Base<...>, Other` -> ["Base<...>", "Other"]."""
    s = " ".join(head.split())
    at = re.search(rf"\b(?:struct|class)\s+{re.escape(name)}\b", s)
    if at is None:
        return []
    rest = s[at.end():].lstrip()
    if rest.startswith("<"):
        rest = rest[_balanced(rest, 0):].lstrip()
    if not rest.startswith(":") or rest.startswith("::"):
        return []
    return [re.sub(r"^(?:public|protected|private|virtual)\s+", "", b.strip()) for b in split_top(rest[1:])
            if b.strip()]


def _without_template_heads(s: str) -> str:
    """`template <class T, int N> void f(...)` -> `void f(...)`: template parameter lists name classes too."""
    out, i = [], 0
    for m in re.finditer(r"\btemplate\s*<", s):
        if m.start() < i:
            continue
        depth, j = 1, m.end()
        while j < len(s) and depth:
            depth += {"<": 1, ">": -1}.get(s[j], 0)
            j += 1
        out.append(s[i:m.start()])
        i = j
    out.append(s[i:])
    return " ".join("".join(out).split())


def _opens_scope(head: str) -> tuple[str, str] | None:
    """(kind, name) when a `{` after `head` (the text since the previous statement) opens a scope; None when it
    begins an initializer (`Int<1>{}`, `TiledMMA mma{...}`, `= {...}`)."""
    s = _without_template_heads(head.strip())
    m = _SCOPE_HEAD.search(s)          # struct Name<...> : Base (after its template <...>)
    if m is not None and "(" not in s[:m.start()] and "=" not in s:
        return m.group(1), m.group(2)
    if s.endswith((")", "const", "noexcept", "override")):
        f = _FUNCTION_HEAD.search(s)
        if f is not None and f.group(1) not in KEYWORDS_NOT_SCOPES:
            return "function", f.group(1)
        return "block", ""             # if (...) {, for (...) {, a lambda
    if not s or s.endswith(("else", "do", "try")):
        return "block", ""
    return None


MAX_SCOPE_DEPTH = 64          # structs / namespaces nested deeper than this are no kernel configuration


class ScopesTooDeep(ValueError):
    """A source whose scopes nest deeper than MAX_SCOPE_DEPTH (line of the first one too deep)."""

    def __init__(self, line: int) -> None:
        super().__init__(f"scopes nested more than {MAX_SCOPE_DEPTH} deep (this one opens at line {line}); the reader "
                         "stops here")
        self.line = line


def scan_scopes(source: str, defines: Mapping[str, str] | None = None) -> list[Scope]:
    """Every scope of the file that declares something, in file order (the file itself first), in the branches of
    its preprocessor conditionals a compile with `defines` takes."""
    text, _ = compiled_text(source, defines or {})
    root = Scope("file", "", "", 1)
    scopes = [root]
    stack: list[tuple[Scope | None, Scope]] = []   # (scope opened by this brace or None for an initializer, current)
    current = root
    boundary = 0                                      # where the text of the next statement / head begins
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "{":
            head = text[boundary:i]
            opened = _opens_scope(head)
            if opened is not None:
                kind, name = opened
                line, _ = _line_col(text, i)
                if kind == "block":            # an if / for / lambda body: its declarations are its scope's
                    stack.append((None, current))
                else:
                    if len(stack) >= MAX_SCOPE_DEPTH:
                        raise ScopesTooDeep(line)
                    scope = Scope(kind, name, " ".join(head.split())[-160:], line, parent=current)
                    if kind in ("struct", "class"):
                        scope.params, scope.spec_args = template_signature(head, name)
                        scope.bases = base_classes(head, name)
                    scopes.append(scope)
                    stack.append((scope, current))
                    current = scope
                boundary = i + 1
            else:                                     # an initializer: skip to its matching brace
                depth, j = 0, i
                while j < n:
                    if text[j] == "{":
                        depth += 1
                    elif text[j] == "}":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                i = j
        elif c == "}":
            if stack:
                _, current = stack.pop()
            boundary = i + 1
        elif c == ";":
            _collect(text, boundary, i, current)
            boundary = i + 1
        i += 1
    return [s for s in scopes if s.declarations or s.kind in ("struct", "class")]


def _collect(text: str, start: int, end: int, scope: Scope) -> None:
    """The declaration in text[start:end] (one statement, its `;` at `end`), if it is one this reader reads."""
    stmt = text[start:end]
    lead = len(stmt) - len(stmt.lstrip())
    body = stmt.strip()
    if not body:
        return
    pos = start + lead
    for pattern, how in ((_USING, "using"), (_TYPED, "auto")):
        m = pattern.match(body)
        if m is not None:
            line, col = _line_col(text, pos + m.start(1))
            scope.declarations.append(Declaration(m.group(1), " ".join(body[m.end():].split()), line, col, how))
            return
    m = _ATOM_VARIABLE.match(body)
    if m is not None:   # Copy_Atom<Op, T> name;  /  Copy_Atom<Op, T> name{};
        v = re.fullmatch(r"(Copy_Atom\s*<.*>)\s*([A-Za-z_]\w*)\s*(?:\{\s*\})?", body, re.S)
        if v is not None:
            line, col = _line_col(text, pos + v.start(2))
            scope.declarations.append(Declaration(v.group(2), " ".join(v.group(1).split()), line, col, "variable"))
