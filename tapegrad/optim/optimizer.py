"""The optimizer base class and the first-order optimizers: SGD, Adam, AdamW, RMSprop and
Adagrad (PyTorch's single-tensor formulas, term by term; see the package docstring)."""
import copy
import functools
import warnings
from collections import defaultdict

import numpy as np

from .._fp import fma
from ..arena import note_write
from ..autograd.hooks import RemovableHandle
from ..grad_mode import enable_grad
from ..nn.modules import _typename, _zero_grad
from ..ops.inplace import _write
from ..tensor import COMPLEX_HOOKS, Tensor

__all__ = ["Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop", "SGD"]


def _values(t):
    """A tensor's values as an ndarray (a 0-d float64 tensor holds a Python float)."""
    return np.asarray(t._data)


class _Required:
    def __repr__(self):
        return "<required parameter>"


required = _Required()


def _hook_handle(hooks, hook):
    """``hook`` added to ``hooks``; its handle's ``remove()`` unregisters it."""
    handle = RemovableHandle(hooks)
    hooks[handle.id] = hook
    return handle


def _hooked(step):
    """``step`` running the optimizer's step hooks around it, once per outer call (a
    subclass's step that calls ``super().step`` runs them once)."""
    @functools.wraps(step)
    def wrapper(self, *args, **kwargs):
        pre, post = self.__dict__.get("_step_pre_hooks"), self.__dict__.get("_step_post_hooks")
        if not (pre or post) or self.__dict__.get("_in_step"):
            return step(self, *args, **kwargs)
        self._in_step = True
        args = (self, *args)  # (PyTorch's hooks see self first in args)
        try:
            for hook in list((pre or {}).values()):
                res = hook(self, args, kwargs)
                if res is not None:
                    if not (isinstance(res, tuple) and len(res) == 2):
                        raise RuntimeError("optimizer step pre hook must return None or a "
                                           f"tuple of (new_args, new_kwargs), but got {res}.")
                    args, kwargs = res
            out = step(*args, **kwargs)
            for hook in list((post or {}).values()):
                hook(self, args, kwargs)
            return out
        finally:
            self._in_step = False
    return wrapper


class Optimizer:
    """Base class: ``param_groups`` (dicts of params and hyperparameters), per-parameter
    ``state``, ``zero_grad``, ``step``, ``state_dict``/``load_state_dict``, step hooks."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "step" in cls.__dict__:  # (each class's own step: hooks run around it)
            cls.step = _hooked(cls.__dict__["step"])

    def register_step_pre_hook(self, hook):
        """``hook(optimizer, args, kwargs)`` before each ``step``; it may return new
        ``(args, kwargs)``.  Returns a handle whose ``remove()`` unregisters it."""
        return _hook_handle(self.__dict__.setdefault("_step_pre_hooks", {}), hook)

    def register_step_post_hook(self, hook):
        """``hook(optimizer, args, kwargs)`` after each ``step``."""
        return _hook_handle(self.__dict__.setdefault("_step_post_hooks", {}), hook)

    def _register(self, kind, hook, prepend):
        """A handle for ``hook`` among the ``kind`` hooks, first if ``prepend``."""
        hooks = self.__dict__.setdefault(kind, {})
        handle = _hook_handle(hooks, hook)
        if prepend:
            rest = [(k, h) for k, h in hooks.items() if k != handle.id]
            hooks.clear()
            hooks[handle.id] = hook
            hooks.update(rest)
        return handle

    def _hooks(self, kind):
        return list(self.__dict__.get(kind, {}).values())

    def register_state_dict_pre_hook(self, hook, prepend=False):
        """``hook(optimizer)`` before each ``state_dict()``."""
        return self._register("_state_dict_pre_hooks", hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend=False):
        """``hook(optimizer, state_dict)`` after each ``state_dict()``; a dict it returns
        replaces the one returned."""
        return self._register("_state_dict_post_hooks", hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend=False):
        """``hook(optimizer, state_dict)`` before each ``load_state_dict``, given a shallow
        copy of the dict; a dict it returns is loaded instead."""
        return self._register("_load_state_dict_pre_hooks", hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend=False):
        """``hook(optimizer)`` after each ``load_state_dict``."""
        return self._register("_load_state_dict_post_hooks", hook, prepend)

    def __init__(self, params, defaults):
        self.defaults = defaults
        # parameter -> dict (Tensors hash by identity); a defaultdict as PyTorch's, so that
        # ``opt.state[p]`` on a parameter not stepped yet reads an empty dict
        self.state = defaultdict(dict)
        self.param_groups = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            "Tensors or dicts, but got " + _typename(params))
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for g in groups:
            self.add_param_group(g)

    def add_param_group(self, param_group):
        group = dict(param_group)
        params = group["params"]
        params = [params] if isinstance(params, Tensor) else list(params)
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is "
                                f"{_typename(p)}")
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        # a complex parameter is optimised as its two real parts (PyTorch's optimisers treat
        # one through view_as_real: elementwise, the same steps)
        params = [q for p in params for q in (
            (p._re, p._im) if type(p) is COMPLEX_HOOKS["type"] else (p,))]
        if len({id(p) for p in params}) != len(params):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error", stacklevel=3)
            params = list({id(p): p for p in params}.values())
        group["params"] = params
        for k, v in self.defaults.items():
            if v is required and k not in group:
                raise ValueError(f"parameter group didn't specify a value of required "
                                 f"optimization parameter {k}")
            group.setdefault(k, v)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in seen for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none=True):
        """Reset the ``.grad`` of every parameter (to None, or to zeros in place)."""
        for g in self.param_groups:
            for p in g["params"]:
                _zero_grad(p, set_to_none)

    @_hooked
    def step(self, closure=None):
        """One update of every parameter that has a ``.grad``; ``closure`` (re)computes and
        returns the loss first, as in PyTorch."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    state = self.state.get(p, {})  # (kept only once it holds something:
                    self._update(p, _values(p.grad).astype(p.dtype, copy=False), group,
                                 state)  # SGD without momentum keeps none, as PyTorch's)
                    if state:
                        self.state[p] = state
        return loss

    # -- state ---------------------------------------------------------------------------
    def state_dict(self):
        """``{"state": {index: {...}}, "param_groups": [{..., "params": [index, ...]}]}``:
        parameters are numbered in group order, as PyTorch does."""
        for hook in self._hooks("_state_dict_pre_hooks"):
            hook(self)
        index, groups = {}, []
        for g in self.param_groups:
            packed = {k: v for k, v in g.items() if k != "params"}
            packed["params"] = []
            for p in g["params"]:
                index.setdefault(id(p), len(index))
                packed["params"].append(index[id(p)])
            groups.append(packed)
        state = {index[id(p)]: s for p, s in self.state.items() if id(p) in index}
        out = {"state": state, "param_groups": groups}
        for hook in self._hooks("_state_dict_post_hooks"):
            out = hook(self, out) or out
        return out

    def load_state_dict(self, state_dict):
        """Restore hyperparameters and state saved by ``state_dict()``, as PyTorch does: the
        groups are deep copies of the saved ones (keeping this optimizer's parameters), and
        the state's tensors are cast to their parameter's floating dtype, so a tensor already
        of that dtype (and every ``"step"``) is the loaded dict's own tensor, shared with it."""
        state_dict = copy.copy(state_dict)
        for hook in self._hooks("_load_state_dict_pre_hooks"):
            state_dict = hook(self, state_dict) or state_dict
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for mine, saved in zip(self.param_groups, saved_groups, strict=True):
            if len(mine["params"]) != len(saved["params"]):
                raise ValueError("loaded state dict contains a parameter group that doesn't "
                                 "match the size of optimizer's group")
        params = {i: p for mine, saved in zip(self.param_groups, saved_groups, strict=True)
                  for i, p in zip(saved["params"], mine["params"], strict=True)}
        state = defaultdict(dict)
        for i, s in state_dict["state"].items():  # (state of no parameter: kept as it is)
            state[params[i] if i in params else i] = _cast_state(params[i], s) \
                if i in params else s
        for mine, saved in zip(self.param_groups, saved_groups, strict=True):
            saved["params"] = mine["params"]
            for k, v in self.defaults.items():  # (a key saved by an older version: default)
                saved.setdefault(k, v)
        self.param_groups, self.state = saved_groups, state
        for hook in self._hooks("_load_state_dict_post_hooks"):
            hook(self)

    def __repr__(self):
        text = f"{type(self).__name__} ("  # (PyTorch's layout: a blank line between groups)
        for i, g in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            text += "".join(f"    {k}: {v}\n" for k, v in sorted(g.items()) if k != "params")
        return text + ")"


def _cast_state(p, value, key=None):
    """Loaded state ``value`` of parameter ``p``, as PyTorch's ``load_state_dict`` casts it:
    a tensor to ``p``'s dtype when ``p`` is floating point (itself if it has that dtype
    already), a ``"step"`` as it is, dicts, lists and tuples rebuilt around their cast items."""
    if isinstance(value, Tensor):
        return value if key == "step" or not p.is_floating_point() else value.to(p.dtype)
    if isinstance(value, dict):
        return {k: _cast_state(p, v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast_state(p, v) for v in value)
    return value


def _set(t, value):
    """Store ``value`` as the values of state tensor ``t`` (in place where it can)."""
    if type(t._data) is float:
        t._data = float(value)
    else:
        note_write()  # (Tape.adopt)
        np.copyto(t._data, value)


def _check(name, value, low=0.0):
    if not value >= low:
        raise ValueError(f"Invalid {name}: {value}")


def _check_betas(betas):
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")


class SGD(Optimizer):
    """Stochastic gradient descent with optional momentum (and dampening, Nesterov), weight
    decay and ``maximize``; PyTorch's formulas:

        g = grad (+ weight_decay * p);  b = momentum * b + (1 - dampening) * g
        p -= lr * (g + momentum * b  if nesterov else  b)
    """

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0,
                 nesterov=False, *, maximize=False, foreach=None, differentiable=False,
                 fused=None):
        _check("learning rate", lr)
        _check("momentum value", momentum)
        _check("weight_decay value", weight_decay)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov,
                                      maximize=maximize, foreach=foreach,
                                      differentiable=differentiable, fused=fused))

    def _update(self, p, grad, group, state):
        x = _values(p)
        g = -grad if group["maximize"] else grad
        wd, momentum = group["weight_decay"], group["momentum"]
        # each a.add(b, alpha=c) of PyTorch's: one multiply-add, as its kernel rounds it
        if wd != 0:
            g = _add(g, x, wd)
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = Tensor(np.array(g, dtype=x.dtype))
            else:
                b = _values(buf)
                _set(buf, _add(b * b.dtype.type(momentum), g, 1 - group["dampening"]))
            b = _values(buf)
            g = _add(g, b, momentum) if group["nesterov"] else b
        _write(p, _add(x, g, -group["lr"]))


class Adam(Optimizer):
    """Adam (Kingma & Ba) with PyTorch's formulas, ``amsgrad``, L2 ``weight_decay`` added to
    the gradient, and ``maximize``:

        m = lerp(m, g, 1 - beta1);  v = beta2 v + (1 - beta2) g^2
        p -= lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
    """

    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None, decoupled_weight_decay=False):
        _check("learning rate", lr)
        _check("epsilon value", eps)
        _check_betas(betas)
        _check("weight_decay value", weight_decay)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps,
                                      weight_decay=weight_decay, amsgrad=amsgrad,
                                      maximize=maximize, foreach=foreach, capturable=capturable,
                                      differentiable=differentiable, fused=fused,
                                      decoupled_weight_decay=decoupled_weight_decay
                                      or self._decoupled))

    def _update(self, p, grad, group, state):
        x = _values(p)
        f = x.dtype.type
        g = -grad if group["maximize"] else grad
        beta1, beta2 = group["betas"]
        lr, wd, eps = group["lr"], group["weight_decay"], group["eps"]
        if not state:
            state["step"] = Tensor(0.0)
            state["exp_avg"] = Tensor(np.zeros_like(x))
            state["exp_avg_sq"] = Tensor(np.zeros_like(x))
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = Tensor(np.zeros_like(x))
        state["step"]._data = step = float(state["step"]._data) + 1.0
        if wd != 0:
            if group["decoupled_weight_decay"]:
                x = x * f(1 - lr * wd)  # AdamW: decay the weights, not the gradient
            else:
                g = g + x * f(wd)
        m, v = _values(state["exp_avg"]), _values(state["exp_avg_sq"])
        m = _lerp(m, g, 1 - beta1)
        v = _addcmul(v * f(beta2), g, g, 1 - beta2)
        _set(state["exp_avg"], m)
        _set(state["exp_avg_sq"], v)
        step_size = lr / (1 - beta1 ** step)
        bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
        if group["amsgrad"]:
            vmax = np.maximum(_values(state["max_exp_avg_sq"]), v)
            _set(state["max_exp_avg_sq"], vmax)
            v = vmax
        denom = np.sqrt(v) / f(bias_correction2_sqrt) + f(eps)
        _write(p, x + f(-step_size) * m / denom)


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov & Hutter): ``p *= 1 - lr * wd`` before the
    Adam step; PyTorch's default ``weight_decay=1e-2``."""

    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False,
                 differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused)


def _lerp(a, b, w):
    """``torch.lerp(a, b, w)``: its two branches, each one multiply-add as PyTorch's kernel
    rounds them."""
    f = a.dtype.type
    d = b - a
    out = fma(f(w), d, a) if abs(w) < 0.5 else fma(-d, f(1 - w), b)
    return out.astype(a.dtype, copy=False)


def _add(a, b, alpha):
    """``a.add_(b, alpha=alpha)``'s values: ``alpha * b + a``, one multiply-add as
    PyTorch's kernel."""
    return fma(a.dtype.type(alpha), b, a).astype(a.dtype, copy=False)


def _addcmul(a, b, c, value):
    """``a.addcmul_(b, c, value=value)``'s values: ``value * b * c + a``, one multiply-add
    as PyTorch's kernel."""
    return fma(a.dtype.type(value) * b, c, a).astype(a.dtype, copy=False)


class RMSprop(Optimizer):
    """RMSprop (Hinton) with PyTorch's formulas, ``centered``, ``momentum``, L2
    ``weight_decay`` and ``maximize``:

        v = alpha v + (1 - alpha) g^2;  avg = sqrt(v - m^2 if centered else v) + eps
        (m = lerp(m, g, 1 - alpha));  b = momentum b + g / avg;  p -= lr * (b or g / avg)
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, capturable=False, foreach=None, maximize=False,
                 differentiable=False):
        _check("learning rate", lr)
        _check("epsilon value", eps)
        _check("momentum value", momentum)
        _check("weight_decay value", weight_decay)
        _check("alpha value", alpha)
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps,
                                      centered=centered, weight_decay=weight_decay,
                                      capturable=capturable, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable))

    def _update(self, p, grad, group, state):
        x = _values(p)
        f = x.dtype.type
        g = -grad if group["maximize"] else grad
        alpha, wd, momentum = group["alpha"], group["weight_decay"], group["momentum"]
        if not state:
            state["step"] = Tensor(0.0)
            state["square_avg"] = Tensor(np.zeros_like(x))
            if momentum > 0:
                state["momentum_buffer"] = Tensor(np.zeros_like(x))
            if group["centered"]:
                state["grad_avg"] = Tensor(np.zeros_like(x))
        state["step"]._data = float(state["step"]._data) + 1.0
        if wd != 0:  # (PyTorch's add(alpha=), addcmul_, add_(alpha=): each one rounding)
            g = _add(g, x, wd)
        v = _addcmul(_values(state["square_avg"]) * f(alpha), g, g, 1 - alpha)
        _set(state["square_avg"], v)
        if group["centered"]:
            m = _lerp(_values(state["grad_avg"]), g, 1 - alpha)
            _set(state["grad_avg"], m)
            avg = np.sqrt(_addcmul(v, m, m, -1))
        else:
            avg = np.sqrt(v)
        avg = avg + f(group["eps"])
        if momentum > 0:
            b = _values(state["momentum_buffer"]) * f(momentum) + g / avg
            _set(state["momentum_buffer"], b)
            _write(p, _add(x, b, -group["lr"]))
        else:
            _write(p, x + f(-group["lr"]) * g / avg)


class Adagrad(Optimizer):
    """Adagrad (Duchi et al.) with PyTorch's formulas, ``lr_decay``, L2 ``weight_decay``,
    ``initial_accumulator_value`` and ``maximize``:

        s += g^2;  p -= lr / (1 + (t - 1) lr_decay) * g / (sqrt(s) + eps)
    """

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0,
                 initial_accumulator_value=0, eps=1e-10, foreach=None, *, maximize=False,
                 differentiable=False, fused=None):
        _check("learning rate", lr)
        _check("lr_decay value", lr_decay)
        _check("weight_decay value", weight_decay)
        _check("initial_accumulator_value value", initial_accumulator_value)
        _check("epsilon value", eps)
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps,
                                      weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value,
                                      foreach=foreach, maximize=maximize,
                                      differentiable=differentiable, fused=fused))
        for group in self.param_groups:  # as PyTorch: the state exists before the first step
            for p in group["params"]:
                self.state[p] = {"step": Tensor(0.0), "sum": Tensor(np.full_like(
                    _values(p), group["initial_accumulator_value"]))}

    def _update(self, p, grad, group, state):
        x = _values(p)
        f = x.dtype.type
        g = -grad if group["maximize"] else grad
        if not state:  # a parameter added by add_param_group after __init__
            state.update(step=Tensor(0.0), sum=Tensor(np.full_like(
                x, group["initial_accumulator_value"])))
        state["step"]._data = step = float(state["step"]._data) + 1.0
        if group["weight_decay"] != 0:
            g = g + x * f(group["weight_decay"])
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        s = _values(state["sum"]) + g * g
        _set(state["sum"], s)
        _write(p, x + f(-clr) * g / (np.sqrt(s) + f(group["eps"])))
