# BiLSTM sequence tagger on variable-length sentences: pad_sequence, pack_padded_sequence
# (enforce_sorted=False), pad_packed_sequence, masked token-level loss, accuracy on tokens
import numpy as np
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

rng = np.random.default_rng(131)
V, NT = 12, 3
sents = [torch.from_numpy(rng.integers(1, V, size=n)) for n in [5, 3, 6, 2, 4, 6]]
tags = [s % NT for s in sents]
lengths = torch.tensor([len(s) for s in sents])
X = pad_sequence(sents, batch_first=True)
Y = pad_sequence(tags, batch_first=True, padding_value=-100)
print(X.shape, Y[3].tolist(), lengths.tolist())


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 6, padding_idx=0)
        self.lstm = nn.LSTM(6, 5, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(10, NT)

    def forward(self, x, lengths):
        packed = pack_padded_sequence(self.emb(x), lengths, batch_first=True,
                                      enforce_sorted=False)
        out, (h, c) = self.lstm(packed)
        out, out_lens = pad_packed_sequence(out, batch_first=True, total_length=x.size(1))
        return self.proj(out), h, out_lens


model = Tagger()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.4 * torch.sin(torch.arange(p.numel()) * 0.43 + 0.5 * i).view_as(p))
opt = torch.optim.Adagrad(model.parameters(), lr=0.3, lr_decay=0.01)
crit = nn.CrossEntropyLoss(ignore_index=-100)
for ep in range(8):
    opt.zero_grad()
    logits, h, _ = model(X, lengths)
    loss = crit(logits.view(-1, NT), Y.view(-1))
    loss.backward()
    opt.step()
    if ep % 2 == 1:
        print(ep, f"{loss.item():.6f}")
model.eval()
with torch.no_grad():
    logits, h, out_lens = model(X, lengths)
    mask = Y != -100
    acc = (logits.argmax(-1)[mask] == Y[mask]).double().mean()
print("token acc", round(acc.item(), 4), out_lens.tolist(), h.shape)
print("padded outputs equal bias", torch.allclose(logits[3, 2:], model.proj.bias.expand(4, NT)))
print(h[:, 1].numpy().round(5))
print(opt.state[model.proj.bias]["sum"].numpy().round(6), opt.state[model.proj.bias]["step"])
