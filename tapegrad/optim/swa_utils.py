"""Stochastic weight averaging (``torch.optim.swa_utils``): ``AveragedModel`` keeps the
running average (or an exponential moving average, ``get_ema_avg_fn``) of a model's
parameters, ``SWALR`` anneals each group's lr to its ``swa_lr``, ``update_bn`` recomputes
the batch-norm statistics of the averaged weights over a loader.  PyTorch's formulas."""
import copy
import itertools
import math
import numbers

import numpy as np

from ..grad_mode import no_grad
from ..nn.layers import _BatchNorm
from ..nn.modules import Module
from ..tensor import Tensor
from .lr_scheduler import LRScheduler, _per_group

__all__ = ["AveragedModel", "SWALR", "get_ema_avg_fn", "get_ema_multi_avg_fn",
           "get_swa_avg_fn", "get_swa_multi_avg_fn", "update_bn"]


def get_swa_avg_fn():
    """The running mean: ``avg + (current - avg) / (n + 1)``."""
    def swa_update(averaged_param, current_param, num_averaged):
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)
    return swa_update


def get_ema_avg_fn(decay=0.999):
    """The exponential moving average: ``decay * ema + (1 - decay) * current``."""
    def ema_update(ema_param, current_param, num_averaged):
        return decay * ema_param + (1 - decay) * current_param
    return ema_update


def _multi(fn):
    def update(averaged, current, num_averaged):
        for a, c in zip(averaged, current, strict=True):
            a.copy_(fn(a, c, num_averaged))
    return update


def get_swa_multi_avg_fn():
    """``get_swa_avg_fn`` over lists of tensors, in place."""
    return _multi(get_swa_avg_fn())


def get_ema_multi_avg_fn(decay=0.999):
    """``get_ema_avg_fn`` over lists of tensors, in place."""
    return _multi(get_ema_avg_fn(decay))


class AveragedModel(Module):
    """A copy of ``model`` whose parameters (and buffers, ``use_buffers``) are the average of
    the models given to ``update_parameters``; calling it calls the copy."""

    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False):
        super().__init__()
        self.module = copy.deepcopy(model)
        self.register_buffer("n_averaged", Tensor(np.array(0, np.int64)))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model):
        """Fold ``model``'s current parameters into the average."""
        mine = itertools.chain(self.module.parameters(), self.module.buffers()) \
            if self.use_buffers else self.parameters()
        theirs = itertools.chain(model.parameters(), model.buffers()) \
            if self.use_buffers else model.parameters()
        mine = [p.detach() for p in mine]
        theirs = [p.detach() for p in theirs]
        n = self.n_averaged
        with no_grad():
            if int(n.item()) == 0:
                for a, c in zip(mine, theirs, strict=True):
                    a.copy_(c)
            elif self.multi_avg_fn is not None:
                self.multi_avg_fn(mine, theirs, n)
            else:
                fn = self.avg_fn or get_swa_avg_fn()
                for a, c in zip(mine, theirs, strict=True):
                    if a.dtype.kind == "f":
                        a.copy_(fn(a, c, n))
                    else:  # (an integer buffer: num_batches_tracked)
                        a.copy_(c)
            if not self.use_buffers:  # the buffers follow the model's
                for b, c in zip(self.module.buffers(), model.buffers(), strict=True):
                    b.copy_(c.detach())
            self.n_averaged += 1


def update_bn(loader, model, device=None):
    """Recompute the running statistics of ``model``'s batch norms: one pass over ``loader``
    (a batch, or its first element when it is a list or tuple) in train mode, with a
    cumulative average (momentum None)."""
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    for batch in loader:
        if isinstance(batch, (list, tuple)):
            batch = batch[0]
        if device is not None:
            batch = batch.to(device)
        model(batch)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneal each group's lr to its ``swa_lr`` over ``anneal_epochs`` epochs (cosine or
    linear), then hold it."""

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos",
                 last_epoch=-1):
        for lr, group in zip(_per_group(optimizer, swa_lr, "swa_lr"), optimizer.param_groups,
                             strict=True):
            group["swa_lr"] = lr
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("anneal_strategy must by one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else \
            self._linear_anneal
        if not isinstance(anneal_epochs, numbers.Integral) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got "
                             f"{anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        return swa_lr if alpha == 1 else (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self):
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        groups = self.optimizer.param_groups
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        prev = [self._get_initial_lr(g["lr"], g["swa_lr"], prev_alpha) for g in groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [g["swa_lr"] * alpha + lr * (1 - alpha) for g, lr in zip(groups, prev,
                                                                          strict=True)]
