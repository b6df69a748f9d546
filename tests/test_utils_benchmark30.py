"""tapegrad.utils.benchmark against torch.utils.benchmark: the same raw block times give the
same statistics, the same Measurement printout and the same Compare tables (plain,
trimmed, coloured, with warnings), and Timer drives them as PyTorch's recipe does."""
import re

import numpy as np
import pytest

import tapegrad.utils.benchmark as tb

torch = pytest.importorskip("torch")
import torch.utils.benchmark as ptb  # noqa: E402

RNG = np.random.default_rng(30)


def _times(median, spread, n):
    return list(median * (1 + spread * RNG.standard_normal(n)))


SPECS = [  # (stmt, label, sub_label, description, num_threads, env, number, block times)
    ("x @ x", "matmul", "64", "tapegrad", 1, None, 100, _times(3.1e-4, 0.01, 12)),
    ("x @ x", "matmul", "64", "numpy", 1, None, 100, _times(2.2e-4, 0.02, 9)),
    ("x @ x", "matmul", "256", "tapegrad", 1, None, 10, _times(4.3e-3, 0.3, 7)),
    ("x @ x", "matmul", "256", "numpy", 1, None, 10, _times(1.9e-3, 0.05, 5)),
    ("x @ x", "matmul", "64", "tapegrad", 4, None, 100, _times(1.2e-4, 0.12, 8)),
    ("x @ x", "matmul", "64", "numpy", 4, None, 100, _times(9.0e-5, 0.01, 8)),
    ("x.sum()", "sum", None, "a", 1, "env1", 1000, _times(2.5e-6, 0.0, 3)),
    ("x.sum()", "sum", None, "b", 1, "env2", 1000, _times(2.7e-7, 0.4, 6)),
    ("for _ in range(3):\n    pass", None, "loop", None, 2, None, 1, _times(12.0, 0.01, 1)),
]


def _measurements(lib):
    return [lib.Measurement(number, [t * number for t in times],
                            lib.TaskSpec(stmt, "pass", "", label, sub, desc, env, threads))
            for stmt, label, sub, desc, threads, env, number, times in SPECS]


def _scrub(text):  # (object addresses and the module in the repr's first line)
    return re.sub(r"<\S+Measurement object at 0x[0-9a-f]+>", "<Measurement>", text)


def test_statistics_and_printout_match_torch():
    for ours, theirs in zip(_measurements(tb), _measurements(ptb), strict=True):
        for name in ("median", "mean", "iqr"):
            np.testing.assert_allclose(getattr(ours, name), getattr(theirs, name),
                                       rtol=1e-12)
        assert ours.times == theirs.times
        assert ours.significant_figures == theirs.significant_figures
        assert ours.has_warnings == theirs.has_warnings
        assert ours.meets_confidence(0.2) == theirs.meets_confidence(0.2)
        assert (ours.title, ours.as_row_name, ours.stmt, ours.num_threads) == \
            (theirs.title, theirs.as_row_name, theirs.stmt, theirs.num_threads)
        assert _scrub(repr(ours)) == _scrub(repr(theirs))


@pytest.mark.parametrize("setting", ["plain", "trim", "colour", "colour_rows", "warnings",
                                     "all"])
def test_compare_prints_torchs_tables(setting, capsys):
    tables = []
    for lib in (tb, ptb):
        c = lib.Compare(_measurements(lib)[:4])
        c.extend_results(_measurements(lib)[4:-1])  # (torch's Compare needs descriptions)
        if setting in ("trim", "all"):
            c.trim_significant_figures()
        if setting in ("colour", "all"):
            c.colorize()
        if setting == "colour_rows":
            c.colorize(rowwise=True)
        if setting in ("warnings", "all"):
            c.highlight_warnings()
        c.print()
        tables.append(capsys.readouterr().out)
    assert tables[0] == tables[1]
    assert "Times are in" in tables[0] and "[" in tables[0]


def test_merge_joins_replicates_as_torchs():
    ours = tb.Measurement.merge(_measurements(tb)[:2] + _measurements(tb)[:1])
    theirs = ptb.Measurement.merge(_measurements(ptb)[:2] + _measurements(ptb)[:1])
    assert [m.times for m in ours] == [m.times for m in theirs]
    assert [m.number_per_run for m in ours] == [1, 1]


def test_compare_refuses_what_is_not_a_measurement():
    with pytest.raises(ValueError, match="Expected an instance of `Measurement`"):
        tb.Compare([1.0])


def test_timer_recipe_runs():
    """The PyTorch benchmark recipe's calls: results grouped and printed."""
    x = np.ones((8, 8))
    results = []
    for threads in (1, 2):
        for desc, stmt in (("matmul", "x @ x"), ("sum", "x.sum()")):
            t = tb.Timer(stmt=stmt, globals={"x": x}, label="ops", sub_label="8x8",
                         description=desc, num_threads=threads)
            results.append(t.blocked_autorange(min_run_time=0.01))
    m = tb.Timer("x.sum()", globals={"x": x}).adaptive_autorange(min_run_time=0.01,
                                                                   max_run_time=0.2)
    assert len(m.times) >= 1 and m.median > 0
    text = str(tb.Compare(results))
    assert text.count("threads: ") == 2 and "matmul" in text and "8x8" in text
    with pytest.raises(NotImplementedError):
        tb.Timer("pass").repeat()
    with pytest.raises(ValueError, match="str"):
        tb.Timer(lambda: None)
