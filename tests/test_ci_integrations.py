"""The CI integrations call the command line as it is: every option the GitHub Action, the example workflow and the
pre-commit hook pass exists, and the Action keeps the proof cache where it tells the verifier to look."""
from __future__ import annotations

import re
from pathlib import Path

from ruamel.yaml import YAML

from verifier.commands.cli import build_parser

ROOT = Path(__file__).parent.parent


def _options(command: str) -> set[str]:
    """The long options the parser of `python -m verifier <command>` accepts."""
    sub = next(a for a in build_parser()._subparsers._group_actions if a.dest == "command")
    return {o for action in sub.choices[command]._actions for o in action.option_strings if o.startswith("--")}


def _verifier_calls(text: str) -> list[tuple[str, list[str]]]:
    """(subcommand, its --options) of every `python -m verifier ...` in a shell text."""
    calls = []
    for m in re.finditer(r"python -m verifier (\w[\w-]*)([^\n]*)", text):
        calls.append((m.group(1), re.findall(r"(--[a-z][a-z-]*)", m.group(2))))
    return calls


def test_the_action_passes_options_the_verifier_has():
    action = YAML(typ="safe").load((ROOT / "action.yml").read_text())
    steps = action["runs"]["steps"]
    scripts = "\n".join(step.get("run", "") for step in steps)
    calls = _verifier_calls(scripts)
    assert calls and all(cmd == "prove" for cmd, _ in calls)
    for _, opts in calls:
        assert set(opts) <= _options("prove"), opts
    flag = next(step["env"]["CACHE_FLAG"] for step in steps if "env" in step)
    assert "--cache-dir=" in flag and "--no-cache" in flag
    cache_step = next(step for step in steps if step.get("uses", "").startswith("actions/cache@"))
    restored = cache_step["with"]["path"].replace("${{ runner.temp }}", "{0}")
    assert f"--cache-dir={restored}" in flag and "runner.temp" in flag   # the directory the verifier is told to use


def test_the_example_workflow_and_the_hook_pass_options_the_verifier_has():
    workflow = (ROOT / "examples" / "github-workflow.yml").read_text()
    hook = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text())[0]
    calls = _verifier_calls(workflow) + _verifier_calls(hook["entry"])
    assert {cmd for cmd, _ in calls} == {"diff", "prove"}
    for cmd, opts in calls:
        assert set(opts) <= _options(cmd), (cmd, opts)
