"""Tensor: the data holder.  Its ops are bound from ``ops/`` (see ``ops/__init__.py``).

``_data`` is a Python float for a 0-d float64 tensor (the scalar fast path: ``math``
and float arithmetic cost tens of ns, NumPy scalars hundreds) and a C-contiguous
ndarray otherwise.  A tensor that took part in a recorded op owns ``_slot`` on the
tape of generation ``_gen``; a non-leaf holds that tape's ``_tok`` (see tape.py).
"""
import copy
import operator
import pickle
import sys
import warnings
import weakref

import numpy as np

from . import dtypes
from ._errors import with_note
from ._format import tensor_repr
from ._fp import call
from ._state import INFERENCE_THREADS, state
from .arena import escape, note_write
from .device import CPU
from .device import check as check_device

_DTYPE_OF = dtypes._OF  # NumPy dtype -> the user's dtype object (Tensor.dtype)
_F64 = _DTYPE_OF[dtypes.float64]

NONLEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information.")
# Methods that reach up the floors are bound from above: backward (autograd/engine.py),
# grad_fn (autograd/graph.py), register_hook and register_post_accumulate_grad_hook
# (autograd/hooks.py), tape_listing (viz.py); the ops and operators from ops/__init__.py.


_NUMPY_RG = ("Can't call numpy() on Tensor that requires grad. "
             "Use tensor.detach().numpy() instead.")


_DETACH_VIEW = (  # (PyTorch's)
    "Can't detach views in-place. Use detach() instead. If you are using "
    "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, "
    "gradients are views of DDP buckets, and hence detach_() cannot be called on these "
    "gradients. To fix this error, please refer to the Optimizer.zero_grad() function in "
    "torch/optim/optimizer.py as the solution.")

_GRAD_DTYPE_FIX = (  # (PyTorch's)
    "The gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You "
    "can set the tensor's grad_dtype attribute with a specific dtype, or None to allow any "
    "dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its gradient "
    "may break downstream systems that assume they match.")

# whether any leaf ever had grad_dtype set: until then the engine's leaf gradients skip
# the look-up (autograd/engine.py in_grad_dtype)
GRAD_DTYPES = [False]


class Tensor:
    """A float64 (or float32, int64, bool) array that can record onto the tape.

    >>> import tapegrad as tg
    >>> x = tg.tensor(3.0, requires_grad=True)
    >>> (x * x).backward()
    >>> x.grad
    tensor(6.)
    """

    # _ver (the version counter) stays unset until the first in-place op: see _version;
    # _inf is set (True) only on a tensor made inside inference_mode; _xf only by expand;
    # _vs (the live views of this tensor, ops/views.py) by its first view; _da (the tensor
    # whose detach() this is) by detach
    __slots__ = ("_data", "_rg", "_slot", "_gen", "_tok", "_grad", "_retains_grad", "_ver",
                 "_inf", "_vb", "_xf", "_vs", "_da", "_gd", "__weakref__")
    __hash__ = object.__hash__
    __array_priority__ = 1000  # ndarray (op) Tensor defers to Tensor's reflected op

    def __init__(self, data=(), requires_grad=False, dtype=None, *sizes):
        if type(requires_grad) is int:  # torch.Tensor(2, 3): PyTorch's legacy constructor
            # its zeros as they are: a copy wrote every page of a large one twice (a file's
            # Tensor(40000, 40000) under weights_only; calloc's pages are written when used)
            self._data = norm(_legacy_sizes((data, requires_grad, dtype, *sizes)))
            requires_grad = False
        else:
            if dtype is None and (type(data) in _LEGACY_TYPES or type(data) is np.ndarray and
                                  data.dtype.kind in "biu") and \
                    not sys._getframe(1).f_globals.get("__name__", "").startswith("tapegrad."):
                data = _legacy_data(data)  # a program's torch.Tensor(3), torch.Tensor([1, 2])
            self._data = as_data(data, dtypes.to_dtype(dtype))
        self._rg = False
        self._slot = -1
        self._gen = 0
        self._tok = None
        self._grad = None
        self._retains_grad = False
        if INFERENCE_THREADS[0] and state.inference:
            self._inf = True
        if requires_grad:
            self.requires_grad_(True)

    def is_inference(self):
        """True if this tensor was made inside ``inference_mode()`` (PyTorch's inference
        tensor: not changed in place outside the mode, not saved for a backward)."""
        if state.tracing is not None:
            graph_fact(self, "is_inference()")
        return getattr(self, "_inf", False)

    # -- metadata -----------------------------------------------------------------------
    @property
    def shape(self):
        d = self._data
        return Size(() if type(d) is float else d.shape)

    @property
    def dtype(self):
        d = self._data  # (the user's dtype object, which NumPy takes as its dtype)
        return _F64 if type(d) is float else _DTYPE_OF[d.dtype]

    @property
    def ndim(self):
        d = self._data
        return 0 if type(d) is float else d.ndim

    @property
    def device(self):
        """Always the CPU (``device(type='cpu')``): tapegrad computes there only."""
        return CPU

    is_cuda = False
    is_cpu = True

    def cpu(self):
        """This tensor (it is on the CPU already), as PyTorch returns a CPU tensor."""
        return self

    def cuda(self, device=None, non_blocking=False):
        """Refused with a clear error: there is no CUDA device here."""
        check_device("cuda" if device is None else device, "Tensor.cuda")

    def dim(self):
        """Number of dimensions."""
        return self.ndim

    def size(self, dim=None):
        """The shape, or the length of one dimension."""
        shape = self.shape
        return shape if dim is None else shape[_wrap_dim(dim, len(shape), "size")]

    def numel(self):
        """Number of elements."""
        d = self._data
        return 1 if type(d) is float else d.size

    def is_floating_point(self):
        return self.dtype.kind == "f"

    @property
    def requires_grad(self):
        if state.tracing is not None:
            graph_fact(self, "requires_grad")
        return self._rg

    @requires_grad.setter
    def requires_grad(self, flag):
        if not is_bool(flag):
            raise RuntimeError(f"requires_grad must be a bool (got {type(flag).__name__})")
        self._check_can_require(flag, "only Tensors of floating point and complex dtype")
        self.requires_grad_(flag)

    def _check_can_require(self, flag, which):
        if flag and self.dtype.kind != "f":  # (PyTorch's setter and method word it apart)
            raise with_note(RuntimeError(f"{which} can require gradients"),
                            f"requires_grad: got dtype {dtypes.name(self.dtype)}; create it with "
                            "dtype=tapegrad.float64")

    def requires_grad_(self, requires_grad=True):
        """Set requires_grad on a leaf, in place; returns self."""
        check_bool(requires_grad, "requires_grad_", "requires_grad", 1)
        if state.tracing is not None and self._rg:  # a traced value (ops/control.py)
            t = TRACE_HOOKS["requires_grad"](self, bool(requires_grad))
            if t is not None:
                return t
        if self._tok is not None and not requires_grad:
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to "
                "use a computed variable in a subgraph that doesn't require differentiation "
                "use var_no_grad = var.detach().")
        self._check_can_require(requires_grad, "only Tensors of floating point dtype")
        if requires_grad and not self._rg and getattr(self, "_inf", False) and \
                not state.inference:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        if self._tok is None and bool(requires_grad) != self._rg:
            self._rg = bool(requires_grad)
            self._gen = 0  # re-adopt: the tape lists leaves that require grad
        return self

    @property
    def _version(self):
        """How many in-place ops modified this tensor (ops/inplace.py); a view shares its
        base's count, as in PyTorch (ops/views.py)."""
        t = self
        while (b := getattr(t, "_vb", None)) is not None or \
                (b := getattr(t, "_da", None)) is not None and type(b) is not tuple or \
                (b := getattr(t, "_xf", None)) is not None:  # (a .data, _da a tuple, stops:
            t = b[0] if type(b) is tuple else b  # its counter is its own, as PyTorch's)
        c = getattr(t, "_ver", None)
        return 0 if c is None else c.version

    @property
    def grad(self):
        """The accumulated gradient (leaves, and non-leaves that ``retain_grad()``)."""
        if self._tok is not None and not self._retains_grad:
            if state.tracing is not None:
                graph_fact(self, ".grad")
            warnings.warn(NONLEAF_GRAD, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        # PyTorch's checks and messages: a gradient of another dtype than grad_dtype would
        # accumulate in its dtype (float32 into a float64 leaf) or fail in NumPy (int)
        if value is not None and not isinstance(value, Tensor):
            raise TypeError("assigned grad expected to be a Tensor or None but got grad of "
                            f"type {type(value).__name__}")
        if value is not None and (want := getattr(self, "_gd", self.dtype)) is not None and \
                value.dtype != want:
            raise RuntimeError(
                f"attempting to assign a gradient with dtype "
                f"'{dtypes.C_NAMES.get(value.dtype.name, value.dtype.name)}' to a tensor with "
                f"grad_dtype '{dtypes.torch_name(want)}'. {_GRAD_DTYPE_FIX}")
        if value is not None and tuple(value.shape) != tuple(self.shape):
            raise RuntimeError(
                f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor of "
                f"size '{list(self.shape)}'. Please ensure that the gradient and the tensor are "
                "the same size")
        self._grad = value

    @property
    def grad_dtype(self):
        """The dtype gradients of this leaf are cast to as they arrive (default: its dtype;
        None: any dtype is accepted and kept), as PyTorch's ``Tensor.grad_dtype``."""
        if self._tok is not None:
            raise RuntimeError("grad_dtype can only be accessed on leaf tensors.")
        return getattr(self, "_gd", self.dtype)

    @grad_dtype.setter
    def grad_dtype(self, value):
        if self._tok is not None:
            raise RuntimeError("grad_dtype can only be set on leaf tensors.")
        if value is not None and not isinstance(value, dtypes.dtype):
            raise RuntimeError("grad_dtype must be a torch.dtype or None, but got "
                               f"{type(value).__name__}")
        g = self._grad
        if value is not None and g is not None and g.dtype != value:
            raise RuntimeError(
                f"Cannot set grad_dtype to '{dtypes.torch_name(value)}' because there is "
                "already a gradient with dtype "
                f"'{dtypes.C_NAMES.get(g.dtype.name, g.dtype.name)}'. Please clear the "
                "gradient (.grad = None) before changing grad_dtype, or ensure the new "
                "grad_dtype matches the existing gradient's dtype.")
        self._gd = value
        GRAD_DTYPES[0] = True  # (the engine casts arriving gradients from now on)

    @property
    def is_leaf(self):
        if state.tracing is not None:
            graph_fact(self, "is_leaf")
        return self._tok is None

    @property
    def data(self):
        """A leaf sharing this tensor's values, as ``detach()``, but with a version counter
        of its own (PyTorch's): a write through it changes this tensor's values (its views'
        and bases') without a version or a history, so a backward reads the new values
        (ops/inplace.py ``_data_changed``)."""
        if state.tracing is not None and self._rg:
            return self.detach()  # (a traced value: the recorded stop-gradient copy)
        d = _leaf(_settled(self))
        d._da = (self,)  # (a tuple: not a detach(), whose counter is self's)
        add_view(self, d)
        return d

    @data.setter
    def data(self, value):
        if state.tracing is not None and isinstance(value, Tensor):
            TRACE_HOOKS["escape"](value, "x.data = t", "Use x = t.detach() (a recorded "
                                  "stop-gradient copy) instead.")
        data = as_data(value._data if isinstance(value, Tensor) else value, None)
        if isinstance(value, Tensor):  # (PyTorch's set_data takes t's inference-ness too)
            self._inf = getattr(value, "_inf", False)
        tape = state.tape
        if self._tok is not None and tape is not None and self._gen == tape.gen and \
                state.tracing is None:  # a non-leaf of this thread's live graph
            self._set_nonleaf_data(data)
            return
        self._data = data
        self._gen = 0  # new values: the next op takes a new slot
        note_write()  # (a trace holding this tensor's old values must look again)

    def _set_nonleaf_data(self, data):
        """``y.data = v`` on a non-leaf: y keeps its grad_fn, and the ops after take v (as
        PyTorch's set_data).  Written as a no-grad copy into y's slot, so a reverse rule
        reading y reads v; an op that saved y before raises PyTorch's in-place error at
        backward (PyTorch's set_data bumps no version: it would read v)."""
        if getattr(self, "_vb", None) is not None:  # (a copy would write into its base)
            raise RuntimeError(
                "x.data = t on a view with a gradient history (grad_fn) is not supported: "
                "tapegrad's write would go through to the view's base, where PyTorch gives "
                "the view storage of its own. Use x = t.detach() for a new value instead")
        if data.shape != self._data.shape or data.dtype != self._data.dtype:
            raise RuntimeError(
                f"x.data = t on a tensor with a gradient history (grad_fn) needs t of its "
                f"shape and dtype ({tuple(self._data.shape)}, {self._data.dtype}), got "
                f"({tuple(data.shape)}, {data.dtype}); tapegrad's tape keeps one slot per "
                "value. Use x = t.detach() (or t.requires_grad_()) for a new value instead")
        enabled = state.grad_enabled
        state.grad_enabled = False
        try:
            self.copy_(Tensor(data))
        finally:
            state.grad_enabled = enabled

    def detach(self):
        """A new leaf sharing this tensor's values, cut from the graph.  (While
        ``tapegrad.trace`` records, a traced value's detach is a recorded stop-gradient
        copy that replays: ops/control.py's STOP_GRAD.)"""
        if state.tracing is not None and self._rg:
            t = TRACE_HOOKS["detach"](self)
            if t is not None:  # (it follows self's in-place changes as a plain detach does:
                t._da = self  # ops/inplace.py _follow_detached records a new stop row)
                add_view(self, t)
                return t
        d = _leaf(_settled(self))
        d._da = self  # (it shares self's memory, version and changes: ops/inplace.py _bump)
        add_view(self, d)
        return d

    def detach_(self):
        """Make this tensor a leaf that does not require grad, in place."""
        if getattr(self, "_vb", None) is not None or getattr(self, "_xf", None) is not None:
            raise RuntimeError(_DETACH_VIEW)  # (a view: ops/views.py; an expand)
        if state.tracing is not None and self._rg:
            t = TRACE_HOOKS["detach"](self)
            if t is not None:  # (while tracing: this tensor becomes the stop-gradient copy)
                self._data, self._slot, self._gen, self._tok = t._data, t._slot, t._gen, t._tok
                return self
        _settled(self)
        self._tok = None
        self._rg = False
        self._gen = 0
        return self

    def retain_grad(self):
        """Populate ``.grad`` of this non-leaf on backward (a no-op on leaves)."""
        if not self._rg:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._tok is not None and not self._retains_grad:
            self._retains_grad = True
            self._tok.tape.retained.append((self._slot, weakref.ref(self)))

    @property
    def retains_grad(self):
        return self._retains_grad

    # -- conversion ---------------------------------------------------------------------
    def item(self):
        """The single value as a Python number."""
        if state.tracing is not None:
            _trace_hook(self, "guard", "item()")
        d = self._data
        if type(d) is float:
            return d
        if d.size != 1:
            raise RuntimeError(
                f"a Tensor with {d.size} elements cannot be converted to Scalar")
        return d.item()

    def tolist(self):
        if state.tracing is not None:
            _trace_hook(self, "escape", "tolist()")
        d = self._data
        return d if type(d) is float else d.tolist()

    def __reduce_ex__(self, protocol):
        """Pickled as PyTorch pickles a tensor: its values (a view's own elements), dtype and
        requires_grad, loaded as a new leaf (no graph, no .grad; the slots of a tensor on
        the tape held a weakref, which pickle refused)."""
        if state.tracing is not None:
            TRACE_HOOKS["escape"](self, "pickle", _COPY_HINT)
        if type(self) is not Tensor:  # (subclasses: their own, or Python's from their slots)
            return object.__reduce_ex__(self, protocol)
        return (_unpickled, (np.asarray(self._data), self._rg))

    def __setstate__(self, state):
        """pickle's BUILD (and copy's) of a tensor: a subclass pickled from its slots above.
        Only its values, requires_grad, .grad and own attributes are taken, as a new leaf:
        the tape's bookkeeping (slot, generation, token) never comes from a file, since a
        crafted one (weights_only allows Tensor) named a slot past the tape's arrays, which
        the compiled sweep indexed unchecked."""
        own, slots = state if type(state) is tuple and len(state) == 2 else (state, None)
        slots = slots if type(slots) is dict else {}
        data, rg, grad = slots.get("_data"), slots.get("_rg", False), slots.get("_grad")
        if not (type(data) is float or type(data) is np.ndarray and data.dtype in _STATE_DTYPES):
            raise pickle.UnpicklingError(
                f"Tensor state: values must be a float or a NumPy array of a real dtype, got "
                f"{type(data).__name__}")
        if type(rg) is not bool or not (grad is None or isinstance(grad, Tensor) and
                                         grad.shape == np.shape(data)):
            raise pickle.UnpicklingError("Tensor state: requires_grad must be a bool and "
                                         ".grad None or a tensor of the values' shape")
        if own and not hasattr(self, "__dict__"):
            raise pickle.UnpicklingError(
                f"Tensor state: a {type(self).__name__} has no attributes of its own to set")
        fresh = _leaf(data)
        for k in ("_data", "_slot", "_gen", "_tok", "_retains_grad", "_inf"):
            if hasattr(fresh, k):
                object.__setattr__(self, k, getattr(fresh, k))
        object.__setattr__(self, "_rg", rg)
        object.__setattr__(self, "_grad", grad)
        for k in _user_slots(type(self)).intersection(slots):  # (a subclass's own slots)
            object.__setattr__(self, k, slots[k])
        if own:
            self.__dict__.update(own)

    def __copy__(self):
        if state.tracing is not None:
            TRACE_HOOKS["escape"](self, "copy.copy", _COPY_HINT)
        if type(self) is Tensor:
            # PyTorch's copy: a new leaf on the same memory, with a graph and a .grad of its
            # own (a copy of the slots shared this tensor's: the gradient through it went to
            # this one too), a non-leaf's too (its node is not copied)
            c = self.detach()
            return c.requires_grad_(True) if self._rg else c
        return copy._reconstruct(self, None, *self.__reduce_ex__(4))  # (a subclass's own)

    def __deepcopy__(self, memo):
        # (while tracing, a copy made the Python way held the traced tensor's slot: a copy
        # of an input was the input itself to replay, its gradient counted twice)
        if state.tracing is not None:
            TRACE_HOOKS["escape"](self, "copy.deepcopy", _COPY_HINT)
        if not self.is_leaf:  # (PyTorch's refusal: a deep copy of a node's output)
            raise RuntimeError(_DEEPCOPY_NON_LEAF)
        if type(self) is not Tensor:  # (a subclass's own reduction: a Parameter's leaves
            return copy._reconstruct(self, memo, *self.__reduce_ex__(4))  # .grad behind)
        # PyTorch's: a new leaf of copied values, requires_grad and a deep copy of .grad (the
        # slots' copy took along what a detached tensor was detached from, a non-leaf)
        new = memo[id(self)] = Tensor(np.array(self._data), requires_grad=self._rg)
        if self._grad is not None:
            new.grad = copy.deepcopy(self._grad, memo)
        return new

    def numpy(self, *, force=False):
        """The values as an ndarray (shares memory where it can); ``force`` takes them from
        a tensor that requires grad too (as ``detach().numpy()``)."""
        check_bool(force, "numpy", "force")
        if state.tracing is not None:
            _trace_hook(self, "escape", "numpy()")
        if self._rg and not force:
            raise RuntimeError(_NUMPY_RG)
        d = self._data
        if type(d) is float:  # a new array: no tensor's memory (escape costs ~2 us)
            return np.asarray(d)
        return escape(np.asarray(d))  # the caller may write through it (Tape.adopt)

    def __array__(self, dtype=None, copy=None):
        if state.tracing is not None:
            _trace_hook(self, "escape", "conversion to a NumPy array")
        a = escape(np.asarray(_settled(self)))  # the caller may write through it (Tape.adopt)
        return a if dtype is None else a.astype(dtype)

    def __array_wrap__(self, array, context=None, return_scalar=False):
        """A NumPy ufunc of tensors (``np.exp(t)``) gives a new tensor, as PyTorch's does,
        bools as uint8 (PyTorch's choice); nothing is recorded."""
        array = np.asarray(array)
        return _leaf(norm(array.astype(np.uint8) if array.dtype == np.bool_ else array.copy()))

    def __float__(self):
        if state.tracing is not None:
            _trace_hook(self, "guard", "float()")
        if self.numel() != 1:
            raise ValueError(_NOT_ONE)
        return float(np.asarray(self._data).item())

    def __format__(self, spec):
        """A 0-d tensor formats as its number (``f"{loss:.4f}"``), as in PyTorch; other
        tensors take only the empty spec (their str)."""
        if self.dim() == 0 and self._format_as_number:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    _format_as_number = True  # (not a Parameter's: PyTorch formats a 0-d one as its str)

    def __int__(self):
        if state.tracing is not None:
            _trace_hook(self, "guard", "int()")
        if self.numel() != 1:
            raise ValueError(_NOT_ONE)
        return int(np.asarray(self._data).item())

    def __complex__(self):  # (cmath's functions call it: a decision as float()'s)
        if state.tracing is not None:
            _trace_hook(self, "guard", "complex()")
        if self.numel() != 1:
            raise ValueError(_NOT_ONE)
        return complex(np.asarray(self._data).item())

    def __index__(self):
        if self.dtype.kind not in "iub" or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self):
        if state.tracing is not None:
            _trace_hook(self, "guard", "bool")
        if self.numel() != 1:
            raise with_note(RuntimeError(
                "Boolean value of Tensor with more than one value is ambiguous"),
                f"bool(): shape {tuple(self.shape)}; use .any() or .all()")
        return bool(np.asarray(self._data).item())

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(len(self)))

    def __repr__(self):
        return tensor_repr(self)


_DEEPCOPY_NON_LEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol "
    "at the moment.  If you were attempting to deepcopy a module, this may be because of a "
    "torch.nn.utils.weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001")
_COPY_HINT = ("Use t.clone() (a recorded copy), or t.detach().clone() for a copy that "
              "gradients do not flow through.")
TRACE_HOOKS = {}  # "guard", "escape" and "detach": set by ops/control.py, the floor above


def host_values(t, how, decides=None):
    """The values of ``t`` (a Tensor, or anything ``np.asarray`` takes) as an ndarray, read
    outside the tape: in NumPy, where they decide indices, counts, shapes, an error, or a
    result no row replays.  Every such read in the ops goes through here.  While
    ``tapegrad.trace`` records, a traced ``t``'s exact values (or those of ``decides(t)``,
    what alone decides the op: ``t != 0`` for nonzero) are guarded at the read, before any
    check on them can raise (a caught error is a branch too), so replay flags every point
    where they differ rather than reuse this point's choices.  Eagerly a plain read."""
    if not isinstance(t, Tensor):
        return np.asarray(t)
    if state.tracing is not None and t._rg:  # (only a traced value requires grad there)
        TRACE_HOOKS["guard_values"](t if decides is None else decides(t), how)
    return np.asarray(t._data)


class ComplexPart(RuntimeError):
    """A real op read a complex tensor's storage (tapegrad/_complex.py): the message names
    the op; an op with a complex form catches it and answers there."""


class ComplexData(TypeError):
    """Complex values given to a real Tensor's constructor: ``creation.py`` catches it and
    makes a complex tensor (tapegrad/_complex.py) of ``args[0]``, the complex array."""

    def __str__(self):
        return ("complex values make a complex tensor: build it with tapegrad.tensor(...), "
                "not Tensor(...)")


COMPLEX_HOOKS = {}  # tapegrad/_complex.py's entry points, for the real ops' slow paths


class EagerOnlyError(RuntimeError):
    """While traced, f read graph metadata of a value it computes (``graph_fact``), which
    only eager runs give.  Tracing refuses; ``compile(f)`` called with tensors runs f
    eagerly instead."""


def graph_fact(t, what):
    """While ``tapegrad.trace`` records f, every value f computes from its inputs requires
    grad, is a non-leaf and has a grad_fn: that is how it records, whatever it is eagerly (a
    detach, a no_grad or inference_mode result, a comparison, an argmax: eagerly a leaf that
    does not require grad, with no grad_fn and a .grad of its own).  f reading ``what`` of
    one would take, at every point, the path eager does not take: refused from f's own code
    (tapegrad's reads ask what they mean).  f's inputs and the leaves it makes answer as
    eagerly."""
    if t._tok is None or not t._rg or \
            sys._getframe(2).f_globals.get("__name__", "").startswith("tapegrad."):
        return
    raise EagerOnlyError(
        f"tapegrad.trace: {what} of a value f computes while traced (shape {tuple(t.shape)}) "
        "is not what eager gives (while tracing every value computed from the inputs "
        "records, a detach or no_grad result included), so a branch on it would replay "
        "another path than f's. Decide it from what f knows (the grad mode, the op), not "
        "from the tensor")


def _trace_hook(t, kind, how):
    """While tapegrad.trace records: a Python decision on a traced value becomes a guard row,
    and a value leaving for NumPy raises (ops/control.py)."""
    TRACE_HOOKS[kind](t, how)


class Size(tuple):
    """A shape, printed as PyTorch prints it."""

    def __repr__(self):
        return f"torch.Size({list(self)})"  # (as PyTorch prints it, as dtypes)

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, i):
        r = tuple.__getitem__(self, i)
        return Size(r) if isinstance(i, slice) else r

    def __add__(self, other):  # Size + tuple is a Size, as in PyTorch
        return Size(tuple(self) + tuple(other))


_new = object.__new__


_ref = weakref.ref


class Live(list):
    """Weak references to a tensor's views and detach()es (its ``_vs``), which an in-place
    change of the tensor brings up to date (ops/inplace.py _bump).  The dead ones are
    dropped when the list has doubled since the last time (a base sliced in a loop keeps
    no list of the dead)."""

    __slots__ = ("cap",)

    @classmethod
    def of(cls, refs):
        """A list of the live references ``refs``, or None for none."""
        if not refs:
            return None
        out = cls(refs)
        out.cap = max(16, 2 * len(refs))
        return out

    def prune(self):
        self[:] = [r for r in self if r() is not None]
        self.cap = max(16, 2 * len(self))


def add_view(x, out):
    """List ``out`` among x's live views (a view op's result, a detach()); a view of an
    inference tensor is one (PyTorch's share its storage and key set)."""
    if getattr(x, "_inf", False):
        out._inf = True
    try:
        vs = x._vs
        vs.append(_ref(out))
        if len(vs) > vs.cap:
            vs.prune()
    except AttributeError:  # x's first view (an unset slot), or x was changed in place
        vs = x._vs = Live((_ref(out),))  # before it had one (None: inplace.Counter)
        vs.cap = 16


def _settled(t):
    """``t``'s values, to be shared with code that may change them in place: a small op
    result not yet copied into this thread's tape (Tape.push_array's ``owned``) is copied
    in first, and so are kept-aside results that rows read (ValueArena.needed's ``alone``),
    so the tape keeps the values the op computed."""
    tok = t._tok
    if tok is not None and tok.tape.abuf and tok.tape is state.tape:
        tok.tape.flush()
    if tok is not None and tok.tape.ext:  # (values a row reads where they are kept: in too)
        tok.tape.fill_ext()
    return t._data


def _unpickled(values, requires_grad):
    return Tensor(values, requires_grad=requires_grad)


# what a tensor's pickled state may hold (Tensor.__setstate__): NumPy's real dtypes
_STATE_DTYPES = frozenset(map(np.dtype, "?bBhHiIlLqQefd"))


def _user_slots(cls):
    """The __slots__ a program's subclass of Tensor declares (not tapegrad's classes')."""
    names = set()
    for c in cls.__mro__:
        if not c.__module__.startswith("tapegrad"):
            s = c.__dict__.get("__slots__", ())
            names.update((s,) if type(s) is str else s)
    return names


def _leaf(data):
    """A leaf that does not require grad, holding ``data`` as it is (no copy)."""
    t = _new(Tensor)
    t._data = data
    t._rg = False
    t._slot = -1
    t._gen = 0
    t._tok = None
    t._grad = None
    t._retains_grad = False
    if INFERENCE_THREADS[0] and state.inference:
        t._inf = True
    return t


def _nonleaf(data, slot, tape, tok):
    """The output of a recorded op: requires grad, lives on ``tape`` at ``slot``.

    ``tok`` is an input's token when the caller has one (it is this generation's: the
    input's slot was current), saving the weakref call of ``tape.token()``.
    """
    t = _new(Tensor)
    t._data = data
    t._rg = True
    t._slot = slot
    t._gen = tape.gen
    t._tok = tok or tape.token()
    t._grad = None
    t._retains_grad = False
    return t


def _legacy_sizes(sizes):
    """The uninitialised (zero-filled) default-dtype array ``torch.Tensor(*sizes)`` makes
    (``torch.Tensor(data)``, its other form: ``_legacy_data``)."""
    sizes = tuple(d for d in sizes if d is not None)
    if not all(type(d) is int and d >= 0 for d in sizes):
        raise TypeError(f"Tensor(): sizes must be non-negative ints, got {sizes}")
    return np.zeros(sizes, dtype=dtypes._DEFAULT_FLOAT)


_LEGACY_TYPES = (int, bool, list, tuple)  # (a float, a float array or a tensor: as given)


def _legacy_data(data):
    """``torch.Tensor(x)`` as PyTorch's legacy constructor reads it, for a program's call
    (tapegrad's own calls mean ``tensor(x)``): an int is a size (``nn.Parameter(
    torch.Tensor(n))``, filled by an initialiser next), and int or bool data become the
    default float dtype; float data keep their dtype (float32 stays float32)."""
    if type(data) is int:
        return _legacy_sizes((data,))
    a = np.asarray(data)
    return a.astype(dtypes._DEFAULT_FLOAT) if a.dtype.kind in "biu" else data


_NOT_ONE = "only one element tensors can be converted to Python scalars"  # (PyTorch's)


def as_data(value, dtype):
    """Normalise ``value`` to tapegrad's storage: float for 0-d float64, else a C ndarray."""
    if isinstance(value, Tensor):
        if value._rg and state.tracing is not None:
            TRACE_HOOKS["escape"](value, "Tensor(t)", "Use t.detach().clone() or t.detach() "
                                  "(recorded stop-gradient copies) instead.")
        value = value._data
    if type(value) is float and (dtype is dtypes.float64 or (
            dtype is None and dtypes._DEFAULT_FLOAT is dtypes.float64)):
        return value
    if dtype is None and not isinstance(value, (np.ndarray, np.generic)):
        arr = _array_of(value, None)  # Python numbers and lists: the default float, int64
        if isinstance(value, (list, tuple)) and (
                arr.dtype not in (np.float64, np.int64, np.bool_) or
                dtypes._DEFAULT_FLOAT is not dtypes.float64 or _typed_end(value)):
            typed = _typed_items_dtype(value)  # NumPy scalars, arrays or tensors inside
            if typed is not None:
                arr = np.array(_tensor_items_as_numbers(value), dtype=typed)
                if arr.dtype.kind == "c":  # NumPy complex scalars inside: creation.py
                    raise ComplexData(arr)
                return norm(arr)
        if arr.dtype.kind == "f":
            arr = arr.astype(dtypes._DEFAULT_FLOAT, copy=False)
        elif arr.dtype.kind == "i":
            arr = arr.astype(np.int64, copy=False)
        elif arr.dtype.kind == "u" or (arr.dtype.kind == "O" and _has_big_int(value)):
            # NumPy made uint64 (or objects) of an int beyond int64: PyTorch refuses it
            raise ValueError("Overflow when unpacking long long: tensor(): an integer is "
                             "outside int64's range [-2**63, 2**63 - 1]; give it as a float "
                             "(or dtype=tapegrad.float64) to store it rounded")
        elif arr.dtype.kind == "c":  # Python complex numbers: creation.py makes them
            raise ComplexData(arr.astype(np.result_type(dtypes._DEFAULT_FLOAT, np.complex64)))
        elif arr.dtype.kind in "US":  # (PyTorch's words)
            raise TypeError("new(): invalid data type 'str'")
        elif arr.dtype.kind not in "b":
            raise RuntimeError(f"Could not infer dtype of {_odd_item(value) or 'object'}")
    else:
        arr = _array_of(value, dtype)
        if arr.dtype.kind == "c":
            raise ComplexData(arr)
    return norm(arr)


def _array_of(value, dtype):
    """``np.array(value, dtype)`` as PyTorch's tensor() makes it: a value beyond a float
    dtype is inf without NumPy's warning; Python numbers for an integer dtype are checked
    (``_checked_ints``); nested lists of unequal lengths get PyTorch's error."""
    try:
        if dtype is None:
            return np.array(value)
        if dtype.kind in "iu" and dtype != np.uint64 and not isinstance(value, np.ndarray):
            return _checked_ints(value, dtype)
        return call(np.array, value, dtype)  # (an array's cast is unchecked, as PyTorch's)
    except ValueError as e:
        error = e
    if isinstance(value, (list, tuple)):
        if _holds_tensor(value):  # ([1., tensor([2.])]: PyTorch reads a number there)
            return _array_of(_tensor_items_as_numbers(value), dtype)
        _check_nesting(value)  # (outside the except: no "during handling" context)
    raise error


def _checked_ints(value, dtype):
    """Python numbers as integer ``dtype``, refused as PyTorch's c10 ``overflows`` refuses
    them (``dtypes.check_fits``, tensor()'s words): a float outside [min, max] (NaN and inf too; 255.9 for uint8), an int outside
    [min, max], but a negative int for an unsigned dtype wraps if its magnitude fits
    (``tensor([-1], dtype=uint8)`` is 255); an int beyond int64 fails its unpacking.  (uint64,
    which PyTorch barely supports, is not checked: NumPy's conversion.)"""
    arr = np.array(value)  # (bool, int64, float64; uint64 or objects for ints beyond int64)
    kind = arr.dtype.kind
    if kind == "u" or (kind in "Of" and _has_big_int(value)):  # ([2**63, 3] is float64)
        raise ValueError("Overflow when unpacking long long")
    if arr.size and kind in "if":  # (the fills' rule on the extremes; NaN is both)
        for v in (arr.min(), arr.max()):
            dtypes.check_fits(v.item(), dtype, str(dtype))
    return call(arr.astype, dtype)  # (a float at 2**63 passes, as in c10: cast unchecked)


def _check_nesting(value):
    """Raise PyTorch's error for the first sequence whose length differs from that of the
    first sequence at its depth (the first items' lengths give the shape)."""
    sizes, v = [], value
    while _is_sequence(v):
        sizes.append(len(v))
        if not len(v):
            break
        v = v[0]

    def walk(seq, dim):
        if dim == len(sizes):
            return
        if not _is_sequence(seq):
            raise TypeError("not a sequence")
        if len(seq) != sizes[dim]:
            raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} "
                             f"(got {len(seq)})")
        for item in seq:
            walk(item, dim + 1)
    walk(value, 0)


def _is_sequence(v):
    """A sequence to PyTorch's tensor(): a list, a tuple or an array of 1 or more dims."""
    return isinstance(v, (list, tuple)) or (isinstance(v, np.ndarray) and v.ndim > 0)


def _typed_end(value):
    """Whether the first or last item of nested lists is not a Python number: NumPy made
    float64 of [1, np.float32(2)], where PyTorch makes float32.  (The ends only: a walk of
    every item would double the cost of a long list; _typed_items_dtype walks when these
    or NumPy's dtype say there is something typed inside.)"""
    for end in (0, -1):
        v = value
        while isinstance(v, (list, tuple)) and v:
            v = v[end]
        if not isinstance(v, (float, int, list, tuple)):  # (bool is an int)
            return True
    return False


def _typed_items_dtype(value):
    """PyTorch's dtype for a nested list holding NumPy scalars, arrays or tensors: every
    item's dtype (a Python float's the default, an int's int64) promoted as tensors' are
    ([np.float32(1.0), 2] is float32, [np.int32(1)] int32); None when every item is a
    Python number (the caller's path, which also refuses ints beyond int64)."""
    found, typed = [], False
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, Tensor):
            found.append(np.dtype(v.dtype))
            typed = True
        elif isinstance(v, (np.ndarray, np.generic)):
            found.append(v.dtype)
            typed = True
        elif isinstance(v, bool):
            found.append(dtypes.bool)
        elif isinstance(v, int):
            found.append(dtypes.int64)
        elif isinstance(v, float):
            found.append(dtypes._DEFAULT_FLOAT)
        else:
            return None  # (complex, objects: the caller's path and errors)
    if not typed:
        return None
    return dtypes.result_type(*((dt, 1) for dt in set(found)))


def _holds_tensor(value):
    return isinstance(value, Tensor) or isinstance(value, (list, tuple)) and any(
        _holds_tensor(v) for v in value)


def _tensor_items_as_numbers(value):
    """Nested lists with each tensor inside replaced by its one number, as PyTorch reads
    them ([tensor([1.]), tensor([2.])] makes tensor([1., 2.])); a tensor of more or fewer
    elements is refused in PyTorch's words (NumPy arrays stay sequences)."""
    if isinstance(value, Tensor):
        if value.numel() != 1:
            raise ValueError(_NOT_ONE)
        return value._data.reshape(()) if isinstance(value._data, np.ndarray) else value._data
    if isinstance(value, (list, tuple)):
        return [_tensor_items_as_numbers(v) for v in value]
    return value


def is_bool(v):
    return isinstance(v, (bool, np.bool_))


def check_bool(v, op, name, position=None):
    """PyTorch's refusal of a non-bool flag (``requires_grad='yes'`` is not True)."""
    if not is_bool(v):
        at = f" (position {position})" if position else ""
        raise TypeError(f"{op}(): argument '{name}'{at} must be bool, not {type(v).__name__}")


def _odd_item(value):
    """The type name of the first item of nested lists that is no number (PyTorch names it
    in its error: ``Could not infer dtype of NoneType``)."""
    if not isinstance(value, (list, tuple)):
        return type(value).__name__
    for v in value:
        if not isinstance(v, (bool, int, float, complex, np.generic)):
            name = _odd_item(v)
            if name is not None:
                return name
    return None


def _has_big_int(value):
    """Whether nested lists/tuples ``value`` hold a Python int beyond int64."""
    if isinstance(value, (list, tuple)):
        return any(_has_big_int(v) for v in value)
    return isinstance(value, int) and not -2 ** 63 <= value < 2 ** 63


def norm(arr):
    """Storage form of a computed result (NumPy scalars and 0-d float64 become floats)."""
    if type(arr) is float:
        return arr
    arr = np.asarray(arr)
    if arr.ndim == 0:  # (np.ascontiguousarray would make it 1-d)
        return float(arr) if arr.dtype == np.float64 else arr
    return np.ascontiguousarray(arr)


def _wrap_dim(dim, ndim, op):
    try:
        dim = operator.index(dim)  # a float dim would wrap to a float (-1e-9 % 3 is 3.0)
    except TypeError:
        raise TypeError(f"{op}(): argument 'dim' must be int, not {type(dim).__name__}"
                        ) from None
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise with_note(IndexError(f"Dimension out of range (expected to be in range of "
                                   f"[{-n}, {n - 1}], but got {dim})"), f"{op}()")
    return dim % n


def _wrap_dims(dim, ndim, op):
    """The dims ``dim`` (one or a tuple or list) wrapped, in order, refused in PyTorch's words
    where one is out of range or named twice."""
    wrapped = [_wrap_dim(d, ndim, op) for d in (dim if isinstance(dim, (tuple, list)) else (dim,))]
    for d in wrapped:
        if wrapped.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return wrapped
