"""The one-point kernels that ADBench GMM's replay spends its time in (issue 21), against
the sums they replaced, added in the same order: bit for bit.  Run lengths 0..17 cover the
eight-wide runs' tails (ops/strided.py _lanes), odd sizes the 2 x 2 blocked product's, M
mod 4 the four-row blocks'."""
import numpy as np
import pytest

import tapegrad as tg
from tapegrad.ops import elementwise as E
from tapegrad.ops import linalg as L
from tapegrad.ops import strided as T

LENGTHS = range(18)
u = np.uint64


@pytest.fixture(scope="module", autouse=True)
def compiled():
    tg.warmup()  # (the sweeps compiled, not interpreted: libm's exp and LLVM's may differ)


def _bits(got, want):
    np.testing.assert_array_equal(np.asarray(got).view(np.int64),
                                  np.asarray(want, np.float64).view(np.int64))


def _seq_sum(x, axis, start=None):
    """Sum along ``axis`` one element at a time in index order (from 0.0, or ``start``)."""
    x = np.moveaxis(np.asarray(x, np.float64), axis, 0)
    acc = np.zeros(x.shape[1:]) if start is None else np.array(start, np.float64)
    for row in x:
        acc = acc + row
    return acc


@pytest.mark.parametrize("step", [1, 2, -1, -3, 0])
def test_runs_rev_and_fwd_every_tail(step):
    rng = np.random.default_rng(abs(step))
    for length in LENGTHS:
        for c in (1, 2, 7):
            span = max(1, (length - 1) * abs(step) + 1)
            j = span - 1 if step < 0 else 0  # a negative step walks back from the end
            dst = rng.normal(size=span)
            gy = rng.normal(size=c * length)
            adj = np.concatenate([dst, gy])
            src = np.arange(length) * step + j
            want = adj.copy()
            # the step as the sweep passes it (an int64 from the tape), its index sums
            # wrapping as compiled (a negative step cast by _u)
            st = np.int64(step)
            if step != 0:  # (strided_rev sums a run onto one element itself)
                want[src] = _seq_sum(gy.reshape(c, length), 0, dst[src])
                with np.errstate(all="ignore"):
                    T._runs_rev(adj, adj, u(j), u(span), length, st, c)
                _bits(adj, want)
            vals = np.concatenate([dst, np.full(c * length, np.nan)])
            with np.errstate(all="ignore"):
                T._runs_fwd(vals, u(j), u(span), length, st, c)
            _bits(vals[span:], np.tile(dst[src], c))


@pytest.mark.parametrize("pattern", ["K1d", "1Kd", "1d", "d", "K1", "flip", "t"])
def test_broadcast_and_strided_views_every_length(pattern):
    rng = np.random.default_rng(3)
    K, n = 3, 5
    for d in LENGTHS:
        shape, view = {  # (the leaf's shape, the view taken of it)
            "K1d": ((K, 1, d), lambda x: x.expand(K, n, d)),
            # k-means' centroids: each run of d read once in turn (strided_rev adds in place)
            "1Kd": ((1, K, d), lambda x: x.expand(n, K, d)),
            "1d": ((1, d), lambda x: x.expand(n, d)),
            "d": ((d,), lambda x: x.expand(n, d)),
            "K1": ((K, 1), lambda x: x.expand(K, d)),
            "flip": ((n, d), lambda x: x.flip(-1)),
            "t": ((d, n), lambda x: x.t()),
        }[pattern]
        x0 = rng.normal(size=shape)
        x = tg.tensor(x0, requires_grad=True)
        y = view(x)
        ref = {"K1d": lambda a: np.broadcast_to(a, (K, n, d)),
               "1Kd": lambda a: np.broadcast_to(a, (n, K, d)), "1d": lambda a: np.broadcast_to(
            a, (n, d)), "d": lambda a: np.broadcast_to(a, (n, d)), "K1": lambda a: np.broadcast_to(
            a, (K, d)), "flip": lambda a: a[:, ::-1], "t": lambda a: a.T}[pattern]
        w = rng.normal(size=y.shape)
        (y * tg.tensor(w) + y).sum().backward()
        _bits(y.detach().numpy(), ref(x0))
        g = w + 1.0  # each element's adjoint: gy w + gy, summed over its copies in order
        if pattern in ("flip", "t"):
            want = ref(g)
        else:
            lead = len(g.shape) - len(shape)
            axes = [a for a in range(len(g.shape))
                    if a < lead or shape[a - lead] == 1 and g.shape[a] != 1]
            want = g
            for a in sorted(axes, reverse=True):
                want = _seq_sum(want, a)
            want = want.reshape(shape)
        _bits(x.grad.numpy(), want)
        # the one-point replay: the views' values by strided_fwd (_runs_fwd), read by the
        # product's reverse; the same gradient as eager's (NumPy's views) bit for bit
        wt = tg.tensor(w)
        f = tg.compile(lambda x: (view(x) * view(x) * wt).sum(), fused=False)
        xe = tg.tensor(x0, requires_grad=True)
        (view(xe) * view(xe) * wt).sum().backward()
        _bits(f.value_and_grad(x0)[1], xe.grad.numpy())


@pytest.mark.parametrize("pattern", ["K1d", "flipK", "1Kd"])
def test_short_runs_onto_groups_side_by_side(pattern):
    """strided_rev's short runs onto one gx run per group, four groups at a time
    (_runs_rev4) where their gx runs are disjoint: each gx element's adds in order, as
    group by group; decreasing starts (flipK) take the group-by-group loop.  K = 4..9
    gives whole blocks of four groups and their tails."""
    rng = np.random.default_rng(8)
    n = 3
    for K in range(1, 10):
        for d in range(9):
            shape, view, ref = {
                "K1d": ((K, 1, d), lambda x: x.expand(K, n, d),
                        lambda a: np.broadcast_to(a, (K, n, d))),
                "flipK": ((K, 1, d), lambda x: x.flip(0).expand(K, n, d),
                          lambda a: np.broadcast_to(a[::-1], (K, n, d))),
                "1Kd": ((1, K, d), lambda x: x.expand(n, K, d),
                        lambda a: np.broadcast_to(a, (n, K, d))),
            }[pattern]
            x0 = rng.normal(size=shape)
            w = rng.normal(size=ref(x0).shape)
            want = np.zeros(x0.size)
            idx = ref(np.arange(x0.size, dtype=np.float64).reshape(shape)).astype(np.int64)
            for e, g in zip(idx.reshape(-1), (w + 1.0).reshape(-1), strict=True):
                want[e] = want[e] + g  # (each element's adjoints added in gy's order)
            x = tg.tensor(x0, requires_grad=True)
            y = view(x)
            (y * tg.tensor(w) + y).sum().backward()
            _bits(x.grad.numpy().reshape(-1), want)
            if pattern == "flipK":  # (replay's x * x of a flip then expand differs from
                continue  # eager's by an ulp at K = 1 on main too: not these loops)
            wt = tg.tensor(w)  # the one-point replay's sweep: the same bits
            f = tg.compile(lambda x: (view(x) * view(x) * wt).sum(), fused=False)
            xe = tg.tensor(x0, requires_grad=True)
            (view(xe) * view(xe) * wt).sum().backward()
            _bits(f.value_and_grad(x0)[1], xe.grad.numpy())


@pytest.mark.parametrize("kind", ["disjoint", "overlap", "back", "gap", "reversed", "carry"])
def test_strided_rev_groups_against_the_map_in_order(kind):
    """strided_rev on maps whose runs come in groups of n onto one gx run: the four-group
    loop only where four groups of equal runs land on disjoint, increasing gx runs
    (overlap: each run one element past the last, as no view makes today; back:
    decreasing; carry: (2, 9, n, d) with the odometer's carry landing on the same gx run,
    one group of 2n runs followed by groups of n), each gx element's adds in gy's order
    (the map walked element by element)."""
    rng = np.random.default_rng(10)
    n = 3
    for K in range(1, 10):
        for d in range(1, 8):
            shape, strides, base = {
                "disjoint": ((K, n, d), (d, 0, 1), 0), "overlap": ((K, n, d), (1, 0, 1), 0),
                "back": ((K, n, d), (-d, 0, 1), (K - 1) * d),
                "gap": ((K, n, d), (2 * d + 1, 0, 1), 0),
                "reversed": ((K, n, d), (d, 0, -1), d - 1),
                "carry": ((2, 9, n, d), (8 * d, d, 0, 1), 0)}[kind]
            meta = np.array(T._strided_meta(shape, strides, base), np.int64)
            N = int(np.prod(shape))
            src = [T.strided_index(i, meta, 0) for i in range(N)]
            size = max(src) + 1
            adj = rng.normal(size=size + N)
            want = adj.copy()
            for i, e in enumerate(src):
                want[e] = want[e] + adj[size + i]
            with np.errstate(all="ignore"):
                T.strided_rev(adj, adj, meta, u(size), u(0), N, 0, 1)
            _bits(adj, want)


@pytest.mark.parametrize("op", ["sum", "mean"])
def test_sum_over_a_dim_every_length(op):
    rng = np.random.default_rng(4)
    K, n = 2, 3
    for d in LENGTHS[op == "mean":]:  # (a mean over no elements is nan, its scale 1/0)
        x0 = rng.normal(size=(K, n, d))
        v, w, w1 = (rng.normal(size=s) for s in ((K, n, d), (K, n), (K, d)))
        for first in (True, False):  # x's adjoint written by the reduction, or added to
            x = tg.tensor(x0, requires_grad=True)
            red = getattr(x, op)
            if first:
                loss = (red(2) * tg.tensor(w)).sum() + (red(1) * tg.tensor(w1)).sum()
            else:
                loss = (x * tg.tensor(v)).sum() + (red(2) * tg.tensor(w)).sum()
            loss.backward()
            s2 = 1.0 if op == "sum" else (K * n) / (K * n * d) if d else 0.0
            s1 = 1.0 if op == "sum" else (K * d) / (K * n * d) if d else 0.0
            if first:  # the sweep: the last row first (red(1)'s, then red(2)'s)
                want = (0.0 + np.broadcast_to((w1 * s1)[:, None, :], (K, n, d))) \
                    + (w * s2)[:, :, None]
            else:
                want = (0.0 + (w * s2)[:, :, None]) + v
            _bits(x.grad.numpy(), want)


def _mm1_rev_ref(adj, vals, o, a, b, M, K, N, need_a, need_b, bt):
    """_mm_loop1_rev before its 2 x 2 blocks: one sum at a time, in the same order."""
    sk, sn = (1, K) if bt else (N, 1)
    if need_a:
        for m in range(M):
            for k in range(K):
                acc = adj[a + m * K + k]
                for n in range(N):
                    acc += adj[o + m * N + n] * vals[b + k * sk + n * sn]
                adj[a + m * K + k] = acc
    if need_b:
        for k in range(K):
            for n in range(N):
                acc = adj[b + k * sk + n * sn]
                for m in range(M):
                    acc += vals[a + m * K + k] * adj[o + m * N + n]
                adj[b + k * sk + n * sn] = acc


def _mm1_ref(vals, o, a, b, M, K, N, bt):
    """_mm_loop1 before its four-row blocks: one sum at a time from 0.0, k ascending."""
    sk, sn = (1, K) if bt else (N, 1)
    for m in range(M):
        for n in range(N):
            acc = vals.dtype.type(0.0)
            for k in range(K):
                acc = acc + vals[a + m * K + k] * vals[b + k * sk + n * sn]
            vals[o + m * N + n] = acc


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_small_product_forward_in_blocks_every_size(dtype):
    rng = np.random.default_rng(9)
    for M in range(1, 11):
        for K in (0, 1, 2, 3, 5):
            for N in (1, 2, 3, 7):
                for bt in (False, True):
                    a, b, o = 0, M * K, M * K + K * N
                    vals = rng.normal(size=o + M * N).astype(dtype)
                    vals[0] = -0.0  # (0.0 + -0.0 is +0.0: the sums start from 0.0)
                    want = vals.copy()
                    _mm1_ref(want, o, a, b, M, K, N, bt)
                    L._mm_loop1(vals, u(o), u(a), u(b), u(M), u(K), u(N), bt)
                    np.testing.assert_array_equal(vals.view(f"i{vals.itemsize}"),
                                                  want.view(f"i{want.itemsize}"))


def test_small_product_reverse_in_blocks_every_odd_size():
    rng = np.random.default_rng(5)
    for M in (1, 2, 3, 4, 5, 7, 8, 9):
        for K in (1, 2, 3, 4, 5):
            for N in (1, 2, 3, 7):
                for bt in (False, True):
                    for need in ((True, True), (True, False), (False, True)):
                        a, b, o = 0, M * K, M * K + K * N
                        vals = rng.normal(size=o + M * N)
                        adj = rng.normal(size=o + M * N)
                        want = adj.copy()
                        _mm1_rev_ref(want, vals, o, a, b, M, K, N, *need, bt)
                        L._mm_loop1_rev(adj, vals, u(o), u(a), u(b), u(M), u(K), u(N),
                                        *need, bt)
                        _bits(adj, want)


def test_small_product_gradient_as_batched_replay():
    """(5, 7, 2) @ (5, 2, 3): the one-point loop (_mm_loop1_rev) and the batch's
    (_mm_loop_rev over w points) sum alike."""
    rng = np.random.default_rng(6)
    f = tg.compile(lambda A, B: ((A @ B) * (A @ B)).sum(), argnums=(0, 1), fused=False)
    pts = [(rng.normal(size=(5, 7, 2)), rng.normal(size=(5, 2, 3))) for _ in range(4)]
    f.value_and_grad(*pts[0])
    t = next(iter(f.traces.values()))[0]
    V, G = t.value_and_grad_batch(*[np.stack(p) for p in zip(*pts, strict=True)])
    for i, p in enumerate(pts):
        v, g = f.value_and_grad(*p)
        _bits(v, V[i])
        for gb, gp in zip(G, g, strict=True):
            _bits(gp, gb[i])


@pytest.mark.parametrize("dims", [0, 1, (0, 1), -1])
def test_logsumexp_one_point_as_batch(dims):
    """logsumexp at one point walks its map by runs (_logsumexp_fwd1); a batch block by
    its groups: the same max, sum and gradient bit for bit, -inf and nan included."""
    rng = np.random.default_rng(7)
    f = tg.compile(lambda x: (tg.logsumexp(x, dims) * 1.5).sum(), fused=False)
    for K in (1, 3, 5):
        for n in (1, 4, 17):
            pts = [rng.normal(size=(K, n)) * 30 for _ in range(3)]
            pts[1][0, 0] = -np.inf
            pts[2][:, 0] = -np.inf  # a whole group at -inf (its shift is 0)
            pts.append(np.where(rng.random((K, n)) < 0.2, np.nan, pts[0]))
            f.value_and_grad(pts[0])
            t = f.traces[((K, n),)][0]
            V, G = t.value_and_grad_batch(np.stack(pts))
            for i, p in enumerate(pts):
                v, g = f.value_and_grad(p)
                _bits(v, V[i])
                _bits(g, G[i])


def test_mul_writes_a_first_reached_adjoint():
    """x * y's reverse writes x's adjoint when x is first reached there (no zero fill):
    a -0.0 product comes out +0.0, as zeroing then adding gave; a later row adds to it."""
    x = tg.tensor([1.0, 2.0, -3.0, 0.5], requires_grad=True)
    y = tg.tensor([-0.0, 4.0, 0.0, 2.0], requires_grad=True)
    (x * y).sum().backward()
    _bits(x.grad.numpy(), [0.0, 4.0, 0.0, 2.0])
    _bits(y.grad.numpy(), [1.0, 2.0, -3.0, 0.5])
    x.grad = None
    y.grad = None
    ((x * 3.0).sum() + (x * y).sum() + (x * x).sum()).backward()
    _bits(x.grad.numpy(), ((np.array([0.0, 4.0, 0.0, 2.0]) + 2 * x.detach().numpy())
                           + 3.0))


def _replayed(fn, args, fold, batch):
    """fn's replay (value and gradients, one point or a batch of them) with broadcasts
    folded into their readers (BCAST rows) or kept as EXPAND rows; and the plan's opcodes."""
    from tapegrad import replay
    old = replay.FOLD_BROADCASTS, replay.FOLD_MIN_RUN, replay.FOLD_SHORT_VALUES
    # (every run length, here, at any size)
    replay.FOLD_BROADCASTS, replay.FOLD_MIN_RUN, replay.FOLD_SHORT_VALUES = fold, 0, 0
    try:
        c = tg.compile(fn, argnums=tuple(range(len(args))))
        if batch:
            out = c.value_and_grad_batch(*[np.stack([a, a[::-1] if a.ndim else a, -a])
                                           for a in args])
        else:
            out = c.value_and_grad(*args)
        t = next(iter(c.traces.values()))[0]
        return out, t._make_plan().fwd[:, 0]
    finally:
        replay.FOLD_BROADCASTS, replay.FOLD_MIN_RUN, replay.FOLD_SHORT_VALUES = old


def _bits_all(got, want):
    """Bit for bit, a nan but for its sign (IEEE 754 leaves a nan result's sign open, and
    LLVM may swap a commutative op's operands: which nan propagates)."""
    for x, y in zip(_flat(got), _flat(want), strict=True):
        x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
        np.testing.assert_array_equal(np.isnan(x), np.isnan(y))
        _bits(np.where(np.isnan(x), 0.0, x), np.where(np.isnan(y), 0.0, y))


def _flat(out):
    v, g = out
    return [v, *(g if isinstance(g, tuple) else (g,))]


SPECIALS = np.array([-0.0, 0.0, np.nan, np.inf, -np.inf, -2.5, 1e-310])


@pytest.mark.parametrize("kind", ["add", "sub", "rsub", "mul"])
@pytest.mark.parametrize("bshape", [(1, 5, 7), (3, 1, 7), (3, 5, 1), (7,), (5, 1), (1, 1, 1),
                                    (1, 5, 1)])
@pytest.mark.parametrize("batch", [False, True])
def test_folded_broadcast_as_the_expand(kind, bshape, batch):
    """A broadcast folded into its add/sub/mul (replay._fold_broadcasts, ops/strided.py
    BCAST): values and gradients bit for bit those of the EXPAND row and the op, at one
    point and in a batch (w > 1), broadcast along each axis, odd sizes, with -0.0, nan,
    +-inf and a subnormal among the values and the weights."""
    rng = np.random.default_rng(len(bshape) + sum(bshape))
    A = rng.normal(size=(3, 5, 7))
    B = rng.normal(size=bshape)
    A.flat[:len(SPECIALS)] = SPECIALS
    B.flat[0] = -0.0
    if B.size > 2:
        B.flat[1:3] = (np.inf, np.nan)
    W = rng.normal(size=(3, 5, 7))
    W.flat[::5] = -0.0
    ops = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b,
           "rsub": lambda a, b: b - a, "mul": lambda a, b: a * b}

    def f(a, b):
        y = ops[kind](a, b)
        return (y * tg.tensor(W)).sum() + (y * y).sum()

    def f_const(b):  # the full operand a constant (its adjoint not kept)
        return f(tg.tensor(A), b)

    for fn, args in ((f, (A, B)), (f_const, (B,))):
        got, codes = _replayed(fn, args, True, batch)
        want, codes0 = _replayed(fn, args, False, batch)
        assert T.BCAST in codes and T.BCAST not in codes0
        assert (codes == T.EXPAND).sum() == (codes0 == T.EXPAND).sum() - 1
        _bits_all(got, want)


def test_broadcast_into_another_op_is_not_folded():
    """An implicit broadcast read by a row other than add/sub/mul (here div) stays a row."""
    B = np.arange(1.0, 8.0)

    def f(b):
        return (tg.tensor(np.ones((3, 7))) / b).sum()

    (v, g), codes = _replayed(f, (B,), True, False)
    assert T.BCAST not in codes and T.EXPAND in codes
    np.testing.assert_allclose(g, -3 / B**2, rtol=1e-15)


def test_short_runs_are_not_folded():
    """Broadcasts whose last-dim runs are shorter than FOLD_MIN_RUN stay EXPAND rows (runs
    of 1: a copy of one element a run); from it on they fold, but runs shorter than
    FOLD_SHORT_RUN only in plans of FOLD_SHORT_VALUES values or more (ADBench GMM d = 2:
    K = 5 ran 1.36x slower folded, K = 100 faster)."""
    from tapegrad import replay
    for n in (3, replay.FOLD_SHORT_VALUES // 2):
        for d in (replay.FOLD_MIN_RUN - 1, replay.FOLD_MIN_RUN, replay.FOLD_SHORT_RUN - 1,
                  replay.FOLD_SHORT_RUN):
            t = tg.trace(lambda b: (tg.tensor(np.ones((n, d))) * b).sum(),
                         np.arange(d, dtype=float))
            p = t._make_plan()
            want = d >= replay.FOLD_SHORT_RUN or d >= replay.FOLD_MIN_RUN and \
                len(p.vals0) >= replay.FOLD_SHORT_VALUES
            assert (T.BCAST in p.fwd[:, 0]) == want, (n, d)
            assert want or n == 3 or d < replay.FOLD_MIN_RUN  # (both sizes met)


@pytest.mark.parametrize("form", ["x-m", "m-x", "x*m", "m+x", "a-m", "m*a"])
@pytest.mark.parametrize("batch", [False, 1])
def test_short_broadcast_runs_tiled(form, batch):
    """A folded broadcast over a middle dim with runs shorter than T.TILE_RUN, (K, 1, L) ->
    (K, n, L), its forward run against a tile of the source run (ops/strided.py
    _bc_fwd_tiled): values and gradients bit for bit the EXPAND rows', at run lengths
    around TILE_RUN and group sizes n * L around the tile's (T.TILE), either side, sub,
    add and mul, the full operand a constant (x, read from its first copy) or a parameter
    (a); and against HIPS autograd."""
    ag = pytest.importorskip("autograd")
    anp = pytest.importorskip("autograd.numpy")
    rng = np.random.default_rng(41)
    K = 3
    for L in (1, 2, 3, 5, 11, T.TILE_RUN, T.TILE_RUN + 1):
        for n in (1, 2, 21, T.TILE // L, T.TILE // L + 1, 2 * T.TILE // L + 3):
            x = rng.normal(size=(n, L))
            x.flat[:min(x.size, len(SPECIALS))] = SPECIALS[:x.size]
            M = rng.normal(size=(K, 1, L))
            M.flat[0] = -0.0
            A = rng.normal(size=(K, n, L))
            W = rng.normal(size=(K, n, L))

            def make(wrap):
                def fn(m, a):
                    y = {"x-m": lambda: x[None] - m, "m-x": lambda: m - x[None],
                         "x*m": lambda: x[None] * m, "m+x": lambda: m + x[None],
                         "a-m": lambda: a - m, "m*a": lambda: m * a}[form]()
                    return (y * wrap(W)).sum() + (y * y * wrap(W)).sum()
                return fn

            fn = make(tg.tensor)
            got, plan = _replayed_with(fn, (M, A), batch)
            want, plan0 = _replayed_with(fn, (M, A), batch, FOLD_BROADCASTS=False)
            folds = n > 1  # (n = 1: no broadcast of m; _replayed_with folds any run)
            assert (T.BCAST in plan.fwd[:, 0]) == folds and T.BCAST not in plan0.fwd[:, 0]
            _bits_all(got, want)
            if not np.isfinite(x).all():
                x[~np.isfinite(x)] = 1.5
                got, _ = _replayed_with(fn, (M, A), batch)
            ref = make(anp.asarray)
            v, g = got
            np.testing.assert_allclose(v, ref(M, A), rtol=1e-12)
            for i, gi in enumerate(g):
                np.testing.assert_allclose(gi, ag.grad(ref, i)(M, A), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kind", ["sub", "mul"])
def test_folded_gmm_broadcast_every_length(kind):
    """GMM's folded broadcasts, (K, 1, d) -> (K, n, d) read by a sub (x - mu, x a
    constant: only the source's adjoint) and a mul (exp(q) * xc: both adjoints), at every
    d = 0..17 (the runs' tails): one point and a one-point batch (w = 1: its constants
    copied as slices), bit for bit the EXPAND rows' results."""
    rng = np.random.default_rng(5)
    K, n = 3, 4
    for d in LENGTHS:
        X = rng.normal(size=(n, d))
        M, Q = rng.normal(size=(K, 1, d)), rng.normal(size=(K, 1, d))
        W = rng.normal(size=(K, n, d))
        if d:
            M.flat[0], W.flat[0] = -0.0, -0.0

        def f(m, q):
            xc = tg.tensor(X) - m
            y = q * xc if kind == "mul" else xc
            return (y * tg.tensor(W)).sum() + (y * y).sum()

        got, codes = _replayed(f, (M, Q), True, False)
        want, codes0 = _replayed(f, (M, Q), False, False)
        assert (T.BCAST in codes) == (d > 0) and T.BCAST not in codes0
        _bits_all(got, want)
        c = tg.compile(f, argnums=(0, 1))
        v, g = c.value_and_grad_batch(M[None], Q[None])
        _bits_all((v[0], tuple(a[0] for a in g)), want)


def _replayed_squares(fn, args, fold, batch):
    from tapegrad import replay
    old = replay.FOLD_SQUARES
    replay.FOLD_SQUARES = fold
    try:
        return _replayed(fn, args, True, batch)
    finally:
        replay.FOLD_SQUARES = old


@pytest.mark.parametrize("dims", [(2,), (1,), (0,), (1, 2), (0, 1, 2)])
@pytest.mark.parametrize("batch", [False, True])
def test_folded_sum_of_squares(dims, batch):
    """x * x read only by a sum over dims, folded into one SQSUM row (replay._fold_squares):
    values and gradients bit for bit the two rows', at one point and in a batch, with
    -0.0, nan, +-inf and a subnormal among the values, every last-dim length 0..17."""
    rng = np.random.default_rng(len(dims))
    for d in LENGTHS:
        A = rng.normal(size=(3, 5, d))
        A.flat[:min(A.size, len(SPECIALS))] = SPECIALS[:A.size]
        W = rng.normal(size=(3, 5, d))
        W.flat[::3] = -0.0

        def f(a):
            y = a * tg.tensor(W) + a  # (x read by the product only: its adjoint first there)
            s = (y * y).sum(dims)
            return (s * s).sum() if s.ndim else s * s

        got, codes = _replayed_squares(f, (A,), True, batch)
        want, codes0 = _replayed_squares(f, (A,), False, batch)
        assert (T.SQSUM in codes or d == 0) and T.SQSUM not in codes0
        _bits_all(got, want)


def test_square_read_twice_is_not_folded():
    """A product x * x that another row reads too stays a row."""
    A = np.arange(1.0, 7.0).reshape(2, 3)

    def f(a):
        y = a * a
        return (y.sum(1) * y[:, 0]).sum()

    (_, g), codes = _replayed_squares(f, (A,), True, False)
    assert T.SQSUM not in codes
    x = tg.tensor(A, requires_grad=True)
    f(x).backward()
    np.testing.assert_allclose(g, x.grad.numpy(), rtol=1e-15)


def _replayed_sums(fn, args, fold, batch):
    """_replayed with the add under a sum of squares folded into its SQSUM row or not; batch
    "one": a batch of one point (the batch kernel at w = 1, what GMM's large arenas take)."""
    from tapegrad import replay
    old = replay.FOLD_SQUARED_SUMS
    replay.FOLD_SQUARED_SUMS = fold
    try:
        if batch != "one":
            return _replayed(fn, args, True, batch)
        c = tg.compile(fn, argnums=tuple(range(len(args))))
        v, g = c.value_and_grad_batch(*[a[None] for a in args])
        t = next(iter(c.traces.values()))[0]
        return (v[0], tuple(x[0] for x in g)), t._make_plan().fwd[:, 0]
    finally:
        replay.FOLD_SQUARED_SUMS = old


@pytest.mark.parametrize("dims", [(2,), (0,), (1, 2)])
@pytest.mark.parametrize("batch", [False, True, "one"])
def test_folded_add_under_a_sum_of_squares(dims, batch):
    """sum((u + v)^2) with the add read only by the square: one SQSUM row reading u and v
    (replay._fold_squares), bit for bit the rows' values and gradients, at one point, in a
    batch and in a batch of one, every last-dim length 0..17, with -0.0, nan, +-inf and a
    subnormal; u a product read later again, v a constant; an operand read between the
    add and the sum keeps the add a row."""
    rng = np.random.default_rng(7 + len(dims))
    for d in LENGTHS:
        A = rng.normal(size=(3, 5, d))
        A.flat[:min(A.size, len(SPECIALS))] = SPECIALS[:A.size]
        B = rng.normal(size=(3, 5, d))
        W = rng.normal(size=(3, 5, d))
        W.flat[::3] = -0.0

        def f(a, b):  # (u read again after the sum: its adjoint's terms added after)
            u = a * tg.tensor(W)
            x = u + b
            s = (x * x).sum(dims)
            return (s * s).sum() + (u * b).sum()

        def f_const(a):  # v a constant: only u's adjoint
            x = a * tg.tensor(W) + tg.tensor(B)
            return ((x * x).sum(dims) ** 2).sum()

        def f_between(a, b):  # a row between the add and the sum reads u: not folded
            u = a * tg.tensor(W)
            x = u + b
            e = u.exp()
            return (x * x).sum(dims).sum() + e.sum()

        for fn, args, folds in ((f, (A, B), True), (f_const, (A,), True),
                                (f_between, (A, B), False)):
            got, codes = _replayed_sums(fn, args, True, batch)
            want, codes0 = _replayed_sums(fn, args, False, batch)
            adds, adds0 = (codes == E.ADD).sum(), (codes0 == E.ADD).sum()
            assert adds == adds0 - 1 if folds and d else adds == adds0 or not d
            _bits_all(got, want)


def test_constants_kept_between_batch_calls():
    """A batch call of one block skips copying the constants its buffer holds from the last
    such call of the same plan (replay._run_blocks): alternating two traces of one shape
    with other constants, and batches of one and of three points, give each its own."""
    rng = np.random.default_rng(11)
    A = rng.normal(size=(4, 50))
    C1, C2 = rng.normal(size=(4, 50)), rng.normal(size=(4, 50))

    def make(C):
        return tg.compile(lambda a: ((a - tg.tensor(C)) ** 2).sum(), argnums=(0,))

    f1, f2 = make(C1), make(C2)
    want = {id(f1): ((A - C1) ** 2).sum(), id(f2): ((A - C2) ** 2).sum()}
    for f in (f1, f2, f1, f1, f2, f2, f1):
        for X in (A[None], A[None], np.stack([A, A, A]), A[None]):
            v, g = f.value_and_grad_batch(X)
            np.testing.assert_allclose(v, want[id(f)], rtol=1e-13)


def _replayed_with(fn, args, batch, **switches):
    """fn's replay with broadcasts folded (every run length) and replay's ``switches`` set
    (CHAIN_BROADCASTS=...); batch: False (one point), 3 (three points, w = 3) or 1 (a batch
    of one: the batch kernel at w = 1).  Returns ((value, gradients), the plan)."""
    from tapegrad import replay
    switches["FOLD_MIN_RUN"] = 0
    switches["FOLD_SHORT_VALUES"] = 0
    old = {k: getattr(replay, k) for k in switches}
    for k, v in switches.items():
        setattr(replay, k, v)
    try:
        c = tg.compile(fn, argnums=tuple(range(len(args))))
        if batch:
            X = [np.stack([a, -a, a[::-1]][:batch]) for a in args]
            v, g = c.value_and_grad_batch(*X)
            out = (v, g) if batch > 1 else (v[0], tuple(x[0] for x in g))
        else:
            out = c.value_and_grad(*args)
        return out, next(iter(c.traces.values()))[0]._make_plan()
    finally:
        for k, v in old.items():
            setattr(replay, k, v)


def _replayed_chain(fn, args, chain, batch):
    """_replayed_with an add or sub broadcast's reverse chained into the product's reading
    it (replay.CHAIN_BROADCASTS) or not; returns (results, the plan's reverse opcodes)."""
    out, plan = _replayed_with(fn, args, batch, CHAIN_BROADCASTS=chain)
    return out, plan.rev[:, 0]


@pytest.mark.parametrize("sub", ["x-m", "m-x", "x+m", "const-m"])
@pytest.mark.parametrize("batch", [False, 1, 3])
def test_chained_broadcast_reverse_every_length(sub, batch):
    """ADBench GMM's exp(q) * (x - mu), both (K, 1, d) -> (K, n, d) broadcasts folded, with
    xc = x - mu also read later by a product (its adjoint's last terms the mul's): the
    sub's reverse chained into the mul's pass (ops/strided.py bcast_chain_rev) gives the
    values and gradients of the two rows' reverses bit for bit, every d = 0..17, at one
    point, a batch of one and of three, with -0.0, nan, +-inf and a subnormal among the
    values, for x - mu, mu - x (a negated full operand), x + mu and a constant x."""
    rng = np.random.default_rng(13)
    K, n = 3, 4
    for d in LENGTHS:
        X = rng.normal(size=(K, n, d))
        M, Q = rng.normal(size=(K, 1, d)), rng.normal(size=(K, 1, d))
        Lt = rng.normal(size=(K, d, d))
        X.flat[:min(X.size, len(SPECIALS))] = SPECIALS[:X.size]
        if d:
            M.flat[0], Q.flat[-1] = -0.0, 1e-310

        def xc_of(x, m):
            return {"x-m": lambda: x - m, "m-x": lambda: m - x, "x+m": lambda: x + m,
                    "const-m": lambda: tg.tensor(X) - m}[sub]()

        def body(xc, q):
            y = q * xc + xc @ tg.tensor(Lt)
            return (y * y).sum(2).sum() + (xc * xc).sum()

        fn, args = ((lambda m, q: body(xc_of(None, m), q)), (M, Q)) if sub == "const-m" else \
            ((lambda x, m, q: body(xc_of(x, m), q)), (X, M, Q))
        got, rev = _replayed_chain(fn, args, True, batch)
        want, rev0 = _replayed_chain(fn, args, False, batch)
        assert len(rev) == len(rev0) - (d > 0)
        _bits_all(got, want)
        if d and not batch:  # and against the unfolded rows (EXPAND)
            _bits_all(got, _replayed(fn, args, False, False)[0])


def test_chain_needs_the_product_to_read_first():
    """A row reading xc before the product (its adjoint terms added after the product's),
    or reading mu (here through a view made before: the plan may alias the two) between
    the sub and the product, keeps the sub's reverse a row of its own."""
    X = np.arange(24.0).reshape(2, 12) / 7

    def f(m, q):
        xc = tg.tensor(X) - m
        e = xc.exp().sum()
        return (q * xc).sum() + e

    def f_view(m, q):
        mv = m.reshape(12)
        xc = tg.tensor(X) - m
        e = (mv * 3.0).sum()
        return (q * xc).sum() + e

    M, Q = np.full((1, 12), 0.1), np.full((1, 12), 2.0)
    for fn in (f, f_view):
        (_, g), rev = _replayed_chain(fn, (M, Q), True, False)
        (_, g0), rev0 = _replayed_chain(fn, (M, Q), False, False)
        assert len(rev) == len(rev0)
        _bits_all((0.0, g), (0.0, g0))


def _replayed_shared(fn, args, share, batch):
    """_replayed_with u's adjoint under a sum of (u + v)^2 shared with v's
    (replay.SHARE_SQUARE_ADJOINTS) or stored; returns (results, whether a BCAST row reads
    another slot's adjoint as its output's)."""
    out, p = _replayed_with(fn, args, batch, SHARE_SQUARE_ADJOINTS=share)
    return out, bool((p.meta[p.rev[p.rev[:, 0] == T.BCAST, 4] + 4] >= 0).any())  # (rev:
    # the product's forward may be left out, _unstored_squares)


@pytest.mark.parametrize("chain", [True, False])
@pytest.mark.parametrize("batch", [False, 1, 3])
def test_shared_square_adjoints_every_length(chain, batch):
    """ADBench GMM's sum((exp(q) * xc + xc @ L^T)^2): the SQSUM row stores only v's
    adjoint and the product BCAST reads it as u's (replay._share_square_adjoints): values
    and gradients bit for bit the stored adjoints', every d = 0..17, at one point, a batch
    of one and of three, with -0.0, nan, +-inf and a subnormal, the sub's reverse chained
    into the product's or not."""
    from tapegrad import replay
    rng = np.random.default_rng(17)
    K, n = 3, 4
    old = replay.CHAIN_BROADCASTS
    replay.CHAIN_BROADCASTS = chain
    try:
        for d in LENGTHS:
            X = rng.normal(size=(K, n, d))
            X.flat[:min(X.size, len(SPECIALS))] = SPECIALS[:X.size]
            M, Q = rng.normal(size=(K, 1, d)), rng.normal(size=(K, 1, d))
            Lt = rng.normal(size=(K, d, d))
            if d:
                M.flat[0], Q.flat[-1] = -0.0, 1e-310

            def fn(m, q, lt):
                xc = tg.tensor(X) - m
                y = q.exp() * xc + xc @ lt
                return (y * y).sum(2).sum()

            got, shared = _replayed_shared(fn, (M, Q, Lt), True, batch)
            want, shared0 = _replayed_shared(fn, (M, Q, Lt), False, batch)
            assert shared == (d > 0) and not shared0
            _bits_all(got, want)
    finally:
        replay.CHAIN_BROADCASTS = old


def test_square_adjoints_not_shared_when_read_elsewhere():
    """u (or v) read by another row too gets adjoint terms of its own: both stay stored."""
    rng = np.random.default_rng(19)
    X, M, Q = rng.normal(size=(2, 3, 9)), rng.normal(size=(2, 1, 9)), rng.normal(size=(2, 1, 9))
    W = rng.normal(size=(2, 9, 9))

    def f_u(m, q):
        u = q * (tg.tensor(X) - m)
        y = u + u @ tg.tensor(W)
        return (y * y).sum(2).sum() + u.sum()

    def f_v(m, q):
        xc = tg.tensor(X) - m
        v = xc @ tg.tensor(W)
        y = q * xc + v
        return (y * y).sum(2).sum() + (v * v).sum()

    for fn in (f_u, f_v):
        got, shared = _replayed_shared(fn, (M, Q), True, False)
        want, _ = _replayed_shared(fn, (M, Q), False, False)
        assert not shared
        _bits_all(got, want)


def _replayed_unstored(fn, args, on, batch):
    """_replayed_with u's values under a shared sum of (u + v)^2 made by the SQSUM row
    (replay.UNSTORED_SQUARES) or stored by the product BCAST row; returns (results, whether
    an SQSUM row makes u, its maker left out of the plan's forward)."""
    out, p = _replayed_with(fn, args, batch, UNSTORED_SQUARES=on)
    made = [p.meta[k - 1] for k in p.fwd[p.fwd[:, 0] == T.SQSUM, 4] if p.meta[k] & 2]
    assert all(k not in p.fwd[p.fwd[:, 0] == T.BCAST, 4] for k in made)
    assert all(k in p.rev[p.rev[:, 0] == T.BCAST, 4] for k in made)
    return out, bool(made)


@pytest.mark.parametrize("form", ["q*xc", "xc*q", "x-m"])
@pytest.mark.parametrize("batch", [False, 1, 3])
def test_unstored_square_terms_every_length(form, batch):
    """ADBench GMM's sum((exp(q) * xc + xc @ L^T)^2) with u = exp(q) * xc made by the SQSUM
    row in both sweeps instead of stored (replay._unstored_squares): values and gradients
    bit for bit the stored plan's, every d = 0..17, at one point, a batch of one and of
    three, with -0.0, nan, +-inf and subnormals, the source on either side of the product
    (or a constant xc: no sub chained into the product's reverse)."""
    rng = np.random.default_rng(23)
    K, n = 3, 4
    for d in LENGTHS:
        X = rng.normal(size=(K, n, d))
        X.flat[:min(X.size, len(SPECIALS))] = SPECIALS[:X.size]
        M, Q = rng.normal(size=(K, 1, d)), rng.normal(size=(K, 1, d))
        Lt = rng.normal(size=(K, d, d))
        if d:
            M.flat[0], Q.flat[-1], Lt.flat[0] = -0.0, 1e-310, 2.0 ** -1070

        def fn(m, q, lt):
            xc = tg.tensor(X) - m if form != "x-m" else tg.tensor(X)
            u = q.exp() * xc if form != "xc*q" else xc * q.exp()
            y = u + xc @ lt
            return (y * y).sum(2).sum() + (m.sum() if form == "x-m" else 0.0)

        got, unstored = _replayed_unstored(fn, (M, Q, Lt), True, batch)
        want, unstored0 = _replayed_unstored(fn, (M, Q, Lt), False, batch)
        assert unstored == (d > 0) and not unstored0
        _bits_all(got, want)


@pytest.mark.parametrize("over", ["middle", "first"])
@pytest.mark.parametrize("batch", [False, 1])
def test_gmm_runs_of_two(over, batch):
    """ADBench GMM's objective at d = 2 (runs of 2: ops/strided.py _bc_mul_chain2 and
    _sqsum_made_rev2 keep a group's sums and source values in registers) through the default
    plan, n around the tile's size: values and gradients bit for bit the plan without folded
    broadcasts, and HIPS autograd's; the means and exp(q) broadcast over the middle dim
    (groups of n runs sharing a start) or over the first (groups of one run, each start
    again every n runs); x - mu's broadcast of a constant read from its first copy; small
    arenas and one past _sweep.LAZY_VALUES."""
    ag = pytest.importorskip("autograd")
    anp = pytest.importorskip("autograd.numpy")
    rng = np.random.default_rng(43)
    K, d = 4, 2
    for n in (1, 2, 31, 32, 33, 65, 4099):  # (4099: an arena past _sweep.LAZY_VALUES, its
        X = rng.normal(size=(K, n, d))  # adjoints written by the rows first reaching them)
        shape = (K, 1, d) if over == "middle" else (1, n, d)
        M, Q = rng.normal(size=shape), rng.normal(size=shape)
        Lt = rng.normal(size=(K, d, d))
        M.flat[0] = -0.0

        def make(lib, wrap):
            def fn(m, q, lt):
                xc = wrap(X) - m
                y = lib.exp(q) * xc + xc @ lt
                inner = -0.5 * (y * y).sum(2)
                return lib.log(lib.exp(inner).sum(0)).sum() + (m * m).sum()
            return fn

        fn = make(tg, tg.tensor)
        got, plan = _replayed_with(fn, (M, Q, Lt), batch)
        want, _ = _replayed_with(fn, (M, Q, Lt), batch, FOLD_BROADCASTS=False)
        assert T.SQSUM in plan.rev[:, 0]
        assert (T.BCAST in plan.rev[:, 0]) == (n > 1 or over == "first")
        _bits_all(got, want)
        ref = make(anp, anp.asarray)
        np.testing.assert_allclose(got[0], ref(M, Q, Lt), rtol=1e-12)
        for i, g in enumerate(got[1]):
            np.testing.assert_allclose(g, ag.grad(ref, i)(M, Q, Lt), rtol=1e-10, atol=1e-12)


def test_unstored_square_terms_other_maps():
    """A sum over the middle dim (the runs the product's length, a step of 1: the general
    loops at one point too), over the last two (runs onto one output in a row), a source
    broadcast from (1, 1, 1), and u read elsewhere (u stays stored): results bit for bit
    the stored plan's."""
    rng = np.random.default_rng(29)
    X, M, Q = rng.normal(size=(2, 3, 9)), rng.normal(size=(2, 1, 9)), rng.normal(size=(2, 1, 9))
    W = rng.normal(size=(2, 9, 9))

    def f_dim(m, q):
        xc = tg.tensor(X) - m
        y = q.exp() * xc + xc @ tg.tensor(W)
        return (y * y).sum(1).sum()

    def f_dims(m, q):  # (runs onto one output one after another: not paired)
        xc = tg.tensor(X) - m
        y = q.exp() * xc + xc @ tg.tensor(W)
        return (y * y).sum((1, 2)).sum()

    def f_one(m, q):
        xc = tg.tensor(X) - m
        y = q[:1, :, :1].exp() * xc + xc @ tg.tensor(W)
        return (y * y).sum(2).sum()

    def f_read(m, q):
        xc = tg.tensor(X) - m
        u = q.exp() * xc
        y = u + xc @ tg.tensor(W)
        return (y * y).sum(2).sum() + u.sum()

    for fn, expect in ((f_dim, True), (f_dims, True), (f_one, None), (f_read, False)):
        for batch in (False, 3):
            got, unstored = _replayed_unstored(fn, (M, Q), True, batch)
            want, _ = _replayed_unstored(fn, (M, Q), False, batch)
            assert expect is None or unstored == expect
            _bits_all(got, want)


def _periods(fn, args, on, batch):
    """_replayed_with constants' repeats read from their first block at one point
    (replay.PERIODIC_CONSTANTS) or every copy; returns (results, the BCAST rows' periods)."""
    out, p = _replayed_with(fn, args, batch, PERIODIC_CONSTANTS=on)
    return out, p.meta[p.fwd[p.fwd[:, 0] == T.BCAST, 4] + 5].tolist()


@pytest.mark.parametrize("form", ["x-m", "m-x", "x*m", "m+x", "x3-m"])
@pytest.mark.parametrize("batch", [False, 1, 3])
def test_periodic_constant_read_once_every_length(form, batch):
    """ADBench GMM's x - mu with x an (n, d) array broadcast to (K, n, d) (a constant of K
    copies): read from its first copy at one point (replay._periodic_constants) gives the
    values and gradients of every copy read, bit for bit, every d = 0..17, at one point, a
    batch of one and of three, with -0.0, nan (two payloads), +-inf and a subnormal in x,
    either side, sub, add and mul; a constant whose copies differ in one bit (the -0.0 of a
    0.0) keeps every copy (x3)."""
    rng = np.random.default_rng(31)
    K, n = 3, 4
    for d in LENGTHS:
        x = rng.normal(size=(n, d))
        x.flat[:min(x.size, len(SPECIALS))] = SPECIALS[:x.size]
        if x.size > 7:
            x.flat[7] = np.float64(np.nan) * -1.0  # (another nan's bits)
        x3 = np.broadcast_to(x, (K, n, d)).copy()
        if x.size > 1:
            x3[K - 1].flat[1] = -0.0  # (SPECIALS[1] is 0.0: one bit differs)
        M = rng.normal(size=(K, 1, d))
        W = rng.normal(size=(K, d, d))

        def fn(m):
            xc = {"x-m": lambda: x[None, :, :] - m, "m-x": lambda: m - x[None, :, :],
                  "x*m": lambda: x[None, :, :] * m, "m+x": lambda: m + x[None, :, :],
                  "x3-m": lambda: x3 - m}[form]()
            y = xc @ tg.tensor(W)
            return (y * y).sum(2).sum() + (xc * xc).sum()

        got, per = _periods(fn, (M,), True, batch)
        want, per0 = _periods(fn, (M,), False, batch)
        _bits_all(got, want)
        assert not any(per0)
        if d and x.size > 1:  # (n runs of d to a copy; d = 1: one run of n)
            assert per == ([0] if form == "x3-m" else [n if d > 1 else 1]), per
