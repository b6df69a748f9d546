# Variable-length sequence classifier: pack_padded_sequence(enforce_sorted=False), GRU, pad_packed,
# gather of the last valid step, bidirectional hidden concatenation
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

seqs = [torch.tensor([3, 1, 4, 1, 5]), torch.tensor([9, 2]), torch.tensor([6, 5, 3])]
lengths = torch.tensor([len(s) for s in seqs])
padded = pad_sequence(seqs, batch_first=True)
print(padded, lengths)


class GRUClassifier(nn.Module):
    def __init__(self, vocab=10, emb=4, hidden=5, n_classes=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=0)
        self.gru = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, n_classes)

    def forward(self, x, lengths):
        embedded = self.embedding(x)
        packed = pack_padded_sequence(embedded, lengths.cpu(), batch_first=True, enforce_sorted=False)
        packed_out, hidden = self.gru(packed)
        out, out_lens = pad_packed_sequence(packed_out, batch_first=True)
        cat = torch.cat((hidden[-2, :, :], hidden[-1, :, :]), dim=1)
        return self.fc(cat), out, out_lens


model = GRUClassifier()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.3 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.71 + i).view_as(p))
logits, out, out_lens = model(padded, lengths)
print(logits.round(decimals=5), out.shape, out_lens.tolist())
idx = (lengths - 1).view(-1, 1, 1).expand(-1, 1, out.size(2))
last_fwd = out.gather(1, idx).squeeze(1)[:, :5]
h_fwd = torch.cat([model(padded, lengths)[0]], 0)
print(last_fwd.shape, out[1, 2:].abs().sum().item())
packed = pack_padded_sequence(model.embedding(padded), lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes.tolist(), packed.sorted_indices.tolist(), packed.unsorted_indices.tolist())
loss = nn.CrossEntropyLoss()(logits, torch.tensor([0, 1, 1]))
loss.backward()
print(round(loss.item(), 6), model.gru.weight_hh_l0_reverse.grad.shape, model.embedding.weight.grad[0].tolist())
