"""Ctrl-C during batch replay (issue 18): a KeyboardInterrupt reaches the caller, and the
next batch replay works and is right, wherever the interrupt lands in the hand-off to the
helper threads.  Each check runs in a subprocess with a timeout, so a hang (a helper
waited for forever) fails the test instead of stalling CI.

- ``test_interrupt_at_every_line_of_the_hand_off``: ``sys.settrace`` raises a
  KeyboardInterrupt at the k-th line executed in the calling thread by the hand-off code
  (``_run_blocks``, its ``work``, ``_claim``, ``_release``, ``_Helper.start`` and
  ``_Helper.wait``), for every k of one call, then replays again;
- ``test_interrupt_main_during_a_long_batch``: ``_thread.interrupt_main()`` from a timer
  thread, 0.05-0.4 s into a ~1.5 s batch.
"""
import json
import os
import subprocess
import sys
import textwrap

import numba
import numpy as np
import pytest

import tapegrad as tg
from tapegrad import _jit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(tg.__file__)))
pytestmark = pytest.mark.skipif(
    numba.config.DISABLE_JIT or not _jit.CACHE,
    reason="the subprocess must load the warm replay kernel (JIT and caching on)")

COMMON = """
import json, signal, sys, threading, time, _thread
# Python's own SIGINT handler even where this process started with SIGINT ignored (a child
# of a background job inherits SIG_IGN, and interrupt_main() then does nothing)
signal.signal(signal.SIGINT, signal.default_int_handler)
import numpy as np
import tapegrad as tg
from tapegrad import replay

replay._CORES = 3  # two helpers, on any machine (the hand-off is what is tested)
replay.fused.set_enabled(False)  # (so no fused kernel takes the calls over: replay/fused.py)


def f(x):
    y = x
    for _ in range(6):
        y = (y * 0.9).sin() + x
    return (y * y).sum()


c = tg.compile(f)
X = np.random.default_rng(1).uniform(-2, 2, ({B}, 4))
V0, G0 = c.value_and_grad_batch(X)
"""

EVERY_LINE = COMMON + """
import dis
HAND_OFF = {"_run_blocks", "work", "_claim", "_release", "start", "wait"}
FILE = replay.__file__


SOURCE = open(FILE).read().splitlines()
ENTRY = {"LOAD_FAST", "LOAD_GLOBAL", "LOAD_DEREF", "LOAD_NAME"}


def reachable(frame):
    # whether a real Ctrl-C can land here: a trace function also sees a `with` line when
    # the block exits, just before __exit__ runs, outside the block's exception handler;
    # CPython runs signal handlers only after calls and backward jumps, never in that gap,
    # so an interrupt there is skipped (it would leave the lock held)
    if not SOURCE[frame.f_lineno - 1].lstrip().startswith("with "):
        return True
    return dis.opname[frame.f_code.co_code[frame.f_lasti]] in ENTRY


class Inject:
    def __init__(self, at):
        self.at, self.n = at, 0

    def __call__(self, frame, event, arg):
        if frame.f_code.co_filename != FILE or frame.f_code.co_name not in HAND_OFF:
            return None
        if event == "line" and reachable(frame):
            self.n += 1
            if self.n == self.at:
                raise KeyboardInterrupt
        return self


def once(at):
    inject = Inject(at)
    sys.settrace(inject)
    try:
        c.value_and_grad_batch(X)
        hit = False
    except KeyboardInterrupt:
        hit = True
    finally:
        sys.settrace(None)
    return hit, inject.n


_, lines = once(0)  # how many lines one call executes in the hand-off
interrupted = injected = wrong = 0
for at in range(1, lines + 1):
    hit, n = once(at)
    injected += n >= at  # (a call's line count varies: chunks race, waits poll)
    interrupted += hit
    V, G = c.value_and_grad_batch(X)  # the next call works and is right
    wrong += not (np.array_equal(V, V0) and np.array_equal(G, G0))
helpers = len(replay._POOL[1])
print(json.dumps({"lines": lines, "injected": injected, "interrupted": interrupted,
                  "wrong": wrong, "helpers": helpers}))
"""

TIMER = COMMON + """
small = X
t0 = time.perf_counter()
c.value_and_grad_batch(small)
per_point = (time.perf_counter() - t0) / len(small)
big = np.concatenate([small] * max(1, int(1.5 / per_point / len(small))))
Vb, Gb = c.value_and_grad_batch(big)
out = {"points": len(big), "raised": 0, "finished": 0, "wrong": 0}
for delay in (0.05, 0.1, 0.2, 0.4):
    timer = threading.Timer(delay, _thread.interrupt_main)
    try:
        timer.start()
        c.value_and_grad_batch(big)
        time.sleep(5)  # reached only if the batch ended before the interrupt
        out["finished"] += 1
    except KeyboardInterrupt:
        out["raised"] += 1
    timer.join()
    V, G = c.value_and_grad_batch(big)
    out["wrong"] += not (np.array_equal(V, Vb) and np.array_equal(G, Gb))
print(json.dumps(out))
"""


def run(code, timeout):
    env = dict(os.environ, PYTHONPATH=ROOT)
    try:
        out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                             capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"batch replay hung after an interrupt ({timeout} s):\n{e.stderr}")
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module", autouse=True)
def warm_kernel():
    """Load (or compile, once) the batch-replay kernel here, so the subprocesses load it
    from the cache instead of each compiling it."""
    tg.trace(lambda x: (x * x).sum(), [1.0]).grad_batch(np.ones((2, 1)))


def test_interrupt_at_every_line_of_the_hand_off(capsys):
    # 40000 points x 4 inputs: above SERIAL_VALUES, so the helpers take part
    res = run(EVERY_LINE.replace("{B}", "40000"), timeout=240)
    assert res["helpers"] == 2
    assert res["lines"] > 30  # the hand-off ran, with its helpers
    # every injected interrupt reached the caller (a call that ran fewer lines than the
    # injection point had none), none hung (the timeout), and every next call was right
    assert res["injected"] >= 0.8 * res["lines"]
    assert res["interrupted"] == res["injected"]
    assert res["wrong"] == 0
    with capsys.disabled():
        print(f"\nreplay interrupts: {res['lines']} lines of the hand-off, {res['injected']} "
              f"interrupts injected: {res['interrupted']} raised KeyboardInterrupt, hangs 0, "
              f"wrong next results {res['wrong']}")


@pytest.mark.slow
def test_interrupt_main_during_a_long_batch(capsys):
    res = run(TIMER.replace("{B}", "20000"), timeout=300)
    assert res["raised"] + res["finished"] == 4 and res["raised"] >= 1
    assert res["wrong"] == 0
    with capsys.disabled():
        print(f"\nreplay interrupts: interrupt_main() into a {res['points']}-point batch: "
              f"{res['raised']} of 4 raised, wrong next results {res['wrong']}")
