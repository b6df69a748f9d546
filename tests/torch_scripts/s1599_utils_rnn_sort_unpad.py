# nn.utils.rnn extras: unpad_sequence, unpack_sequence, PackedSequence.to, sorted indices
import torch
from torch.nn.utils.rnn import pad_sequence, unpad_sequence, pack_sequence, unpack_sequence
from torch.nn.utils.rnn import pack_padded_sequence

seqs = [torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0]), torch.tensor([6.0])]
padded = pad_sequence(seqs, batch_first=True, padding_value=0.0)
print(padded)
lens = torch.tensor([2, 3, 1])
print([t.tolist() for t in unpad_sequence(padded, lens, batch_first=True)])
ps = pack_sequence(seqs, enforce_sorted=False)
print(ps.data, ps.batch_sizes, ps.sorted_indices)
print([t.tolist() for t in unpack_sequence(ps)])
pp = pack_padded_sequence(padded.T, lens, enforce_sorted=False)
print(pp.data, pp.unsorted_indices)
print(type(ps).__name__, ps.is_cuda, ps.to(torch.float32).data.dtype)
print(pad_sequence(seqs, padding_side="left", batch_first=True) if "padding_side" in pad_sequence.__code__.co_varnames else None)
