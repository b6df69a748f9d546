"""The one-point interpreters: a replay plan's rows lowered for ONE point (replay/lower.py)
run by ``_point_forward`` and ``_point_reverse``, and ``_replay_point``, the single-point
fast path's kernel (replay's ``Traced._point``), which runs them and, at each RUN, the
general interpreters of ``_sweep.py``.

A module of their own: Numba keys a cache on the cached function's file, so an edit here
recompiles ``_replay_point`` alone, not every kernel of ``_sweep.py`` (15-25 min of compiling
under load).  Its cache is stamped with the digest of what it compiles in (``_jit.
ensure_fresh``), the sweep's kernels it calls included: an edited rule or interpreter of
``_sweep.py`` still recompiles it.
"""
import numpy as np

from . import _libm as libm
from . import _sweep
from ._jit import Inlined, borrowed, njit, rule, stamp_together
from ._rules import _s, _u
from .ops import elementwise as E
from .ops import nn as N
from .ops import reductions as R
from .ops import shape as S

# A replay plan's rows lowered for ONE point (replay/lower.py): ``code`` is flat int32, four
# words an instruction, [op, out, in0, in1 or aux], the arena offsets resolved when the
# plan was built, so a scalar row costs no slot lookup and its rule runs at n = 1, a literal
# that the compiler folds (no loop).  Rows of SIZED_BY_META (their rules read their sizes
# from meta at aux) are lowered at any size, with their aux.  Two other instructions:
# - [STACK1, out, n, e]: a cat/stack of n single elements whose offsets are ext[e .. e+n-1]:
#   their n copies (forward) and n adjoint sums (reverse: operand 0 first, cat_rev's order)
#   in one instruction;
# - [RUN, r0, r1, 0]: plan rows r0 .. r1-1 (vectors, guards, ops without a branch here),
#   run by the general interpreters.  The loops stop there and return the instruction to
#   _replay_point, which runs the rows and resumes them: no call into the general
#   interpreters sits in the loops.
# The rules are called through ``Inlined`` twins, inlined by LLVM (a call per row pushed ~40
# arguments: bench_fastest_west's one-point replay took 1.25-1.7x the time).  Results equal
# the general interpreters' bit for bit: the same rules, on the same operands, in the same
# order (tests/test_replay_lowered.py).
RUN = -1
STACK1 = -2
SIZED_BY_META = (N.SOFTMAX, N.LOG_SOFTMAX)
# [SOFTMAX1 or LOG_SOFTMAX1, out, in, size]: a row of SIZED_BY_META that is one contiguous
# group of up to N.SMALL_GROUP elements (N._point_group), its size in the code: no meta read
# or test per row (bench_fastest_west's west graph: a quarter of its rows)
SOFTMAX1 = -3
LOG_SOFTMAX1 = -4
# [SOFTPLUS1, out, in, k]: a scalar softplus with beta 1.0 (consts[k]): the rule's arithmetic
# at beta 1.0 (exact: x * 1.0 is x), bit for bit, its exp kept for the reverse (``zs`` at
# out): one exp a row fewer (the west graph's reverse: 2,500 of its 15,000 exp calls).
# The one-point interpreters call exp and log1p straight from libm (tapegrad/_libm.py: Numba's
# go through a bridge and glibc's SVID wrapper; the same function, values equal bit for bit)
SOFTPLUS1 = -5
# Superinstructions: consecutive instructions run as one, the same arithmetic on the same
# operands in the same order as the instructions they replace (bit for bit), one dispatch
# instead of several (bench_fastest_west's west graph: 8 instructions a period each way
# become 4), and the values only they read kept out of the arena (lower._fuse: where every
# reader of an element is known):
# - [ADDS, n, e, c]: a chain of n scalar additions, each adding to the sum before it, which
#   nothing else reads (``sum(xs)``, ``a + b + c``): ext[e], ext[e + 1] the in0 and in1 of
#   the first, an ADD, or an ADD_C (c = 1, in1 its const index), ext[e + j] the in1 of
#   addition j (j = 2 .. n), ext[e + n + 1] the last out.  The sums between stay in a
#   register (their adjoints too: 0.0 + g, what accumulating into a zeroed adjoint gives);
# - [STACK_SOFTMAX1 or STACK_LOG_SOFTMAX1, out, n, e]: a STACK1 of n elements and the
#   SOFTMAX1 (LOG_SOFTMAX1) of its n values right after it, their only reader: ext[e .. e+n-1]
#   the stack's operands.  The forward reads them where they are and writes the softmax to
#   out (_stack_softmax); the reverse adds into them (_stacked_softmax_rev): the stack's
#   values and adjoints are never stored.  A group of 4 runs with its size a
#   literal: LLVM drops the steps past it of the SMALL_GROUP unrolled ones, their tests and
#   branches (bench_fastest_west's west graph, groups of 4: its one-point replay ~3% faster,
#   benchmarks/ab_west.py); other sizes as before, the same code bit for bit.
ADDS = -6
STACK_SOFTMAX1 = -7
STACK_LOG_SOFTMAX1 = -8
# [LOAD, e0, e1, 0]: arena elements e0 .. e1-1 from vals0, at the head of the forward code
# (_replay_point runs them): the elements no row writes, not the whole arena every call
LOAD = -9
# the opcodes _point_forward and _point_reverse run on single elements (replay/lower.py)
POINT_OPS = (E.ADD, E.MUL, E.ADD_C, E.MUL_C, E.SUB, E.SUB_C, E.RSUB_C, E.DIV, E.DIV_C,
             E.RDIV_C, E.NEG, S.VIEW, E.POW_C, E.SIN, E.COS, E.EXP, E.LOG, E.TANH, E.SIGMOID,
             E.SQRT, E.SOFTPLUS)
PE = Inlined(E, math=libm.MATH)  # (the rules' math from libm straight: _libm.py)


@rule
def _point_forward(code, i0, ext, vals, consts, meta, zs):
    """Forward through instructions i0, i0 + 1, .. of ``code`` at one point (w = 1): the
    index of the first it does not run (a RUN), or their count when done.  ``zs``: values
    kept for the reverse, at their instruction's out (SOFTPLUS1's exp)."""
    one, two, three, four = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)
    end = _u(len(code)) // four
    for i in range(_u(i0), end):
        c = i * four  # (unsigned: no negative-index test per word)
        op = code[c]
        o = _u(code[c + one])
        a = _u(code[c + two])
        b = _u(code[c + three])
        k = _s(code[c + three])
        if op == E.ADD:
            PE.add_fwd(vals, o, a, b, one)
        elif op == E.MUL:
            PE.mul_fwd(vals, o, a, b, one)
        elif op == E.ADD_C:
            PE.add_c_fwd(vals, o, a, consts[k], one)
        elif op == E.MUL_C:
            PE.mul_c_fwd(vals, o, a, consts[k], one)
        elif op == E.SUB:
            PE.sub_fwd(vals, o, a, b, one)
        elif op == E.SUB_C:
            PE.sub_c_fwd(vals, o, a, consts[k], one)
        elif op == E.RSUB_C:
            PE.rsub_c_fwd(vals, o, a, consts[k], one)
        elif op == E.DIV:
            PE.div_fwd(vals, o, a, b, one)
        elif op == E.DIV_C:
            PE.div_c_fwd(vals, o, a, consts[k], one)
        elif op == E.RDIV_C:
            PE.rdiv_c_fwd(vals, o, a, consts[k], one)
        elif op == E.NEG:
            PE.neg_fwd(vals, o, a, one)
        elif op == S.VIEW:
            vals[o] = vals[a]
        elif op == ADDS:  # (o: the chain's length, a: its ext, b: an ADD_C first; add_fwd's
            x = vals[_u(ext[a])]  # and add_c_fwd's x + y, in their order)
            s = x + consts[_s(ext[a + one])] if b == one else x + vals[_u(ext[a + one])]
            for j in range(two, o + one):
                s = s + vals[_u(ext[a + j])]
            vals[_u(ext[a + o + one])] = s
        elif op == STACK1:
            for j in range(a):
                vals[o + j] = vals[_u(ext[b + j])]
        elif op == STACK_SOFTMAX1:  # (a group of 4: its size a literal, above)
            if a == four:
                _stack_softmax(vals, o, ext, b, four)
            else:
                _stack_softmax(vals, o, ext, b, a)
        elif op == STACK_LOG_SOFTMAX1:
            for j in range(a):
                vals[o + j] = vals[_u(ext[b + j])]
            N._softmax_group(vals, o, o, a, one, True, True)
        elif op == E.POW_C:
            PE.pow_c_fwd(vals, o, a, consts[k], one)
        elif op == E.SIN:
            PE.sin_fwd(vals, o, a, one)
        elif op == E.COS:
            PE.cos_fwd(vals, o, a, one)
        elif op == E.EXP:
            PE.exp_fwd(vals, o, a, one)
        elif op == E.LOG:
            PE.log_fwd(vals, o, a, one)
        elif op == E.TANH:
            PE.tanh_fwd(vals, o, a, one)
        elif op == E.SIGMOID:
            PE.sigmoid_fwd(vals, o, a, one)
        elif op == E.SQRT:
            PE.sqrt_fwd(vals, o, a, one)
        elif op == E.SOFTPLUS:
            PE.softplus_fwd(vals, o, a, consts[k], consts[k + 1], one)
        elif op == SOFTPLUS1:  # (softplus_fwd at beta 1.0: x * 1.0 is x, / 1.0 dropped)
            x = vals[a]
            if x > consts[k + 1]:
                vals[o] = x
            else:
                z = libm.exp(x)
                zs[o] = z
                vals[o] = libm.log1p(z)
        elif op == SOFTMAX1:
            N._softmax_group(vals, o, a, b, one, False, True)
        elif op == LOG_SOFTMAX1:
            N._softmax_group(vals, o, a, b, one, True, True)
        elif op == N.SOFTMAX:
            N.softmax_point_fwd(vals, meta, o, a, k, False)
        elif op == N.LOG_SOFTMAX:
            N.softmax_point_fwd(vals, meta, o, a, k, True)
        else:
            return _s(i)
    return _s(end)


@rule(inline=True)
def _stack_softmax(vals, o, ext, e, size):
    # STACK_SOFTMAX1's forward: nn._softmax_group's (small, not log) on the operands where
    # they are (no copy into out to read back), in an order that shortens a chain of groups
    # each reading the last one's output as its operand 0 (bench_fastest_west's west graph:
    # its forward waits on that chain; ~5% of its one-point forward), bit for bit:
    # - the max of operands 1.. first, then operand 0's turn: the loop's result from operand
    #   0 on (the first nan, else the first of the largest), operand 0 one comparison away;
    # - the sum starts at exp(operand 0 - max), which is 0.0 + it (an exp is never -0.0)
    n = np.uint64(N.SMALL_GROUP)
    m = -np.inf
    for j in range(1, n):
        if j < size:
            v = vals[_u(ext[e + j])]
            if R._beats(v, m, 1.0):
                m = v
    v = vals[_u(ext[e])]
    if not R._beats(m, v, 1.0):
        m = v
    s = libm.exp(vals[_u(ext[e])] - m)
    vals[o] = s
    for j in range(1, n):
        if j < size:
            z = libm.exp(vals[_u(ext[e + j])] - m)
            s += z
            vals[o + j] = z
    for j in range(n):
        if j < size:
            vals[o + j] /= s


@rule(inline=True)
def _stacked_softmax_rev(adj, vals, o, ext, e, size, log):
    # STACK_SOFTMAX1's reverse: nn._softmax_group_rev's arithmetic (small), each input's
    # adjoint t added to the stack's operand ext[e + j] as 0.0 + t: what the stack's zeroed
    # adjoint summed and its reverse passed on, without the stack's adjoints
    n = np.uint64(N.SMALL_GROUP)
    s = 0.0
    for j in range(n):
        if j < size:
            s += adj[o + j] if log else adj[o + j] * vals[o + j]
    for j in range(n):
        if j < size:
            y = vals[o + j]
            adj[_u(ext[e + j])] += 0.0 + (adj[o + j] - libm.exp(y) * s if log else
                                          y * (adj[o + j] - s))


@rule
def _point_reverse(code, i0, ext, vals, consts, meta, adj, zs):
    """Reverse through instructions i0, i0 - 1, .., 0 of ``code`` at one point, every slot
    reached (replay's plan): -1 when done, or the index of the first it does not run (a
    RUN)."""
    one, two, three, four = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)
    for j in range(_u(i0 + 1)):
        i = _u(i0) - j
        c = i * four
        op = code[c]
        o = _u(code[c + one])
        a = _u(code[c + two])
        b = _u(code[c + three])
        k = _s(code[c + three])
        if op == E.ADD:
            PE.add_rev(adj, vals, o, a, b, one, False, False)
        elif op == E.MUL:
            PE.mul_rev(adj, vals, o, a, b, one, False, False)
        elif op == E.ADD_C or op == E.SUB_C or op == S.VIEW:
            PE.pass_rev(adj, o, a, one)
        elif op == ADDS:  # (_point_forward's ADDS, its additions in reverse: add_rev's and
            g = adj[_u(ext[a + o + one])]  # pass_rev's sums, the chain's in a register)
            for m in range(o - one):
                adj[_u(ext[a + o - m])] += g
                g = 0.0 + g
            adj[_u(ext[a])] += g
            if b != one:
                adj[_u(ext[a + one])] += g
        elif op == STACK1:
            for m in range(a):
                adj[_u(ext[b + m])] += adj[o + m]
        elif op == STACK_SOFTMAX1:  # (a group of 4: its size a literal, above)
            if a == four:
                _stacked_softmax_rev(adj, vals, o, ext, b, four, False)
            else:
                _stacked_softmax_rev(adj, vals, o, ext, b, a, False)
        elif op == STACK_LOG_SOFTMAX1:
            _stacked_softmax_rev(adj, vals, o, ext, b, a, True)
        elif op == E.MUL_C:
            PE.mul_c_rev(adj, o, a, consts[k], one)
        elif op == E.SUB:
            PE.sub_rev(adj, vals, o, a, b, one, False, False)
        elif op == E.RSUB_C or op == E.NEG:
            PE.neg_rev(adj, o, a, one)
        elif op == E.DIV:
            PE.div_rev(adj, vals, o, a, b, one)
        elif op == E.DIV_C:
            PE.div_c_rev(adj, o, a, consts[k], one)
        elif op == E.RDIV_C:
            PE.rdiv_c_rev(adj, vals, o, a, one)
        elif op == E.POW_C:
            PE.pow_c_rev(adj, vals, o, a, consts[k], one, False)
        elif op == E.SIN:
            PE.sin_rev(adj, vals, o, a, one)
        elif op == E.COS:
            PE.cos_rev(adj, vals, o, a, one)
        elif op == E.EXP:
            PE.exp_rev(adj, vals, o, a, one)
        elif op == E.LOG:
            PE.log_rev(adj, vals, o, a, one)
        elif op == E.TANH:
            PE.tanh_rev(adj, vals, o, a, one, False)
        elif op == E.SIGMOID:
            PE.sigmoid_rev(adj, vals, o, a, one)
        elif op == E.SQRT:
            PE.sqrt_rev(adj, vals, o, a, one)
        elif op == E.SOFTPLUS:
            PE.softplus_rev(adj, vals, o, a, consts[k], consts[k + 1], one)
        elif op == SOFTPLUS1:  # (softplus_rev at beta 1.0, the forward's exp: no second)
            if vals[a] > consts[k + 1]:
                adj[a] += adj[o]
            else:
                z = zs[o]
                adj[a] += adj[o] * z / (z + 1.0)
        elif op == SOFTMAX1:
            N._softmax_group_rev(adj, vals, o, a, b, one, False, True)
        elif op == LOG_SOFTMAX1:
            N._softmax_group_rev(adj, vals, o, a, b, one, True, True)
        elif op == N.SOFTMAX:
            N.softmax_point_rev(adj, vals, meta, o, a, k, False)
        elif op == N.LOG_SOFTMAX:
            N.softmax_point_rev(adj, vals, meta, o, a, k, True)
        else:
            return _s(i)
    return np.int64(-1)


@njit
def _replay_point(ints, x, g, work):
    """Value and (if ``g`` has entries) gradient at ONE point, from a plan packed into one
    array (``replay._Plan.packed``): four array arguments, each ~50 ns to pass (the
    single-point fast path, ~18 arguments cost ~1 us more), and no allocation here.

    ``ints``: [nf, nr, len(offs), len(meta), n, out_slot, ncf, ncr, nx, fwd rows...,
    rev rows..., offs..., meta..., in_elems..., each slot's reach as the reverse starts
    (bits 0-1; bit 2: zeroed first; the others the rows reaching them zero), fwd code...,
    rev code..., ext...,
    vals0..., consts...]: the code (ncf and ncr instructions) and ext (nx words) int32, two
    words to an entry (replay/lower.py); vals0 and consts float64 values stored bit for
    bit.  ``x`` (n,) the point; ``g`` (n,) gets the gradient, or is empty for the value
    only.  ``work``: the caller's buffer of at least ``replay._Plan.point_need`` values,
    kept between calls (a fresh arena page-faults at every call): [value, guard flag,
    arena (nv), adjoints (nv), reach (bytes), values kept for the reverse (nv)].  Returns
    0, 1 + the first diverging guard (``work[0]`` holds the value, ``g`` nothing), or -1
    for a row that could not run.
    """
    # (the caller holds the arrays: no reference counting on them or their views here)
    ints, x, g, work = borrowed(ints), borrowed(x), borrowed(g), borrowed(work)
    nf, nr, no, nm, n, out = ints[0], ints[1], ints[2], ints[3], ints[4], ints[5]
    ncf, ncr, nx = ints[6], ints[7], ints[8]
    p = 9
    fwd = ints[p:p + 5 * nf].reshape(nf, 5)
    p += 5 * nf
    rev = ints[p:p + 5 * nr].reshape(nr, 5)
    p += 5 * nr
    offs = ints[p:p + no]
    meta = ints[p + no:p + no + nm]
    in_elems = ints[p + no + nm:p + no + nm + n]
    state = ints[p + no + nm + n:p + no + nm + n + no - 1]
    p += no + nm + n + no - 1
    fwd_code = ints[p:p + 2 * ncf].view(np.int32)
    rev_code = ints[p + 2 * ncf:p + 2 * (ncf + ncr)].view(np.int32)
    p += 2 * (ncf + ncr)
    ext = ints[p:p + (nx + 1) // 2].view(np.int32)
    floats = ints[p + (nx + 1) // 2:].view(np.float64)
    nv = offs[no - 1]
    flags = work[1:2].view(np.int64)
    flags[0] = 0
    vals = work[2:2 + nv]
    reach = work[2 + 2 * nv:2 + 2 * nv + (no + 6) // 8].view(np.uint8)[:no - 1]
    zs = work[2 + 2 * nv + (no + 6) // 8:2 + 3 * nv + (no + 6) // 8]
    i = np.int64(0)
    while i < ncf and fwd_code[4 * i] == LOAD:  # the elements no row writes (constants,
        for e in range(fwd_code[4 * i + 1], fwd_code[4 * i + 2]):  # inputs), from vals0 (a
            vals[e] = floats[e]  # loop: the slice assignment ran element by element, an
        i += 1  # index clamp each)
    consts = floats[nv:]
    for c in range(n):
        vals[in_elems[c]] = x[c]
    w = np.int64(1)
    while True:  # the code, and the general interpreter at each RUN
        i = _point_forward(fwd_code, i, ext, vals, consts, meta, zs)
        if i == ncf:
            break
        if fwd_code[4 * i] != RUN or _sweep._forward_replay(
                fwd, offs, vals, consts, meta, np.int64(fwd_code[4 * i + 1]),
                np.int64(fwd_code[4 * i + 2]), w, flags) >= 0:
            return -1
        i += 1
    work[0] = vals[offs[out]]
    if flags[0] != 0 or len(g) == 0:
        return flags[0]
    adj = work[2 + nv:2 + 2 * nv]
    if nv < _sweep.LAZY_VALUES:  # (every slot zeroed first, _Plan._point_reach: one memset; a
        adj[:] = 0.0  # loop over the slots cost bench_fastest_west's west graph +30%)
    else:  # (the slots marked zeroed first; the others by the rows that first reach them)
        for s in range(no - 1):
            if state[s] & 4:
                for e in range(offs[s], offs[s + 1]):
                    adj[e] = 0.0
        for c in range(n):  # (an input no row reaches: a zero gradient)
            adj[in_elems[c]] = 0.0
    adj[offs[out]] = 1.0
    i = ncr - 1
    reached = False  # (reach: only the general interpreter's rows read it, from the first RUN)
    while True:
        i = _point_reverse(rev_code, i, ext, vals, consts, meta, adj, zs)
        if i < 0:
            break
        if not reached:
            for s in range(no - 1):
                reach[s] = state[s] & 3
            reached = True
        if rev_code[4 * i] != RUN or _sweep._reverse_sweep(
                rev, offs, vals, consts, meta, adj, reach, np.int64(rev_code[4 * i + 1]),
                np.int64(rev_code[4 * i + 2]), w) >= 0:
            return -1
        i -= 1
    for c in range(n):
        g[c] = adj[in_elems[c]]
    return 0


KERNELS = (_replay_point,)
stamp_together(*KERNELS)  # (its cache checked, and stamped, when first used)
