"""Weight normalisation (PyTorch's ``nn.utils.weight_norm``): the parameter ``name`` is
replaced by a magnitude ``name_g`` and a direction ``name_v``, and before every forward
``name = name_v * name_g / ||name_v||`` (the norm over every dim but ``dim``) is
recomputed, so gradients reach g and v.

>>> import tapegrad as tg, warnings
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore")
...     lin = tg.nn.utils.weight_norm(tg.nn.Linear(3, 2))
>>> list(lin.state_dict())
['bias', 'weight_g', 'weight_v']
"""
import warnings

from ...grad_mode import no_grad
from ...ops._record import named_result
from ..parameter import Parameter


def _norm_except_dim(v, dim):
    """The 2-norm of ``v`` over every dim but ``dim`` (kept as size-1 dims), or of all of
    it (``dim`` None)."""
    if dim is None:
        return v.norm()
    others = [d for d in range(v.ndim) if d != dim % v.ndim]
    return v.norm(2, others, keepdim=True) if others else v.abs()


def _weight_norm(v, g, dim=0):
    """``v * (g / ||v||)``, the norm over every dim but ``dim`` (all of v for dim -1):
    ``torch._weight_norm``.  Over the first or last dim PyTorch runs one fused kernel, whose
    node is ``WeightNormInterfaceBackward0`` (leading to v, g); elsewhere its composite
    ends in ``MulBackward0``, as this one does."""
    whole = dim == -1 or dim is None
    w = v * (g / _norm_except_dim(v, None if whole else dim))
    if not whole and dim % v.ndim in (0, v.ndim - 1):
        w = named_result(w, "WeightNormInterfaceBackward0", v, g)
    return w


class _WeightNorm:
    """The forward pre-hook that recomputes the weight from g and v."""

    def __init__(self, name, dim):
        self.name, self.dim = name, dim

    def compute_weight(self, module):
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return _weight_norm(v, g, -1 if self.dim is None else self.dim)

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name="weight", dim=0):
    """Apply weight normalisation to ``module``'s parameter ``name`` (see the module
    docstring); returns ``module``."""
    warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                  "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning, stacklevel=2)
    for hook in module._forward_pre_hooks.values():
        if isinstance(hook, _WeightNorm) and hook.name == name:
            raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter "
                               f"{name}")
    if dim is not None and dim < -1:
        dim += getattr(module, name).ndim
    fn = _WeightNorm(name, dim)
    weight = getattr(module, name)
    del module._parameters[name]
    with no_grad():
        module.register_parameter(name + "_g", Parameter(_norm_except_dim(weight, dim)))
        module.register_parameter(name + "_v", Parameter(weight.detach()))
    object.__setattr__(module, name, fn.compute_weight(module))
    module.register_forward_pre_hook(fn)
    return module


def remove_weight_norm(module, name="weight"):
    """Undo ``weight_norm``: ``name`` is a parameter again, holding the current
    weight."""
    for key, hook in list(module._forward_pre_hooks.items()):
        if isinstance(hook, _WeightNorm) and hook.name == name:
            with no_grad():
                weight = hook.compute_weight(module).detach()
            del module._forward_pre_hooks[key]
            del module._parameters[name + "_g"]
            del module._parameters[name + "_v"]
            module.__dict__.pop(name, None)
            module.register_parameter(name, Parameter(weight))
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
