import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from oracle import Tally  # noqa: E402


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not Tally.total:
        return
    parts = [f"{fam} {Tally.matched[fam]}/{Tally.total[fam]}" for fam in sorted(Tally.total)]
    m, t = sum(Tally.matched.values()), sum(Tally.total.values())
    terminalreporter.write_line(f"CuTe oracle cases matched: {m}/{t} ({', '.join(parts)})")
