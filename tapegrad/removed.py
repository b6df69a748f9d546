"""Functions PyTorch has removed or deprecated, as PyTorch 2.13 answers them: the removed
ones (``torch.solve``, ``torch.eig``...) raise PyTorch's RuntimeError word for word, which
names the replacement; the deprecated ``torch.lu`` still works, with PyTorch's warning."""
import warnings

from . import linalg
from .return_types import named
from .tensor import Tensor

_GONE = "This function was deprecated since version 1.9 and is now removed. "
_MESSAGES = {
    "lstsq": _GONE + (
        "`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n"
        "`torch.linalg.lstsq` has reversed arguments and does not return the QR decomposition "
        "in the returned tuple (although it returns other information about the problem).\n\n"
        "To get the QR decomposition consider using `torch.linalg.qr`.\n\n"
        "The returned solution in `torch.lstsq` stored the residuals of the solution in the "
        "last m - n columns of the returned value whenever m > n. In torch.linalg.lstsq, the "
        "residuals are in the field 'residuals' of the returned named tuple.\n\n"
        "The unpacking of the solution, as in\n"
        "X, _ = torch.lstsq(B, A).solution[:A.size(1)]\n"
        "should be replaced with:\n"
        "X = torch.linalg.lstsq(A, B).solution"),
    "solve": _GONE + (
        "`torch.solve` is deprecated in favor of `torch.linalg.solve`. `torch.linalg.solve` "
        "has its arguments reversed and does not return the LU factorization.\n\n"
        "To get the LU factorization see `torch.lu`, which can be used with `torch.lu_solve` "
        "or `torch.lu_unpack`.\n"
        "X = torch.solve(B, A).solution should be replaced with:\n"
        "X = torch.linalg.solve(A, B)"),
    "eig": _GONE + (
        "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather than "
        "real tensors mimicking complex tensors.\n\n"
        "L, _ = torch.eig(A) should be replaced with:\n"
        "L_complex = torch.linalg.eigvals(A)\n\n"
        "and\n\n"
        "L, V = torch.eig(A, eigenvectors=True) should be replaced with:\n"
        "L_complex, V_complex = torch.linalg.eig(A)"),
    "symeig": _GONE + (
        "The default behavior has changed from using the upper triangular portion of the "
        "matrix by default to using the lower triangular portion.\n\n"
        "L, _ = torch.symeig(A, upper=upper) should be replaced with:\n"
        "L = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n\n"
        "and\n\n"
        "L, V = torch.symeig(A, eigenvectors=True) should be replaced with:\n"
        "L, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')"),
    "matrix_rank": "This function was deprecated since version 1.9 and is now removed.\n"
                   "Please use the `torch.linalg.matrix_rank` function instead. The parameter "
                   "'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'.",
}


def _removed(name):
    def gone(*args, **kwargs):
        raise RuntimeError(_MESSAGES[name])
    gone.__name__ = gone.__qualname__ = name
    gone.__doc__ = "Removed from PyTorch: raises its RuntimeError naming the replacement."
    return gone


LuWithInfo = named("_lu_with_info", ("LU", "pivots", "info"))
_LU_WARNING = (
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex "
    "and will be removed in a future PyTorch release.\n"
    "LU, pivots = torch.lu(A, compute_pivots)\nshould be replaced with\n"
    "LU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\n"
    "LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\n"
    "LU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots)")


def lu(A, pivot=True, get_infos=False, out=None):
    """Deprecated ``torch.lu``: ``(LU, pivots)`` as ``linalg.lu_factor`` gives them, plus
    ``info`` (``linalg.lu_factor_ex``'s) when ``get_infos``.

    >>> import tapegrad as tg, warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     LU, piv = tg.lu(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))
    >>> piv.tolist()
    [2, 2]
    """
    warnings.warn(_LU_WARNING, UserWarning, stacklevel=2)
    LU, pivots, info = linalg.lu_factor_ex(A, pivot=pivot)
    result = LuWithInfo(LU, pivots, info) if get_infos else (LU, pivots)
    if out is not None:
        for o, r in zip(out, result, strict=True):
            o.resize_(r.shape).copy_(r)
        return out
    return result


FUNCTIONS = {"lu": lu, **{name: _removed(name) for name in _MESSAGES}}
for _name in ("lstsq", "solve", "eig", "symeig"):  # (Tensor.matrix_rank is gone altogether)
    setattr(Tensor, _name, FUNCTIONS[_name])


def _tensor_lu(self, pivot=True, get_infos=False):
    """``Tensor.lu``: deprecated ``torch.lu`` of this tensor."""
    return lu(self, pivot, get_infos)


Tensor.lu = _tensor_lu
