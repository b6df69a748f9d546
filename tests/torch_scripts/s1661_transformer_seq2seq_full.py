# nn.Transformer encoder-decoder on a copy task: src/tgt key padding masks, causal tgt mask,
# label-smoothed cross entropy with ignore_index, Noam-style LambdaLR, greedy decode
import math
import numpy as np
import torch
import torch.nn as nn

PAD, BOS, V, D = 0, 1, 9, 16
rng = np.random.default_rng(123)
lens = rng.integers(3, 6, size=10)
src = torch.full((10, 6), PAD, dtype=torch.long)
for i, L in enumerate(lens):
    src[i, :L] = torch.from_numpy(rng.integers(2, V, size=L))
tgt_in = torch.cat([torch.full((10, 1), BOS, dtype=torch.long), src[:, :-1]], 1)
tgt_out = src.clone()


class PositionalEncoding(nn.Module):
    def __init__(self, d, max_len=32):
        super().__init__()
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))
        pe = torch.zeros(max_len, d)
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe, persistent=False)

    def forward(self, x):
        return x + self.pe[: x.size(1)]


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=PAD)
        self.pos = PositionalEncoding(D)
        self.tf = nn.Transformer(D, nhead=4, num_encoder_layers=1, num_decoder_layers=1,
                                 dim_feedforward=32, dropout=0.0, batch_first=True)
        self.out = nn.Linear(D, V)

    def forward(self, s, t):
        tmask = self.tf.generate_square_subsequent_mask(t.size(1))
        h = self.tf(self.pos(self.emb(s) * math.sqrt(D)), self.pos(self.emb(t) * math.sqrt(D)),
                    tgt_mask=tmask, src_key_padding_mask=s == PAD,
                    tgt_key_padding_mask=t == PAD, memory_key_padding_mask=s == PAD)
        return self.out(h)


model = Seq2Seq()
g = np.random.default_rng(5)
with torch.no_grad():
    for n, p in model.named_parameters():
        p.copy_(torch.from_numpy(g.normal(0, 0.15, tuple(p.shape))))
        if n == "emb.weight":
            p[PAD].zero_()
print(len(model.state_dict()), "pe" in model.state_dict())
opt = torch.optim.Adam(model.parameters(), lr=1.0, betas=(0.9, 0.98), eps=1e-9)
sched = torch.optim.lr_scheduler.LambdaLR(
    opt, lambda s: D ** -0.5 * min((s + 1) ** -0.5, (s + 1) * 4 ** -1.5))
crit = nn.CrossEntropyLoss(ignore_index=PAD, label_smoothing=0.1)
for step in range(10):
    model.train()
    logits = model(src, tgt_in)
    loss = crit(logits.reshape(-1, V), tgt_out.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if step % 3 == 0:
        print(step, f"{loss.item():.5f}", f"{sched.get_last_lr()[0]:.5f}")
print("pad row grad zero", model.emb.weight.grad[PAD].abs().sum().item())
model.eval()
with torch.no_grad():
    ys = torch.full((2, 1), BOS, dtype=torch.long)
    for _ in range(5):
        nxt = model(src[:2], ys)[:, -1].argmax(-1, keepdim=True)
        ys = torch.cat([ys, nxt], 1)
print(ys.tolist())
print(src[:2].tolist())
