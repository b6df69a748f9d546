"""The other first-order optimizers of ``torch.optim``: Adadelta, Adamax, NAdam, RAdam, Rprop
and ASGD, with PyTorch's arguments, state names and single-tensor formulas, term by term
(so the iterates agree with PyTorch's to rounding; tests/test_api_gaps5.py compares them).

>>> import tapegrad as tg
>>> w = tg.tensor([1.0, -2.0], requires_grad=True)
>>> opt = tg.optim.Rprop([w], lr=0.1)
>>> (w * w).sum().backward()
>>> opt.step()
>>> w
tensor([ 0.9000, -1.9000], requires_grad=True)
"""
import numpy as np

from ..ops.inplace import _write
from ..tensor import Tensor
from .optimizer import Optimizer, _add, _addcmul, _check, _lerp, _set, _values

__all__ = ["ASGD", "Adadelta", "Adamax", "NAdam", "RAdam", "Rprop"]


def _step(state):
    """Count one more step in ``state["step"]`` (a 0-d tensor, as PyTorch keeps it)."""
    state["step"]._data = step = float(state["step"]._data) + 1.0
    return step


def _grad(p, grad, group):
    """The gradient to descend: negated for ``maximize``, plus L2 ``weight_decay * p``."""
    g = -grad if group["maximize"] else grad
    wd = group.get("weight_decay", 0.0)
    return _add(g, _values(p), wd) if wd != 0 else g  # (grad.add(p, alpha=wd): one rounding)


def _fresh(state, x, *names, **scalars):
    """A parameter's first state: ``step`` 0, 0-d ``scalars``, and zero tensors ``names``
    shaped as ``x`` (PyTorch's order, which a printed state_dict shows)."""
    if not state:
        state.update(step=Tensor(0.0), **{k: Tensor(float(v)) for k, v in scalars.items()},
                     **{n: Tensor(np.zeros_like(x)) for n in names})


def _decayed(x, g, group):
    """``(x, g)`` after weight decay: the weights shrunk (``decoupled_weight_decay``, as
    AdamW) or ``weight_decay * x`` added to the gradient."""
    g = -g if group["maximize"] else g
    wd, f = group["weight_decay"], x.dtype.type
    if wd == 0:
        return x, g
    if group["decoupled_weight_decay"]:
        return x * f(1 - group["lr"] * wd), g
    return x, _add(g, x, wd)  # (grad.add(p, alpha=wd): one rounding)


def _moments(state, g, betas):
    """Adam's moments moved on by ``g``: ``m = lerp(m, g, 1 - beta1)``,
    ``v = beta2 v + (1 - beta2) g^2`` (stored, and returned)."""
    f = g.dtype.type
    m = _lerp(_values(state["exp_avg"]), g, 1 - betas[0])
    v = _addcmul(_values(state["exp_avg_sq"]) * f(betas[1]), g, g, 1 - betas[1])
    _set(state["exp_avg"], m)
    _set(state["exp_avg_sq"], v)
    return m, v


def _adam_defaults(lr, betas, eps, weight_decay, **more):
    """The checked hyperparameters of an Adam-like optimizer."""
    _check("learning rate", lr)
    _check("epsilon value", eps)
    _check("weight_decay value", weight_decay)
    return dict(lr=lr, betas=_betas(betas), eps=eps, weight_decay=weight_decay, **more)


def _betas(betas):
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
    return tuple(betas)


class Adadelta(Optimizer):
    """Adadelta (Zeiler): ``v = rho v + (1 - rho) g^2``,
    ``d = sqrt(u + eps) / sqrt(v + eps) * g``, ``u = rho u + (1 - rho) d^2``, ``p -= lr d``."""

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False):
        _check("learning rate", lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        _check("epsilon value", eps)
        _check("weight_decay value", weight_decay)
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay,
                                      maximize=maximize, capturable=capturable,
                                      foreach=foreach, differentiable=differentiable))

    def _update(self, p, grad, group, state):
        x = _values(p)
        f = x.dtype.type
        _fresh(state, x, "square_avg", "acc_delta")
        _step(state)
        g = _grad(p, grad, group)
        rho, eps = f(group["rho"]), f(group["eps"])
        v = _values(state["square_avg"]) * rho + f(1 - group["rho"]) * g * g
        _set(state["square_avg"], v)
        u = _values(state["acc_delta"])
        d = np.sqrt(u + eps) / np.sqrt(v + eps) * g
        _set(state["acc_delta"], u * rho + f(1 - group["rho"]) * d * d)
        _write(p, x + f(-group["lr"]) * d)


class Adamax(Optimizer):
    """Adamax (Kingma & Ba): ``m = lerp(m, g, 1 - beta1)``,
    ``u = max(beta2 u, |g| + eps)``, ``p -= lr / (1 - beta1^t) * m / u``."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False, differentiable=False, capturable=False):
        super().__init__(params, _adam_defaults(
            lr, betas, eps, weight_decay, foreach=foreach, maximize=maximize,
            differentiable=differentiable, capturable=capturable))

    def _update(self, p, grad, group, state):
        x = _values(p)
        f = x.dtype.type
        _fresh(state, x, "exp_avg", "exp_inf")
        step = _step(state)
        g = _grad(p, grad, group)
        beta1, beta2 = group["betas"]
        m = _lerp(_values(state["exp_avg"]), g, 1 - beta1)
        _set(state["exp_avg"], m)
        u = np.maximum(_values(state["exp_inf"]) * f(beta2), np.abs(g) + f(group["eps"]))
        _set(state["exp_inf"], u)
        _write(p, x + (f(-group["lr"] / (1 - beta1 ** step)) * m) / u)  # (addcdiv_'s order)


class NAdam(Optimizer):
    """Adam with Nesterov momentum (Dozat), PyTorch's momentum schedule
    ``mu_t = beta1 (1 - 0.96^(t psi) / 2)`` (``momentum_decay`` psi) and its product."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, decoupled_weight_decay=False, *, foreach=None,
                 maximize=False, capturable=False, differentiable=False):
        _check("momentum_decay value", momentum_decay)
        super().__init__(params, _adam_defaults(
            lr, betas, eps, weight_decay, momentum_decay=momentum_decay,
            decoupled_weight_decay=decoupled_weight_decay, maximize=maximize,
            foreach=foreach, capturable=capturable, differentiable=differentiable))

    def _update(self, p, grad, group, state):
        x = _values(p)
        f = x.dtype.type
        _fresh(state, x, "exp_avg", "exp_avg_sq", mu_product=1.0)
        step = _step(state)
        lr, psi = group["lr"], group["momentum_decay"]
        beta1, beta2 = group["betas"]
        x, g = _decayed(x, grad, group)
        mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * psi))
        mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * psi))
        state["mu_product"]._data = mu_product = float(state["mu_product"]._data) * mu
        m, v = _moments(state, g, group["betas"])
        denom = np.sqrt(v / f(1 - beta2 ** step)) + f(group["eps"])
        # PyTorch's two addcdiv_: x + (value * t1) / t2, in that order (bit for bit)
        x = x + (f(-lr * (1.0 - mu) / (1.0 - mu_product)) * g) / denom
        _write(p, x + (f(-lr * mu_next / (1.0 - mu_product * mu_next)) * m) / denom)


class RAdam(Optimizer):
    """Rectified Adam (Liu et al.): Adam's step scaled by the variance rectification ``r_t``
    once the length of the approximated SMA ``rho_t`` exceeds 5, plain momentum before."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False,
                 capturable=False, differentiable=False):
        super().__init__(params, _adam_defaults(
            lr, betas, eps, weight_decay, maximize=maximize, foreach=foreach,
            capturable=capturable, decoupled_weight_decay=decoupled_weight_decay,
            differentiable=differentiable))  # (PyTorch's order of param_groups' keys)

    def _update(self, p, grad, group, state):
        x = _values(p)
        f = x.dtype.type
        _fresh(state, x, "exp_avg", "exp_avg_sq")
        step = _step(state)
        lr = group["lr"]
        beta1, beta2 = group["betas"]
        x, g = _decayed(x, grad, group)
        m, v = _moments(state, g, group["betas"])
        bias2 = 1 - beta2 ** step
        m_hat = m / f(1 - beta1 ** step)
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias2
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                    / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            adaptive = f(bias2 ** 0.5) / (np.sqrt(v) + f(group["eps"]))
            _write(p, x - m_hat * f(lr) * adaptive * f(rect))
        else:
            _write(p, x - m_hat * f(lr))


class Rprop(Optimizer):
    """Resilient backpropagation: each element's step size grows by ``etas[1]`` while its
    gradient keeps its sign and shrinks by ``etas[0]`` (skipping that update) when it flips,
    within ``step_sizes``; ``p -= sign(g) * step_size``."""

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check("learning rate", lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        super().__init__(params, dict(lr=lr, etas=tuple(etas), step_sizes=tuple(step_sizes),
                                      foreach=foreach, maximize=maximize,
                                      differentiable=differentiable, capturable=capturable))

    def _update(self, p, grad, group, state):
        x = _values(p)
        f = x.dtype.type
        if not state:
            _fresh(state, x, "prev")
            state["step_size"] = Tensor(np.full_like(x, group["lr"]))
        _step(state)
        g = -grad if group["maximize"] else grad
        etaminus, etaplus = group["etas"]
        lo, hi = group["step_sizes"]
        s = np.sign(g * _values(state["prev"]))
        factor = np.where(s > 0, f(etaplus), np.where(s < 0, f(etaminus), f(1)))
        size = np.clip(_values(state["step_size"]) * factor, lo, hi).astype(x.dtype)
        _set(state["step_size"], size)
        g = np.where(factor == f(etaminus), f(0), g)
        _write(p, x - np.sign(g) * size)
        _set(state["prev"], g)


class ASGD(Optimizer):
    """Averaged SGD (Polyak & Juditsky): ``p = p (1 - lambd eta) - eta g`` with
    ``eta_t = lr / (1 + lambd lr t)^alpha``, and the average ``ax`` of the iterates taken
    from step ``t0`` on."""

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
                 foreach=None, maximize=False, differentiable=False, capturable=False):
        _check("learning rate", lr)
        _check("weight_decay value", weight_decay)
        super().__init__(params, dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0,
                                      weight_decay=weight_decay, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable,
                                      capturable=capturable))

    def _update(self, p, grad, group, state):
        x = _values(p)
        f = x.dtype.type
        lr, lambd = group["lr"], group["lambd"]
        _fresh(state, x, "ax", eta=lr, mu=1.0)
        step = _step(state)
        g = _grad(p, grad, group)
        eta = float(state["eta"]._data)
        x = x * f(1 - lambd * eta)
        x = _add(x, g, -eta)  # (PyTorch's add_(alpha=): one rounding)
        _write(p, x)
        mu = float(state["mu"]._data)
        ax = _values(state["ax"])
        _set(state["ax"], ax + (x - ax) * f(mu) if mu != 1 else x)
        state["eta"]._data = lr / ((1 + lambd * lr * step) ** group["alpha"])
        state["mu"]._data = 1 / max(1, step - group["t0"])
