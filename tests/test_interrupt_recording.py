"""Ctrl-C while recording never corrupts the tape (issue 18).

``tests/interrupt_inject.py`` raises a KeyboardInterrupt at the n-th line tapegrad executes
(``sys.settrace``) while a program records (scalar fast paths, constants, broadcasting,
shapes, a LINK to an older tape, a custom Function, an in-place op, a flush every 8 slots)
and runs its backward, for every n in the core recording files and every 10th elsewhere
(and a second program: create_graph, hooks, retain_grad; every third line of both when
``slow``, from a first line drawn per run, and interrupts after calls and by a timer); after
each, every tape it touched must pass the invariant checker, grad mode must be on, and a
fresh run on the same tape must give the reference gradient exactly, or refuse with the
clear "left inconsistent ... the tape is reset" error and then give it.

The injection runs in a subprocess with a hard timeout: a hang (a lock left held, a loop
that never ends) fails the test instead of stalling CI.  An earlier sweep stalled after
about 1,725 points: the tracer reports a ``with`` line a second time when the block exits,
*before* ``__exit__`` is called and outside the block's exception handler, so raising
there left ``engine._ACCUMULATE`` held and the next backward waited for it for ever.  No
real signal can land there (CPython runs signal handlers at function entry, after calls
and at backward jumps), so the injector skips that event (``Inject``, ``--unrealistic``
to see the hang).
"""
import json
import os
import random
import subprocess
import sys

import numba
import pytest

import tapegrad as tg
from tapegrad import _jit
from tapegrad.tape import Token, current_tape

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(tg.__file__)))
needs_cache = pytest.mark.skipif(
    not numba.config.DISABLE_JIT and not _jit.CACHE,
    reason="the subprocess must load the warm sweep kernels (or run without JIT)")


# ---- the pieces, in process --------------------------------------------------------------

def _chain(x):
    y = x
    for _ in range(20):
        y = y * 1.5 + y.sin() * x
    return y


def _grad_of_chain():
    x = tg.tensor(0.3, requires_grad=True)
    _chain(x).backward()
    return x.grad.item()


class _ClearRaisesOnce(list):
    """A pending-rows list whose first clear() raises: a KeyboardInterrupt in Tape.flush
    between moving the rows and clearing the list (where rows used to be appended twice)."""

    armed = True

    def clear(self):
        if self.armed:
            self.armed = False
            raise KeyboardInterrupt
        list.clear(self)


def test_a_flush_cut_off_after_moving_the_rows_takes_them_back():
    want = _grad_of_chain()
    x = tg.tensor(0.3, requires_grad=True)
    y = _chain(x)
    tape = current_tape()
    tape.rbuf = _ClearRaisesOnce(tape.rbuf)
    rows = tape.nrows
    with pytest.raises(KeyboardInterrupt):
        tape.flush()
    assert tape.nrows == rows  # not appended twice
    y.backward()
    assert x.grad.item() == want


def test_an_op_cut_off_half_way_is_refused_and_the_thread_goes_on():
    want = _grad_of_chain()
    x = tg.tensor(0.3, requires_grad=True)
    kept = _chain(x)  # alive: the tape cannot reset under what follows
    tape = current_tape()
    tape.obuf.append(tape.nvals)  # a push cut off after its first step (push_scalar)
    y = _chain(x)  # recorded on the inconsistent tape
    with pytest.raises(RuntimeError, match="left inconsistent .* The tape is reset"):
        y.backward()
    assert current_tape() is not tape  # the thread records on a fresh tape
    with pytest.raises(RuntimeError, match="left inconsistent"):
        kept.backward()  # the old tape stays refused
    x.grad = None
    assert _grad_of_chain() == want
    x2 = tg.tensor(0.3, requires_grad=True)
    _chain(x2).backward()
    assert x2.grad.item() == want


def test_only_the_registered_token_resets_the_tape():
    x = tg.tensor(0.3, requires_grad=True)
    y = x * 2.0
    tape = y._tok.tape
    gen, slots = tape.gen, tape.nslots
    stray = Token(tape)  # as made by a begin() cut off before registering it
    del stray
    assert (tape.gen, tape.nslots) == (gen, slots)
    half = Token.__new__(Token)  # an __init__ cut off before any attribute
    seen = []
    old_hook, sys.unraisablehook = sys.unraisablehook, seen.append
    try:
        del half
    finally:
        sys.unraisablehook = old_hook
    assert not seen  # (used to warn: AttributeError in Token.__del__)
    y.backward()
    assert x.grad.item() == 2.0


# ---- the injection, in a subprocess ------------------------------------------------------

def run(args, timeout):
    env = dict(os.environ, PYTHONPATH=ROOT, TAPEGRAD_BACKGROUND="0")
    try:
        out = subprocess.run([sys.executable, os.path.join(HERE, "interrupt_inject.py"),
                              *args], env=env, capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"interrupt injection hung ({timeout} s):\n{(e.stderr or '')[-3000:]}")
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def check(res, capsys, what, every_point_raises=True):
    with capsys.disabled():
        print(f"\n{what}: {res['tried']} interrupt points of {res['lines']} lines "
              f"({res['recording_lines']} recording), {res['raised']} raised: inconsistent "
              f"{res['inconsistent']}, wrong gradients {res['wrong']}, refused then right "
              f"{res['refused']}, {res['seconds']} s")
    if every_point_raises:  # (every point is reached: one program, run the same way;
        # CI on a cache still being filled saw 2 of 2,979 points not reached)
        assert res["raised"] >= res["tried"] - 3, res
    assert res["inconsistent"] == 0, res["failures"]
    assert res["wrong"] == 0, res["failures"]


@pytest.fixture(scope="module")
def warm_kernels():
    """Compile (once) or load the sweep kernels here, in-process, so that the cache holds
    them before the subprocess counts its lines: a kernel the subprocess had to compile
    itself (while a background compile is still filling the cache) would add one-time
    lines to the counting run only."""
    tg.warmup(replay=False)


@needs_cache
def test_interrupt_at_every_line_of_the_recording(capsys, warm_kernels):
    # every line the core recording path runs (tape.py, arena.py, ops/_pointwise.py,
    # ops/_record.py), every 10th elsewhere (ops, the backward): ~1,800 points, ~30 s
    res = run(["--core", "--stride", "10"], timeout=300)
    assert res["lines"] > 2000 and res["core_points"] > 1000, res
    # (a few points short is allowed: on a cache still being filled, CI saw 3 of ~1,800
    # points fewer, lines a first run passes once)
    assert res["core_points"] + (res["lines"] - res["core_points"]) // 10 - 5 <= res["tried"]
    check(res, capsys, "recording interrupts")


@needs_cache
def test_interrupt_in_create_graph_and_hooks(capsys, warm_kernels):
    # create_graph's recorded adjoints, hooks, retain_grad: every 40th line, ~6 s
    res = run(["--program", "higher", "--stride", "40", "--all-strided"], timeout=240)
    assert res["lines"] > 2000, res
    check(res, capsys, "create_graph interrupts")


# The every-line runs take every STRIDE-th point from a first point drawn per run (printed;
# TAPEGRAD_INTERRUPT_FIRST repeats a run): a third of the points at a third of the time
# (~125 s of one CI core at every point), every point covered over a few runs.
# TAPEGRAD_INTERRUPT_STRIDE=1 runs them all.
STRIDE = int(os.environ.get("TAPEGRAD_INTERRUPT_STRIDE", "3"))
FIRST = int(os.environ.get("TAPEGRAD_INTERRUPT_FIRST", "0")) or random.randint(1, STRIDE)


def strided(args):
    return [*args, "--stride", str(STRIDE), "--first", str(FIRST), "--all-strided"]


@pytest.mark.slow
@needs_cache
@pytest.mark.parametrize("program", ["record", "higher"])
def test_interrupt_at_every_line_of_recording_and_backward(capsys, warm_kernels, program):
    res = run(strided(["--program", program]), timeout=1200)
    assert res["tried"] == len(range(FIRST, res["lines"] + 1, STRIDE))
    check(res, capsys, f"{program}: recording and backward interrupts, every {STRIDE}th "
                       f"line from line {FIRST}")


@pytest.mark.slow
@needs_cache
def test_interrupt_after_every_call(capsys, warm_kernels):
    # a real Ctrl-C lands after a call returns, also in the middle of a line
    res = run(strided(["--after-calls"]), timeout=1200)
    assert res["tried"] == len(range(FIRST, res["lines"] + 1, STRIDE))
    check(res, capsys, f"interrupts after every {STRIDE}th call from call {FIRST}")


@pytest.mark.slow
@needs_cache
def test_interrupt_by_timer(capsys, warm_kernels):
    # SIGALRM at random moments (a real signal handler raising KeyboardInterrupt)
    res = run(["--timer", "300"], timeout=600)
    assert res["raised"] > 50, res  # (the others fired after the program had ended)
    check(res, capsys, "timer interrupts", every_point_raises=False)
