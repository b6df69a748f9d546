"""The rest of PyTorch's surface that scripts reach for, bound from the top floor (it uses
nn.functional, linalg and special.py's methods): the in-place spellings of out-of-place
ops (``tril_``, ``lt_``, ``erf_``, ``addmm_``...), the random fills (``bernoulli_``,
``exponential_``...), questions about storage that a dense CPU tensor answers
(``nbytes``, ``data_ptr``...), torch's top-level spellings of nn.functional
(``torch.conv2d``, ``torch.batch_norm`` with its own argument order), window functions,
and the one table of PyTorch names tapegrad does not support, with the reason, which
``tapegrad.X`` and ``tensor.X`` raise as an AttributeError (UNSUPPORTED).
"""
import functools
import math
import warnings

import numpy as np

from . import creation, dtypes, linalg, methods, nn, ops, special, testing
from ._state import state
from .nn import functional as F
from .ops import arithmetic, inplace, inplace_more, views
from .ops import shape as sh
from .ops._record import named_result, no_derivative, node
from .ops.aliases import divide
from .ops.out import with_out
from .scatter_reduce import scatter_reduce
from .tape import shared_next
from .tensor import Size, Tensor, _wrap_dim
from .utils import data as _data

# ---- in-place spellings: each runs the method of its name without the underscore, then the
# tensor takes the result (ops/inplace_more.py: leaf checks, version counter, rebasing) -----
INPLACE = (
    "tril_", "triu_", "lt_", "le_", "gt_", "ge_", "eq_", "ne_", "less_", "less_equal_",
    "greater_", "greater_equal_", "not_equal_", "cumsum_", "cumprod_", "addmm_", "addbmm_",
    "baddbmm_", "addmv_", "addr_", "erf_", "erfc_", "erfinv_", "lgamma_", "digamma_",
    "sinh_", "cosh_", "tan_", "asin_", "acos_", "atan_", "asinh_", "acosh_", "atanh_",
    "arcsin_", "arccos_", "arctan_", "arcsinh_", "arccosh_", "arctanh_", "atan2_",
    "arctan2_", "log2_", "log10_", "exp2_", "sinc_", "i0_", "sgn_", "fix_", "deg2rad_",
    "rad2deg_", "heaviside_", "logical_and_", "logical_or_", "logical_xor_",
    "logical_not_", "floor_divide_", "true_divide_", "multiply_", "renorm_", "mvlgamma_",
    "negative_", "absolute_", "ldexp_", "gcd_", "lcm_", "bitwise_and_", "bitwise_or_",
    "bitwise_xor_", "bitwise_not_", "bitwise_left_shift_", "bitwise_right_shift_",
    "nextafter_", "put_", "index_reduce_", "scatter_reduce_", "masked_scatter_",
    "polygamma_", "igamma_", "igammac_")


def _float_power_(self, exponent):
    """``float_power`` in place: the tensor must be float64, as PyTorch asks."""
    if self.dtype != dtypes.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype "
                           f"{dtypes.torch_name(self.dtype)} but the operation's "
                           f"result requires dtype Double")
    return _float_power_run(self, exponent)


def div_(self, other, *, rounding_mode=None):
    """``self /= other``, in place; ``rounding_mode`` as ``torch.div``."""
    if rounding_mode is None:
        return _true_div_(self, other)
    return _divide_(self, other, rounding_mode=rounding_mode)


def subtract_(self, other, *, alpha=1):
    """``sub_``."""
    return self.sub_(other, alpha=alpha)


def swapaxes_(self, axis0, axis1):
    """``transpose_``."""
    return self.transpose_(axis0, axis1)


@node("IndexReduceBackward0")
def index_reduce(self, dim, index, source, reduce, *, include_self=True):
    """``source``'s slices reduced (``'prod'``, ``'mean'``, ``'amax'``, ``'amin'``) into
    ``self`` at ``index`` along ``dim``: scatter_reduce with the index spread along the
    other dims."""
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    if source.dtype != self.dtype:
        raise RuntimeError(f"index_reduce_(): self ({dtypes.torch_name(self.dtype)})"
                           f" and source ({dtypes.torch_name(source.dtype)}) must "
                           f"have the same scalar type")
    d = _wrap_dim(dim, self.ndim, "index_reduce")
    idx = sh._index_array(index, "index_reduce", "index_reduce_(): Expected dtype int32/int64 "
                          "for index but got: {}")
    if idx.ndim > 1 or idx.size != source.shape[d]:
        raise IndexError(f"index_reduce_(): Index should have dimension 1 or 0 (got {idx.ndim})"
                         f" and as many elements as source has along dim {d}")
    if ((idx < 0) | (idx >= (self.shape[d] if self.ndim else 1))).any():
        raise IndexError("index out of range in self")  # (PyTorch's: a negative one too)
    shape = [1] * source.ndim
    shape[d] = idx.size
    full = np.ascontiguousarray(np.broadcast_to(idx.reshape(shape).astype(np.int64),
                                                tuple(source.shape)))
    return scatter_reduce(self, d, Tensor(full), source, reduce, include_self=include_self)


METHODS = {"index_reduce": index_reduce,
           "hardshrink": F.hardshrink, "prelu": F.prelu, "to_dense": lambda self: self,
           "narrow_copy": lambda self, dim, start, length:
           _copy_of(self.narrow(dim, start, length), self, "NarrowCopyBackward0")}
for _name, _fn in METHODS.items():
    setattr(Tensor, _name, _fn)
_float_power_run = inplace_more._method(Tensor.float_power, "float_power_")
_true_div_ = Tensor.div_
_divide_ = inplace_more._method(divide, "divide_")


def _on_alias(base):
    """``base`` run on a copy of the tensor: special.py's ops are autograd Functions that
    save their input tensor, whose version the in-place op then bumps; PyTorch saves a
    copy of self there (a view of a tensor without history shares its counter)."""
    def fn(t, *args, **kwargs):
        return base(t.clone(), *args, **kwargs)
    return fn


_FUNCTION_BASED = {*special.TOP_LEVEL, "index_reduce", "scatter_reduce"}
for _name in INPLACE:
    _base = getattr(Tensor, _name[:-1])
    _base = _on_alias(_base) if _name[:-1] in _FUNCTION_BASED else _base
    setattr(Tensor, _name, inplace_more._method(_base, _name))
for _name, _op in (("and", "and"), ("or", "or"), ("xor", "xor"), ("lshift", "left_shift"),
                   ("rshift", "right_shift")):  # x &= m, x <<= 1: in place, as PyTorch's
    setattr(Tensor, f"__i{_name}__", getattr(Tensor, f"bitwise_{_op}_"))
Tensor.float_power_ = _float_power_
Tensor.div_ = Tensor.divide_ = div_
Tensor.subtract_ = subtract_
Tensor.swapaxes_ = Tensor.swapdims_ = swapaxes_


# ---- questions a dense CPU tensor answers --------------------------------------------------
def _imag(self):
    raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")


Tensor.real = property(lambda self: self, doc="A real tensor's real part: itself.")
Tensor.imag = property(_imag, doc="Refused, as PyTorch refuses it for real dtypes.")
Tensor.itemsize = property(lambda self: self.dtype.itemsize, doc="Bytes per element.")
Tensor.nbytes = property(lambda self: self.numel() * self.dtype.itemsize,
                         doc="Bytes of the elements (numel * itemsize).")
Tensor.name = None  # (PyTorch's attribute; tapegrad has no named tensors: always None)
for _flag in ("is_sparse", "is_sparse_csr", "is_quantized", "is_meta", "is_mkldnn", "is_mps",
              "is_xpu", "is_ipu", "is_xla", "is_vulkan", "is_mtia", "is_maia", "is_nested"):
    setattr(Tensor, _flag, False)  # every tensor is a dense CPU tensor here
Tensor.sparse_dim = lambda self: 0  # (a dense tensor's, as PyTorch answers them)
Tensor.dense_dim = lambda self: self.ndim


def data_ptr(self):
    """The address of the first element (of the Python float holding a 0-d float64
    tensor's value): equal for tensors that share storage (``t.detach()``); a view's
    (whose values are a copy here, ops/views.py) is its base's plus its storage offset, as
    PyTorch's (``x[1].data_ptr() - x.data_ptr()``)."""
    base = view_base(self)
    if base is not self:
        return data_ptr(base) + self.storage_offset() * self.element_size()
    d = self._data
    return id(d) if type(d) is float else d.__array_interface__["data"][0]


def view_base(t):
    """The tensor whose memory ``t`` views (``t`` itself unless a view: ops/views.py)."""
    vb = views.of(t)
    while vb is not None:
        t = vb[0]
        vb = views.of(t)
    return t


def get_device(self):
    """-1, PyTorch's answer for a CPU tensor."""
    return -1


def is_pinned(self, device=None):
    return False


def is_shared(self):
    """False: a tensor's values live in this process's NumPy array (``share_memory_``, which
    would move them to shared memory, is refused)."""
    return False


def pin_memory(self, device=None):
    """Self: the values are in host memory already (no accelerator to pin them for)."""
    return self


def new(self, *args, dtype=None, device=None):
    """PyTorch's legacy constructor: ``t.new(2, 3)`` (uninitialised, self's dtype),
    ``t.new([1, 2])`` (data), ``t.new()`` (empty)."""
    dt = dtype or self.dtype
    if len(args) == 1 and not isinstance(args[0], (int, np.integer, Size)):
        data = args[0]
        return creation.tensor(data.detach() if isinstance(data, Tensor) else data, dtype=dt)
    return creation.empty(*(args or (0,)), dtype=dt)


def new_empty_strided(self, size, stride, dtype=None, device=None, requires_grad=False):
    """``new_empty(size)`` (strides are row-major here)."""
    return self.new_empty(tuple(size), dtype=dtype, requires_grad=requires_grad)


def _fill_from(self, values, op, node):
    """Write sampled ``values`` into self in place; a leaf that requires grad is refused as
    PyTorch refuses it, a tensor with history keeps it with a zero gradient, as PyTorch's
    node ``node`` (NormalBackward0, UniformBackward0, ...)."""
    def drawn(t, d):
        return named_result(ops.where(Tensor(np.ones(t.shape, np.bool_)), d, t), node, t)
    return inplace._inplace(self, drawn, (self, Tensor(np.asarray(values).astype(self.dtype))),
                            op)


def bernoulli_(self, p=0.5, *, generator=None):
    """Fill with 0/1 draws, 1 with probability ``p`` (a number or a tensor)."""
    probs = np.asarray(p._data if isinstance(p, Tensor) else p, np.float64)
    if ((probs < 0) | (probs > 1)).any():
        raise RuntimeError("bernoulli_ expects p to be in [0, 1], but got p=" + str(p))
    return _fill_from(self, creation._gen(generator).random(tuple(self.shape)) < probs,
                      "bernoulli_", "BernoulliBackward1" if isinstance(p, Tensor) else
                      "BernoulliBackward2")


_RANDOM_TOP = {"f": {2: 2 ** 11, 4: 2 ** 24, 8: 2 ** 53}, "b": {1: 1}}


def random_(self, *args, generator=None, **kwargs):
    """Fill with integers drawn uniformly from [from, to - 1] (``random_(to)``,
    ``random_(from, to)``); by default [0, 2**mantissa] for floats, the dtype's range for
    integers."""
    lo, hi = 0, None
    if args:
        lo, hi = (0, args[0]) if len(args) == 1 else args[:2]
    lo, hi = kwargs.get("from", lo), kwargs.get("to", hi)
    dt = self.dtype
    if hi is None:
        top = _RANDOM_TOP.get(dt.kind, {}).get(dt.itemsize)
        hi = (top if top is not None else int(np.iinfo(dt).max)) + 1
    if lo >= hi:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={lo} "
                           f">= to={hi}")
    draws = creation._gen(generator).integers(int(lo), int(hi), tuple(self.shape))
    # (PyTorch's node of random_(from, to), random_(to), random_())
    node = f"RandomBackward{2 - min(2, len(args) + len(kwargs))}"
    return _fill_from(self, draws, "random_", node)


def _sampler(name, draw, node, doc):
    def method(self, *args, generator=None, **kwargs):
        values = draw(creation._gen(generator), tuple(self.shape), *args, **kwargs)
        return _fill_from(self, values, name, node)
    method.__name__ = name
    method.__doc__ = doc
    return method


def _normal(g, shape, mean=0.0, std=1.0):
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    return g.normal(mean, std, shape)


def _uniform(g, shape, a=0.0, b=1.0, **bounds):  # (PyTorch's keywords: from, to)
    lo, hi = bounds.pop("from", a), bounds.pop("to", b)
    if bounds:
        raise TypeError(f"uniform_() got an unexpected keyword argument '{next(iter(bounds))}'")
    if lo > hi:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={lo} > to={hi}")
    return g.uniform(lo, hi, shape)


def _exponential(g, shape, lambd=1.0):
    if lambd <= 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd}")
    return g.exponential(1.0 / lambd, shape)


def _log_normal(g, shape, mean=1.0, std=2.0):
    if std <= 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std}")
    return g.lognormal(mean, std, shape)


def _cauchy(g, shape, median=0.0, sigma=1.0):
    return median + sigma * g.standard_cauchy(shape)


def _geometric(g, shape, p):
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p}")
    return g.geometric(p, shape)


def fill_diagonal_(self, fill_value, wrap=False):
    """Set the main diagonal (all dims equal beyond 2-D; ``wrap`` restarts it below a tall
    matrix's square top, every ``cols + 1`` rows), in place."""
    if self.ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.ndim > 2 and len(set(self.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    mask = np.zeros(tuple(self.shape), np.bool_)
    np.fill_diagonal(mask, True, wrap=wrap)
    return self.masked_fill_(Tensor(mask), fill_value)


def resize_(self, *sizes, memory_format=None):
    """Take the shape ``sizes``: the first elements in row-major order are kept, new ones
    are zeros (PyTorch leaves them uninitialised).  Refused for a tensor that requires
    grad, as PyTorch refuses it."""
    sizes = tuple(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) \
        else sizes
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    if getattr(self, "_inf", False) and not state.inference:  # (PyTorch resizes, then raises)
        raise RuntimeError(inplace._INFERENCE_INPLACE)
    if any(int(s) < 0 for s in sizes):
        raise RuntimeError(f"Trying to create tensor with negative dimension: {list(sizes)}")
    if tuple(int(s) for s in sizes) == tuple(self.shape):
        return self  # (PyTorch's changes nothing then: no version either)
    n = int(np.prod(sizes, dtype=np.int64))
    flat = np.asarray(self._data, self.dtype).reshape(-1)[:n]
    value = np.concatenate([flat, np.zeros(n - flat.size, self.dtype)]).reshape(sizes)
    _resized(self)
    inplace.replace_storage(self, value)
    inplace._counter(self).shape = list(sizes)  # (PyTorch's error shows the new shape)
    return self


def _resized(t):
    """Before ``t.resize_``: the tensors sharing t's memory and version (t, the base of a
    view, the source of a detach(), theirs in turn) count a change, and a backward through
    a row that saved their values raises, as PyTorch's (one version counter)."""
    tape = state.tape
    u = t
    while u is not None:  # (to a .data: a version counter of its own)
        if tape is not None:
            inplace._log_mutation(u, tape, inplace._old_slots(u, tape))
        if u is not t:
            inplace._counter(u).version += 1
        u = shared_next(u)


def resize_as_(self, other, memory_format=None):
    return resize_(self, tuple(other.shape))


def resize(self, *sizes):
    """PyTorch's deprecated out-of-place resize: a reshape that keeps the number of
    elements (gradients flow), with PyTorch's warning and error."""
    sizes = tuple(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) \
        else sizes
    warnings.warn("non-inplace resize is deprecated", UserWarning, stacklevel=2)
    n = int(np.prod(sizes, dtype=np.int64))
    if n != self.numel():
        shape = "x".join(str(int(s)) for s in sizes)
        raise RuntimeError(f"requested resize to {shape} ({n} elements in total), but the given "
                           f"tensor has a size of {'x'.join(map(str, self.shape))} "
                           f"({self.numel()} elements). autograd's resize can only change the "
                           "shape of a given tensor, while preserving the number of elements. ")
    return self.reshape(sizes)


def resize_as(self, tensor):
    """``resize(tensor.size())``: see ``resize``."""
    return resize(self, tuple(tensor.shape))


for _fn in (data_ptr, get_device, is_pinned, is_shared, pin_memory, new,
            new_empty_strided, bernoulli_, random_, fill_diagonal_, resize_, resize_as_, resize,
            resize_as):
    setattr(Tensor, _fn.__name__, _fn)
Tensor.const_data_ptr = data_ptr
Tensor.bernoulli = lambda self, p=None, *, generator=None: bernoulli(self, p,
                                                                    generator=generator)
Tensor.multinomial = creation.multinomial
Tensor.normal_ = _sampler("normal_", _normal, "NormalBackward0", "Fill with N(mean, std) draws.")
Tensor.uniform_ = _sampler("uniform_", _uniform, "UniformBackward0",
                           "Fill with draws from U(from, to).")
Tensor.exponential_ = _sampler("exponential_", _exponential, "ExponentialBackward0",
                               "Fill with draws from Exp(lambd) (density lambd e^(-lambd x)).")
Tensor.log_normal_ = _sampler("log_normal_", _log_normal, "LogNormalBackward0",
                              "Fill with exp of N(mean, std) draws.")
Tensor.cauchy_ = _sampler("cauchy_", _cauchy, "CauchyBackward0",
                          "Fill with Cauchy(median, sigma) draws.")
Tensor.geometric_ = _sampler("geometric_", _geometric, "GeometricBackward0",
                             "Fill with the number of Bernoulli(p) trials to a success.")


# ---- top-level functions -----------------------------------------------------------------
def _reduction(r):
    """torch's top-level losses take reduction as an int (0 none, their default; 1 mean;
    2 sum)."""
    return ("none", "mean", "sum")[r] if isinstance(r, int) else r


def dropout(input, p, train):
    return F.dropout(input, p, train)


def alpha_dropout(input, p, train):
    return F.alpha_dropout(input, p, train)


def feature_alpha_dropout(input, p, train):
    return F.feature_alpha_dropout(input, p, train)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
               cudnn_enabled=True):
    """torch.batch_norm: weight and bias come before the running statistics."""
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum,
                        eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats,
                  momentum, eps, cudnn_enabled=True):
    return F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                           momentum, eps)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5,
               cudnn_enable=True):
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5, cudnn_enabled=True):
    return F.group_norm(input, num_groups, weight, bias, eps)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """torch.embedding: the weight comes first; padding_idx -1 is none."""
    return F.embedding(indices, weight, None if padding_idx == -1 else padding_idx,
                       scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)


def adaptive_max_pool1d(input, output_size):
    """(values, indices), as torch.adaptive_max_pool1d returns them."""
    return F.adaptive_max_pool1d(input, output_size, return_indices=True)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode=False):
    return F.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def kl_div(input, target, reduction=0, *, log_target=False):
    return F.kl_div(input, target, reduction=_reduction(reduction), log_target=log_target)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None,
                                     reduction=0):
    return F.binary_cross_entropy_with_logits(input, target, weight,
                                              reduction=_reduction(reduction),
                                              pos_weight=pos_weight)


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    return F.cosine_embedding_loss(input1, input2, target, margin,
                                   reduction=_reduction(reduction))


def hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    return F.hinge_embedding_loss(input, target, margin, reduction=_reduction(reduction))


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    return F.margin_ranking_loss(input1, input2, target, margin,
                                 reduction=_reduction(reduction))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                        reduction=0):
    return F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                 reduction=_reduction(reduction))


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps,
                              reduction=_reduction(reduction))


def constant_pad_nd(input, pad, value=0):
    return F.pad(input, pad, value=value)


@node("CholeskyInverseBackward0")
def cholesky_inverse(input, upper=False):
    """The inverse of ``L L^T`` (``U^T U`` with ``upper``) from its Cholesky factor."""
    eye = creation.eye(input.shape[-1], dtype=input.dtype)
    return linalg.cholesky_solve(eye.expand(*input.shape), input, upper)


FUNCTIONS = {f.__name__: f for f in (
    dropout, alpha_dropout, feature_alpha_dropout, batch_norm, instance_norm, layer_norm,
    group_norm, embedding, adaptive_max_pool1d, max_pool1d_with_indices, kl_div,
    binary_cross_entropy_with_logits, cosine_embedding_loss, hinge_embedding_loss,
    margin_ranking_loss, triplet_margin_loss, poisson_nll_loss, constant_pad_nd,
    cholesky_inverse, index_reduce)}
for _name in ("conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "pixel_shuffle", "pixel_unshuffle", "max_pool1d",
              "max_pool2d", "max_pool3d", "avg_pool1d", "adaptive_avg_pool1d", "threshold",
              "threshold_", "selu", "celu", "rrelu", "selu_", "celu_", "rrelu_", "bilinear",
              "prelu", "hardshrink", "rms_norm", "channel_shuffle"):
    FUNCTIONS[_name] = getattr(F, _name)  # the same arguments, in the same order
FUNCTIONS["native_channel_shuffle"] = F.channel_shuffle
FUNCTIONS["feature_dropout"] = lambda input, p, train: F.dropout2d(input, p, train)


def scalar_tensor(s, dtype=None, device=None, requires_grad=False):
    """A 0-d tensor of the number ``s`` (the default float dtype unless ``dtype``)."""
    return creation.tensor(float(s), dtype=dtype, requires_grad=requires_grad)


def fill(input, value):
    """A tensor like ``input`` holding ``value`` everywhere (a number or a 0-d tensor, whose
    gradient is the sum of the output's)."""
    return input.clone().fill_(value)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """A tensor of ``obj``: a Tensor of the right dtype is returned as it is unless
    ``copy=True``; other data is copied in (NumPy arrays are converted)."""
    if isinstance(obj, Tensor):
        t = obj if dtype is None or np.dtype(dtype) == obj.dtype else obj.to(dtype)
        t = t.clone() if copy and t is obj else t
    else:
        if copy is False and isinstance(obj, np.ndarray) and dtype is None:
            t = creation.from_numpy(obj)
        else:
            t = creation.tensor(obj, dtype=dtype)
    return t.requires_grad_(True) if requires_grad else t


def unravel_index(indices, shape):
    """The coordinates of flat ``indices`` in ``shape``, one int64 tensor per dim."""
    idx = np.asarray(indices._data if isinstance(indices, Tensor) else indices)
    if idx.dtype.kind not in "iu":
        raise TypeError("expected 'indices' to be integer dtype, but got "
                        f"{dtypes.torch_word(idx.dtype)}")
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    if any(int(s) < 0 for s in shape):
        raise ValueError("'shape' cannot have negative values, but got " + str(shape))
    out, rest = [], idx.astype(np.int64)
    for s in reversed(shape):
        out.append(np.remainder(rest, s) if s else rest * 0)
        rest = np.floor_divide(rest, s) if s else rest
    return tuple(creation.tensor(o) for o in reversed(out))


def range_(start, end, step=1, *, dtype=None, device=None, requires_grad=False):
    """Deprecated (as in PyTorch): ``start, start + step, ..., end`` with ``end`` included."""
    warnings.warn("tapegrad.range is deprecated and will be removed in a future release "
                  "because its behavior is inconsistent with Python's range builtin. Instead, "
                  "use tapegrad.arange, which produces values in [start, end).", UserWarning,
                  stacklevel=2)
    n = int(math.floor((end - start) / step)) + 1
    values = start + step * np.arange(max(n, 0))
    return creation.tensor(values, dtype=dtype or dtypes.default_float(),
                           requires_grad=requires_grad)


def _window(name, fn):
    def window(window_length, periodic=True, *args, dtype=None, layout=None, device=None,
               requires_grad=False, **params):  # (params: kaiser's beta=, hamming's alpha=)
        if window_length < 0:
            raise RuntimeError(f"{name} requires non-negative window_length, got "
                               f"window_length={window_length}")
        n = int(window_length)
        if n <= 1:
            values = np.ones(n)
        else:
            m = n + 1 if periodic else n
            values = fn(np.arange(m, dtype=np.float64), m - 1, *args, **params)[:n]
        return creation.tensor(values, dtype=dtype or dtypes.default_float(),
                               requires_grad=requires_grad)
    window.__name__ = name
    return window


# PyTorch's formulas, in its order of operations (so that the zeros stay exact zeros): k
# counts 0..n, n is the window's length less one (after the periodic window's extra point)
def _hamming(k, n, alpha=0.54, beta=0.46):
    return np.cos(k * (2.0 * np.pi / n)) * -beta + alpha


def _blackman(k, n):
    x = k * (np.pi / n)
    return np.cos(x * 4) * 0.08 - np.cos(x * 2) * 0.5 + 0.42


def _bartlett(k, n):
    w = k * (2.0 / n)
    half = n // 2 + 1  # (the second half falls from 2)
    w[half:] = 2.0 - w[half:]
    return w


def _kaiser(k, n, beta=12.0):
    return np.i0(beta * np.sqrt(np.maximum(1.0 - ((k - n / 2.0) / (n / 2.0)) ** 2, 0.0))) / \
        np.i0(beta)


FUNCTIONS.update({
    "hann_window": _window("hann_window", lambda k, n: _hamming(k, n, 0.5, 0.5)),
    "hamming_window": _window("hamming_window", _hamming),
    "blackman_window": _window("blackman_window", _blackman),
    "bartlett_window": _window("bartlett_window", _bartlett),
    "kaiser_window": _window("kaiser_window", _kaiser),
})
FUNCTIONS.update({f.__name__: f for f in (scalar_tensor, fill, asarray, unravel_index)})
FUNCTIONS["range"] = range_  # (named range_ here: this module uses the builtin range)
FUNCTIONS["cholesky_inverse"] = cholesky_inverse


# PyTorch's top-level in-place spellings, beyond methods.py's
for _name in ("acos_", "acosh_", "asin_", "asinh_", "atan_", "atanh_", "arccos_",
              "arccosh_", "arcsin_", "arcsinh_", "arctan_", "arctanh_", "cosh_", "sinh_",
              "tan_", "erf_", "erfc_", "exp2_", "fix_", "i0_", "log2_", "log10_", "sinc_",
              "deg2rad_", "rad2deg_", "negative_", "gcd_", "lcm_", "ldexp_", "clamp_min_",
              "clamp_max_", "detach_", "resize_as_", "fill_diagonal_"):
    FUNCTIONS[_name] = methods._inplace_function(_name)



# ---- layouts, memory formats, legacy switches ----------------------------------------------
class layout:  # noqa: N801 (PyTorch's name)
    """A tensor layout (``torch.strided``): every tensor here is dense and strided."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"  # (as PyTorch prints it, as dtypes)


class memory_format:  # noqa: N801 (PyTorch's name)
    """A memory format (``torch.channels_last``...).  It orders elements in memory, never
    their values; tapegrad's tensors are row-major whatever is asked (``contiguous``,
    ``is_contiguous`` and ``to`` accept these and keep the values)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"  # (as PyTorch prints it, as dtypes)


strided = layout("strided")
Tensor.layout = strided  # (every tensor's: the sparse and jagged layouts name no tensor here)
FUNCTIONS.update({"layout": layout, "strided": strided, "memory_format": memory_format})
FUNCTIONS.update({n: layout(n) for n in (
    "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc", "jagged")})
FUNCTIONS.update({n: memory_format(n) for n in (
    "contiguous_format", "channels_last", "channels_last_3d", "preserve_format")})
FUNCTIONS["default_generator"] = creation._DEFAULT
FUNCTIONS["legacy_contiguous_format"] = FUNCTIONS["contiguous_format"]  # (PyTorch's alias)


def hash_tensor(input, dim=None, *, keepdim=False, mode=0):
    """The xor of the elements' 64-bit patterns (floats as float64, integers as int64), over
    ``dim`` (all dims by default): a uint64 tensor, PyTorch's mode 0.

    >>> import tapegrad as tg
    >>> tg.hash_tensor(tg.tensor([[1, 2], [3, 4]]), 1).tolist()
    [3, 7]
    """
    if mode != 0:
        raise RuntimeError(f"hash_tensor: only mode=0 (xor reduction) is supported, got {mode}")
    a = np.asarray(input.detach()._data)
    if a.dtype.kind == "c":
        raise RuntimeError("hash_tensor: complex tensors are not supported")
    bits = a.astype(np.float64 if a.dtype.kind == "f" else np.int64).view(np.uint64)
    axes = tuple(range(a.ndim)) if dim is None else tuple(
        _wrap_dim(d, a.ndim, "hash_tensor") for d in (dim if isinstance(dim, (tuple, list))
                                                      else (dim,)))
    return Tensor(np.asarray(np.bitwise_xor.reduce(bits, axis=axes, keepdims=keepdim),
                             np.uint64))


Tensor.hash_tensor = hash_tensor
FUNCTIONS["hash_tensor"] = hash_tensor
FUNCTIONS["init_num_threads"] = lambda: None  # (NumPy's and Numba's pools start themselves)
FUNCTIONS["compiled_with_cxx11_abi"] = lambda: True  # (PyTorch 2.13's builds' answer)


def set_default_tensor_type(t):
    """PyTorch's legacy switch: ``DoubleTensor`` / ``FloatTensor`` (the class or its name)
    set the default float dtype, as ``set_default_dtype``."""
    name = t if isinstance(t, str) else getattr(t, "__name__", str(t))
    dt = {"DoubleTensor": dtypes.float64, "FloatTensor": dtypes.float32}.get(
        name.rsplit(".", 1)[-1])
    if dt is None:
        raise TypeError(f"only floating-point types are supported as the default type "
                        f"(tapegrad: FloatTensor or DoubleTensor, got {name})")
    dtypes.set_default_dtype(dt)


_WARN = {"always": False}


def set_warn_always(b):
    """Recorded (tapegrad's warnings follow Python's filters)."""
    _WARN["always"] = bool(b)


def is_warn_always_enabled():
    return _WARN["always"]


def set_flush_denormal(mode):
    """False: flushing denormals is not supported (NumPy computes with them), PyTorch's
    answer on a CPU without the feature."""
    return False


def is_vulkan_available():
    return False


# ---- more functions ----------------------------------------------------------------------
def empty_strided(size, stride, *, dtype=None, layout=None, device=None,
                  requires_grad=False, pin_memory=False):
    """``empty(size)`` (strides are row-major here)."""
    return creation.empty(*tuple(size), dtype=dtype, requires_grad=requires_grad)


def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None,
                   requires_grad=False, pin_memory=False):
    """``empty(size)`` (the physical order of elements is row-major here)."""
    if sorted(physical_layout) != list(range(len(size))):
        raise RuntimeError("Number of dimensions in size does not match the length of the "
                           "physical_layout")
    return creation.empty(*tuple(size), dtype=dtype, requires_grad=requires_grad)


def binomial(count, prob, generator=None):
    """Draws of Binomial(count, prob), elementwise (float, as PyTorch's; no derivative)."""
    n = np.asarray(count._data if isinstance(count, Tensor) else count)
    p = np.asarray(prob._data if isinstance(prob, Tensor) else prob)
    draws = creation._gen(generator).binomial(n.astype(np.int64), p)
    dt = count.dtype if isinstance(count, Tensor) else dtypes.default_float()
    return no_derivative("binomial", np.asarray(draws, dt), count, prob)


# ---- draws from tensors of parameters: PyTorch's results require grad when a parameter
# does, with a zero gradient (no reparameterization: NormalBackward3's is zero too) --------
def _drawn_from(out, node, *params):
    """``out`` drawn at ``params`` as PyTorch's node ``node``: each parameter that requires
    grad gets a zero gradient (a -0.0 term: the values stay as drawn)."""
    if not state.grad_enabled or state.tracing is not None:
        return out
    return named_result(arithmetic.zero_gradient_to(out, *params), node, *params)


@functools.partial(with_out, "normal")
def normal(mean, std=1.0, size=None, *, generator=None, **kwargs):
    """Normal draws (creation.normal) with PyTorch's node for tensor parameters."""
    y = creation.normal(mean, std, size, generator=generator, **kwargs)
    node = 1 * isinstance(mean, Tensor) + 2 * isinstance(std, Tensor)
    return _drawn_from(y, f"NormalBackward{node}", mean, std) if node else y


@functools.partial(with_out, "bernoulli")
def bernoulli(input, p=None, *, generator=None):
    """0/1 draws with probabilities ``input`` (BernoulliBackward0's zero gradient), or ``p``
    (PyTorch's bernoulli.p has no derivative)."""
    y = creation.bernoulli(input, p, generator=generator)
    return _drawn_from(y, "BernoulliBackward0", input) if p is None else \
        no_derivative("bernoulli", y._data, input)


def poisson(input, generator=None):
    return _drawn_from(creation.poisson(input, generator), "PoissonBackward0", input)


def _copying(name, view, node_name=None):
    def fn(*args, **kwargs):
        out = view(*args, **kwargs)
        src = args[0] if args else next(iter(kwargs.values()), None)
        if isinstance(out, (tuple, list)):
            return tuple(_copy_of(o, src, node_name) for o in out)
        return _copy_of(out, src, node_name)
    fn.__name__ = name
    fn.__doc__ = f"``{view.__name__}``'s result as a new tensor (PyTorch's ``{name}``)."
    return fn


def _copy_of(view, src, name):
    """A copy of ``view`` (a view op's result on ``src``) as the node PyTorch's ``<op>_copy``
    shows: the view's own node name with ``_copy`` (DiagonalBackward0_copy), leading to src."""
    out = view.clone()
    if out._tok is None:
        return out
    return named_result(out, name or type(view.grad_fn).__name__ + "_copy", src)


for _name in ("detach", "diagonal", "expand", "permute", "select", "split", "squeeze", "t",
              "transpose", "unbind", "unfold", "unsqueeze", "view", "narrow",
              "split_with_sizes", "as_strided"):
    FUNCTIONS[f"{_name}_copy"] = _copying(f"{_name}_copy", getattr(Tensor, _name))
FUNCTIONS["alias_copy"] = _copying("alias_copy", lambda input: input, "AliasBackward0_copy")
FUNCTIONS["slice_copy"] = _copying(
    "slice_copy", lambda input, dim=0, start=None, end=None, step=1:
    input[(slice(None),) * _wrap_dim(dim, input.ndim, "slice_copy") + (slice(start, end, step),)])
del FUNCTIONS["narrow_copy"], FUNCTIONS["view_copy"]  # (their own, below: shapes as torch's)
FUNCTIONS["narrow_copy"] = METHODS["narrow_copy"]
FUNCTIONS["view_copy"] = _copying("view_copy", lambda input, *shape: input.reshape(*shape))


def nonzero_static(input, *, size, fill_value=-1):
    """``nonzero(input)`` cut or padded with ``fill_value`` rows to ``size`` rows."""
    idx = np.argwhere(np.asarray(input._data))[:size]
    pad = np.full((size - idx.shape[0], max(input.ndim, 0)), fill_value, np.int64)
    return creation.tensor(np.concatenate([idx.astype(np.int64), pad]).reshape(size,
                                                                                 input.ndim))


def frobenius_norm(input, dim, keepdim=False):
    """The square root of the sum of squares over ``dim``."""
    return linalg.vector_norm(input, 2, dim=dim, keepdim=keepdim)


def nuclear_norm(input, dim=(-2, -1), keepdim=False):
    """The sum of the singular values of the matrices over ``dim``."""
    return linalg.matrix_norm(input, "nuc", dim=dim, keepdim=keepdim)


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding,
                groups):
    """PyTorch's general convolution: conv{1,2,3}d or conv_transpose{1,2,3}d by the
    weight's dims and ``transposed``."""
    n = weight.ndim - 2
    if n not in (1, 2, 3):
        raise RuntimeError(f"convolution: expected a 3-D to 5-D weight, got {weight.ndim}-D")
    if transposed:
        return getattr(F, f"conv_transpose{n}d")(input, weight, bias, stride, padding,
                                                 output_padding, groups, dilation)
    return getattr(F, f"conv{n}d")(input, weight, bias, stride, padding, dilation, groups)


def _inplace_dropout(fn):
    def dropout_(input, p, train):
        return fn(input, p, train, inplace=True)
    return dropout_


def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """Estimates of the derivative of ``input`` along each ``dim`` from its values at
    uniform steps (``spacing``: a number, one per dim) or at coordinates (one 1-D tensor per
    dim): second-order central differences inside, ``edge_order`` one-sided ones at the ends.
    Differentiable in ``input`` (a linear combination of its slices)."""
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    dims = list(range(input.ndim)) if dim is None else (
        [dim] if isinstance(dim, int) else list(dim))
    dims = [_wrap_dim(d, input.ndim, "gradient") for d in dims]
    steps = list(spacing) if isinstance(spacing, (list, tuple)) else [spacing] * len(dims)
    if len(steps) != len(dims):
        raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar or "
                           f"it's spacing and dim arguments to have the same length, but got "
                           f"a spacing argument of length {len(steps)} and a dim argument of "
                           f"length {len(dims)}.")
    x = input if input.dtype.kind == "f" else input.to(dtypes.default_float())
    return tuple(_gradient_along(x, d, h, edge_order) for d, h in zip(dims, steps,
                                                                        strict=True))


def _gradient_along(x, d, h, edge_order):
    n = x.shape[d]
    if n < edge_order + 1:
        raise RuntimeError("torch.gradient expected each dimension size to be at least "
                           "edge_order+1")
    c = (np.asarray(h._data, np.float64) if isinstance(h, Tensor)
         else np.arange(n, dtype=np.float64) * float(h))
    dx = np.diff(c)
    hl, hr = dx[:-1], dx[1:]  # the steps left and right of each interior point

    def coef(values):
        shape = [1] * x.ndim
        shape[d] = -1
        return Tensor(np.asarray(values, np.float64).astype(x.dtype).reshape(shape))

    def part(start, length):
        return x.narrow(d, start, length)

    pieces = []
    if edge_order == 1:
        first = (part(1, 1) - part(0, 1)) / float(dx[0])
        last = (part(n - 1, 1) - part(n - 2, 1)) / float(dx[-1])
    else:
        a, b = dx[0], dx[1]
        first = (part(0, 1) * float(-(2 * a + b) / (a * (a + b))) +
                 part(1, 1) * float((a + b) / (a * b)) + part(2, 1) * float(-a / (b * (a + b))))
        a, b = dx[-2], dx[-1]
        last = (part(n - 3, 1) * float(b / (a * (a + b))) +
                part(n - 2, 1) * float(-(a + b) / (a * b)) +
                part(n - 1, 1) * float((2 * b + a) / (b * (a + b))))
    pieces.append(first)
    if n > 2:
        pieces.append(part(0, n - 2) * coef(-hr / (hl * (hl + hr))) +
                      part(1, n - 2) * coef((hr - hl) / (hl * hr)) +
                      part(2, n - 2) * coef(hl / (hr * (hl + hr))))
    pieces.append(last)
    return sh.cat(pieces, d)


FUNCTIONS.update({f.__name__: f for f in (
    set_default_tensor_type, set_warn_always, is_warn_always_enabled, set_flush_denormal,
    is_vulkan_available, empty_strided, empty_permuted, binomial, normal, bernoulli, poisson,
    nonzero_static,
    frobenius_norm, nuclear_norm, convolution, gradient)})
FUNCTIONS.update({
    "dropout_": _inplace_dropout(F.dropout), "alpha_dropout_": _inplace_dropout(F.alpha_dropout),
    "feature_alpha_dropout_": _inplace_dropout(F.feature_alpha_dropout),
    "feature_dropout_": _inplace_dropout(F.dropout2d),
    "adjoint": lambda input: input.mT, "get_device": get_device,
    "is_distributed": lambda input: False,
})
for _name in ("addmv_", "as_strided_", "conj_physical_"):
    FUNCTIONS[_name] = methods._inplace_function(_name)
Tensor.nonzero_static = nonzero_static
Tensor.is_nonzero = methods.is_nonzero
Tensor.is_distributed = lambda self: False  # (one process: no tensor is distributed)
Tensor.as_strided_ = inplace_more._reshaping(Tensor.as_strided, "as_strided_")


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A 1-D tensor sharing the memory of a Python buffer (bytes, bytearray, array...),
    as ``torch.frombuffer`` (NumPy reads it)."""
    t = creation.from_numpy(np.frombuffer(buffer, np.dtype(dtype), count, offset))
    return t.requires_grad_(True) if requires_grad else t


FUNCTIONS["frombuffer"] = frombuffer
Tensor.cholesky_inverse = cholesky_inverse


def _dim_order(self, *, ambiguity_check=False):
    """The dims from outermost to innermost in memory, as PyTorch orders them: a contiguous
    tensor's in order; else sorted by stride from the innermost (an insertion sort that
    leaves a zero stride, or an equal stride on a dim no longer than the other, in place)."""
    nd = self.ndim
    if nd <= 1 or self.is_contiguous():
        return tuple(range(nd))
    stride, shape = self.stride(), self.shape

    def inner_first(a, b):  # 1: dim a lies inside dim b, -1: outside, 0: either
        if stride[a] == 0 or stride[b] == 0 or (stride[a] == stride[b] and
                                                 shape[b] >= shape[a]):
            return 0
        return 1 if stride[a] >= stride[b] else -1

    order = list(range(nd))[::-1]  # (innermost first while sorting)
    for i in range(1, nd):
        j = i
        for k in range(i - 1, -1, -1):
            c = inner_first(order[k], order[j])
            if c < 0:
                break
            if c > 0:
                order[k], order[j] = order[j], order[k]
                j = k
    return tuple(order[::-1])


def _is_set_to(self, tensor):
    """True when both read the same memory the same way (start, sizes and strides)."""
    return (self.data_ptr() == tensor.data_ptr() and self.shape == tensor.shape and
            self.stride() == tensor.stride() and self.dtype == tensor.dtype)


Tensor.dim_order = _dim_order
Tensor.is_set_to = _is_set_to


def _conj_physical_(self):
    """Self (a real tensor is its own conjugate), refused where any in-place op is."""
    inplace._check_leaf(self)
    return self


Tensor.conj_physical_ = _conj_physical_


def _augmented(method):
    """``x op= y`` in place (``x **= 2`` is ``x.pow_(2)``), as PyTorch's: without it Python
    would rebind x to a new tensor, leaving x's other names and views unchanged."""
    def dunder(self, other):
        if not isinstance(other, (Tensor, int, float, bool, np.ndarray, np.generic)):
            return NotImplemented
        return getattr(self, method)(other)
    dunder.__name__ = f"__i{method}__"
    return dunder


def _reversed(self):
    """``reversed(t)``: ``t.flip(0)`` (a 0-d tensor itself), as PyTorch's."""
    return self if self.ndim == 0 else self.flip(0)


def _delitem(self, key):
    raise TypeError("Tensor does not support deleting items")


Tensor.__ipow__, Tensor.__imod__ = _augmented("pow_"), _augmented("remainder_")
Tensor.__ifloordiv__, Tensor.__idiv__ = _augmented("floor_divide_"), _augmented("div_")
Tensor.__div__, Tensor.__rdiv__ = Tensor.__truediv__, Tensor.__rtruediv__  # (Python 2's)
Tensor.__nonzero__, Tensor.__long__ = Tensor.__bool__, Tensor.__int__
Tensor.__reversed__, Tensor.__delitem__ = _reversed, _delitem


# ---- what tapegrad does not support, and why: ``tapegrad.X`` and ``tensor.X`` for these
# raise an AttributeError that says so (``__getattr__`` below), instead of a bare "has no
# attribute".  One table; nothing here pretends to work. -----------------------------------
_COMPLEX = ("complex32 (complex64 and complex128 tensors "
            "take arithmetic, elementary functions, reductions, matmul, shape ops and "
            "tapegrad.fft; docs/limits.md)")
_SPARSE = ("sparse layouts (every tensor is dense; tapegrad.sparse finds sparse Jacobians and "
           "Hessians, it has no sparse tensors)")
_QUANT = "quantized tensors (values are float or integer arrays, never quantized)"
_STORAGE = ("storage objects (a tensor's values are a NumPy array, not a torch Storage; use "
            "t.numpy() or t.detach() to share them)")
_DEVICE = "devices other than the CPU (tapegrad computes on the CPU only)"
_KERNELS = "PyTorch's backend kernels (cuDNN, MIOpen, MKL-DNN, FBGEMM); call the public op"
_SCRIPT = "TorchScript (compile with tapegrad.compile or tapegrad.trace instead)"
_AUTOCAST = ("autocast (mixed precision): tapegrad computes in each tensor's dtype; cast "
             "with .to(dtype) where you want lower precision")
_TABLE = {
    _COMPLEX: "view_as_complex_copy view_as_real_copy",
    _SPARSE: "smm hsmm dsmm saddmm spmm hspmm sspaddmm coalesce is_coalesced indices values "
             "crow_indices col_indices ccol_indices row_indices sparse_mask "
             "sparse_resize_ sparse_resize_and_clear_ resize_as_sparse_ ccol_indices_copy "
             "col_indices_copy crow_indices_copy row_indices_copy indices_copy values_copy",
    _QUANT: "quantize_per_tensor quantize_per_channel quantize_per_tensor_dynamic dequantize "
            "int_repr q_scale q_zero_point q_per_channel_scales q_per_channel_zero_points "
            "q_per_channel_axis qscheme fake_quantize_per_tensor_affine "
            "fake_quantize_per_channel_affine quantized_batch_norm quantized_max_pool1d "
            "quantized_max_pool2d quantized_max_pool3d quantized_lstm quantized_gru "
            "quantized_lstm_cell quantized_gru_cell quantized_rnn_relu_cell "
            "quantized_rnn_tanh_cell empty_quantized qint8 quint8 qint32 "
            "choose_qparams_optimized fused_moving_avg_obs_fake_quant per_tensor_affine "
            "per_channel_affine per_channel_affine_float_qparams per_tensor_symmetric "
            "per_channel_symmetric",
    _STORAGE: "set_ from_file Storage StorageBase BFloat16Storage QInt32Storage "
              "QInt8Storage QUInt2x4Storage QUInt4x2Storage QUInt8Storage",
    "shared memory between processes (tensors live in one process's NumPy arrays)":
        "share_memory_",
    "output_nr (graph views do not number a node's outputs per tensor)": "output_nr",
    _DEVICE: "xpu ipu mtia record_stream Stream Event get_device_module",
    _KERNELS: "cudnn_batch_norm cudnn_convolution cudnn_convolution_transpose "
              "cudnn_convolution_relu cudnn_convolution_add_relu cudnn_grid_sampler "
              "cudnn_affine_grid_generator cudnn_is_acceptable miopen_batch_norm "
              "miopen_convolution miopen_convolution_transpose miopen_depthwise_convolution "
              "miopen_rnn miopen_ctc_loss mkldnn_convolution mkldnn_adaptive_avg_pool2d "
              "mkldnn_max_pool2d mkldnn_max_pool3d mkldnn_linear_backward_weights "
              "mkldnn_rnn_layer to_mkldnn fbgemm_linear_fp16_weight fbgemm_linear_int8_weight "
              "fbgemm_pack_gemm_matrix_fp16 fbgemm_pack_quantized_matrix "
              "fbgemm_linear_fp16_weight_fp32_activation "
              "fbgemm_linear_int8_weight_fp32_activation miopen_convolution_relu "
              "miopen_convolution_add_relu batch_norm_gather_stats_with_counts "
              "fbgemm_linear_quantize_weight native_batch_norm native_layer_norm "
              "native_group_norm native_dropout native_norm batch_norm_stats "
              "batch_norm_elemt batch_norm_gather_stats batch_norm_backward_elemt "
              "batch_norm_backward_reduce batch_norm_update_stats",
    _SCRIPT: "fork wait import_ir_module import_ir_module_from_buffer parse_ir parse_schema "
             "parse_type_comment merge_type_from_type_comment unify_type_list "
             "AliasDb AnyType Argument ArgumentSpec AwaitType Block BoolType CallStack Capsule "
             "ClassType Code CompilationUnit CompleteArgumentSpec ComplexType "
             "ConcreteModuleType ConcreteModuleTypeBuilder DeviceObjType DictType EnumType "
             "ErrorReport ExecutionPlan FileCheck FloatType FunctionSchema Future FutureType "
             "Gradient Graph GraphExecutorState IODescriptor InferredType IntType "
             "InterfaceType JITException ListType LiteScriptModule NoneType NumberType "
             "OptionalType PyObjectType RRefType ScriptClass ScriptClassFunction ScriptDict "
             "ScriptDictIterator ScriptDictKeyIterator ScriptFunction ScriptList "
             "ScriptListIterator ScriptMethod ScriptModule ScriptModuleSerializer ScriptObject "
             "ScriptObjectProperty StaticModule StreamObjType StringType SymBoolType "
             "SymIntType TensorType TracingState TupleType Type UnionType Use Value "
             "ModuleDict ParameterDict BufferDict Node",
    _AUTOCAST: "is_autocast_cpu_enabled set_autocast_enabled "
               "get_autocast_dtype get_autocast_cpu_dtype set_autocast_cpu_enabled "
               "autocast_decrement_nesting autocast_increment_nesting clear_autocast_cache "
               "get_autocast_gpu_dtype get_autocast_ipu_dtype get_autocast_xla_dtype "
               "is_autocast_cache_enabled is_autocast_ipu_enabled is_autocast_xla_enabled "
               "set_autocast_cache_enabled set_autocast_cpu_dtype set_autocast_dtype "
               "set_autocast_gpu_dtype set_autocast_ipu_dtype set_autocast_ipu_enabled "
               "set_autocast_xla_dtype set_autocast_xla_enabled",
    "nested tensors": "to_padded_tensor",
    "PyTorch's C++ dispatcher, logging and benchmark internals (no C++ core here)":
        "AggregationType AVG SUM DispatchKey DispatchKeySet ExcludeDispatchKeyGuard Tag "
        "OperatorInfo PRIVATE_OPS DeepCopyMemoTable DisableTorchFunction "
        "DisableTorchFunctionSubclass FatalError LockingLogger LoggerBase NoopLogger "
        "PyTorchFileReader PyTorchFileWriter SerializationStorageContext "
        "DeserializationStorageContext ThroughputBenchmark BenchmarkConfig "
        "BenchmarkExecutionStats",
    "map2_ (apply_ and map_ are there; write the function with tensor ops)": "map2_",
    "grid sampling (affine_grid / grid_sample are not implemented)":
        "grid_sampler grid_sampler_2d grid_sampler_3d affine_grid_generator",
    "quantization (values are float or integer arrays, never quantized)": "ao quantization",
    "dtypes NumPy lacks (sub-byte and packed ones)":
        "uint1 uint2 uint3 uint4 uint5 uint6 uint7 int1 int2 int3 int4 int5 int6 int7 "
        "float4_e2m1fn_x2 bits8 bits16 bits1x8 bits2x4 bits4x2 quint4x2 quint2x4 bit",
    "bfloat16 (NumPy has no bfloat16)": "BFloat16Tensor",
    "Tensor attributes PyTorch has removed (Variable's volatile and reinforce)":
        "volatile reinforce",
}
UNSUPPORTED = {name: reason for reason, names in _TABLE.items() for name in names.split()}


# ---- refused when called: names a script may mention or pass around without using --------
# (``torch.bfloat16`` is tapegrad.dtypes.REFUSED's; a tensor made of it raises the same way)
def _refusing(name, reason):
    def refused(*args, **kwargs):
        raise NotImplementedError(f"{name}: tapegrad does not support {reason}")
    refused.__name__ = refused.__qualname__ = name
    refused.__doc__ = f"Raises NotImplementedError: tapegrad does not support {reason}."
    return refused


_SPARSE_BUILDERS = ("sparse_coo_tensor sparse_csr_tensor sparse_csc_tensor sparse_bsr_tensor "
                    "sparse_bsc_tensor sparse_compressed_tensor").split()
FUNCTIONS.update({n: _refusing(n, _SPARSE) for n in _SPARSE_BUILDERS})
for _name in ("to_sparse", "to_sparse_coo", "to_sparse_csr", "to_sparse_csc", "to_sparse_bsr",
              "to_sparse_bsc"):
    setattr(Tensor, _name, _refusing(_name, _SPARSE))
Tensor.bfloat16 = lambda self, memory_format=None: self.to(dtypes.REFUSED["bfloat16"])
Tensor.chalf = lambda self, memory_format=None: self.to(dtypes.REFUSED["chalf"])
FUNCTIONS.update(dtypes.REFUSED)


def _unsupported(owner, name):
    reason = UNSUPPORTED.get(name)
    if reason is None:
        return AttributeError(f"{owner} has no attribute '{name}'")
    return AttributeError(f"{owner} has no attribute '{name}': tapegrad does not support "
                          f"{reason}")


def module_getattr(name):
    """``tapegrad.X`` for a name the module lacks (PEP 562)."""
    raise _unsupported("module 'tapegrad'", name)


# the same for names of PyTorch's submodules: ``tapegrad.nn.quantized`` raises saying why
_QUANTIZATION = "quantization (values are float or integer arrays, never quantized)"
_SUBMODULES = {
    nn: {_QUANTIZATION: "quantized qat intrinsic quantizable"},
    F: {"float8 and grouped matmul kernels (scaled_mm, grouped_mm); use matmul":
        "scaled_mm scaled_grouped_mm grouped_mm ScalingType SwizzleType"},
    _data: {"DataPipes (deprecated by PyTorch, now torchdata's); use Dataset and DataLoader":
            "IterDataPipe MapDataPipe DFIterDataPipe DataChunk datapipes functional_datapipe "
            "guaranteed_datapipes_determinism non_deterministic runtime_validation "
            "runtime_validation_disabled argument_validation"},
    testing: {_SCRIPT: "FileCheck"},
}


def _submodule_getattr(module, table):
    reasons = {name: reason for reason, names in table.items() for name in names.split()}
    owner = f"module '{module.__name__}'"

    def getattr_(name):
        if name in reasons:
            raise AttributeError(f"{owner} has no attribute '{name}': tapegrad does not "
                                 f"support {reasons[name]}")
        raise AttributeError(f"{owner} has no attribute '{name}'")
    return getattr_


for _module, _table in _SUBMODULES.items():
    _module.__getattr__ = _submodule_getattr(_module, _table)


class _Refused:
    """A Tensor attribute tapegrad refuses: reading it (on a tensor or on the class) raises
    the AttributeError that says why, so ``hasattr`` is False.  Descriptors, not a
    ``Tensor.__getattr__``: a class with ``__getattr__`` pays a slower lookup on every
    attribute access (measured: +30% on ``y = x * 2; y.add_(1)``)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __get__(self, obj, cls=None):
        raise _unsupported("'Tensor' object" if obj is not None else "type object 'Tensor'",
                           self.name)


for _name in UNSUPPORTED:
    if not hasattr(Tensor, _name):  # (a name some module binds is never shadowed)
        setattr(Tensor, _name, _Refused(_name))
