"""``tapegrad.linalg``: PyTorch's ``torch.linalg`` and the matching top-level names.

Two kinds of op live here, and neither adds an opcode to the compiled sweep:

- **Factorisations** (inv, det, slogdet, solve, cholesky, solve_triangular, eigh, svd,
  qr, lstsq, pinv, cholesky_solve) are internal ``autograd.Function`` subclasses: the
  forward calls LAPACK through NumPy / SciPy on the values, and the tape gets one CUSTOM
  row, where the compiled sweep stops and the Python backward runs (DESIGN.md's "one
  sweep, many stops").  Each backward is written with tapegrad's own differentiable ops
  (matmul, mT, tril, the factorisations themselves), so ``create_graph=True``, double
  backward and ``gradgradcheck`` work.  The formulas are PyTorch's (FunctionsManual.cpp),
  so gradients agree with PyTorch's to rounding, including its conventions (eigh's and
  cholesky's symmetric gradients, svd's with ``full_matrices=True``).  Their graph nodes
  are named ``<Op>Backward`` (``LinalgDetBackward``: the custom-op mechanism appends
  ``Backward`` to the class name; PyTorch writes ``LinalgDetBackward0``).  They cannot be
  traced for replay: replay runs no Python per point, and ``tapegrad.jit.trace`` /
  ``tapegrad.compile`` raise an error naming the op (docs/limits.md).
- **Composites** (norms, cross, multi_dot, matrix_power, vecdot, diagonal, logdet, kron,
  tensordot, cdist, diag_embed, block_diag, ...) are written from existing ops; those built
  only from primitives record ordinary rows and replay like any other code.

>>> import tapegrad as tg
>>> A = tg.tensor([[2.0, 0.0], [0.0, 3.0]], requires_grad=True)
>>> d = tg.linalg.det(A)
>>> d
tensor(6., grad_fn=<LinalgDetBackward>)
>>> d.backward()
>>> A.grad
tensor([[3., 0.],
        [0., 2.]])
"""
import builtins
import math
import operator
import warnings

import numpy as np

from . import dtypes
from ._names import torch_named
from ._state import state
from .autograd.function import Function, FunctionCtx, not_differentiable, once_differentiable
from .creation import eye as _eye
from .grad_mode import no_grad
from .return_types import named
from .ops import elementwise as E
from .ops import reductions as R
from .ops import shape as S
from .ops.linalg import matmul, same_dtype
from .ops.strided import broadcast_shape
from .ops._record import named_result, node
from .tensor import COMPLEX_HOOKS, Tensor, _leaf, host_values, norm as _norm


def _sla():
    import scipy.linalg  # on first use: it costs ~0.3 s of import tapegrad otherwise
    return scipy.linalg

__all__ = [
    "LinAlgError", "cholesky", "cholesky_ex", "cond", "cross", "det", "diagonal", "eigh",
    "eigvalsh", "inv", "inv_ex", "lstsq", "matmul", "matrix_norm", "matrix_power",
    "matrix_rank", "multi_dot", "norm", "pinv", "qr", "slogdet", "solve", "solve_ex",
    "solve_triangular", "svd", "svdvals", "vecdot", "vector_norm", "matrix_exp", "lu",
    "lu_factor", "lu_solve"]
__all__ += ["eig", "eigvals", "householder_product", "ldl_factor", "ldl_factor_ex", "ldl_solve",
            "lu_factor_ex", "tensorinv", "tensorsolve", "vander"]


class LinAlgError(RuntimeError):
    """A matrix for which the factorisation cannot be completed (singular, not positive
    definite): PyTorch's ``torch._C._LinAlgError`` (``torch.linalg.LinAlgError``)."""


# (named as PyTorch's class is, for type(e).__name__; found under that name for pickle)
LinAlgError.__name__ = LinAlgError.__qualname__ = "_LinAlgError"
_LinAlgError = LinAlgError


_named = named


_SlogdetResult = _named("linalg_slogdet", "sign logabsdet")
_EighResult = _named("linalg_eigh", "eigenvalues eigenvectors")
_SvdResult = _named("linalg_svd", "U S Vh")
_QrResult = _named("linalg_qr", "Q R")
_LstsqResult = _named("linalg_lstsq", "solution residuals rank singular_values")
_CholeskyExResult = _named("linalg_cholesky_ex", "L info")
_InvExResult = _named("linalg_inv_ex", "inverse info")
_SolveExResult = _named("linalg_solve_ex", "result info")
_TriangularSolveResult = _named("triangular_solve", "solution cloned_coefficient")
_OldSvdResult = _named("svd", "U S V")
_OldSlogdetResult = _named("slogdet", "sign logabsdet")


# ---- argument checks with PyTorch's wording ---------------------------------------------
def _tensor(x, op, name="A", position=1):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}(): argument '{name}' (position {position}) must be Tensor, not "
                        f"{type(x).__name__}")
    return x


_word = dtypes.torch_name


def _float(x, op):
    if x.dtype.kind == "c":
        raise COMPLEX_HOOKS["unsupported"](op)
    if x.dtype.kind != "f":
        raise RuntimeError(f"{op}: Expected a floating point or complex tensor as input. Got "
                           f"{_word(x.dtype)}")


def _matrices(A, op, name="A", square=True, arg=None):
    """Check that ``A`` is a float tensor of (batches of) matrices, square if asked
    (``arg``: the argument's name in PyTorch's signature, if not ``name``)."""
    _tensor(A, op.removeprefix("torch.").replace(".", "_"), arg or name)
    if A.ndim < 2:
        raise RuntimeError(f"{op}: The input tensor {name} must have at least 2 dimensions.")
    _float(A, op)
    if square and A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{op}: {name} must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")


def _same_dtype(A, B, op, names=("A", "B")):
    if A.dtype != B.dtype:
        a, b = names
        raise RuntimeError(f"{op}: Expected {a} and {b} to have the same dtype, but found {a} "
                           f"of type {_word(A.dtype)} and {b} of type {_word(B.dtype)} instead")


def _batch_prefix(shape, index):
    """PyTorch's ``(Batch element i): `` prefix for element ``index`` of a batch shape."""
    if not shape:
        return ""
    return f"(Batch element {int(np.ravel_multi_index(index, shape))}): "


def _untraceable(op, *tensors):
    """While ``tapegrad.jit.trace`` records: refuse an op whose backward runs Python if a
    traced value flows into it (replay evaluates batches in compiled code only)."""
    if state.tracing is not None and any(isinstance(t, Tensor) and t._rg for t in tensors):
        raise RuntimeError(
            f"tapegrad.jit.trace: {op} cannot be traced: its backward runs in Python (a "
            "LAPACK factorisation), and replay evaluates whole batches in compiled code "
            "without Python per point.  Call it eagerly (tapegrad.autograd.grad in a loop), "
            "or keep it out of the traced function (docs/limits.md).")


def _run(fn, op, *args):
    """``fn.apply(*args)``, or while tracing, the plain forward on constants."""
    if state.tracing is not None:
        _untraceable(op, *args)
        with no_grad():
            return fn.forward(FunctionCtx(), *args)
    return fn.apply(*args)


def _arr(x):
    return np.asarray(x._data)


def _out(v):
    """A result value as a tensor (no copy)."""
    return _leaf(_norm(v))


# ---- small differentiable helpers used by the backward formulas ---------------------------
def _mT(x):
    return x.mT


def _eye_like(n, x):
    return _eye(n, dtype=x.dtype)


def _diag_embed(v):
    """Matrices with ``v`` (..., n) on the diagonal (differentiable, replayable)."""
    n = v.shape[-1]
    return S.unsqueeze(v, -1) * _eye_like(n, v)


def _uv(x):
    """(..., n) -> (..., n, 1): a batch of columns."""
    return S.unsqueeze(x, -1)


# ---- LU-based: inv, det, slogdet, solve -------------------------------------------------
def _zero_pivot(a):
    """(batch index, 1-based diagonal element) of the first matrix of ``a`` whose LU
    factorisation (getrf, as PyTorch's) meets an exactly zero pivot, or None."""
    n = a.shape[-1]
    batch = a.shape[:-2]
    for idx in np.ndindex(*batch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lu, _ = _sla().lu_factor(a[idx], check_finite=False)
        zero = np.flatnonzero(np.diagonal(lu) == 0)
        if zero.size:
            return idx, int(zero[0]) + 1
        if n and not np.isfinite(lu).all():
            return None
    return None


def _inv_values(a, op="linalg.inv", raise_errors=True):
    """``a``'s inverses and the LAPACK info per matrix (0, or the first zero pivot)."""
    info = np.zeros(a.shape[:-2], np.int32)
    with np.errstate(all="ignore"):
        try:
            return np.linalg.inv(a), info
        except np.linalg.LinAlgError:
            pass
    bad = _zero_pivot(a)
    if bad is not None and raise_errors:
        idx, k = bad
        raise LinAlgError(f"{op}: {_batch_prefix(a.shape[:-2], idx)}The diagonal element {k} "
                          "is zero, the inversion could not be completed because the input "
                          "matrix is singular.")
    out = np.empty_like(a)
    for idx in np.ndindex(*a.shape[:-2]):
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lu, piv = _sla().lu_factor(a[idx], check_finite=False)
            zero = np.flatnonzero(np.diagonal(lu) == 0)
            info[idx] = zero[0] + 1 if zero.size else 0
            out[idx] = _sla().lu_solve((lu, piv), np.eye(a.shape[-1], dtype=a.dtype),
                                             check_finite=False)
    return out, info


class LinalgInv(Function):
    node_name = "LinalgInvExBackward0"  # PyTorch's node name

    @staticmethod
    def forward(ctx, A):
        Y, _ = _inv_values(_arr(A))
        Y = _out(Y)
        ctx.save_for_backward(Y)
        ctx.save_for_forward(Y)  # (for jvp, forward mode)
        return Y

    @staticmethod
    def backward(ctx, g):
        # d(A^-1) = -A^-1 dA A^-1:  gA = -Y^T g Y^T
        Y, = ctx.saved_tensors
        Yt = _mT(Y)
        return -matmul(Yt, matmul(g, Yt))

    @staticmethod
    def jvp(ctx, t):  # (forward mode: dY = -Y dA Y)
        Y, = ctx.saved_tensors
        return -matmul(Y, matmul(t, Y))


def _scalar_jvp(G, t):
    """The tangent of a scalar-per-matrix result whose gradient (backward of 1) is ``G``:
    <G, t> per matrix."""
    return (G * t).sum((-2, -1))


def inv(A, *, out=None):
    """The inverse of each square matrix of ``A`` (..., n, n); raises ``LinAlgError`` for a
    singular one, with PyTorch's message.

    >>> import tapegrad as tg
    >>> tg.linalg.inv(tg.tensor([[2.0, 0.0], [0.0, 4.0]]))
    tensor([[0.5000, 0.0000],
            [0.0000, 0.2500]])
    """
    if type(A) is COMPLEX_HOOKS["type"]:  # through the real form (_complex.py)
        return COMPLEX_HOOKS["linalg"]["inv"](A, out=out)
    _matrices(A, "linalg.inv")
    return _into(out, _run(LinalgInv, "linalg.inv", A))


def inv_ex(A, *, check_errors=False, out=None):
    """``(inverse, info)``: info (int32) is 0, or the diagonal element of the first zero
    pivot of a singular matrix, whose inverse is then not meaningful."""
    _matrices(A, "linalg.inv_ex")
    if check_errors:
        return _InvExResult(inv(A), _out(np.zeros(A.shape[:-2], np.int32)))
    Y, info = _inv_values(host_values(A, "linalg.inv_ex"), raise_errors=False)  # (a branch)
    if info.any():  # (no gradient: the inverse of a singular matrix is not meaningful)
        return _InvExResult(_out(Y), _out(info))
    return _InvExResult(inv(A), _out(info))


def _cofactors(a):
    """The cofactor matrix of each matrix of ``a`` through its SVD, defined for singular
    matrices too: ``U diag(prod_{j != i} s_j) V^T det(U) det(V^T)``."""
    U, s, Vh = np.linalg.svd(a)
    n = s.shape[-1]
    prods = np.empty_like(s)
    for i in range(n):
        prods[..., i] = np.prod(np.delete(s, i, axis=-1), axis=-1)
    sign = np.linalg.det(U) * np.linalg.det(Vh)
    return (U * (prods * sign[..., None])[..., None, :]) @ Vh


def _det_values(a):
    """The determinants as PyTorch computes them: the product of the LU factors' diagonal
    (getrf), signed by the row interchanges.  NumPy's det goes through logarithms and
    misses exact results (det [[4, 1], [1, 3]] is 11.000000000000002 there, 11 here)."""
    if a.shape[-1] == 0:
        return np.ones(a.shape[:-2], a.dtype)
    diag, parity = _lu_of_transpose(a)
    return parity * np.prod(diag, axis=-1)


def _slogdet_values(a):
    """(sign, log|det|) as PyTorch computes them: from the LU factors' diagonal, the sign
    the permutation's times the diagonal's signs (sgn(0) = 0.0: a singular matrix's zero
    is signed by the count of negative ones, -0.0 for an odd count)."""
    if a.shape[-1] == 0:
        return np.ones(a.shape[:-2], a.dtype), np.zeros(a.shape[:-2], a.dtype)
    diag, parity = _lu_of_transpose(a)
    with np.errstate(divide="ignore"):
        return parity * np.prod(np.sign(diag), axis=-1), np.sum(np.log(np.abs(diag)), axis=-1)


def _lu_of_transpose(a):
    """U's diagonal and the permutation's sign (-1 or 1, a's dtype) of the LU factors of
    each matrix of a, as PyTorch's det and slogdet factor it: its transpose (a row-major
    matrix handed to column-major getrf), which decides the sign of a zero determinant."""
    lu, piv = _lu_values(np.swapaxes(a, -1, -2))
    swaps = np.count_nonzero(piv != np.arange(1, a.shape[-1] + 1, dtype=piv.dtype), axis=-1)
    return np.diagonal(lu, axis1=-2, axis2=-1), np.where(swaps % 2, -1, 1).astype(a.dtype)


class LinalgDet(Function):
    node_name = "LinalgDetBackward0"  # PyTorch's node name

    @staticmethod
    def forward(ctx, A):
        d = _out(_det_values(_arr(A)))
        ctx.save_for_backward(A, d)
        ctx.save_for_forward(A, d)  # (for jvp, forward mode)
        return d

    @staticmethod
    def backward(ctx, g):
        # d det A = det A tr(A^-1 dA):  gA = g det(A) A^-T (the cofactors where A is singular)
        A, d = ctx.saved_tensors
        a = _arr(A)
        dv = np.asarray(d._data)
        if a.shape[-1] == 0:
            return E.mul(_uv(_uv(g)), _out(np.zeros(a.shape, a.dtype)))
        singular = dv == 0
        if not singular.any():
            return _uv(_uv(g * d)) * _mT(inv(A))
        cof = _out(_cofactors(a.astype(np.float64)).astype(a.dtype))
        if singular.all():
            return _uv(_uv(g)) * cof
        safe = _out(np.where(singular[..., None, None], np.eye(a.shape[-1], dtype=a.dtype), a))
        regular = _uv(_uv(g * d)) * _mT(inv(E.where(_out(singular[..., None, None]), safe, A)))
        return E.where(_out(singular[..., None, None]), _uv(_uv(g)) * cof, regular)

    @staticmethod
    def jvp(ctx, t):
        d = ctx.saved_tensors[1]
        return _scalar_jvp(LinalgDet.backward(ctx, _out(np.ones_like(_arr(d)))), t)


def det(A, *, out=None):
    """The determinant of each square matrix of ``A`` (..., n, n).

    >>> import tapegrad as tg
    >>> tg.linalg.det(tg.tensor([[2.0, 1.0], [0.0, 3.0]]))
    tensor(6.)
    """
    _matrices(A, "linalg.det")
    return _into(out, _run(LinalgDet, "linalg.det", A))


class LinalgSlogdet(Function):
    node_name = "LinalgSlogdetBackward0"  # PyTorch's node name

    @staticmethod
    def forward(ctx, A):
        sign, lad = (_out(v) for v in _slogdet_values(_arr(A)))
        ctx.save_for_backward(A)  # (sign requires grad too, as PyTorch's; its gradient is 0)
        ctx.save_for_forward(A)  # (for jvp, forward mode)
        return sign, lad

    @staticmethod
    def backward(ctx, gsign, glad):
        # d log|det A| = tr(A^-1 dA):  gA = g A^-T
        A, = ctx.saved_tensors
        return _uv(_uv(glad)) * _mT(inv(A))

    @staticmethod
    def jvp(ctx, t):  # (the sign's tangent is zero)
        A, = ctx.saved_tensors
        ones = _out(np.ones(A.shape[:-2], _arr(A).dtype))
        return ones * 0, _scalar_jvp(LinalgSlogdet.backward(ctx, None, ones), t)


def slogdet(A, *, out=None):
    """``(sign, logabsdet)`` of the determinant of each square matrix of ``A``; the
    gradient flows through logabsdet.

    >>> import tapegrad as tg
    >>> tg.linalg.slogdet(tg.tensor([[-2.0, 0.0], [0.0, 3.0]])).sign
    tensor(-1.)
    """
    _matrices(A, "linalg.slogdet")
    return _SlogdetResult(*_run(LinalgSlogdet, "linalg.slogdet", A))


@node("WhereBackward0")  # (PyTorch's: nan where the sign is negative)
def logdet(input):
    """``log(det(A))``: nan where the determinant is negative, -inf where it is 0."""
    _matrices(input, "logdet")
    sign, lad = slogdet(input)
    with np.errstate(all="ignore"):
        return lad + _out(np.log(np.asarray(sign._data)))


def _is_vector_rhs(A, B):
    """PyTorch's rule: B is a (batch of) vector(s) if 1-D, or if its shape is A's batch
    shape followed by n."""
    return B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


def _broadcast_batches(a, b):
    """``a`` and ``b`` (..., m, n) with their batch dims broadcast, and that batch shape;
    as they are when their batches agree (broadcast views cost more than a small solve)."""
    batch = a.shape[:-2]
    if b.shape[:-2] == batch:
        return a, b, batch
    batch = broadcast_shape("linalg: the batch dims of B and A", b.shape[:-2], batch)
    return np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:]), \
        batch


def _solve_values(a, b, op, raise_errors=True):
    """X with A X = B for matrices b, batch dims broadcast; info as _inv_values."""
    own = a  # (PyTorch numbers a singular matrix by its place in A's own batch)
    a, b, batch = _broadcast_batches(a, b)
    info = np.zeros(batch, np.int32)
    with np.errstate(all="ignore"):
        try:
            return np.linalg.solve(a, b), info
        except np.linalg.LinAlgError:
            pass
    bad = _zero_pivot(own) if raise_errors else None
    if bad is not None:
        raise LinAlgError(f"{op}: {_batch_prefix(own.shape[:-2], bad[0])}The solver failed "
                          "because the input matrix is singular.")
    x = np.empty(batch + b.shape[-2:], np.result_type(a, b))
    for idx in np.ndindex(*batch):
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lu, piv = _sla().lu_factor(a[idx], check_finite=False)
            zero = np.flatnonzero(np.diagonal(lu) == 0)
            info[idx] = zero[0] + 1 if zero.size else 0
            x[idx] = _sla().lu_solve((lu, piv), b[idx], check_finite=False)
    return x, info


class LinalgSolve(Function):
    node_name = "LinalgSolveExBackward0"  # PyTorch's node name

    @staticmethod
    def forward(ctx, A, B, left, vector):
        a, b = _arr(A), _arr(B)
        if vector:
            b = b[..., None]
        if left:
            x, _ = _solve_values(a, b, "torch.linalg.solve")
        else:  # X A = B  <=>  A^T X^T = B^T
            x, _ = _solve_values(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2),
                                 "torch.linalg.solve")
            x = np.swapaxes(x, -1, -2)
        X = _out(x[..., 0] if vector else x)
        ctx.left, ctx.vector = left, vector
        ctx.save_for_backward(A, X)
        ctx.save_for_forward(A, X)  # (for jvp, forward mode)
        return X

    @staticmethod
    def backward(ctx, g):
        # left:  X = A^-1 B:  gB = A^-T g,  gA = -gB X^T
        # right: X = B A^-1:  gB = g A^-T,  gA = -X^T gB
        A, X = ctx.saved_tensors
        if ctx.vector:
            g, X = _uv(g), _uv(X)
        gB = solve(_mT(A), g, left=ctx.left)
        gA = -matmul(gB, _mT(X)) if ctx.left else -matmul(_mT(X), gB)
        if ctx.vector:
            gB = S.squeeze(gB, -1)
        need_a, need_b = ctx.needs_input_grad[:2]
        return (gA if need_a else None), (gB if need_b else None), None, None

    @staticmethod
    def jvp(ctx, tA, tB, *_):
        # left: dX = A^-1 (dB - dA X);  right: dX = (dB - X dA) A^-1
        A, X = ctx.saved_tensors
        if ctx.vector:
            tB, X = _uv(tB), _uv(X)
        dX = solve(A, tB - (matmul(tA, X) if ctx.left else matmul(X, tA)), left=ctx.left)
        return S.squeeze(dX, -1) if ctx.vector else dX


def solve(A, B, *, left=True, out=None):
    """X with ``A X = B`` (``X A = B`` with ``left=False``) for square matrices A; B a
    (batch of) matrix or vector, batch dims broadcast.  Raises ``LinAlgError`` for a
    singular A.

    >>> import tapegrad as tg
    >>> tg.linalg.solve(tg.tensor([[2.0, 0.0], [0.0, 4.0]]), tg.tensor([2.0, 2.0]))
    tensor([1.0000, 0.5000])
    """
    vector = _solve_shapes(A, B, left)
    return _into(out, _run(LinalgSolve, "linalg.solve", A, B, left, vector))


def _solve_shapes(A, B, left):
    """PyTorch's checks of solve's A and B; whether B is a (batch of) vector(s)."""
    _matrices(A, "linalg.solve")
    _tensor(B, "linalg_solve", "B", 2)
    _float(B, "linalg.solve")
    _same_dtype(A, B, "linalg.solve")
    if B.ndim == 0:  # (a 1-D B is a vector)
        raise RuntimeError("linalg.solve: The input tensor B must have at least 2 dimensions.")
    vector = _is_vector_rhs(A, B)  # (PyTorch's order: B as a column, checked, refused)
    n = A.shape[-1]
    rows = (B.shape[-1] if left else 1) if vector else (B.shape[-2] if left else B.shape[-1])
    if rows != n:
        shape = f"{B.shape[-1]}x1" if vector else f"{B.shape[-2]}x{B.shape[-1]}"
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation "
                           f"{eq} ({A.shape[-2]}x{n} and {shape})")
    if not left and vector:
        raise RuntimeError("linalg.solve: Vector broadcasting of the left hand side is not "
                           "supported for left=False. In this case linalg.solve is equivalent "
                           "to B / A.squeeze(-1)")
    return vector


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    """``(result, info)`` of ``solve``; info (int32) is the first zero pivot of a singular
    matrix (0 if none), whose result is then not meaningful."""
    _matrices(A, "linalg.solve_ex")
    if check_errors:
        return _SolveExResult(solve(A, B, left=left), _out(np.zeros(A.shape[:-2], np.int32)))
    vector = _solve_shapes(A, B, left)
    a = _arr(A)
    b = _arr(B)[..., None] if vector else _arr(B)
    if not left:
        a, b = np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2)
    x, info = _solve_values(a, b, "linalg.solve_ex", raise_errors=False)
    # info is A's (PyTorch's: one per matrix of A, not per broadcast batch with B)
    own = tuple(A.shape[:-2])
    info = info[(0,) * (info.ndim - len(own)) + tuple(slice(0, n) for n in own)]
    if info.any():
        x = x[..., 0] if vector else (x if left else np.swapaxes(x, -1, -2))
        return _SolveExResult(_out(x), _out(info))
    return _SolveExResult(solve(A, B, left=left), _out(info))


# ---- triangular solves and Cholesky -------------------------------------------------------
def _trsm(a, b, upper, unitriangular):
    """X with A X = B, A triangular (the other triangle ignored), batches broadcast; a zero
    diagonal element gives inf / nan, as LAPACK's trtrs without its check."""
    a, b, batch = _broadcast_batches(a, b)
    x = np.empty(batch + b.shape[-2:], np.result_type(a, b))
    for idx in np.ndindex(*batch):
        try:
            x[idx] = _sla().solve_triangular(a[idx], b[idx], lower=not upper,
                                                   unit_diagonal=unitriangular,
                                                   check_finite=False)
        except np.linalg.LinAlgError:  # a zero on the diagonal: substitute, with inf / nan
            x[idx] = _substitute(a[idx], b[idx], upper, unitriangular)
    return x


def _substitute(a, b, upper, unit):
    n = a.shape[-1]
    x = np.zeros(b.shape, np.result_type(a, b))
    order = range(n - 1, -1, -1) if upper else range(n)
    with np.errstate(all="ignore"):
        for i in order:
            rest = slice(i + 1, n) if upper else slice(0, i)
            r = b[i] - a[i, rest] @ x[rest]
            x[i] = r if unit else r / a[i, i]
    return x


class LinalgSolveTriangular(Function):
    node_name = "LinalgSolveTriangularBackward0"  # PyTorch's node name

    @staticmethod
    def forward(ctx, A, B, upper, left, unitriangular):
        a, b = _arr(A), _arr(B)
        if left:
            x = _trsm(a, b, upper, unitriangular)
        else:  # X A = B  <=>  A^T X^T = B^T, A^T of the other triangle
            x = np.swapaxes(_trsm(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2), not upper,
                                  unitriangular), -1, -2)
        X = _out(x)
        ctx.opts = (upper, left, unitriangular)
        ctx.save_for_backward(A, X)
        return X

    @staticmethod
    def backward(ctx, g):
        # as solve's, with gA kept on A's triangle (without its diagonal if unitriangular)
        upper, left, unit = ctx.opts
        A, X = ctx.saved_tensors
        gB = solve_triangular(_mT(A), g, upper=not upper, left=left, unitriangular=unit)
        gA = None
        if ctx.needs_input_grad[0]:
            gA = -matmul(gB, _mT(X)) if left else -matmul(_mT(X), gB)
            gA = S.triu(gA, 1 if unit else 0) if upper else S.tril(gA, -1 if unit else 0)
        return gA, (gB if ctx.needs_input_grad[1] else None), None, None, None


def solve_triangular(A, B, *, upper, left=True, unitriangular=False, out=None):
    """X with ``A X = B`` (``X A = B`` with ``left=False``) for triangular A (upper or
    lower; the other triangle is not read), batch dims broadcast.

    >>> import tapegrad as tg
    >>> A = tg.tensor([[2.0, 1.0], [0.0, 4.0]])
    >>> tg.linalg.solve_triangular(A, tg.tensor([[3.0], [4.0]]), upper=True)
    tensor([[1.],
            [1.]])
    """
    _matrices(A, "linalg.solve_triangular")
    _tensor(B, "linalg_solve_triangular", "B", 2)
    if B.ndim < 2:
        raise RuntimeError("linalg.solve_triangular: The input tensor B must have at least 2 "
                           "dimensions.")
    _float(B, "linalg.solve_triangular")
    _same_dtype(A, B, "linalg.solve_triangular")
    n = A.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the "
                           f"equation {eq} ({A.shape[-2]}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    return _into(out, _run(LinalgSolveTriangular, "linalg.solve_triangular", A, B,
                           bool(upper), bool(left), bool(unitriangular)))


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    """Legacy ``torch.triangular_solve``: ``(solution, cloned_coefficient)`` of
    ``op(A) X = b``, op the transpose if ``transpose``."""
    M = _mT(A) if transpose else A
    X = solve_triangular(M, b, upper=upper != bool(transpose), unitriangular=unitriangular)
    return _TriangularSolveResult(X, S.clone(A))


def _chol_values(a, op, raise_errors=True):
    """Lower Cholesky factors of ``a`` (its lower triangle read) and LAPACK's info."""
    info = np.zeros(a.shape[:-2], np.int32)
    with np.errstate(all="ignore"):
        try:
            return np.linalg.cholesky(a), info
        except np.linalg.LinAlgError:
            pass
    L = np.zeros_like(a)
    (potrf,) = _sla().lapack.get_lapack_funcs(("potrf",), (a,))
    for idx in np.ndindex(*a.shape[:-2]):
        c, k = potrf(a[idx], lower=True, clean=True, overwrite_a=False)
        if k and raise_errors:
            raise LinAlgError(
                f"{op}: {_batch_prefix(a.shape[:-2], idx)}The factorization could not be "
                "completed because the input is not positive-definite (the leading minor of "
                f"order {k} is not positive-definite).")
        L[idx] = np.tril(c)
        info[idx] = k
    return L, info


class LinalgCholesky(Function):
    node_name = "LinalgCholeskyExBackward0"  # PyTorch's node name

    @staticmethod
    def forward(ctx, A, upper):
        L, _ = _chol_values(_arr(A), "linalg.cholesky")
        L = _out(np.swapaxes(L, -1, -2) if upper else L)
        ctx.upper = upper
        ctx.save_for_backward(L)
        ctx.save_for_forward(L)  # (for jvp, forward mode)
        return L

    @staticmethod
    def backward(ctx, gL):
        # Murray (2016), as PyTorch's cholesky_backward:  P = tril(L^T gL),
        # gA = L^-T (P + tril(P, -1)^T) / 2 L^-1  (symmetric)
        L, = ctx.saved_tensors
        if ctx.upper:
            L, gL = _mT(L), _mT(gL)
        P = S.tril(matmul(_mT(L), gL))
        gA = 0.5 * (P + _mT(S.tril(P, -1)))
        gA = solve_triangular(_mT(L), gA, upper=True)
        return solve_triangular(L, gA, upper=False, left=False), None

    @staticmethod
    def jvp(ctx, tA, _):
        # A = L L^T:  L^-1 dA L^-T = sym(L^-1 dL), whose inverse takes the lower triangle
        # with the diagonal halved:  dL = L (tril(M) - diag(M) / 2),  M = L^-1 dA L^-T
        L, = ctx.saved_tensors
        if ctx.upper:
            L = _mT(L)
        M = solve_triangular(L, tA, upper=False)
        M = solve_triangular(_mT(L), M, upper=True, left=False)
        dL = matmul(L, S.tril(M) - 0.5 * _diag_embed(S.diagonal(M, 0, -2, -1)))
        return _mT(dL) if ctx.upper else dL


def cholesky(A, *, upper=False, out=None):
    """The Cholesky factor L (lower, ``A = L L^T``; upper: ``U^T U``) of each symmetric
    positive-definite matrix of ``A``; only its lower triangle is read.  Raises
    ``LinAlgError`` with PyTorch's message for a matrix that is not positive-definite.

    >>> import tapegrad as tg
    >>> tg.linalg.cholesky(tg.tensor([[4.0, 2.0], [2.0, 5.0]]))
    tensor([[2., 0.],
            [1., 2.]])
    """
    _matrices(A, "linalg.cholesky", arg="input")
    return _into(out, _run(LinalgCholesky, "linalg.cholesky", A, bool(upper)))


def cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    """``(L, info)``: info (int32) is 0, or the order of the first leading minor that is not
    positive-definite (L is then not meaningful)."""
    _matrices(A, "linalg.cholesky_ex")
    if check_errors:
        return _CholeskyExResult(cholesky(A, upper=upper),
                                 _out(np.zeros(A.shape[:-2], np.int32)))
    L, info = _chol_values(host_values(A, "linalg.cholesky_ex"), "linalg.cholesky_ex",
                           raise_errors=False)  # (info decides a branch: A's values guarded)
    if info.any():
        return _CholeskyExResult(_out(np.swapaxes(L, -1, -2) if upper else L), _out(info))
    return _CholeskyExResult(cholesky(A, upper=upper), _out(info))


def _legacy_cholesky(input, upper=False):
    """``torch.cholesky(A, upper=False)`` (deprecated in PyTorch for linalg.cholesky)."""
    return cholesky(input, upper=upper)


class CholeskySolve(Function):
    node_name = "CholeskySolveBackward0"  # PyTorch's node name

    @staticmethod
    def forward(ctx, B, L, upper):
        b, l = _arr(B), _arr(L)
        if upper:  # A = U^T U
            y = _trsm(np.swapaxes(l, -1, -2), b, False, False)
            x = _trsm(l, y, True, False)
        else:  # A = L L^T
            y = _trsm(l, b, False, False)
            x = _trsm(np.swapaxes(l, -1, -2), y, True, False)
        X = _out(x)
        ctx.upper = upper
        ctx.save_for_backward(L, X)
        return X

    @staticmethod
    def backward(ctx, g):
        # X = A^-1 B:  gB = A^-1 g;  gA = -gB X^T, symmetrised through A = L L^T:
        # gL = -(gB X^T + X gB^T) L  (upper: -U (gB X^T + X gB^T)), as PyTorch's
        L, X = ctx.saved_tensors
        gB = cholesky_solve(g, L, ctx.upper)
        gL = None
        if ctx.needs_input_grad[1]:
            c = matmul(gB, _mT(X))
            c = c + _mT(c)
            gL = -matmul(L, c) if ctx.upper else -matmul(c, L)
        return (gB if ctx.needs_input_grad[0] else None), gL, None


def cholesky_solve(B, L, upper=False, *, out=None):
    """X with ``A X = B`` given A's Cholesky factor L (``A = L L^T``; upper: ``U^T U``).

    >>> import tapegrad as tg
    >>> L = tg.tensor([[2.0, 0.0], [1.0, 2.0]])
    >>> tg.cholesky_solve(tg.tensor([[4.0], [2.0]]), L)
    tensor([[1.],
            [0.]])
    """
    _tensor(B, "cholesky_solve", "input", 1)
    _matrices(L, "cholesky_solve", "input2")
    if B.ndim < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {B.ndim} dimensions "
                           "instead")
    _same_dtype(B, L, "cholesky_solve")
    if B.shape[-2] != L.shape[-1]:
        raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is "
                           f"{L.shape[-1]} by {L.shape[-1]} but each b matrix is "
                           f"{B.shape[-2]} by {B.shape[-1]}")
    return _into(out, _run(CholeskySolve, "cholesky_solve", B, L, bool(upper)))


# ---- eigh, svd, qr -----------------------------------------------------------------------
def _uplo(UPLO, op):
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"{op}: Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    return UPLO


class LinalgEigh(Function):
    node_name = "LinalgEighBackward0"  # PyTorch's node name

    @staticmethod
    def forward(ctx, A, UPLO):
        w, V = np.linalg.eigh(_arr(A), UPLO=UPLO)
        w, V = _out(w), _out(V)
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(w, V)
        ctx.save_for_forward(w, V)  # (for jvp, forward mode)
        return w, V

    @staticmethod
    def backward(ctx, gw, gV):
        # A = V diag(w) V^T:  gA = V (skew(V^T gV) / E + diag(gw)) V^T, E_ij = w_j - w_i
        # (1 on the diagonal), skew(X) = (X - X^T) / 2: PyTorch's linalg_eig_backward
        w, V = ctx.saved_tensors
        if gV is None:
            return matmul(V * S.unsqueeze(gw, -2), _mT(V)), None
        VgV = matmul(_mT(V), gV)
        VgV = 0.5 * (VgV - _mT(VgV))
        n = w.shape[-1]
        Ediff = S.unsqueeze(w, -2) - S.unsqueeze(w, -1) + _eye_like(n, w)
        inner = VgV / Ediff
        if gw is not None:
            inner = inner + _diag_embed(gw)
        return matmul(V, matmul(inner, _mT(V))), None

    @staticmethod
    def jvp(ctx, tA, _):
        # P = V^T dA V:  dw = diag(P),  dV = V (P / E) off the diagonal, E_ij = w_j - w_i
        w, V = ctx.saved_tensors
        n = w.shape[-1]
        if tA is None:  # (materialize_grads is off: no tangent, none out)
            return None, None
        P = matmul(_mT(V), matmul(tA, V))
        E = S.unsqueeze(w, -2) - S.unsqueeze(w, -1) + _eye_like(n, w)
        off = 1.0 - _eye_like(n, w)
        return S.diagonal(P, 0, -2, -1), matmul(V, P / E * off)


def eigh(A, UPLO="L", *, out=None):
    """``(eigenvalues, eigenvectors)`` of each symmetric matrix of ``A`` (its ``UPLO``
    triangle read), eigenvalues ascending.  The gradient assumes distinct eigenvalues and
    is invariant to the signs of the eigenvectors only for losses that are.

    >>> import tapegrad as tg
    >>> tg.linalg.eigh(tg.tensor([[2.0, 0.0], [0.0, 1.0]])).eigenvalues
    tensor([1., 2.])
    """
    _matrices(A, "linalg.eigh")
    _uplo(UPLO, "linalg.eigh")
    return _EighResult(*_run(LinalgEigh, "linalg.eigh", A, UPLO))


def eigvalsh(A, UPLO="L", *, out=None):
    """The eigenvalues (ascending) of each symmetric matrix of ``A``."""
    _matrices(A, "linalg.eigvalsh")
    _uplo(UPLO, "linalg.eigvalsh")
    return _into(out, eigh(A, UPLO).eigenvalues)


class LinalgSvd(Function):
    node_name = "LinalgSvdBackward0"  # PyTorch's node name

    @staticmethod
    def forward(ctx, A, full_matrices):
        U, s, Vh = np.linalg.svd(_arr(A), full_matrices=full_matrices)
        U, s, Vh = _out(U), _out(s), _out(Vh)
        ctx.full = full_matrices
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(U, s, Vh)
        return U, s, Vh

    @staticmethod
    def backward(ctx, gU, gS, gVh):
        U, s, Vh = ctx.saved_tensors
        k = s.shape[-1]
        if ctx.full:  # the columns beyond k get no gradient (PyTorch's convention)
            U, Vh = S.narrow(U, -1, 0, k), S.narrow(Vh, -2, 0, k)
            gU = None if gU is None else S.narrow(gU, -1, 0, k)
            gVh = None if gVh is None else S.narrow(gVh, -2, 0, k)
        return _svd_backward(gU, gS, gVh, U, s, Vh), None


def _svd_backward(gU, gS, gVh, U, s, Vh):
    """PyTorch's svd_backward (real case; distinct singular values assumed)."""
    m, n = U.shape[-2], Vh.shape[-1]
    if gU is None and gVh is None:
        if gS is None:
            return None
        return matmul(U, _uv(gS) * Vh) if m >= n else matmul(U * S.unsqueeze(gS, -2), Vh)
    k = s.shape[-1]
    s2 = s * s
    Ediff = S.unsqueeze(s2, -2) - S.unsqueeze(s2, -1) + _eye_like(k, s)
    inner = None
    if gU is not None:
        UgU = matmul(_mT(U), gU)
        inner = (UgU - _mT(UgU)) * S.unsqueeze(s, -2)
    if gVh is not None:
        VgV = matmul(Vh, _mT(gVh))
        term = _uv(s) * (VgV - _mT(VgV))
        inner = term if inner is None else inner + term
    inner = inner / Ediff
    if gS is not None:
        inner = inner + _diag_embed(gS)
    if m > n and gU is not None:
        # gA = [U inner + (I - U U^T) gU S^-1] V^T
        gA = matmul(U, inner)
        gUS = gU / S.unsqueeze(s, -2)
        gA = gA + gUS - matmul(U, matmul(_mT(U), gUS))
        return matmul(gA, Vh)
    if m < n and gVh is not None:
        # gA = U [inner V^T + S^-1 gVh (I - V V^T)]
        gA = matmul(inner, Vh)
        SgV = gVh / _uv(s)
        gA = gA + SgV - matmul(matmul(SgV, _mT(Vh)), Vh)
        return matmul(U, gA)
    return matmul(U, matmul(inner, Vh)) if m >= n else matmul(matmul(U, inner), Vh)


def svd(A, full_matrices=True, *, driver=None, out=None):
    """``(U, S, Vh)`` with ``A = U diag(S) Vh``, singular values descending (LAPACK's
    gesdd, as PyTorch on the CPU).  ``full_matrices=True`` (PyTorch's default) gives
    square U and Vh; the gradient ignores their extra columns, as PyTorch's.

    >>> import tapegrad as tg
    >>> tg.linalg.svd(tg.tensor([[3.0, 0.0], [0.0, -4.0]])).S
    tensor([4., 3.])
    """
    _matrices(A, "linalg.svd", square=False)
    return _SvdResult(*_run(LinalgSvd, "linalg.svd", A, bool(full_matrices)))


def svdvals(A, *, driver=None, out=None):
    """The singular values (descending) of each matrix of ``A``."""
    _matrices(A, "linalg.svdvals", square=False)
    if not (A._rg and state.grad_enabled):  # values only: LAPACK's cheaper call
        return _into(out, _out(np.linalg.svd(_arr(A), compute_uv=False)))
    return _into(out, svd(A, full_matrices=False).S)


def _legacy_svd(input, some=True, compute_uv=True):
    """``torch.svd``: ``(U, S, V)`` with ``A = U diag(S) V^T`` (V, not Vh)."""
    U, s, Vh = svd(input, full_matrices=not some)
    if not compute_uv:
        return _OldSvdResult(E.mul(U, 0.0), s, E.mul(_mT(Vh), 0.0))
    return _OldSvdResult(U, s, _mT(Vh))


class LinalgQr(Function):
    node_name = "LinalgQrBackward0"  # PyTorch's node name

    @staticmethod
    def forward(ctx, A, mode):
        a = _arr(A)
        Q, R = np.linalg.qr(a, mode="complete" if mode == "complete" else "reduced")
        Q, R = _out(Q), _out(R)
        ctx.mode = mode
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(Q, R)
        if mode == "r":
            return _out(np.zeros((0,), a.dtype)), R
        return Q, R

    @staticmethod
    def backward(ctx, gQ, gR):
        Q, R = ctx.saved_tensors
        m, n = Q.shape[-2], R.shape[-1]
        if ctx.mode == "r":
            raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed "
                               "when mode='r'. Please use linalg.qr(A, mode='reduced') if you "
                               "are going to differentiate through linalg.qr.")
        if ctx.mode == "complete" and m > n:
            raise RuntimeError("The QR decomposition is not differentiable when "
                               "mode='complete' and nrows > ncols.")
        return _qr_backward(gQ, gR, Q, R), None


def _copyltu(M):
    """The symmetric matrix with M's lower triangle: tril(M, -1) + tril(M, -1)^T + diag."""
    low = S.tril(M, -1)
    return low + _mT(low) + _diag_embed(S.diagonal(M, 0, -2, -1))


def _qr_backward(gQ, gR, Q, R):
    """The gradient of the (reduced) QR decomposition A = Q R.  m >= n: with
    M = R gR^T - gQ^T Q, gA = (gQ + Q copyltu(M)) R^-T; m < n: A = [X | Y], R = [U | V],
    X = Q U square, which gets the m >= n rule with gQ + Y gV^T, and gY = Q gV."""
    m, n = Q.shape[-2], R.shape[-1]
    if gQ is None:
        gQ = E.mul(Q, 0.0)
    if gR is None:
        gR = E.mul(R, 0.0)
    if m >= n:
        M = matmul(R, _mT(gR)) - matmul(_mT(gQ), Q)
        B = gQ + matmul(Q, _copyltu(M))
        # B R^-T: X R^T = B, R^T lower triangular
        return solve_triangular(_mT(R), B, upper=False, left=False)
    U, V = S.narrow(R, -1, 0, m), S.narrow(R, -1, m, n - m)
    gU, gV = S.narrow(gR, -1, 0, m), S.narrow(gR, -1, m, n - m)
    Y = matmul(Q, V)  # A's last n - m columns
    gX = _qr_backward(gQ + matmul(Y, _mT(gV)), gU, Q, U)
    return S.cat([gX, matmul(Q, gV)], -1)


def qr(A, mode="reduced", *, out=None):
    """``(Q, R)`` with ``A = Q R`` (Householder, LAPACK's geqrf as PyTorch's): mode
    'reduced' (Q is m x k), 'complete' (Q is m x m) or 'r' (Q empty; not differentiable).

    >>> import tapegrad as tg
    >>> Q, R = tg.linalg.qr(tg.tensor([[3.0, 1.0], [4.0, 2.0]]))
    >>> R.shape
    torch.Size([2, 2])
    """
    _matrices(A, "linalg.qr", square=False)
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           "'reduced' (default), 'r', or 'complete'")
    return _QrResult(*_run(LinalgQr, "linalg.qr", A, mode))


# ---- least squares, pseudo-inverse, rank --------------------------------------------------
def _tol(s, m, n, atol, rtol, dtype):
    """PyTorch's cut-off: max(atol, rtol * s_max), rtol defaulting to eps * max(m, n) when
    neither is given (and to 0 when only atol is)."""
    if rtol is None:
        rtol = np.finfo(dtype).eps * builtins.max(m, n) if atol is None or atol == 0 else 0.0
    atol = 0.0 if atol is None else atol
    smax = s[..., :1] if s.shape[-1] else np.zeros(s.shape[:-1] + (1,), s.dtype)
    return np.maximum(np.asarray(atol, s.dtype), np.asarray(rtol, s.dtype) * smax)


def _tol_arg(t):
    return np.asarray(t._data)[..., None] if isinstance(t, Tensor) else t


class LinalgPinv(Function):
    node_name = "LinalgPinvBackward0"  # PyTorch's node name

    @staticmethod
    def forward(ctx, A, atol, rtol, hermitian):
        a = _arr(A)
        m, n = a.shape[-2:]
        if hermitian:
            w, V = np.linalg.eigh(a)
            s = np.abs(w)
            order = np.argsort(-s, axis=-1, kind="stable")
            smax = np.take_along_axis(s, order, -1)
            keep = s > _tol(smax, m, n, atol, rtol, a.dtype)
            with np.errstate(divide="ignore"):
                inv_w = np.where(keep, 1.0 / w, 0.0).astype(a.dtype)
            p = (V * inv_w[..., None, :]) @ np.swapaxes(V, -1, -2)
        else:
            U, s, Vh = np.linalg.svd(a, full_matrices=False)
            keep = s > _tol(s, m, n, atol, rtol, a.dtype)
            with np.errstate(divide="ignore"):
                inv_s = np.where(keep, 1.0 / s, 0.0).astype(a.dtype)
            p = (np.swapaxes(Vh, -1, -2) * inv_s[..., None, :]) @ np.swapaxes(U, -1, -2)
        P = _out(p)
        ctx.save_for_backward(A, P)
        return P

    @staticmethod
    def backward(ctx, g):
        A, P = ctx.saved_tensors
        return _pinv_backward(g, P, A), None, None, None


def _pinv_backward(g, P, A):
    """PyTorch's pinv_backward: the derivative of the pseudo-inverse at constant rank."""
    m, n = A.shape[-2], A.shape[-1]
    Ph, gh = _mT(P), _mT(g)
    if m <= n:
        K = matmul(gh, P)
        KPh = matmul(K, Ph)
        return (-_mT(matmul(P, K)) + KPh - matmul(matmul(A, P), KPh)
                + matmul(matmul(Ph, P), gh - matmul(K, A)))
    K = matmul(P, gh)
    PhK = matmul(Ph, K)
    return (-_mT(matmul(K, P)) + matmul(matmul(gh - matmul(A, K), P), Ph) + PhK
            - matmul(matmul(PhK, P), A))


def pinv(A, *, atol=None, rtol=None, hermitian=False, out=None):
    """The Moore-Penrose pseudo-inverse of each matrix of ``A`` (singular values at most
    ``max(atol, rtol * s_max)`` count as zero; PyTorch's defaults).

    >>> import tapegrad as tg
    >>> tg.linalg.pinv(tg.tensor([[2.0, 0.0], [0.0, 0.0]]))
    tensor([[0.5000, 0.0000],
            [0.0000, 0.0000]])
    """
    _matrices(A, "linalg.pinv", square=False)
    return _into(out, _run(LinalgPinv, "linalg.pinv", A, _tol_arg(atol), _tol_arg(rtol),
                           bool(hermitian)))


def pinverse(input, rcond=1e-15):
    """Legacy ``torch.pinverse(A, rcond)``: ``linalg.pinv(A, rtol=rcond)``."""
    return pinv(input, rtol=rcond)


_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _lstsq_values(a, b, rcond, driver):
    """Per matrix (batch dims broadcast): the solution, rank and singular values of
    LAPACK's least squares (``gelsy`` unless told; 'gels' is served by gelsy)."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    m, n = a.shape[-2:]
    x = np.zeros(batch + (n, b.shape[-1]), a.dtype)
    rank = np.zeros(batch, np.int64)
    sv = np.zeros(batch + (builtins.min(m, n),), a.dtype)
    cond = rcond if rcond is not None else np.finfo(a.dtype).eps * builtins.max(m, n)
    lapack = "gelsy" if driver in (None, "gels") else driver
    for idx in np.ndindex(*batch):
        if m == 0 or n == 0:
            continue
        sol, _, r, s = _sla().lstsq(a[idx], b[idx], cond=cond, lapack_driver=lapack,
                                          check_finite=False)
        x[idx] = sol
        rank[idx] = r
        if s is not None:
            sv[idx] = s
    return a, b, x, rank, sv


class LinalgLstsq(Function):
    node_name = "LinalgLstsqBackward0"  # PyTorch's node name

    @staticmethod
    def forward(ctx, A, B, x, vector):
        X = _out(x[..., 0] if vector else x)
        ctx.vector = vector
        ctx.save_for_backward(A, B)
        return X

    @staticmethod
    def backward(ctx, g):
        # PyTorch's linalg_lstsq_backward, through the pseudo-inverse P of A:
        # gA = pinv_backward(g B^T, P, A), gB = P^T g
        A, B = ctx.saved_tensors
        if ctx.vector:
            g, B = _uv(g), _uv(B)
        P = pinv(A)
        gA = gB = None
        if ctx.needs_input_grad[0]:
            gA = _pinv_backward(matmul(g, _mT(B)), P, A)
        if ctx.needs_input_grad[1]:
            gB = matmul(_mT(P), g)
            if ctx.vector:
                gB = S.squeeze(gB, -1)
        return gA, gB, None, None


def lstsq(A, B, rcond=None, *, driver=None):
    """``(solution, residuals, rank, singular_values)`` of ``min ||A X - B||``: PyTorch's
    fields, filled as PyTorch fills them per driver ('gelsy' by default: no residuals and
    no singular values).  The solution carries the gradient (PyTorch's, through pinv).

    >>> import tapegrad as tg
    >>> A = tg.tensor([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    >>> tg.linalg.lstsq(A, tg.tensor([[1.0], [2.0], [3.0]])).solution
    tensor([[1.],
            [2.]])
    """
    _tensor(A, "linalg_lstsq", "input")
    _tensor(B, "linalg_lstsq", "b", 2)
    _matrices(A, "torch.linalg.lstsq", square=False)
    _float(B, "torch.linalg.lstsq")
    _same_dtype(A, B, "torch.linalg.lstsq")
    if driver is not None and driver not in _DRIVERS:
        raise RuntimeError(f"torch.linalg.lstsq: parameter `driver` should be one of "
                           f"({', '.join(_DRIVERS)})")
    vector = _is_vector_rhs(A, B)
    if (B.shape[-1] if vector else B.shape[-2]) != A.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    b = _arr(B)[..., None] if vector else _arr(B)
    a, b, x, rank, sv = _lstsq_values(_arr(A), b, rcond, driver)
    X = _run(LinalgLstsq, "linalg.lstsq", A, B, x, vector)
    m, n = a.shape[-2:]
    residuals = _out(np.zeros((0,), a.dtype))
    if m > n and driver not in (None, "gelsy") and bool((rank == n).all()):
        # |A X - B|^2 of tensors: PyTorch's residuals take gradients to A and B too
        r = matmul(A, X.unsqueeze(-1) if vector else X) - (B.unsqueeze(-1) if vector else B)
        residuals = (r * r).sum(-2)
    elif X.requires_grad:  # (empty, on PyTorch's node all the same)
        residuals = residuals + X.sum() * 0
    residuals = named_result(residuals, "LinalgLstsqBackward0", A, B)
    rank_out = np.zeros((0,), np.int64) if driver == "gels" else rank
    sv_out = sv if driver in ("gelsd", "gelss") else np.zeros((0,), a.dtype)
    return _LstsqResult(X, residuals, _out(rank_out), _out(sv_out))


def matrix_rank(A, *, atol=None, rtol=None, hermitian=False, tol=None, out=None):
    """The number of singular values of each matrix of ``A`` above
    ``max(atol, rtol * s_max)`` (PyTorch's defaults), as int64."""
    _matrices(A, "linalg.matrix_rank", square=False)
    if tol is not None:
        atol, rtol = tol, 0.0
    a = host_values(A, "linalg.matrix_rank")
    m, n = a.shape[-2:]
    if hermitian:
        s = -np.sort(-np.abs(np.linalg.eigvalsh(a)), axis=-1)
    else:
        s = np.linalg.svd(a, compute_uv=False)
    t = _tol(s, m, n, _tol_arg(atol), _tol_arg(rtol), a.dtype)
    return _into(out, _out((s > t).sum(-1).astype(np.int64)))  # (no row: A's values guarded)


# ---- composites: written from existing ops ------------------------------------------------
def _into(out, result):
    """PyTorch's ``out=``: the result written into ``out`` (a tensor of its shape)."""
    if out is None:
        return result
    if not isinstance(out, Tensor):
        raise TypeError(f"out must be a Tensor, not {type(out).__name__}")
    if out._rg:
        raise RuntimeError("linalg: out= does not support automatic differentiation; the "
                           "output tensor requires grad")
    out._data = _norm(np.asarray(result._data, out.dtype).copy())
    return out


def _dims(dim, ndim, op):
    return tuple(S._wrap_dim(d, ndim, op) for d in dim)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """The vector ``ord``-norm of ``x`` over ``dim`` (all elements by default): ord a number,
    inf or -inf; ``sum(|x|^ord)^(1/ord)``, the count of nonzeros for 0.

    >>> import tapegrad as tg
    >>> tg.linalg.vector_norm(tg.tensor([3.0, -4.0]), 1)
    tensor(7.)
    """
    if dtype is not None:
        dtype = R.norm_dtype(x, dtype, "linalg.vector_norm")
    if type(x) is COMPLEX_HOOKS["type"]:  # the norm of the moduli (_complex.py)
        return COMPLEX_HOOKS["linalg"]["vector_norm"](x, ord, dim, keepdim, dtype=dtype)
    _tensor(x, "linalg_vector_norm", "input")
    if isinstance(ord, str):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' must be Number, not str")
    if isinstance(dim, int):
        dim = (dim,)
    if dtype is not None:
        x = x.to(dtype)
    o = float(ord)
    if o < 0 and o != -math.inf:
        # a zero entry makes the sum inf and the norm 0; it is kept out of the power's rule
        # (whose 0 * inf was nan there), so every gradient is 0 then, as PyTorch's
        ax = E.abs(x)
        zero = ax == 0.0
        powed = E.where(zero, _out(np.array(np.inf, ax.dtype)),
                        E.where(zero, _out(np.ones((), ax.dtype)), ax) ** o)
        s = R.sum(powed, dim=dim, keepdim=keepdim)
        return _into(out, named_result(s ** (1.0 / o), "LinalgVectorNormBackward0", x))
    return _into(out, R.norm(x, o, dim, keepdim))


_MATRIX_ORDS = ("fro", "nuc", math.inf, -math.inf, 1, -1, 2, -2)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    """The matrix norm of each matrix of ``A`` (over the two dims ``dim``): 'fro', 'nuc'
    (sum of singular values), 2 / -2 (largest / smallest singular value), 1 / -1 (max /
    min column sum of |a|), inf / -inf (max / min row sum).

    >>> import tapegrad as tg
    >>> tg.linalg.matrix_norm(tg.tensor([[1.0, -2.0], [3.0, 4.0]]), 1)
    tensor(6.)
    """
    if type(A) is COMPLEX_HOOKS["type"]:  # the norm of the moduli (_complex.py)
        return COMPLEX_HOOKS["linalg"]["matrix_norm"](A, ord, dim, keepdim, dtype=dtype)
    _tensor(A, "linalg_matrix_norm", "input")
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 "
                           "dimensions.")
    _float(A, "linalg.matrix_norm")
    if ord not in _MATRIX_ORDS:
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if dtype is not None:
        A = A.to(dtype)
    d0, d1 = _dims(dim, A.ndim, "linalg.matrix_norm")
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, "
                           f"{dim[1]})")
    if ord == "fro":
        return _into(out, R.norm(A, 2.0, (d0, d1), keepdim))
    if ord in ("nuc", 2, -2):
        M = S.movedim(A, (d0, d1), (-2, -1))
        s = svdvals(M)
        v = R.sum(s, -1) if ord == "nuc" else (R.amax(s, -1) if ord == 2 else R.amin(s, -1))
        if keepdim:
            lo, hi = builtins.min(d0, d1), builtins.max(d0, d1)
            v = S.unsqueeze(S.unsqueeze(v, lo), hi)
        return _into(out, v)
    # 1: max over columns (d1) of the sums over rows (d0); inf: the other way round
    over, across = (d0, d1) if abs(ord) == 1 else (d1, d0)
    sums = R.sum(E.abs(A), over, keepdim=True)
    v = R.amax(sums, across, keepdim=True) if ord > 0 else R.amin(sums, across, keepdim=True)
    if not keepdim:
        v = S.squeeze(S.squeeze(v, builtins.max(d0, d1)), builtins.min(d0, d1))
    return _into(out, v)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None, out=None):
    """``torch.linalg.norm``: a vector norm (1-D input, or an int ``dim``) or a matrix norm
    (2-D input, or a 2-tuple ``dim``); without ord, the 2-norm of all elements.

    >>> import tapegrad as tg
    >>> tg.linalg.norm(tg.tensor([[3.0, 0.0], [0.0, 4.0]]))
    tensor(5.)
    """
    if type(A) is COMPLEX_HOOKS["type"]:  # the norm of the moduli (_complex.py)
        return COMPLEX_HOOKS["linalg"]["norm"](A, ord, dim, keepdim, dtype=dtype)
    _tensor(A, "linalg_norm", "input")
    if isinstance(dim, int):
        dim = (dim,)
    if dim is not None:
        if len(dim) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or "
                               f"2. Got {list(dim)}")
    elif ord is not None and A.ndim not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must "
                           f"be 1D or 2D. Got {A.ndim}D.")
    if ord is None:
        return vector_norm(A, 2, dim, keepdim, dtype=dtype, out=out)
    if (dim is not None and len(dim) == 2) or (dim is None and A.ndim == 2):
        return matrix_norm(A, ord, (-2, -1) if dim is None else dim, keepdim, dtype=dtype,
                           out=out)
    if isinstance(ord, str):
        raise RuntimeError(f"linalg.vector_norm: Order {ord} not supported.")
    return vector_norm(A, ord, dim, keepdim, dtype=dtype, out=out)


def _nuclear(input, dim, keepdim, dtype):
    """``torch.norm(A, 'nuc')`` (ops/reductions.py's norm calls it: the SVD is up here)."""
    return matrix_norm(input, "nuc", (-2, -1) if dim is None else dim, keepdim, dtype=dtype)


R.NUCLEAR[:] = [_nuclear]


def cond(A, p=None):
    """The condition number of each matrix of ``A`` in the ``p`` norm (2 by default: the
    ratio of its largest to smallest singular value)."""
    _matrices(A, "linalg.cond", square=p not in (None, 2, -2))
    if p in (None, 2, -2):
        s = svdvals(A)
        hi, lo = R.amax(s, -1), R.amin(s, -1)
        return hi / lo if p in (None, 2) else lo / hi
    return matrix_norm(A, p) * matrix_norm(inv(A), p)


@node("LinalgCrossBackward0")
def cross(input, other, *, dim=-1, out=None):
    """The cross product of 3-vectors along ``dim`` (batch dims broadcast).

    >>> import tapegrad as tg
    >>> tg.linalg.cross(tg.tensor([1.0, 0.0, 0.0]), tg.tensor([0.0, 1.0, 0.0]))
    tensor([0., 0., 1.])
    """
    _tensor(input, "linalg_cross", "input")
    _tensor(other, "linalg_cross", "other", 2)
    if input.ndim != other.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    d = S._wrap_dim(dim, input.ndim, "linalg.cross")
    if input.shape[d] != 3 or other.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{input.shape[d]} and {other.shape[d]}")
    a0, a1, a2 = S.unbind(input, d)
    b0, b1, b2 = S.unbind(other, d)
    return _into(out, S.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], d))


def _torch_cross(input, other, dim=None, *, out=None):
    """``torch.cross``: without ``dim``, the first dim of size 3 (PyTorch warns)."""
    if dim is None:
        warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\n"
                      "Please either pass the dim explicitly or simply use torch.linalg.cross."
                      "\nThe default value of dim will change to agree with that of "
                      "linalg.cross in a future release.", UserWarning, stacklevel=2)
        shape = np.broadcast_shapes(tuple(input.shape), tuple(other.shape))
        dim = next((i for i, s in enumerate(shape) if s == 3), -1)
    if input.ndim == other.ndim:
        shape = np.broadcast_shapes(tuple(input.shape), tuple(other.shape))
        input, other = S.expand(input, *shape), S.expand(other, *shape)
    return cross(input, other, dim=dim, out=out)


def vecdot(x, y, *, dim=-1, out=None):
    """The dot product of vectors along ``dim`` (batch dims broadcast); a complex ``x`` is
    conjugated (sum of conj(x) * y), as PyTorch's."""
    _same_dtype(x, y, "linalg.vecdot", ("x", "y"))
    if x.is_complex():
        return _into(out, (x.conj() * y).sum(dim))
    return _into(out, R.sum(x * y, dim))


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """``torch.linalg.diagonal``: the diagonal of the last two dims by default."""
    return S.diagonal(A, offset, dim1, dim2)


def _chain_order(dims):
    """The optimal parenthesisation of a matrix chain with shapes dims[i] x dims[i+1]
    (the textbook dynamic programme, as PyTorch's multi_dot)."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j] = c
                    split[i][j] = k
    return split


def multi_dot(tensors, *, out=None):
    """The product of a chain of matrices in the cheapest order; the first may be a row
    vector and the last a column vector (1-D), as PyTorch's.

    >>> import tapegrad as tg
    >>> tg.linalg.multi_dot([tg.ones(2), tg.ones(2, 3), tg.ones(3)])
    tensor(6.)
    """
    ts = list(tensors)
    if len(ts) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(ts)}")
    first_1d, last_1d = ts[0].ndim == 1, ts[-1].ndim == 1
    if first_1d:
        ts[0] = S.unsqueeze(ts[0], 0)
    if last_1d:
        ts[-1] = S.unsqueeze(ts[-1], -1)
    for i, t in enumerate(ts):
        if t.ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.ndim}D")
    for i in range(len(ts) - 1):
        if ts[i].shape[1] != ts[i + 1].shape[0]:
            a, b = ts[i].shape, ts[i + 1].shape
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes "
                               f"[{a[0]}, {a[1]}] and [{b[0]}, {b[1]}] cannot be multiplied")
    if len(ts) == 2:
        y = matmul(ts[0], ts[1])
    elif len(ts) == 3:  # PyTorch compares the two orders' costs directly
        a, b = ts[0].shape[0], ts[1].shape[0]
        c, d = ts[2].shape[0], ts[2].shape[1]
        left, right = a * c * (b + d), b * d * (a + c)
        y = (matmul(matmul(ts[0], ts[1]), ts[2]) if left < right else
             matmul(ts[0], matmul(ts[1], ts[2])))
    else:
        dims = [t.shape[0] for t in ts] + [ts[-1].shape[1]]
        split = _chain_order(dims)

        def product(i, j):
            if i == j:
                return ts[i]
            k = split[i][j]
            return matmul(product(i, k), product(k + 1, j))
        y = product(0, len(ts) - 1)
    if first_1d:
        y = S.squeeze(y, 0)
    if last_1d:
        y = S.squeeze(y, -1)
    return _into(out, named_result(y, "ViewBackward0"))  # (PyTorch's last step)


def matrix_power(A, n, *, out=None):
    """``A`` to the integer power ``n`` (square matrices; n < 0 inverts first), by PyTorch's
    sequence of products (binary powers).

    >>> import tapegrad as tg
    >>> tg.linalg.matrix_power(tg.tensor([[1.0, 1.0], [0.0, 1.0]]), 3)
    tensor([[1., 3.],
            [0., 1.]])
    """
    _tensor(A, "matrix_power", "input")
    if A.ndim < 2:
        raise RuntimeError("linalg.matrix_power: The input tensor A must have at least 2 "
                           "dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"linalg.matrix_power: A must be batches of square matrices, but "
                           f"they are {A.shape[-2]} by {A.shape[-1]} matrices")
    n = operator.index(n)
    if n == 0:
        return _into(out, A * 0.0 + _eye_like(A.shape[-1], A))
    if n < 0:
        _float(A, "linalg.matrix_power")
        A, n = inv(A), -n
    if n == 1:
        return _into(out, A * 1.0)
    if n == 2:
        return _into(out, matmul(A, A))
    if n == 3:
        return _into(out, matmul(matmul(A, A), A))
    z = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = A if z is None else matmul(z, z)
        if bit:
            result = z if result is None else matmul(result, z)
    return _into(out, result)


@node("DiagEmbedBackward0")
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Matrices whose ``offset`` diagonal (in dims ``dim1``, ``dim2`` of the result) holds
    the last dim of ``input``.

    >>> import tapegrad as tg
    >>> tg.diag_embed(tg.tensor([1.0, 2.0]))
    tensor([[1., 0.],
            [0., 2.]])
    """
    k = input.shape[-1]
    n = k + abs(offset)
    rows = np.arange(k) + builtins.max(0, -offset)
    cols = np.arange(k) + builtins.max(0, offset)
    index = np.full((n, n), k, np.int64)  # one past the input: the zero appended below
    index[rows, cols] = np.arange(k)
    padded = S.cat([input, _out(np.zeros(input.shape[:-1] + (1,), input.dtype))], -1)
    y = padded[..., index]  # (..., n, n)
    nd = y.ndim
    d1, d2 = S._wrap_dim(dim1, nd, "diag_embed"), S._wrap_dim(dim2, nd, "diag_embed")
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return S.movedim(y, (nd - 2, nd - 1), (d1, d2))


@node("BlockDiagBackward0")
def block_diag(*tensors):
    """The block-diagonal matrix of the given (0-, 1- or 2-D) tensors.

    >>> import tapegrad as tg
    >>> tg.block_diag(tg.tensor([[1.0]]), tg.tensor([[2.0, 3.0]]))
    tensor([[1., 0., 0.],
            [0., 2., 3.]])
    """
    mats = []
    for i, t in enumerate(tensors):
        if t.ndim > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer "
                               f"dimensions. Input {i} has {t.ndim} dimensions")
        mats.append(S.reshape(t, 1, 1) if t.ndim == 0 else
                    (S.unsqueeze(t, 0) if t.ndim == 1 else t))
    if not mats:
        return _out(np.zeros((1, 0)))
    dt = dtypes.result_type(*[(m.dtype, 2) for m in mats])
    mats = [m if m.dtype == dt else m.to(dt) for m in mats]
    width = builtins.sum(m.shape[1] for m in mats)
    rows, left = [], 0
    for m in mats:
        r, c = m.shape
        parts = []
        if left:
            parts.append(_out(np.zeros((r, left), dt)))
        parts.append(m)
        if width - left - c:
            parts.append(_out(np.zeros((r, width - left - c), dt)))
        rows.append(S.cat(parts, 1) if len(parts) > 1 else m)
        left += c
    return S.cat(rows, 0)


@node("UnsafeViewBackward0")
def kron(input, other, *, out=None):
    """The Kronecker product: ``out[i * b + j] = a[i] * b[j]`` along every dim."""
    nd = builtins.max(input.ndim, other.ndim)
    a = S.reshape(input, *((1,) * (nd - input.ndim) + tuple(input.shape)))
    b = S.reshape(other, *((1,) * (nd - other.ndim) + tuple(other.shape)))
    ia = [v for s in a.shape for v in (s, 1)]
    ib = [v for s in b.shape for v in (1, s)]
    y = S.reshape(a, *ia) * S.reshape(b, *ib)
    return _into(out, S.reshape(y, *[p * q for p, q in zip(a.shape, b.shape, strict=True)]))


def tensordot(a, b, dims=2, out=None):
    """Sum of products over ``dims``: the last ``dims`` dims of ``a`` with the first of
    ``b``, or the two lists of dims ``dims = ([a dims], [b dims])``.

    >>> import tapegrad as tg
    >>> tg.tensordot(tg.ones(2, 3), tg.ones(3, 4), dims=1).shape
    torch.Size([2, 4])
    """
    if isinstance(a, Tensor) and isinstance(b, Tensor):
        same_dtype(a, b, "both")
    if isinstance(dims, Tensor):
        dims = np.asarray(dims._data).tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        da = list(range(-dims, 0))  # (as PyTorch counts them: its messages say dim -1)
        db = list(range(dims))
    else:
        da, db = dims
        da = [da] if isinstance(da, int) else list(da)
        db = [db] if isinstance(db, int) else list(db)
        if len(da) != len(db):
            raise RuntimeError("both dimension lists should have same length")
    given = list(zip(da, db, strict=True))  # (the messages name the dims as given)
    da = [S._wrap_dim(d, a.ndim, "tensordot") for d in da]
    db = [S._wrap_dim(d, b.ndim, "tensordot") for d in db]
    for x, y, (gx, gy) in zip(da, db, given, strict=True):
        if a.shape[x] != b.shape[y]:
            raise RuntimeError(f"contracted dimensions need to match, but first has size "
                               f"{a.shape[x]} in dim {gx} and second has size {b.shape[y]} in "
                               f"dim {gy}")
    fa = [d for d in range(a.ndim) if d not in da]
    fb = [d for d in range(b.ndim) if d not in db]
    k = int(np.prod([a.shape[d] for d in da])) if da else 1
    A2 = S.reshape(S.permute(a, *(fa + da)), -1 if fa else 1, k)
    B2 = S.reshape(S.permute(b, *(db + fb)), k, -1 if fb else 1)
    y = matmul(A2, B2)
    return _into(out, S.reshape(y, *([a.shape[d] for d in fa] + [b.shape[d] for d in fb])))


@node("CdistBackward0")
def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """Pairwise p-norm distances between the rows of ``x1`` (..., P, M) and ``x2``
    (..., R, M).  For p = 2 with more than 25 rows (or ``use_mm_for_euclid_dist``),
    PyTorch computes through a matrix product, and so does this (the rounding is
    PyTorch's: distances of near points lose digits, clamped at 1e-30 before the root).
    """
    if x1.ndim < 2 or x2.ndim < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1.ndim}D" if
                           x1.ndim < 2 else f"cdist only supports at least 2D tensors, X2 got:"
                           f" {x2.ndim}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: "
                           f"{x1.shape[-1]} X2: {x2.shape[-1]}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    modes = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
             "donot_use_mm_for_euclid_dist")
    if compute_mode not in modes:
        raise RuntimeError(f"{compute_mode} is not a valid value for compute_mode")
    P, Rr = x1.shape[-2], x2.shape[-2]
    use_mm = p == 2 and (compute_mode == "use_mm_for_euclid_dist" or (
        compute_mode == modes[0] and (P > 25 or Rr > 25)))
    if use_mm:
        n1 = R.sum(x1 * x1, -1, keepdim=True)
        n2 = R.sum(x2 * x2, -1, keepdim=True)
        ones1 = _out(np.ones(tuple(n1.shape), n1.dtype))
        ones2 = _out(np.ones(tuple(n2.shape), n2.dtype))
        a = S.cat([x1 * -2.0, n1, ones1], -1)
        b = S.cat([x2, ones2, n2], -1)
        return E.sqrt(E.clamp_min(matmul(a, _mT(b)), 1e-30))
    diff = S.unsqueeze(x1, -2) - S.unsqueeze(x2, -3)  # (..., P, R, M)
    if p == math.inf:  # PyTorch's backward is sign(diff) * (|diff| == dist): every entry tied
        a = E.abs(diff)  # at the maximum takes the whole gradient (norm's splits it)
        dist = R.norm(diff.detach(), math.inf, -1)
        tied = a.detach() == S.unsqueeze(dist, -1)
        return dist + R.sum((a - a.detach()) * tied, -1)  # (the value is dist's exactly)
    return R.norm(diff, float(p), -1)


# ---- matrix_exp (a composite), LU factorisation and solves --------------------------------
# Pade(13) with scaling and squaring (Higham 2005): the coefficients and the 1-norm bound
# theta_13 below which Pade(13) alone is accurate to double precision.
_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
           129060195264000.0, 10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0,
           40840800.0, 960960.0, 16380.0, 182.0, 1.0)
_PADE13 = tuple(c / _PADE13[0] for c in _PADE13)  # (b0 = 1: exp(0) is exactly I)
_THETA13 = 5.371920351148152


@node("LinalgMatrixExpBackward0")
def matrix_exp(A):
    """The matrix exponential ``sum_k A^k / k!`` of square matrices (batch dims allowed),
    composed of matmul and solve, so it is differentiable to any order.

    >>> import tapegrad as tg
    >>> tg.linalg.matrix_exp(tg.zeros(2, 2))
    tensor([[1., 0.],
            [0., 1.]])
    """
    _matrices(A, "linalg.matrix_exp")
    _float(A, "linalg.matrix_exp")
    n = A.shape[-1]
    if n == 0 or A.numel() == 0:
        return _out(np.zeros(tuple(A.shape), A.dtype))
    norm1 = np.abs(_arr(A)).sum(-2).max() if A.numel() else 0.0
    s = builtins.max(0, int(math.ceil(math.log(norm1 / _THETA13, 2)))) if norm1 > _THETA13 \
        else 0  # one scale for the whole batch (the largest): accuracy is unchanged
    X = A * (2.0 ** -s) if s else A
    b = _PADE13
    eye = _eye_like(n, X)
    X2 = matmul(X, X)
    X4 = matmul(X2, X2)
    X6 = matmul(X4, X2)
    U = matmul(X, matmul(X6, b[13] * X6 + b[11] * X4 + b[9] * X2) + b[7] * X6 + b[5] * X4 +
               b[3] * X2 + b[1] * eye)
    V = matmul(X6, b[12] * X6 + b[10] * X4 + b[8] * X2) + b[6] * X6 + b[4] * X4 + \
        b[2] * X2 + b[0] * eye
    E_ = solve(V - U, V + U)
    for _ in range(s):
        E_ = matmul(E_, E_)
    return E_


LuFactorResult = _named("linalg_lu_factor", ("LU", "pivots"))
LuResult = _named("linalg_lu", ("P", "L", "U"))
LuUnpackResult = _named("lu_unpack", ("P", "L", "U"))


def _lu_values(a):
    """Packed LU factors and LAPACK's 1-based int32 pivots, per matrix (getrf)."""
    lu = np.empty_like(a)
    piv = np.empty(a.shape[:-2] + (min(a.shape[-2:]),), np.int32)
    for idx in np.ndindex(*a.shape[:-2]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a singular matrix factors all the same
            lu[idx], p = _sla().lu_factor(a[idx], check_finite=False)
        piv[idx] = p + 1
    return lu, piv


def _permutations(piv, m=None):
    """P (..., m, m) with ``A = P L U`` from 1-based row interchanges (min(m, n) of them
    for an m x n A; m defaults to their number)."""
    m = piv.shape[-1] if m is None else m
    P = np.zeros(piv.shape[:-1] + (m, m))
    for idx in np.ndindex(*piv.shape[:-1]):
        perm = np.arange(m)
        for i, p in enumerate(piv[idx] - 1):
            perm[[i, p]] = perm[[p, i]]
        P[idx][perm, np.arange(m)] = 1.0
    return P


def _strict_lower(LU):
    """The strictly lower part (..., m, k) of an m x n matrix, k = min(m, n)."""
    m, n = LU.shape[-2:]
    return S.tril(LU if n <= m else LU[..., :m], -1)


def _unit_lower(LU):
    """L (..., m, k) of the packed m x n factor: unit diagonal, k = min(m, n)."""
    m, n = LU.shape[-2:]
    return _strict_lower(LU) + Tensor(np.eye(m, min(m, n), dtype=LU.dtype))


def _upper(LU):
    """U (..., k, n) of the packed m x n factor."""
    m, n = LU.shape[-2:]
    return S.triu(LU if m <= n else LU[..., :n, :])


class LinalgLuFactor(Function):
    node_name = "LinalgLuFactorExBackward0"  # PyTorch's node name

    @staticmethod
    def forward(ctx, A):
        lu, piv = _lu_values(_arr(A))
        LU = _out(lu)
        ctx.P = _out(_permutations(piv, lu.shape[-2]).astype(lu.dtype))
        pivots = _out(piv)
        ctx.save_for_backward(LU)
        ctx.mark_non_differentiable(pivots)
        return LU, pivots

    @staticmethod
    def backward(ctx, g, _gpiv):
        # A = P L U (square, invertible): gA = P L^-H (tril_-1(L^H gL) + triu(gU U^H)) U^-H,
        # gL and gU the strictly lower and upper parts of the packed factor's gradient
        LU, = ctx.saved_tensors
        L, U = _unit_lower(LU), _upper(LU)
        m, n = LU.shape[-2:]
        k = min(m, n)
        gL, gU = _strict_lower(g), _upper(g)
        if m == n:
            phi = S.tril(matmul(_mT(L), gL), -1) + S.triu(matmul(gU, _mT(U)))
            X = solve_triangular(_mT(U), phi, upper=False, left=False)
        elif m < n:  # wide: U = [U1 U2], L square; the part of U2 passes through L only
            phi = S.tril(matmul(_mT(L), gL) - matmul(gU, _mT(U)), -1)
            X = solve_triangular(_mT(U[..., :k]), phi, upper=False, left=False)
            X = S.cat([X + gU[..., :k], gU[..., k:]], -1)
        else:  # tall: L = [L1; L2], U square; the part of L2 passes through U only
            phi = S.triu(matmul(gU, _mT(U)) - matmul(_mT(L), gL))
            X = solve_triangular(_mT(L[..., :k, :]), phi, upper=True, unitriangular=True)
            X = S.cat([X + gL[..., :k, :], gL[..., k:, :]], -2)
            return matmul(ctx.P, solve_triangular(_mT(U), X, upper=False, left=False))
        return matmul(ctx.P, solve_triangular(_mT(L), X, upper=True, unitriangular=True))


def lu_factor(A, *, pivot=True, out=None):
    """``(LU, pivots)``: L (unit diagonal, below) and U packed in one matrix, and LAPACK's
    1-based row interchanges (int32), with ``A = P L U``; A is m x n, L m x min(m, n) and
    U min(m, n) x n."""
    _matrices(A, "linalg.lu_factor", square=False)
    _float(A, "linalg.lu_factor")
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the "
                           "CPU")
    return _into(out, LuFactorResult(*_run(LinalgLuFactor, "linalg.lu_factor", A)))


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """``(P, L, U)`` from ``lu_factor``'s packed factors and pivots."""
    P = _out(_permutations(_arr(LU_pivots), LU_data.shape[-2]).astype(LU_data.dtype)) \
        if unpack_pivots else None
    if not unpack_data:
        return LuUnpackResult(P, None, None)
    return LuUnpackResult(P, _unit_lower(LU_data), _upper(LU_data))


def lu(A, *, pivot=True, out=None):
    """``(P, L, U)`` with ``A = P L U``, L unit lower triangular, U upper triangular."""
    LU, piv = lu_factor(A, pivot=pivot)
    P, L, U = lu_unpack(LU, piv)
    L, U = (named_result(t, "LinalgLuBackward0", A) for t in (L, U))  # (PyTorch's one node)
    return _into(out, LuResult(P, L, U))


@node("LinalgLuSolveBackward0")
def lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    """X with ``A X = B`` (``X A = B`` if not ``left``; A^H for ``adjoint``) from
    ``lu_factor``'s ``(LU, pivots)``; differentiable in LU and B."""
    P, L, U = lu_unpack(LU, pivots)
    if not left:  # X A = B  <=>  A^H X^H = B^H
        return _into(out, _mT(lu_solve(LU, pivots, _mT(B), adjoint=not adjoint)))
    if adjoint:  # U^H L^H P^T X = B
        Z = solve_triangular(_mT(U), B, upper=False)
        X = matmul(P, solve_triangular(_mT(L), Z, upper=True, unitriangular=True))
    else:  # L U X = P^T B
        Y = solve_triangular(L, matmul(_mT(P), B), upper=False, unitriangular=True)
        X = solve_triangular(U, Y, upper=True)
    return _into(out, X)


def _legacy_lu_solve(b, LU_data, LU_pivots):
    return lu_solve(LU_data, LU_pivots, b)


LuFactorExResult = _named("linalg_lu_factor_ex", ("LU", "pivots", "info"))
LdlFactorResult = _named("linalg_ldl_factor", ("LD", "pivots"))
LdlFactorExResult = _named("linalg_ldl_factor_ex", ("LD", "pivots", "info"))


def lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    """``lu_factor`` plus LAPACK's ``info`` per matrix: 0, or the 1-based index of U's first
    zero diagonal element (the factors are returned all the same)."""
    LU, pivots = lu_factor(A, pivot=pivot)
    diag = np.diagonal(_arr(LU), axis1=-2, axis2=-1)
    zero = diag == 0
    info = np.where(zero.any(-1), zero.argmax(-1) + 1, 0).astype(np.int32)
    if check_errors and info.any():
        idx = np.unravel_index(int(np.flatnonzero(info)[0]), info.shape)
        k = int(info[idx])
        raise LinAlgError(f"torch.linalg.lu_factor_ex: {_batch_prefix(info.shape, idx)}U[{k},{k}]"
                          " is zero and using it on lu_solve would result in a division by "
                          "zero. If you still want to perform the factorization, consider "
                          "calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")
    return _into(out, LuFactorExResult(LU, pivots, _out(info)))


# ---- LDL^T (Bunch-Kaufman, sytrf): values only, as PyTorch's -----------------------------
def _ldl_values(a, hermitian):
    sytrf = _sla().lapack.dsytrf if a.dtype == np.float64 else _sla().lapack.ssytrf
    ld = np.zeros_like(a)
    piv = np.zeros(a.shape[:-1], np.int32)
    info = np.zeros(a.shape[:-2], np.int32)
    for idx in np.ndindex(*a.shape[:-2]):
        f, p, i = sytrf(a[idx], lower=1)
        ld[idx], piv[idx], info[idx] = np.tril(f), p, i
    return ld, piv, info


def ldl_factor_ex(A, *, hermitian=False, check_errors=False, out=None):
    """``(LD, pivots, info)``: the compact Bunch-Kaufman factorisation ``A = L D L^T`` of a
    symmetric matrix (LAPACK sytrf, lower triangle; pivots 1-based, negative for 2x2 blocks),
    as PyTorch's.  Not differentiable (PyTorch defines no derivative either)."""
    op = "torch.linalg.ldl_factor_ex"
    _matrices(A, op)
    ld, piv, info = _ldl_values(_arr(A), hermitian)
    if check_errors and info.any():
        idx = np.unravel_index(int(np.flatnonzero(info)[0]), info.shape)
        raise LinAlgError(f"{op}: {_batch_prefix(info.shape, idx)}The factorization could not "
                          f"be completed because the input is not invertible (D[{info[idx]},"
                          f"{info[idx]}] is exactly zero).")
    outs = not_differentiable("linalg_ldl_factor_ex", ld, piv, info).apply(A)
    return _into(out, LdlFactorExResult(*outs))


def ldl_factor(A, *, hermitian=False, out=None):
    """``(LD, pivots)`` of ``ldl_factor_ex``."""
    LD, pivots, info = ldl_factor_ex(A, hermitian=hermitian)
    if info.numel() and np.asarray(info._data).any():
        raise LinAlgError("torch.linalg.ldl_factor: The factorization could not be completed "
                          "because the input is not invertible.")
    return _into(out, LdlFactorResult(LD, pivots))


def ldl_solve(LD, pivots, B, *, hermitian=False, out=None):
    """X with ``A X = B`` from ``ldl_factor``'s ``(LD, pivots)`` (LAPACK sytrs).  Not
    differentiable (as PyTorch's)."""
    op = "torch.linalg.ldl_solve"
    _matrices(LD, op, "LD")
    _tensor(B, "linalg_ldl_solve", "B", 3)
    if B.ndim < 2:
        raise RuntimeError(f"{op}: The input tensor B must have at least 2 dimensions.")
    _same_dtype(LD, B, op)
    ld, piv, b = _arr(LD), np.asarray(pivots._data).astype(np.int32), _arr(B)
    batch = np.broadcast_shapes(ld.shape[:-2], b.shape[:-2])
    ld = np.broadcast_to(ld, batch + ld.shape[-2:])
    piv = np.broadcast_to(piv, batch + piv.shape[-1:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    sytrs = _sla().lapack.dsytrs if b.dtype == np.float64 else _sla().lapack.ssytrs
    x = np.empty_like(b)
    for idx in np.ndindex(*batch):
        x[idx], _ = sytrs(ld[idx], piv[idx], b[idx], lower=1)
    return _into(out, not_differentiable("linalg_ldl_solve", x).apply(LD, B))


# ---- composites: vander, householder_product, tensorinv, tensorsolve ----------------------
def vander(x, *, N=None):  # noqa: N803 (PyTorch's name)
    """The Vandermonde matrices of ``x`` (..., n): powers ``x^0 .. x^(N-1)`` along a new last
    dim (N defaults to n), by cumulative products."""
    _tensor(x, "linalg_vander", "x")
    n = x.shape[-1] if x.ndim else 1
    N = n if N is None else int(N)  # noqa: N806
    if x.ndim == 0 or N <= 1:
        raise RuntimeError("N must be greater than 1.")
    if x.dtype.kind == "b" or (x.dtype.kind in "iu" and x.dtype != np.int64):
        x = x.to(np.int64)
    ones = Tensor(np.ones(tuple(x.shape) + (1,), x.dtype))
    powers = S.expand(S.unsqueeze(x, -1), *x.shape, N - 1).cumprod(-1)
    return S.cat([ones, powers], -1)


def householder_product(A, tau, *, out=None):
    """The first n columns of ``H_1 H_2 ... H_k``, ``H_i = I - tau_i v_i v_i^T``, ``v_i`` the
    i-th column of A (m, n) below its diagonal, with a 1 on it (geqrf's compact Q)."""
    op = "torch.linalg.householder_product"
    _tensor(A, "linalg_householder_product", "input")
    _tensor(tau, "linalg_householder_product", "tau", 2)
    if A.ndim < 2:
        raise RuntimeError(f"{op}: input must have at least 2 dimensions.")
    m, n = A.shape[-2:]
    if m < n:
        raise RuntimeError(f"{op}: input.shape[-2] must be greater than or equal to "
                           "input.shape[-1]")
    if tau.ndim != A.ndim - 1:
        raise RuntimeError(f"{op}: Expected tau to have one dimension less than input, but "
                           f"got tau.ndim equal to {tau.ndim} and input.ndim is equal to "
                           f"{A.ndim}")
    if n < tau.shape[-1]:
        raise RuntimeError(f"{op}: input.shape[-1] must be greater than or equal to "
                           "tau.shape[-1]")
    if tuple(tau.shape[:-1]) != tuple(A.shape[:-2]):
        raise RuntimeError(f"{op}: Expected batch dimensions of tau to be equal to "
                           f"input.shape[:-2], but got {list(tau.shape[:-1])}")
    _float(A, op)
    _same_dtype(A, tau, op)
    k = tau.shape[-1]
    V = S.tril(A, -1) + Tensor(np.eye(m, n, dtype=A.dtype))
    Q = Tensor(np.broadcast_to(np.eye(m, dtype=A.dtype), tuple(A.shape[:-2]) + (m, m)).copy())
    for i in range(k):  # Q <- Q (I - tau_i v v^T) = Q - tau_i (Q v) v^T
        v = V[..., :, i:i + 1]
        Q = Q - matmul(matmul(Q, v) * _uv(_uv(tau[..., i])), _mT(v))
    if k == 0:  # the identity's first columns, still a function of A (gradient 0)
        Q = Q + A[..., :1, :1] * 0.0
    Q = Q[..., :, :n].clone() if n < m else Q  # (a new tensor, as PyTorch's: not a view)
    return _into(out, named_result(Q, "LinalgHouseholderProductBackward0", A, tau))


def _check_tensor_prod(lhs, rhs, which):
    if lhs != rhs:
        raise RuntimeError(f"Expected self to satisfy the requirement "
                           f"prod(self.shape[{which}:]) == prod(self.shape[:{which}]), but got "
                           f"{lhs} != {rhs}")


def tensorinv(A, ind=2, *, out=None):
    """The inverse of A seen as a linear map from its first ``ind`` dims to the rest:
    ``tensordot(tensorinv(A, ind), A, ind)`` is the identity; shape
    ``A.shape[ind:] + A.shape[:ind]``."""
    _tensor(A, "linalg_tensorinv")
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    left, right = tuple(A.shape[:ind]), tuple(A.shape[ind:])
    _check_tensor_prod(math.prod(right), math.prod(left), "ind")
    inverse = inv(A.reshape(math.prod(left), math.prod(right)))
    return _into(out, inverse.reshape(*right, *left))


def tensorsolve(A, B, dims=None, *, out=None):
    """X with ``tensordot(A, X, X.ndim) = B``, X of shape ``A.shape[B.ndim:]`` (``dims``:
    dims of A moved to the end first)."""
    _tensor(A, "linalg_tensorsolve")
    _tensor(B, "linalg_tensorsolve", "B", 2)
    if dims is not None:
        dims = [d % A.ndim for d in dims]
        A = S.permute(A, [d for d in range(A.ndim) if d not in dims] + dims)
    rest = tuple(A.shape[B.ndim:])
    _check_tensor_prod(math.prod(rest), B.numel(), "other.ndim")
    X = solve(A.reshape(B.numel(), math.prod(rest)), B.reshape(-1))
    return _into(out, X.reshape(*rest))


# ---- eig, eigvals: the complex eigen-decomposition of real matrices -------------------------
def _mH(a):
    return np.conj(np.swapaxes(a, -1, -2))


class _Eig(Function):
    """LAPACK's geev (NumPy's eig) of real matrices: the real and imaginary parts of the
    eigenvalues L and of the unit eigenvectors V (columns), four real outputs that
    _complex.py's parts constructor pairs up.  Backward, PyTorch's linalg_eig_backward: with
    W = V^H gV less each column's phase direction, gA = Re(V^-H (diag(gL) + W_ij /
    conj(L_j - L_i) off the diagonal) V^H) for a real A."""
    node_name = "LinalgEigBackward0"

    @staticmethod
    def forward(ctx, A):
        L, V = np.linalg.eig(np.asarray(A._data, np.float64))
        ctx.LV, ctx.dtype = (L.astype(np.complex128), V.astype(np.complex128)), A.dtype
        return tuple(_leaf(_norm(np.ascontiguousarray(x, A.dtype)))
                     for x in (L.real, L.imag, V.real, V.imag))

    @staticmethod
    @once_differentiable
    def backward(ctx, gLr, gLi, gVr, gVi):
        L, V = ctx.LV
        gL, gV = _joined(gLr, gLi), _joined(gVr, gVi)
        W = _mH(V) @ gV
        if not np.allclose(np.imag(np.diagonal(W, 0, -2, -1)), 0.0, rtol=1e-2, atol=1e-2):
            raise RuntimeError(
                "linalg_eig_backward: The eigenvectors in the complex case are specified up "
                "to multiplication by e^{i phi}. The specified loss function depends on this "
                "quantity, so it is ill-defined.")
        W = W - _mH(V) @ (V * np.real(np.diagonal(W, 0, -2, -1))[..., None, :])
        eye = np.eye(L.shape[-1], dtype=bool)
        W = np.where(eye, 0, W / np.where(eye, 1, np.conj(L[..., None, :] - L[..., :, None])))
        W = W + gL[..., None] * eye
        gA = np.linalg.solve(_mH(V), W @ _mH(V))
        return _leaf(_norm(np.ascontiguousarray(gA.real, ctx.dtype)))


def _joined(re, im):
    """The complex adjoint of a pair of real parts (a missing part's adjoint is zero)."""
    part = [0.0 if g is None else np.asarray(g._data, np.float64) for g in (re, im)]
    return part[0] + 1j * part[1]


def _eig_parts(A, op, out):
    _matrices(A, op)
    if out is not None:
        raise NotImplementedError(f"{op}: out= is not supported for complex results")
    if state.tracing is not None:
        raise NotImplementedError(f"tapegrad.trace: {op} returns complex tensors, which are "
                                  "eager-only; run the function eagerly")
    Lr, Li, Vr, Vi = _Eig.apply(A)
    make = COMPLEX_HOOKS["parts"]
    return make(Lr, Li, "LinalgEigBackward0"), make(Vr, Vi, "LinalgEigBackward0")


_EigResult = _named("linalg_eig", "eigenvalues eigenvectors")


def eig(A, *, out=None):
    """``(eigenvalues, eigenvectors)`` of a real square matrix (or a batch), complex as
    PyTorch's (complex128 of float64, complex64 of float32); the eigenvectors are the unit
    columns LAPACK gives.  Differentiable once (a gradient that depends on the eigenvectors'
    phases is not well defined, as in PyTorch)."""
    return _EigResult(*_eig_parts(A, "linalg.eig", out))


def eigvals(A, *, out=None):
    """The complex eigenvalues of a real square matrix (or a batch), as ``eig(A)[0]``."""
    return _eig_parts(A, "linalg.eigvals", out)[0]


# ---- geqrf, orgqr, ormqr: LAPACK's compact QR and its Householder reflectors ------------
_GeqrfResult = _named("geqrf", "a tau")


class _Geqrf(Function):
    """LAPACK's geqrf: PyTorch has no derivative for it (its backward raises)."""

    node_name = "GeqrfBackward0"

    @staticmethod
    def forward(ctx, A):
        a = np.asarray(A._data, np.float64)
        m, n = a.shape[-2:]
        qr = np.empty(a.shape)
        tau = np.empty(a.shape[:-2] + (min(m, n),))
        for i in np.ndindex(a.shape[:-2]):
            qr[i], tau[i] = _sla().lapack.dgeqrf(a[i])[:2]
        return _leaf(_norm(qr.astype(A.dtype))), _leaf(_norm(tau.astype(A.dtype)))

    @staticmethod
    def backward(ctx, ga, gtau):
        raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


def geqrf(input, *, out=None):  # noqa: A002 (PyTorch's name)
    """``(a, tau)``: the QR factorisation in LAPACK's compact form (R on and above a's
    diagonal, the Householder vectors below it), as ``torch.geqrf``; ``householder_product
    (a, tau)`` is Q, ``ormqr`` applies it.  Not differentiable, as in PyTorch."""
    _matrices(input, "torch.geqrf", "input", square=False)
    return _into(out, _GeqrfResult(*_run(_Geqrf, "geqrf", input)))


def ormqr(input, tau, other, left=True, transpose=False, *, out=None):  # noqa: A002
    """``Q @ other`` (``Q.mT`` with ``transpose``; ``other @ Q`` with ``left=False``), Q the
    full square product of geqrf's reflectors in ``(input, tau)``, as ``torch.ormqr``;
    differentiable in all three (through householder_product's ops)."""
    op = "torch.ormqr"
    for x, name, i in ((input, "input", 1), (tau, "tau", 2), (other, "other", 3)):
        _tensor(x, "ormqr", name, i)
    if input.ndim < 2 or other.ndim < 2:
        raise RuntimeError(f"{op}: input must have at least 2 dimensions.")
    m = input.shape[-2]
    side = other.shape[-2] if left else other.shape[-1]
    if side != m:
        raise RuntimeError(f"{op}: other.shape[{-2 if left else -1}] must be equal to "
                           f"input.shape[-2]")
    if tau.shape[-1] > m:
        raise RuntimeError(f"{op}: tau.shape[-1] must be less than or equal to input.shape[-2]")
    _same_dtype(input, other, op)
    k = tau.shape[-1]
    A = input[..., :, :k]  # (Q = H_1 .. H_k: the full square product of the k reflectors)
    if m > k:  # (zero reflectors: H = I)
        A = S.cat([A, Tensor(np.zeros((*input.shape[:-1], m - k), input.dtype))], -1)
        tau = S.cat([tau, Tensor(np.zeros((*tau.shape[:-1], m - k), tau.dtype))], -1)
    Q = householder_product(A, tau)
    Q = _mT(Q) if transpose else Q
    return _into(out, matmul(Q, other) if left else matmul(other, Q))


def orgqr(input, tau, *, out=None):  # noqa: A002
    """``torch.orgqr``: householder_product's other name."""
    return householder_product(input, tau, out=out)


# ---- Tensor methods (bound from this floor: tensor.py stays below it) ---------------------
_METHODS = {
    "det": det, "logdet": logdet, "slogdet": lambda self: _OldSlogdetResult(*slogdet(self)),
    "inverse": inv, "cholesky": _legacy_cholesky, "pinverse": pinverse,
    "matrix_power": matrix_power, "cross": _torch_cross, "cholesky_solve": cholesky_solve,
    "svd": _legacy_svd, "qr": lambda self, some=True: qr(self, "reduced" if some else
                                                          "complete"),
    "kron": kron, "diag_embed": diag_embed,
    "triangular_solve": triangular_solve,
    "matrix_exp": matrix_exp, "lu_solve": _legacy_lu_solve,
    "geqrf": geqrf, "ormqr": ormqr, "orgqr": orgqr,
}
for _name, _fn in _METHODS.items():
    setattr(Tensor, _name, _fn)

# the top-level names (tapegrad/__init__.py re-exports TOP)
TOP = {
    "det": det, "logdet": logdet, "slogdet": lambda A: _OldSlogdetResult(*slogdet(A)),
    "inverse": inv, "cholesky": _legacy_cholesky, "cholesky_solve": cholesky_solve,
    "pinverse": pinverse, "matrix_power": matrix_power, "cross": _torch_cross, "kron": kron,
    "tensordot": tensordot, "cdist": cdist, "diag_embed": diag_embed, "block_diag": block_diag,
    "triangular_solve": triangular_solve, "svd": _legacy_svd, "qr": _METHODS["qr"],
    "chain_matmul": lambda *ms: multi_dot(ms),
    "matrix_exp": matrix_exp, "lu_unpack": lu_unpack, "lu_solve": _legacy_lu_solve,
    "geqrf": geqrf, "ormqr": ormqr, "orgqr": orgqr,
}

__getattr__ = torch_named(globals(), "linalg_")  # (PyTorch's names: _names.py)
