"""A minimal nn.Module: parameters registered by attribute, children, train/eval, zero_grad,
state_dict; and the few layers small models need (Linear, Sequential, activations, losses).
Everything a layer computes goes through ``nn.functional``, so it records like any op."""
import abc
import math
import operator
import typing
import warnings
from collections import OrderedDict, namedtuple

import numpy as np

from .. import creation, dtypes
from ..autograd.hooks import RemovableHandle
from ..device import check as check_device
from ..device import parse_to
from ..grad_mode import is_grad_enabled, no_grad
from ..tensor import Tensor
from ..typenames import typename as _typename
from . import functional as F
from .backward_hooks import GLOBAL_BACKWARD, GLOBAL_BACKWARD_PRE, call_with_hooks
from .parameter import Buffer, Parameter


_EXTRA = "_extra_state"  # (a module's entry for get_extra_state, in its state_dict)


def _not_found(mod, name, what):
    """PyTorch's error of get_parameter/get_buffer for a name that is not ``what``."""
    if hasattr(mod, name):
        raise AttributeError(f"`{name}` is not {what}")
    raise AttributeError(f"{type(mod).__name__} has no attribute `{name}`")


class _ModuleType(type(typing.Protocol)):
    """Module's metaclass, only so that a class prints under PyTorch's name
    (``<class 'torch.nn.modules.activation.Tanh'>``, ``<class '__main__.Net'>``) while keeping
    its own ``__module__`` (pickle finds it by that).  Protocol's metaclass (an ABCMeta), so
    that ``class Net(nn.Module, ABC)`` and ``class Net(nn.Module, SomeProtocol)`` mix as with
    PyTorch's plain-``type`` Module; and as there, abstract methods block instantiation only
    in a class that derives from ``abc.ABC``, and isinstance is type's."""

    def __new__(mcs, name, bases, namespace, **kwargs):
        cls = super().__new__(mcs, name, bases, namespace, **kwargs)
        if abc.ABC not in cls.__mro__:
            cls.__abstractmethods__ = frozenset()
        return cls

    def __repr__(cls):
        return f"<class '{_typename(cls)}'>"

    __instancecheck__ = type.__instancecheck__
    __subclasscheck__ = type.__subclasscheck__


class Module(metaclass=_ModuleType):
    """Base class of layers and models: assign Parameters and Modules as attributes.

    >>> import tapegrad as tg
    >>> net = tg.nn.Sequential(tg.nn.Linear(2, 3), tg.nn.Tanh(), tg.nn.Linear(3, 1))
    >>> sum(p.numel() for p in net.parameters())
    13
    """

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes no arguments beyond "
                            f"self (got {len(args)} positional and {sorted(kwargs)} keyword)")
        for name in ("_parameters", "_buffers", "_modules"):  # (plain dicts, as PyTorch's)
            object.__setattr__(self, name, {})
        for name in ("_forward_hooks", "_forward_pre_hooks", "_backward_hooks",
                     "_backward_pre_hooks") + _STATE_HOOKS:  # (prepend moves to the front)
            object.__setattr__(self, name, OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_hooks_with_kwargs", set())
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
        elif isinstance(value, Buffer):
            if params is None:
                raise AttributeError("cannot assign buffer before Module.__init__() call")
            self.__dict__.pop(name, None)
            self.register_buffer(name, value, value.persistent)
        elif isinstance(value, Module):
            if params is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self.__dict__.pop(name, None)
            params.pop(name, None)
            self._modules[name] = value
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            params[name] = None
        elif params is not None and name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as child module "
                                f"'{name}' (torch.nn.Module or None expected)")
            self._modules[name] = None
        elif params is not None and name in self._buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' "
                                "(torch.nn.Buffer, torch.Tensor or None expected)")
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        d = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            if registry in d and name in d[registry]:
                return d[registry][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __dir__(self):  # (PyTorch's: the registered names too, the legal identifiers)
        keys = [*dir(type(self)), *self.__dict__, *self._parameters, *self._modules,
                *self._buffers]
        return sorted(k for k in keys if not k[0].isdigit())

    def __delattr__(self, name):
        for registry in (self._parameters, self._buffers, self._modules):
            if name in registry:
                del registry[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def _check_name(self, name, what):
        if not isinstance(name, str):
            raise TypeError(f"{what} name should be a string. Got {type(name).__name__}")
        if "." in name:
            got = f", got: {name}" if what == "module" else ""  # (PyTorch's add_module only)
            raise KeyError(f'{what} name can\'t contain "."{got}')
        if name == "":
            raise KeyError(f'{what} name can\'t be empty string ""')
        if hasattr(self, name) and name not in getattr(self, "_" + what.split()[0] + "s", {}):
            raise KeyError(f"attribute '{name}' already exists")

    def register_parameter(self, name, param):
        """Add ``param`` (a Parameter, or None) as the parameter ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name(name, "parameter")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter "
                            f"'{name}' (torch.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Add ``tensor`` (or None) as the buffer ``name``: module state that is not a
        parameter (BatchNorm's running statistics); a persistent one is in ``state_dict``.

        >>> import tapegrad as tg
        >>> m = tg.nn.Module()
        >>> m.register_buffer("steps", tg.zeros(1))
        >>> list(m.state_dict())
        ['steps']
        """
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name(name, "buffer")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer "
                            f"'{name}' (torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        """Add ``module`` (or None) as the child ``name``."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        self._check_name(name, "module")
        self._modules[name] = module

    register_module = add_module

    def get_submodule(self, target):
        """The descendant at the dotted path ``target`` ('' is this module)."""
        mod = self
        for item in target.split(".") if target else ():
            if item not in mod._modules or mod._modules[item] is None:
                if hasattr(mod, item):  # (a parameter, buffer or attribute: PyTorch's words)
                    raise AttributeError(f"`{item}` is not an nn.Module")
                raise AttributeError(f"{type(mod).__name__} has no attribute `{item}`")
            mod = mod._modules[item]
        return mod

    def set_submodule(self, target, module, strict=False):
        """Put ``module`` at the dotted path ``target``, replacing a child there or (unless
        ``strict``) adding one to an existing parent."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
        path, _, name = target.rpartition(".")
        parent = self.get_submodule(path)
        if hasattr(parent, name):
            if not isinstance(getattr(parent, name), Module):
                raise AttributeError(f"`{name}` is not an nn.Module")
        elif strict:
            raise AttributeError(f"{type(parent).__name__} has no attribute `{name}`")
        setattr(parent, name, module)

    def get_parameter(self, target):
        """The parameter at the dotted path ``target``."""
        path, _, name = target.rpartition(".")
        mod = self.get_submodule(path)
        if name not in mod._parameters or mod._parameters[name] is None:
            _not_found(mod, name, "an nn.Parameter")
        return mod._parameters[name]

    def get_buffer(self, target):
        """The buffer at the dotted path ``target``."""
        path, _, name = target.rpartition(".")
        mod = self.get_submodule(path)
        if name not in mod._buffers or mod._buffers[name] is None:
            _not_found(mod, name, "a buffer")
        return mod._buffers[name]

    # -- traversal -----------------------------------------------------------------------
    def _named_members(self, registry, prefix, recurse, remove_duplicate=True):
        seen = set()
        mods = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) \
            if recurse else [(prefix, self)]
        for mod_prefix, mod in mods:
            for name, v in getattr(mod, registry).items():
                if v is None or (remove_duplicate and id(v) in seen):
                    continue
                seen.add(id(v))
                yield (mod_prefix + "." if mod_prefix else "") + name, v

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """(dotted name, parameter) of this module and (by default) its descendants."""
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        """The parameters of this module and (by default) its descendants, each once."""
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        """(dotted name, buffer) of this module and (by default) its descendants."""
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def named_children(self):
        """(name, module) of the direct children, each once."""
        seen = set()
        for name, m in self._modules.items():
            if m is not None and id(m) not in seen:
                seen.add(id(m))
                yield name, m

    def children(self):
        for _, m in self.named_children():
            yield m

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """(dotted name, module) of this module and its descendants, depth first ('' for
        this one), each once unless not ``remove_duplicate``."""
        if memo is None:
            memo = set()
        if remove_duplicate:
            if id(self) in memo:
                return
            memo.add(id(self))
        yield prefix, self
        for name, m in self._modules.items():
            if m is not None:
                yield from m.named_modules(memo, prefix + ("." if prefix else "") + name,
                                           remove_duplicate)

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def apply(self, fn):
        """Call ``fn`` on every child's subtree (children first), then on this module."""
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    # -- modes and gradients ---------------------------------------------------------------
    def train(self, mode=True):
        """Set training mode here and in every descendant (each child's ``train`` is
        called, as PyTorch does); returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        object.__setattr__(self, "training", mode)
        for m in self.children():
            m.train(mode)
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
        device must be the CPU, the only one here).  ``to('meta')`` keeps only the shapes,
        as PyTorch's meta device does: every value becomes NaN, so the module serves as a
        skeleton for ``func.functional_call`` (the model-ensembling idiom)."""
        if any(str(a) == "meta" for a in (*args, kwargs.get("device"))):
            return self._to_meta()
        dtype = parse_to(args, kwargs, "Module.to")
        if dtype is None:
            return self
        dt = np.dtype(dtype)
        for p in self.parameters():
            p.data = Tensor(np.asarray(p._data).astype(dt))
            if p.grad is not None:
                p.grad = Tensor(np.asarray(p.grad._data).astype(dt))
        for m in self.modules():  # float buffers follow (integer ones, a count, do not)
            for name, b in m._buffers.items():
                if b is not None and b.dtype.kind == "f":
                    m._buffers[name] = Tensor(np.asarray(b._data).astype(dt))
        return self

    def _to_meta(self):
        for p in self.parameters():
            p.data = Tensor(np.full(p.shape, np.nan, np.asarray(p._data).dtype))
            p.grad = None
        for m in self.modules():
            for name, b in m._buffers.items():
                if b is not None and b.dtype.kind == "f":
                    m._buffers[name] = Tensor(np.full(b.shape, np.nan, b.dtype))
        return self

    def to_empty(self, *, device, recurse=True):
        """Give the parameters and buffers (``recurse=False``: this module's own) new
        storage of their shapes and dtypes on ``device`` without copying their values
        (zeros here, as ``empty``; ``'meta'``: as ``to('meta')``), the step after building
        a model on the meta device and before loading or initialising its values."""
        if str(device) == "meta":
            return self._to_meta()
        check_device(device, "Module.to_empty")
        for m in self.modules() if recurse else (self,):
            for p in m._parameters.values():
                if p is not None:
                    p.data = Tensor(np.zeros(p.shape, np.asarray(p._data).dtype))
                    p.grad = None
            for name, b in m._buffers.items():
                if b is not None:
                    m._buffers[name] = Tensor(np.zeros(b.shape, b.dtype))
        return self

    def cpu(self):
        """This module (its parameters are on the CPU already)."""
        return self

    def share_memory(self):
        """This module, as PyTorch's returns it.  Nothing moves to shared memory (a tensor's
        ``share_memory_`` is refused): another process gets a copy (docs/limits.md)."""
        return self

    def compile(self, *args, **kwargs):
        """PyTorch's in-place ``torch.compile`` of the module: nothing here (the module runs
        eagerly; ``tapegrad.compile`` records and replays a function instead)."""

    def cuda(self, device=None):
        """Refused with a clear error: there is no CUDA device here."""
        check_device("cuda" if device is None else device, "Module.cuda")

    def double(self):
        return self.to(np.float64)

    def float(self):
        return self.to(np.float32)

    def half(self):
        return self.to(np.float16)

    def type(self, dst_type):
        """Cast every parameter and buffer, integer ones too (unlike ``to``), to
        ``dst_type`` (a dtype or a type string, as ``Tensor.type`` takes it)."""
        for p in self.parameters():
            p.data = p.data.type(dst_type)
            if p.grad is not None:
                p.grad = p.grad.type(dst_type)
        for m in self.modules():
            for name, b in m._buffers.items():
                if b is not None:
                    m._buffers[name] = b.type(dst_type)
        return self

    # -- state -----------------------------------------------------------------------------
    def _state_items(self, prefix, keep_vars, recurse=True):
        """(key, tensor) of the parameters and persistent buffers, module by module as
        PyTorch orders them: a module's own parameters, its buffers, then each child's."""
        for name, p in self._parameters.items():
            if p is not None:
                yield prefix + name, p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                yield prefix + name, b if keep_vars else b.detach()
        for name, m in self._modules.items() if recurse else ():
            if m is not None:
                yield from m._state_items(prefix + name + ".", keep_vars)

    def get_extra_state(self):
        """What a subclass that overrides this stores under ``_extra_state`` in its
        state_dict (restored by its ``set_extra_state``)."""
        raise RuntimeError("Reached a code path in Module.get_extra_state() that should never "
                           "be called.")

    def set_extra_state(self, state):
        """Restore what ``get_extra_state`` returned (a subclass overrides both)."""
        raise RuntimeError("Reached a code path in Module.set_extra_state() that should never "
                           "be called.")

    def _overrides(self, name):  # (PyTorch saves and loads extra state only when overridden)
        return getattr(type(self), name) is not getattr(Module, name)

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """Parameter and persistent buffer names -> tensors (detached, sharing the values).

        >>> import tapegrad as tg
        >>> list(tg.nn.BatchNorm1d(2).state_dict())
        ['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']
        """
        if args:  # PyTorch's deprecated positional (destination, prefix, keep_vars)
            destination, prefix, keep_vars = (list(args) + [destination, prefix,
                                                            keep_vars][len(args):])[:3]
        out = OrderedDict() if destination is None else destination
        if destination is None:  # (each module's version: load_state_dict upgrades older)
            out._metadata = OrderedDict()
        if hasattr(out, "_metadata"):
            for key, m in self._prefixed_modules(prefix):
                out._metadata[key[:-1]] = {"version": m._version}
        return self._save(out, prefix, keep_vars)

    def _save(self, out, prefix, keep_vars):
        """This module's entries, then its submodules', each module between its hooks;
        returns ``out``, or what a hook of ``_register_state_dict_hook`` put in its place
        (PyTorch's legacy hooks: the root module's replacement is the one returned)."""
        for hook in _hooks(self, "_state_dict_pre_hooks"):
            hook(self, prefix, keep_vars)
        for key, t in self._state_items(prefix, keep_vars, recurse=False):
            out[key] = t
        if self._overrides("get_extra_state"):
            out[prefix + _EXTRA] = self.get_extra_state()
        for name, m in self._modules.items():
            if m is not None:
                m._save(out, prefix + name + ".", keep_vars)
        legacy = self.__dict__.get("_legacy_state_hooks", ())
        for key, hook in list(self.__dict__.get("_state_dict_hooks", {}).items()):
            res = hook(self, out, prefix, getattr(out, "_metadata", {}).get(prefix[:-1]))
            if res is not None:
                if key not in legacy:
                    raise RuntimeError("state_dict post-hook must return None")
                out = res
        return out

    _version = 1  # (a state_dict's _metadata records it: BatchNorm's 2 added a buffer)

    def _prefixed_modules(self, prefix, children_first=False):
        if not children_first:
            yield prefix, self
        for name, m in self._modules.items():
            if m is not None:
                yield from m._prefixed_modules(prefix + name + ".", children_first)
        if children_first:
            yield prefix, self

    def _load_pre_hooks(self, state_dict, prefix, local, strict, missing, unexpected, errors):
        """Run the load pre-hooks on the entries under ``prefix`` (as PyTorch hands each
        module those alone), then take their edits back into ``state_dict``."""
        hooks = _hooks(self, "_load_state_dict_pre_hooks")
        if not hooks:
            return
        mine = {k: v for k, v in state_dict.items() if k.startswith(prefix)}
        for hook in hooks:
            hook(self, mine, prefix, local, strict, missing, unexpected, errors)
        for k in [k for k in state_dict if k.startswith(prefix) and k not in mine]:
            del state_dict[k]
        state_dict.update((k, v) for k, v in mine.items() if k.startswith(prefix))

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        """PyTorch's per-module step of load_state_dict, which subclasses override to edit
        the entries under ``prefix`` (rename a legacy checkpoint's keys, by
        ``local_metadata['version']``) before calling this.  Here it runs the load
        pre-hooks; the copying follows once every module has had its turn (docs/limits.md)."""
        self._load_pre_hooks(state_dict, prefix, local_metadata, strict, missing_keys,
                             unexpected_keys, error_msgs)

    def _upgrade_state(self, state_dict, prefix, version):
        """Fill into ``state_dict`` (a copy) what a state_dict saved by an older
        ``version`` of this module (None: no _metadata) lacks; nothing here."""

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy values into the parameters and persistent buffers of the same names (in
        place); returns ``(missing_keys, unexpected_keys)``.  As PyTorch's, an error (a key
        missing or unexpected when ``strict``, a shape that differs) is raised after every
        entry that fits has been copied."""
        metadata = getattr(state_dict, "_metadata", None) or {}
        state_dict = OrderedDict(state_dict)  # (the upgrades write into a copy)
        # (the pre-hooks may rename keys in the copy, and add to the three lists)
        hooked_missing, hooked_unexpected, errors = [], [], []
        for prefix, m in self._prefixed_modules(""):
            local = metadata.get(prefix[:-1], {})
            m._upgrade_state(state_dict, prefix, local.get("version"))
            m._load_from_state_dict(state_dict, prefix, local, strict, hooked_missing,
                                    hooked_unexpected, errors)
        own = OrderedDict(self._state_items("", True))
        extra = OrderedDict((prefix + _EXTRA, m) for prefix, m in self._prefixed_modules("")
                            if m._overrides("set_extra_state"))
        expected = [k for prefix, m in self._prefixed_modules("") for k in
                    [k for k, _ in m._state_items(prefix, True, recurse=False)] +
                    ([prefix + _EXTRA] if prefix + _EXTRA in extra else [])]
        missing = hooked_missing + [k for k in expected if k not in state_dict]
        unexpected = hooked_unexpected + [k for k in state_dict
                                          if k not in own and k not in extra]
        # as PyTorch: every entry whose shape fits is copied, then the errors (the keys
        # when strict, the shapes always) are raised together
        fits = []
        for name, dest in own.items():
            if name in state_dict:
                value = state_dict[name]
                src = value if isinstance(value, Tensor) else Tensor(np.asarray(value))
                if tuple(src.shape) != tuple(dest.shape):
                    errors.append(f"size mismatch for {name}: copying a param with shape "
                                  f"{_size(src.shape)} from checkpoint, the shape in current "
                                  f"model is {_size(dest.shape)}.")
                else:
                    fits.append((name, dest, src))
        owners = {k: (m, k[len(prefix):]) for prefix, m in self._prefixed_modules("")
                  for k, _ in m._state_items(prefix, True, recurse=False)} if assign else {}
        with no_grad():
            for name, dest, src in fits:
                if not assign:
                    dest.copy_(src)
                    continue
                # assign: the state_dict's tensor takes the place (a Parameter where one
                # was, with its requires_grad), as PyTorch's
                if isinstance(dest, Parameter):
                    src = src.requires_grad_(dest.requires_grad) if isinstance(
                        src, Parameter) else Parameter(src, requires_grad=dest.requires_grad)
                setattr(*owners[name], src)
        for key, m in extra.items():
            if key in state_dict:
                m.set_extra_state(state_dict[key])
        keys = _IncompatibleKeys(missing, unexpected)
        for _, m in self._prefixed_modules("", children_first=True):
            for hook in _hooks(m, "_load_state_dict_post_hooks"):  # (may edit keys' lists)
                if hook(m, keys) is not None:
                    raise AssertionError(
                        "Hooks registered with ``register_load_state_dict_post_hook`` are not"
                        "expected to return new values, if incompatible_keys need to be "
                        "modified,it should be done inplace.")
        if strict and unexpected:
            errors.insert(0, "Unexpected key(s) in state_dict: " +
                          ", ".join(f'"{k}"' for k in unexpected) + ". ")
        if strict and missing:
            errors.insert(0, "Missing key(s) in state_dict: " +
                          ", ".join(f'"{k}"' for k in missing) + ". ")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:"
                               f"\n\t" + "\n\t".join(errors))
        return keys

    # -- hooks -----------------------------------------------------------------------------
    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """Call ``hook(module, args)`` before each forward (``hook(module, args, kwargs)``
        with ``with_kwargs``); a result other than None replaces the arguments.  Returns a
        handle whose ``remove()`` unregisters it."""
        return _add_hook(self, self._forward_pre_hooks, hook, prepend, with_kwargs)

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False,
                              always_call=False):
        """Call ``hook(module, args, output)`` after each forward (``hook(module, args,
        kwargs, output)`` with ``with_kwargs``); a result other than None replaces the
        output.  Returns a handle whose ``remove()`` unregisters it.

        >>> import tapegrad as tg
        >>> seen = []
        >>> lin = tg.nn.Linear(2, 1)
        >>> h = lin.register_forward_hook(lambda m, args, out: seen.append(out.shape))
        >>> _ = lin(tg.ones(3, 2)); h.remove(); _ = lin(tg.ones(3, 2))
        >>> seen
        [torch.Size([3, 1])]
        """
        return _add_hook(self, self._forward_hooks, hook, prepend, with_kwargs, always_call)

    def register_full_backward_hook(self, hook, prepend=False):
        """Call ``hook(module, grad_input, grad_output)`` when the gradients with respect to
        the module's positional tensor inputs are computed (``grad_input`` holds None for
        those that do not require grad); a tuple returned replaces ``grad_input``
        (nn/backward_hooks.py).  Returns a handle whose ``remove()`` unregisters it."""
        return _add_hook(self, self._backward_hooks, hook, prepend, False)

    def register_state_dict_pre_hook(self, hook):
        """Call ``hook(module, prefix, keep_vars)`` before state_dict() collects this
        module's entries."""
        return _add_hook(self, self._state_dict_pre_hooks, hook, False, False)

    def register_state_dict_post_hook(self, hook):
        """Call ``hook(module, state_dict, prefix, local_metadata)`` once state_dict() has
        this module's entries (its submodules' too); it may edit ``state_dict`` in place."""
        return _add_hook(self, self._state_dict_hooks, hook, False, False)

    def register_load_state_dict_pre_hook(self, hook):
        """Call ``hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` before load_state_dict() matches keys: it may rename
        or fill entries of ``state_dict`` (a copy) and add to the three lists."""
        return _add_hook(self, self._load_state_dict_pre_hooks, hook, False, False)

    def _register_state_dict_hook(self, hook):
        """PyTorch's older post-hook: ``hook(module, state_dict, prefix, local_metadata)``
        may also return a new state_dict (taken from the root module's hooks only)."""
        handle = _add_hook(self, self._state_dict_hooks, hook, False, False)
        self.__dict__.setdefault("_legacy_state_hooks", set()).add(handle.id)
        return handle

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        """PyTorch's older load pre-hook: ``hook(state_dict, prefix, ...)`` as
        register_load_state_dict_pre_hook's, without the module unless ``with_module``."""
        return _add_hook(self, self._load_state_dict_pre_hooks, hook if with_module else (
            lambda module, *args: hook(*args)), False, False)

    def register_load_state_dict_post_hook(self, hook):
        """Call ``hook(module, incompatible_keys)`` after load_state_dict() has copied the
        values and before a strict load raises; it may edit the keys' lists in place."""
        return _add_hook(self, self._load_state_dict_post_hooks, hook, False, False)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """Call ``hook(module, grad_output)`` before the module's input gradients are
        computed; a tuple returned replaces ``grad_output``."""
        return _add_hook(self, self._backward_pre_hooks, hook, prepend, False)

    # -- calling ---------------------------------------------------------------------------
    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  '"forward" function')

    def __call__(self, *args, **kwargs):
        backward = (self._backward_hooks or self._backward_pre_hooks or GLOBAL_BACKWARD
                    or GLOBAL_BACKWARD_PRE)
        if not (backward or self._forward_pre_hooks or self._forward_hooks or _GLOBAL_PRE
                or _GLOBAL_POST):
            return self.forward(*args, **kwargs)
        kw_hooks = self._hooks_with_kwargs
        for key, hook in (*_GLOBAL_PRE.items(), *self._forward_pre_hooks.items()):
            if key in kw_hooks:
                res = hook(self, args, kwargs)
                if res is not None:
                    if not (isinstance(res, tuple) and len(res) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of "
                                           f"(new_args, new_kwargs), but got {res}.")
                    args, kwargs = res
            else:
                res = hook(self, args)
                if res is not None:
                    args = res if isinstance(res, tuple) else (res,)
        forward = self._forward_or_always_called if _ALWAYS_CALLED else self.forward
        if backward and is_grad_enabled():
            return call_with_hooks(self, forward, args, kwargs, self._after_forward)
        return self._after_forward(args, kwargs, forward(*args, **kwargs))

    def _forward_or_always_called(self, *args, **kwargs):
        """forward; if it raises, the forward hooks registered with ``always_call`` run with
        output None first (an error of theirs a warning: forward's error is the one raised)."""
        try:
            return self.forward(*args, **kwargs)
        except Exception:
            for key, hook in (*_GLOBAL_POST.items(), *self._forward_hooks.items()):
                if key in _ALWAYS_CALLED:
                    try:
                        self._forward_hook(key, hook, args, kwargs, None)
                    except Exception as e:  # noqa: BLE001 (PyTorch silences it too)
                        warnings.warn("forward hook with ``always_call=True`` raised an exception "
                                      f"that was silenced as another error was raised in forward: "
                                      f"{e}", stacklevel=3)
            raise

    def _after_forward(self, args, kwargs, result):
        """``result`` through the forward hooks (each may replace it)."""
        for key, hook in (*_GLOBAL_POST.items(), *self._forward_hooks.items()):
            res = self._forward_hook(key, hook, args, kwargs, result)
            if res is not None:
                result = res
        return result

    def _forward_hook(self, key, hook, args, kwargs, result):
        """Forward hook ``hook`` (handle id ``key``) called as registered: with the kwargs
        too if ``with_kwargs``."""
        if key in self._hooks_with_kwargs or key in _GLOBAL_KW:
            return hook(self, args, kwargs, result)
        return hook(self, args, result)

    def extra_repr(self):
        return ""

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        lines = extra_lines + [f"({name}): " + repr(m).replace("\n", "\n  ")
                               for name, m in self._modules.items()]
        if len(lines) == len(extra_lines) <= 1:  # PyTorch's layout: one extra line inline
            return f"{self._get_name()}({extra})"
        return f"{self._get_name()}(\n  " + "\n  ".join(lines) + "\n)"


# every module's forward hooks, run before its own (torch.nn.modules.module's globals)
_GLOBAL_PRE, _GLOBAL_POST, _GLOBAL_KW = OrderedDict(), OrderedDict(), set()
_ALWAYS_CALLED = set()  # forward hooks (global or a module's) to run when forward raises


def register_module_forward_pre_hook(hook):
    """Call ``hook(module, args)`` before the forward of every module (before its own
    pre-hooks); a result other than None replaces the arguments."""
    handle = RemovableHandle(_GLOBAL_PRE)
    _GLOBAL_PRE[handle.id] = hook
    return handle


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    """Call ``hook(module, args, output)`` (``hook(module, args, kwargs, output)`` with
    ``with_kwargs``) after the forward of every module, before its own forward hooks; a
    result other than None replaces the output."""
    handle = RemovableHandle(_GLOBAL_POST, extra_dict=[_GLOBAL_KW, _ALWAYS_CALLED])
    _GLOBAL_POST[handle.id] = hook
    if with_kwargs:
        _GLOBAL_KW.add(handle.id)
    if always_call:
        _ALWAYS_CALLED.add(handle.id)
    return handle


def register_module_full_backward_pre_hook(hook):
    """Call ``hook(module, grad_output)`` before every module's input gradients are
    computed (before its own backward pre-hooks); a tuple returned replaces grad_output."""
    handle = RemovableHandle(GLOBAL_BACKWARD_PRE)
    GLOBAL_BACKWARD_PRE[handle.id] = hook
    return handle


def register_module_full_backward_hook(hook):
    """Call ``hook(module, grad_input, grad_output)`` when every module's input gradients
    are computed (before its own backward hooks); a tuple returned replaces grad_input."""
    handle = RemovableHandle(GLOBAL_BACKWARD)
    GLOBAL_BACKWARD[handle.id] = hook
    return handle


def _size(shape):
    return f"torch.Size({list(shape)})"


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


_STATE_HOOKS = ("_state_dict_pre_hooks", "_state_dict_hooks", "_load_state_dict_pre_hooks",
                "_load_state_dict_post_hooks")


def _hooks(module, name):
    """The hooks in ``module``'s table ``name`` (none in a module unpickled from a version
    without it)."""
    return list(module.__dict__.get(name, {}).values())


def _add_hook(module, hooks, hook, prepend, with_kwargs, always_call=False):
    handle = RemovableHandle(hooks, extra_dict=[module._hooks_with_kwargs, _ALWAYS_CALLED])
    hooks[handle.id] = hook
    if with_kwargs:
        module._hooks_with_kwargs.add(handle.id)
    if always_call:
        _ALWAYS_CALLED.add(handle.id)
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


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
        self.weight = Parameter(np.zeros((out_features, in_features), dt))
        if bias:
            self.bias = Parameter(np.zeros(out_features, dt))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """PyTorch's start: kaiming_uniform_(a=sqrt(5)) for the weight, which is
        U(-1/sqrt(in), 1/sqrt(in)), and the same for the bias (drawn in that order)."""
        bound = 1.0 / math.sqrt(self.in_features) if self.in_features > 0 else 0.0
        with no_grad():
            self.weight.copy_(Tensor(creation._rng.uniform(-bound, bound, self.weight.shape)))
            if self.bias is not None:
                self.bias.copy_(Tensor(creation._rng.uniform(-bound, bound,
                                                             self.bias.shape)))

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

    def _key(self, idx):
        """The name of the child at position ``idx``, or PyTorch's IndexError."""
        idx, n = operator.index(idx), len(self._modules)
        if not -n <= idx < n:
            raise IndexError(f"index {idx} is out of range")
        return list(self._modules)[idx]

    def __getitem__(self, idx):
        if isinstance(idx, slice):  # the children keep their names, as in PyTorch
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return self._modules[self._key(idx)]

    def __setitem__(self, idx, module):  # model[2] = nn.Linear(10, 5): replace in place
        setattr(self, self._key(idx), module)  # (PyTorch's: its assignment message)

    def __delitem__(self, idx):  # the rest are renumbered, as in PyTorch
        mods = list(self._modules.values())
        if not isinstance(idx, slice):
            self._key(idx)
        del mods[idx]
        self._modules.clear()
        for i, m in enumerate(mods):
            self.add_module(str(i), m)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, sequential):
        for m in sequential:
            self.append(m)
        return self

    def insert(self, index, module):
        """``module`` at position ``index``; the children after it move up one name."""
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n
        for i in range(n, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def __add__(self, other):
        return Sequential(*self, *_sequential(other))

    def __iadd__(self, other):
        return self.extend(_sequential(other))

    def __mul__(self, other):  # Sequential(a, b) * 2: a, b, a, b (the same modules)
        return Sequential(*(list(self) * _factor(self, other)))

    __rmul__ = __mul__

    def __imul__(self, other):
        return self.extend(list(self) * (_factor(self, other) - 1))


def _factor(seq, other):
    """``other``, Sequential's repeat count, if it is a positive int."""
    if not isinstance(other, int):
        raise TypeError(f"unsupported operand type(s) for *: {type(seq)} and {type(other)}")
    if other <= 0:
        raise ValueError(f"Non-positive multiplication factor {other} for {type(seq)}")
    return other


def _sequential(other):
    """``other``, the right operand of Sequential's + or +=, if it is a Sequential."""
    if not isinstance(other, Sequential):
        raise ValueError(f"add operator supports only objects of Sequential class, but "
                         f"{type(other)} is given.")
    return other


class ModuleList(Module):
    """Modules held in a list, registered as children '0', '1', ...

    >>> import tapegrad as tg
    >>> layers = tg.nn.ModuleList([tg.nn.Linear(2, 2) for _ in range(3)])
    >>> len(list(layers.parameters()))
    6
    """

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def _index(self, idx):
        n = len(self)
        if not -n <= idx < n:
            raise IndexError(f"index {idx} is out of range")
        return str(idx % n)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return ModuleList(list(self._modules.values())[idx])
        return self._modules[self._index(idx)]

    def __setitem__(self, idx, module):
        setattr(self, self._index(idx), module)

    def __delitem__(self, idx):
        mods = list(self._modules.values())
        del mods[idx]
        self._modules.clear()
        self.extend(mods)

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __iadd__(self, modules):
        return self.extend(modules)

    def __add__(self, other):  # a new ModuleList holding both's modules
        return ModuleList([*self, *other])

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        for m in modules:
            self.append(m)
        return self

    def insert(self, index, module):
        mods = list(self._modules.values())
        mods.insert(index, module)
        self._modules.clear()
        self.extend(mods)

    def __repr__(self):
        """PyTorch's: a run of children with one repr is printed once, as '(0-5): 6 x ...'."""
        blocks = []  # [first index, last index, repr]
        for i, m in enumerate(self):
            r = repr(m)
            if blocks and blocks[-1][2] == r:
                blocks[-1][1] = i
            else:
                blocks.append([i, i, r])
        name = type(self).__name__
        if not blocks:
            return f"{name}()"
        lines = [(f"({a}): {r}" if a == b else f"({a}-{b}): {b - a + 1} x {r}").replace(
            "\n", "\n  ") for a, b, r in blocks]
        return f"{name}(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """Modules held in an ordered dict, registered under their keys."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def pop(self, key):
        return self._modules.pop(key)

    def clear(self):
        self._modules.clear()

    def update(self, modules):
        items = modules.items() if hasattr(modules, "items") else modules
        for key, m in items:
            self[key] = m


class Identity(Module):
    """Returns its input; accepts (and ignores) any constructor arguments."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace
                                                          else "")


class ELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class Softplus(Module):
    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class _AlongDim(Module):
    """Softmax, LogSoftmax and Softmin's ``dim`` (three unrelated classes in PyTorch)."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax(_AlongDim):
    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)


class LogSoftmax(_AlongDim):
    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)


class ReLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


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


class _DropoutNd(Module):
    """PyTorch's base of the dropout layers (``p`` and ``inplace``; custom dropouts subclass
    it, and ``isinstance(m, _DropoutNd)`` finds them all)."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):  # (not a Dropout, as in PyTorch)
    """Zero whole channels of (N, C, L) or (C, L) in training."""

    def forward(self, input):
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """Zero whole channels of (N, C, H, W) or (C, H, W) in training."""

    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W) in training."""

    def forward(self, input):
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    """Dropout for selu networks (keeps their mean and variance) in training."""

    def forward(self, input):
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """Alpha dropout of whole channels in training."""

    def forward(self, input):
        return F.feature_alpha_dropout(input, self.p, self.training)


class _Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        self.reduction = F._reduction(reduction, size_average, reduce)


class _WeightedLoss(_Loss):
    """A loss with a per-class ``weight``: a buffer (in state_dict when given, as
    PyTorch)."""

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class MSELoss(_Loss):
    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class L1Loss(_Loss):
    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None,
                 reduction="mean", label_smoothing=0.0):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index, self.label_smoothing = ignore_index, label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight,
                               ignore_index=self.ignore_index, reduction=self.reduction,
                               label_smoothing=self.label_smoothing)


class BCEWithLogitsLoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean",
                 pos_weight=None):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, weight=self.weight,
                                                  reduction=self.reduction,
                                                  pos_weight=self.pos_weight)
