"""A tolerant scanner of C++ headers: declarations found by balancing braces, not by parsing C++.

It finds what CuTe's atom headers are made of: namespaces, `template <...>` heads, `struct X<...> : B {...};`
(with the members of their bodies), `using X = ...;` aliases, `using ns::X;`, `enum class`, `static_assert`
and the string literals of `asm volatile("...")`.  Everything else (functions, macros, data) is skipped by
balancing (), [] and {}.  Comments and preprocessor lines are blanked first, line continuations are
spliced, and every declaration keeps the line of the header it was written on.
"""
from __future__ import annotations

import bisect
import contextlib
import gc
import re
from dataclasses import dataclass, field
from typing import Iterator, NamedTuple

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<str>(?:u8|[uUL])?"(?:[^"\\\n]|\\.)*")
  | (?P<chr>'(?:[^'\\\n]|\\.)*')
  | (?P<id>[A-Za-z_]\w*)
  | (?P<num>\.?\d(?:[\w.]|'\w)*)
  | (?P<op>::|->|\.\.\.|\S)
""", re.X)

_COMMENT_OR_LITERAL = re.compile(r"""//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'""", re.S)


class Token(NamedTuple):
    """One token; a tuple, as a header has hundreds of thousands of them."""
    kind: str       # id | num | str | chr | op
    text: str
    pos: int        # offset in the cleaned text


@dataclass
class TemplateParam:
    kind: str                 # "class", "pack", or the type of a non-type parameter ("int", "GMMA::Major")
    name: str
    default: str | None = None


@dataclass
class Decl:
    header: str
    line: int
    namespace: str            # "cute::SM90::GMMA" ("" at file scope)


@dataclass
class AliasDecl(Decl):
    name: str = ""
    value: str = ""                                   # the text after '=' (C++ spelling)
    params: list[TemplateParam] | None = None         # an alias template's parameters


@dataclass
class UsingDecl(Decl):
    target: str = ""          # `using SM100::TMEM::LOAD::X;` -> "SM100::TMEM::LOAD::X"


@dataclass
class EnumDecl(Decl):
    name: str = ""
    enumerators: list[str] = field(default_factory=list)


@dataclass
class StaticAssert(Decl):
    condition: str = ""
    message: str = ""


@dataclass
class DataMember(Decl):
    type: str = ""
    names: list[str] = field(default_factory=list)


@dataclass
class StructDecl(Decl):
    name: str = ""                                    # as written: "MMA_Traits", "SM90::GMMA::MMA_64x8x16_SS"
    params: list[TemplateParam] | None = None         # None: not a template; []: `template <>`
    args: str | None = None                           # specialisation arguments: the text inside <...>
    bases: str = ""                                   # text after ':' up to '{'
    members: list[Decl] = field(default_factory=list)
    asm: list[tuple[str, int]] = field(default_factory=list)   # (asm text, line), in order
    asm_when: list[str] = field(default_factory=list)   # per asm: the `if constexpr` conditions around it ("": none)


@dataclass
class Header:
    path: str                                          # as reported, e.g. include/cute/atom/mma_traits_sm80.hpp
    decls: list[Decl]


# --- text cleaning -------------------------------------------------------------------------------------

class _Text:
    """The cleaned text of a header and the map from its offsets back to the header's lines."""

    def __init__(self, raw: str) -> None:
        spliced, self._newlines = _splice(raw)
        cleaned = _COMMENT_OR_LITERAL.sub(_blank_comment, spliced)
        self.text = _blank_unread(_blank_preprocessor(cleaned))

    def line(self, pos: int) -> int:
        return bisect.bisect_right(self._newlines, pos - 1) + 1 if pos > 0 else 1


def _splice(raw: str) -> tuple[str, list[int]]:
    """Backslash-newline joins lines (translation phase 2); returns the text and, for every newline of
    the header, its offset in the joined text (so that line numbers stay those of the header)."""
    out: list[str] = []
    newlines: list[int] = []
    length = 0
    for piece in re.split(r"(\\\r?\n|\n)", raw):
        if piece == "\n":
            newlines.append(length)
            out.append(piece)
            length += 1
        elif piece.startswith("\\") and piece.endswith("\n"):
            newlines.append(length)          # the header's line ends here, the joined text goes on
        else:
            out.append(piece)
            length += len(piece)
    return "".join(out), newlines


# Two kinds of text are never read and make three quarters of the tokens of CuTe's arch headers (a GMMA
# instruction binds hundreds of registers): the operand lists of an asm statement (from its first ':'; only its
# string literals are read) and the parameter lists of `fma` (an Op's registers are read from its DRegisters...
# aliases).  They are blanked before tokenizing, offsets and line breaks kept; an asm statement is blanked only
# where a run of string literals precedes the ':', and a list without its closing parenthesis is left as written.
_STRING = r'(?:u8|[uUL])?"(?:[^"\\\n]|\\.)*"'
_UNREAD_START = re.compile(
    rf'\b(?:asm|__asm__)(?:\s+(?:volatile|__volatile__))*\s*\((?:\s*{_STRING})+\s*(?=:)|\bfma\s*\(')
_PAREN_OR_LITERAL = re.compile(r'''"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[()]''')


def _blank_unread(text: str) -> str:
    pieces: list[str] = []
    done = 0
    for m in _UNREAD_START.finditer(text):
        if m.start() < done:
            continue                                   # inside a list blanked already
        depth = 1
        for t in _PAREN_OR_LITERAL.finditer(text, m.end()):
            if t.group() == "(":
                depth += 1
            elif t.group() == ")":
                depth -= 1
                if depth == 0:
                    pieces += [text[done:m.end()], _blank(text[m.end():t.start()])]
                    done = t.start()
                    break
    pieces.append(text[done:])
    return "".join(pieces)


def _blank(s: str) -> str:
    """Spaces for every character but line breaks."""
    return "\n".join(" " * len(line) for line in s.split("\n"))


def _blank_comment(m: re.Match[str]) -> str:
    s = m.group(0)
    if s.startswith(("//", "/*")):
        return _blank(s)
    return s


def _blank_preprocessor(text: str) -> str:
    # directives are one logical line after splicing; their text must not reach the brace balancing
    return re.sub(r"(?m)^[ \t]*#[^\n]*", lambda m: " " * len(m.group(0)), text)


def tokenize(text: str) -> list[Token]:
    make = tuple.__new__            # a Token without the Python-level __new__ of a NamedTuple (millions are made)
    return [make(Token, (m.lastgroup, m.group(), m.start())) for m in _TOKEN.finditer(text) if m.lastgroup != "ws"]


# --- declarations --------------------------------------------------------------------------------------

_CLOSE = {"(": ")", "[": "]", "{": "}"}
# an integral constant member of a struct: `static constexpr int K = ...` (either order of the specifiers)
_CONSTEXPR_MEMBER = re.compile(r"(?:static\s+constexpr|constexpr\s+static)\s+(?:int|unsigned|uint32_t|int32_t|"
                               r"size_t|std::size_t)\s+(?P<name>\w+)\s*=\s*(?P<value>.+)", re.S)


class _Parser:
    def __init__(self, header: str, raw: str) -> None:
        self.header = header
        self.src = _Text(raw)
        self.text = self.src.text
        self.toks = tokenize(self.text)
        self.n = len(self.toks)
        self._group_end: dict[int, int] = {}

    # -- token helpers --
    def tok(self, i: int) -> Token:
        return self.toks[i] if i < self.n else Token("end", "", len(self.text))

    def is_(self, i: int, text: str) -> bool:
        return i < self.n and self.toks[i].text == text

    def line(self, i: int) -> int:
        return self.src.line(self.tok(i).pos)

    def slice(self, i: int, j: int) -> str:
        """Source text of tokens i..j-1, whitespace collapsed."""
        if i >= j:
            return ""
        start, end = self.tok(i).pos, self.tok(j - 1).pos + len(self.tok(j - 1).text)
        return " ".join(self.text[start:end].split())

    def skip_group(self, i: int) -> int:
        """i at an opening (, [ or {: the index after its matching closer (or the end).  Remembered: a body is
        skipped by its struct, then again by each enclosing statement."""
        end = self._group_end.get(i)
        if end is None:
            end = self._group_end[i] = self._find_group_end(i)
        return end

    def _find_group_end(self, i: int) -> int:
        stack = [_CLOSE[self.toks[i].text]]
        i += 1
        while i < self.n and stack:
            t = self.toks[i].text
            if self.toks[i].kind == "op":
                if t in _CLOSE:
                    stack.append(_CLOSE[t])
                elif t == stack[-1]:
                    stack.pop()
                elif t in (")", "]", "}") and t in stack:   # tolerate a stray closer inside #if branches
                    while stack and stack[-1] != t:
                        stack.pop()
                    stack.pop()
            i += 1
        return i

    def skip_angles(self, i: int) -> int:
        """i at '<': the index after its matching '>' (parentheses protect comparisons)."""
        depth = 0
        while i < self.n:
            t = self.toks[i]
            if t.kind == "op":
                if t.text in ("(", "[", "{"):
                    i = self.skip_group(i)
                    continue
                if t.text == "<":
                    depth += 1
                elif t.text == ">":
                    depth -= 1
                    if depth == 0:
                        return i + 1
                elif t.text in (";", "}") :
                    return i                                  # not a template argument list after all
            i += 1
        return i

    def statement_end(self, i: int) -> int:
        """Skip one statement or definition: up to ';' at depth 0, or a {...} body (and its ';')."""
        while i < self.n:
            t = self.toks[i]
            if t.kind == "op":
                if t.text == ";":
                    return i + 1
                if t.text == "}":
                    return i                                  # the end of the enclosing scope
                if t.text == "{":
                    i = self.skip_group(i)
                    return i + 1 if self.is_(i, ";") else i
                if t.text in ("(", "["):
                    i = self.skip_group(i)
                    continue
            i += 1
        return i

    # -- scopes --
    def scope(self, i: int, end_at_brace: bool, ns: str, out: list[Decl], in_class: bool) -> int:
        params: list[TemplateParam] | None = None
        while i < self.n:
            t = self.toks[i]
            if t.text == "}" and t.kind == "op":
                return i + 1                                  # this scope's end (at file scope: a stray '}')
            if t.text == ";":
                i += 1
                continue
            if t.text in ("public", "private", "protected") and self.is_(i + 1, ":"):
                i += 2
                continue
            if t.text == "inline" and self.is_(i + 1, "namespace"):
                i += 1
                continue
            if t.text == "namespace":
                i = self.namespace(i, ns, out)
                continue
            if t.text == "template" and self.is_(i + 1, "<"):
                params, i = self.template_params(i + 1)
                continue
            if t.text == "using":
                i = self.using(i, ns, out, params)
            elif t.text in ("struct", "class", "union") and self.tok(i + 1).kind == "id":
                i = self.struct(i, ns, out, params)
            elif t.text == "enum":
                i = self.enum(i, ns, out)
            elif t.text == "static_assert" and self.is_(i + 1, "("):
                i = self.static_assert(i, ns, out)
            elif t.text == "extern" and self.tok(i + 1).kind == "str":
                i += 2                                        # extern "C" { ... }: its body is skipped below
            else:
                i = self.other(i, ns, out, in_class)
            params = None
        return i

    def namespace(self, i: int, ns: str, out: list[Decl]) -> int:
        j = i + 1
        names = []
        while self.tok(j).kind == "id" or self.is_(j, "::"):
            if self.tok(j).kind == "id":
                names.append(self.tok(j).text)
            j += 1
        if self.is_(j, "="):                                  # namespace alias
            return self.statement_end(j)
        if not self.is_(j, "{"):
            return self.statement_end(j)
        inner = "::".join([ns] + names if ns else names) if names else ns
        return self.scope(j + 1, True, inner, out, in_class=False)

    def template_params(self, i: int) -> tuple[list[TemplateParam], int]:
        end = self.skip_angles(i)
        params: list[TemplateParam] = []
        j, depth, start = i + 1, 0, i + 1
        stop = end - 1
        while j <= stop:
            t = self.tok(j)
            if t.kind == "op" and t.text in ("(", "[", "{"):
                j = self.skip_group(j)
                continue
            if t.text == "<":
                depth += 1
            elif t.text == ">" and depth > 0:
                depth -= 1
            elif (t.text == "," and depth == 0) or j == stop:
                if j > start:
                    params.append(self.param(start, j))
                start = j + 1
            j += 1
        return params, end

    def param(self, i: int, j: int) -> TemplateParam:
        eq = next((k for k in range(i, j) if self.is_(k, "=")), j)
        default = self.slice(eq + 1, j) if eq < j else None
        head = [self.tok(k) for k in range(i, eq)]
        words = [t.text for t in head]
        name = head[-1].text if head and head[-1].kind == "id" and len(head) > 1 else ""
        if words[:1] in (["class"], ["typename"]):
            kind = "pack" if "..." in words else "class"
        else:
            kind = self.slice(i, eq - 1 if name else eq).replace(" ::", "::").replace(":: ", "::")
            kind = kind.replace("...", "").strip()
        return TemplateParam(kind, name, default)

    def using(self, i: int, ns: str, out: list[Decl], params: list[TemplateParam] | None) -> int:
        line = self.line(i)
        if self.is_(i + 1, "namespace"):
            return self.statement_end(i)
        j = i + 1
        if self.tok(j).kind == "id" and self.is_(j + 1, "="):
            end = self.statement_end(j)
            out.append(AliasDecl(self.header, line, ns, name=self.tok(j).text,
                                 value=self.slice(j + 2, end - 1 if self.is_(end - 1, ";") else end),
                                 params=params))
            return end
        end = self.statement_end(i)
        target = self.slice(i + 1, end - 1 if self.is_(end - 1, ";") else end)
        if re.fullmatch(r"[\w:\s]+", target) and "::" in target:
            out.append(UsingDecl(self.header, line, ns, target=target.replace(" ", "")))
        return end

    def struct(self, i: int, ns: str, out: list[Decl], params: list[TemplateParam] | None) -> int:
        line = self.line(i)
        j = i + 1
        name_parts = []
        while self.tok(j).kind == "id" or self.is_(j, "::"):
            name_parts.append(self.tok(j).text)
            j += 1
        args = None
        if self.is_(j, "<"):
            end = self.skip_angles(j)
            args = self.slice(j + 1, end - 1)
            j = end
        while self.tok(j).text in ("final",):
            j += 1
        bases = ""
        if self.is_(j, ":"):
            k = j + 1
            while k < self.n and not self.is_(k, "{") and not self.is_(k, ";"):
                k = self.skip_angles(k) if self.is_(k, "<") else k + 1
            bases, j = self.slice(j + 1, k), k
        if not self.is_(j, "{"):
            return self.statement_end(i)                      # a forward declaration or a variable
        decl = StructDecl(self.header, line, ns, name="".join(name_parts), params=params, args=args,
                          bases=bases)
        body_end = self.skip_group(j)
        decl.asm = self.asm_blocks(j, body_end)
        decl.asm_when = self.asm_guards(j, body_end)
        inner_ns = f"{ns}::{decl.name}" if ns else decl.name
        self.scope(j + 1, True, inner_ns, decl.members, in_class=True)
        out.append(decl)
        return body_end + 1 if self.is_(body_end, ";") else body_end

    def enum(self, i: int, ns: str, out: list[Decl]) -> int:
        line = self.line(i)
        j = i + 1
        if self.tok(j).text in ("class", "struct"):
            j += 1
        name = self.tok(j).text if self.tok(j).kind == "id" else ""
        while j < self.n and not self.is_(j, "{") and not self.is_(j, ";"):
            j += 1
        if not self.is_(j, "{"):
            return self.statement_end(i)
        end = self.skip_group(j)
        enumerators, expect_name = [], True
        depth = 0
        for k in range(j + 1, end - 1):
            t = self.tok(k)
            if t.text in ("(", "{", "["):
                depth += 1
            elif t.text in (")", "}", "]"):
                depth -= 1
            elif t.text == "," and depth == 0:
                expect_name = True
            elif expect_name and t.kind == "id":
                enumerators.append(t.text)
                expect_name = False
        out.append(EnumDecl(self.header, line, ns, name=name, enumerators=enumerators))
        return end + 1 if self.is_(end, ";") else end

    def static_assert(self, i: int, ns: str, out: list[Decl]) -> int:
        line = self.line(i)
        close = self.skip_group(i + 1)
        # split the argument list at its last top-level comma: condition, message
        depth, comma = 0, None
        for k in range(i + 2, close - 1):
            t = self.tok(k).text
            if t in ("(", "[", "{"):
                depth += 1
            elif t in (")", "]", "}"):
                depth -= 1
            elif t == "," and depth == 0:
                comma = k
        cond_end = comma if comma is not None and self.tok(comma + 1).kind == "str" else close - 1
        message = _string_value(self.tok(comma + 1).text) if cond_end == comma else ""
        out.append(StaticAssert(self.header, line, ns, condition=self.slice(i + 2, cond_end), message=message))
        return close + 1 if self.is_(close, ";") else close

    def other(self, i: int, ns: str, out: list[Decl], in_class: bool) -> int:
        end = self.statement_end(i)
        if in_class and self.is_(end - 1, ";"):
            # `static constexpr int K = 256 / sizeof_bits<ValTypeA>::value;` (UMMA's K): read as a member alias
            constant = _CONSTEXPR_MEMBER.fullmatch(self.slice(i, end - 1))
            if constant:
                out.append(AliasDecl(self.header, self.line(i), ns, name=constant.group("name"),
                                     value=constant.group("value")))
                return end
            # a data member `double t0, t1, t2;` (for sizeof of small structs such as GaussComplex)
            words = [self.tok(k) for k in range(i, end - 1)]
            if words and all(t.kind == "id" or t.text in (",", "::", "<", ">") for t in words):
                text = self.slice(i, end - 1)
                m = re.fullmatch(r"((?:[\w:]+(?:<[\w:, ]*>)?\s+)+?)(\w+(?:\s*,\s*\w+)*)", text)
                if m and m.group(1).strip() not in ("using", "typedef", "friend", "return"):
                    out.append(DataMember(self.header, self.line(i), ns, type=m.group(1).strip(),
                                          names=[n.strip() for n in m.group(2).split(",")]))
        return end if end > i else i + 1

    def asm_statements(self, i: int, j: int) -> list[tuple[int, int, int]]:
        """Every asm(...) statement between tokens i and j: (its `asm` token, its '(', the index after its ')')."""
        found = []
        k = i
        while k < j:
            if self.toks[k].text in ("asm", "__asm__"):
                m = k + 1
                while self.tok(m).text in ("volatile", "__volatile__"):
                    m += 1
                if self.is_(m, "("):
                    close = self.skip_group(m)
                    found.append((k, m, close))
                    k = close
                    continue
            k += 1
        return found

    def asm_blocks(self, i: int, j: int) -> list[tuple[str, int]]:
        """The string literals of every asm(...) statement between tokens i and j, joined."""
        blocks = []
        for k, m, close in self.asm_statements(i, j):
            parts = []
            for q in range(m + 1, close):
                if self.tok(q).kind == "str":
                    parts.append(_string_value(self.tok(q).text))
                elif self.tok(q).text == ":":
                    break
            blocks.append(("".join(parts), self.line(k)))
        return blocks

    def asm_guards(self, i: int, j: int) -> list[str]:
        """For every asm(...) statement between tokens i and j (asm_blocks' order), the conditions of the `if
        constexpr (...)` / `else if constexpr (...)` / `else` branches it lies in, joined by `&&` ("" when none): an
        `else` branch's condition is the negation of its chain's earlier ones."""
        guards: list[tuple[int, int, str]] = []      # (body '{', the index after its '}', condition) of each branch
        chains: dict[int, list[str]] = {}            # the index after a branch's body -> its chain's conditions
        k = i
        while k < j:
            if self.is_(k, "if") and self.is_(k + 1, "constexpr") and self.is_(k + 2, "("):
                close = self.skip_group(k + 2)
                cond = self.slice(k + 3, close - 1)
                earlier = chains.get(k - 1, []) if self.is_(k - 1, "else") else []
                if self.is_(close, "{"):
                    end = self.skip_group(close)
                    guards.append((close, end, " && ".join([f"!({c})" for c in earlier] + [f"({cond})"])))
                    chains[end] = earlier + [cond]
                    if self.is_(end, "else") and self.is_(end + 1, "{"):      # the chain's final `else { ... }`
                        guards.append((end + 1, self.skip_group(end + 1),
                                       " && ".join(f"!({c})" for c in earlier + [cond])))
                k = close
                continue
            k += 1
        return [" && ".join(c for start, end, c in guards if start < k < end)
                for k, _, _ in self.asm_statements(i, j)]


def _string_value(literal: str) -> str:
    body = literal[literal.index('"') + 1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def scan(text: str, header: str) -> Header:
    """All declarations of one header (file-scope and namespace-scope; struct members inside StructDecl)."""
    with no_cycle_collection():
        p = _Parser(header, text)
        decls: list[Decl] = []
        i = 0
        while i < p.n:
            i = p.scope(i, False, "", decls, in_class=False)
    return Header(header, decls)


@contextlib.contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Tokens and declarations hold no reference cycles: while a header's hundreds of thousands of them are made,
    the cycle collector would only walk them again and again (it took 40% of the scan)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def walk(decls: list[Decl]) -> Iterator[Decl]:
    """Every declaration, recursively into struct bodies."""
    for d in decls:
        yield d
        if isinstance(d, StructDecl):
            yield from walk(d.members)
