"""Spectral normalisation, PyTorch's older hook form (``nn.utils.spectral_norm``): the
parameter ``name`` becomes ``name_orig``, the power-iteration vectors the buffers
``name_u`` and ``name_v``, and before every forward ``name = name_orig / sigma`` is
recomputed, ``sigma = u . (W v)`` for W the weight as a matrix (dim ``dim`` first), after
``n_power_iterations`` steps ``v <- normalize(W^T u)``, ``u <- normalize(W v)`` in training.

>>> import tapegrad as tg
>>> lin = tg.nn.utils.spectral_norm(tg.nn.Linear(3, 2))
>>> sorted(lin.state_dict())
['bias', 'weight_orig', 'weight_u', 'weight_v']
"""
from ... import creation
from ...grad_mode import no_grad
from ...tensor import Tensor
from .. import functional as F
from ..layers import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..parameter import Parameter


class SpectralNorm:
    """The forward pre-hook that recomputes the weight (PyTorch's class name)."""

    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.name, self.dim, self.eps = name, dim, eps
        self.n_power_iterations = n_power_iterations

    def reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.movedim(self.dim, 0)
        return weight.flatten(1)

    def compute_weight(self, module, do_power_iteration):
        weight = getattr(module, self.name + "_orig")
        u, v = getattr(module, self.name + "_u"), getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    v.copy_(F.normalize(weight_mat.mT.mv(u), dim=0, eps=self.eps))
                    u.copy_(F.normalize(weight_mat.mv(v), dim=0, eps=self.eps))
            u, v = u.clone(), v.clone()
        sigma = (u * weight_mat.mv(v)).sum()
        return weight / sigma

    def __call__(self, module, inputs):
        object.__setattr__(module, self.name,
                           self.compute_weight(module, do_power_iteration=module.training))

    def remove(self, module):
        with no_grad():
            weight = self.compute_weight(module, do_power_iteration=False).detach()
        for suffix in ("_u", "_v", "_orig"):
            delattr(module, self.name + suffix)
        module.__dict__.pop(self.name, None)
        module.register_parameter(self.name, Parameter(weight))


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Apply spectral normalisation to ``module``'s parameter ``name`` (see the module
    docstring); returns ``module``."""
    for hook in module._forward_pre_hooks.values():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            raise RuntimeError(f"Cannot register two spectral_norm hooks on the same "
                               f"parameter {name}")
    if dim is None:
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d,
                                       ConvTranspose3d)) else 0
    fn = SpectralNorm(name, n_power_iterations, dim, eps)
    weight = module._parameters[name]
    with no_grad():
        h, w = fn.reshape_weight_to_matrix(weight).shape
        u = F.normalize(Tensor(creation._rng.standard_normal(h).astype(weight.dtype)), dim=0,
                        eps=eps)
        v = F.normalize(Tensor(creation._rng.standard_normal(w).astype(weight.dtype)), dim=0,
                        eps=eps)
    del module._parameters[name]
    module.register_parameter(name + "_orig", weight)
    object.__setattr__(module, name, weight.detach())
    module.register_buffer(name + "_u", u)
    module.register_buffer(name + "_v", v)
    module.register_forward_pre_hook(fn)
    return module


def remove_spectral_norm(module, name="weight"):
    """Undo ``spectral_norm``: ``name`` is a parameter again, holding the current weight."""
    for key, hook in list(module._forward_pre_hooks.items()):
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"spectral_norm of '{name}' not found in {module}")
