# Variable-length sequences: pad_sequence batch_first and padding_value, lengths to a mask,
# pack/unpack round trip with enforce_sorted=False, unpad_sequence
import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence, unpad_sequence

seqs = [torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0]), torch.tensor([5.0, 6.0])]
print(pad_sequence(seqs), pad_sequence(seqs, batch_first=True, padding_value=-1.0))
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True)
mask = torch.arange(padded.size(1))[None] < lengths[:, None]
print(mask, padded[mask])
packed = pack_padded_sequence(padded.unsqueeze(-1), lengths, batch_first=True, enforce_sorted=False)
print(packed.data.squeeze(-1), packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
back, lens = pad_packed_sequence(packed, batch_first=True, padding_value=9.0)
print(back.squeeze(-1), lens)
print(unpad_sequence(padded, lengths, batch_first=True))
print(pad_sequence([torch.ones(2, 3), torch.ones(1, 3)]).shape)
try:
    pack_padded_sequence(padded, torch.tensor([1, 3, 2]), batch_first=True)
except RuntimeError as e:
    print(str(e)[:70])
