import torch
import torch.nn as nn

text = "hello world hello torch"
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
print(len(chars), data[:6])


class CharModel(nn.Module):
    def __init__(self, vocab, hidden=12):
        super().__init__()
        self.embed = nn.Embedding(vocab, 6)
        self.rnn = nn.GRU(6, hidden, num_layers=2, batch_first=True, dropout=0.0)
        self.proj = nn.Linear(hidden, vocab)

    def forward(self, idx, h=None):
        out, h = self.rnn(self.embed(idx), h)
        return self.proj(out), h


model = CharModel(len(chars))
for i, p in enumerate(model.parameters()):
    with torch.no_grad():
        p.copy_(torch.sin(torch.arange(p.numel()) * 0.71 + i * 0.3).view_as(p) * 0.4)
opt = torch.optim.Adam(model.parameters(), lr=0.03)
seq = 8
xs = torch.stack([data[i:i + seq] for i in range(0, len(data) - seq - 1, 3)])
ys = torch.stack([data[i + 1:i + seq + 1] for i in range(0, len(data) - seq - 1, 3)])
print(xs.shape, ys.shape)
for step in range(25):
    logits, _ = model(xs)
    loss = nn.functional.cross_entropy(logits.reshape(-1, len(chars)), ys.reshape(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    nn.utils.clip_grad_value_(model.parameters(), 1.0)
    opt.step()
    if step % 8 == 0:
        print(step, round(loss.item(), 5))
# greedy generation carrying the hidden state
model.eval()
idx = torch.tensor([[stoi["h"]]])
h = None
out = "h"
with torch.no_grad():
    for _ in range(10):
        logits, h = model(idx, h)
        idx = logits[:, -1].argmax(-1, keepdim=True)
        out += itos[idx.item()]
print(len(out), h.shape)
print(model.rnn.weight_hh_l1.shape, model.rnn.bias_ih_l0.shape, model.rnn.num_layers)
print(model)
