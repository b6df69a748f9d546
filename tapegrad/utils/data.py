"""Datasets and batches with PyTorch's names and behaviour (``torch.utils.data``): map-style
``Dataset`` (``__getitem__``, ``__len__``) and ``IterableDataset``, ``TensorDataset``,
``Subset``, ``ConcatDataset``, ``random_split``, the samplers, and ``DataLoader`` with
``default_collate`` (samples of tensors, NumPy arrays, numbers, tuples, lists and dicts
become batched tensors in the sample's structure).

Randomness (``shuffle``, ``RandomSampler``, ``random_split``) draws from tapegrad's
generators (``generator=``, or a seed drawn from the default generator that
``tapegrad.manual_seed`` seeds): reproducible, but not PyTorch's numbers.

>>> import tapegrad as tg
>>> from tapegrad.utils.data import DataLoader, TensorDataset
>>> ds = TensorDataset(tg.arange(10.0).reshape(5, 2), tg.arange(5))
>>> [(x.shape, y.tolist()) for x, y in DataLoader(ds, batch_size=2)]
[(torch.Size([2, 2]), [0, 1]), (torch.Size([2, 2]), [2, 3]), (torch.Size([1, 2]), [4])]
"""
import bisect
import collections.abc
import itertools
import math
import sys
import types
import typing
import warnings

import numpy as np

from .. import dtypes
from ..creation import Generator, as_tensor, multinomial, randint, randperm, tensor
from ..ops.shape import stack
from ..tensor import Tensor

__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DataLoader", "Dataset",
           "IterableDataset", "RandomSampler", "Sampler", "SequentialSampler", "StackDataset",
           "Subset", "SubsetRandomSampler", "TensorDataset", "WeightedRandomSampler",
           "default_collate", "default_convert", "get_worker_info", "random_split"]


_T_co = typing.TypeVar("_T_co", covariant=True)


# ---- datasets (generic, as PyTorch's: ``class Pairs(Dataset[tuple[Tensor, int]])``) --------
class Dataset(typing.Generic[_T_co]):
    """A map-style dataset: ``__getitem__(i)`` and (for samplers and ``len``) ``__len__``."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other):
        return ConcatDataset([self, other])


class IterableDataset(Dataset[_T_co]):
    """A dataset given by ``__iter__`` (a stream); the DataLoader batches it in order."""

    def __iter__(self):
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other):
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Samples ``(t[i] for t in tensors)``: tensors indexed along their first dimension.

    >>> import tapegrad as tg
    >>> ds = TensorDataset(tg.ones(3, 2), tg.zeros(3))
    >>> len(ds), ds[1][0].tolist()
    (3, [1.0, 1.0])
    """

    def __init__(self, *tensors):
        if not tensors:
            raise ValueError("TensorDataset: give at least one tensor")
        for t in tensors:
            if not isinstance(t, Tensor):
                raise TypeError(f"TensorDataset: expected tapegrad Tensors, got "
                                f"{type(t).__name__} (convert it with tapegrad.as_tensor)")
            if t.ndim == 0:  # (PyTorch's size(0) of it)
                raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        if len({t.shape[0] for t in tensors}) != 1:
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self):
        return self.tensors[0].shape[0]


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order."""

    def __init__(self, dataset, indices):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)


class ConcatDataset(Dataset):
    """The samples of several map-style datasets, one after the other."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise ValueError("datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise TypeError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        if idx >= len(self):
            raise IndexError(f"index {idx} is out of range for a ConcatDataset of length "
                             f"{len(self)}")
        k = bisect.bisect_right(self.cumulative_sizes, idx)
        return self.datasets[k][idx - (self.cumulative_sizes[k - 1] if k else 0)]


class StackDataset(Dataset):
    """Samples that are tuples (datasets given by position) or dicts (by keyword) of the
    samples of several datasets of one length at the same index."""

    def __init__(self, *args, **kwargs):
        if args and kwargs:
            raise ValueError("Supported either ``tuple``- (via ``args``) or``dict``- (via "
                             "``kwargs``) like input/output, but both types are given.")
        datasets = args or tuple(kwargs.values())
        if not datasets:
            raise ValueError("At least one dataset should be passed")
        self._length = len(datasets[0])
        if any(len(d) != self._length for d in datasets):
            raise ValueError("Size mismatch between datasets")
        self.datasets = args if args else dict(kwargs)

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {k: d[index] for k, d in self.datasets.items()}
        return tuple(d[index] for d in self.datasets)

    def __len__(self):
        return self._length


class ChainDataset(IterableDataset):
    """The samples of several iterable datasets, one stream after the other."""

    def __init__(self, datasets):
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise TypeError("ChainDataset only supports IterableDataset")
            yield from d

    def __len__(self):
        return sum(len(d) for d in self.datasets)


def _draw_seed(generator):
    """A seed for a fresh generator, from ``generator`` or the default one."""
    return int(randint(0, 2 ** 62, (1,), generator=generator)._data[0])


def random_split(dataset, lengths, generator=None):
    """Split ``dataset`` into non-overlapping random ``Subset``s of the given lengths, or of
    fractions of its length summing to 1 (the remainder goes one by one to the first
    subsets, as in PyTorch).

    >>> import tapegrad as tg
    >>> a, b = random_split(range(10), [0.7, 0.3], generator=tg.Generator().manual_seed(0))
    >>> len(a), len(b), sorted(list(a) + list(b)) == list(range(10))
    (7, 3, True)
    """
    lengths = list(lengths)
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        counts = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise ValueError(f"Fraction at index {i} is not between 0 and 1")
            counts.append(int(math.floor(n * frac)))
        for i in range(n - sum(counts)):
            counts[i % len(counts)] += 1
        for i, c in enumerate(counts):
            if c == 0:
                warnings.warn(f"Length of split at index {i} is 0. This might result in an "
                              "empty dataset.", stacklevel=2)
        lengths = counts
    if sum(lengths) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = randperm(sum(lengths), generator=generator).tolist()
    return [Subset(dataset, order[end - k:end])
            for end, k in zip(itertools.accumulate(lengths), lengths)]


# ---- samplers ------------------------------------------------------------------------------
class Sampler(typing.Generic[_T_co]):
    """Base class of index samplers: ``__iter__`` yields dataset indices."""

    def __init__(self, data_source=None):
        pass

    def __iter__(self):
        raise NotImplementedError


class SequentialSampler(Sampler):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random permutation each epoch (or ``num_samples`` draws with ``replacement``)."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        if not isinstance(replacement, bool):
            raise TypeError(f"replacement should be a boolean value, but got "
                            f"replacement={replacement}")
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got "
                             f"num_samples={self.num_samples}")

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        g = self.generator
        if g is None:  # a fresh stream per epoch, seeded from the default generator
            g = Generator().manual_seed(_draw_seed(None))
        if self.replacement:
            yield from randint(0, n, (self.num_samples,), generator=g).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from randperm(n, generator=g).tolist()
        yield from randperm(n, generator=g).tolist()[:self.num_samples % n]

    def __len__(self):
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given indices in a random order each epoch."""

    def __init__(self, indices, generator=None):
        self.indices = indices
        self.generator = generator

    def __iter__(self):
        for i in randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices drawn with probabilities proportional to ``weights`` (with or
    without ``replacement``), afresh each epoch."""

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        if isinstance(num_samples, bool) or not isinstance(num_samples, int) or \
                num_samples <= 0:
            raise ValueError(f"num_samples should be a positive integer value, but got "
                             f"num_samples={num_samples}")
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got "
                             f"replacement={replacement}")
        w = np.asarray(weights._data if isinstance(weights, Tensor) else weights, np.float64)
        if w.ndim != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape "
                             f"{tuple(w.shape)}")
        self.weights = tensor(w)
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self):
        drawn = multinomial(self.weights, self.num_samples, self.replacement,
                            generator=self.generator)
        yield from drawn.tolist()

    def __len__(self):
        return self.num_samples


class BatchSampler(Sampler):
    """Lists of ``batch_size`` indices from ``sampler`` (the last one shorter unless
    ``drop_last``).

    >>> list(BatchSampler(SequentialSampler(range(5)), batch_size=2, drop_last=False))
    [[0, 1], [2, 3], [4]]
    """

    def __init__(self, sampler, batch_size, drop_last):
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError(f"batch_size should be a positive integer value, but got "
                             f"batch_size={batch_size}")
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got "
                             f"drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self):
        it = iter(self.sampler)
        while True:
            batch = list(itertools.islice(it, self.batch_size))
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield batch

    def __len__(self):
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


# ---- collation -----------------------------------------------------------------------------
default_collate_err_msg_format = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
    "found {}")


def _rebuild(sample, items):
    """A mapping or sequence of ``sample``'s type holding ``items`` (a plain dict or list
    when the type cannot be built that way), as PyTorch does."""
    try:
        return type(sample)(items)
    except TypeError:
        return dict(items) if isinstance(sample, collections.abc.Mapping) else list(items)


def collate(batch, *, collate_fn_map=None):
    """PyTorch's ``torch.utils.data._utils.collate.collate``: a batch's elements of a type
    (or a subclass of a type, in the map's order) that ``collate_fn_map`` maps go to its
    function; mappings, namedtuples and sequences are collated field by field (a tuple
    sample gives a list), anything else is a TypeError."""
    elem = batch[0]
    if collate_fn_map is not None:
        fn = collate_fn_map.get(type(elem))
        if fn is None:
            fn = next((f for t, f in collate_fn_map.items() if isinstance(elem, t)), None)
        if fn is not None:
            return fn(batch, collate_fn_map=collate_fn_map)
    again = lambda samples: collate(samples, collate_fn_map=collate_fn_map)  # noqa: E731
    if isinstance(elem, collections.abc.Mapping):
        return _rebuild(elem, {k: again([d[k] for d in batch]) for k in elem})
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return type(elem)(*(again(s) for s in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(s) != len(elem) for s in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        fields = [again(s) for s in zip(*batch)]
        return fields if isinstance(elem, tuple) else _rebuild(elem, fields)
    raise TypeError(default_collate_err_msg_format.format(type(elem)))


def collate_tensor_fn(batch, *, collate_fn_map=None):
    return stack(list(batch), 0)


def collate_numpy_array_fn(batch, *, collate_fn_map=None):
    if batch[0].dtype.kind in "SaUO":  # (strings and objects: PyTorch's refusal)
        raise TypeError(default_collate_err_msg_format.format(batch[0].dtype))
    return collate([as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch, *, collate_fn_map=None):
    return as_tensor(np.array(batch))


def collate_float_fn(batch, *, collate_fn_map=None):
    return tensor(batch, dtype=dtypes.float64)


def collate_int_fn(batch, *, collate_fn_map=None):
    return tensor(batch)


def collate_str_fn(batch, *, collate_fn_map=None):
    return batch


default_collate_fn_map = {
    Tensor: collate_tensor_fn, np.ndarray: collate_numpy_array_fn,
    (np.bool_, np.number, np.object_): collate_numpy_scalar_fn, float: collate_float_fn,
    int: collate_int_fn, str: collate_str_fn, bytes: collate_str_fn}


def default_collate(batch):
    """Stack a list of samples into a batch (``collate`` with ``default_collate_fn_map``,
    which a program may extend, as PyTorch's): tensors are stacked along a new first
    dimension, NumPy arrays and numbers become tensors (floats float64, ints int64, bools
    bool), strings stay the sequence they came in (a field's: a tuple), and tuples, lists,
    namedtuples and dicts are collated field by field (a tuple sample gives a list).

    >>> import tapegrad as tg
    >>> b = default_collate([{"x": tg.ones(2), "y": 1}, {"x": tg.zeros(2), "y": 2}])
    >>> b["x"].shape, b["y"]
    (torch.Size([2, 2]), tensor([1, 2]))
    """
    return collate(batch, collate_fn_map=default_collate_fn_map)


def default_convert(data):
    """One sample without batching (``batch_size=None``): NumPy arrays become tensors,
    mappings and sequences are converted element by element, the rest is kept."""
    if isinstance(data, Tensor):
        return data
    if isinstance(data, np.ndarray) and data.dtype.kind not in "SaUO":
        return as_tensor(data)
    if isinstance(data, np.generic) and not isinstance(data, (np.str_, np.bytes_)):
        return as_tensor(np.asarray(data))
    if isinstance(data, collections.abc.Mapping):
        return _rebuild(data, {k: default_convert(v) for k, v in data.items()})
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _rebuild(data, [default_convert(d) for d in data])
    return data


def get_worker_info():
    """None: tapegrad's DataLoader loads in the calling process (no worker processes)."""
    return None


# ---- the loader ------------------------------------------------------------------------------
class DataLoader:
    """Batches of a dataset: ``for xb, yb in DataLoader(ds, batch_size=32, shuffle=True)``.

    ``batch_size``, ``shuffle`` (a new permutation each epoch, from ``generator`` when
    given), ``drop_last``, ``sampler`` / ``batch_sampler`` and ``collate_fn`` behave as in
    PyTorch, ``batch_size=None`` turns batching off, and ``len(loader)`` is the number of
    batches.  Loading runs in the calling process: ``num_workers > 0`` is accepted and
    loads in-process too (``worker_init_fn`` is not called, ``get_worker_info()`` is None),
    and ``pin_memory``, ``timeout``, ``prefetch_factor``, ``persistent_workers`` are
    accepted and have no effect (CPU only).

    >>> loader = DataLoader(list(range(7)), batch_size=3, drop_last=True)
    >>> len(loader), [b.tolist() for b in loader]
    (2, [[0, 1, 2], [3, 4, 5]])
    """

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None,
                 num_workers=0, collate_fn=None, pin_memory=False, drop_last=False, timeout=0,
                 worker_init_fn=None, multiprocessing_context=None, generator=None, *,
                 prefetch_factor=None, persistent_workers=False, pin_memory_device="",
                 in_order=True):
        if not isinstance(num_workers, int) or num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 "
                             "to disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        self.dataset = dataset
        self.num_workers = num_workers
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.generator = generator
        self.prefetch_factor = prefetch_factor
        self.persistent_workers = persistent_workers
        self._iterable = isinstance(dataset, IterableDataset)
        if self._iterable:
            if shuffle not in (None, False):
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified "
                                 f"shuffle option, but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified "
                                 f"sampler option, but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified "
                                 f"batch_sampler option, but got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        if sampler is None and not self._iterable:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else \
                SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None and not self._iterable:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation or (
                self._iterable and batch_size is not None) else default_convert
        self.collate_fn = collate_fn

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    def _fetch(self, indices):
        getitems = getattr(self.dataset, "__getitems__", None)
        if getitems is not None:
            return getitems(indices)
        return [self.dataset[i] for i in indices]

    def __iter__(self):
        if self._iterable:
            it = iter(self.dataset)
            if self.batch_size is None:
                yield from (self.collate_fn(s) for s in it)
                return
            while True:
                batch = list(itertools.islice(it, self.batch_size))
                if not batch or (self.drop_last and len(batch) < self.batch_size):
                    return
                yield self.collate_fn(batch)
        elif self._auto_collation:
            for indices in self.batch_sampler:
                yield self.collate_fn(self._fetch(list(indices)))
        else:
            for i in self.sampler:
                yield self.collate_fn(self.dataset[i])

    def __len__(self):
        if self._iterable:
            n = len(self.dataset)
            if self.batch_size is not None:
                n = n // self.batch_size if self.drop_last else -(-n // self.batch_size)
            return n
        return len(self.batch_sampler if self._auto_collation else self.sampler)


# PyTorch's submodules of torch.utils.data (``torch.utils.data.dataloader.DataLoader``,
# ``...dataset.Dataset``, ``...sampler.RandomSampler``): this module under each name
def _alias_submodules():
    me = sys.modules[__name__]
    for name in ("dataloader", "dataset", "sampler"):
        sys.modules[f"{__name__}.{name}"] = me
        setattr(me, name, me)
    # ``from torch.utils.data._utils.collate import collate, default_collate_fn_map``
    # (code registering its own types' collate functions): a module of those names
    utils, coll = types.ModuleType(f"{__name__}._utils"), types.ModuleType(
        f"{__name__}._utils.collate", "default_collate and its dispatch table")
    for name in ("collate", "collate_tensor_fn", "collate_numpy_array_fn",
                 "collate_numpy_scalar_fn", "collate_float_fn", "collate_int_fn",
                 "collate_str_fn", "default_collate_fn_map", "default_collate_err_msg_format",
                 "default_collate", "default_convert"):
        setattr(coll, name, getattr(me, name))
    utils.collate, me._utils = coll, utils
    sys.modules[utils.__name__], sys.modules[coll.__name__] = utils, coll


_alias_submodules()
