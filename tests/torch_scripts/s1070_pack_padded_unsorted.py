# pack_padded_sequence with enforce_sorted=False, unsorted_indices, pad_packed_sequence total_length
import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence, unpad_sequence, unpack_sequence

seqs = [torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0, 6.0]), torch.tensor([7.0])]
padded = pad_sequence(seqs, batch_first=True, padding_value=-1)
print(padded)
lengths = torch.tensor([2, 4, 1])
packed = pack_padded_sequence(padded.unsqueeze(-1), lengths, batch_first=True, enforce_sorted=False)
print(packed.data.squeeze(-1), packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
out, lens = pad_packed_sequence(packed, batch_first=True, total_length=6)
print(out.squeeze(-1), lens)
ps = pack_sequence(seqs, enforce_sorted=False)
print([s.tolist() for s in unpack_sequence(ps)])
print([s.tolist() for s in unpad_sequence(padded, lengths, batch_first=True)])
try:
    pack_padded_sequence(padded, lengths, batch_first=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:70])
print(pad_sequence(seqs, padding_side="left", batch_first=True))
