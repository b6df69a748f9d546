"""``torch.utils.data.distributed.DistributedSampler``: the share of a dataset's indices one
of ``num_replicas`` processes reads.  tapegrad runs in one process and has no process group,
so ``num_replicas`` and ``rank`` must be given (PyTorch asks the process group for them and
raises PyTorch's error without one).  Training scripts that import the class, or shard a
dataset by hand, then run unchanged; the shuffled order is a ``randperm`` of tapegrad's
generator seeded with ``seed + epoch`` (PyTorch's permutation differs).

>>> s = DistributedSampler(range(10), num_replicas=3, rank=1, shuffle=False)
>>> list(s), len(s)
([1, 4, 7, 0], 4)
"""
import math

from ..creation import Generator, randperm
from .data import Sampler


class DistributedSampler(Sampler):
    """Indices ``rank::num_replicas`` of the (shuffled) dataset, padded by repeating the
    first ones to a multiple of ``num_replicas``, or cut to one with ``drop_last``."""

    def __init__(self, dataset, num_replicas=None, rank=None, shuffle=True, seed=0,
                 drop_last=False):
        if num_replicas is None or rank is None:
            raise ValueError("Default process group has not been initialized, please make "
                             "sure to call init_process_group.")
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval "
                             f"[0, {num_replicas - 1}]")
        self.dataset, self.num_replicas, self.rank = dataset, num_replicas, rank
        self.shuffle, self.seed, self.drop_last, self.epoch = shuffle, seed, drop_last, 0
        n = len(dataset)
        if drop_last and n % num_replicas:
            self.num_samples = math.ceil((n - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(n / num_replicas)
        self.total_size = self.num_samples * num_replicas

    def __iter__(self):
        n = len(self.dataset)
        if self.shuffle:
            order = randperm(n, generator=Generator().manual_seed(self.seed + self.epoch))
            indices = order.tolist()
        else:
            indices = list(range(n))
        if self.drop_last:
            indices = indices[:self.total_size]
        else:
            pad = self.total_size - len(indices)
            indices += (indices * math.ceil(pad / max(len(indices), 1)))[:pad]
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self):
        return self.num_samples

    def set_epoch(self, epoch):
        """Reshuffle: the next pass's order is seeded with ``seed + epoch``."""
        self.epoch = epoch
