"""Second order by replay: Hessian-vector products, Hessians and Jacobians of a compiled
function, at one point or at a batch of points, in compiled code.

``tapegrad.compile(f).hvp(x, v)`` traces ``(x, v) -> <grad f(x), v>`` once, with the
gradient recorded as tape rows (``create_graph=True``, autograd/higher.py); replaying that
tape's gradient gives ``H v`` (reverse over reverse).  A Hessian is a batch of n such
products with the unit vectors as ``v``, and the Jacobian of a vector function is a batch
of vector-Jacobian products with unit seeds: several adjoint seeds side by side in one
op-major sweep.  Guards work as for the gradient (``on_divergence``).
"""
import numpy as np

from ..autograd.engine import grad
from ..grad_mode import no_grad
from ..tensor import Tensor


def _hvp_fn(fn):
    def hv(x, v):
        (g,) = grad(fn(x), x, create_graph=True)
        return (g * v).sum()
    hv.__name__ = hv.__qualname__ = f"hvp_of_{getattr(fn, '__name__', 'f')}"
    return hv


def _vjp_fn(fn):
    def jt(x, u):
        return (fn(x) * u).sum()
    jt.__name__ = jt.__qualname__ = f"vjp_of_{getattr(fn, '__name__', 'f')}"
    return jt


def _derived(c, kind):
    """The compiled helper function of ``c`` for ``kind`` (made once, then cached)."""
    if c.argnums != (0,):
        raise NotImplementedError(f"compile(f).{kind} needs f of one input differentiated "
                                  f"(argnums=0); got argnums={c.argnums}")
    cache = c.__dict__.setdefault("_second_order", {})
    if kind not in cache:
        make = _hvp_fn if kind == "hvp" else _vjp_fn
        cache[kind] = type(c)(make(c.fn), argnums=0, on_divergence=c.on_divergence)
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


def jacobian(c, x):
    """The Jacobian (*out_shape, *in_shape) of a vector function at one point: one batch of
    vector-Jacobian products, one per output element."""
    x = np.asarray(x, dtype=np.float64)
    with no_grad():
        out_shape = tuple(c.fn(Tensor(x)).shape)
    m = int(np.prod(out_shape, dtype=np.int64))
    X = np.repeat(x[None], m, axis=0)
    U = np.eye(m).reshape(m, *out_shape)
    J = _derived(c, "jacobian").grad_batch(X, U)
    return J.reshape(*out_shape, *x.shape)
