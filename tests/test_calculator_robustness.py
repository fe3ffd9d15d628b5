"""`python -m verifier layout`: hostile input gets one error line, never a traceback, a hang or a crash.

Every non-blank stdin line is answered by exactly one output line, in order; the exit status is 0 when every
expression evaluated and 2 when one did not.
"""
from __future__ import annotations

import io
import json
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.algebra.calls import FUNCTIONS
from verifier.algebra.syntax import MAX_NESTING, ParseError, parse_expression
from verifier.commands.layout import evaluate_line, run

HUGE = "9" * 5000
ERROR_LINE_LIMIT = 500   # an error line repeats at most a short excerpt of the input (and may list known names)
SECONDS_PER_LINE = 2.0

# (expression, words its error must contain)
HOSTILE = [
    ("3 o 4", "left side of 'o'"),
    ("_ o _", "left side of 'o'"),
    ("16 o Sw<3,3,3>", "left side of 'o'"),
    ("Sw<3,3,3> o 16", "unsupported operands"),
    ("[1,2] o 3", "left side of 'o'"),
    ("smem_ptr[16b](unset) o 4:1", "left side of 'o'"),
    ("Sw<3,3,3> o smem_ptr[16b](unset) o 64:1 o 2:1", "left side of 'o'"),
    ("(" * 5000 + "1" + ")" * 5000, "nested too deeply (limit 64)"),
    ("[" * 5000, "nested too deeply"),
    ("composition(" * 3000 + "4:1" + ")" * 3000, "nested too deeply"),
    ("1" * 100_000, "at most 10000"),
    ("(" + "2," * 50_000 + "2):1", "at most 10000"),
    (f"({HUGE}):1", "5000 digits"),
    (f"1:{HUGE}", "5000 digits"),
    (f"Sw<{HUGE},1,1>", "5000 digits"),
    (f"smem_ptr[{HUGE}b](unset)", "5000 digits"),
    (f"4:1({HUGE})", "5000 digits"),
    ("size(", "unexpected end of input"),
    ("\x00\x01\xff", "unexpected character '\\x00'"),
    ("é", "unexpected character '\\xe9'"),
    (":", "expected a layout"),
    ("(2,3):(1)", "different ranks"),
    ("Sw<99,99,99>", "B + M + |S| at most 64"),
    ("Sw<3,3,3>(_)", "a swizzle is applied to one integer"),
    ("composition(1,2,3)", "composition(A, offset, B)"),
    ("make_layout(-1)", "shape entries must be positive"),
    ("make_layout([2,_], 1)", "the shape must be"),
    ("make_layout(8, _)", "the stride must be"),
    ("raked_product(1:0, Sw<1,3,2>)", "expected a plain layout"),
    ("blocked_product(4:1, (99999999,99999999))", "larger than the supported"),
    ("complement(4:1, 99999999999999999999)", "at most 1099511627776 (2**40)"),
    ("complement(4:1, _)", "the cotarget must be"),
    ("coalesce(4:1, smem_ptr[16b](unset))", "a profile is"),
    ("tile_to_shape(4:1, Sw<1,1,1>)", "the target shape"),
    ("logical_divide(4:1, smem_ptr[16b](unset))", "expected a layout or a tiler"),
    ("4:1(smem_ptr[16b](unset))", "a layout is applied to"),
    ("(2,2):(1,2)([1:1])", "a layout is applied to"),
    ("x" * 5000 + "(1)", "unknown function 'xxxx"),
    ("recast_layout<nope,half_t>(4:1)", "unknown value type"),
]


def error_of(expr: str) -> str:
    start = time.monotonic()
    text, ok = evaluate_line(expr, as_json=False)
    assert time.monotonic() - start < SECONDS_PER_LINE, expr[:80]
    assert not ok and text.startswith("error: column "), text[:200]
    assert "\n" not in text and len(text) < ERROR_LINE_LIMIT, text[:200]
    return text


@pytest.mark.parametrize("expr,words", HOSTILE, ids=[f"{i}:{e[:24]!r}" for i, (e, _) in enumerate(HOSTILE)])
def test_hostile_expression_is_one_short_error_line(expr: str, words: str) -> None:
    assert words in error_of(expr)


def test_nesting_up_to_the_limit_evaluates() -> None:
    depth = MAX_NESTING
    assert str(parse_expression("(" * depth + "2" + ")" * depth + ":" + "(" * depth + "1" + ")" * depth)) \
        == "(" * depth + "_2" + ")" * depth + ":" + "(" * depth + "_1" + ")" * depth
    assert str(parse_expression("coalesce(" * (depth - 1) + "(4,2):(1,4)" + ")" * (depth - 1))) == "_8:_1"
    with pytest.raises(ParseError, match="nested too deeply"):
        parse_expression("coalesce(" * depth + "(4,2):(1,4)" + ")" * depth)


def test_json_of_results_that_are_not_layouts() -> None:
    assert json.loads(evaluate_line("_", as_json=True)[0]) == {"text": "_"}
    assert json.loads(evaluate_line("smem_ptr[16b](unset)", as_json=True)[0]) == {"text": "smem_ptr[16b](unset)"}
    assert json.loads(evaluate_line("[Sw<2,3,4>,32]", as_json=True)[0]) == {"tuple": "(Sw<2,3,4>,_32)"}
    assert evaluate_line("[Sw<2,3,4>,32,[2,_]]", as_json=False)[0] == "(Sw<2,3,4>,_32,(_2,_))"
    assert evaluate_line("[4:1,8]", as_json=False)[0] == "(_4:_1,_8)"


def test_json_values_beyond_int64_are_exact() -> None:
    stride = 1 << 62
    out = json.loads(evaluate_line(f"100:{stride}", as_json=True)[0])
    assert out["values"] == [i * stride for i in range(100)]


def test_json_refuses_to_list_a_huge_layout() -> None:
    out = json.loads(evaluate_line("(1024,8192):(1,1024)", as_json=True)[0])
    assert "too large to list" in out["error"]


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verifier", "layout", *args], input=stdin, capture_output=True,
                          timeout=120, check=False)


def test_stdin_batch_of_hostile_lines_answers_every_line() -> None:
    lines = [e for e, _ in HOSTILE] + ["right_inverse((32,(2,4)):(2,(1,64)))", "Sw<3,3,3>(72)"]
    stdin = "\n".join(lines).encode() + b"\n"
    p = run_cli("-", stdin=stdin)
    out = p.stdout.decode().split("\n")[:-1]
    assert len(out) == len(lines) and p.returncode == 2 and p.stderr == b"", p.stderr[-500:]
    assert out[-2:] == ["(_2,_32,_4):(_32,_1,_64)", "64"]
    p = run_cli("-", "--json", stdin=stdin)
    results = [json.loads(line) for line in p.stdout.decode().split("\n")[:-1]]
    assert len(results) == len(lines) and p.returncode == 2 and p.stderr == b"", p.stderr[-500:]
    assert all("error" in r for r in results[:-2])
    assert results[-2]["layout"] == "(_2,_32,_4):(_32,_1,_64)" and results[-1] == {"value": 64}


def test_stdin_bytes_that_are_not_utf8_are_one_error_line() -> None:
    p = run_cli("-", stdin=b"4:1\n\xff\xfe\x00garbage\n\x80(\r\n8:2\n")
    out = p.stdout.decode().splitlines()
    assert out[0] == "_4:_1" and out[1].startswith("error: column 1: unexpected character")
    assert out[2].startswith("error: ") and out[3] == "_8:_2" and len(out) == 4
    assert p.returncode == 2 and b"Traceback" not in p.stderr


def test_single_expression_errors_never_trace_back() -> None:
    for expr in (f"1:{HUGE}", "(" * 5000, "3 o 4", "1" * 100_000):
        p = run_cli(expr)
        assert p.returncode == 2 and p.stdout == b"" and b"Traceback" not in p.stderr, p.stderr[-300:]
        assert p.stderr.startswith(b"verifier layout: column ") and len(p.stderr) < 600


def test_single_expression_error_shows_a_caret_under_the_column() -> None:
    p = run_cli("(4,8):(1,4,2)")
    assert p.stderr.decode().splitlines()[1:] == ["  (4,8):(1,4,2)", "        ^"]


# --- random expressions from the grammar's tokens --------------------------------------------------------

INTS = st.one_of(st.sampled_from([0, 1, 2, 3, 4, 8, 16, 32, 64, -1, -4]), st.integers(-10 ** 45, 10 ** 45),
                 st.integers(0, 1 << 70))
NUMBER = st.one_of(INTS.map(str), INTS.map(lambda n: f"_{abs(n)}"))
FUNCTION = st.sampled_from(sorted(FUNCTIONS) + ["Sw", "unknown_fn", "o"])
TEMPLATE_ARG = st.one_of(NUMBER, st.sampled_from(["half_t", "float", "uint1_t", "bogus"]))
SHAPE = st.recursive(NUMBER, lambda inner: st.lists(inner, min_size=1, max_size=3).map(lambda xs: f"({','.join(xs)})"),
                     max_leaves=8)
ATOM = st.one_of(
    st.builds(lambda s, d: f"{s}:{d}", SHAPE, SHAPE), SHAPE, st.just("_"),
    st.builds(lambda b, m, s: f"Sw<{b},{m},{s}>", st.integers(-1, 6), st.integers(-1, 6), st.integers(-8, 8)),
    st.sampled_from(["smem_ptr[16b](unset)", "smem_ptr[8b](unset)"]))


def _extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    args = st.lists(inner, max_size=3)
    targs = st.one_of(st.just(""), st.lists(TEMPLATE_ARG, min_size=1, max_size=3).map(lambda t: f"<{','.join(t)}>"))
    return st.one_of(
        st.builds(lambda f, t, a: f"{f}{t}({', '.join(a)})", FUNCTION, targs, args),
        st.lists(inner, min_size=2, max_size=3).map(" o ".join),
        st.builds(lambda x, a: f"{x}({','.join(a)})", inner, args),
        args.map(lambda a: f"[{','.join(a)}]"))


EXPRESSIONS = st.recursive(ATOM, _extend, max_leaves=12)
TOKENS = st.sampled_from(["(", ")", "[", "]", "<", ">", ",", ":", " o ", "_", "Sw", "size", "composition", "0", "-3",
                          "16", "4:1", "smem_ptr[16b](unset)", "x", "\x00", "é", "::", "9" * 45, "upcast<2>"])
TOKEN_SOUP = st.lists(TOKENS, min_size=1, max_size=40).map("".join)
LINES = st.one_of(EXPRESSIONS, TOKEN_SOUP, st.text(max_size=80))


def check_one_line(expr: str, as_json: bool) -> None:
    start = time.monotonic()
    text, ok = evaluate_line(expr, as_json)
    assert time.monotonic() - start < SECONDS_PER_LINE, expr[:200]
    assert "\n" not in text
    if not ok:
        assert len(text) < ERROR_LINE_LIMIT, text[:200]
        assert text.startswith("error: column ") or json.loads(text)["error"].startswith("column ")


@settings(max_examples=300, deadline=None)
@given(expr=LINES, as_json=st.booleans())
def test_random_expression_is_one_line(expr: str, as_json: bool) -> None:
    check_one_line(expr, as_json)


ONE_LINE = LINES.filter(lambda line: bool(line.strip()) and "\n" not in line)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.data_too_large, HealthCheck.too_slow])
@given(lines=st.lists(ONE_LINE, min_size=100, max_size=150), as_json=st.booleans())
def test_random_lines_through_one_process(lines: list[str], as_json: bool) -> None:
    """A few hundred generated lines through `layout -` processes: one output line each, exit 0 or 2."""
    p = run_cli("-", *(["--json"] if as_json else []), stdin="\n".join(lines).encode() + b"\n")
    assert p.returncode in (0, 2) and p.stderr == b"", p.stderr[-500:]
    assert len(p.stdout.decode().split("\n")[:-1]) == len(lines)


def test_run_reads_lines_from_a_given_stream() -> None:
    out = io.StringIO()
    assert run(["-"], False, True, out=out, inp=io.StringIO("4:1\n\n  \n3 o 4\n")) == 2
    refusal = "error: column 1: the left side of 'o' must be a layout or a swizzle: 3"
    assert out.getvalue().splitlines() == ["_4:_1", refusal]
