# clip_grad_norm_ with norm types 2, 1, inf; returned total norm; clip_grad_value_
import torch

def make():
    a = torch.nn.Parameter(torch.tensor([3.0, 4.0]))
    b = torch.nn.Parameter(torch.tensor([[1.0, -2.0], [0.0, 2.0]]))
    (a * torch.tensor([1.0, 2.0])).sum().backward()
    (b * b).sum().backward()
    return [a, b]

for nt in [2.0, 1, float("inf")]:
    ps = make()
    n = torch.nn.utils.clip_grad_norm_(ps, max_norm=1.0, norm_type=nt)
    print(nt, n, ps[0].grad, ps[1].grad)
ps = make()
torch.nn.utils.clip_grad_value_(ps, clip_value=1.5)
print(ps[0].grad, ps[1].grad)
ps = make()
print(torch.nn.utils.clip_grad_norm_(ps, 100.0), ps[0].grad)
