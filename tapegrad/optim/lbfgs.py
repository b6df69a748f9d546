"""L-BFGS with PyTorch's arguments and iterates: the two-loop recursion over the last
``history_size`` curvature pairs, a fixed step ``lr`` or a strong-Wolfe line search
(cubic interpolation, bracketing then zoom), and PyTorch's stopping tests.

The parameters are handled as one flat vector (their values concatenated in group order),
in NumPy on the parameters' dtype; scalars stay NumPy scalars of that dtype, as PyTorch's
0-d tensors do.

>>> import tapegrad as tg
>>> x = tg.tensor([-1.2, 1.0], requires_grad=True)
>>> opt = tg.optim.LBFGS([x], line_search_fn="strong_wolfe")
>>> def closure():
...     opt.zero_grad()
...     loss = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
...     loss.backward()
...     return loss
>>> for _ in range(2):
...     _ = opt.step(closure)
>>> [round(v, 4) for v in x.tolist()]
[1.0, 1.0]
"""
import numpy as np

from ..grad_mode import enable_grad
from ..ops.inplace import _write
from ..tensor import Tensor
from .optimizer import Optimizer, _values

__all__ = ["LBFGS"]


def _cubic_min(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimiser of the cubic through (x1, f1, g1) and (x2, f2, g2), clipped to
    ``bounds`` (the interval itself by default); the midpoint when the cubic has none."""
    lo, hi = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square < 0:
        return (lo + hi) / 2.0
    d2 = np.sqrt(d2_square)
    if x1 <= x2:
        t = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        t = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(t, lo), hi)


def _strong_wolfe(evaluate, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9,
                  max_ls=25):
    """A step ``t`` along ``d`` meeting the strong Wolfe conditions (sufficient decrease,
    curvature |g_t . d| <= c2 |g . d|): bracket, then zoom by safeguarded cubics.
    ``evaluate(t)`` is (loss, flat gradient) at x + t d.  Returns (f, g, t, evaluations)."""
    d_norm = np.abs(d).max()
    f_new, g_new = evaluate(t)
    evals = 1
    gtd_new = g_new @ d
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    while ls_iter < max_ls:  # bracketing
        armijo_fails = f_new > f + c1 * t * gtd or (ls_iter > 1 and f_new >= f_prev)
        if not armijo_fails and abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if armijo_fails or gtd_new >= 0:
            bracket = [t_prev, t]
            bracket_f, bracket_g = [f_prev, f_new], [g_prev, g_new]
            bracket_gtd = [gtd_prev, gtd_new]
            break
        # extrapolate by a cubic, kept within [t + 0.01 (t - t_prev), 10 t]
        t_next = _cubic_min(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                            bounds=(t + 0.01 * (t - t_prev), t * 10))
        t_prev, f_prev, g_prev, gtd_prev = t, f_new, g_new, gtd_new
        t = t_next
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = g_new @ d
        ls_iter += 1
    if ls_iter == max_ls:
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]
    low, high = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    insufficient = False
    while not done and ls_iter < max_ls:  # zoom
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_min(bracket[0], bracket_f[0], bracket_gtd[0],
                       bracket[1], bracket_f[1], bracket_gtd[1])
        # safeguard: a step within 10% of the bracket's ends moves 10% in, unless the last
        # step made progress
        top, bottom = max(bracket), min(bracket)
        eps = 0.1 * (top - bottom)
        if min(top - t, t - bottom) < eps:
            if insufficient or t >= top or t <= bottom:
                t = top - eps if abs(t - top) < abs(t - bottom) else bottom + eps
                insufficient = False
            else:
                insufficient = True
        else:
            insufficient = False
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = g_new @ d
        ls_iter += 1
        if f_new > f + c1 * t * gtd or f_new >= bracket_f[low]:
            bracket[high], bracket_f[high] = t, f_new
            bracket_g[high], bracket_gtd[high] = g_new, gtd_new
            low, high = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high] - bracket[low]) >= 0:
                bracket[high], bracket_f[high] = bracket[low], bracket_f[low]
                bracket_g[high], bracket_gtd[high] = bracket_g[low], bracket_gtd[low]
            bracket[low], bracket_f[low] = t, f_new
            bracket_g[low], bracket_gtd[low] = g_new, gtd_new
    return bracket_f[low], bracket_g[low], bracket[low], evals


class LBFGS(Optimizer):
    """L-BFGS (``torch.optim.LBFGS``): ``step(closure)`` runs up to ``max_iter`` iterations,
    re-evaluating ``closure`` (which zeroes the gradients, computes the loss, calls
    ``backward`` and returns the loss) as it goes; ``line_search_fn`` is None (step ``lr``)
    or ``"strong_wolfe"``.  One parameter group only, as in PyTorch."""

    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7,
                 tolerance_change=1e-9, history_size=100, line_search_fn=None):
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        super().__init__(params, dict(lr=lr, max_iter=max_iter, max_eval=max_eval,
                                      tolerance_grad=tolerance_grad,
                                      tolerance_change=tolerance_change,
                                      history_size=history_size, line_search_fn=line_search_fn))
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    # -- the parameters as one flat vector ------------------------------------------------
    def _flat_grad(self):
        return np.concatenate([np.zeros(p.numel(), p.dtype) if p.grad is None else
                               _values(p.grad).astype(p.dtype, copy=False).reshape(-1)
                               for p in self._params])

    def _flat_params(self):
        return [_values(p).copy() for p in self._params]

    def _set_params(self, xs):
        for p, x in zip(self._params, xs, strict=True):
            _write(p, x)

    def _add(self, t, d):
        """x += t d (PyTorch's ``p.add_(d, alpha=t)``)."""
        k = 0
        for p in self._params:
            x = _values(p)
            n = x.size
            _write(p, x + t * d[k:k + n].reshape(x.shape))
            k += n

    def _loss(self, closure):
        with enable_grad():
            return float(closure())

    def step(self, closure):
        """Run up to ``max_iter`` L-BFGS iterations; returns the closure's first loss."""
        if closure is None:
            raise RuntimeError("LBFGS.step() requires a closure that reevaluates the model "
                               "and returns the loss")
        group = self.param_groups[0]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tol_grad, tol_change = group["tolerance_grad"], group["tolerance_change"]
        history_size, line_search = group["history_size"], group["line_search_fn"]
        state = self.state.setdefault(self._params[0], {})
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        with enable_grad():
            orig_loss = closure()
        loss = float(orig_loss)
        evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if np.abs(flat_grad).max() <= tol_grad:
            return orig_loss

        d, t = _array(state.get("d")), _array(state.get("t"))
        old_dirs, old_stps, ro = (None if state.get(k) is None else [_array(v) for v in state[k]]
                                  for k in ("old_dirs", "old_stps", "ro"))
        H_diag = _array(state.get("H_diag"))
        prev_flat_grad, prev_loss = _array(state.get("prev_flat_grad")), state.get("prev_loss")
        al = None

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = -flat_grad
                old_dirs, old_stps, ro = [], [], []
                H_diag = 1
            else:
                y = flat_grad - prev_flat_grad
                s = d * t
                ys = y @ s
                if ys > 1e-10:  # keep the pair only where the curvature is positive
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    H_diag = ys / (y @ y)
                # two-loop recursion: d = -H g, H the inverse-Hessian estimate
                al = [None] * len(old_dirs)
                q = -flat_grad
                for i in range(len(old_dirs) - 1, -1, -1):
                    al[i] = (old_stps[i] @ q) * ro[i]
                    q = q + (-al[i]) * old_dirs[i]
                r = q * H_diag
                for i in range(len(old_dirs)):
                    be_i = (old_dirs[i] @ r) * ro[i]
                    r = r + (al[i] - be_i) * old_stps[i]
                d = r
            prev_flat_grad = flat_grad.copy()
            prev_loss = loss
            # the first step is scaled by the gradient's size, later ones are lr
            t = min(1.0, 1.0 / np.abs(flat_grad).sum()) * lr if state["n_iter"] == 1 else lr
            gtd = flat_grad @ d
            if gtd > -tol_change:  # not a descent direction
                break

            ls_evals = 0
            if line_search is not None:
                if line_search != "strong_wolfe":  # (PyTorch's check: here, not in __init__)
                    raise RuntimeError("only 'strong_wolfe' is supported")
                x0 = self._flat_params()

                def evaluate(step, x0=x0, d=d):
                    self._add(step, d)
                    value = self._loss(closure)
                    g = self._flat_grad()
                    self._set_params(x0)
                    return value, g

                # the search may use what is left of max_eval, as in PyTorch
                loss, flat_grad, t, ls_evals = _strong_wolfe(evaluate, t, d, loss, flat_grad,
                                                             gtd, max_ls=max_eval - evals)
                self._add(t, d)
                opt_cond = np.abs(flat_grad).max() <= tol_grad
            else:
                self._add(t, d)
                if n_iter != max_iter:
                    loss = self._loss(closure)
                    flat_grad = self._flat_grad()
                    opt_cond = np.abs(flat_grad).max() <= tol_grad
                    ls_evals = 1
            evals += ls_evals
            state["func_evals"] += ls_evals

            if n_iter == max_iter or evals >= max_eval or opt_cond:
                break
            if np.abs(d * t).max() <= tol_change or abs(loss - prev_loss) < tol_change:
                break

        # (kept as PyTorch keeps them, in its order: tensors, lists of tensors; al is
        # history_size long, made by the first step that has a history)
        if al is not None:
            state["al"] = [_tensor(v) for v in al] + [None] * (history_size - len(al))
        state.update(d=_tensor(d), t=_tensor(t), old_dirs=[_tensor(v) for v in old_dirs],
                     old_stps=[_tensor(v) for v in old_stps], ro=[_tensor(v) for v in ro],
                     H_diag=_tensor(H_diag), prev_flat_grad=_tensor(prev_flat_grad),
                     prev_loss=prev_loss)
        return orig_loss


def _tensor(v):
    """A state value as a tensor where PyTorch's is one: a NumPy value (the int 1 of a
    first H_diag, a Python float step stay as they are)."""
    return v if v is None or type(v) in (int, float) else Tensor(np.asarray(v))


def _array(v):
    return np.asarray(v._data) if isinstance(v, Tensor) else v
