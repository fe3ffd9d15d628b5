"""verifier/engine/collector.py: proving raises the collector's youngest threshold and gives the previous ones back,
an exception too; the checks proved under it are what they are."""
import gc

import pytest

from verifier.engine.collector import PROVING_THRESHOLDS, collector_for_proving


def test_proving_raises_the_youngest_threshold_and_restores_the_previous_ones():
    before = gc.get_threshold()
    try:
        gc.set_threshold(500, 7, 9)
        with collector_for_proving():
            assert gc.get_threshold() == PROVING_THRESHOLDS
            assert gc.isenabled()          # still collecting: only less often
        assert gc.get_threshold() == (500, 7, 9)
        with pytest.raises(RuntimeError):
            with collector_for_proving():
                raise RuntimeError("a failing check")
        assert gc.get_threshold() == (500, 7, 9)
    finally:
        gc.set_threshold(*before)


def test_run_all_proves_under_the_raised_threshold_and_leaves_the_process_as_it_was(monkeypatch):
    from pathlib import Path

    import verifier.engine.runner as runner
    from verifier.engine.proving import run_all, select
    from verifier.specfile import load_spec
    from verifier.symbolic.procedure import Settings
    seen = []
    real = runner.run_check

    def spying(*args, **kwargs):
        seen.append(gc.get_threshold())
        return real(*args, **kwargs)
    monkeypatch.setattr(runner, "run_check", spying)
    before = gc.get_threshold()
    spec = load_spec(Path(__file__).parent.parent / "specs" / "mistakes.yaml")
    results = run_all(select([spec], ["wrong_descriptor_base_offset"]), Settings())
    assert seen == [PROVING_THRESHOLDS] and gc.get_threshold() == before
    assert results[0].verdict.value == "refuted"
