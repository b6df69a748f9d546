"""Adafactor (factored second moments: a row and a column average for each matrix),
SparseAdam (Adam over the rows a gradient touches) and Muon (momentum orthogonalised by
Newton-Schulz), with PyTorch's arguments, state names and single-tensor formulas.

Muon's Newton-Schulz iteration runs in the parameter's dtype: PyTorch runs it in bfloat16,
which NumPy lacks, so its iterates differ from PyTorch's by bfloat16 rounding (~1e-2
relative in the update).

tapegrad has no sparse tensors: ``nn.Embedding(sparse=True)`` gives a dense gradient, zero
in the rows no index looked up. SparseAdam therefore updates the rows (along the first dim)
where the gradient has a nonzero entry: the rows PyTorch's sparse gradient would list. A
looked-up row whose gradient is exactly zero is skipped, where PyTorch would decay its
moments."""
import math

import numpy as np

from ..ops.inplace import _write
from ..tensor import Tensor
from .optimizer import Optimizer, _check, _check_betas, _lerp, _set, _values

__all__ = ["Adafactor", "Muon", "SparseAdam"]


class Adafactor(Optimizer):
    """Adafactor (Shazeer & Stern), PyTorch's variant: ``beta2_t = 1 - t^beta2_decay``,
    relative step ``min(lr, 1/sqrt(t))`` scaled by the parameter's RMS (at least eps2),
    updates clipped to RMS ``d``, decoupled ``weight_decay``."""

    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0,
                 weight_decay=0.0, *, foreach=None, maximize=False):
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        super().__init__(params, dict(lr=lr, beta2_decay=beta2_decay, eps=eps, d=d,
                                      weight_decay=weight_decay, foreach=foreach,
                                      maximize=maximize))

    def _update(self, p, grad, group, state):
        x = _values(p)
        f = x.dtype.type
        g = -grad if group["maximize"] else grad
        lr, wd = group["lr"], group["weight_decay"]
        eps1, eps2 = group["eps"]
        eps1 = float(np.finfo(x.dtype).eps) if eps1 is None else eps1
        if not state:
            state["step"] = Tensor(0.0)
            if g.ndim > 1:
                state["row_var"] = Tensor(np.zeros(g.shape[:-1] + (1,), x.dtype))
                state["col_var"] = Tensor(np.zeros(g.shape[:-2] + (1,) + g.shape[-1:], x.dtype))
            else:
                state["variance"] = Tensor(np.zeros_like(x))
        state["step"]._data = step = float(state["step"]._data) + 1.0
        w = step ** group["beta2_decay"]  # 1 - beta2_t
        rho = min(lr, 1 / step ** 0.5)
        alpha = max(eps2, float(np.linalg.norm(x)) / x.size ** 0.5) * rho
        if wd != 0:
            x = x * f(1 - lr * wd)
        if g.ndim > 1:
            row = _lerp(_values(state["row_var"]), (g * g).sum(-1, keepdims=True)
                        / f(g.shape[-1]), w)
            col = _lerp(_values(state["col_var"]), (g * g).sum(-2, keepdims=True)
                        / f(g.shape[-2]), w)
            _set(state["row_var"], row)
            _set(state["col_var"], col)
            var = (row @ col) / np.maximum(row.mean(-2, keepdims=True), f(eps1))
        else:
            var = _lerp(_values(state["variance"]), g * g, w)
            _set(state["variance"], var)
        update = g / np.sqrt(np.maximum(var, f(eps1 * eps1)))
        denom = max(1.0, float(np.linalg.norm(update)) / (update.size ** 0.5 * group["d"]))
        _write(p, x + f(-alpha / denom) * update)


class SparseAdam(Optimizer):
    """Adam over the rows the gradient touches (see the module docstring): their moments
    move, the others stay; the step count moves for every parameter with a gradient."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        _check("learning rate", lr)
        _check("epsilon value", eps)
        _check_betas(betas)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, maximize=maximize))

    def _update(self, p, grad, group, state):
        x = _values(p)
        f = x.dtype.type
        g = -grad if group["maximize"] else grad
        beta1, beta2 = group["betas"]
        if not state:
            state["step"] = 0  # (a Python int in PyTorch's SparseAdam, not a tensor)
            state["exp_avg"] = Tensor(np.zeros_like(x))
            state["exp_avg_sq"] = Tensor(np.zeros_like(x))
        state["step"] = step = int(state["step"]) + 1
        rows = (g != 0).reshape(g.shape[0], -1).any(1) if g.ndim else np.asarray(g != 0)
        if not rows.any():
            return
        m, v = _values(state["exp_avg"]).copy(), _values(state["exp_avg_sq"]).copy()
        gr = g[rows] if g.ndim else g
        m_old, v_old = (m[rows], v[rows]) if g.ndim else (m, v)
        m_new = m_old + (gr - m_old) * f(1 - beta1)
        v_new = v_old + (gr * gr - v_old) * f(1 - beta2)
        step_size = group["lr"] * math.sqrt(1 - beta2 ** step) / (1 - beta1 ** step)
        x = x.copy()
        if g.ndim:
            m[rows], v[rows] = m_new, v_new
            x[rows] = x[rows] + f(-step_size) * (m_new / (np.sqrt(v_new) + f(group["eps"])))
        else:
            m, v = m_new, v_new
            x = x + f(-step_size) * (m_new / (np.sqrt(v_new) + f(group["eps"])))
        _set(state["exp_avg"], m)
        _set(state["exp_avg_sq"], v)
        _write(p, x)


def _orthogonalised(g, coefficients, steps, eps):
    """Newton-Schulz's quintic iteration towards ``U V^T`` of ``g = U S V^T`` (with its
    singular values left near, not at, 1: PyTorch's coefficients)."""
    if steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if g.ndim != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = coefficients
    tall = g.shape[0] > g.shape[1]
    x = g.T if tall else g
    x = x / max(float(np.linalg.norm(x)), eps)
    for _ in range(steps):
        gram = x @ x.T
        x = a * x + (b * gram + c * gram @ gram) @ x
    return x.T if tall else x


class Muon(Optimizer):
    """Muon (Jordan et al.) for 2-d parameters: Nesterov momentum, orthogonalised, scaled
    by ``sqrt(max(1, rows/cols))`` ("original") or ``0.2 sqrt(max(rows, cols))``
    ("match_rms_adamw"), decoupled ``weight_decay``."""

    def __init__(self, params, lr=1e-3, weight_decay=0.1, momentum=0.95, nesterov=True,
                 ns_coefficients=(3.4445, -4.7750, 2.0315), eps=1e-7, ns_steps=5,
                 adjust_lr_fn=None):
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 <= momentum:
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ("original", "match_rms_adamw"):
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        super().__init__(params, dict(lr=lr, weight_decay=weight_decay, momentum=momentum,
                                      nesterov=nesterov, ns_coefficients=ns_coefficients,
                                      eps=eps, ns_steps=ns_steps, adjust_lr_fn=adjust_lr_fn))
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError(f"Muon only supports 2D parameters whereas we found a "
                                     f"parameter with size: {p.shape}")

    def _update(self, p, grad, group, state):
        x = _values(p)
        f = x.dtype.type
        mu = group["momentum"]
        if not state:
            state["momentum_buffer"] = Tensor(np.zeros_like(x))
        buf = _lerp(_values(state["momentum_buffer"]), grad, 1 - mu)
        _set(state["momentum_buffer"], buf)
        update = _lerp(grad, buf, mu) if group["nesterov"] else buf
        update = _orthogonalised(update, group["ns_coefficients"], group["ns_steps"],
                                 group["eps"])
        rows, cols = x.shape
        how = group["adjust_lr_fn"]
        ratio = math.sqrt(max(1, rows / cols)) if how in (None, "original") else \
            0.2 * math.sqrt(max(rows, cols))
        lr = group["lr"]
        x = x * f(1 - lr * group["weight_decay"])
        _write(p, x + f(-lr * ratio) * update.astype(x.dtype, copy=False))
