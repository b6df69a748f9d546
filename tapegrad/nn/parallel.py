"""``tapegrad.nn.parallel``: ``DataParallel`` as PyTorch runs it without a GPU (the
DCGAN tutorial imports ``torch.nn.parallel``): it holds ``module`` and forwards to it.
``DistributedDataParallel`` is there for the ``isinstance(model, (DataParallel,
DistributedDataParallel))`` unwrapping training scripts do; making one needs a process
group, which one process never has (``tapegrad.distributed``)."""
from .modules import Module

__all__ = ["DataParallel", "DistributedDataParallel", "data_parallel"]


class DataParallel(Module):
    """``module`` run as it is: PyTorch's DataParallel does the same when no CUDA device
    is available, ignoring ``device_ids`` and ``output_device`` (so does this)."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.device_ids = []
        self.output_device = None
        self.dim = dim

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


class DistributedDataParallel(Module):
    """PyTorch's multi-process wrapper: refused as PyTorch refuses it before
    ``init_process_group`` (tapegrad runs in one process, without a process group)."""

    def __init__(self, module, *args, **kwargs):
        raise ValueError("Default process group has not been initialized, please make sure "
                         "to call init_process_group.")


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0,
                  module_kwargs=None):
    """PyTorch's functional DataParallel, which without a GPU has no device to run on."""
    raise RuntimeError("device type could not be determined")
