# A hand-rolled pre-norm transformer encoder as research repos write one: _get_clones and
# _get_activation_fn of torch.nn.modules.transformer, type hints of torch.types, a
# custom __repr__ built with _addindent, AdamW imported via torch.optim.adamw
import math
import torch
import torch.nn as nn
from torch.nn.modules.module import _addindent
from torch.nn.modules.transformer import _get_activation_fn, _get_clones
from torch.optim.adamw import AdamW
from torch.types import Number


class Layer(nn.Module):
    def __init__(self, d: int, heads: int, activation: str = "gelu"):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.Linear(2 * d, d))
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.act = _get_activation_fn(activation)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.n1(x)).view(b, t, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-2, -1) / math.sqrt(d // self.h)).softmax(-1)
        x = x + self.proj((att @ v).transpose(1, 2).reshape(b, t, d))
        return x + self.ff[1](self.act(self.ff[0](self.n2(x))))


class Encoder(nn.Module):
    def __init__(self, layer: nn.Module, n: int, scale: Number = 1.0):
        super().__init__()
        self.layers = _get_clones(layer, n)
        self.scale = scale

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x * self.scale

    def __repr__(self):
        body = _addindent(repr(self.layers[0]), 2)
        return f"Encoder(x{len(self.layers)}, scale={self.scale}\n  {body}\n)"


enc = Encoder(Layer(8, 2), 2, scale=0.5)
with torch.no_grad():
    for i, p in enumerate(enc.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.53 + i).view_as(p) * 0.3)
print(enc)
print(enc.layers[0].qkv.weight.data_ptr() != enc.layers[1].qkv.weight.data_ptr())
x = torch.cos(torch.arange(2 * 4 * 8, dtype=torch.float64) * 0.3).view(2, 4, 8)
opt = AdamW(enc.parameters(), lr=0.01, weight_decay=0.1)
for step in range(3):
    loss = (enc(x) - x.flip(1)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}")
try:
    _get_activation_fn("swish")
except RuntimeError as e:
    print("RuntimeError", e)
print(type(opt).__module__.split(".")[-1] in ("adamw", "optimizer"), isinstance(0.5, Number))
