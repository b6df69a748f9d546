import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_

def grads():
    a = nn.Parameter(torch.tensor([1.0, 2.0]))
    b = nn.Parameter(torch.tensor([[0.5, -1.0], [2.0, 0.0]]))
    c = nn.Parameter(torch.tensor([3.0]))
    (a.pow(3).sum() + (b * 4).sum() + c.sum() * 0.5).backward()
    return [a, b, c]

for nt in [2.0, 1, float("inf"), 0.5, 3]:
    ps = grads()
    total = clip_grad_norm_(ps, max_norm=1.0, norm_type=nt)
    print(nt, total.round(decimals=6), [p.grad.round(decimals=6) for p in ps])
ps = grads()
print(clip_grad_norm_(ps, 100.0), ps[0].grad)
ps = grads()
print(clip_grad_norm_(ps[0], 1.0, foreach=False), ps[0].grad)
ps = grads()
clip_grad_value_(ps, clip_value=2.0)
print([p.grad for p in ps])
ps = grads()
ps[1].grad[0, 0] = float("nan")
try:
    clip_grad_norm_(ps, 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError", str(e)[:60])
print(clip_grad_norm_(ps, 1.0))
empty = [nn.Parameter(torch.ones(2))]
print(clip_grad_norm_(empty, 1.0))
ps = grads()
norms = [p.grad.norm() for p in ps]
print(torch.nn.utils.get_total_norm([p.grad for p in ps]), torch.stack(norms).norm())
torch.nn.utils.clip_grads_with_norm_(ps, 1.0, torch.tensor(10.0))
print(ps[0].grad)
model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.fill_(1.0)
    model.bias.fill_(0.0)
model(torch.tensor([[10.0, 20.0]])).sum().backward()
print(clip_grad_norm_(model.parameters(), max_norm=5.0), model.weight.grad, model.bias.grad)
