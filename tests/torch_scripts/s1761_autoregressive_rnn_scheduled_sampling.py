# A sequence-to-one-step RNN forecaster trained with scheduled sampling: at each step the
# decoder input is the ground truth or the model's own previous prediction, chosen by
# NumPy coin flips with a teacher-forcing ratio decayed per epoch; GRUCell decoder
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(1081)
T = 12
t = np.linspace(0, 3 * np.pi, T + 1)
phase = rng.uniform(0, np.pi, (16, 1))
seqs = torch.from_numpy(np.sin(t[None] + phase))


class Decoder(nn.Module):
    def __init__(self, h=12):
        super().__init__()
        self.cell = nn.GRUCell(1, h)
        self.out = nn.Linear(h, 1)
        self.h = h

    def forward(self, seq, tf_ratio):
        b = seq.size(0)
        h = torch.zeros(b, self.h)
        inp = seq[:, :1]
        preds = []
        for step in range(seq.size(1) - 1):
            h = self.cell(inp, h)
            y = self.out(h)
            preds.append(y)
            use_truth = rng.random() < tf_ratio
            inp = seq[:, step + 1:step + 2] if use_truth else y
        return torch.cat(preds, 1)


model = Decoder()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(8):
    ratio = max(0.0, 1.0 - epoch / 6)
    opt.zero_grad()
    pred = model(seqs, ratio)
    loss = nn.functional.mse_loss(pred, seqs[:, 1:])
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    print(epoch, f"ratio {ratio:.3f} loss {loss.item():.6f}")
with torch.no_grad():
    free = model(seqs[:2], 0.0)
print(free[:, -3:].numpy().round(4), seqs[:2, -3:].numpy().round(4))
