import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

# the proof cache of every `prove` the tests run (in-process or as subprocesses) lives in a fresh directory of this
# session, never in the user's ~/.cache; tests of the cache itself pass --cache-dir or --no-cache
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="verifier-test-cache-")

from hypothesis import settings  # noqa: E402

from oracle import Tally  # noqa: E402

# The suite gates CI, so its property and fuzz tests draw the same examples on every run ("gate"); to explore new
# examples, run with HYPOTHESIS_PROFILE=explore (random seeds, as many runs as you like).
settings.register_profile("gate", derandomize=True)
settings.register_profile("explore", derandomize=False, max_examples=500)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "gate"))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not Tally.total:
        return
    parts = [f"{fam} {Tally.matched[fam]}/{Tally.total[fam]}" for fam in sorted(Tally.total)]
    m, t = sum(Tally.matched.values()), sum(Tally.total.values())
    terminalreporter.write_line(f"CuTe oracle cases matched: {m}/{t} ({', '.join(parts)})")
