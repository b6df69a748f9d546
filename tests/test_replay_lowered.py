"""The one-point replay's lowered code (tapegrad/replay/lower.py, _point._point_forward and
_point_reverse): the same values and gradients as the general interpreters, bit for bit,
on scalar rows of every op it has a branch for, on ops without one, on vector rows,
stacks of scalars (a repeated operand too) and guards."""
import math
import types

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.nn.functional as F
from tapegrad import _jit, _kernels, _libm, _point, _sweep
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tapegrad._point import (ADDS, LOG_SOFTMAX1, POINT_OPS, RUN, SOFTMAX1, SOFTPLUS1, STACK1,
                             STACK_LOG_SOFTMAX1, STACK_SOFTMAX1)
from tapegrad.ops import SPECS
from tapegrad.ops import elementwise as E
from tapegrad.ops.nn import LOG_SOFTMAX, SOFTMAX
from tapegrad.replay import lower


def scalars(x):
    """Every op with a branch in the lowered interpreters, on scalars, and some without."""
    a, b, c = x[0], x[1], x[2]
    t = a * b + (a - c) / b  # MUL, ADD, SUB, DIV
    t = t + 2.5 - 0.5  # ADD_C, SUB_C
    t = (3.0 - t) * 1.5 / 4.0 + 2.0 / (b * b + 1.0)  # RSUB_C, MUL_C, DIV_C, RDIV_C
    t = -t + t ** 3 + a.sin() * b.cos() + c.exp().log() + t.tanh() + a.sigmoid()
    t = t + (b * b + 1.0).sqrt() + F.softplus(c) + F.softplus(a, beta=2.0, threshold=0.1)
    t = t + a.atan() + b.abs() + c.clamp(-0.5, 0.5)  # no branch: run by their row
    return t


def mixed(x):
    """Scalars, vectors, softmax and log_softmax (one small group, a long one, two groups),
    a reduction, a stack of scalars (a repeated), a guard."""
    a, b = x[0], x[1]
    v = tg.stack([a, b * 2.0, a, b.sin()])
    s = F.softmax(v, dim=0)
    y = (s * v).sum() + s[0] * a + s[3].exp() + F.log_softmax(v * a, dim=0)[1]
    # groups past SMALL_GROUP elements, and several groups: SOFTMAX rows read from meta
    w = tg.stack([a, b, a * b, b - a, a + 1.0, b * 3.0, a.cos(), b.exp(), a * 0.5, b + 2.0])
    y = y + F.softmax(w, dim=0)[7] * b + F.log_softmax(w.reshape(2, 5), dim=1)[1, 2]
    if y > 0:  # a guard
        y = y * a
    return y + (x * x).sum() * b


POINTS = [np.array([0.3, -1.2, 0.7]), np.array([1.5, 0.4, -0.2]), np.array([-0.8, 2.0, 0.1])]


def _bits(a):
    """The bits of float64s, every nan as one pattern (the libm and Numba nans' payloads
    are not what is compared), -0.0 apart from 0.0."""
    a = np.where(np.isnan(a), np.nan, a)
    return a.view(np.int64)


@pytest.mark.parametrize("fn", [scalars, mixed])
def test_point_path_equals_general_interpreter_bit_for_bit(fn):
    t = tg.trace(fn, POINTS[0])
    # bit for bit where both run compiled (or both interpreted); on a cold cache one may
    # still run interpreted while the other is compiled: libm and LLVM may differ by an ulp
    exact = _jit.DISABLED or all(getattr(_kernels, k.__name__) is k.dispatcher
                                 for k in (_sweep._replay_blocks, _point._replay_point))
    same = (lambda a, b: np.testing.assert_array_equal(_bits(a), _bits(b))) if exact else \
        (lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-15))
    checked = 0
    for x in [*POINTS, POINTS[0] + 0.05, POINTS[0] - 0.03]:
        V, G, bad = t.run(x[None].copy(), grad=True)  # the general interpreters, w = 1
        if bad[0]:  # (mixed's guard decides otherwise there: not this trace's point)
            continue
        v, g = t.value_and_grad(x)  # the lowered code
        checked += 1
        same(v, V[0])
        same(g, G[0])
        same(t.value(x), V[0])
    assert checked >= 2


@pytest.mark.parametrize("fn", [scalars, mixed])
def test_point_path_matches_torch(fn):
    torch = pytest.importorskip("torch")
    import torch.nn.functional as TF
    x = POINTS[0]
    v, g = tg.compile(fn).value_and_grad(x)
    xt = torch.tensor(x, requires_grad=True)
    y = _with(fn, {"tg": torch, "F": TF})(xt)
    (gt,) = torch.autograd.grad(y, xt)
    np.testing.assert_allclose(v, y.item(), rtol=1e-12)
    np.testing.assert_allclose(g, gt.numpy(), rtol=1e-12, atol=1e-14)


def _with(fn, ns):
    """fn with its module's tg and F bound to ``ns`` (the same code on torch)."""
    return types.FunctionType(fn.__code__, {**fn.__globals__, **ns}, fn.__name__)


SCALAR_SPECS = [s for s in SPECS if s.replay and () in s.shapes]


@pytest.fixture(scope="module")
def compiled():
    """The kernels loaded (or compiled) first: exact comparisons need both sides compiled."""
    tg.warmup()


@pytest.mark.parametrize("spec", SCALAR_SPECS, ids=lambda s: s.name)
def test_every_scalar_spec_row_lowered_equals_unlowered_bit_for_bit(spec, compiled):
    """Each replayable op's spec row on 0-d inputs: one kernel, ``_replay_point``, on the
    plan's lowered code and on the same plan run by the general interpreters alone
    (``packed(lowered=False)``): equal values and gradients, bit for bit."""
    rng = np.random.default_rng(3)
    xs = [rng.uniform(*spec.domain, size=()) for _ in range(spec.arity)]
    # (summed: a row with a vector output at 0-d inputs, expand or stack, is covered too)
    t = tg.trace(lambda *a: (spec.fn(*a) * 0.75).sum(), *xs, argnums=tuple(range(spec.arity)))
    plan = t._make_plan()
    assert t.out_size == 1 and plan.rev_error is None
    kernel = _kernels._replay_point
    lowered, unlowered = plan.packed(), plan.packed(lowered=False)
    # (nan where the arena is not loaded from vals0 or written by a row: it must not be read)
    work = [np.full(plan.point_need(), np.nan) for _ in range(2)]
    for _ in range(3):
        x = rng.uniform(*spec.domain, size=spec.arity)
        got, want = np.empty(spec.arity), np.empty(spec.arity)
        assert kernel(lowered, x, got, work[0]) == kernel(unlowered, x, want, work[1])
        np.testing.assert_array_equal(_bits(np.append(work[0][0], got)),
                                      _bits(np.append(work[1][0], want)))
        V, G, _ = t.run(x[None].copy(), grad=True)  # the batch interpreters, their own arena
        np.testing.assert_allclose(np.append(work[0][0], got), np.append(V[0], G[0]),
                                   rtol=1e-12, atol=1e-300)


def test_code_layout(monkeypatch):
    """Scalar rows keep their opcode with offsets; a stack of scalars is one STACK1 with
    its operands' offsets in ext; vector rows merge into RUN rows (superinstructions off
    here: ``test_superinstruction_layout``)."""
    monkeypatch.setattr(lower, "FUSE", False)
    t = tg.trace(mixed, POINTS[0])
    p = t._make_plan()
    ext = []
    code = lower.point_code(p.fwd, p.offs, p.meta, p.consts, ext)
    ops = code[:, 0]
    assert (ops == E.MUL).any() and (ops == RUN).any()
    # softmax rows at any size: one small group with its size in the code, else its meta
    assert (ops == SOFTMAX).sum() == 1 and (ops == LOG_SOFTMAX).sum() == 1  # 10, 2 x 5
    assert code[ops == SOFTMAX1, 3].tolist() == [4]
    assert code[ops == LOG_SOFTMAX1, 3].tolist() == [4]
    small = (RUN, STACK1, SOFTMAX, LOG_SOFTMAX, SOFTMAX1, LOG_SOFTMAX1, SOFTPLUS1)
    scalar = {int(p.offs[s]) for s in range(0, len(p.offs) - 1, 2)  # (slot s: offs[s:s + 2])
              if p.offs[s + 1] - p.offs[s] == 1}
    for op, o, _, _ in code.tolist():  # other ops keep their code at one element only
        assert op in small or op in POINT_OPS and o in scalar
    (stack, _) = code[ops == STACK1].tolist()  # stack([a, b * 2, a, b.sin()]): a twice
    n, e = stack[2], stack[3]
    assert n == 4 and ext[e] == ext[e + 2] and len(set(ext[e:e + 4])) == 3
    runs = code[ops == RUN]
    assert (runs[:, 2] > runs[:, 1]).all()
    assert not ((runs[1:, 1] == runs[:-1, 2]) & (np.diff(np.nonzero(ops == RUN)[0]) == 1)).any()
    # every plan row is run once: lowered rows in order, the others in one RUN range
    lowered = [r for r in range(len(p.fwd)) if not any(r0 <= r < r1 for _, r0, r1, _ in runs)]
    assert len(lowered) == (ops != RUN).sum()
    assert sum(r1 - r0 for _, r0, r1, _ in runs) + len(lowered) == len(p.fwd)


def sums(x):
    """Chains of additions (sum() from 0.0: ADD_C first; a + b + c: ADD first), one whose
    partial sum is added to itself, and stacks of scalars read by a small softmax and
    log_softmax right after them."""
    a, b, c = x[0], x[1], x[2]
    s = sum([a, b * c, c, a.sin()])
    t = a * b + c + s + a
    u = t + t
    y = F.softmax(tg.stack([s, t, u]), dim=0)
    z = F.log_softmax(tg.stack([a, u, y[1], c, s]), dim=0)
    return (u * y[0] + z[2] - z[4] * t + y[2]) + s * 0.5


def _packed(plan, fuse, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(lower, "FUSE", fuse)
        return plan.packed()


def test_superinstruction_layout(monkeypatch):
    """The chains become ADDS (ext: in0, in1 of the first, the in1 of each ADD after it, the
    last out), each stack and the softmax after it STACK_SOFTMAX1 or STACK_LOG_SOFTMAX1
    (ext: the stack's operands), both ways; unfused, the same rows one by one.  A
    sum read again (t, read by t + t) ends its chain; without every reader known (reads
    None), no superinstructions."""
    p = tg.trace(sums, POINTS[0])._make_plan()
    reads = lower.forward_reads(p.fwd, p.offs, p.meta, p.consts, p.out_slot)
    assert reads is not None
    for rows in (p.fwd, p.rev):
        ext, plain_ext = [], []
        code = lower.point_code(rows, p.offs, p.meta, p.consts, ext, reads)
        plain = lower.point_code(rows, p.offs, p.meta, p.consts, plain_ext)
        with monkeypatch.context() as m:
            m.setattr(lower, "FUSE", False)
            assert (lower.point_code(rows, p.offs, p.meta, p.consts, [], reads) == plain).all()
        ops = code[:, 0].tolist()
        assert ops.count(STACK_SOFTMAX1) == 1 and ops.count(STACK_LOG_SOFTMAX1) == 1
        assert STACK1 not in ops and SOFTMAX1 not in ops and LOG_SOFTMAX1 not in ops
        adds = code[code[:, 0] == ADDS]
        # sum(): ADD_C(0.0) and 3 ADDs; (a * b) + c + s + a: 3 ADDs (t + t: apart)
        assert sorted(adds[:, 1:4:2].tolist()) == [[3, 0], [4, 1]]
        n_add = [(c[:, 0] == E.ADD).sum() + (c[:, 0] == E.ADD_C).sum() for c in (code, plain)]
        assert n_add[0] == n_add[1] - 7
        for _, n, e, c in adds.tolist():
            chain = ext[e:e + n + 2]  # in0, in1, in1 of additions 2 .. n, out
            i = np.nonzero((plain[:, 2] == chain[0]) & (plain[:, 3] == chain[1]) &
                           (plain[:, 0] == (E.ADD_C if c else E.ADD)))[0]
            assert len(i) == 1  # the chain's rows, one after another in the unfused code
            rows_n = plain[i[0]:i[0] + n].tolist()
            assert [r[3] for r in rows_n[1:]] == chain[2:n + 1] and rows_n[-1][1] == chain[-1]
            for r0, r1 in zip(rows_n, rows_n[1:]):  # each sum read by the next alone
                assert r1[0] == E.ADD and r1[2] == r0[1] and reads[r0[1]] == 1
        for op, small in ((STACK_SOFTMAX1, SOFTMAX1), (STACK_LOG_SOFTMAX1, LOG_SOFTMAX1)):
            _, o, n, e = code[code[:, 0] == op][0].tolist()
            i = np.nonzero((plain[:, 0] == small) & (plain[:, 1] == o))[0][0]
            stack = plain[i - 1].tolist()  # the STACK1 right before it
            assert stack[0] == STACK1 and stack[1] == plain[i, 2]
            assert n == stack[2] == plain[i, 3] and n in (3, 5)
            assert ext[e:e + n] == plain_ext[stack[3]:stack[3] + n]


def _run(packed, plan, x, work=None):
    g = np.empty(len(plan.in_elems))
    # (nan where the arena is not loaded or written: what reads it reads nan)
    work = np.full(plan.point_need(), np.nan) if work is None else work
    r = _kernels._replay_point(packed, x, g, work)
    return r, np.append(work[0], g)


@pytest.mark.parametrize("fn", [sums, scalars, mixed])
def test_superinstructions_equal_unfused_and_unlowered_bit_for_bit(fn, compiled, monkeypatch):
    """One kernel on the plan fused, unfused and run by the general interpreters alone."""
    p = tg.trace(fn, POINTS[0])._make_plan()
    programs = [_packed(p, True, monkeypatch), _packed(p, False, monkeypatch),
                p.packed(lowered=False)]
    fused, unfused = programs[0][6], programs[1][6]  # (their forward instructions)
    assert fused < unfused if fn is sums else fused <= unfused
    for x in [POINTS[0], POINTS[0] + 0.05, POINTS[0] - 0.03]:
        (r, want), *others = [_run(q, p, x) for q in programs]
        assert r == 0
        for r2, got in others:
            assert r2 == r
            np.testing.assert_array_equal(_bits(got), _bits(want))


def _chained_softmaxes(x):
    """Softmaxes of stacked scalars (groups of len(x)), each group's operand 0 the last
    group's last value (the west graph's chain: STACK_SOFTMAX1 reads its operands where they
    are, operand 0 last for the max)."""
    n = len(x)
    nodes = [x[m] for m in range(n)]
    for _ in range(3):
        y = F.softmax(tg.stack(nodes[-n:]), dim=0)
        nodes = nodes + [y[m] * 1.0 for m in range(n - 1)] + [y[n - 1]]
    return nodes[-1] * 2.0 + nodes[-2] * nodes[-3] + nodes[-5]


@pytest.mark.parametrize("x", [[1.0, 3.0, 3.0, 2.0], [3.0, 3.0, 1.0, 3.0], [np.nan, 1.0, 2.0, 3.0],
                               [1.0, np.nan, 2.0, np.nan], [-np.inf] * 4,
                               [-np.inf, 1.0, -np.inf, 0.0], [np.inf, 1.0, 2.0, 3.0],
                               [1.0, np.inf, np.inf, 0.0], [0.0, -0.0, -1.0, -2.0],
                               [-0.0, 0.0, -3.0, -1.0], [-0.0, -0.0, -0.0, -0.0],
                               [800.0, -800.0, 1e-320, 5.0], [5.0, -1.0, 2.0, 3.0],
                               [3.0, 3.0, -np.inf, np.nan]])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_stacked_softmax_ties_nans_infs_bit_for_bit(x, n, compiled, monkeypatch):
    """STACK_SOFTMAX1 (its max taken from operand 1 on, then operand 0's turn; its sum from
    exp(operand 0 - max)) against the unfused SOFTMAX1 and the general interpreters: ties
    (the first kept), nans (the first wins), infs and signed zeros, operand 0 the largest
    or not, bit for bit; groups of 4 (their size a literal in the interpreters) and of 3
    and 5 (a size read from the code)."""
    _stacked_softmax_three_ways(np.array(x + [0.25])[:n], monkeypatch)


def _stacked_softmax_three_ways(x, monkeypatch):
    p = tg.trace(_chained_softmaxes, np.linspace(0.1, 0.5, len(x)))._make_plan()
    programs = [_packed(p, True, monkeypatch), _packed(p, False, monkeypatch),
                p.packed(lowered=False)]
    ncf, _, _, words = lower.point_program(p.fwd, p.rev, p.offs, p.meta, p.consts, p.out_slot)
    assert STACK_SOFTMAX1 in words.view(np.int32)[:4 * ncf:4]  # (the case under test)
    (r, want), *others = [_run(q, p, x) for q in programs]
    for r2, got in others:
        assert r2 == r == 0
        np.testing.assert_array_equal(_bits(got), _bits(want))


_GROUP_VALUE = st.one_of(st.floats(-40.0, 40.0),
                         st.sampled_from([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-320, 700.0]))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(x=st.lists(_GROUP_VALUE, min_size=2, max_size=8), top=st.sampled_from([0, 1, 2]))
def test_random_stacked_softmaxes_bit_for_bit(x, top, compiled):
    """Chained groups of 2 .. 8 drawn values (specials among them) as above; ``top``: 1,
    operand 0 made the largest; 2, tied with the largest of the others (operand 0 takes
    the max: the first of the largest)."""
    x = np.array(x)
    rest = x[1:][~np.isnan(x[1:])]
    if top and len(rest):
        x[0] = rest.max() + (1.0 if top == 1 else 0.0)
    with pytest.MonkeyPatch.context() as m:
        _stacked_softmax_three_ways(x, m)


def _random_graph(steps):
    """f(x) from ``steps``: each adds nodes made from earlier ones (a chain's partial sums
    and a softmax's values are nodes too: read again, added to themselves)."""
    def f(x):
        nodes = [x[0], x[1], x[2]]
        for kind, i, j, n in steps:
            a, b = nodes[i % len(nodes)], nodes[j % len(nodes)]
            if kind == "chain":  # a + b + .. (ADD first), every partial sum a node
                for m in range(n):
                    a = a + nodes[(j + 3 * m) % len(nodes)]
                    nodes.append(a)
            elif kind == "sum":  # sum() from 0.0: ADD_C first
                nodes.append(sum(nodes[-n:]))
            elif kind in ("softmax", "log_softmax"):
                v = tg.stack([nodes[(i + m) % len(nodes)] for m in range(n)])
                y = getattr(F, kind)(v, dim=0)
                nodes.extend(y[m] for m in range(n))
            elif kind == "stack_read":  # a softmax's stack read again (through a view)
                v = tg.stack([nodes[(i + m) % len(nodes)] for m in range(n)])
                nodes.extend(F.softmax(v, dim=0)[m] for m in range(n))
                nodes.append(v[j % n] * 1.5)
            elif kind == "const":  # a constant of the arena (a LOAD), scalar or not
                c = tg.tensor(np.linspace(0.5, 1.5, n) if n > 1 else 0.75)
                nodes.append((a * c).sum() if n > 1 else a * c)
            elif kind == "mul":
                nodes.append(a * b)
            elif kind == "softplus":
                nodes.append(F.softplus(a))
            else:  # a bounded value
                nodes.append(a.sin() + 1.5)
        return nodes[-1] + nodes[-2] * nodes[-3]
    return f


_STEP = st.tuples(st.sampled_from(["chain", "sum", "softmax", "log_softmax", "stack_read",
                                   "const", "mul", "softplus", "sin"]),
                  st.integers(0, 50), st.integers(0, 50), st.integers(1, 10))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(steps=st.lists(_STEP, min_size=3, max_size=25),
       x=st.lists(st.floats(-3.0, 3.0), min_size=3, max_size=3))
def test_random_graphs_fused_equal_unfused_bit_for_bit(steps, x, compiled):
    """Random scalar graphs rich in the fused patterns (chains, sums, stacks read by
    softmaxes of 1 .. 10 values: past SMALL_GROUP, no superinstruction; a stack or a sum
    read again; constants, vector ones run by the general interpreters: no
    superinstructions then): the fused code, the unfused code and the general interpreters
    give the same value and gradient, bit for bit, and the batch interpreters' (which keep
    no values out of their arena) to an ulp."""
    x = np.array(x)
    t = tg.trace(_random_graph(steps), x)
    p = t._make_plan()
    with pytest.MonkeyPatch.context() as m:
        programs = [_packed(p, True, m), _packed(p, False, m), p.packed(lowered=False)]
    (r, want), *others = [_run(q, p, x) for q in programs]
    for r2, got in others:
        assert r2 == r == 0
        np.testing.assert_array_equal(_bits(got), _bits(want))
    V, G, _ = t.run(x[None].copy(), grad=True)
    np.testing.assert_allclose(want, np.append(V[0], G[0]), rtol=1e-12, atol=1e-300)


def test_softplus_of_beta_one_has_its_own_instruction():
    """``F.softplus(c)`` (beta 1.0) lowers to SOFTPLUS1 (the rule with a literal 1.0), beta
    2.0 keeps SOFTPLUS, both ways; their values: the bit-for-bit test on ``scalars``."""
    p = tg.trace(scalars, POINTS[0])._make_plan()
    for rows in (p.fwd, p.rev):
        ops = lower.point_code(rows, p.offs, p.meta, p.consts, [])[:, 0]
        assert (ops == SOFTPLUS1).sum() == 1 and (ops == E.SOFTPLUS).sum() == 1


def test_guard_divergence_on_the_point_path():
    c = tg.compile(mixed)
    c.value_and_grad(POINTS[0])
    for x in POINTS:  # retraces where the guard differs; the values stay eager's
        v, g = c.value_and_grad(x)
        xt = tg.tensor(x, requires_grad=True)
        y = mixed(xt)
        y.backward()
        np.testing.assert_allclose(v, y.item(), rtol=1e-12)
        np.testing.assert_allclose(g, xt.grad.numpy(), rtol=1e-12, atol=1e-14)


_LIBM_POINTS = np.concatenate([
    [np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-320, -1e-320, 709.7, 709.8, 710.0, -708.4, -708.5,
     -745.1, -745.2, -746.0, 1e300, -1e300, 1e-20, -1e-20, -1.0, -0.999999, -1.0000001, 1.0],
    np.random.default_rng(5).standard_normal(2000) * 40.0,
    np.random.default_rng(6).standard_normal(2000)])


@_jit.njit(cache=False)
def _libm_against_numba(x, out):
    for i in range(len(x)):
        out[0, i] = _libm.exp(x[i])
        out[1, i] = np.exp(x[i])
        out[2, i] = _libm.log1p(x[i])
        out[3, i] = np.log1p(x[i])
        out[4, i] = _libm.MATH.exp(x[i])
        out[5, i] = math.exp(x[i])
        out[6, i] = _libm.MATH.log1p(x[i])
        out[7, i] = math.log1p(x[i])
        out[8, i] = _libm.MATH.sin(x[i])
        out[9, i] = math.sin(x[i])
        out[10, i] = _libm.MATH.cos(x[i])
        out[11, i] = math.cos(x[i])
        out[12, i] = _libm.MATH.tanh(x[i])
        out[13, i] = math.tanh(x[i])


def test_libm_bit_for_bit():
    """tapegrad/_libm.py's functions (libm's own, without Numba's bridge and glibc's
    wrappers), compiled, equal Numba's bit for bit: overflow, underflow to subnormals and
    zero, infs, nans, log1p's pole and domain, random points; from Python (interpreted),
    what they stand for: NumPy's exp and log1p, ``math``'s for ``MATH``."""
    out = np.empty((14, len(_LIBM_POINTS)))
    with np.errstate(all="ignore"):
        _libm_against_numba(_LIBM_POINTS, out)
    for i in range(0, 14, 2):
        np.testing.assert_array_equal(out[i].view(np.int64), out[i + 1].view(np.int64))
    assert _libm.exp(0.5) == np.exp(0.5) and _libm.log1p(0.5) == np.log1p(0.5)
    assert _libm.MATH.exp(0.5) == math.exp(0.5) and _libm.MATH.sin(0.5) == math.sin(0.5)


def test_libm_on_float32_and_ints_is_numbas_own():
    """On anything but a float64 (a float32 arena's softmax, an int) the functions are
    Numba's own, the values kernels gave before tapegrad/_libm.py (the float32 reverse
    sweep failed to compile when they took float64 alone)."""
    x = _LIBM_POINTS.astype(np.float32)
    out = np.empty((14, len(x)), np.float32)
    with np.errstate(all="ignore"):
        _libm_against_numba(x, out)
    for i in range(0, 14, 2):
        np.testing.assert_array_equal(out[i].view(np.int32), out[i + 1].view(np.int32))
    ints = np.arange(-40, 41)
    out = np.empty((14, len(ints)))
    _libm_against_numba(ints, out)
    for i in range(0, 14, 2):
        np.testing.assert_array_equal(out[i].view(np.int64), out[i + 1].view(np.int64))


_C = np.linspace(-1.0, 1.0, 40 * 16).reshape(40, 16)


def lazy_mix(x):
    """Lowered rows (scalars, a stack and its softmax) among vector rows reading constants
    (broadcasts folded into BCAST rows, a product, logsumexp): the slots the lowered code
    touches are zeroed before the reverse, the others by the rows first reaching them."""
    a, b = x[0], x[1]
    s = F.softmax(tg.stack([a, b, a * b]), dim=0)
    c = tg.tensor(_C)
    v = (c - x) * x.exp()
    y = (v * v).sum() * s[0] + tg.logsumexp(v, 0).sum() * s[2] + (c @ x).tanh().sum()
    return y * b + a


@pytest.mark.parametrize("lazy", [True, False])
def test_point_reach_lazy_equals_general_interpreter_bit_for_bit(lazy, compiled,
                                                                 monkeypatch):
    """The one-point reverse starts from each slot's reach as batch replay's does
    (``_Plan._point_reach``: constants CONST, and above LAZY_VALUES only the slots the
    lowered code touches zeroed): the same values and gradients as the general
    interpreters and as the plan run by them alone, bit for bit, from a work buffer of
    nans (an adjoint read before it is zeroed or written would show)."""
    monkeypatch.setattr(_sweep, "LAZY_VALUES", 0 if lazy else 1 << 40)
    rng = np.random.default_rng(5)
    x0 = rng.uniform(0.2, 0.9, 16)
    t = tg.trace(lazy_mix, x0)
    plan = t._make_plan()
    ints = plan.packed()
    ncf, ncr = int(ints[6]), int(ints[7])
    n = len(plan.offs) - 1
    p = 9 + 5 * (len(plan.fwd) + len(plan.rev)) + len(plan.offs) + len(plan.meta) + \
        len(plan.in_elems)
    state = ints[p:p + n]
    assert ((state[plan.fill] & 3) == 2).all() and len(plan.fill)
    assert ((state[0::2] & 4) == 0).any() == lazy  # (slots left to the rows reaching them)
    rc = ints[p + n:].view(np.int32)[4 * ncf:4 * (ncf + ncr)].reshape(ncr, 4)
    assert (rc[:, 0] == RUN).any() and (rc[:, 0] != RUN).any()  # (a mixed plan)
    kernel = _kernels._replay_point
    for _ in range(3):
        x = x0 + rng.uniform(-0.05, 0.05, 16)
        got, want = np.empty(16), np.empty(16)
        work = [np.full(plan.point_need(), np.nan) for _ in range(2)]
        assert kernel(ints, x, got, work[0]) == 0
        assert kernel(plan.packed(lowered=False), x, want, work[1]) == 0
        np.testing.assert_array_equal(_bits(np.append(work[0][0], got)),
                                      _bits(np.append(work[1][0], want)))
        V, G, _ = t.run(x[None].copy(), grad=True)
        np.testing.assert_array_equal(_bits(np.append(work[0][0], got)),
                                      _bits(np.append(V[0], G[0])))
    # and against the eager gradient
    xt = tg.tensor(x, requires_grad=True)
    lazy_mix(xt).backward()
    np.testing.assert_allclose(got, xt.grad.numpy(), rtol=1e-12, atol=1e-14)
