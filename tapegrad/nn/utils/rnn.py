"""Batches of sequences of different lengths, as PyTorch's ``nn.utils.rnn``: padded into one
tensor (``pad_sequence``), or packed time step by time step (``PackedSequence``: the steps'
rows one after another, ``batch_sizes[t]`` sequences still running at step t, longest
first), which the recurrent layers run without touching the padding.  Packing and
unpacking are one gather row each, so gradients flow through them.

>>> import tapegrad as tg
>>> from tapegrad.nn.utils.rnn import pack_padded_sequence, pad_sequence
>>> padded = pad_sequence([tg.ones(3), tg.ones(1)])
>>> padded.tolist()
[[1.0, 1.0], [1.0, 0.0], [1.0, 0.0]]
>>> pack_padded_sequence(padded, [3, 1]).batch_sizes.tolist()
[2, 1, 1]
"""
from collections import namedtuple

import numpy as np

from ... import ops
from ...ops._record import named_result
from ...tensor import Tensor


class PackedSequence(namedtuple("PackedSequence",
                                ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])):
    """Packed sequences: ``data`` holds step 0's rows of the ``batch_sizes[0]`` sequences,
    then step 1's, ...; ``sorted_indices`` (or None) orders the batch longest first and
    ``unsorted_indices`` undoes it."""

    __slots__ = ()

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = _invert(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs):
        """The same packing with ``data`` converted as ``Tensor.to`` does (indices kept)."""
        data = self.data.to(*args, **kwargs)
        return self if data is self.data else type(self)(data, self.batch_sizes,
                                                         self.sorted_indices,
                                                         self.unsorted_indices)

    def cpu(self):
        return self

    def double(self):
        return self.to(np.float64)

    def float(self):
        return self.to(np.float32)

    @property
    def is_cuda(self):
        return False


def _invert(permutation):
    inv = np.empty(permutation.numel(), np.int64)
    inv[np.asarray(permutation._data)] = np.arange(permutation.numel())
    return Tensor(inv)


def invert_permutation(permutation):
    """The inverse of a permutation (int64 indices), None for None."""
    return None if permutation is None else _invert(permutation)


def _lengths(lengths):
    if isinstance(lengths, Tensor):
        lengths = np.asarray(lengths._data)
    out = np.asarray(lengths, dtype=np.int64).reshape(-1)
    if out.size and out.min() <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an "
                           "element in 'lengths' that is <= 0")
    return out


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Pack ``input`` (T, B, *) (or (B, T, *) if ``batch_first``) holding sequences of
    ``lengths``; these must be decreasing unless ``enforce_sorted=False``."""
    if not isinstance(input, Tensor):
        raise TypeError(f"pack_padded_sequence(): argument 'input' must be Tensor, not "
                        f"{type(input).__name__}")
    lengths = _lengths(lengths)
    if input.ndim < 2:
        raise RuntimeError(f"pack_padded_sequence: expected an input of at least 2 dims (T, B, "
                           f"*), got shape {list(input.shape)}")
    t_max, batch = (input.shape[1], input.shape[0]) if batch_first else input.shape[:2]
    if lengths.size != batch:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got "
                           f"{lengths.size} (batch_size={batch})")
    if lengths.size and lengths.max() > t_max:
        raise RuntimeError(f"pack_padded_sequence: a length {int(lengths.max())} is longer "
                           f"than the padded input's {t_max} steps")
    if enforce_sorted:
        if (np.diff(lengths) > 0).any():
            raise RuntimeError("`lengths` array must be sorted in decreasing order when "
                               "`enforce_sorted` is True. You can pass `enforce_sorted=False` "
                               "to pack_padded_sequence and/or pack_sequence to sidestep this "
                               "requirement if you do not need ONNX exportability.")
        order, sorted_indices = np.arange(batch), None
    else:
        order = np.argsort(-lengths, kind="stable")
        sorted_indices = Tensor(order.astype(np.int64))
    steps = np.arange(int(lengths.max()) if lengths.size else 0)
    batch_sizes = (lengths[None, :] > steps[:, None]).sum(1)
    # the (step, sequence) of every packed row, as a flat index into the input's (T*B) rows
    t_of = np.repeat(steps, batch_sizes)
    b_of = order[np.concatenate([np.arange(n) for n in batch_sizes] or [np.zeros(0, int)])]
    flat = b_of * t_max + t_of if batch_first else t_of * batch + b_of
    rows = input.reshape(-1, *input.shape[2:]).index_select(0, Tensor(flat.astype(np.int64)))
    rows = named_result(rows, "PackPaddedSequenceBackward0", input)  # (PyTorch's one node)
    return PackedSequence(rows, Tensor(batch_sizes.astype(np.int64)), sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """Undo ``pack_padded_sequence``: (padded (T, B, *) or (B, T, *), lengths)."""
    data, batch_sizes = sequence.data, np.asarray(sequence.batch_sizes._data)
    batch, t_max = (int(batch_sizes[0]), batch_sizes.size) if batch_sizes.size else (0, 0)
    if total_length is not None:
        if total_length < t_max:
            raise ValueError(f"Expected total_length to be at least the length of the longest "
                             f"sequence in input, but got total_length={total_length} and max "
                             f"sequence length being {t_max}")
        t_max = total_length
    lengths = (batch_sizes[None, :] > np.arange(batch)[:, None]).sum(1)
    # the packed row of every (step, sequence), or the padding row appended after the data
    start = np.concatenate([[0], np.cumsum(batch_sizes)])
    steps, seqs = np.arange(t_max)[:, None], np.arange(batch)[None, :]
    live = seqs < np.pad(batch_sizes, (0, t_max - batch_sizes.size))[:, None]
    index = np.where(live, start[np.minimum(steps, max(batch_sizes.size - 1, 0))] + seqs,
                     data.shape[0])
    pad_row = Tensor(np.full((1, *data.shape[1:]), padding_value, data.dtype))
    out = ops.cat([data, pad_row], 0).index_select(0, Tensor(index.reshape(-1)))
    out = out.reshape(t_max, batch, *data.shape[1:])
    if batch_first:
        out = out.transpose(0, 1)
    elif sequence.unsorted_indices is None:  # (PyTorch's: its padding written slice by slice)
        out = named_result(out, "torch::autograd::CopySlices", data)
    if sequence.unsorted_indices is not None:  # (last, as PyTorch: a contiguous result)
        out = out.index_select(0 if batch_first else 1, sequence.unsorted_indices)
        lengths = lengths[np.asarray(sequence.unsorted_indices._data)]
    return out, Tensor(lengths.astype(np.int64))


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stack tensors (L_i, *) of one trailing shape into (max L, B, *) (or (B, max L, *)),
    padded with ``padding_value`` on the right (or the left)."""
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got "
                           f"{padding_side}.")
    if isinstance(sequences, Tensor):
        sequences = list(sequences.unbind(0))
    sequences = list(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    trailing = tuple(sequences[0].shape[1:])
    for s in sequences:
        if tuple(s.shape[1:]) != trailing:
            raise RuntimeError(f"pad_sequence: every sequence must have the trailing shape "
                               f"{list(trailing)} of the first, got {list(s.shape)}")
    longest = max(s.shape[0] for s in sequences)
    dtype = np.result_type(*[s.dtype for s in sequences])
    padded = []
    for s in sequences:
        gap = longest - s.shape[0]
        if gap:
            fill = Tensor(np.full((gap, *trailing), padding_value, dtype))
            s = ops.cat([s, fill] if padding_side == "right" else [fill, s], 0)
        padded.append(s)
    return ops.stack(padded, 0 if batch_first else 1)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The list of sequences ``pad_sequence`` padded, cut to ``lengths``."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [seq[:int(n)] for seq, n in zip(padded_sequences, _lengths(lengths),
                                           strict=True)]


def pack_sequence(sequences, enforce_sorted=True):
    """Pack a list of tensors (L_i, *) (decreasing lengths unless ``enforce_sorted=False``)."""
    lengths = [s.shape[0] for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths,
                                enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of sequences in ``packed_sequences``."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
