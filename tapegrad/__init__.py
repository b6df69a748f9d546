"""tapegrad: PyTorch's autograd semantics on a flat Wengert tape swept by Numba.

>>> import tapegrad as tg
>>> x = tg.tensor(2.0, requires_grad=True)
>>> y = (x * x).sin()
>>> y.backward()
>>> round(float(x.grad), 6)
-2.614574
"""
from . import _malloc  # noqa: F401 (first: malloc's thresholds for every array after)
from . import (autograd, distributions, func, jit, linalg, nn, optim, random, testing, utils,
               version, viz)
from .autograd import grad
from .creation import (
    Generator, arange, as_tensor, bernoulli, empty, empty_like, eye, from_numpy, full, full_like,
    linspace, manual_seed, multinomial, normal, ones, ones_like, rand, rand_like, randint, randn,
    randn_like, randperm, tensor, zeros, zeros_like)
from .creation import initial_seed, logspace, poisson, randint_like, seed
from .creation import get_rng_state, set_rng_state, tril_indices, triu_indices
from .ops.out import factories as _factories
from .scatter_reduce import scatter_reduce
from ._format import get_printoptions, set_printoptions
from .func import vmap  # torch.vmap is torch.func.vmap
from .grad_mode import is_inference_mode_enabled
from . import amp
from .amp import autocast, cpu, is_autocast_available, is_autocast_enabled
from .threads import (
    get_num_interop_threads, get_num_threads, set_num_interop_threads, set_num_threads)
from .nn.distance import cosine_similarity, pairwise_distance, pdist
from .typeinfo import (
    can_cast, finfo, iinfo, is_floating_point, numel, promote_types, result_type)
from .device import (
    AcceleratorError, OutOfMemoryError, accelerator, backends, cuda, device, get_default_device,
    set_default_device)
from .dtypes import dtype, get_default_dtype, set_default_dtype
from .dtypes import PUBLIC as _DTYPES
from .grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from .ops import EXPORTS as _OPS
from .jit import trace_or_record as trace  # the matrix trace, or record a function
from .replay import DivergenceError, Traced, batch_grad, compile
from .serialization import load, save  # (load also reads traces, as jit.load)
from . import special
from . import return_types
from . import sparse  # sparse Jacobians and Hessians by replay (SciPy imported at first use)
from .special import TOP_LEVEL as _SPECIAL  # lgamma, digamma, erfinv... (special.py)
from .tensor import Size, Tensor
from .warmup import warmup
from .methods import FUNCTIONS as _FUNCTIONS  # (and binds Tensor.new_zeros, ...)
from math import e, inf, nan, pi  # noqa: E402 (PyTorch's constants)

globals().update(_DTYPES)  # float32, long... (tapegrad.dtype objects)
globals().update(_OPS)  # every op function declared with registry.api(export=True)
globals().update(_factories(globals()))  # zeros, arange, rand...: with out=
globals().update(linalg.TOP)  # det, inverse, cholesky, cross, kron, ... (tapegrad/linalg.py)
globals().update(_SPECIAL)
globals().update(_FUNCTIONS)
from .compat import FUNCTIONS as _COMPAT  # noqa: E402, I001 (binds tril_, lt_... to Tensor)
from .compat import module_getattr as __getattr__  # noqa: E402, F401 (refusals, with why)
globals().update(_COMPAT)
from .toplevel import FUNCTIONS as _TOPLEVEL  # noqa: E402 (lstm_cell, svd_lowrank, ...)
globals().update(_TOPLEVEL)
from .removed import FUNCTIONS as _REMOVED  # noqa: E402 (torch.solve's error, torch.lu)
from .symbolic import FUNCTIONS as _SYMBOLIC  # noqa: E402 (sym_int, SymInt, ...)
globals().update(_REMOVED)
globals().update(_SYMBOLIC)
from .utils.dlpack import from_dlpack, to_dlpack  # noqa: E402 (and Tensor.__dlpack__)
from .storage import FUNCTIONS as _STORAGE  # noqa: E402 (and Tensor.storage...)
globals().update(_STORAGE)
from .foreach import FUNCTIONS as _FOREACH  # noqa: E402 (torch._foreach_mul_ & co.)
globals().update(_FOREACH)
from . import subclass  # noqa: E402, F401 (Tensor.as_subclass)
from . import overrides, profiler, quasirandom  # noqa: E402, F401
from ._complex import install as _install_complex  # noqa: E402
_install_complex(globals())  # complex, polar, view_as_real...; sum, cat... take complex input
from . import fft  # noqa: E402 (fftfreq, fftshift...; after compat, whose words it uses)
from .stft import istft, stft  # noqa: E402
Tensor.stft, Tensor.istft = stft, istft
from . import compiler  # noqa: E402, F401 (torch.compiler.is_compiling() & co.)
from . import distributed  # noqa: E402, F401 (is_available() False: one process)
from . import signal  # noqa: E402, F401 (signal.windows: tapegrad ops, imported last)
from .amp import GradScaler  # noqa: E402 (torch.GradScaler is torch.amp.GradScaler)
newaxis = None
softmax = Tensor.softmax  # (torch.softmax(x, axis=1); dim required, as the method's)
log_softmax = Tensor.log_softmax
def is_inference(input):
    """``input.is_inference()``: made inside inference_mode."""
    return input.is_inference()


def is_tensor(obj):
    """True for a tapegrad Tensor."""
    return isinstance(obj, Tensor)


def _assert(condition, message):
    """PyTorch's traceable assert (``torch._assert(x.dim() == 3, msg)`` in reference
    models): AssertionError(message) unless ``condition`` holds."""
    if not condition:
        raise AssertionError(message)


__version__ = version.__version__

__all__ = [
    "accelerator", "backends", "cuda", "device", "empty", "empty_like", "get_default_device",
    "set_default_device", "Generator", "bernoulli", "multinomial", "normal", "rand_like",
    "randint", "randn_like", "randperm", "get_default_dtype", "set_default_dtype",
    "DivergenceError", "Size", "Tensor", "Traced", "arange", "as_tensor", "autograd",
    "batch_grad", "bool", "compile", "double", "enable_grad", "eye", "float", "float32",
    "float64", "from_numpy", "full", "full_like", "grad", "inference_mode", "int", "int32",
    "int64", "is_grad_enabled", "is_tensor", "jit", "linspace", "load", "log_softmax", "long",
    "manual_seed", "nn", "no_grad", "optim", "ones", "ones_like", "rand", "randn",
    "save", "set_grad_enabled", "softmax", "tensor", "trace", "utils", "warmup", "zeros",
    "zeros_like", "viz", "linalg", "func", "return_types",
    "sparse", "fft", "compiler", "GradScaler", "signal",
    *linalg.TOP,
    *_OPS,  # the op functions (ops/registry.py: api)
    "special", *_SPECIAL, *_FUNCTIONS, "e", "inf", "nan", "pi", "newaxis", "float16",
    "half", "int16", "short", "int8", "uint8", "dtype",
    # issue 22's miscellany: seeds and samplers, print options, threads, dtype questions
    "initial_seed", "logspace", "poisson", "randint_like", "seed", "get_printoptions",
    "set_printoptions", "get_num_interop_threads", "get_num_threads", "set_num_threads",
    "cosine_similarity", "pairwise_distance", "pdist", "can_cast", "finfo", "iinfo",
    "is_floating_point", "numel", "promote_types", "result_type",
    "version", "random", "get_rng_state", "set_rng_state", "testing", "distributions",
    "scatter_reduce", "tril_indices", "triu_indices",
    "vmap", "is_inference_mode_enabled", "amp", "autocast", "cpu", "is_autocast_available",
    "is_autocast_enabled", "is_inference", "set_num_interop_threads", *_COMPAT,
    *_REMOVED, *_SYMBOLIC, "uint16", "uint32", "uint64",
    "from_dlpack", "to_dlpack", *_STORAGE, "OutOfMemoryError", "AcceleratorError",
    "has_lapack", "has_spectral", "has_mkl", "has_openmp",
]
has_lapack = has_spectral = True  # (NumPy's LAPACK and FFT; PyTorch's deprecated flags)
has_mkl = has_openmp = False  # (as backends.mkl / backends.openmp answer)
