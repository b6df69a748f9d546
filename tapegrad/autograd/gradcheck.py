"""gradcheck and gradgradcheck: PyTorch's signatures and defaults.

``gradcheck`` compares, for every (output, input) pair, the Jacobian from the reverse
sweep (one ``autograd.grad`` per output element, with a one-hot seed) with central finite
differences ``(f(x + eps e_j) - f(x - eps e_j)) / 2 eps``, element by element with
``|analytical - numerical| <= atol + rtol * |numerical|``.  Jacobians are laid out as
PyTorch prints them: one row per input element, one column per output element.  On a
mismatch the error names the worst element and shows both Jacobians.  ``fast_mode=True``
checks ``v^T J u`` for random ``u``, ``v`` instead (one sweep and two evaluations per pair).

``gradgradcheck`` runs ``gradcheck`` on the function ``x -> grad(f(x), x, v,
create_graph=True)``: double backward (autograd/higher.py).
"""
import warnings

import numpy as np

from ..tensor import Tensor
from .engine import grad

_FLOAT64_WARNING = (
    "Input #{} requires gradient and is not a double precision floating point or complex. "
    "This check will likely fail if all the inputs are not of double precision floating "
    "point or complex. ")


class GradcheckError(RuntimeError):
    """Raised by gradcheck and gradgradcheck when a check fails."""


def _as_tuple(x):
    if isinstance(x, Tensor):
        return (x,)
    if isinstance(x, (list, tuple)):
        return tuple(x)
    return (x,)


def _outputs(func, inputs):
    out = _as_tuple(func(*inputs))
    for i, o in enumerate(out):
        if not isinstance(o, Tensor):
            raise TypeError(f"gradcheck: output {i} of the function is a {type(o).__name__}; "
                            "the function must return a Tensor or a sequence of Tensors")
    return out


def _values(func, inputs):
    """The outputs of ``func`` at ``inputs`` as flat float64 arrays.  Grad mode stays on,
    as in PyTorch (a function may register hooks on what it computes)."""
    return [np.asarray(o._data, np.float64).ravel().copy() for o in _outputs(func, inputs)]


def _with(inputs, i, data):
    """``inputs`` with input ``i`` replaced by a leaf holding ``data``."""
    x = Tensor(data, dtype=inputs[i].dtype, requires_grad=inputs[i].requires_grad)
    return inputs[:i] + (x,) + inputs[i + 1:]


def _numerical(func, inputs, diff, eps):
    """Per (output, input): the (n_in, n_out) Jacobian by central differences."""
    n_out = [v.size for v in _values(func, inputs)]
    jac = {}
    for i in diff:
        x = np.array(inputs[i]._data, dtype=inputs[i].dtype)
        flat = x.reshape(-1)
        cols = [np.zeros((flat.size, n)) for n in n_out]
        for j in range(flat.size):
            orig = flat[j]
            flat[j] = orig + eps
            plus = _values(func, _with(inputs, i, x.copy()))
            flat[j] = orig - eps
            minus = _values(func, _with(inputs, i, x.copy()))
            flat[j] = orig
            for o, (p, m) in enumerate(zip(plus, minus, strict=True)):
                cols[o][j] = (p - m) / (2 * eps)
        for o in range(len(n_out)):
            jac[o, i] = cols[o]
    return jac


def _analytical(func, inputs, diff, check_grad_dtypes):
    """Per (output, input): the (n_in, n_out) Jacobian from the reverse sweep."""
    outs = _outputs(func, inputs)
    jac = {}
    xs = [inputs[i] for i in diff]
    for o, out in enumerate(outs):
        n = out.numel()
        for i in diff:
            jac[o, i] = np.zeros((inputs[i].numel(), n))
        if not out.requires_grad:
            continue
        for k in range(n):
            seed = np.zeros(n)
            seed[k] = 1.0
            gs = grad(out, xs, grad_outputs=Tensor(seed.reshape(tuple(out.shape))),
                      retain_graph=True, allow_unused=True)
            for i, g in zip(diff, gs, strict=True):
                if g is None:
                    continue
                if check_grad_dtypes and g.dtype != inputs[i].dtype:
                    raise GradcheckError("Gradient has dtype mismatch")
                if tuple(g.shape) != tuple(inputs[i].shape):
                    raise GradcheckError("Analytical gradient has incorrect size")
                jac[o, i][:, k] = np.asarray(g._data, np.float64).ravel()
    return jac, outs


def _fmt(a):
    return repr(Tensor(np.asarray(a, np.float64)))


def _mismatch(o, i, num, ana, atol, rtol, inputs, outs):
    """The error text: PyTorch's header and Jacobians, plus the worst element."""
    excess = np.abs(ana - num) - (atol + rtol * np.abs(num))
    excess = np.where(np.isnan(excess), np.inf, excess)
    j, k = np.unravel_index(int(np.argmax(excess)), excess.shape)
    jin = np.unravel_index(j, tuple(inputs[i].shape)) if inputs[i].ndim else ()
    kout = np.unravel_index(k, tuple(outs[o].shape)) if outs[o].ndim else ()

    def idx(t):
        return "[" + ", ".join(str(int(v)) for v in t) + "]" if t else ""
    return (f"Jacobian mismatch for output {o} with respect to input {i},\n"
            f"numerical:{_fmt(num)}\nanalytical:{_fmt(ana)}\n\n"
            f"The worst element: d output{o}{idx(kout)} / d input{i}{idx(jin)} (Jacobian "
            f"entry [{j}, {k}]): numerical {float(num[j, k])!r}, analytical "
            f"{float(ana[j, k])!r}, "
            f"difference {abs(ana[j, k] - num[j, k]):.3g} > allowed atol + rtol * "
            f"|numerical| = {atol + rtol * abs(num[j, k]):.3g}\n")


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False,
              check_forward_ad=False, check_backward_ad=True, fast_mode=False, masked=None):
    """Check the reverse-mode gradients of ``func`` at ``inputs`` against finite
    differences; True if they agree (else GradcheckError, or False with
    ``raise_exception=False``).  ``check_undefined_grad`` is accepted and has nothing to
    check: tapegrad's sweep never hands a backward an undefined gradient.

    >>> import tapegrad as tg
    >>> x = tg.tensor([0.5, 1.5], dtype=tg.float64, requires_grad=True)
    >>> tg.autograd.gradcheck(lambda t: (t.sin() * t).sum(), (x,))
    True
    """
    _unsupported(check_batched_grad=check_batched_grad, check_forward_ad=check_forward_ad,
                 check_batched_forward_grad=check_batched_forward_grad, masked=masked)
    try:
        _gradcheck(func, _as_tuple(inputs), eps, atol, rtol, nondet_tol, check_grad_dtypes,
                   check_backward_ad, fast_mode)
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


def _unsupported(**flags):
    for name, on in flags.items():
        if on:
            raise NotImplementedError(
                f"gradcheck({name}=True) is not supported by tapegrad: it has no vmap, "
                "forward-mode AD or masked (sparse) tensors; leave it False")


def _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes,
               check_backward_ad, fast_mode):
    diff = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    if not diff:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, "
                         "but none of them have requires_grad=True.")
    for i in diff:
        if inputs[i].dtype != np.float64:
            warnings.warn(_FLOAT64_WARNING.format(i), UserWarning, stacklevel=3)
    if not check_backward_ad:
        return
    if fast_mode:
        return _fast(func, inputs, diff, eps, atol, rtol)
    num = _numerical(func, inputs, diff, eps)
    ana, outs = _analytical(func, inputs, diff, check_grad_dtypes)
    for (o, i), n in num.items():
        a = ana[o, i]
        if not outs[o].requires_grad:
            if not np.allclose(n, 0.0, rtol=rtol, atol=atol):
                raise GradcheckError(f"Numerical gradient for function expected to be zero "
                                     f"(output {o} does not require grad, input {i})")
            continue
        if not np.allclose(a, n, rtol=rtol, atol=atol):
            raise GradcheckError(_mismatch(o, i, n, a, atol, rtol, inputs, outs))
    again, _ = _analytical(func, inputs, diff, check_grad_dtypes)
    for key, a in ana.items():
        if np.max(np.abs(again[key] - a), initial=0.0) > nondet_tol:
            raise GradcheckError(
                "Backward is not reentrant, i.e., running backward with same input and "
                "grad_output multiple times gives different values, although analytical "
                "gradient matches numerical gradient.The tolerance for nondeterminism was "
                f"{nondet_tol}.")


def _fast(func, inputs, diff, eps, atol, rtol):
    """fast_mode: compare v^T J u (one sweep per output, two evaluations per input)."""
    rng = np.random.default_rng(0)
    outs = _outputs(func, inputs)
    for o, out in enumerate(outs):
        if not out.requires_grad:
            continue
        v = rng.standard_normal(out.numel())
        gs = grad(out, [inputs[i] for i in diff], grad_outputs=Tensor(v.reshape(out.shape)),
                  retain_graph=True, allow_unused=True)
        for i, g in zip(diff, gs, strict=True):
            u = rng.standard_normal(inputs[i].numel())
            ana = 0.0 if g is None else float(np.asarray(g._data, np.float64).ravel() @ u)
            x = np.asarray(inputs[i]._data, np.float64)
            plus = _values(func, _with(inputs, i, (x.ravel() + eps * u).reshape(x.shape)))
            minus = _values(func, _with(inputs, i, (x.ravel() - eps * u).reshape(x.shape)))
            num = float(v @ ((plus[o] - minus[o]) / (2 * eps)))
            if not abs(ana - num) <= atol + rtol * abs(num):
                raise GradcheckError(
                    f"Jacobian mismatch for output {o} with respect to input {i},\n"
                    f"numerical:{num!r}\nanalytical:{ana!r}\n\nThe above quantities relating "
                    "the numerical and analytical jacobians are computed in fast mode "
                    "(v^T J u for random u and v). Run gradcheck with fast_mode=False to see "
                    "the full Jacobians and the worst element.\n")


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False,
                  check_batched_grad=False, check_fwd_over_rev=False,
                  check_rev_over_rev=True, fast_mode=False, masked=False):
    """Check second derivatives: ``gradcheck`` of ``x -> grad(func(x), x, grad_outputs,
    create_graph=True)`` (double backward: autograd/higher.py)."""
    _unsupported(check_batched_grad=check_batched_grad, check_fwd_over_rev=check_fwd_over_rev,
                 masked=masked)
    inputs = _as_tuple(inputs)
    diff = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        outs = _outputs(func, inputs)  # with grad: which outputs require it
        grad_outputs = tuple(Tensor(rng.standard_normal(tuple(o.shape)), requires_grad=True)
                             for o in outs if o.requires_grad)
    grad_outputs = _as_tuple(grad_outputs)
    n = len(inputs)

    def first_grads(*args):
        xs, vs = args[:n], args[n:]
        outs = [o for o in _outputs(func, xs) if o.requires_grad]
        gs = grad(outs, [xs[i] for i in diff], grad_outputs=list(vs), create_graph=True,
                  allow_unused=True)
        return tuple(g for g in gs if g is not None)

    if not check_rev_over_rev:
        return True
    return gradcheck(first_grads, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_grad_dtypes=check_grad_dtypes, fast_mode=fast_mode)


__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]
