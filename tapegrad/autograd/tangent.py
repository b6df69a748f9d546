"""Forward mode as a compiled tangent sweep over the recorded rows (issue 24).

``sweep(outs, ins, seeds, w)`` walks the rows of ``outs``' graph forward (``_sweep.
_tangent_sweep``), each op's tangent rule (declared beside its reverse rule: ``tan`` in
``ops/registry.py``) setting its output's tangent from its inputs'.  ``w`` directions run
side by side as ``w`` lanes (the op-major layout of batch replay: the values repeated
``w`` times), so ``jacfwd`` is one sweep with the identity as seeds.

``hvp(out, ins, v)``: the gradient of a scalar and its Hessian-vector product by forward
over reverse: the tangent sweep, then ``_sweep._hvp_sweep``, the reverse sweep and its
tangent row by row (each op's second-order ``curv`` rule).

Both return None where the sweep cannot answer: a row without a tangent (or second-order)
rule, a custom Function's row without ``jvp`` (or in jacfwd's lanes), a link to an older tape, saved-tensor
hooks, or a graph that reaches a tensor requiring grad besides ``ins`` with grad mode on
(the result would have to stay differentiable).  The callers then compute forward mode by
transposition (``forward_ad.transposed``) or reverse over reverse: slower, never wrong.
"""
import numpy as np

from .. import _blas as blas
from .. import _kernels as compiled
from ..grad_mode import is_grad_enabled
from ..ops.custom import CUSTOM, CUSTOM_OUT
from ..ops.registry import OPS, graph_inputs
from ..tape import OP_MASK
from . import graph
from .function import MISSING_JVP, run_jvp
from .span import graph_span

LANE_VALUES = 1 << 22  # values x lanes per sweep (32 MiB of float64): jacfwd chunks beyond


def _graph(outs, ins, w):
    """``(tape, out_slots, (rows, offs, vals, consts, meta), lo, hi)``: the outputs' graph,
    recorded on this generation of one tape, in rows ``lo .. hi-1``; or None where the
    sweep cannot be used (module docstring)."""
    tape, slots = None, []
    for o in outs:
        tok = o._tok
        if tok is None:
            slots.append(-1)  # a leaf or a constant: no row made it
            continue
        if (tape is not None and tok.tape is not tape) or o._gen != tok.tape.gen:
            return None
        tape = tok.tape
        slots.append(o._slot)
    if tape is None or graph.hooked(tape) or any(x._tok is not None for x in ins):
        return None
    rows, offs, vals, consts, meta = tape.arrays()
    lo, hi = graph_span(tape, rows, meta, [s for s in slots if s >= 0])
    if is_grad_enabled() and _reads_a_parameter(tape, rows, meta, lo, hi, ins):
        return None  # the result would have to stay differentiable in it
    vals = vals.astype(np.float64, copy=False)  # (a float32 graph's tangents in float64)
    vals = np.repeat(vals, w) if w > 1 else vals
    return tape, slots, (rows, offs, vals, consts, meta), lo, hi


def _reads_a_parameter(tape, rows, meta, lo, hi, ins):
    """Does a row of ``lo .. hi-1`` read a leaf that requires grad besides ``ins`` (a
    parameter the function closed over)?  (Rows of the span that the outputs do not reach
    count too: a fallback more than needed, never one missed.)"""
    ids = {id(x) for x in ins}
    others = {s for s, t in tape.leaves if t.requires_grad and id(t) not in ids}
    if not others:
        return False
    seg = rows[lo:hi]
    read = set(np.unique(seg[:, 2:4]).tolist())
    for r in np.flatnonzero(np.isin(seg[:, 0] & OP_MASK, _META_INPUTS)).tolist():
        read.update(graph_inputs(rows, meta, lo + r))
    return not others.isdisjoint(read)


_META_INPUTS = np.array([c for c, d in OPS.items() if d.meta_slots is not None], np.int64)


def _seed(tape, offs, arena, reach, ins, seeds, w):
    for x, t in zip(ins, seeds, strict=True):
        for s in tape.slots_of(x):
            arena[offs[s] * w:offs[s + 1] * w] = t.reshape(-1)
            reach[s] = 1


def _run(tape, rows, offs, vals, tan, consts, meta, reach, lo, hi, w, strict):
    """The tangent sweep of rows ``lo .. hi-1``; a custom Function's row runs its ``jvp``
    in Python (one lane only).  False where a row has no tangent rule; a Function without
    ``jvp`` raises PyTorch's NotImplementedError if ``strict`` (forward_ad; never one of
    tapegrad's own: ``_own``), else False."""
    while lo < hi:
        stop = blas.held(compiled._tangent_sweep, rows, offs, vals, tan, consts, meta, reach,
                         lo, hi, w)  # (SciPy's BLAS pool on one thread: _blas.py)
        if stop < 0:
            return True
        op = int(rows[stop, 0]) & OP_MASK
        if op == CUSTOM and w == 1:
            if not run_jvp(tape, offs, tan, reach, stop):
                rec = tape.custom.get(stop)
                if strict and rec is not None and not rec.has_jvp() and not _own(rec.fn):
                    raise NotImplementedError(MISSING_JVP)
                return False
        elif op != CUSTOM_OUT:  # (its outputs' tangents came with the custom row's jvp)
            return False
        lo = stop + 1
    return True


def _own(fn):
    """Is ``fn`` one of tapegrad's own Functions (linalg.solve, eigh...)?  PyTorch's ops
    have forward-mode rules, so one without a ``jvp`` goes by transposition (the caller's
    fallback) rather than raising the error meant for a user's Function."""
    return fn.__module__.partition(".")[0] == "tapegrad"


def sweep(outs, ins, seeds, w=1, strict=False):
    """Tangents of ``outs`` given those of ``ins`` (``seeds[i]``: ``ins[i].numel() * w``
    values, element-major, ``w`` lanes each): per output an array ``(numel, w)``, or None
    where it depends on no input; None for all when the sweep cannot answer."""
    got = _graph(outs, ins, w)
    if got is None:
        return None
    tape, out_slots, (rows, offs, vals, consts, meta), lo, hi = got
    tan = np.zeros(len(vals))
    reach = np.zeros(tape.nslots, np.uint8)
    _seed(tape, offs, tan, reach, ins, seeds, w)
    if not _run(tape, rows, offs, vals, tan, consts, meta, reach, lo, hi, w, strict):
        return None
    res = []
    for s, o in zip(out_slots, outs, strict=True):
        if s < 0 or not reach[s]:
            res.append(_of_input(o, ins, seeds, w))
        else:
            res.append(tan[offs[s] * w:offs[s + 1] * w].reshape(-1, w).copy())
    return res


def _of_input(o, ins, seeds, w):
    """An output that is one of the inputs itself carries its seed."""
    for x, t in zip(ins, seeds, strict=True):
        if o is x:
            return np.asarray(t, np.float64).reshape(-1, w)
    return None


def hvp(out, ins, vs):
    """``(gradients, Hessian-vector products)`` of scalar ``out`` with respect to ``ins``
    in directions ``vs`` (arrays), as flat float64 arrays; None where the sweeps cannot
    answer (module docstring)."""
    got = _graph([out], ins, 1)
    if got is None or got[1][0] < 0:
        return None
    tape, (s_out,), (rows, offs, vals, consts, meta), lo, hi = got
    tan = np.zeros(len(vals))
    reach = np.zeros(tape.nslots, np.uint8)
    _seed(tape, offs, tan, reach, ins, vs, 1)
    if not _run(tape, rows, offs, vals, tan, consts, meta, reach, lo, hi, 1, False):
        return None
    adj, tadj = np.zeros(len(vals)), np.zeros(len(vals))
    reach = np.zeros(tape.nslots, np.uint8)
    treach = np.zeros(tape.nslots, np.uint8)
    adj[offs[s_out]] = 1.0
    reach[s_out] = treach[s_out] = 1
    if blas.held(compiled._hvp_sweep, rows, offs, vals, tan, consts, meta, adj, tadj, reach,
                 treach, lo, hi, 1) >= 0:
        return None
    gs, hs = [], []
    for x in ins:
        g, h = np.zeros(x.numel()), np.zeros(x.numel())
        for s in tape.slots_of(x):
            if reach[s]:
                g += adj[offs[s]:offs[s + 1]]
                h += tadj[offs[s]:offs[s + 1]]
        gs.append(g)
        hs.append(h)
    return gs, hs
