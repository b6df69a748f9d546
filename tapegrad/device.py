"""Devices: tapegrad computes on the CPU only, and answers PyTorch's device API so.

Code written for PyTorch picks a device (``torch.device("cuda" if
torch.cuda.is_available() else "cpu")``) and passes it around: ``device=`` on creation
functions, ``.to(device)``, ``.cpu()``, ``model.to(device)``.  Here every such call with
the CPU (or no device) works, ``cuda.is_available()`` and its kin say False, and asking
for another device raises a clear error where PyTorch built without CUDA raises one.

>>> import tapegrad as torch
>>> torch.device("cuda" if torch.cuda.is_available() else "cpu")
device(type='cpu')
"""
import types

from ._errors import with_note

_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
          "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
          "privateuseone")  # PyTorch's, in its order (its error message lists them)


class device:
    """A device name (``torch.device``): ``device("cpu")``, ``device("cuda", 0)``,
    ``device("cuda:1")``.  Any can be named; only the CPU can hold tensors here."""

    __slots__ = ("type", "index")

    def __init__(self, type, index=None):  # noqa: A002 (PyTorch's parameter name)
        if isinstance(type, device):
            type, index = type.type, type.index if index is None else index
        elif isinstance(type, int) and not isinstance(type, bool):  # an accelerator's index
            raise RuntimeError("Cannot access accelerator device when none is available.")
        elif not isinstance(type, str):
            raise TypeError(f"device(): argument 'type' must be str, not {type.__class__.__name__}")
        name, _, i = type.partition(":")
        if name not in _TYPES:
            raise RuntimeError(f"Expected one of {', '.join(_TYPES)} device type at start of "
                               f"device string: {type}")
        if i:
            if index is not None:
                raise RuntimeError(f"type (string) must not include an index because index was "
                                   f"passed explicitly: {type}")
            if not i.isdigit():
                raise RuntimeError(f"Invalid device string: '{type}'")
            index = int(i)
        self.type = name
        self.index = None if index is None else int(index)

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):  # (a string is not equal to a device, as in PyTorch)
        return isinstance(other, device) and (self.type, self.index) == (other.type,
                                                                         other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    # ``with torch.device(d):`` sets the default device of what is built inside: the CPU's
    # is the only one here; "meta" builds ordinary CPU tensors (the idiom's next step,
    # ``module.to_empty(device="cpu")`` then ``load_state_dict(..., assign=True)``, gives
    # the same model); any other device raises as ``device=`` does
    def __enter__(self):
        if self.type != "meta":
            check(self, "device")
        return self

    def __exit__(self, *exc):
        return False


CPU = device("cpu")


def check(dev, op):
    """``dev`` (None, a string or a device) as the CPU device, or PyTorch's error for a
    device that does not exist here, naming the op: the CPU is the only one."""
    if dev is None:
        return CPU
    d = dev if isinstance(dev, device) else device(dev)
    if d.type == "cpu":
        return CPU
    if d.type == "cuda":  # PyTorch's CPU build says the same, as an AssertionError
        raise with_note(AssertionError("Torch not compiled with CUDA enabled"),
                        f"{op}: tapegrad computes on the CPU only; pass device='cpu', or "
                        "choose the device with torch.cuda.is_available(), which is False "
                        "here")
    raise RuntimeError(f"{op}: device {str(d)!r} is not available: tapegrad computes on the "
                       "CPU only (pass device='cpu')")


def parse_to(args, kwargs, op):
    """The dtype that ``.to(...)`` asks for (None: keep its own), after checking any device
    it names: ``to(dtype)``, ``to(device)``, ``to(device, dtype)``, ``to(other)`` (other's
    dtype), and the keywords ``dtype=``, ``device=``, ``non_blocking=``, ``copy=``."""
    kwargs = dict(kwargs)
    dtype = kwargs.pop("dtype", None)
    check(kwargs.pop("device", None), op)
    for k in ("non_blocking", "copy", "memory_format"):
        kwargs.pop(k, None)
    if kwargs:
        raise TypeError(f"{op}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    for a in args:
        if isinstance(a, (str, device)) or (isinstance(a, int) and not isinstance(a, bool)):
            check(a, op)
        elif hasattr(a, "shape") and hasattr(a, "dtype") and hasattr(a, "grad_fn"):  # a tensor
            dtype = a.dtype
        elif a is not None and not isinstance(a, bool):  # (a bool is non_blocking)
            dtype = a
    return dtype


def set_default_device(dev):
    """PyTorch's ``set_default_device``: the CPU (or None) is accepted; it is the default."""
    check(dev, "set_default_device")


def get_default_device():
    return CPU


def _false(*args, **kwargs):
    return False


def _nothing(*args, **kwargs):
    return None


# torch.cuda, torch.backends, torch.accelerator as a CPU-only build answers them
def _no_cuda(op):
    def refuse(*args, **kwargs):
        check("cuda", op)
    refuse.__name__ = op
    return refuse


class OutOfMemoryError(RuntimeError):
    """PyTorch's out-of-memory error (``except torch.OutOfMemoryError``): NumPy raises
    MemoryError here, which this is not; a program may still name it."""


class AcceleratorError(RuntimeError):
    """PyTorch's accelerator error (no accelerator here: never raised)."""


OutOfMemoryError.__module__ = AcceleratorError.__module__ = "torch"

cuda = types.SimpleNamespace(
    OutOfMemoryError=OutOfMemoryError,
    is_available=_false, is_initialized=_false, device_count=lambda: 0,
    manual_seed=_nothing, manual_seed_all=_nothing, empty_cache=_nothing,
    synchronize=_no_cuda("synchronize"), current_device=_no_cuda("current_device"),
    get_device_name=_no_cuda("get_device_name"), get_device_properties=_no_cuda(
        "get_device_properties"), set_device=_no_cuda("set_device"),
    mem_get_info=_no_cuda("mem_get_info"), is_bf16_supported=_false,
    memory_allocated=lambda device=None: 0, max_memory_allocated=lambda device=None: 0,
    memory_reserved=lambda device=None: 0, max_memory_reserved=lambda device=None: 0,
    reset_peak_memory_stats=_nothing)
# the switches scripts set: kept, with a CPU build's values, and without effect here
backends = types.SimpleNamespace(
    mps=types.SimpleNamespace(is_available=_false, is_built=_false),
    cuda=types.SimpleNamespace(
        is_built=_false, matmul=types.SimpleNamespace(
            allow_tf32=False, allow_fp16_reduced_precision_reduction=True,
            allow_bf16_reduced_precision_reduction=True)),
    cudnn=types.SimpleNamespace(is_available=_false, enabled=True, benchmark=False,
                                deterministic=False, allow_tf32=True, version=_nothing),
    mkl=types.SimpleNamespace(is_available=_false),
    mkldnn=types.SimpleNamespace(is_available=_false, enabled=False),
    openmp=types.SimpleNamespace(is_available=_false),
    # NumPy does the vector work: no PyTorch CPU kernel level is chosen ("DEFAULT")
    cpu=types.SimpleNamespace(get_cpu_capability=lambda: "DEFAULT"),
    # einsum is NumPy's: the opt_einsum package is not used (PyTorch's answers without it)
    opt_einsum=types.SimpleNamespace(is_available=_false, get_opt_einsum=_nothing,
                                     enabled=False, strategy=None),
    nnpack=types.SimpleNamespace(is_available=_false), kleidiai=types.SimpleNamespace(
        is_available=_false), cusparselt=types.SimpleNamespace(is_available=_false,
                                                                version=_nothing),
    mha=types.SimpleNamespace())


def _fastpath(flag=None):  # (MultiheadAttention has one path here: the flag is only kept)
    if flag is not None:
        if not isinstance(flag, bool):
            raise TypeError("set_fastpath_enabled(): argument must be bool")
        backends.mha.enabled = flag
    return backends.mha.enabled


backends.mha.enabled = True
backends.mha.get_fastpath_enabled = lambda: _fastpath()
backends.mha.set_fastpath_enabled = lambda value: _fastpath(value) and None
accelerator = types.SimpleNamespace(is_available=_false, current_accelerator=_nothing,
                                    device_count=lambda: 0)
