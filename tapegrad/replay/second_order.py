"""Second order by replay: Hessian-vector products, Hessians and Jacobians of a compiled
function, at one point or at a batch of points, in compiled code.

``tapegrad.compile(f).hvp(x, v)`` traces ``(x, v) -> <grad f(x), v>`` once, with the
gradient recorded as tape rows (``create_graph=True``, autograd/higher.py); replaying that
tape's gradient gives ``H v`` (reverse over reverse).  A Hessian is a batch of n such
products with the unit vectors as ``v``.  Guards work as for the gradient
(``on_divergence``).  (Jacobians of vector functions replay f's own trace with several
seeds: ``Compiled.jacobian_batch``.)
"""
import numpy as np

from ..autograd.engine import grad


def _hvp_fn(fn):
    def hv(x, v):
        (g,) = grad(fn(x), x, create_graph=True)
        return (g * v).sum()
    hv.__name__ = hv.__qualname__ = f"hvp_of_{getattr(fn, '__name__', 'f')}"
    return hv


def _derived(c, kind):
    """The compiled helper function of ``c`` for ``kind`` (made once, then cached)."""
    if c.argnums != (0,):
        raise NotImplementedError(f"compile(f).{kind} needs f of one input differentiated "
                                  f"(argnums=0); got argnums={c.argnums}")
    cache = c.__dict__.setdefault("_second_order", {})
    if kind not in cache:
        cache[kind] = type(c)(_hvp_fn(c.fn), argnums=0, on_divergence=c.on_divergence)
    return cache[kind]


def hvp(c, x, v):
    """``H(x) v`` for one point."""
    return _derived(c, "hvp").grad(x, v)


def hvp_batch(c, X, V):
    """``H(X[b]) V[b]`` for every b: X and V of shape (B, *input_shape)."""
    return _derived(c, "hvp").grad_batch(X, V)


def hessian_batch(c, X):
    """Hessians at B points: (B, *shape, *shape), as B * n Hessian-vector products."""
    X = np.asarray(X, dtype=np.float64)
    B, shape = X.shape[0], X.shape[1:]
    n = int(np.prod(shape, dtype=np.int64))
    Xr = np.repeat(X.reshape(B, n), n, axis=0).reshape(B * n, *shape)
    V = np.tile(np.eye(n), (B, 1)).reshape(B * n, *shape)
    return hvp_batch(c, Xr, V).reshape(B, *shape, *shape)


def hessian(c, x):
    x = np.asarray(x, dtype=np.float64)
    return hessian_batch(c, x[None])[0]

