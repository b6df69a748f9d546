"""The eager elementwise paths compute inside a per-thread NumPy context that ignores
floating-point errors (_fp.quiet_context): no warnings, the caller's error state kept, and
an op run while that context is already entered (a finalizer inside a ufunc) still works."""
import threading
import warnings

import numpy as np

import tapegrad as tg
from tapegrad._state import state


def _ops():
    x = tg.tensor([0.0, 1.0, -1.0, 1e308], requires_grad=True)
    # overflow, 0/0, log(0): IEEE values and no warnings, in the recording (the ops' paths)
    return (x * x + (x / x).sin()).log()


def test_fp_errors_are_silent_and_the_callers_state_is_kept():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            _ops()
            assert np.geterr()["over"] == "raise"


def test_each_thread_has_its_own_quiet_context():
    errors = []

    def run():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                _ops()
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(e)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_an_op_inside_the_entered_context_falls_back():
    a = tg.tensor([1.0, 2.0], requires_grad=True)
    y = state.quiet.run(lambda: (a * a).sin())
    np.testing.assert_allclose(y.detach().numpy(), np.sin([1.0, 4.0]))
