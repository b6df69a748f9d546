# Tiny transformer language model: token + learned positional embeddings,
# nn.TransformerEncoder with a causal mask (generate_square_subsequent_mask), AdamW,
# warmup LambdaLR, eval-mode perplexity
import math
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
V, D, T = 11, 16, 8
rng = np.random.default_rng(7)
seqs = np.stack([(np.arange(T + 1) * k + s) % V for k, s in rng.integers(1, V, (24, 2))])
data = torch.from_numpy(seqs)


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(V, D)
        self.pos = nn.Parameter(torch.zeros(1, T, D))
        layer = nn.TransformerEncoderLayer(D, nhead=2, dim_feedforward=32, dropout=0.0,
                                           batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.ln = nn.LayerNorm(D)
        self.head = nn.Linear(D, V, bias=False)

    def forward(self, idx):
        t = idx.size(1)
        mask = nn.Transformer.generate_square_subsequent_mask(t)
        x = self.tok(idx) + self.pos[:, :t]
        x = self.blocks(x, mask=mask, is_causal=True)
        return self.head(self.ln(x))


model = TinyLM()
wr = np.random.default_rng(11)
with torch.no_grad():
    for n, p in model.named_parameters():
        if p.dim() > 1:
            p.copy_(torch.from_numpy(wr.normal(0, 0.2, tuple(p.shape))))
        elif n.endswith("bias"):
            p.zero_()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
warm = 4
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warm))
for step in range(12):
    model.train()
    xb, yb = data[:, :-1], data[:, 1:]
    logits = model(xb)
    loss = nn.functional.cross_entropy(logits.reshape(-1, V), yb.reshape(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    sched.step()
    if step % 3 == 2:
        print(step, f"{loss.item():.5f}", f"{sched.get_last_lr()[0]:.5f}")

model.eval()
with torch.no_grad():
    logits = model(data[:, :-1])
    nll = nn.functional.cross_entropy(logits.reshape(-1, V), data[:, 1:].reshape(-1))
    print("ppl", round(math.exp(nll.item()), 4))
    full = model(data[:2, :-1])
    part = model(data[:2, :4])
    print("causal prefix ok", torch.allclose(full[:, :4], part, atol=1e-10))
    print(full[0, -1].softmax(-1).numpy().round(4))
print(nn.Transformer.generate_square_subsequent_mask(3))
