"""CuTe's objects read from a C++ type as the host compiler spells it in a diagnostic.

A CuTe object's value lives in its type: `cute::Layout<cute::tuple<cute::C<8>, int>, cute::tuple<cute::C<1>,
cute::C<8> > >` is the layout (8,?):(1,8), a run-time integer being `?`.  The compiler computed the type (every
partition, tiling and composition is CuTe's own template code); this module only reads its spelling: names,
template arguments, integers.  What it does not know it keeps as text, and says so."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

DYNAMIC = "?"
# the integer types CuTe's run-time values have
# the compiler's spellings of the fixed-width integer types CuTe's atoms are named with (`uint64_t` is spelled
# `long unsigned int`)
FIXED_WIDTH_NAMES = {"unsigned char": "uint8_t", "short unsigned int": "uint16_t", "unsigned int": "uint32_t",
                     "long unsigned int": "uint64_t", "signed char": "int8_t", "short int": "int16_t",
                     "int": "int32_t"}
RUNTIME_INTEGERS = {"int", "unsigned int", "long int", "long unsigned int", "long long int", "long long unsigned int",
                    "short int", "unsigned char", "char", "bool", "int64_t", "uint64_t", "int32_t", "uint32_t",
                    "long", "unsigned", "unsigned long", "long long", "unsigned long long", "short"}
_TOKEN = re.compile(r"\s*(?:(?P<num>-?\d+[uUlL]*)|(?P<name>[A-Za-z_][\w]*(?:\s*::\s*[A-Za-z_~][\w]*)*)|(?P<p>\S))")
MAX_TYPE_TEXT = 400_000


class TypeSyntaxError(ValueError):
    pass


@dataclass
class TypeNode:
    """`name<args...>` with the qualifiers that follow it (`const`, `*`, `&`)."""
    name: str
    args: list["TypeNode"] = field(default_factory=list)
    templated: bool = False
    qualifiers: str = ""

    def base(self) -> str:
        """The name without CuTe's and CUTLASS's namespaces: `cute::SM90::GMMA::Major::K` -> `SM90::GMMA::Major::K`."""
        for prefix in ("cute::", "cutlass::"):
            if self.name.startswith(prefix):
                return self.name[len(prefix):]
        return self.name

    def text(self) -> str:
        inner = f"<{', '.join(a.text() for a in self.args)}>" if self.templated else ""
        return f"{self.name}{inner}{self.qualifiers}"

    def is_(self, *names: str) -> bool:
        return self.base() in names


def parse_type(text: str) -> TypeNode:
    if len(text) > MAX_TYPE_TEXT:
        raise TypeSyntaxError(f"a type of {len(text)} characters")
    tokens = [(m.lastgroup or "", m.group(m.lastgroup or "p")) for m in _TOKEN.finditer(text) if m.lastgroup]
    pos = 0

    def peek() -> tuple[str, str]:
        return tokens[pos] if pos < len(tokens) else ("", "")

    def node() -> TypeNode:
        nonlocal pos
        words: list[str] = []
        while peek()[0] in ("name", "num") or peek() == ("p", "("):
            kind, tok = peek()
            if tok == "(":                         # a cast `(cute::X)1` or a function type: kept as text
                depth = 0
                start = pos
                while pos < len(tokens):
                    if tokens[pos][1] == "(":
                        depth += 1
                    elif tokens[pos][1] == ")":
                        depth -= 1
                        if depth == 0:
                            pos += 1
                            break
                    pos += 1
                words.append("".join(t for _, t in tokens[start:pos]))
                continue
            words.append(re.sub(r"\s*::\s*", "::", tok))
            pos += 1
        if not words:
            raise TypeSyntaxError(f"a type expected at token {pos} of '{text[:80]}'")
        out = TypeNode(" ".join(w for w in words if w != "const") or words[-1])
        if "const" in words:
            out.qualifiers += " const"
        if peek() == ("p", "<"):
            pos += 1
            out.templated = True
            if peek() != ("p", ">"):
                while True:
                    out.args.append(node())
                    if peek() == ("p", ","):
                        pos += 1
                        continue
                    break
            if peek() != ("p", ">"):
                raise TypeSyntaxError(f"'>' expected in '{text[:120]}'")
            pos += 1
        while peek()[1] in ("*", "&", "const", "[", "]", "volatile") or (peek()[0] == "name" and
                                                                      peek()[1] in ("const", "volatile")):
            out.qualifiers += peek()[1]
            pos += 1
        return out
    result = node()
    return result


def int_tuple(n: TypeNode) -> int | str | tuple[object, ...]:
    """`cute::C<8>` -> 8, a run-time integer -> '?', `cute::tuple<...>` -> a tuple."""
    if n.is_("C") and len(n.args) == 1:
        return int(n.args[0].name.rstrip("uUlL"))
    if n.is_("tuple"):
        return tuple(int_tuple(a) for a in n.args)
    if n.name in RUNTIME_INTEGERS or n.name.replace("const", "").strip() in RUNTIME_INTEGERS:
        return DYNAMIC
    raise TypeSyntaxError(f"not an integer tuple: {n.text()[:120]}")


def _tuple_text(x: int | str | tuple[object, ...]) -> str:
    if isinstance(x, tuple):
        return "(" + ",".join(_tuple_text(v) for v in x) + ")"  # type: ignore[arg-type]
    return str(x)


def layout_text(n: TypeNode) -> str:
    """A Layout or ComposedLayout type as CuTe prints it (a run-time integer as '?')."""
    if n.is_("Layout") and n.args:
        shape = int_tuple(n.args[0])
        stride = int_tuple(n.args[1]) if len(n.args) > 1 else None
        if stride is None:
            raise TypeSyntaxError("a Layout without its stride (a compact layout) is not read")
        return f"{_tuple_text(shape)}:{_tuple_text(stride)}"
    if n.is_("ComposedLayout") and len(n.args) == 3:
        return f"{swizzle_text(n.args[0])} o {offset_text(n.args[1])} o {layout_text(n.args[2])}"
    raise TypeSyntaxError(f"not a layout: {n.text()[:160]}")


def swizzle_text(n: TypeNode) -> str:
    if n.is_("Swizzle") and len(n.args) == 3:
        return "Sw<" + ",".join(a.name for a in n.args) + ">"
    raise TypeSyntaxError(f"not a swizzle: {n.text()[:120]}")


def offset_text(n: TypeNode) -> str:
    if n.is_("smem_ptr_flag_bits") and len(n.args) == 1:
        return f"smem_ptr[{n.args[0].name}b](unset)"
    if n.is_("C") and len(n.args) == 1:
        return f"_{n.args[0].name}"
    raise TypeSyntaxError(f"not a composed layout's offset: {n.text()[:120]}")


def tile_text(n: TypeNode) -> str:
    """A tiler (`tuple<C<32>, C<32>, C<16>>`, modes that are layouts, `Underscore`) as the spec format writes it."""
    if n.is_("tuple"):
        return "[" + ", ".join(tile_text(a) for a in n.args) + "]"
    if n.is_("Underscore"):
        return '"_"'
    if n.is_("C"):
        return n.args[0].name
    if n.is_("Layout"):
        return '"' + layout_text(n) + '"'
    raise TypeSyntaxError(f"not a tiler: {n.text()[:120]}")


__all__ = ["TypeNode", "TypeSyntaxError", "parse_type", "int_tuple", "layout_text", "swizzle_text", "tile_text",
           "DYNAMIC"]
