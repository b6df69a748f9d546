"""``torch.autocast`` / ``torch.amp`` / ``torch.cuda.amp`` as PyTorch runs them without CUDA:
disabled.

tapegrad computes on the CPU in each tensor's own dtype (float64 by default), so there is no
lower-precision region to switch on.  A training loop written for mixed precision still runs
as it is: ``autocast`` is a context manager and decorator that changes nothing (it warns
once that it is disabled), and ``GradScaler`` passes through (``scale`` returns the loss,
``step`` calls ``optimizer.step()``, ``update`` does nothing), as PyTorch's do when CUDA is
not available.

>>> import tapegrad as torch
>>> scaler = torch.amp.GradScaler("cuda")
>>> w = torch.ones(2, requires_grad=True)
>>> opt = torch.optim.SGD([w], lr=0.1)
>>> with torch.autocast("cuda"):
...     loss = (w * w).sum()
>>> scaler.scale(loss).backward()
>>> scaler.step(opt)
>>> scaler.update()
>>> w
tensor([0.8000, 0.8000], requires_grad=True)
"""
import functools
import types
import warnings

from . import dtypes
from .device import cuda

_warned = set()  # what has warned already (once per process, each)


def _warn_once(key, message):
    if key not in _warned:
        _warned.add(key)
        warnings.warn(message, UserWarning, stacklevel=3)


class autocast:  # noqa: N801 (PyTorch's name)
    """``autocast(device_type, dtype=None, enabled=True, cache_enabled=None)``: a context
    manager and decorator that, here, leaves every op in its inputs' dtype."""

    def __init__(self, device_type="cuda", dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = device_type
        if isinstance(dtype, dtypes.RefusedDtype):  # (bfloat16, the usual CPU autocast:
            self.fast_dtype = dtype  # named, never used, as autocast is off here)
        else:
            self.fast_dtype = dtypes.to_dtype(dtype) if dtype is not None else (
                dtypes.float16 if device_type == "cuda" else None)
        self._enabled = False
        self.cache_enabled = cache_enabled
        if enabled:
            _warn_once("autocast", f"autocast({device_type!r}) is disabled in tapegrad: ops "
                       "compute in their inputs' dtype (float64 by default); cast with "
                       ".to(dtype) where you want lower precision")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return wrapper


def is_autocast_enabled(device_type=None):
    """False: autocast is never on here."""
    return False


def is_autocast_available(device_type):
    """False for every device: autocast regions change nothing in tapegrad."""
    return False


class GradScaler:
    """``GradScaler(device="cuda", init_scale=2.**16, growth_factor=2.0, backoff_factor=0.5,
    growth_interval=2000, enabled=True)``, disabled as PyTorch's is without CUDA: the loss is
    not scaled, ``step`` is ``optimizer.step()``, the state dict is empty."""

    def __init__(self, device="cuda", init_scale=2.0 ** 16, growth_factor=2.0,
                 backoff_factor=0.5, growth_interval=2000, enabled=True):
        self._device = device
        self._init_scale = init_scale
        self._growth_factor = growth_factor
        self._backoff_factor = backoff_factor
        self._growth_interval = growth_interval
        if enabled:
            _warn_once("GradScaler", "GradScaler is enabled, but tapegrad computes in full "
                       "precision on the CPU.  Disabling (scale returns the loss as it is).")

    def is_enabled(self):
        return False

    def scale(self, outputs):
        """The outputs unchanged (a tensor, or a list/tuple of them)."""
        return outputs

    def unscale_(self, optimizer):
        """Nothing to unscale."""

    def step(self, optimizer, *args, **kwargs):
        """``optimizer.step(*args, **kwargs)``, its return value returned."""
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is "
                               "enabled.")
        return optimizer.step(*args, **kwargs)

    def update(self, new_scale=None):
        """Nothing to update."""

    def get_scale(self):
        return 1.0

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def state_dict(self):
        return {}  # (PyTorch's, disabled)

    def load_state_dict(self, state_dict):
        """Nothing to load: a disabled scaler keeps no state."""


def custom_fwd(fwd=None, *, device_type="cuda", cast_inputs=None):
    """Decorate a custom Function's forward for autocast regions: unchanged here (autocast
    is off); ``@custom_fwd`` bare or ``@custom_fwd(device_type=..., cast_inputs=...)``."""
    return (lambda f: f) if fwd is None else fwd


def custom_bwd(bwd=None, *, device_type="cuda"):
    """The backward's counterpart of ``custom_fwd``: unchanged here."""
    return (lambda f: f) if bwd is None else bwd


class _CudaAutocast(autocast):
    """``torch.cuda.amp.autocast(enabled=True, dtype=float16, cache_enabled=True)``."""

    def __init__(self, enabled=True, dtype=dtypes.float16, cache_enabled=True):
        super().__init__("cuda", dtype, enabled, cache_enabled)


class _CudaGradScaler(GradScaler):
    """``torch.cuda.amp.GradScaler(init_scale=..., ...)``."""

    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        super().__init__("cuda", init_scale, growth_factor, backoff_factor, growth_interval,
                         enabled)


class _CpuAutocast(autocast):
    """``torch.cpu.amp.autocast(enabled=True, dtype=bfloat16, cache_enabled=True)``."""

    def __init__(self, enabled=True, dtype=None, cache_enabled=True):
        super().__init__("cpu", dtype, enabled, cache_enabled)


_CudaAutocast.__name__ = _CpuAutocast.__name__ = "autocast"
_CudaGradScaler.__name__ = "GradScaler"
cuda.amp = types.SimpleNamespace(autocast=_CudaAutocast, GradScaler=_CudaGradScaler,
                                 custom_fwd=custom_fwd, custom_bwd=custom_bwd)
cpu = types.SimpleNamespace(  # torch.cpu: the device tapegrad computes on
    amp=types.SimpleNamespace(autocast=_CpuAutocast, GradScaler=GradScaler),
    is_available=lambda: True, device_count=lambda: 1, synchronize=lambda device=None: None,
    current_device=lambda: "cpu")

__all__ = ["GradScaler", "autocast", "custom_bwd", "custom_fwd", "is_autocast_available",
           "is_autocast_enabled"]
