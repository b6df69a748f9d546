# unpad_sequence and unpack_sequence recover the original list
import torch
from torch.nn.utils.rnn import pad_sequence, unpad_sequence, pack_sequence, unpack_sequence

seqs = [torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0]), torch.tensor([6.0])]
padded = pad_sequence(seqs, batch_first=True)
lens = torch.tensor([2, 3, 1])
print(unpad_sequence(padded, lens, batch_first=True))
packed = pack_sequence(seqs, enforce_sorted=False)
print(unpack_sequence(packed))
print(pad_sequence(seqs, batch_first=True, padding_side="left"))
