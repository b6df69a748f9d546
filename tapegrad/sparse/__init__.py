"""Sparse Jacobians and Hessians by replay: ``tapegrad.sparse``.

The pattern is read from the tape (``pattern.py``: which inputs each recorded value depends
on), coloured (``coloring.py``), and the Jacobian or Hessian is evaluated compressed, one
replayed sweep per colour instead of one per row or column, then returned as a
``scipy.sparse.csr_matrix``:

- a Jacobian by reverse sweeps over row colours (``U.T @ J``), or by forward products
  ``J @ V`` over column colours: f recorded eagerly at the point and one compiled tangent
  sweep with a lane per colour (``autograd/tangent.py``), or, where that sweep declines,
  the reverse sweeps of the tape of ``u -> J.T u`` (recorded with ``create_graph``):
  whichever mode needs fewer sweeps (``mode``);
- a Hessian by products ``H @ V`` over a star colouring of its symmetric pattern, each
  the reverse sweep of the traced gradient (reverse over reverse).

A plan (``jacobian_plan``, ``hessian_plan``) traces, finds the pattern and colours once;
calling it at a new point replays only.  A point that takes another branch than the
traced one raises ``tapegrad.DivergenceError``: the pattern belongs to the traced branches.

>>> import numpy as np, tapegrad as tg
>>> J = tg.sparse.jacobian(lambda x: x[1:] * x[:-1], np.arange(1.0, 5.0))
>>> J.toarray()
array([[2., 1., 0., 0.],
       [0., 3., 2., 0.],
       [0., 0., 4., 3.]])
"""
import numpy as np

from ..autograd import tangent
from ..autograd.engine import grad
from ..grad_mode import enable_grad, no_grad
from ..replay import DivergenceError, _as_array, trace
from ..tensor import _leaf
from .coloring import color_columns, is_distance2, star_color, star_recovery
from .pattern import _binary, _sp, depends_on, jacobian_pattern

COLOR_WORK = 50_000_000  # pairs a greedy colouring may visit before it is not tried
SEED_VALUES = 1 << 26  # arena values x seeds one replay may hold (x 16 bytes: 1 GiB)
FORWARD_COST = 1.2  # a forward lane (tangent sweep, eager recording) against a reverse seed


def _point(x):
    return np.ascontiguousarray(_as_array(x))  # (float64)


def _traced(fn, args, what, argnums=0):
    if not callable(fn):
        raise TypeError(f"tapegrad.sparse.{what}(f, x): f must be callable, got "
                        f"{type(fn).__name__}")
    try:
        return trace(fn, *args, argnums=argnums)
    except (TypeError, ValueError, NotImplementedError, RuntimeError) as e:
        shapes = ", ".join(str(np.shape(a)) for a in args)
        raise _prefixed(e, f"tapegrad.sparse.{what}: f cannot be traced at inputs of shape "
                           f"{shapes}: ") from e


def _prefixed(e, prefix):
    """e's kind of exception with ``prefix`` before its message (e itself if that kind
    takes other arguments)."""
    try:
        return type(e)(prefix + str(e))
    except TypeError:
        return e


def _vjp_fn(fn):
    """(x, u) -> J(x).T u, recorded (create_graph): its reverse sweeps give J v."""
    def vjp(x, u):
        y = fn(x)
        (g,) = grad(y, x, u.reshape(tuple(y.shape)), create_graph=True)
        return g
    return vjp


def _grad_fn(fn):
    def gradient(x):
        (g,) = grad(fn(x), x, create_graph=True)
        return g
    return gradient


def _reverse_only_from(t, slot):
    """Let t's reverse sweeps skip the rows whose output does not depend on input ``slot``
    (their adjoints never reach it): about half the rows of the tape of u -> J.T u, whose
    forward half (f and its partials) depends on x alone."""
    plan = t._plan if "_plan" in t.__dict__ else t._make_plan()
    dep = depends_on(t, [slot])
    plan.rev = np.ascontiguousarray(plan.rev[dep[plan.rev[:, 1] // 2]])


class _Plan:
    """Shared by the Jacobian and Hessian plans: replay of a traced tape with k seeds."""

    what = "plan"

    def _check(self, x):
        x = _point(x)
        if x.shape != self.shape:
            raise ValueError(f"tapegrad.sparse.{self.what}: this plan was made for an input of "
                             f"shape {self.shape}, got {x.shape}; make a new plan at such an "
                             f"input (tapegrad.sparse.{self.what}_plan(f, x))")
        return x

    def _sweeps(self, t, X, U):
        """(values, G (k, n)) of t at the point X (1, n) with seeds U (1, k, m)."""
        plan = t._plan if "_plan" in t.__dict__ else t._make_plan()
        # seeds in groups: replay holds (arena x seeds) values, twice
        step = max(1, SEED_VALUES // max(1, len(plan.vals0)))
        parts = [t.run_seeded(X, np.ascontiguousarray(U[:, i:i + step]))
                 for i in range(0, max(U.shape[1], 1), step)]
        V, bad = parts[0][0], parts[0][2]
        G = np.concatenate([p[1] for p in parts], axis=1)
        if bad[0]:
            raise DivergenceError(
                f"tapegrad.sparse.{self.what}: the point takes another branch than the one "
                f"the sparsity pattern was traced on (guard #{bad[0] - 1}: "
                f"{t.guards[bad[0] - 1]}); make a new plan at this point "
                f"(tapegrad.sparse.{self.what}_plan(f, x)), or make f branch-free "
                "(tapegrad.where, clamp)")
        return V[0], G[0]

    def _csr(self, data):
        P = self.pattern
        return _sp().csr_matrix((data, P.indices.copy(), P.indptr.copy()), shape=P.shape)

    @property
    def ncolors(self):
        """Sweeps per evaluation (the number of colours)."""
        return int(self.colors.max()) + 1 if len(self.colors) else 0


class JacobianPlan(_Plan):
    """The sparse Jacobian of ``f`` at inputs shaped like ``x``: pattern and colouring made
    once (``tapegrad.sparse.jacobian_plan``); ``plan(x)`` is the CSR Jacobian at x, of shape
    (f's output size, x's size), both flattened in C order.

    ``mode``: "reverse" (row colours, ``U.T @ J`` by reverse sweeps of f's tape),
    "forward" (column colours, ``J @ V``: f recorded eagerly at the point and one tangent
    sweep with a lane per colour; where the sweep declines, a reverse sweep of the tape of
    ``u -> J.T u`` per colour), or "auto": the one with fewer sweeps, a forward sweep
    counted as ``FORWARD_COST`` reverse ones.  Attributes: ``pattern`` (bool CSR),
    ``colors`` (per row in reverse mode, per column in forward), ``ncolors``, ``mode``.

    >>> import numpy as np, tapegrad as tg
    >>> plan = tg.sparse.jacobian_plan(lambda x: x.sin() * 2, np.zeros(3))
    >>> plan.ncolors, plan(np.zeros(3)).toarray().diagonal().tolist()
    (1, [2.0, 2.0, 2.0])
    """

    what = "jacobian"

    def __init__(self, f, x, mode="auto"):
        if mode not in ("auto", "forward", "reverse"):
            raise ValueError(f"tapegrad.sparse.jacobian: mode must be 'auto', 'forward' or "
                             f"'reverse', got {mode!r}")
        x = _point(x)
        self.fn, self.shape = f, x.shape
        self.traced = _traced(f, (x,), self.what)
        self.out_shape = self.traced.out_shape
        self.pattern = P = jacobian_pattern(self.traced)
        m, n = P.shape
        rows = np.diff(P.indptr)
        cols = np.bincount(P.indices, minlength=n)
        row_colors = col_colors = None
        if mode != "forward" and (mode == "reverse" or int((cols ** 2).sum()) <= COLOR_WORK):
            row_colors = color_columns(P.T)
        if mode != "reverse" and (mode == "forward" or int((rows ** 2).sum()) <= COLOR_WORK):
            col_colors = color_columns(P)
        if row_colors is None and col_colors is None:  # too dense to colour: one per row
            row_colors = np.arange(m)
        k_rev = row_colors.max() + 1 if row_colors is not None and m else np.inf
        k_fwd = col_colors.max() + 1 if col_colors is not None and n else np.inf
        self.vjp_traced = None
        r = np.repeat(np.arange(m), rows)  # each entry's row
        self.mode = "reverse"
        if col_colors is not None and (mode == "forward" or FORWARD_COST * k_fwd < k_rev):
            self.mode, self.colors = "forward", col_colors
            k = self.ncolors
            self._seeds = np.zeros((1, k, n))
            self._seeds[0, col_colors, np.arange(n)] = 1.0
            self._lanes = np.ascontiguousarray(self._seeds[0].T)  # (n, k): a lane per colour
            self._take = r * k + col_colors[P.indices]  # entry (i, j) of J V at (i, colour of j)
            self._take_t = col_colors[P.indices] * (n + m) + n + r  # (of its transpose)
            self._by_sweep = self._swept(x) is not None  # (a decline is the graph's: kept)
            if not self._by_sweep and not self._transposed(
                    x, mode == "forward" or row_colors is None):
                self.mode = "reverse"
        if self.mode == "reverse":  # entry (i, j) of U.T J at (colour of i, j)
            self.colors = row_colors
            k = self.ncolors
            self._take = self.colors[r] * n + P.indices
            self._seeds = np.zeros((1, k, m))
            self._seeds[0, self.colors, np.arange(m)] = 1.0

    def _swept(self, x):
        """``(J V (m, k), f(x) flat)`` by the tangent sweep: f recorded eagerly at x, a lane
        per colour (in chunks of lanes: the sweep holds the tape's values once per lane,
        twice); None where the sweep declines (``autograd/tangent.py``)."""
        with enable_grad():
            xt = _leaf(x.copy()).requires_grad_(True)
            y = self.fn(xt)
        m, k = self.pattern.shape[0], self.ncolors
        if getattr(y, "_tok", None) is None or y.numel() != m:
            return None  # (not recorded on a tape: the transposed path decides)
        step = max(1, SEED_VALUES // max(1, y._tok.tape.nvals))
        parts = []
        with no_grad():  # (J is returned as numbers: nothing to keep differentiable)
            for c in range(0, k, step):
                w = min(step, k - c)
                got = tangent.sweep([y], [xt], [self._lanes[:, c:c + w]], w)
                if got is None:
                    return None
                parts.append(np.zeros((m, w)) if got[0] is None else got[0])
        value = np.array(y.detach().numpy(), np.float64).reshape(-1)
        return (np.concatenate(parts, axis=1) if parts else np.zeros((m, 0))), value

    def _transposed(self, x, strict):
        """Record the tape of ``u -> J.T u`` (create_graph), whose reverse sweeps give the
        products J v where the tangent sweep declines; False if that fails and not
        ``strict`` (else NotImplementedError)."""
        try:
            self.vjp_traced = trace(_vjp_fn(self.fn), x,
                                    np.ones(self.pattern.shape[0]), argnums=1)
        except (TypeError, ValueError, NotImplementedError, RuntimeError) as e:
            if strict:
                raise NotImplementedError(
                    f"tapegrad.sparse.jacobian: mode='forward' has no tangent sweep for f and "
                    f"records f's vector-Jacobian product with create_graph instead, which "
                    f"failed: {e}; use mode='reverse'") from e
            return False
        _reverse_only_from(self.vjp_traced, self.vjp_traced.in_slots[1])
        return True

    def __call__(self, x):
        """The Jacobian at x as a ``scipy.sparse.csr_matrix``."""
        return self._evaluate(x, False)[1]

    def value_and_jacobian(self, x):
        """(f(x) shaped as f's output, the CSR Jacobian at x)."""
        return self._evaluate(x, True)

    def _evaluate(self, x, want_value):
        x = self._check(x)
        if self.mode == "reverse":
            value, G = self._sweeps(self.traced, x.reshape(1, -1), self._seeds)
            return None if value is None else value.reshape(self.out_shape), \
                self._csr(G.reshape(-1)[self._take])
        if self.traced.guards:  # (replayed first: a DivergenceError if x takes other branches)
            self._sweeps(self.traced, x.reshape(1, -1), self._seeds[:, :0])
        got = self._swept(x) if self._by_sweep else None
        if got is not None:
            G, value = got
            take = self._take
        else:  # the sweep declines: reverse sweeps of the J.T u tape, seeded with V
            self._by_sweep = False
            if self.vjp_traced is None:
                self._transposed(x, True)
            X = np.concatenate([x.reshape(-1), np.ones(self.pattern.shape[0])])[None]
            G, take = self._sweeps(self.vjp_traced, X, self._seeds)[1], self._take_t
            if want_value:  # (the J.T u tape's output is not f's value: one forward more)
                value = self._sweeps(self.traced, x.reshape(1, -1), self._seeds[:, :0])[0]
        value = value.reshape(self.out_shape) if want_value else None
        return value, self._csr(G.reshape(-1)[take])


class HessianPlan(_Plan):
    """The sparse Hessian of a scalar ``f`` at inputs shaped like ``x``
    (``tapegrad.sparse.hessian_plan``): the pattern is the Jacobian pattern of f's traced
    gradient made symmetric, star-coloured once; ``plan(x)`` is the (n, n) CSR Hessian at
    x (x flattened), from ``ncolors`` Hessian-vector products by replay.

    >>> import numpy as np, tapegrad as tg
    >>> plan = tg.sparse.hessian_plan(lambda x: (x[1:] * x[:-1]).sum(), np.ones(4))
    >>> plan.ncolors, plan(np.ones(4)).toarray()[1].tolist()
    (3, [1.0, 0.0, 1.0, 0.0])
    """

    what = "hessian"

    def __init__(self, f, x):
        x = _point(x)
        self.fn, self.shape = f, x.shape
        t = _traced(f, (x,), self.what)
        if t.out_size != 1:
            raise ValueError(f"tapegrad.sparse.hessian: f must return a scalar (one element), "
                             f"got output shape {t.out_shape}; for a vector function use "
                             "tapegrad.sparse.jacobian")
        self.traced = t
        n = x.size
        try:
            self.grad_traced = trace(_grad_fn(f), x)
            P = jacobian_pattern(self.grad_traced)
        except ValueError as e:
            if "does not depend on its inputs" not in str(e):
                raise
            self.grad_traced = None  # f is linear: its Hessian is zero
            P = _sp().csr_matrix((n, n), dtype=bool)
        except (TypeError, NotImplementedError, RuntimeError) as e:
            raise _prefixed(e, "tapegrad.sparse.hessian: f's gradient, recorded with "
                               "create_graph=True, cannot be traced: ") from e
        P = _binary(P + P.T).tocsr()
        P.sort_indices()
        self.pattern = P
        self.colors = star_color(P)
        k, c = self.ncolors, self.colors
        self._take = star_recovery(P, c)
        self._seeds = np.zeros((1, k, n))
        self._seeds[0, c, np.arange(n)] = 1.0

    def __call__(self, x):
        """The Hessian at x as a ``scipy.sparse.csr_matrix``."""
        x = self._check(x)
        if self.grad_traced is None:
            return self._csr(np.zeros(0))
        _, G = self._sweeps(self.grad_traced, x.reshape(1, -1), self._seeds)
        return self._csr(G.reshape(-1)[self._take])


def jacobian_plan(f, x, mode="auto"):
    """A reusable sparse Jacobian of f at inputs shaped like x (``JacobianPlan``)."""
    return JacobianPlan(f, x, mode)


def hessian_plan(f, x):
    """A reusable sparse Hessian of scalar f at inputs shaped like x (``HessianPlan``)."""
    return HessianPlan(f, x)


def jacobian(f, x, mode="auto"):
    """The Jacobian of f at x as a ``scipy.sparse.csr_matrix`` (f's output size, x's size).

    >>> import numpy as np, tapegrad as tg
    >>> tg.sparse.jacobian(lambda x: x * x, np.array([1.0, 2.0])).toarray()
    array([[2., 0.],
           [0., 4.]])
    """
    return JacobianPlan(f, x, mode)(x)


def hessian(f, x):
    """The Hessian of scalar f at x as a ``scipy.sparse.csr_matrix`` (n, n).

    >>> import numpy as np, tapegrad as tg
    >>> tg.sparse.hessian(lambda x: (x ** 3).sum(), np.array([1.0, 2.0])).toarray()
    array([[ 6.,  0.],
           [ 0., 12.]])
    """
    return HessianPlan(f, x)(x)


def jacobian_sparsity(f, x):
    """The Jacobian's sparsity pattern read from f's tape: a boolean CSR matrix."""
    return jacobian_pattern(_traced(f, (_point(x),), "jacobian_sparsity"))


def hessian_sparsity(f, x):
    """The Hessian's (symmetric) sparsity pattern: a boolean CSR matrix."""
    return HessianPlan(f, x).pattern


__all__ = ["HessianPlan", "JacobianPlan", "color_columns", "hessian", "hessian_plan",
           "hessian_sparsity", "is_distance2", "jacobian", "jacobian_plan", "jacobian_sparsity",
           "star_color", "star_recovery"]
