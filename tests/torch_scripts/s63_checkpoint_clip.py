import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.9 + i).reshape(p.shape) * 0.4)
x = torch.linspace(-1, 1, 12).reshape(3, 4).requires_grad_()
ref = model(x).sum()
ref.backward()
g_ref = [p.grad.clone() for p in model.parameters()]
gx_ref = x.grad.clone()
model.zero_grad(); x.grad = None


def block(inp):
    return model[2:4](model[0:2](inp))


h = checkpoint(block, x, use_reentrant=False)
out = model[4](h).sum()
out.backward()
print(torch.allclose(out, ref), all(torch.allclose(a, p.grad) for a, p in zip(g_ref, model.parameters())), torch.allclose(x.grad, gx_ref))
model.zero_grad(); x.grad = None
out2 = checkpoint_sequential(model, 2, x, use_reentrant=False).sum()
out2.backward()
print(torch.allclose(out2, ref), torch.allclose(model[0].weight.grad, g_ref[0]))
model.zero_grad()
loss = (model(x) ** 2).sum() * 100
loss.backward()
norms = [p.grad.norm() for p in model.parameters()]
total = torch.norm(torch.stack(norms))
print(round(total.item(), 6))
ret = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(round(ret.item(), 6), round(torch.norm(torch.stack([p.grad.norm() for p in model.parameters()])).item(), 6))
ret = nn.utils.clip_grad_norm_(model.parameters(), max_norm=10.0)
print(round(ret.item(), 6))
model.zero_grad()
loss.backward() if False else (model(x) ** 2).sum().backward()
before = model[4].bias.grad.clone()
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.05)
print(before.numpy().round(6), model[4].bias.grad, max(p.grad.abs().max().item() for p in model.parameters()) <= 0.05)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    l = ((model(x) - 1) ** 2).mean()
    l.backward()
    gn = nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=2.0, error_if_nonfinite=True)
    opt.step()
    print(step, round(l.item(), 8), round(gn.item(), 8))
print(nn.utils.get_total_norm([p.grad for p in model.parameters()], norm_type=1.0).item().__round__(8) if hasattr(nn.utils, 'get_total_norm') else None)
