"""Anomaly detection: the first NaN in the backward names the function, its output and the
user line that recorded it, as PyTorch's detect_anomaly does; with the mode off nothing
is noted while recording and the sweep is one compiled call."""
import inspect
import re
import threading
import warnings

import numpy as np
import pytest

import tapegrad as tg
import tapegrad._kernels
from tapegrad.autograd import anomaly as anomaly_mod
from tapegrad.tape import frame_lines

pytestmark = pytest.mark.usefixtures("collect_cycles")

HERE = __file__


@pytest.fixture(autouse=True)
def _anomaly_off():
    yield
    tg.autograd.set_detect_anomaly(False)


def fresh_tape(fn):
    """Run ``fn`` in a new thread: it records on a tape of its own (tapes are per thread),
    so row numbers start at 0 whatever earlier tests left alive."""
    out = []

    def run():
        try:
            fn()
        except BaseException as e:  # noqa: BLE001 (re-raised in the caller)
            out.append(e)
    t = threading.Thread(target=run)
    t.start()
    t.join()
    if out:
        raise out[0]


def _line(marker):
    """The line of this file holding ``marker`` (a comment at the end of a line)."""
    src = inspect.getsource(inspect.getmodule(_line)).splitlines()
    hits = [i + 1 for i, text in enumerate(src) if text.rstrip().endswith(marker)]
    assert len(hits) == 1, marker
    return hits[0]


# -- programs run with L = tapegrad and L = torch -----------------------------------------

def entropy(L):
    """log(0) feeds a multiplication: 0 * log(0) has gradient log(0) + 1 = -inf for the
    first factor, and LogBackward0 gets 0 / 0 = nan for the second."""
    p = L.tensor([0.0, 0.5], requires_grad=True)
    with L.autograd.detect_anomaly():
        lp = L.log(p)  # <- entropy: log
        h = p * lp  # <- entropy: mul
        h.sum().backward()


def inf_times_zero(L):
    """log(0) = -inf feeds a multiplication by 0: MulBackward0 returns inf * 0 = nan."""
    x = L.tensor(0.0, requires_grad=True)
    with L.autograd.detect_anomaly():
        y = L.log(x)  # <- inf_times_zero: log
        z = y * 0.0  # <- inf_times_zero: mul
        (z * L.tensor(float("inf"))).backward()


def nan_seed(L):
    x = L.tensor([1.0, 2.0], requires_grad=True)
    with L.autograd.detect_anomaly():
        y = x * 2  # <- nan_seed: mul
        y.backward(L.tensor([1.0, float("nan")]))


def second_input(L):
    """nan in the 1st output (the gradient of the second operand)."""
    a = L.tensor(float("inf"), requires_grad=True)
    b = L.tensor(2.0, requires_grad=True)
    with L.autograd.detect_anomaly():
        c = a.exp()  # inf
        d = c * b  # <- second_input: mul
        (d * 0.0).backward()


def _helper(L, x):
    return L.sqrt(x) * L.log(x)  # <- helper: in a function


def in_a_function(L):
    x = L.tensor([0.0, 4.0], requires_grad=True)
    with L.autograd.detect_anomaly():
        _helper(L, x).sum().backward()  # <- in_a_function: call


def _run(L, program):
    """(error message, recording line in this file, warnings) of one program."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError) as err:
            program(L)
    detected = [str(x.message) for x in w if "Error detected in" in str(x.message)]
    assert len(detected) == 1, [str(x.message) for x in w]
    lines = [int(n) for n in re.findall(r'File "' + re.escape(HERE) + r'", line (\d+)',
                                        detected[0])]
    msg = str(err.value)
    del err  # no frame -> traceback -> frame cycle keeping the program's tensors
    return msg, lines[-1], detected[0]


CASES = {
    entropy: ("LogBackward0", 0, "entropy: log"),
    inf_times_zero: ("MulBackward0", 0, "inf_times_zero: mul"),
    nan_seed: ("MulBackward0", 0, "nan_seed: mul"),
    second_input: ("MulBackward0", 1, "second_input: mul"),
    in_a_function: ("LogBackward0", 0, "helper: in a function"),
}


@pytest.mark.parametrize("program", list(CASES), ids=[p.__name__ for p in CASES])
def test_anomaly_names_function_output_and_line(program):
    name, i, marker = CASES[program]
    msg, line, warning = _run(tg, program)
    first = msg.splitlines()[0]
    assert first == f"Function '{name}' returned nan values in its {i}th output."
    assert line == _line("# <- " + marker)
    assert f"{HERE}:{line}" in msg  # the error itself names the user line
    assert warning.startswith(f"Error detected in {name}. Traceback of forward call that "
                              "caused the error:")


@pytest.mark.oracle
@pytest.mark.parametrize("program", list(CASES), ids=[p.__name__ for p in CASES])
def test_anomaly_matches_torch(program):
    torch = pytest.importorskip("torch")
    torch.set_default_dtype(torch.float64)
    try:
        theirs = _run(torch, program)
    finally:
        torch.set_default_dtype(torch.float32)
    mine = _run(tg, program)
    assert mine[0].splitlines()[0] == theirs[0]
    assert mine[1] == theirs[1]


def test_log0_times_x_points_at_the_log_line():
    """The must-show case: log(0) feeding a multiplication, the error at the right line."""
    msg, line, _ = _run(tg, entropy)
    assert line == _line("# <- entropy: log")
    assert msg.endswith("lp = L.log(p)  # <- entropy: log")


def test_inf_gradient_is_not_an_anomaly():
    x = tg.tensor(0.0, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with tg.autograd.detect_anomaly():
            tg.sqrt(x).backward()  # d sqrt(x) / dx = inf at 0: PyTorch raises nothing
    assert float(x.grad) == np.inf


def test_check_nan_false_records_but_does_not_check(monkeypatch):
    x = tg.tensor(0.0, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with tg.autograd.detect_anomaly(check_nan=False):
            assert tg.autograd.is_anomaly_enabled()
            assert not tg.autograd.is_anomaly_check_nan_enabled()
            y = tg.log(x) * x
            y.backward()
    assert np.isnan(float(x.grad))


def test_modes_and_nesting():
    assert not tg.autograd.is_anomaly_enabled()
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
        ctx = tg.autograd.detect_anomaly()
    with ctx:
        assert tg.autograd.is_anomaly_enabled()
        with tg.autograd.set_detect_anomaly(False):
            assert not tg.autograd.is_anomaly_enabled()
        assert tg.autograd.is_anomaly_enabled()
    assert not tg.autograd.is_anomaly_enabled()
    tg.autograd.set_detect_anomaly(True)
    assert tg.autograd.is_anomaly_enabled() and tg.autograd.is_anomaly_check_nan_enabled()
    seen = []
    t = threading.Thread(target=lambda: seen.append(tg.autograd.is_anomaly_enabled()))
    t.start()
    t.join()
    assert seen == [True]  # process-wide, as in PyTorch
    tg.autograd.set_detect_anomaly(False)
    assert not tg.autograd.is_anomaly_enabled()


def test_recorded_before_the_mode_says_so():
    x = tg.tensor(0.0, requires_grad=True)
    y = tg.log(x) * x  # recorded with the mode off: no site
    tg.autograd.set_detect_anomaly(True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError, match="LogBackward0' returned nan values") as err:
            y.backward()
    assert "No forward pass information" in str(err.value)
    assert any("No forward pass information available" in str(x.message) for x in w)


def test_mode_off_notes_nothing_and_sweeps_once(monkeypatch):
    fresh_tape(lambda: _mode_off_notes_nothing(monkeypatch))


def _mode_off_notes_nothing(monkeypatch):
    calls = []
    kernel = tapegrad._kernels._reverse_sweep
    monkeypatch.setattr(tapegrad._kernels, "_reverse_sweep",
                        lambda *a: calls.append(a[-3:-1]) or kernel(*a))
    x = tg.tensor(0.5, requires_grad=True)
    y = x
    for _ in range(20):
        y = y.sin() * 1.5
    tape = y._tok.tape
    assert type(tape.rbuf) is list and tape.sites == {}
    y.backward()
    assert len(calls) == 1
    # anomaly mode: one compiled call per reached row, and every row's site is noted
    tg.autograd.set_detect_anomaly(True)
    x = tg.tensor(0.5, requires_grad=True)
    y = x
    for _ in range(20):
        y = y.sin() * 1.5
    tape = y._tok.tape
    assert len(tape.sites) == tape.nrows == 40
    calls.clear()
    y.backward()
    assert len(calls) == 40 and all(hi - lo == 1 for lo, hi in calls)


def test_turning_the_mode_off_restores_the_plain_row_list():
    fresh_tape(_mode_off_restores)


def _mode_off_restores():
    x = tg.tensor(0.5, requires_grad=True)
    keep = x * 2
    tape = keep._tok.tape
    tg.autograd.set_detect_anomaly(True)
    y = keep * 3
    assert type(tape.rbuf) is not list
    tg.autograd.set_detect_anomaly(False)
    assert type(tape.rbuf) is list
    z = y * 4
    assert sorted(tape.sites) == [1]  # only the row recorded while the mode was on
    z.backward()
    assert float(x.grad) == 24.0


def test_anomaly_with_hooks_and_composites():
    """Checked stretches between hook stops; ops inside tapegrad's composites (softmax)
    are blamed on the user line that called them."""
    x = tg.tensor([0.0, 1.0, 2.0], requires_grad=True)
    seen = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with tg.autograd.detect_anomaly():
            s = tg.softmax(x, dim=0)  # <- composite
            s.register_hook(lambda g: seen.append(1) or g * float("nan"))
            with pytest.raises(RuntimeError) as err:
                (s * 2).sum().backward()
    assert seen == [1]
    assert f"{HERE}:{_line('# <- composite')}" in str(err.value)


def test_sites_name_user_frames_only():
    tg.autograd.set_detect_anomaly(True)
    x = tg.tensor(1.0, requires_grad=True)
    y = x * 2  # <- sites
    tape = y._tok.tape
    frames = frame_lines(tape.sites[int(tg.autograd.graph.views(tape).row_of[y._slot])])
    assert frames[0][:2] == (HERE, _line("# <- sites"))
    assert not any(f[0].startswith(anomaly_mod._PKG) for f in frames)
