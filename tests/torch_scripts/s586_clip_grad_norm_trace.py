import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-2, 2, p.numel()).reshape(p.shape) * (i + 1))
x = torch.linspace(-3, 3, 12).reshape(4, 3)
y = torch.tensor([[10.0], [-10.0], [5.0], [0.0]])


def grads():
    model.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    return [p.grad.clone() for p in model.parameters()]


g0 = grads()
total = torch.norm(torch.stack([g.norm() for g in g0]))
print(round(total.item(), 5))
tn = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(round(tn.item(), 5), tn.dtype, round(torch.norm(torch.stack([p.grad.norm() for p in model.parameters()])).item(), 5))
grads()
tinf = nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=float("inf"))
print(round(tinf.item(), 5), max(p.grad.abs().max().item() for p in model.parameters()))
grads()
t1 = nn.utils.clip_grad_norm_(model.parameters(), 2.0, norm_type=1)
print(round(t1.item(), 5), round(sum(p.grad.abs().sum().item() for p in model.parameters()), 5))
grads()
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.25)
print([round(p.grad.abs().max().item(), 4) for p in model.parameters()])
grads()
big = nn.utils.clip_grad_norm_(model.parameters(), 1e6)
print(all(torch.equal(p.grad, g) for p, g in zip(model.parameters(), g0)), round(big.item(), 5))
w = nn.Parameter(torch.ones(2))
w.grad = torch.tensor([float("nan"), 1.0])
try:
    nn.utils.clip_grad_norm_([w], 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
print(nn.utils.clip_grad_norm_([w], 1.0).isnan().item())
e = nn.Parameter(torch.ones(2))
print(nn.utils.clip_grad_norm_([e], 1.0), nn.utils.clip_grad_norm_([], 1.0))
grads()
norms = nn.utils.get_total_norm([p.grad for p in model.parameters()])
nn.utils.clip_grads_with_norm_(model.parameters(), 1.0, norms)
print(round(norms.item(), 5), round(torch.norm(torch.stack([p.grad.norm() for p in model.parameters()])).item(), 5))
