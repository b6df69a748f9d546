"""Tensor creation, with PyTorch's names and float64 as the default float dtype."""
import functools
import math
import operator
import sys
import warnings

import numpy as np

from . import dtypes
from ._errors import with_note
from ._fp import call, fma
from .arena import escape
from .device import check as _device
from ._state import state
from .tensor import COMPLEX_HOOKS, TRACE_HOOKS, ComplexData, Tensor, _leaf, check_bool, norm

_rng = np.random.default_rng()


def _with_grad(t, requires_grad):
    """t, made to require grad if asked (a factory's wording of PyTorch's error)."""
    if not requires_grad:
        return t
    t._check_can_require(True, "Only Tensors of floating point and complex dtype")
    return t.requires_grad_(True)


def _make(data, dtype, requires_grad, op=None):
    check_bool(requires_grad, op or sys._getframe(1).f_code.co_name, "requires_grad")
    # data is the caller's new array: held as it is (Tensor() copied it, writing every page
    # of zeros(n, m) a second time)
    data = norm(np.asarray(data, dtype=dtype) if dtype is None or data.dtype == dtype else
                call(np.asarray, data, dtype))  # (a cast beyond float16's range: inf, quietly)
    if type(data) is not float and data.dtype.kind == "c":  # dtype=torch.cfloat
        return COMPLEX_HOOKS["make"](data, None, requires_grad)  # (tapegrad/_complex.py)
    return _with_grad(_leaf(data), requires_grad)


def _shape(size, op=None):
    """A shape from ``*size`` or one sequence, as PyTorch takes it: ints (NumPy ints and
    one-element integer tensors too), never floats, bools or strings, none negative."""
    op = op or sys._getframe(1).f_code.co_name
    one = len(size) == 1
    if one and isinstance(size[0], (tuple, list)):
        size = size[0]
        one = False
    out = []
    for i, s in enumerate(size):
        try:
            if isinstance(s, (bool, np.bool_)):
                raise TypeError
            out.append(operator.index(s))
        except TypeError:
            what = type(s).__name__
            if one:
                raise TypeError(f"{op}(): argument 'size' (position 1) must be tuple of ints, "
                                f"not {what}") from None
            raise TypeError(f"{op}(): argument 'size' failed to unpack the object at pos "
                            f"{i + 1} with error \"type must be tuple of ints,but got {what}\""
                            ) from None
    if any(n < 0 for n in out):
        if op == "zeros":  # (PyTorch's two wordings)
            raise with_note(RuntimeError("zeros: Dimension size must be non-negative."),
                            f"zeros: got size {tuple(out)}")
        raise with_note(RuntimeError(f"Trying to create tensor with negative dimension "
                                     f"{next(n for n in out if n < 0)}: {out}"), op)
    return tuple(out)


def _float(dtype):
    return dtypes.to_dtype(dtype) or dtypes.default_float()


COPY_CONSTRUCT = (  # PyTorch's words
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
    "or sourceTensor.detach().clone().requires_grad_(True), rather than "
    "torch.tensor(sourceTensor).")


def tensor(data, dtype=None, device=None, requires_grad=False):
    """A new leaf tensor holding a copy of ``data``.

    >>> tensor([1.0, 2.0])
    tensor([1., 2.])
    """
    _device(device, "tensor")
    if isinstance(data, Tensor):
        warnings.warn(COPY_CONSTRUCT, UserWarning, stacklevel=2)
        if type(data) is COMPLEX_HOOKS["type"]:
            z = data.detach().clone() if dtype is None else data.detach().to(dtype).clone()
            return z.requires_grad_(True) if requires_grad else z
        if data._rg and state.tracing is not None:  # its recorded stop-gradient copy
            d = TRACE_HOOKS["detach"](data, alias=False)
            if d is not None:
                return _traced_copy(d, dtype, requires_grad)
        data = data.detach()
    check_bool(requires_grad, "tensor", "requires_grad")
    _positive_strides(data)
    try:
        t = Tensor(data, dtype=dtype)
    except ComplexData as e:  # complex numbers or dtype=torch.cfloat (tapegrad/_complex.py)
        return COMPLEX_HOOKS["make"](e.args[0], None, requires_grad)
    if isinstance(data, np.ndarray) or isinstance(data, Tensor):
        t._data = norm(np.array(t._data, copy=True))
    return _with_grad(t, requires_grad)


def _traced_copy(d, dtype, requires_grad):
    """tensor(t) of a traced t while tapegrad.trace records: ``d``, t's detach (a STOP_GRAD
    row), replays at every point; a new leaf of f's values cannot (it would be a constant)."""
    if requires_grad:
        raise RuntimeError(
            "tapegrad.trace: tensor(t, requires_grad=True) of a traced tensor makes a new leaf "
            "from values that depend on f's inputs, which replay cannot follow (a leaf is a "
            "constant of f). Use t (the gradient flows to f's inputs) or tensor(t) / "
            "t.detach() (no gradient) instead.")
    return d if dtype is None or dtypes.to_dtype(dtype) == d.dtype else d.to(dtype)


def as_tensor(data, dtype=None, device=None):
    """A tensor sharing ``data``'s memory where it can (a C-contiguous ndarray of the
    requested dtype, not 0-d float64, which tapegrad holds as a Python float)."""
    _device(device, "as_tensor")
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(dtype)
    _positive_strides(data)
    if isinstance(data, np.ndarray) and data.dtype.kind == "c" or dtype is not None and \
            np.dtype(dtype).kind == "c":
        return tensor(data, dtype=dtype)  # (a copy: tapegrad holds a complex tensor's parts)
    if isinstance(data, np.ndarray) and data.ndim and data.flags.c_contiguous and (
            dtype is None or np.dtype(dtype) == data.dtype):
        return _leaf(escape(data))  # the caller holds the memory (Tape.adopt)
    return Tensor(data, dtype=dtype)


def from_numpy(ndarray):
    """A tensor sharing ``ndarray``'s memory (a non-contiguous array is copied first)."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    return as_tensor(ndarray)


def _positive_strides(data):
    """Refuse a NumPy array with a negative stride (``a[::-1]``), as PyTorch's tensor,
    as_tensor, asarray and from_numpy do, in its words."""
    if isinstance(data, np.ndarray) and any(s < 0 for s in data.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and "
                         "tensors with negative strides are not currently supported. (You "
                         "can probably work around this by making a copy of your array  with "
                         "array.copy().) ")


def zeros(*size, dtype=None, device=None, requires_grad=False, **kwargs):
    _device(device, "zeros")
    return _make(np.zeros(_size(size, kwargs, "zeros")), _float(dtype), requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False, **kwargs):
    _device(device, "ones")
    return _make(np.ones(_size(size, kwargs, "ones")), _float(dtype), requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    _device(device, "full")
    if isinstance(fill_value, Tensor) and fill_value.numel() == 1 and fill_value.ndim == 0:
        fill_value = fill_value.item()
    if not isinstance(fill_value, (bool, int, float, complex, np.number, np.bool_)):
        raise TypeError(f"full(): argument 'fill_value' (position 2) must be Number, not "
                        f"{type(fill_value).__name__}")
    if dtype is None:
        dtype = dtypes.result_type((np.asarray(fill_value).dtype, None))
    dtypes.check_fits(fill_value, dtypes.to_dtype(dtype))
    return _make(np.full(_shape((size,)), fill_value), dtypes.to_dtype(dtype), requires_grad)


def _like(input, op):
    if not isinstance(input, Tensor):
        raise TypeError(f"{op}(): argument 'input' (position 1) must be Tensor, not "
                        f"{type(input).__name__}")
    return input.shape


def zeros_like(input, dtype=None, device=None, requires_grad=False):
    _device(device, "zeros_like")
    shape = _like(input, "zeros_like")
    return _make(np.zeros(shape), dtypes.to_dtype(dtype) or input.dtype, requires_grad)


def ones_like(input, dtype=None, device=None, requires_grad=False):
    _device(device, "ones_like")
    shape = _like(input, "ones_like")
    return _make(np.ones(shape), dtypes.to_dtype(dtype) or input.dtype, requires_grad)


def full_like(input, fill_value, dtype=None, device=None, requires_grad=False):
    _device(device, "full_like")
    shape = _like(input, "full_like")
    dtypes.check_fits(fill_value, dtypes.to_dtype(dtype) or input.dtype)
    return _make(np.full(shape, fill_value), dtypes.to_dtype(dtype) or input.dtype,
                 requires_grad)


def _number(v, op, name):
    """A Python number from ``v`` (a one-element Tensor too), before NumPy sees it: NumPy
    would do its arithmetic through the Tensor's operators, recording rows."""
    if isinstance(v, Tensor):
        if v.numel() != 1:
            raise RuntimeError(f"{op}(): '{name}' must be a number or a one-element tensor, "
                               f"got shape {tuple(v.shape)}")
        return v.item()
    if not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(f"{op}(): argument '{name}' must be Number, not {type(v).__name__}")
    return v


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    _device(device, "arange")
    if end is None:
        start, end = 0, start
    start, end, step = (_number(v, "arange", k) for v, k in
                        ((start, "start"), (end, "end"), (step, "step")))
    if not (math.isfinite(start) and math.isfinite(end)):  # (PyTorch's checks and words)
        raise RuntimeError(f"unsupported range: {start:g} -> {end:g}")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (step > 0 and end >= start or step < 0 and end <= start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    data = _integer_range(start, end, step, dtypes.to_dtype(dtype)) if dtype is not None \
        and np.dtype(dtypes.to_dtype(dtype)).kind in "iub" else np.arange(start, end, step)
    dt = dtypes.to_dtype(dtype) or (
        dtypes.default_float() if data.dtype.kind == "f" else dtypes.int64)
    return _make(data, dt, requires_grad)


def _integer_range(start, end, step, dtype):
    """PyTorch's integer arange: the values are ``int(start) + i * int(step)``; int64
    counts them from the truncated bounds and step, the other integer dtypes from the
    bounds as given (arange(5.5) holds 5 longs but 6 int32s)."""
    if np.dtype(dtype).kind == "b":
        raise NotImplementedError('"arange_cpu" not implemented for \'Bool\'')
    first, stride = int(start), int(step)
    if np.dtype(dtype) == np.int64:
        if stride == 0:  # (a step below 1 in magnitude; PyTorch's type)
            raise ValueError("step must be nonzero")
        return np.arange(first, int(end), stride)
    return first + np.arange(max(math.ceil((end - start) / step), 0)) * stride


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
    _device(device, "linspace")
    start, end = _number(start, "linspace", "start"), _number(end, "linspace", "end")
    dtype = _float(dtype)
    return _make(_linspace(start, end, steps, dtype), dtype, requires_grad)


def _linspace(start, end, steps, dtype=np.float64):
    """PyTorch's points: ``start + step * i`` below the middle, ``end - step * (steps - 1 -
    i)`` from it, each one multiply-add (NumPy's ``start + step * i`` all the way rounds
    differently in about one point of four)."""
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)):
        raise TypeError(f"linspace(): argument 'steps' must be int, not "
                        f"{type(steps).__name__}")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if np.dtype(dtype).kind in "iu":  # (PyTorch: the ends in the integer dtype first)
        start, end = int(start), int(end)
    if steps <= 1:
        return np.full(steps, float(start))
    step = (float(end) - float(start)) / (steps - 1)
    i = np.arange(steps, dtype=np.float64)
    if np.dtype(dtype) == np.float32:  # PyTorch's arithmetic in float32 (the fma exact in
        start, end = np.float32(start), np.float32(end)  # float64, then rounded)
        step = float((end - start) / np.float32(steps - 1))
    return np.where(i < steps // 2, fma(step, i, start), fma(-step, steps - 1 - i, end))


def eye(n, m=None, dtype=None, device=None, requires_grad=False):
    _device(device, "eye")
    for name, v in (("n", n), ("m", m)):
        if v is not None and v < 0:  # (PyTorch's words, not NumPy's ValueError)
            raise RuntimeError(f"{name} must be greater or equal to 0, got {v}")
    return _make(np.eye(n, m), _float(dtype), requires_grad)


# ---- random numbers: NumPy's PCG64 streams (the numbers differ from PyTorch's, the
# shapes, dtypes, ranges and the effect of seeding do not) ------------------------------
class Generator:
    """A random number generator (``torch.Generator``), for ``generator=`` arguments.

    >>> g = Generator().manual_seed(0)
    >>> rand(2, generator=g).shape
    torch.Size([2])
    """

    def __init__(self, device="cpu"):
        _device(device, "Generator")
        self._bits = np.random.default_rng()
        self.manual_seed(_FRESH_SEED)  # PyTorch's: a new Generator's stream is always the same

    def seed(self):
        """Seed from fresh OS entropy; returns the seed (an int)."""
        return self.manual_seed(int(np.random.SeedSequence().entropy % (2 ** 63)))._seed

    def manual_seed(self, seed):
        # in place (default_rng(seed)'s state): _rng (below) stays this generator, so
        # default_generator.manual_seed(s) seeds what rand draws from, as manual_seed(s)
        if type(seed) is not int:  # (the top-level manual_seed takes int(seed) first)
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
        if not -2 ** 63 <= seed < 2 ** 64:  # (PyTorch's range, and its words)
            raise ValueError("Overflow when unpacking long long")
        seed %= 2 ** 64  # (a negative seed is its 64-bit two's complement, as PyTorch's)
        self._put(np.random.PCG64(seed).state)
        self._seed = seed
        return self

    def _put(self, new):
        """Set the NumPy generator's state (seeding, ``set_state``).  While f is traced, the
        default generator set to another state than its own counts as a draw (``DRAWS``): f
        drawing, then putting back the state it saved (``get_rng_state`` ...
        ``set_rng_state``, ``fork_rng``), left it where the trace's comparison looks, and
        replay froze draws that f, called eagerly, makes anew from the caller's state."""
        if state.tracing is not None and self is _DEFAULT and \
                new != self._bits.bit_generator.state:
            DRAWS[0] += 1
        self._bits.bit_generator.state = new

    def _restore(self, st):  # (a failed trace putting back what f drew)
        self._bits.bit_generator.state = st

    def initial_seed(self):
        return self._seed

    def get_state(self):
        """The generator's state as a uint8 tensor, for ``set_state`` (the bytes are
        NumPy's PCG64 state, not PyTorch's)."""
        st = self._bits.bit_generator.state
        words = (st["state"]["state"], st["state"]["inc"], st["has_uint32"], st["uinteger"],
                 self._seed)
        raw = b"".join(int(w).to_bytes(n, "little") for w, n in zip(words, _STATE_BYTES))
        return _make(np.frombuffer(raw, np.uint8).copy(), dtypes.uint8, False)

    def set_state(self, new_state):
        """Restore a state from ``get_state``; returns self."""
        raw = np.asarray(new_state._data if isinstance(new_state, Tensor) else new_state)
        if raw.dtype != np.uint8 or raw.shape != (sum(_STATE_BYTES),):
            raise RuntimeError(f"set_state: expected a ByteTensor of {sum(_STATE_BYTES)} "
                               f"bytes from get_state(), got dtype {raw.dtype}, shape "
                               f"{list(raw.shape)}")
        raw, words, at = raw.tobytes(), [], 0
        for n in _STATE_BYTES:
            words.append(int.from_bytes(raw[at:at + n], "little"))
            at += n
        self._put({  # in place: _rng (below) stays this generator
            "bit_generator": "PCG64", "state": {"state": words[0], "inc": words[1]},
            "has_uint32": words[2], "uinteger": words[3]})
        self._seed = words[4]
        return self

    @property
    def _np(self):
        """The NumPy generator drawn from (``generator=`` arguments, nn.init): each use is
        counted (``DRAWS``), so that ``tapegrad.trace`` sees draws from a generator of the
        caller's, whose state its comparison of the global ones does not cover.  While a
        trace records, its state before the first draw is noted, for the trace to put back
        if it fails (replay/__init__.py ``_put_back_draws``)."""
        DRAWS[0] += 1
        if state.tracing is not None:
            state.tracing.__dict__.setdefault("drawn", {}).setdefault(
                id(self), (self, self._bits.bit_generator.state))
        return self._bits

    @property
    def device(self):
        return _device(None, "Generator")


DRAWS = [0]  # uses of any Generator's NumPy generator (Generator._np)
_FRESH_SEED = 67280421310721  # a new torch.Generator()'s initial_seed()


# PCG64: state, increment, has_uint32, the cached uint32; then the seed (PyTorch's state
# holds it too: set_state brings back initial_seed())
_STATE_BYTES = (16, 16, 4, 4, 8)
_DEFAULT = Generator()
_DEFAULT.seed()  # the default stream alone starts from entropy, as PyTorch's
_rng = _DEFAULT._bits  # what nn's initialisers and dropout draw from (module attribute)


def manual_seed(seed):
    """Seed the default generator (rand, randn, randint, dropout, nn initialisers...);
    returns it, as PyTorch does."""
    global _rng
    _rng = _DEFAULT.manual_seed(int(seed))._bits
    return _DEFAULT


def _gen(generator):
    return _rng if generator is None else generator._np


def _size(size, kwargs, op, ignored=()):
    """``*size`` or ``size=`` (PyTorch takes both); keywords in ``ignored`` (memory and
    layout hints that change nothing here) are dropped, any other is refused."""
    kwargs = {k: v for k, v in kwargs.items() if k not in ignored}
    if "size" in kwargs:
        if size:
            raise TypeError(f"{op}() got multiple values for argument 'size'")
        size = (kwargs.pop("size"),)
    if kwargs:
        raise TypeError(f"{op}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    return _shape(size, op)


def _complex_sample(draw, shape, scale=1.0):
    """Random values for a complex dtype: the real and imaginary parts drawn apart, each
    times ``scale`` (PyTorch's complex randn: variance 1/2 each, 1 in all)."""
    return (draw(shape) + 1j * draw(shape)) * scale


def _sampled(dtype, kernel):
    """``dtype`` (the default float if None), refused in PyTorch's words where it is not a
    floating or complex one (``rand(2, dtype=torch.long)``: its kernel has no integers)."""
    dt = _float(dtype)
    if dt.kind in "iub":
        word = dtypes.torch_word(dt)
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{word[0].upper() + word[1:]}'")
    return dt


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False, **kwargs):
    """Uniform on [0, 1) (for a complex dtype, each part)."""
    _device(device, "rand")
    shape, dt = _size(size, kwargs, "rand"), _sampled(dtype, "check_uniform_bounds")
    draw = _gen(generator).random
    return _make(draw(shape) if dt.kind != "c" else _complex_sample(draw, shape), dt,
                 requires_grad)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False, **kwargs):
    """Standard normal (for a complex dtype, variance 1/2 in each part)."""
    _device(device, "randn")
    shape, dt = _size(size, kwargs, "randn"), _sampled(dtype, "normal_kernel_cpu")
    draw = _gen(generator).standard_normal
    return _make(draw(shape) if dt.kind != "c" else _complex_sample(draw, shape, 0.5 ** 0.5),
                 dt, requires_grad)


def rand_like(input, dtype=None, device=None, requires_grad=False, **kwargs):
    _device(device, "rand_like")
    shape = _like(input, "rand_like")
    dt = _sampled(dtypes.to_dtype(dtype) or input.dtype, "check_uniform_bounds")
    return _make(_rng.random(shape) if dt.kind != "c" else _complex_sample(_rng.random, shape),
                 dt, requires_grad)


def randn_like(input, dtype=None, device=None, requires_grad=False, **kwargs):
    _device(device, "randn_like")
    shape = _like(input, "randn_like")
    dt = _sampled(dtypes.to_dtype(dtype) or input.dtype, "normal_kernel_cpu")
    return _make(_rng.standard_normal(shape) if dt.kind != "c" else
                 _complex_sample(_rng.standard_normal, shape, 0.5 ** 0.5), dt, requires_grad)


def randint(low, high=None, size=None, *, generator=None, dtype=None, device=None,
            requires_grad=False):
    """Integers uniform on [low, high) (``randint(high, size)`` takes low = 0), int64."""
    _device(device, "randint")
    if size is None:  # randint(high, size)
        if high is None:
            raise TypeError("randint() missing required argument 'size'")
        low, high, size = 0, low, high
    elif high is None:
        low, high = 0, low
    if requires_grad:
        raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                           "gradients")
    data = _gen(generator).integers(*_int_range(low, high), _shape((size,)))
    return _make(data, dtypes.to_dtype(dtype) or dtypes.int64, False)


def _int_range(low, high):
    """[low, high) as ints, refused as PyTorch's random_ refuses an empty range (also for
    an empty size)."""
    low, high = int(low), int(high)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} "
                           f">= to={high}")
    return low, high


def randperm(n, *, generator=None, dtype=None, device=None, requires_grad=False):
    """A random permutation of 0 .. n-1 (int64)."""
    _device(device, "randperm")
    return _make(_gen(generator).permutation(int(n)), dtypes.to_dtype(dtype) or dtypes.int64,
                 requires_grad)


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, device=None,
           requires_grad=False):
    """Normal samples: ``normal(mean, std, size)`` with numbers, or elementwise with tensor
    means and/or standard deviations (broadcast)."""
    _device(device, "normal")
    m = np.asarray(mean._data if isinstance(mean, Tensor) else mean, dtype=np.float64)
    s = np.asarray(std._data if isinstance(std, Tensor) else std, dtype=np.float64)
    if not isinstance(std, Tensor) and not std >= 0:  # (NumPy's ValueError: PyTorch's words)
        raise RuntimeError(f"normal expects std >= 0.0, but found std {float(std):g}")
    if isinstance(std, Tensor) and (s < 0).any():
        raise RuntimeError("normal expects all elements of std >= 0.0")
    shape = _shape((size,)) if size is not None else np.broadcast_shapes(m.shape, s.shape)
    like = mean if isinstance(mean, Tensor) else std if isinstance(std, Tensor) else None
    dt = dtypes.to_dtype(dtype) or (like.dtype if like is not None else dtypes.default_float())
    return _make(_gen(generator).normal(m, s, shape), dt, requires_grad)


def bernoulli(input, p=None, *, generator=None):
    """1.0 with probability ``input`` (or ``p``) at each element, else 0.0, in input's dtype."""
    probs = np.asarray(input._data if p is None else p, dtype=np.float64)
    if ((probs < 0) | (probs > 1)).any():
        raise RuntimeError("bernoulli: all elements of input must be in [0, 1]")
    draw = _gen(generator).random(tuple(input.shape)) < np.broadcast_to(probs, input.shape)
    return _make(draw, input.dtype, False)


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Indices drawn from each row of ``input`` (non-negative weights), int64."""
    w = np.asarray(input._data, dtype=np.float64)
    if w.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    rows = w.reshape(-1, w.shape[-1])
    if (rows < 0).any() or not np.isfinite(rows).all() or (rows.sum(1) <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    if not replacement and num_samples > rows.shape[1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    g = _gen(generator)
    if replacement:
        out = np.stack([g.choice(len(r), num_samples, p=r / r.sum()) for r in rows])
    else:  # weighted order by u ** (1 / w) (Efraimidis-Spirakis): zero weights come last,
        #    as in PyTorch, which draws them once the others are used up
        with np.errstate(divide="ignore"):
            keys = g.random(rows.shape) ** (1.0 / rows)
        out = np.argsort(-keys, axis=1, kind="stable")[:, :num_samples]
    return _make(out.reshape(*w.shape[:-1], num_samples), dtypes.int64, False)


def empty(*size, dtype=None, device=None, requires_grad=False, **kwargs):
    """A tensor of ``size`` whose values are to be overwritten (zeros here: uninitialised
    memory would make results depend on what the allocator left)."""
    _device(device, "empty")
    shape = _size(size, kwargs, "empty", ("memory_format", "pin_memory", "layout"))
    return _make(np.zeros(shape), _float(dtype), requires_grad)


def empty_like(input, dtype=None, device=None, requires_grad=False, **kwargs):
    """``empty`` in ``input``'s shape and dtype."""
    _device(device, "empty_like")
    shape = _like(input, "empty_like")
    return _make(np.zeros(shape), dtypes.to_dtype(dtype) or input.dtype, requires_grad)


# ---- seeds, more samplers, logspace (issue 22's miscellany) -----------------------------
def seed():
    """Seed the default generator from fresh OS entropy; returns the seed (an int)."""
    return _DEFAULT.seed()


def initial_seed():
    """The seed the default generator was last seeded with (``manual_seed`` or ``seed``);
    seeded from entropy at import, as PyTorch's, until then."""
    return _DEFAULT._seed


def get_rng_state():
    """The default generator's state (a uint8 tensor), for ``set_rng_state``."""
    return _DEFAULT.get_state()


def set_rng_state(new_state):
    """Restore the default generator's state from ``get_rng_state``."""
    _DEFAULT.set_state(new_state)


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The (row, column) indices of the lower triangle of a row x col matrix (a 2 x N
    int64 tensor), the diagonal moved by ``offset``."""
    _device(device, "tril_indices")
    return _make(_tri_indices(np.tril_indices, int(row), int(col), int(offset)),
                 dtypes.to_dtype(dtype) or dtypes.int64, False)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The (row, column) indices of the upper triangle of a row x col matrix."""
    _device(device, "triu_indices")
    return _make(_tri_indices(np.triu_indices, int(row), int(col), int(offset)),
                 dtypes.to_dtype(dtype) or dtypes.int64, False)


def _tri_indices(numpy_fn, row, col, offset):
    """NumPy's triangle indices as one read-only (2, N) array (``_make`` copies it); those
    of a small matrix are computed once (NumPy builds a row x col mask: ~15 us a call)."""
    for name, n in (("row", row), ("col", col)):
        if n < 0:
            raise RuntimeError(f"{name} must be non-negative, got{n}")  # (PyTorch's words)
    if row * col > 4096:
        return _tri_stack(numpy_fn, row, col, offset)
    return _tri_cached(numpy_fn, row, col, offset)


def _tri_stack(numpy_fn, row, col, offset):
    r, c = numpy_fn(row, offset, col)
    out = np.stack([r, c]).reshape(2, -1)
    out.setflags(write=False)
    return out


_tri_cached = functools.lru_cache(maxsize=64)(_tri_stack)


def randint_like(input, low=0, high=None, *, dtype=None, device=None, requires_grad=False):
    """Integers uniform on [low, high) in input's shape (``randint_like(x, high)``), in
    input's dtype unless ``dtype`` is given."""
    _device(device, "randint_like")
    if high is None:
        low, high = 0, low
    data = _rng.integers(*_int_range(low, high), _like(input, "randint_like"))
    return _make(data, dtypes.to_dtype(dtype) or input.dtype, requires_grad)


def poisson(input, generator=None):
    """Poisson samples with the rates ``input`` (>= 0), in input's dtype."""
    rates = np.asarray(input._data, np.float64)
    if (rates < 0).any() or np.isnan(rates).any():
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    return _make(_gen(generator).poisson(rates).astype(np.float64), input.dtype, False)


def logspace(start, end, steps, base=10.0, dtype=None, device=None, requires_grad=False):
    """``base ** linspace(start, end, steps)``."""
    _device(device, "logspace")
    start, end = _number(start, "logspace", "start"), _number(end, "logspace", "end")
    return _make(np.power(float(base), _linspace(start, end, steps)), _float(dtype),
                 requires_grad)
