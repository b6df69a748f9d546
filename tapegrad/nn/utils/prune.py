"""``nn.utils.prune``: masks that zero parts of a module's tensor, PyTorch's way.

Pruning ``module.weight`` moves the parameter to ``weight_orig``, adds the buffer
``weight_mask`` and makes ``weight`` the product ``weight_orig * weight_mask``, recomputed
by a forward pre-hook before each call (so the gradient reaches ``weight_orig`` through the
mask).  Pruning the same tensor again prunes among the entries (or channels) still kept, the
methods gathered in a ``PruningContainer``; ``remove`` makes the pruned tensor a plain
parameter again.  Masks: ``l1_unstructured`` (smallest magnitudes), ``random_unstructured``,
``ln_structured`` (channels along ``dim`` of smallest ``n``-norm), ``random_structured``,
``custom_from_mask``, and ``global_unstructured`` over several tensors at once.  ``amount``
is a count, or a fraction rounded as Python's ``round`` (PyTorch's rule).  Random choices
come from tapegrad's generator, so they differ from PyTorch's for one seed.

>>> import tapegrad as tg
>>> lin = tg.nn.utils.prune.l1_unstructured(tg.nn.Linear(4, 2), "weight", amount=3)
>>> int((lin.weight_mask == 0).sum()), sorted(lin.state_dict())
(3, ['bias', 'weight_mask', 'weight_orig'])
"""
import numbers

import numpy as np

from ... import creation
from ...grad_mode import no_grad
from ...tensor import Tensor


def _validate_amount_init(amount):
    if not isinstance(amount, numbers.Real) or isinstance(amount, bool):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    if (isinstance(amount, numbers.Integral) and amount < 0) or \
            (not isinstance(amount, numbers.Integral) and not 0.0 <= amount <= 1.0):
        raise ValueError(f"amount={amount} should either be a float in the range [0, 1] or a "
                         "non-negative integer")


def _count(amount, size):
    """How many of ``size`` entries (or channels) ``amount`` prunes, checked."""
    if isinstance(amount, numbers.Integral):
        if amount > size:
            raise ValueError(f"amount={amount} should be smaller than the number of parameters "
                             f"to prune={size}")
        return int(amount)
    return round(amount * size)


def _check_structured(t):
    if t.ndim <= 1:
        raise ValueError("Structured pruning can only be applied to multidimensional tensors. "
                         f"Found tensor of shape torch.Size({list(t.shape)}) with {t.ndim} "
                         "dims")


def _check_dim(t, dim):
    if dim >= t.ndim:
        raise IndexError(f"Invalid index {dim} for tensor of size torch.Size("
                         f"{list(t.shape)})")


class BasePruningMethod:
    """A pruning method: ``compute_mask(t, default_mask)`` gives the mask (NumPy arrays);
    applied to a module's tensor, it is the forward pre-hook that re-applies the mask."""

    PRUNING_TYPE = "unstructured"
    _tensor_name = None

    def __call__(self, module, inputs):
        object.__setattr__(module, self._tensor_name, self.apply_mask(module))

    def compute_mask(self, t, default_mask):
        raise NotImplementedError

    def apply_mask(self, module):
        """The pruned tensor: ``<name>_orig * <name>_mask``."""
        orig = getattr(module, self._tensor_name + "_orig")
        return orig * getattr(module, self._tensor_name + "_mask").to(orig.dtype)

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        """Prune ``module.<name>`` with ``cls(*args, **kwargs)`` (on top of earlier
        pruning of it, if any); returns the method (or container) now hooked."""
        method = cls(*args, **kwargs)
        method._tensor_name = name
        old_key = next((key for key, hook in module._forward_pre_hooks.items()
                        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name),
                       None)
        if old_key is not None:  # (a new container: bad input leaves the old one as it was)
            old = module._forward_pre_hooks[old_key]
            method = PruningContainer(*(old if isinstance(old, PruningContainer) else [old]),
                                      method)
        orig = getattr(module, name)
        scores = orig if importance_scores is None else importance_scores
        if tuple(scores.shape) != tuple(orig.shape):
            raise AssertionError(f"importance_scores should have the same shape as parameter "
                                 f"{name} of {module}, got {tuple(scores.shape)} vs "
                                 f"{tuple(orig.shape)}")
        default = np.ones(tuple(orig.shape)) if old_key is None else \
            np.asarray(getattr(module, name + "_mask")._data, np.float64)
        mask = method.compute_mask(np.asarray(scores.detach()._data, np.float64), default)
        if old_key is None:
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
        else:
            del module._forward_pre_hooks[old_key]
        module.register_buffer(name + "_mask", Tensor(mask.astype(orig.dtype)))
        object.__setattr__(module, name, method.apply_mask(module))
        module.register_forward_pre_hook(method)
        return method

    def prune(self, t, default_mask=None, importance_scores=None):
        """``t`` times the mask this method computes for it."""
        scores = t if importance_scores is None else importance_scores
        default = np.ones(tuple(t.shape)) if default_mask is None else \
            np.asarray(default_mask._data, np.float64)
        mask = self.compute_mask(np.asarray(scores.detach()._data, np.float64), default)
        return t * Tensor(mask.astype(t.dtype))

    def remove(self, module):
        """Make the pruned tensor a plain parameter again (its current pruned value)."""
        name = self._tensor_name
        with no_grad():
            weight = self.apply_mask(module).detach()
        orig = module._parameters.pop(name + "_orig")
        del module._buffers[name + "_mask"]
        module.__dict__.pop(name, None)
        with no_grad():
            orig.copy_(weight)
        module.register_parameter(name, orig)


class PruningContainer(BasePruningMethod):
    """Pruning methods applied one after another to one tensor: each new one prunes among
    the entries (or channels) that the earlier ones kept."""

    def __init__(self, *methods):
        self._pruning_methods = ()
        for m in methods:
            self.add_pruning_method(m)

    def add_pruning_method(self, method):
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        if self._tensor_name is not None and method._tensor_name != self._tensor_name:
            raise ValueError(f"Can only add pruning methods acting on the parameter named "
                             f"'{self._tensor_name}' to PruningContainer {self}. Found "
                             f"'{method._tensor_name}'")
        self._tensor_name = method._tensor_name
        self._pruning_methods += (method,)

    def __len__(self):
        return len(self._pruning_methods)

    def __iter__(self):
        return iter(self._pruning_methods)

    def __getitem__(self, idx):
        return self._pruning_methods[idx]

    def compute_mask(self, t, default_mask):
        method = self._pruning_methods[-1]
        mask = default_mask.copy()
        if method.PRUNING_TYPE == "unstructured":
            kept = default_mask == 1
            mask[kept] = method.compute_mask(t[kept], default_mask[kept])
        elif method.PRUNING_TYPE == "structured":
            dim = method.dim % t.ndim
            others = tuple(d for d in range(t.ndim) if d != dim)
            channels = np.flatnonzero(default_mask.sum(axis=others) != 0)
            part = method.compute_mask(np.take(t, channels, dim),
                                       np.take(default_mask, channels, dim))
            index = [slice(None)] * t.ndim
            index[dim] = channels
            mask[tuple(index)] = part
        elif method.PRUNING_TYPE == "global":
            mask = method.compute_mask(t, default_mask)
        else:
            raise ValueError(f"Unrecognized PRUNING_TYPE {method.PRUNING_TYPE}")
        return mask


class Identity(BasePruningMethod):
    """Prunes nothing (a mask of ones)."""

    def compute_mask(self, t, default_mask):
        return default_mask.copy()

    @classmethod
    def apply(cls, module, name):
        return super().apply(module, name)


class _Unstructured(BasePruningMethod):
    """Prunes ``amount`` entries, the first ones of ``_order(t)``."""

    def __init__(self, amount):
        _validate_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        k = _count(self.amount, t.size)
        mask = default_mask.copy()
        if k:
            mask.reshape(-1)[self._order(t)[:k]] = 0
        return mask


class RandomUnstructured(_Unstructured):
    """Prunes ``amount`` entries chosen at random."""

    def _order(self, t):
        return creation._rng.permutation(t.size)

    @classmethod
    def apply(cls, module, name, amount):
        return super().apply(module, name, amount=amount)


class L1Unstructured(_Unstructured):
    """Prunes the ``amount`` entries of smallest magnitude."""

    def _order(self, t):
        return np.argsort(np.abs(t).reshape(-1), kind="stable")

    @classmethod
    def apply(cls, module, name, amount, importance_scores=None):
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


def _channel_mask(t, dim, keep, default_mask):
    """Ones on the channels ``keep`` along ``dim``, times the default mask."""
    mask = np.zeros(t.shape)
    index = [slice(None)] * t.ndim
    index[dim] = keep
    mask[tuple(index)] = 1
    return mask * default_mask


class RandomStructured(BasePruningMethod):
    """Prunes ``amount`` channels along ``dim`` chosen at random."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount, dim=-1):
        _validate_amount_init(amount)
        self.amount, self.dim = amount, dim

    def compute_mask(self, t, default_mask):
        _check_structured(t)
        _check_dim(t, self.dim)
        n = t.shape[self.dim]
        k = _count(self.amount, n)
        if k == 0:
            return default_mask.copy()
        keep = np.sort(creation._rng.permutation(n)[:n - k])
        return _channel_mask(t, self.dim % t.ndim, keep, default_mask)

    @classmethod
    def apply(cls, module, name, amount, dim=-1):
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(BasePruningMethod):
    """Prunes the ``amount`` channels along ``dim`` of smallest ``n``-norm."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount, n, dim=-1):
        _validate_amount_init(amount)
        self.amount, self.n, self.dim = amount, n, dim

    def compute_mask(self, t, default_mask):
        _check_structured(t)
        _check_dim(t, self.dim)
        dim = self.dim % t.ndim
        channels = t.shape[dim]
        k = _count(self.amount, channels)
        if k == 0:
            return default_mask.copy()
        flat = np.moveaxis(t, dim, 0).reshape(channels, -1)
        if self.n == "fro":
            norms = np.sqrt((flat * flat).sum(1))
        else:
            norms = np.linalg.norm(flat, ord=self.n, axis=1)
        keep = np.sort(np.argsort(-norms, kind="stable")[:channels - k])
        return _channel_mask(t, dim, keep, default_mask)

    @classmethod
    def apply(cls, module, name, amount, n, dim, importance_scores=None):
        return super().apply(module, name, amount=amount, n=n, dim=dim,
                             importance_scores=importance_scores)


class CustomFromMask(BasePruningMethod):
    """Prunes where ``mask`` is 0."""

    PRUNING_TYPE = "global"

    def __init__(self, mask):
        self.mask = mask

    def compute_mask(self, t, default_mask):
        mask = np.asarray(self.mask._data if isinstance(self.mask, Tensor) else self.mask,
                          np.float64)
        if mask.shape != default_mask.shape:
            raise AssertionError(f"mask of shape {mask.shape} does not match the tensor's "
                                 f"{default_mask.shape}")
        return default_mask * mask

    @classmethod
    def apply(cls, module, name, mask):
        return super().apply(module, name, mask=mask)


def identity(module, name):
    """Prune nothing, but reparametrize ``name`` as ``name_orig * name_mask``."""
    Identity.apply(module, name)
    return module


def random_unstructured(module, name, amount):
    """Prune ``amount`` random entries of ``module.<name>``."""
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module, name, amount, importance_scores=None):
    """Prune the ``amount`` entries of ``module.<name>`` of smallest magnitude (of
    ``importance_scores``, if given)."""
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module, name, amount, dim):
    """Prune ``amount`` random channels along ``dim`` of ``module.<name>``."""
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module, name, amount, n, dim, importance_scores=None):
    """Prune the ``amount`` channels along ``dim`` of smallest ``n``-norm."""
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def custom_from_mask(module, name, mask):
    """Prune ``module.<name>`` where ``mask`` is 0."""
    CustomFromMask.apply(module, name, mask)
    return module


def global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs):
    """Prune the (module, name) pairs ``parameters`` together: one mask computed by
    ``pruning_method`` over all their entries (their current masks kept), then applied to
    each."""
    parameters = list(parameters)
    importance_scores = importance_scores or {}
    values, defaults = [], []
    for module, name in parameters:
        t = importance_scores.get((module, name), getattr(module, name))
        values.append(np.asarray(t.detach()._data, np.float64).reshape(-1))
        mask = getattr(module, name + "_mask", None)
        defaults.append(np.ones(values[-1].size) if mask is None else
                        np.asarray(mask._data, np.float64).reshape(-1))
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError('Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. '
                        f"Found method {pruning_method} of type {method.PRUNING_TYPE}")
    values, default = np.concatenate(values), np.concatenate(defaults)
    kept = default == 1
    mask = default.copy()
    mask[kept] = method.compute_mask(values[kept], default[kept])
    start = 0
    for module, name in parameters:
        size = getattr(module, name).numel()
        shape = tuple(getattr(module, name).shape)
        custom_from_mask(module, name, Tensor(mask[start:start + size].reshape(shape)))
        start += size


def remove(module, name):
    """Make ``module.<name>`` a plain parameter holding its pruned value; returns module."""
    for key, hook in list(module._forward_pre_hooks.items()):
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"Parameter '{name}' of module {module} has to be pruned before pruning "
                     "can be removed")


def is_pruned(module):
    """Whether ``module`` or one of its submodules is pruned."""
    return any(isinstance(hook, BasePruningMethod) for m in module.modules()
               for hook in m._forward_pre_hooks.values())


__all__ = ["BasePruningMethod", "CustomFromMask", "Identity", "L1Unstructured",
           "LnStructured", "PruningContainer", "RandomStructured", "RandomUnstructured",
           "custom_from_mask", "global_unstructured", "identity", "is_pruned",
           "l1_unstructured", "ln_structured", "random_structured", "random_unstructured",
           "remove"]
