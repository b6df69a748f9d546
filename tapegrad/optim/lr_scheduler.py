"""Learning-rate schedulers with PyTorch's names, arguments and lr sequences
(``torch.optim.lr_scheduler``): each ``step()`` moves ``last_epoch`` on and sets every
param group's ``lr``, by the same recurrences PyTorch uses (so the floats agree to the bit).

>>> import tapegrad as tg
>>> w = tg.tensor([1.0], requires_grad=True)
>>> opt = tg.optim.SGD([w], lr=1.0)
>>> sched = tg.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
>>> lrs = []
>>> for _ in range(5):
...     opt.step()
...     sched.step()
...     lrs.append(sched.get_last_lr()[0])
>>> lrs
[1.0, 0.5, 0.5, 0.25, 0.25]
"""
import math
import types
import warnings
from bisect import bisect_right
from collections import Counter

from .optimizer import Optimizer

EPOCH_DEPRECATION_WARNING = (  # (PyTorch's words, and its public name for them)
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated "
    "where possible. Please use `scheduler.step()` to step the scheduler. During the "
    "deprecation, if epoch is different from None, the closed form is used instead of the "
    "new chainable form, where available. Please open an issue if you are unable to "
    "replicate your use case: https://github.com/pytorch/pytorch/issues/new/choose.")

__all__ = ["ChainedScheduler", "ConstantLR", "CosineAnnealingLR",
           "CosineAnnealingWarmRestarts", "CyclicLR", "ExponentialLR", "LRScheduler", "LambdaLR",
           "LinearLR", "MultiStepLR", "MultiplicativeLR", "OneCycleLR", "PolynomialLR",
           "ReduceLROnPlateau", "SequentialLR", "StepLR"]


def _check_optimizer(optimizer):
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")


def _track_steps(optimizer):
    """Wrap this optimizer's ``step`` so that it notes being called (for the warning about
    stepping the scheduler first); once per optimizer."""
    step = optimizer.step
    if getattr(step, "_wrapped_by_lr_sched", False):
        return

    def wrapper(*args, **kwargs):
        optimizer._opt_called = True
        return step(*args, **kwargs)
    wrapper._wrapped_by_lr_sched = True
    optimizer.step = wrapper


class LRScheduler:
    """Base class: ``base_lrs`` (each group's ``initial_lr``), ``last_epoch``, ``step()``,
    ``get_last_lr()``, ``state_dict()``/``load_state_dict()``.  A subclass gives
    ``get_lr()``, the lrs for ``last_epoch`` from the current ones."""

    def __init__(self, optimizer, last_epoch=-1):
        _check_optimizer(optimizer)
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] "
                                   "when resuming an optimizer")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        _track_steps(optimizer)
        self._initial_step()

    def get_lr(self):
        raise NotImplementedError

    def _initial_step(self):
        """The first step, from a step count of zero (again in SequentialLR's restart);
        ``_is_initial`` is True during it, as PyTorch's (its state_dict has the key)."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def get_last_lr(self):
        """The lrs the last ``step()`` set, one per param group."""
        return self._last_lr

    def step(self, epoch=None):
        """Move to the next epoch (or to ``epoch``, deprecated in PyTorch) and set the lrs."""
        if self._step_count == 1 and not getattr(self.optimizer, "_opt_called", False):
            warnings.warn("Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
                          "You should call them in the opposite order: `optimizer.step()` "
                          "before `lr_scheduler.step()`. Failure to do this will result in "
                          "skipping the first value of the learning rate schedule.",
                          UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch=None):
        """Set the lrs of the next epoch, or of ``epoch`` (by the closed form where there is
        one); SequentialLR restarts a scheduler at its milestone with ``_update_lr(0)``."""
        self._get_lr_called_within_step = True  # (PyTorch's flag: get_lr() called by step())
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed = getattr(self, "_get_closed_form_lr", None)
                values = closed() if closed is not None else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def state_dict(self):
        """Everything but the optimizer, as PyTorch saves it."""
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)


_LRScheduler = LRScheduler  # PyTorch's former name, still used by subclasses


class LambdaLR(LRScheduler):
    """lr = base_lr * lr_lambda(epoch) (one function, or one per param group)."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        _check_optimizer(optimizer)
        n = len(optimizer.param_groups)
        if isinstance(lr_lambda, (list, tuple)):
            if len(lr_lambda) != n:
                raise ValueError(f"Expected {n} lr_lambdas, but got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        else:
            self.lr_lambdas = [lr_lambda] * n
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [base * fn(self.last_epoch) for fn, base in zip(self.lr_lambdas, self.base_lrs)]

    def state_dict(self):
        """Functions are not saved (None); a callable object's attributes are."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict):
        state_dict = dict(state_dict)
        lambdas = state_dict.pop("lr_lambdas")
        self.__dict__.update(state_dict)
        for fn, saved in zip(self.lr_lambdas, lambdas, strict=True):
            if saved is not None:
                fn.__dict__.update(saved)


class StepLR(LRScheduler):
    """lr *= gamma every ``step_size`` epochs."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return [group["lr"] for group in self.optimizer.param_groups]
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base * self.gamma ** (self.last_epoch // self.step_size)
                for base in self.base_lrs]


class MultiStepLR(LRScheduler):
    """lr *= gamma at each epoch in ``milestones`` (a milestone given twice counts twice)."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self.last_epoch not in self.milestones:
            return [group["lr"] for group in self.optimizer.param_groups]
        k = self.milestones[self.last_epoch]
        return [group["lr"] * self.gamma ** k for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        passed = sum(c for m, c in self.milestones.items() if m <= self.last_epoch)
        return [base * self.gamma ** passed for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """lr *= gamma every epoch."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self.last_epoch == 0:
            return [group["lr"] for group in self.optimizer.param_groups]
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base * self.gamma ** self.last_epoch for base in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """lr follows eta_min + (base_lr - eta_min) (1 + cos(pi epoch / T_max)) / 2, computed
    step by step from the current lr as PyTorch does (so an lr changed by hand carries on)."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, T, lo = self.last_epoch, self.T_max, self.eta_min
        groups = self.optimizer.param_groups
        if e == 0:
            return [group["lr"] for group in groups]
        if self._step_count == 1 and e > 0:
            return [lo + (base - lo) * (1 + math.cos(e * math.pi / T)) / 2
                    for base in self.base_lrs]
        if (e - 1 - T) % (2 * T) == 0:
            return [group["lr"] + (base - lo) * (1 - math.cos(math.pi / T)) / 2
                    for base, group in zip(self.base_lrs, groups)]
        return [(1 + math.cos(math.pi * e / T)) / (1 + math.cos(math.pi * (e - 1) / T))
                * (group["lr"] - lo) + lo for group in groups]

    def _get_closed_form_lr(self):
        return [self.eta_min + (base - self.eta_min) * (1 + math.cos(
            math.pi * self.last_epoch / self.T_max)) / 2 for base in self.base_lrs]


class ReduceLROnPlateau(LRScheduler):
    """lr *= factor when the metric given to ``step(metric)`` has not improved (by
    ``threshold``, relative or absolute) for more than ``patience`` epochs; then waits
    ``cooldown`` epochs; never below ``min_lr``."""

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, eps=1e-8):
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        _check_optimizer(optimizer)
        if mode not in ("min", "max"):
            raise ValueError("mode " + str(mode) + " is unknown!")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("threshold mode " + str(threshold_mode) + " is unknown!")
        # (PyTorch's attributes in its order: state_dict() lists them so)
        self.factor = factor
        self.optimizer = optimizer
        n = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != n:
                raise ValueError(f"expected {n} min_lrs, got {len(min_lr)}")
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * n
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = [group["lr"] for group in optimizer.param_groups]
        self.mode_worse = math.inf if mode == "min" else -math.inf  # (the worst metric)
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode
        self._reset()

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
        self.mode_worse = math.inf if self.mode == "min" else -math.inf

    def _reset(self):
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    @property
    def in_cooldown(self):
        return self.cooldown_counter > 0

    def is_better(self, a, best):
        if self.mode == "min":
            bar = best * (1.0 - self.threshold) if self.threshold_mode == "rel" else \
                best - self.threshold
            return a < bar
        bar = best * (self.threshold + 1.0) if self.threshold_mode == "rel" else \
            best + self.threshold
        return a > bar

    def step(self, metrics, epoch=None):
        """Record this epoch's metric (a number or a one-element tensor)."""
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = epoch
        if self.is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            self._reduce_lr()
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def _reduce_lr(self):
        for i, group in enumerate(self.optimizer.param_groups):
            old = float(group["lr"])
            new = max(old * self.factor, self.min_lrs[i])
            if old - new > self.eps:
                group["lr"] = new


class LinearLR(LRScheduler):
    """lr goes linearly from base_lr * start_factor to base_lr * end_factor over
    ``total_iters`` epochs (PyTorch's recurrence, so the floats agree)."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5,
                 last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 "
                             "and less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor, self.end_factor = start_factor, end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, s, f, n = self.last_epoch, self.start_factor, self.end_factor, self.total_iters
        groups = self.optimizer.param_groups
        if e == 0:
            return [group["lr"] * s for group in groups]
        if e > n:
            return [group["lr"] for group in groups]
        return [group["lr"] * (1.0 + (f - s) / (n * s + (e - 1) * (f - s))) for group in groups]

    def _get_closed_form_lr(self):
        e, s, f, n = self.last_epoch, self.start_factor, self.end_factor, self.total_iters
        return [base * (s + (f - s) * min(n, e) / n) for base in self.base_lrs]


_PHASE_KEYS = ("end_step", "start_lr", "end_lr", "start_momentum", "end_momentum")


class OneCycleLR(LRScheduler):
    """The 1cycle policy (stepped once per batch): lr rises from max_lr / div_factor to
    ``max_lr`` over the first ``pct_start`` of ``total_steps``, then anneals (cosine or
    linear) to max_lr / div_factor / final_div_factor; momentum (or Adam's beta1) moves
    the opposite way between ``max_momentum`` and ``base_momentum`` (``cycle_momentum``)."""

    def __init__(self, optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None,
                 pct_start=0.3, anneal_strategy="cos", cycle_momentum=True,
                 base_momentum=0.85, max_momentum=0.95, div_factor=25.0,
                 final_div_factor=1e4, three_phase=False, last_epoch=-1):
        _check_optimizer(optimizer)
        groups = optimizer.param_groups
        if total_steps is None:
            if epochs is None or steps_per_epoch is None:
                raise ValueError("You must define either total_steps OR (epochs AND "
                                 "steps_per_epoch)")
            for name, v in (("epochs", epochs), ("steps_per_epoch", steps_per_epoch)):
                if not isinstance(v, int) or v <= 0:
                    raise ValueError(f"Expected positive integer {name}, but got {v}")
            total_steps = epochs * steps_per_epoch
        elif not isinstance(total_steps, int) or total_steps <= 0:
            raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
        if not isinstance(pct_start, float) or not 0 <= pct_start <= 1:
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self.total_steps = total_steps
        p = pct_start * total_steps
        if three_phase:
            phases = [(p - 1, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                      (2 * p - 2, "max_lr", "initial_lr", "base_momentum", "max_momentum"),
                      (total_steps - 1, "initial_lr", "min_lr", "max_momentum",
                       "max_momentum")]
        else:
            phases = [(p - 1, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                      (total_steps - 1, "max_lr", "min_lr", "base_momentum", "max_momentum")]
        # (PyTorch's attributes, as its state_dict() saves them)
        self._schedule_phases = [dict(zip(_PHASE_KEYS, phase, strict=True)) for phase in phases]
        self._anneal_func_type = anneal_strategy
        max_lrs = self._per_group(groups, max_lr, "max_lr")
        if last_epoch == -1:
            for lr, group in zip(max_lrs, groups, strict=True):
                group["initial_lr"] = lr / div_factor
                group["max_lr"] = lr
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            d = optimizer.defaults
            if "momentum" not in d and "betas" not in d:
                raise ValueError("optimizer must support momentum or beta1 with "
                                 "`cycle_momentum` option enabled")
            self.use_beta1 = "betas" in d
            highs = self._per_group(groups, max_momentum, "max_momentum")
            lows = self._per_group(groups, base_momentum, "base_momentum")
            if last_epoch == -1:
                for hi, lo, group in zip(highs, lows, groups, strict=True):
                    self._set_momentum(group, hi)
                    group["max_momentum"], group["base_momentum"] = hi, lo
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _per_group(groups, value, name):
        if isinstance(value, (list, tuple)):
            if len(value) != len(groups):
                raise ValueError(f"expected {len(groups)} values for {name}, got {len(value)}")
            return list(value)
        return [value] * len(groups)

    def _set_momentum(self, group, m):
        if self.use_beta1:
            group["betas"] = (m, *group["betas"][1:])
        else:
            group["momentum"] = m

    @staticmethod
    def _cos(start, end, pct):
        return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)

    @staticmethod
    def _linear(start, end, pct):
        return (end - start) * pct + start

    def _anneal(self, start, end, pct):
        return (self._cos if self._anneal_func_type == "cos" else self._linear)(start, end, pct)

    def get_lr(self):
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. The specified number of total "
                             f"steps is {self.total_steps}")
        lrs = []
        phases = self._schedule_phases
        for group in self.optimizer.param_groups:
            start = 0
            for i, phase in enumerate(phases):
                end, lr0, lr1, m0, m1 = (phase[k] for k in _PHASE_KEYS)
                if step <= end or i == len(phases) - 1:
                    pct = (step - start) / (end - start)
                    lr = self._anneal(group[lr0], group[lr1], pct)
                    if self.cycle_momentum:
                        momentum = self._anneal(group[m0], group[m1], pct)
                    break
                start = end
            lrs.append(lr)
            if self.cycle_momentum:
                self._set_momentum(group, momentum)
        return lrs


class MultiplicativeLR(LambdaLR):
    """lr *= lr_lambda(epoch) every epoch (one function, or one per param group)."""

    def get_lr(self):
        groups = self.optimizer.param_groups
        if self.last_epoch > 0:
            return [group["lr"] * fn(self.last_epoch)
                    for fn, group in zip(self.lr_lambdas, groups, strict=True)]
        return [group["lr"] for group in groups]


class ConstantLR(LRScheduler):
    """lr = base_lr * factor until epoch ``total_iters``, base_lr from then on."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        groups = self.optimizer.param_groups
        if self.last_epoch == 0:
            return [group["lr"] * self.factor for group in groups]
        if self.last_epoch != self.total_iters:
            return [group["lr"] for group in groups]
        return [group["lr"] * (1.0 / self.factor) for group in groups]

    def _get_closed_form_lr(self):
        done = self.last_epoch >= self.total_iters
        return [base * (self.factor + done * (1 - self.factor)) for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    """lr = base_lr * (1 - epoch / total_iters) ** power, 0 after ``total_iters``."""

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        e, n = self.last_epoch, self.total_iters
        groups = self.optimizer.param_groups
        if e == 0 or e > n:
            return [group["lr"] for group in groups]
        decay = ((1.0 - e / n) / (1.0 - (e - 1) / n)) ** self.power
        return [group["lr"] * decay for group in groups]

    def _get_closed_form_lr(self):
        e, n = self.last_epoch, self.total_iters
        return [base * (1.0 - min(n, e) / n) ** self.power for base in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    """SGDR (Loshchilov & Hutter): cosine annealing from base_lr to ``eta_min`` over
    ``T_i`` epochs, restarting with ``T_i *= T_mult``; ``step(epoch)`` takes a fractional
    epoch (``scheduler.step(epoch + i / iters)``)."""

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0.0, last_epoch=-1):
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        self.T_0 = self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [self.eta_min + (base - self.eta_min) * (1 + math.cos(
            math.pi * self.T_cur / self.T_i)) / 2 for base in self.base_lrs]

    def step(self, epoch=None):
        """The next epoch, or the (fractional) ``epoch`` given."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur -= self.T_i
                self.T_i *= self.T_mult
        elif epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        elif epoch >= self.T_0:
            if self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:
                n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                self.T_i = self.T_0 * self.T_mult ** n
        else:
            self.T_i = self.T_0
            self.T_cur = epoch
        self.last_epoch = math.floor(epoch)  # (no step count: PyTorch's stays 0 here)
        self._get_lr_called_within_step = True  # (as LRScheduler._update_lr)
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]


def _per_group(optimizer, value, name):
    groups = optimizer.param_groups
    if isinstance(value, (list, tuple)):
        if len(value) != len(groups):
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. "
                             f"{name} has {len(value)} values, param_groups has {len(groups)}.")
        return list(value)
    return [value] * len(groups)


class CyclicLR(LRScheduler):
    """The cyclical learning rate policy (Smith), stepped once per batch: lr moves between
    ``base_lr`` and ``max_lr`` over ``step_size_up + step_size_down`` steps, the amplitude
    scaled by ``mode`` ('triangular', 'triangular2', 'exp_range') or ``scale_fn``; momentum
    (or Adam's beta1) moves the opposite way (``cycle_momentum``)."""

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None,
                 mode="triangular", gamma=1.0, scale_fn=None, scale_mode="cycle",
                 cycle_momentum=True, base_momentum=0.8, max_momentum=0.9, last_epoch=-1):
        _check_optimizer(optimizer)
        base_lrs = _per_group(optimizer, base_lr, "base_lr")
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups, strict=True):
                group["lr"] = lr
        self.max_lrs = _per_group(optimizer, max_lr, "max_lr")
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.total_size = up + down
        self.step_ratio = up / self.total_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode, self.gamma = mode, gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode if scale_fn is not None else (
            "iterations" if mode == "exp_range" else "cycle")
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError("optimizer must support momentum or beta1 with "
                                 "`cycle_momentum` option enabled")
            self.use_beta1 = "betas" in optimizer.defaults
            self.base_momentums = _per_group(optimizer, base_momentum, "base_momentum")
            self.max_momentums = _per_group(optimizer, max_momentum, "max_momentum")
            if last_epoch == -1:
                for hi, lo, group in zip(self.max_momentums, self.base_momentums,
                                         optimizer.param_groups, strict=True):
                    self._set_momentum(group, hi)
                    group["max_momentum"], group["base_momentum"] = hi, lo
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def scale_fn(self, x):
        """The amplitude's scale at cycle (or iteration) ``x``."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular":
            return 1.0
        if self.mode == "triangular2":
            return 1 / (2.0 ** (x - 1))
        return self.gamma ** x

    def _set_momentum(self, group, m):
        if self.use_beta1:
            group["betas"] = (m, *group["betas"][1:])
        else:
            group["momentum"] = m

    def get_lr(self):
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        lrs = [lo + (hi - lo) * scale_factor * scale
               for lo, hi in zip(self.base_lrs, self.max_lrs, strict=True)]
        if self.cycle_momentum:
            for lo, hi, group in zip(self.base_momentums, self.max_momentums,
                                     self.optimizer.param_groups, strict=True):
                self._set_momentum(group, hi - (hi - lo) * scale_factor * scale)
        return lrs

    def state_dict(self):
        """As PyTorch's: ``_scale_fn_custom`` last, None for a function (not saved), a
        callable object's attributes."""
        state = super().state_dict()
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None if fn is None or isinstance(
            fn, types.FunctionType) else fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict):
        state_dict = dict(state_dict)
        saved = state_dict.pop("_scale_fn_custom", None)
        custom = self._scale_fn_custom
        super().load_state_dict(state_dict)
        self._scale_fn_custom = custom
        if saved is not None and custom is not None:
            custom.__dict__.update(saved)


def _same_optimizer(cls, schedulers, optimizer):
    if len(schedulers) < 1:
        raise ValueError(f"{cls} expects at least one scheduler, but got no scheduler.")
    for i, sched in enumerate(schedulers):
        if not hasattr(sched, "optimizer"):
            raise TypeError(f"{cls} at index {i} should have `optimizer` as its attribute.")
        if sched.optimizer is not optimizer:
            raise ValueError(f"{cls} expects all schedulers to belong to the same optimizer, "
                             f"but got scheduler {type(sched).__name__} at index {i} has "
                             f"{sched.optimizer}, which is different from "
                             f"{type(optimizer).__name__}.")


class _Composite(LRScheduler):
    """A scheduler made of schedulers: saves and loads theirs beside its own state."""

    def state_dict(self):
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer",
                                                                      "_schedulers")}
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict):
        state_dict = dict(state_dict)
        inner = state_dict.pop("_schedulers")
        self.__dict__.update(state_dict)
        for sched, saved in zip(self._schedulers, inner, strict=True):
            sched.load_state_dict(saved)


def _undo(sched):
    """Take back the step each (nested) scheduler took when it was made."""
    for s in getattr(sched, "_schedulers", ()):
        _undo(s)
    if not hasattr(sched, "_schedulers") and hasattr(sched, "last_epoch"):
        sched.last_epoch -= 1


class SequentialLR(_Composite):
    """``schedulers[i]`` drives the lr from epoch ``milestones[i - 1]`` on (restarted at 0
    there)."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        _same_optimizer("Sequential Schedulers", schedulers, optimizer)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError("Sequential Schedulers expects number of schedulers provided to "
                             "be one more than the number of milestone points, but got number "
                             f"of schedulers {len(schedulers)} and the number of milestones to "
                             f"be equal to {len(milestones)}")
        self._schedulers = list(schedulers)
        self._milestones = list(milestones)
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:
            group["lr"] = group["initial_lr"]
        for sched in self._schedulers:
            _undo(sched)
        self._schedulers[0]._initial_step()
        self._last_lr = self._schedulers[0].get_last_lr()

    def step(self):
        """The next epoch, by the scheduler whose milestone has passed."""
        self.last_epoch += 1
        i = bisect_right(self._milestones, self.last_epoch)
        sched = self._schedulers[i]
        if i > 0 and self._milestones[i - 1] == self.last_epoch:
            sched._update_lr(0)  # (PyTorch's restart: no step count, no deprecation warning)
        else:
            sched.step()
        self._last_lr = sched.get_last_lr()


class ChainedScheduler(_Composite):
    """Every scheduler steps at each ``step()``, one after the other (their factors
    multiply)."""

    def __init__(self, schedulers, optimizer=None):
        optimizer = optimizer or schedulers[0].optimizer
        _same_optimizer("ChainedScheduler", schedulers, optimizer)
        self._schedulers = list(schedulers)
        self.optimizer = optimizer
        self._last_lr = [group["lr"] for group in optimizer.param_groups]

    def step(self):
        """Step each scheduler in turn."""
        for sched in self._schedulers:
            sched.step()
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]
