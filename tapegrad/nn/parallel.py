"""``tapegrad.nn.parallel``: ``DataParallel`` as PyTorch runs it without a GPU (the
DCGAN tutorial imports ``torch.nn.parallel``): it holds ``module`` and forwards to it."""
from .modules import Module

__all__ = ["DataParallel"]


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
