"""`python -m verifier layout`: the calculator as users and tools call it."""
import json
import subprocess
import sys

from oracle import cases


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "verifier", "layout", *args], input=stdin,
                          capture_output=True, text=True)


def test_single_expression_prints_cute_syntax():
    p = run("right_inverse((32,(2,4)):(2,(1,64)))")
    assert p.returncode == 0
    assert p.stdout.strip() == "(_2,_32,_4):(_32,_1,_64)"


def test_json_lists_every_value():
    p = run("--json", "composition(((4,8),(2,2,2)):((32,1),(16,8,128)), right_inverse((32,(2,4)):(2,(1,64))))")
    out = json.loads(p.stdout)
    assert out["layout"] == "(_2,(_4,_8),(_2,_2)):(_16,(_32,_1),(_8,_128))"
    assert len(out["values"]) == 256 and out["values"][129] == 144  # internal element e=129 -> A(0,9)


def test_evaluating_a_layout_and_a_swizzle():
    assert run("((4,8),(2,2,2)):((32,1),(16,8,128))(0,5)").stdout.strip() == "144"
    assert run("Sw<3,3,3>(72)").stdout.strip() == str(72 ^ 8)
    assert run("size(Sw<3,3,3> o (8,64):(64,1))").stdout.strip() == "512"


def test_stdin_batch_keeps_going_after_an_error():
    exprs = ["coalesce((2,(8,4)):(1,(2,16)))", "composition((8,2):(2,1), (2,2,2):(12,4,4))", "(4,8):(1,4"]
    p = run("-", "--json", stdin="\n".join(exprs) + "\n")
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(lines) == 3
    assert lines[0]["layout"] == "_64:_1"
    assert "Stride Divisibility Condition" in lines[1]["error"]
    assert "column" in lines[2]["error"]
    assert p.returncode == 2


def test_bad_expression_reports_the_column_without_traceback():
    p = run("(4,8):(1,4,2)")
    assert p.returncode == 2
    assert "column 7" in p.stderr and "Traceback" not in p.stderr


def test_every_oracle_expression_through_stdin():
    """The conformance interface: one process, one line per expression, in order."""
    cs = cases("algebra", lambda c: c["op"] != "properties")
    p = run("-", "--json", stdin="\n".join(c["expr"] for c in cs) + "\n")
    got = [json.loads(x)["values"] for x in p.stdout.splitlines()]
    assert got == [c["result"]["table"] for c in cs]
