import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)
        self.register_buffer("scale", torch.tensor(2.0))

    def forward(self, x):
        return self.norm(self.lin(x)) * self.scale


model = nn.Sequential(Block(3), nn.GELU(), nn.ModuleDict({"a": nn.Linear(3, 2), "b": nn.Identity()}))
print([n for n, _ in model.named_modules()])
print([n for n, _ in model.named_parameters()])
print([n for n, _ in model.named_buffers()])
print([type(c).__name__ for c in model.children()])
print(model.get_submodule("0.lin"), model.get_parameter("2.a.bias").shape, model.get_buffer("0.scale"))
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
model[0].lin.requires_grad_(False)
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
model.apply(lambda m: nn.init.zeros_(m.bias) if isinstance(m, nn.Linear) else None)
print(model[2]["a"].bias)
model.eval()
print(model.training, model[0].training)
print(model[:2])
print(len(model), model[-1].keys() if hasattr(model[-1], "keys") else None)
model.add_module("out", nn.Tanh())
print(list(dict(model.named_children()).keys()))
del model[1]
print(len(model))
model.to(torch.float32)
print(model[0].lin.weight.dtype, model[0].scale.dtype)
print(model.half()[0].lin.weight.dtype, model.double()[0].lin.weight.dtype)
