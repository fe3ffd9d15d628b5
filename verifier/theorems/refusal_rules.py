"""What CuTe's static_asserts mean for a kernel author: each rule the algebra refuses a configuration with, in
words, with the numbers it was refused for and the kind of change that makes it valid.  Facts, written once as
data; `explain` reads them (the report says it next to the refusal, `prove --suggest` searches for the change)."""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class RefusalRule:
    pattern: str        # a regular expression matching CuTe's static_assert text
    means: str          # what was refused, `{detail}` standing for the numbers CuTe was refused with
    change: str         # the kind of change that makes it valid


RULES: tuple[RefusalRule, ...] = (
    RefusalRule(r"Requires pow2 shape\*stride", "a swizzle composes only with layout modes whose extent shape*stride "
                "is a power of two, and one mode spans {detail}",
                "a row pitch (stride) that is a power of two — pad the tile — or no swizzle on this layout"),
    RefusalRule(r"Shape Divisibility Condition|^Divisibility Condition", "CuTe divides one mode by another and "
                "neither size divides the other ({detail})",
                "sizes that divide each other: the shared tile a whole number of the tiled MMA's tile, a permutation "
                "(Tile<...>) that is a multiple of the atoms' tile"),
    RefusalRule(r"Stride Divisibility Condition", "composition needs each stride of the inner layout to divide, or be "
                "divided by, the outer layout's shape it lands in ({detail})",
                "a layout whose strides step through whole modes of the other (a compact or power-of-two pitch)"),
    RefusalRule(r"CopyOperation is not valid for (Src|Dst|Ref) of ValType", "the copy atom's (thread, bit) layout does "
                "not split into whole values of the value type ({detail})",
                "a value type whose width divides what each thread of the instruction moves, or a copy atom made for "
                "this width (e.g. UniversalCopy, or the non-transposing ldmatrix for 32-bit values)"),
    RefusalRule(r"Mismatched [Rr]anks", "two tuples that must have the same rank do not ({detail})",
                "the same number of modes on both sides (shape and stride, tile and layout)"),
    RefusalRule(r"Accumulator and scale[AB]? must have same shape", "the SM90 blockwise collective hands a thread's "
                "register scales to GmmaFP8Accumulation, whose static_assert wants the accumulators' shape, nesting "
                "included ({detail})",
                "a scale granularity that splits no accumulator mode: one row (column) a scale, or one scale a tile"),
    RefusalRule(r"Index out of range", "a mode that does not exist was asked for ({detail})",
                "a layout of the rank the step needs (a 2-mode (rows, cols) tile)"),
)


def explain(rule: str, detail: str) -> str:
    """One sentence for a refusal: what CuTe refused, with its numbers, and what kind of change makes it valid;
    '' when the rule is not one of RULES."""
    for r in RULES:
        if re.search(r.pattern, rule):
            return f"{r.means.format(detail=detail or 'these sizes')}; make it valid with {r.change}"
    return ""
