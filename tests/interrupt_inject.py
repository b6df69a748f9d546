"""Interrupt injection into tapegrad's recording and backward paths (issue 18).

Run as a script (``tests/test_interrupt_recording.py`` runs it in a subprocess with a hard
timeout, so a hang fails the test instead of stalling CI)::

    python tests/interrupt_inject.py [--stride K] [--first N] [--limit N]

For the n-th line event that ``sys.settrace`` reports in tapegrad's files while
``program`` runs (its recording, flushes, LINK rows, a custom Function, an in-place op, a
backward), a KeyboardInterrupt is raised there, and then:

- every tape the run touched passes ``check_tape`` (counts against buffers, pending lists,
  every live tensor's slot and generation; see there), both while the traceback (and the
  half-made tensors in its frames) is alive and after it died;
- grad mode is on and nothing is left tracing;
- a fresh run of ``program`` on the same thread gives the reference gradient exactly, or
  refuses with tapegrad's "tape ... left inconsistent" error and then, run again, gives it.

Prints one JSON line: points tried, interrupts raised, inconsistent tapes, wrong gradients,
refusals, and the first few failures.
"""
import argparse
import dis
import gc
import json
import linecache
import os
import random
import signal
import sys
import time

import numpy as np

import tapegrad as tg
from tapegrad import _blas, _jit, arena
from tapegrad import tape as tape_module
from tapegrad._state import state
from tapegrad.tape import FREED, OP_MASK
from tapegrad.tensor import Tensor

# the code of the functions tapegrad compiles with Numba: under NUMBA_DISABLE_JIT those
# functions run as Python, but in use they are compiled (no signal lands inside), so no
# interrupt is injected in them, and the sweep's lines do not swamp the count
_COMPILED = _jit.KERNEL_CODE

PKG = os.path.dirname(os.path.abspath(tg.__file__)) + os.sep
SMALL_FLUSH = 7  # flush every 8 slots, so the program runs through Tape.flush many times


class _Twice(tg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


def setup():
    """Leaves, a non-leaf of a retired tape (``old``: the program links to it) and a live
    non-leaf of the current tape (``keep``: its generation cannot reset under the program)."""
    # the BLAS pool's thread count is process state beside the tape: an interrupt inside
    # _blas.hold/release can leave it held (documented there), and a held pool takes the
    # sweep's lock-free path, fewer lines than the counting run's
    _blas.reset()
    x = tg.tensor(0.7, requires_grad=True)
    w = tg.tensor([0.5, -1.0, 2.0], requires_grad=True)
    c = tg.tensor(-0.3, requires_grad=True)  # (a 0-d leaf first used after arrays: push_float)
    old = (x * 3.0).sin()
    (x * 2.0).backward()  # retires old's tape: the program records on a fresh one
    x.grad = None
    keep = (x * 3.0).sin()  # (old's value, recorded anew)
    return {"x": x, "w": w, "c": c, "old": old, "keep": keep}


def program(env, other="old"):
    """The recording and backward paths: scalar fast paths (Python floats), constants,
    vector ops with broadcasting, shapes (meta), a reduction, a LINK to ``old``, a custom
    Function, an in-place op, many flushes (SMALL_FLUSH), and a backward.  ``other``:
    the non-leaf it adds in (``keep``: a fresh run on the interrupted run's tape)."""
    x, w, old = env["x"], env["w"], env[other]
    y = x
    for _ in range(3):
        y = y * 1.5 + y.sin() * x
    y = y + old  # a non-leaf of a retired tape: a LINK row
    v = (w * y).tanh() * env["c"]  # vector by scalar: broadcast; a 0-d leaf's first use
    m = v.reshape(3, 1) * w.reshape(1, 3)
    u = v * 1.0
    u.add_(w)
    s = m.sum() + (u * u).mean() + _Twice.apply(y) - (w.exp() + 1.0).log().sum()
    marks = env.get("marks")
    if marks is not None:  # (where the backward starts, in the injector's line count)
        marks.append(marks[0].n)
    s.backward()
    return float(x.grad), np.asarray(w.grad).copy()


def program_higher(env, other="old"):
    """create_graph (the adjoints recorded as rows), a hook on a non-leaf, retain_grad, and
    a backward through the recorded gradient."""
    x, w, old = env["x"], env["w"], env[other]
    h = (w * x).tanh()
    h.register_hook(lambda g: g * 1.0)
    y = x * 1.5 + old
    y.retain_grad()
    g, = tg.autograd.grad((h * w).sum() + y, [w], create_graph=True)
    s = (g * g).sum() + h.sum() * y
    marks = env.get("marks")
    if marks is not None:
        marks.append(marks[0].n)
    s.backward()
    return float(x.grad), np.asarray(w.grad).copy()


PROGRAMS = {"record": program, "higher": program_higher}


# ---- the invariant checker -------------------------------------------------------------

def _pending_offsets(tape):
    """The pending slots' offsets: ``obuf``'s, then the pending scalars' (implied: the last
    slots, at consecutive arena positions up to nvals)."""
    return list(tape.obuf) + list(range(tape.nvals - len(tape.vbuf), tape.nvals))


def _slot_value(tape, s):
    """Slot ``s``'s values, read without changing the tape (pending lists included)."""
    nc = len(tape.offs) - 1 if len(tape.offs) else 0
    obuf = _pending_offsets(tape)
    if s < nc:
        lo = tape.offs[s]
        hi = tape.offs[s + 1] if s + 1 < nc else (obuf[0] if obuf else tape.nvals)
    else:
        lo = obuf[s - nc]
        hi = obuf[s - nc + 1] if s - nc + 1 < len(obuf) else tape.nvals
    if tape.lazy and s in tape.lazy:
        return None  # kept aside (not copied in): nothing to compare
    vstart = tape.nvals - len(tape.vbuf)
    if lo >= vstart:
        return np.array(tape.vbuf[lo - vstart:hi - vstart], np.float64)
    astart = tape.alo if tape.abuf else vstart
    if tape.abuf and lo >= astart:
        flat = np.concatenate([np.ravel(a) for a in tape.abuf]).astype(np.float64)
        return flat[lo - astart:hi - astart]
    return np.frombuffer(tape.vals, arena._DTYPE[tape.vals.typecode], hi - lo,
                         lo * tape.vals.itemsize).astype(np.float64)


def check_tape(tape, tensors=()):  # (REFUSABLE: below)
    """Problems of ``tape`` (a list of strings, empty when consistent): its counts against
    its buffers and pending lists, its rows' slots, its leaves, its token, and the slot and
    generation of each tensor of ``tensors`` that refers to it."""
    bad = []
    if getattr(tape, "broken", None):
        return bad  # refused until it resets: nothing reads it (checked by the fresh run)
    offs, obuf = tape.offs, _pending_offsets(tape)
    nc = len(offs) - 1 if len(offs) else 0
    if nc + len(obuf) != tape.nslots:
        # an op cut off between its first push and its commit: Tape.flush refuses the
        # tape from now on (the fresh run must be refused)
        return [REFUSABLE]
    allo = list(offs[:nc]) + list(obuf)
    if any(b < a for a, b in zip(allo, allo[1:])) or (allo and allo[-1] > tape.nvals):
        bad.append("slot offsets not increasing / beyond nvals")
    if tape.vbuf:
        k = len(tape.vbuf)
        if len(obuf) < k or list(obuf[-k:]) != list(range(tape.nvals - k, tape.nvals)):
            bad.append(f"{k} pending scalars do not end the pending slots at nvals")
    if tape.abuf:
        end = tape.nvals - len(tape.vbuf)
        if tape.alo + sum(a.size for a in tape.abuf) != end:
            bad.append("pending arrays do not fill alo .. the pending scalars")
    if tape.vals.typecode not in "df" or len(tape.vals) < tape.nvals - len(tape.vbuf) - (
            sum(a.size for a in tape.abuf) if tape.abuf else 0):
        bad.append("value arena shorter than the flushed values")
    if len(tape.rows) % 5 or len(tape.rbuf) % 5:
        bad.append("rows not a multiple of 5 ints")
        return bad
    rows = np.array(list(tape.rows) + list(tape.rbuf), np.int64).reshape(-1, 5)
    ops = rows[:, 0] & OP_MASK
    outs = rows[:, 1]
    if len(rows) and (outs.max() >= tape.nslots or rows[:, 2].max() >= tape.nslots
                      or rows[:, 3].max() >= tape.nslots):
        bad.append("a row refers to a slot beyond nslots")
    written = outs[(outs >= 0)]
    if len(np.unique(written)) != len(written):
        bad.append("two rows write one slot (a row recorded twice?)")
    links = rows[ops == 31]
    if len(links) and links[:, 4].max() >= len(tape.links):
        bad.append("a LINK row beyond tape.links")
    nfreed = int(np.count_nonzero(rows[:, 0] & FREED))
    if nfreed != tape.nfreed:
        bad.append(f"nfreed {tape.nfreed} != {nfreed} freed rows")
    # (leaf_slots one behind leaves: adopt was cut off between the two; flush rebuilds it)
    if len(tape.leaf_slots) == len(tape.leaves) and list(tape.leaf_slots) != [
            s for s, _ in tape.leaves]:
        bad.append("leaf_slots differ from leaves")
    if any(s >= tape.nslots for s, _ in tape.leaves):
        bad.append("a leaf slot beyond nslots")
    if tape.lazy and any(s >= tape.nslots for s in tape.lazy):
        bad.append("a kept-aside value beyond nslots")
    tok = tape._token() if tape._token is not None else None
    if tok is not None and tok.gen != tape.gen:
        bad.append("the tape's token is of another generation")
    if tape.span_done > len(rows):
        bad.append("span_done beyond the rows")
    for t in tensors:
        if t._tok is not None and t._tok.tape is tape and t._tok.gen == tape.gen:
            if t._gen != tape.gen:
                bad.append("a non-leaf holds this generation's token but another _gen")
            elif not 0 <= t._slot < tape.nslots:
                bad.append(f"a live non-leaf's slot {t._slot} beyond nslots {tape.nslots}")
            else:
                try:
                    got = _slot_value(tape, t._slot)
                except Exception as e:
                    bad.append(f"a live non-leaf's slot {t._slot} unreadable: {e}")
                    continue
                if got is not None and not np.array_equal(got, np.ravel(t._data)):
                    bad.append(f"a live non-leaf's slot {t._slot} holds other values")
        elif t._tok is None and t._gen == tape.gen and tape is state.tape:
            if not 0 <= t._slot < tape.nslots:
                bad.append("a leaf's slot beyond nslots")
    return bad


def tensors_in(obj, out, depth=0):
    if isinstance(obj, Tensor):
        if all(hasattr(obj, a) for a in ("_data", "_slot", "_gen", "_tok")):
            out.append(obj)  # (a half-made one, in the frame that made it, never escapes)
    elif depth < 2 and isinstance(obj, (list, tuple)):
        for o in obj:
            tensors_in(o, out, depth + 1)
    elif depth < 2 and isinstance(obj, dict):
        for o in obj.values():
            tensors_in(o, out, depth + 1)
    return out


def tapes_and_tensors(env, tb=None):
    """The tapes a run touched and the tensors that may refer to them: env's, and those in
    the frames of traceback ``tb`` (the half-made ones)."""
    tensors = tensors_in(env, [])
    while tb is not None:
        for v in tb.tb_frame.f_locals.values():
            tensors_in(v, tensors)
        tb = tb.tb_next
    tapes = {id(t._tok.tape): t._tok.tape for t in tensors if t._tok is not None}
    if state.tape is not None:
        tapes[id(state.tape)] = state.tape
    return list(tapes.values()), tensors


def problems(env, tb=None):
    tapes, tensors = tapes_and_tensors(env, tb)
    bad = [p for tp in tapes for p in check_tape(tp, tensors)]
    if not tg.is_grad_enabled():
        bad.append("grad mode left off")
        tg.set_grad_enabled(True)
    if state.tracing is not None:
        bad.append("left tracing")
    if state.tape is not None and state.tape.retired:
        bad.append("the thread's current tape is retired")
    return bad


# ---- injection -------------------------------------------------------------------------

_WITH_EXIT = {}


def _signal_can_land(frame):
    """False at the line event CPython's tracer reports when a ``with`` block exits, just
    before ``__exit__`` is called: outside the block's exception handler, so a raise there
    skips ``__exit__`` (a lock stays held), yet a real KeyboardInterrupt cannot land there
    (CPython runs signal handlers only at function entry, after calls and at backward
    jumps).  The event is recognised by its instruction (a ``with`` line that is not
    entered by loading the context manager)."""
    code = frame.f_code
    key = (code, frame.f_lasti)
    r = _WITH_EXIT.get(key)
    if r is None:
        line = linecache.getline(code.co_filename, frame.f_lineno).lstrip()
        r = not (line.startswith("with ") or line.startswith("async with ")) or \
            dis.opname[code.co_code[frame.f_lasti]] in ("LOAD_FAST", "LOAD_GLOBAL",
                                                         "LOAD_DEREF", "LOAD_NAME",
                                                         "LOAD_ATTR", "LOAD_METHOD")
        _WITH_EXIT[key] = r
    return r


_AFTER_CALL = {}


def _after_calls(code):
    """Offsets of the instructions right after a call: where a real signal lands mid-line."""
    r = _AFTER_CALL.get(code)
    if r is None:
        r, prev = set(), None
        for ins in dis.get_instructions(code):
            if prev is not None and prev.opname in ("CALL", "CALL_FUNCTION_EX"):
                r.add(ins.offset)
            prev = ins
        _AFTER_CALL[code] = r
    return r


class Inject:
    """A tracer raising KeyboardInterrupt at the ``at``-th line event in tapegrad's files
    (0: never; counts them), or with ``after_calls`` at the ``at``-th instruction that
    follows a call (a signal's landing points inside a line)."""

    def __init__(self, at, realistic=True, after_calls=False):
        self.at, self.n, self.realistic, self.where = at, 0, realistic, None
        self.after_calls = after_calls
        self.files = []  # the file of each event counted (when at is 0)

    def __call__(self, frame, event, arg):
        code = frame.f_code
        if not code.co_filename.startswith(PKG) or code in _COMPILED:
            return None
        if self.after_calls:
            frame.f_trace_opcodes = True
            frame.f_trace_lines = False
        return self.local

    def local(self, frame, event, arg):
        if event == "line" and (not self.realistic or _signal_can_land(frame)) or (
                event == "opcode" and frame.f_lasti in _after_calls(frame.f_code)):
            self.n += 1
            if not self.at:
                self.files.append(frame.f_code.co_filename)
            if self.n == self.at:
                self.where = f"{os.path.relpath(frame.f_code.co_filename, PKG)}:" \
                             f"{frame.f_lineno} {frame.f_code.co_name}"
                raise KeyboardInterrupt
        return self.local


def run_at(at, realistic=True, after_calls=False):
    """Run ``program`` with an interrupt at line event ``at``; returns (raised, lines,
    where, problems while the traceback lived, problems after, env)."""
    env = setup()
    inject = Inject(at, realistic, after_calls)
    env["marks"] = [inject]
    raised, during = False, []
    sys.settrace(inject)
    try:
        PROGRAM(env)
    except KeyboardInterrupt:
        sys.settrace(None)
        raised = True
        during = problems(env, sys.exc_info()[2])
    finally:
        sys.settrace(None)
    after = problems(env)
    return raised, inject.n, inject.where, during, after, env


class _Timer:
    armed = False


def _alarm(signum, frame):
    if _Timer.armed:
        _Timer.armed = False
        _Timer.where = f"{frame.f_code.co_filename.rpartition(os.sep)[2]}:{frame.f_lineno}"
        raise KeyboardInterrupt


def run_timed(delay):
    """Run ``program`` with SIGALRM raising KeyboardInterrupt ``delay`` s into it (a real
    signal, landing wherever CPython runs its handler)."""
    env = setup()
    raised, during = False, []
    _Timer.where = None
    try:
        _Timer.armed = True
        signal.setitimer(signal.ITIMER_REAL, delay)
        PROGRAM(env)
        _Timer.armed = False
    except KeyboardInterrupt:
        _Timer.armed = False
        raised = True
        during = problems(env, sys.exc_info()[2])
    finally:
        _Timer.armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)
    after = problems(env)
    return raised, 0, _Timer.where, during, after, env


PROGRAM = program
CORE = ("tape.py", "arena.py", os.path.join("ops", "_pointwise.py"),
        os.path.join("ops", "_record.py"))  # the core recording path
REFUSED = "left inconsistent"
REFUSABLE = "refusable"


def fresh(env, want):
    """The program again on the interrupted run's tape (``keep`` alive on it): 'ok',
    'refused' (the clear error, then right when run on a fresh setup) or what went wrong."""
    env["x"].grad = env["w"].grad = env["c"].grad = None
    try:
        got = PROGRAM(env, "keep")
    except RuntimeError as e:
        if REFUSED not in str(e):
            return f"error: {e}"
        try:
            got = PROGRAM(setup(), "keep")
        except Exception as e2:
            return f"error after the refusal: {e2}"
        return "refused" if _same(got, want) else f"wrong after the refusal: {got}"
    except Exception as e:
        return f"error: {type(e).__name__}: {e}"
    return "ok" if _same(got, want) else f"wrong: {got} for {want}"


def _same(got, want):
    return got[0] == want[0] and np.array_equal(got[1], want[1])


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--stride", type=int, default=1)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0, help="stop after this many points")
    ap.add_argument("--core", action="store_true",
                    help="every point in the core recording files (CORE), the stride elsewhere")
    ap.add_argument("--all-strided", action="store_true",
                    help="the stride for the recording's points too (default: every one)")
    ap.add_argument("--unrealistic", action="store_true",
                    help="also raise at with-exit line events (no real signal lands there)")
    ap.add_argument("--flush", type=int, default=SMALL_FLUSH)
    ap.add_argument("--program", choices=sorted(PROGRAMS), default="record")
    ap.add_argument("--after-calls", action="store_true",
                    help="inject after every call instead of at every line")
    ap.add_argument("--timer", type=int, default=0,
                    help="this many trials of SIGALRM at random moments instead")
    ap.add_argument("--progress", action="store_true")
    args = ap.parse_args(argv)
    # the flush mask: arena.py's, tape.py's own copy, and a new tape's first flush_at
    arena.FLUSH = tape_module.FLUSH = args.flush
    tape_module._FRESH["flush_at"] = args.flush + 1
    global PROGRAM
    PROGRAM = PROGRAMS[args.program]
    # the kernels loaded before any count: a first call would run them interpreted while a
    # thread loads them (tapegrad/_kernels.py), and the counting run could take either path
    tg.warmup(replay=False)
    want = PROGRAM(setup(), "keep")
    assert fresh(setup(), want) == "ok"
    # the counting run after an uncounted one: work done once per process (a kernel loaded
    # on its first call, a table built and cached) would be counted by the first run only,
    # and its lines' points never reached again
    run_at(0, not args.unrealistic, args.after_calls)
    env = run_at(0, not args.unrealistic, args.after_calls)[5]
    lines, recording = env["marks"][0].n, env["marks"][1]
    files = env["marks"][0].files
    del env
    out = {"lines": lines, "recording_lines": recording, "tried": 0, "raised": 0, "inconsistent": 0, "wrong": 0,
           "refused": 0, "failures": []}
    t0 = time.perf_counter()
    # every point of the recording, every stride-th of the backward (--stride applies to
    # all with --all-strided)
    if args.core:  # every point in the core recording files, every stride-th elsewhere
        core = tuple(os.path.join(PKG, f) for f in CORE)
        points = [n for n in range(args.first, lines + 1)
                  if files[n - 1] in core or n % args.stride == 0]
        out["core_points"] = sum(f in core for f in files)
    elif args.all_strided:
        points = list(range(args.first, lines + 1, args.stride))
    else:
        points = list(range(args.first, recording + 1)) + list(
            range(recording + 1, lines + 1, args.stride))
    if args.limit:
        points = points[:args.limit]
    if args.timer:  # delays spread over the program's untraced run time
        signal.signal(signal.SIGALRM, _alarm)
        # the median of 5 timed runs after an untimed one: a first run's one-time work, or
        # one run slowed by a loaded machine, made a mean that sent most alarms past the end
        times = []
        for _ in range(6):
            env = setup()
            t = time.perf_counter()
            PROGRAM(env)
            times.append(time.perf_counter() - t)
        del env
        span = sorted(times[1:])[2]
        rng = random.Random(18)
        points = [rng.uniform(0, 1.2 * span) for _ in range(args.timer)]
        out["span_ms"] = round(span * 1e3, 2)
    for at in points:
        if args.timer:
            raised, _, where, during, after, env = run_timed(at)
        else:
            raised, _, where, during, after, env = run_at(at, not args.unrealistic,
                                                          args.after_calls)
        res = fresh(env, want)
        after += problems(env)
        del env
        out["tried"] += 1
        out["raised"] += raised
        refusable = REFUSABLE in during or REFUSABLE in after
        during = [p for p in during if p != REFUSABLE]
        after = [p for p in after if p != REFUSABLE]
        if refusable and res != "refused":
            after.append(f"refusable tape not refused: {res}")
        if during or after:
            out["inconsistent"] += 1
        if res == "refused":
            out["refused"] += 1
        elif res != "ok":
            out["wrong"] += 1
        if (during or after or res not in ("ok", "refused")) and len(out["failures"]) < 12:
            out["failures"].append({"at": at, "where": where, "during": during[:3],
                                    "after": after[:3], "fresh": res})
        if args.progress and out["tried"] % 100 == 0:
            print(f"{out['tried']} points, {time.perf_counter() - t0:.1f} s", file=sys.stderr,
                  flush=True)
    gc.collect()
    out["seconds"] = round(time.perf_counter() - t0, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
