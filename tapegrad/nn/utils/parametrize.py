"""``nn.utils.parametrize``: a module's tensor computed from other tensors on each access.

``register_parametrization(module, "weight", P)`` moves the parameter to
``module.parametrizations.weight.original`` (``original0``, ``original1``, ... when P's
``right_inverse`` returns several tensors) and gives the module's class a property
``weight`` that returns ``P(original)`` (several parametrizations are applied in order).
Assigning ``module.weight = X`` stores ``right_inverse(X)`` in the originals.  The
state_dict holds the originals under PyTorch's keys, so checkpoints move between the two.

>>> import tapegrad as tg
>>> class Symmetric(tg.nn.Module):
...     def forward(self, X):
...         return X.triu() + X.triu(1).mT
>>> lin = tg.nn.Linear(3, 3)
>>> _ = tg.nn.utils.parametrize.register_parametrization(lin, "weight", Symmetric())
>>> bool((lin.weight == lin.weight.mT).all())
True
"""
import contextlib

from ...grad_mode import no_grad
from ...tensor import Tensor
from ..modules import ModuleDict, ModuleList
from ..parameter import Parameter

_cache = {"enabled": 0, "values": {}}


@contextlib.contextmanager
def cached():
    """Inside, each parametrized tensor is computed once and reused."""
    _cache["enabled"] += 1
    try:
        yield
    finally:
        _cache["enabled"] -= 1
        if not _cache["enabled"]:
            _cache["values"] = {}


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, applied in order, and its originals."""

    def __init__(self, modules, original, unsafe=False):
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        with no_grad():
            new = original
            for m in reversed(self):
                if hasattr(m, "right_inverse"):
                    try:
                        new = m.right_inverse(new)
                    except NotImplementedError:  # (PyTorch's: the original is kept as is)
                        pass
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        dtype, shape = original.dtype, original.shape
        if self.is_tensor:
            if new.dtype != dtype:  # (PyTorch checks it, unsafe or not; a shape may change)
                raise ValueError("When `right_inverse` outputs one tensor, it may not change "
                                 f"the dtype.\noriginal.dtype: {dtype}\n"
                                 f"right_inverse(original).dtype: {new.dtype}")
            if tuple(new.shape) == tuple(shape):
                with no_grad():  # the same object: an optimizer made before keeps it
                    original.copy_(new)
            else:  # (another shape: a new tensor, where PyTorch's set_ keeps the object)
                original = type(original)(new.detach(), original.requires_grad) \
                    if isinstance(original, Parameter) else new.detach()
            if isinstance(original, Parameter):
                self.original = original
            else:
                self.register_buffer("original", original)
        else:
            for i, t in enumerate(new):
                self.register_parameter(f"original{i}",
                                        Parameter(t.detach(), original.requires_grad))
        if not unsafe:  # (PyTorch's check: forward(right_inverse(original)) is as original)
            _check_same(self(), dtype, shape, "Registering a parametrization may not change "
                        "the {} of the tensor, unless `unsafe` flag is enabled.\n"
                        "unparametrized {}: {}\nparametrized {}: {}")

    def right_inverse(self, value):
        """Store the originals that map to ``value``."""
        with no_grad():
            for m in reversed(self):
                if hasattr(m, "right_inverse"):
                    value = m.right_inverse(value)
                elif not self.unsafe:
                    raise RuntimeError(f"parametrization {type(m).__name__} does not implement "
                                       "right_inverse.")
            if self.is_tensor:
                self.original.copy_(value)
            else:
                for i, t in enumerate(value):
                    getattr(self, f"original{i}").copy_(t)

    def forward(self):
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for m in list(self)[1:]:
            x = m(x)
        return x


def _check_same(out, dtype, shape, words):
    """PyTorch's ValueErrors for a parametrization's output of another dtype or shape
    (``words`` has slots for the attribute's name, then its two names and values)."""
    if not isinstance(out, Tensor):
        raise ValueError(f"A parametrization must return a tensor. Got {type(out).__name__}.")
    for what, want, got in (("dtype", dtype, out.dtype), ("shape", shape, out.shape)):
        if (tuple(got) != tuple(want)) if what == "shape" else got != want:
            raise ValueError(words.format(what, what, want, what, got))


def _parametrized_property(name):
    def get(self):
        if _cache["enabled"]:
            key = (id(self), name)
            if key not in _cache["values"]:
                _cache["values"][key] = self.parametrizations[name]()
            return _cache["values"][key]
        return self.parametrizations[name]()

    def set_(self, value):
        self.parametrizations[name].right_inverse(value)

    return property(get, set_)


def is_parametrized(module, tensor_name=None):
    """Whether ``module`` has a parametrization (on ``tensor_name``, if given)."""
    found = module.__dict__.get("_modules", {}).get("parametrizations")
    if not isinstance(found, ModuleDict):
        return False
    return len(found) > 0 if tensor_name is None else tensor_name in found


def type_before_parametrizations(module):
    """The module's class before any parametrization was registered."""
    cls = type(module)
    return cls.__bases__[0] if is_parametrized(module) else cls


def register_parametrization(module, tensor_name, parametrization, *, unsafe=False):
    """Make ``module.<tensor_name>`` the output of ``parametrization`` applied to the
    original tensor (see the module docstring); returns ``module``."""
    if is_parametrized(module, tensor_name):
        plist = module.parametrizations[tensor_name]
        if not unsafe:  # (PyTorch's checks, in its words)
            value = getattr(module, tensor_name)
            out = parametrization(value)
            _check_same(out, value.dtype, value.shape, "Registering a parametrization may not "
                        "change the {} of the tensor, unless the `unsafe` flag is enabled.\n"
                        f"module.{tensor_name}.{{}}: {{}}\n"
                        f"parametrization(module.{tensor_name}).{{}}: {{}}")
            back = None
            if hasattr(parametrization, "right_inverse"):
                try:
                    back = parametrization.right_inverse(out)
                except NotImplementedError:  # (the identity, then)
                    pass
            if back is not None and not isinstance(back, Tensor):
                raise ValueError("parametrization.right_inverse must return a tensor. Got: "
                                 f"{type(back).__name__}")
            if back is not None:
                _check_same(back, value.dtype, value.shape, "The tensor returned by "
                            "parametrization.right_inverse must have the same {} as "
                            f"module.{tensor_name}, unless the `unsafe` flag is enabled.\n"
                            f"module.{tensor_name}.{{}}: {{}}\nreturned {{}}: {{}}")
        plist.append(parametrization)
        plist.unsafe |= unsafe
        return module
    if tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
    else:
        raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a "
                         f"parametrized element with name '{tensor_name}'")
    plist = ParametrizationList([parametrization], original, unsafe=unsafe)
    delattr(module, tensor_name)
    if not is_parametrized(module):
        cls = type(module)
        module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), {})
        module.parametrizations = ModuleDict()
    module.parametrizations[tensor_name] = plist
    setattr(type(module), tensor_name, _parametrized_property(tensor_name))
    return module


def remove_parametrizations(module, tensor_name, leave_parametrized=True):
    """Undo the parametrizations of ``tensor_name``: it becomes a parameter again, holding
    the current parametrized value (``leave_parametrized``) or the original."""
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    plist = module.parametrizations[tensor_name]
    if plist.is_tensor:
        original = plist.original
        if leave_parametrized:
            with no_grad():
                t = getattr(module, tensor_name)
            if tuple(t.shape) == tuple(original.shape) and t.dtype == original.dtype:
                with no_grad():
                    original.copy_(t)
            else:
                original = Parameter(t.detach(), original.requires_grad)
    else:
        if not leave_parametrized:
            raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a "
                             "tensor that is parametrized in terms of a sequence of tensors.")
        t = getattr(module, tensor_name)  # (with grad: does an original require it?)
        original = Parameter(t.detach()) if t.requires_grad else t  # (else: a buffer)
    delattr(type(module), tensor_name)
    del module.parametrizations[tensor_name]
    if isinstance(original, Parameter):
        module.register_parameter(tensor_name, original)
    else:
        module.register_buffer(tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = type(module).__bases__[0]
    return module


def transfer_parametrizations_and_params(from_module, to_module, tensor_name=None):
    """Give ``to_module`` the parametrizations of ``from_module`` (of ``tensor_name``, or of
    every parametrized tensor), the same parametrization objects in the same order, and
    their originals' values (a parameter to_module lacks is made first); returns
    ``to_module``.  The originals are copied, not shared: tapegrad has no ``set_``."""
    if not is_parametrized(from_module):
        return to_module
    names = list(from_module.parametrizations) if tensor_name is None else [tensor_name]
    for name in names:
        if name not in from_module.parametrizations:
            raise AssertionError(f"'{name}' is not a parametrized tensor of {from_module}")
        src = from_module.parametrizations[name]
        if not hasattr(to_module, name):
            setattr(to_module, name, Parameter(getattr(from_module, name)))
        for p in src:
            register_parametrization(to_module, name, p)
        dst = to_module.parametrizations[name]
        keys = ["original"] if src.is_tensor else [f"original{i}" for i in range(src.ntensors)]
        with no_grad():
            for k in keys:
                getattr(dst, k).copy_(getattr(src, k))
    return to_module


__all__ = ["ParametrizationList", "cached", "is_parametrized", "register_parametrization",
           "remove_parametrizations", "transfer_parametrizations_and_params",
           "type_before_parametrizations"]
