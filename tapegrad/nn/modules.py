"""A minimal nn.Module: parameters registered by attribute, children, train/eval, zero_grad,
state_dict; and the few layers small models need (Linear, Sequential, activations, losses).
Everything a layer computes goes through ``nn.functional``, so it records like any op."""
import math
from collections import OrderedDict

import numpy as np

from .. import creation, dtypes
from ..device import check as check_device
from ..device import parse_to
from ..grad_mode import no_grad
from ..tensor import Tensor
from . import functional as F
from .parameter import Parameter


class Module:
    """Base class of layers and models: assign Parameters and Modules as attributes.

    >>> import tapegrad as tg
    >>> net = tg.nn.Sequential(tg.nn.Linear(2, 3), tg.nn.Tanh(), tg.nn.Linear(3, 1))
    >>> sum(p.numel() for p in net.parameters())
    13
    """

    def __init__(self):
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "training", True)

    # -- registration --------------------------------------------------------------------
    def __setattr__(self, name, value):
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self.__dict__.pop(name, None)
            self._modules.pop(name, None)
            params[name] = value
        elif isinstance(value, Module):
            if params is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self.__dict__.pop(name, None)
            params.pop(name, None)
            self._modules[name] = value
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as parameter '{name}' "
                                "(tapegrad.nn.Parameter or None expected)")
            params[name] = None
        elif params is not None and name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as child module "
                                f"'{name}' (tapegrad.nn.Module or None expected)")
            self._modules[name] = None
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        d = self.__dict__
        for registry in ("_parameters", "_modules"):
            if registry in d and name in d[registry]:
                return d[registry][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for registry in (self._parameters, self._modules):
            if name in registry:
                del registry[name]
                return
        object.__delattr__(self, name)

    def register_parameter(self, name, param):
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{type(param).__name__}' object to parameter "
                            f"'{name}' (tapegrad.nn.Parameter or None required)")
        self._parameters[name] = param

    def add_module(self, name, module):
        self._modules[name] = module

    # -- traversal -----------------------------------------------------------------------
    def named_parameters(self, prefix="", recurse=True):
        seen = set()
        mods = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
        for mod_prefix, mod in mods:
            for name, p in mod._parameters.items():
                if p is not None and id(p) not in seen:
                    seen.add(id(p))
                    yield (mod_prefix + "." if mod_prefix else "") + name, p

    def parameters(self, recurse=True):
        """The parameters of this module and (by default) its descendants, each once."""
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_children(self):
        for name, m in self._modules.items():
            if m is not None:
                yield name, m

    def children(self):
        for _, m in self.named_children():
            yield m

    def named_modules(self, memo=None, prefix=""):
        memo = set() if memo is None else memo
        if id(self) in memo:
            return
        memo.add(id(self))
        yield prefix, self
        for name, m in self.named_children():
            yield from m.named_modules(memo, prefix + ("." if prefix else "") + name)

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def apply(self, fn):
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    # -- modes and gradients ---------------------------------------------------------------
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for m in self.modules():
            object.__setattr__(m, "training", mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Reset every parameter's ``.grad`` (to None, or to zeros in place)."""
        for p in self.parameters():
            _zero_grad(p, set_to_none)

    def to(self, *args, **kwargs):
        """Convert the parameters' values to a float dtype, as ``Tensor.to`` takes it (the
        device must be the CPU, the only one here)."""
        dtype = parse_to(args, kwargs, "Module.to")
        if dtype is None:
            return self
        dt = np.dtype(dtype)
        for p in self.parameters():
            p.data = Tensor(np.asarray(p._data).astype(dt))
            if p.grad is not None:
                p.grad = Tensor(np.asarray(p.grad._data).astype(dt))
        return self

    def cpu(self):
        """This module (its parameters are on the CPU already)."""
        return self

    def cuda(self, device=None):
        """Refused with a clear error: there is no CUDA device here."""
        check_device("cuda" if device is None else device, "Module.cuda")

    def double(self):
        return self.to(np.float64)

    def float(self):
        return self.to(np.float32)

    # -- state -----------------------------------------------------------------------------
    def state_dict(self):
        """Parameter name -> tensor (detached, sharing the values)."""
        return OrderedDict((name, p.detach()) for name, p in self.named_parameters())

    def load_state_dict(self, state_dict, strict=True):
        """Copy values into the parameters of the same names (in place)."""
        own = dict(self.named_parameters())
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        if strict and (missing or unexpected):
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}: "
                               f"Missing key(s) in state_dict: {missing}. Unexpected key(s) in "
                               f"state_dict: {unexpected}.")
        with no_grad():
            for name, value in state_dict.items():
                if name in own:
                    src = value if isinstance(value, Tensor) else Tensor(np.asarray(value))
                    if tuple(src.shape) != tuple(own[name].shape):
                        raise RuntimeError(
                            f"Error(s) in loading state_dict for {type(self).__name__}: size "
                            f"mismatch for {name}: copying a param with shape "
                            f"{tuple(src.shape)}, the shape in current model is "
                            f"{tuple(own[name].shape)}.")
                    own[name].copy_(src)
        return missing, unexpected

    # -- calling ---------------------------------------------------------------------------
    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  '"forward" function')

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def extra_repr(self):
        return ""

    def __repr__(self):
        lines = [f"({name}): " + repr(m).replace("\n", "\n  ")
                 for name, m in self._modules.items()]
        head = f"{type(self).__name__}({self.extra_repr()}"
        if not lines:
            return head + ")"
        return head + "\n  " + "\n  ".join(lines) + "\n)"


def _zero_grad(p, set_to_none):
    if p.grad is None:
        return
    if set_to_none:
        p.grad = None
    else:
        p.grad.detach_()
        p.grad.zero_()


class Linear(Module):
    """``y = x @ weight.T + bias``, initialised as PyTorch does: U(-1/sqrt(in), 1/sqrt(in))
    from tapegrad's generator (``tapegrad.manual_seed``)."""

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        check_device(device, "Linear")
        for name, v in (("in_features", in_features), ("out_features", out_features)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
                raise TypeError(f"Linear(): argument '{name}' must be a non-negative int, got "
                                f"{v!r}")
        self.in_features = in_features
        self.out_features = out_features
        dt = np.dtype(dtype) if dtype is not None else dtypes.default_float()
        bound = 1.0 / math.sqrt(in_features) if in_features > 0 else 0.0
        self.weight = Parameter(creation._rng.uniform(-bound, bound, (out_features,
                                                                       in_features)).astype(dt))
        if bias:
            self.bias = Parameter(creation._rng.uniform(-bound, bound, out_features).astype(dt))
        else:
            self.register_parameter("bias", None)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Sequential(Module):
    """Modules called in order, each on the previous one's output."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, m in args[0].items():
                self.add_module(name, m)
        else:
            for i, m in enumerate(args):
                self.add_module(str(i), m)

    def forward(self, input):
        for m in self._modules.values():
            input = m(input)
        return input

    def __getitem__(self, idx):
        mods = list(self._modules.values())
        if isinstance(idx, slice):
            return Sequential(*mods[idx])
        return mods[idx]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self


class Identity(Module):
    def forward(self, input):
        return input


class ReLU(Module):
    def forward(self, input):
        return F.relu(input)


class Tanh(Module):
    def forward(self, input):
        return input.tanh()


class Sigmoid(Module):
    def forward(self, input):
        return input.sigmoid()


class GELU(Module):
    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate='{self.approximate}'"


class SiLU(Module):
    def forward(self, input):
        return F.silu(input)


class Dropout(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p

    def forward(self, input):
        return F.dropout(input, self.p, self.training)

    def extra_repr(self):
        return f"p={self.p}, inplace=False"


class _Loss(Module):
    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = F._reduction(reduction)


class MSELoss(_Loss):
    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class L1Loss(_Loss):
    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class CrossEntropyLoss(_Loss):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        self.weight, self.ignore_index = weight, ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight,
                               ignore_index=self.ignore_index, reduction=self.reduction,
                               label_smoothing=self.label_smoothing)


class BCEWithLogitsLoss(_Loss):
    def __init__(self, weight=None, reduction="mean", pos_weight=None):
        super().__init__(reduction)
        self.weight, self.pos_weight = weight, pos_weight

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, weight=self.weight,
                                                  reduction=self.reduction,
                                                  pos_weight=self.pos_weight)
