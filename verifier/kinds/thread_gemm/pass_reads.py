"""Theorem 46's second fact: each pass of the k-tile loop multiplies its own k-tile.  The C++ reader states, for each
operand, the k-tile its shared tile holds at pass v's gemm as an integer expression of the loop's variable and the
k-tile count K (the copies simulated in the kernel's order: `(0 if kt == 0 else ((kt - 1) + 1 if ((kt - 1) + 1) < K
else (kt - 1)))` for a prefetch through registers); the fact is that it equals v for every K >= 1 and 0 <= v < K.

The expressions are Python's syntax (`a if c else b`, `and`, `or`, `not`, comparisons, `+ - *`), read with `ast`,
and decided by Z3 over the integers -- a proof for every K, or a model (K, v) whose values are the witness."""
from __future__ import annotations

import ast
from dataclasses import dataclass

K_NAME = "K"                       # the k-tile count
MAX_LENGTH = 2000
SOLVER_MS = 10_000


class PassExpressionError(ValueError):
    """An expression this module does not read: why."""


_NODES = (ast.Expression, ast.Constant, ast.Name, ast.Load, ast.UnaryOp, ast.USub, ast.Not, ast.BinOp, ast.Add,
          ast.Sub, ast.Mult, ast.Compare, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq, ast.BoolOp, ast.And,
          ast.Or, ast.IfExp)


def read_pass_expression(text: str, variable: str) -> ast.expr:
    """`text` as an expression of `variable` and K (PassExpressionError: what it holds that is not allowed)."""
    if len(text) > MAX_LENGTH:
        raise PassExpressionError(f"an expression of more than {MAX_LENGTH} characters")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise PassExpressionError(f"'{text}' is not an expression of {variable} and {K_NAME}") from None
    for node in ast.walk(tree):
        if not isinstance(node, _NODES):
            raise PassExpressionError(f"'{text}' holds {type(node).__name__}, which is not read")
        if isinstance(node, ast.Constant) and type(node.value) is not int:
            raise PassExpressionError(f"'{text}' holds {node.value!r}, not an integer")
        if isinstance(node, ast.Name) and node.id not in (variable, K_NAME):
            raise PassExpressionError(f"'{text}' names {node.id}: only {variable} and {K_NAME} are read")
        if isinstance(node, ast.Compare) and len(node.ops) != 1:
            raise PassExpressionError(f"'{text}' chains comparisons")
    return tree.body


@dataclass(frozen=True)
class PassWitness:
    k_tiles: int
    pass_: int
    held: tuple[tuple[str, int], ...]      # (operand, the k-tile its tile holds at that pass's gemm)


def first_wrong_pass(reads: tuple[tuple[str, str], ...], variable: str) -> PassWitness | None:
    """None where every operand's tile holds k-tile v at pass v's gemm for every K >= 1 and 0 <= v < K (unsat);
    else the least K, and in it the least pass v, where one does not (RuntimeError where Z3 answers neither)."""
    import z3
    v, k = z3.Int(variable), z3.Int(K_NAME)
    env = {variable: v, K_NAME: k}

    def as_int(e: z3.ExprRef) -> z3.ArithRef:
        return z3.If(e, 1, 0) if z3.is_bool(e) else e

    def as_bool(e: z3.ExprRef) -> z3.BoolRef:
        return e if z3.is_bool(e) else e != 0

    def term(node: ast.expr) -> z3.ExprRef:
        if isinstance(node, ast.Constant):
            return z3.IntVal(int(node.value))                        # type: ignore[arg-type]
        if isinstance(node, ast.Name):
            return env[node.id]
        if isinstance(node, ast.UnaryOp):
            inner = term(node.operand)
            return z3.Not(as_bool(inner)) if isinstance(node.op, ast.Not) else -as_int(inner)
        if isinstance(node, ast.BinOp):
            a, b = as_int(term(node.left)), as_int(term(node.right))
            return a + b if isinstance(node.op, ast.Add) else a - b if isinstance(node.op, ast.Sub) else a * b
        if isinstance(node, ast.Compare):
            a, b = as_int(term(node.left)), as_int(term(node.comparators[0]))
            return {ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b, ast.GtE: a >= b, ast.Eq: a == b,
                    ast.NotEq: a != b}[type(node.ops[0])]
        if isinstance(node, ast.BoolOp):
            sides = [as_bool(term(x)) for x in node.values]
            return z3.And(*sides) if isinstance(node.op, ast.And) else z3.Or(*sides)
        assert isinstance(node, ast.IfExp)
        return z3.If(as_bool(term(node.test)), as_int(term(node.body)), as_int(term(node.orelse)))

    held = [(operand, as_int(term(read_pass_expression(text, variable)))) for operand, text in reads]
    solver = z3.Optimize()            # the least K, then the least pass: the smallest witness
    solver.set("timeout", SOLVER_MS)
    solver.add(k >= 1, v >= 0, v < k, z3.Or(*[h != v for _, h in held]))
    solver.minimize(k)
    solver.minimize(v)
    answer = solver.check()
    if answer == z3.unsat:
        return None
    if answer != z3.sat:
        raise RuntimeError(f"Z3 answered {answer} on the passes' k-tiles")
    model = solver.model()
    return PassWitness(model.eval(k).as_long(), model.eval(v).as_long(),
                       tuple((o, model.eval(h, model_completion=True).as_long()) for o, h in held))


__all__ = ["K_NAME", "PassExpressionError", "PassWitness", "first_wrong_pass", "read_pass_expression"]
