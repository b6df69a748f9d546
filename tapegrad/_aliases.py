"""Import paths PyTorch programs use for things tapegrad keeps elsewhere, so that
``import torch.backends.cudnn as cudnn``, ``from torch.cuda.amp import GradScaler``,
``from torch.nn.modules.loss import _Loss``, ``from torch.nn.modules.utils import _pair``,
``from torch.utils.hooks import RemovableHandle``,
``from torch.utils.data.distributed import DistributedSampler``,
``from torch.optim.adamw import AdamW`` and ``from torch.types import Number`` work with
``tapegrad`` in ``torch``'s place.

Each path is an entry in ``sys.modules``: the CPU-only namespaces ``tapegrad.backends`` and
``tapegrad.cuda`` already answer attribute access; ``torch.nn.modules.<file>`` becomes one
module holding every layer class (public, and the private bases custom layers subclass)."""
import collections.abc
import copy
import itertools
import os
import sys
import types
import typing

from . import nn, optim, utils
from .compat import layout
from .dtypes import dtype
from .tensor import Size, Tensor
from .utils import data as _data
from .utils.distributed_sampler import DistributedSampler
from .device import backends, cuda, device
from .nn import modules as _nn_modules


def _register(name, obj):
    sys.modules[f"{__package__}.{name}"] = obj


_register("backends", backends)
for _name, _ns in vars(backends).items():
    _register(f"backends.{_name}", _ns)
_register("cuda", cuda)
_register("cuda.amp", cuda.amp)


# ---- torch.nn.modules.<file> -------------------------------------------------------------
def _ntuple(n, name="parse"):
    """PyTorch's helper: an iterable as a tuple, anything else repeated ``n`` times."""
    def parse(x):
        if isinstance(x, collections.abc.Iterable) and not isinstance(x, str):
            return tuple(x)
        return tuple(itertools.repeat(x, n))
    parse.__name__ = name
    return parse


def _get_clones(module, N):
    """torch.nn.modules.transformer's helper: N deep copies of ``module`` in a ModuleList."""
    return nn.ModuleList([copy.deepcopy(module) for _ in range(N)])


def _get_activation_fn(activation):
    """torch.nn.modules.transformer's helper: F.relu or F.gelu by name."""
    if activation == "relu":
        return nn.functional.relu
    if activation == "gelu":
        return nn.functional.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _addindent(s_, numSpaces):
    """torch.nn.modules.module's helper for custom reprs: indent every line but the first
    (blank lines stay empty)."""
    lines = s_.split("\n")
    if len(lines) == 1:
        return s_
    rest = [numSpaces * " " + line if line.strip() else "" for line in lines[1:]]
    return "\n".join([lines[0], *rest])


_LAYER_HELPERS = {"_ntuple": _ntuple, "_single": _ntuple(1, "_single"),
                  "_pair": _ntuple(2, "_pair"), "_triple": _ntuple(3, "_triple"),
                  "_quadruple": _ntuple(4, "_quadruple"), "_get_clones": _get_clones,
                  "_get_activation_fn": _get_activation_fn, "_addindent": _addindent}


def _layer_classes():
    """Every Module subclass tapegrad.nn defines, by name (private bases included)."""
    found = {}
    for mod_name, mod in list(sys.modules.items()):
        if mod_name.startswith(f"{nn.__name__}.") and isinstance(mod, types.ModuleType):
            for k, v in vars(mod).items():
                if isinstance(v, type) and issubclass(v, nn.Module):
                    found.setdefault(k, v)
    return found


# the files of torch/nn/modules a program imports from
_FILES = ("activation adaptive batchnorm channelshuffle container conv distance dropout "
          "flatten fold instancenorm lazy linear loss module normalization padding "
          "pixelshuffle pooling rnn sparse transformer upsampling utils").split()
_contents = {**_layer_classes(), **_LAYER_HELPERS}
for _file in _FILES:
    _mod = types.ModuleType(f"{_nn_modules.__name__}.{_file}",
                            f"torch.nn.modules.{_file}'s names: tapegrad's layers")
    _mod.__dict__.update(_contents)
    _register(f"nn.modules.{_file}", _mod)
    if not hasattr(_nn_modules, _file):  # (never hides a name the module has)
        setattr(_nn_modules, _file, _mod)
_nn_modules.module.register_module_forward_pre_hook = _nn_modules.register_module_forward_pre_hook
_nn_modules.module.register_module_forward_hook = _nn_modules.register_module_forward_hook
_nn_modules.module.register_module_full_backward_hook = \
    _nn_modules.register_module_full_backward_hook
_nn_modules.module.register_module_full_backward_pre_hook = \
    _nn_modules.register_module_full_backward_pre_hook

# torch.utils.data.distributed (one process: num_replicas and rank are given)
_distributed = types.ModuleType(f"{_data.__name__}.distributed",
                                "torch.utils.data.distributed's DistributedSampler")
_distributed.DistributedSampler = DistributedSampler
_register("utils.data.distributed", _distributed)
for _name, _value in (("distributed", _distributed), ("DistributedSampler", DistributedSampler)):
    if not hasattr(_data, _name):
        setattr(_data, _name, _value)

# torch.utils.hooks: the handle hook registrations return
_hooks = types.ModuleType(f"{utils.__name__}.hooks", "torch.utils.hooks' RemovableHandle")
_hooks.RemovableHandle = _nn_modules.RemovableHandle
_register("utils.hooks", _hooks)
if not hasattr(utils, "hooks"):
    utils.hooks = _hooks

# torch.optim.<file> (``from torch.optim.adamw import AdamW``): each holds every optimizer
_OPTIM_FILES = ("adadelta adagrad adam adamax adamw asgd nadam radam rmsprop rprop sgd "
                "sparse_adam").split()
_optimizers = {k: v for k, v in vars(optim).items()
               if isinstance(v, type) and issubclass(v, optim.Optimizer)}
for _file in _OPTIM_FILES:
    _mod = types.ModuleType(f"{optim.__name__}.{_file}",
                            f"torch.optim.{_file}'s names: tapegrad's optimizers")
    _mod.__dict__.update(_optimizers)
    _register(f"optim.{_file}", _mod)  # (no attribute of optim: PyTorch deletes them)

# torch.types: the aliases type hints import
_types = types.ModuleType(f"{__package__}.types", "torch.types' aliases for type hints")
_types.__dict__.update(
    Number=int | float | bool, _Number=(int, float, bool), _int=int, _float=float,
    _bool=bool, _complex=complex, _str=str, _bytes=bytes, _dtype=dtype, _layout=layout,
    _device=device, Device=device | str | int | None, Size=Size, Tensor=Tensor,
    _size=Size | list[int] | tuple[int, ...],
    _TensorOrTensors=Tensor | collections.abc.Sequence[Tensor],
    FileLike=typing.Union[str, os.PathLike[str], typing.IO[bytes]])
_register("types", _types)
