# A speech-recognition-style model: Conv1d front end over "spectrogram" frames, a
# bidirectional GRU, log_softmax over characters with blank=0, nn.CTCLoss with input and
# target lengths; greedy CTC decoding (collapse repeats, drop blanks)
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(541)
B, T, FEAT, C = 3, 16, 6, 5
specs = torch.from_numpy(rng.standard_normal((B, FEAT, T)))
targets = torch.tensor([[1, 2, 3, 0], [2, 4, 0, 0], [3, 3, 1, 4]])
target_lengths = torch.tensor([3, 2, 4])
input_lengths = torch.tensor([16, 12, 16])


class ASR(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(FEAT, 8, 3, padding=1)
        self.gru = nn.GRU(8, 6, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(12, C)

    def forward(self, x):
        h = F.gelu(self.conv(x)).transpose(1, 2)
        h, _ = self.gru(h)
        return F.log_softmax(self.fc(h), dim=-1)


model = ASR()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
ctc = nn.CTCLoss(blank=0, zero_infinity=True)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for it in range(6):
    logp = model(specs)
    loss = ctc(logp.transpose(0, 1), targets, input_lengths, target_lengths)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    opt.step()
    print(it, f"{loss.item():.6f}")


def greedy_decode(lp, n):
    best = lp[:n].argmax(-1).tolist()
    out, prev = [], None
    for k in best:
        if k != prev and k != 0:
            out.append(k)
        prev = k
    return out


with torch.no_grad():
    lp = model(specs)
print([greedy_decode(lp[b], input_lengths[b]) for b in range(B)])
per = F.ctc_loss(lp.transpose(0, 1), targets, input_lengths, target_lengths, reduction="none")
print(per.numpy().round(5))
