"""``torch.autocast`` / ``torch.amp`` / ``torch.cuda.amp`` as PyTorch runs them without CUDA:
disabled.

tapegrad computes on the CPU in each tensor's own dtype (float64 by default), so there is no
lower-precision region to switch on.  A training loop written for mixed precision still runs
as it is: ``autocast`` is a context manager and decorator that changes nothing (it warns
once that it is disabled), and ``GradScaler("cuda")`` passes through (``scale`` returns the
loss, ``step`` calls ``optimizer.step()``, ``update`` does nothing), as PyTorch's do when
CUDA is not available.  ``GradScaler("cpu")`` scales, unscales and skips steps whose
gradients hold an inf or NaN, as PyTorch's does on the CPU.

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
from .creation import full
from .device import cuda
from .grad_mode import no_grad

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
    growth_interval=2000, enabled=True)``.  For ``"cuda"`` it is disabled, as PyTorch's is
    without CUDA: the loss is not scaled, ``step`` is ``optimizer.step()``, the state dict is
    empty.  For ``"cpu"`` it scales as PyTorch's does (the loss times a float32 scale,
    gradients unscaled and checked for inf/NaN, a step skipped and the scale backed off
    when one is found, grown after ``growth_interval`` clean steps), whatever the dtype."""

    def __init__(self, device="cuda", init_scale=2.0 ** 16, growth_factor=2.0,
                 backoff_factor=0.5, growth_interval=2000, enabled=True):
        self._device = device
        self._enabled = enabled
        self._init_scale = init_scale
        self._growth_factor = growth_factor
        self._backoff_factor = backoff_factor
        self._growth_interval = growth_interval
        if device == "cuda" and enabled:
            _warn_once("GradScaler", "torch.cuda.amp.GradScaler is enabled, but CUDA is not "
                       "available.  Disabling.")
            self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
        self._init_growth_tracker = 0
        self._scale = None  # (a float32 scalar tensor from the first scale())
        self._growth_tracker = 0
        self._per_optimizer_states = {}  # id(optimizer) -> {"stage", "found_inf"}

    def is_enabled(self):
        return self._enabled

    def _state(self, optimizer):
        return self._per_optimizer_states.setdefault(id(optimizer),
                                                     {"stage": "ready", "found_inf": None})

    def _check_scale(self, funcname):
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  This may indicate "
                                 "your script did not use scaler.scale(loss or outputs) earlier "
                                 "in the iteration.")

    def scale(self, outputs):
        """The outputs times the scale (a tensor, or a list/tuple/iterable of them)."""
        if not self._enabled:
            return outputs
        if self._scale is None:
            self._scale = full((), float(self._init_scale), dtype=dtypes.float32)
            self._growth_tracker = self._init_growth_tracker

        def apply(val):
            if hasattr(val, "grad_fn"):
                return val * self._scale
            if isinstance(val, (list, tuple)):
                return type(val)(map(apply, val))
            if hasattr(val, "__iter__"):
                return map(apply, val)
            raise ValueError("outputs must be a Tensor or an iterable of Tensors")
        return apply(outputs)

    def unscale_(self, optimizer):
        """Divide the optimizer's gradients by the scale, noting whether any is inf/NaN."""
        if not self._enabled:
            return
        self._check_scale("unscale_")
        state = self._state(optimizer)
        if state["stage"] == "unscaled":
            raise RuntimeError("unscale_() has already been called on this optimizer since "
                               "the last update().")
        if state["stage"] == "stepped":
            raise RuntimeError("unscale_() is being called after step().")
        inv = self._scale.double().reciprocal().float()
        found = None
        with no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    if p.grad.dtype == dtypes.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    bad = not bool(p.grad.isfinite().all())
                    found = bool(found) or bad
                    p.grad.mul_(inv)
        state["found_inf"] = found
        state["stage"] = "unscaled"

    def step(self, optimizer, *args, **kwargs):
        """``optimizer.step(*args, **kwargs)`` on unscaled gradients, skipped (None returned)
        when one of them is inf/NaN."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is "
                               "enabled.")
        self._check_scale("step")
        state = self._state(optimizer)
        if state["stage"] == "stepped":
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] == "ready":
            self.unscale_(optimizer)
        if state["found_inf"] is None:
            raise AssertionError("No inf checks were recorded for this optimizer.")
        retval = None if state["found_inf"] else optimizer.step(*args, **kwargs)
        state["stage"] = "stepped"
        return retval

    def update(self, new_scale=None):
        """Back the scale off if a step was skipped, grow it after ``growth_interval`` clean
        updates (computed in float32, as PyTorch's), or set it to ``new_scale``."""
        if not self._enabled:
            return
        self._check_scale("update")
        if new_scale is not None:
            if isinstance(new_scale, float):
                self._scale.fill_(new_scale)
            else:
                if not (hasattr(new_scale, "grad_fn") and new_scale.numel() == 1
                        and new_scale.dtype == dtypes.float32 and not new_scale.requires_grad):
                    raise AssertionError(
                        "new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                        "torch.FloatTensor with requires_grad=False.")
                self._scale.copy_(new_scale.reshape(()))
        else:
            found = [s["found_inf"] for s in self._per_optimizer_states.values()
                     if s["found_inf"] is not None]
            if not found:
                raise AssertionError("No inf checks were recorded prior to update.")
            if any(found):
                self._scale.mul_(self._backoff_factor)
                self._growth_tracker = 0
            elif self._growth_tracker + 1 == self._growth_interval:
                grown = self._scale * self._growth_factor
                if bool(grown.isfinite()):
                    self._scale.copy_(grown)
                self._growth_tracker = 0
            else:
                self._growth_tracker += 1
        self._per_optimizer_states = {}

    def get_scale(self):
        if not self._enabled:
            return 1.0
        return float(self._init_scale) if self._scale is None else self._scale.item()

    def _get_growth_tracker(self):
        if not self._enabled:
            return 0
        return self._init_growth_tracker if self._scale is None else self._growth_tracker

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
        if not self._enabled:
            return {}  # (PyTorch's, disabled)
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval,
                "_growth_tracker": self._get_growth_tracker()}

    def load_state_dict(self, state_dict):
        """Scale, factors, interval and growth tracker from ``state_dict()``."""
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_scale = float(state_dict["scale"])
        if self._scale is not None:
            self._scale.fill_(self._init_scale)
        self._growth_factor = float(state_dict["growth_factor"])
        self._backoff_factor = float(state_dict["backoff_factor"])
        self._growth_interval = int(state_dict["growth_interval"])
        self._init_growth_tracker = self._growth_tracker = int(state_dict["_growth_tracker"])


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


class _CpuGradScaler(GradScaler):
    """``torch.cpu.amp.GradScaler(init_scale=..., ...)``: enabled, on the CPU."""

    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        super().__init__("cpu", init_scale, growth_factor, backoff_factor, growth_interval,
                         enabled)


_CudaAutocast.__name__ = _CpuAutocast.__name__ = "autocast"
_CudaGradScaler.__name__ = _CpuGradScaler.__name__ = "GradScaler"
cuda.amp = types.SimpleNamespace(autocast=_CudaAutocast, GradScaler=_CudaGradScaler,
                                 custom_fwd=custom_fwd, custom_bwd=custom_bwd)
cpu = types.SimpleNamespace(  # torch.cpu: the device tapegrad computes on
    amp=types.SimpleNamespace(autocast=_CpuAutocast, GradScaler=_CpuGradScaler),
    is_available=lambda: True, device_count=lambda: 1, synchronize=lambda device=None: None,
    current_device=lambda: "cpu")

__all__ = ["GradScaler", "autocast", "custom_bwd", "custom_fwd", "is_autocast_available",
           "is_autocast_enabled"]
