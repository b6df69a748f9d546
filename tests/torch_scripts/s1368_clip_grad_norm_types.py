# clip_grad_norm_ with different norm types, error_if_nonfinite, foreach
import torch
import torch.nn as nn

def make():
    p1 = nn.Parameter(torch.zeros(2))
    p2 = nn.Parameter(torch.zeros(3))
    p1.grad = torch.tensor([3.0, -4.0])
    p2.grad = torch.tensor([1.0, 2.0, -2.0])
    return [p1, p2]

for nt in [2.0, 1, float("inf"), 0.5]:
    ps = make()
    total = nn.utils.clip_grad_norm_(ps, max_norm=1.0, norm_type=nt)
    print(nt, total, ps[0].grad, ps[1].grad)
ps = make()
print(nn.utils.clip_grad_norm_(ps, 100.0), ps[0].grad)
ps = make()
ps[1].grad[0] = float("nan")
try:
    nn.utils.clip_grad_norm_(ps, 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError", str(e)[:70])
print(nn.utils.clip_grad_norm_(ps, 1.0))
ps = make()
print(nn.utils.get_total_norm([p.grad for p in ps]), nn.utils.clip_grad_norm_(ps, 2.0, foreach=True))
