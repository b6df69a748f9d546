# An encoder written as torchvision's ViT writes it: torch._assert on input shapes,
# MLPBlock as an nn.Sequential subclass, an OrderedDict of EncoderBlocks, nn.MultiheadAttention
# with need_weights=False, a learned position embedding initialized by normal_(std=0.02)
# replaced by a NumPy draw; trained a few steps and evaluated
from collections import OrderedDict
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(831)


class MLPBlock(nn.Sequential):
    def __init__(self, in_dim, mlp_dim):
        super().__init__(nn.Linear(in_dim, mlp_dim), nn.GELU(), nn.Dropout(0.0),
                         nn.Linear(mlp_dim, in_dim), nn.Dropout(0.0))


class EncoderBlock(nn.Module):
    def __init__(self, heads, hidden, mlp_dim):
        super().__init__()
        self.ln_1 = nn.LayerNorm(hidden, eps=1e-6)
        self.self_attention = nn.MultiheadAttention(hidden, heads, dropout=0.0, batch_first=True)
        self.ln_2 = nn.LayerNorm(hidden, eps=1e-6)
        self.mlp = MLPBlock(hidden, mlp_dim)

    def forward(self, input):
        torch._assert(input.dim() == 3, f"Expected (batch_size, seq_length, hidden_dim) got {input.shape}")
        x = self.ln_1(input)
        x, _ = self.self_attention(x, x, x, need_weights=False)
        x = x + input
        return x + self.mlp(self.ln_2(x))


class Encoder(nn.Module):
    def __init__(self, seq_length, layers, heads, hidden, mlp_dim):
        super().__init__()
        self.pos_embedding = nn.Parameter(torch.empty(1, seq_length, hidden))
        self.layers = nn.Sequential(OrderedDict(
            (f"encoder_layer_{i}", EncoderBlock(heads, hidden, mlp_dim)) for i in range(layers)))
        self.ln = nn.LayerNorm(hidden, eps=1e-6)

    def forward(self, input):
        torch._assert(input.dim() == 3, f"Expected (batch_size, seq_length, hidden_dim) got {input.shape}")
        return self.ln(self.layers(input + self.pos_embedding))


enc = Encoder(seq_length=5, layers=2, heads=2, hidden=8, mlp_dim=16)
with torch.no_grad():
    for n, p in enc.named_parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.02 if "pos" in n else 0.3, tuple(p.shape))))
print([n for n, _ in enc.layers.named_children()])
x = torch.from_numpy(rng.standard_normal((3, 5, 8)))
y = torch.from_numpy(rng.standard_normal((3, 5, 8)))
opt = torch.optim.AdamW(enc.parameters(), lr=3e-3)
for it in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(enc(x), y)
    loss.backward()
    opt.step()
    print(it, f"{loss.item():.6f}")
try:
    enc(x[0])
except AssertionError as e:
    print("AssertionError:", e)
enc.eval()
with torch.no_grad():
    print(enc(x)[0, 0].numpy().round(5))
print(enc.pos_embedding.grad[0, :2, :3].numpy().round(6))
