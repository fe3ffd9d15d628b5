import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

# the proof cache of every `prove` the tests run (in-process or as subprocesses) lives in a fresh directory of this
# session, never in the user's ~/.cache; tests of the cache itself pass --cache-dir or --no-cache
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="verifier-test-cache-")

from oracle import Tally  # noqa: E402


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not Tally.total:
        return
    parts = [f"{fam} {Tally.matched[fam]}/{Tally.total[fam]}" for fam in sorted(Tally.total)]
    m, t = sum(Tally.matched.values()), sum(Tally.total.values())
    terminalreporter.write_line(f"CuTe oracle cases matched: {m}/{t} ({', '.join(parts)})")
