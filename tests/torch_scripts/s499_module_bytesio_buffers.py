import io
import torch
import torch.nn as nn


class Normalizer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.register_buffer("mean", torch.zeros(dim))
        self.register_buffer("std", torch.ones(dim))
        self.register_buffer("scratch", torch.zeros(2), persistent=False)
        self.register_buffer("maybe", None)
        self.scale = nn.Parameter(torch.ones(dim))

    def fit(self, x):
        self.mean.copy_(x.mean(0))
        self.std.copy_(x.std(0))
        return self

    def forward(self, x):
        return (x - self.mean) / self.std * self.scale


data = torch.arange(12.0).view(4, 3) ** 1.5
norm = Normalizer(3).fit(data)
print(list(norm.state_dict().keys()))
print([n for n, _ in norm.named_buffers()])
buf = io.BytesIO()
torch.save(norm.state_dict(), buf)
print(buf.tell() > 0)
buf.seek(0)
sd = torch.load(buf, map_location="cpu", weights_only=True)
print(type(sd).__name__, sorted(sd), sd["mean"])
fresh = Normalizer(3)
res = fresh.load_state_dict(sd)
print(res)
print(torch.equal(fresh(data), norm(data)))
sd2 = dict(sd)
sd2.pop("std")
sd2["extra"] = torch.ones(1)
res = fresh.load_state_dict(sd2, strict=False)
print(res.missing_keys, res.unexpected_keys)
try:
    fresh.load_state_dict(sd2)
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
bad = dict(sd)
bad["mean"] = torch.zeros(4)
try:
    fresh.load_state_dict(bad)
except RuntimeError as e:
    print(str(e).splitlines()[1].strip())
# whole objects too
buf = io.BytesIO()
torch.save({"model": norm.state_dict(), "epoch": 7, "hist": [0.5, 0.25]}, buf)
buf.seek(0)
ckpt = torch.load(buf, weights_only=False)
print(ckpt["epoch"], ckpt["hist"], ckpt["model"]["scale"].requires_grad)
print(norm.scratch, norm.maybe, norm.state_dict()["std"].round(decimals=4))
