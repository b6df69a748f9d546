import torch
import torch.nn as nn

def fresh():
    net = nn.Sequential(nn.Linear(3, 3), nn.Linear(3, 1))
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(torch.arange(p.numel(), dtype=p.dtype).view_as(p) * 0.3 - 0.5 * i)
    x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 0.5, 0.5]])
    (net(x) ** 2).sum().backward()
    return net

for norm_type in [2.0, 1.0, float("inf"), 0.5]:
    net = fresh()
    total = nn.utils.clip_grad_norm_(net.parameters(), max_norm=1.0, norm_type=norm_type)
    after = nn.utils.get_total_norm([p.grad for p in net.parameters()], norm_type=norm_type)
    print(norm_type, round(total.item(), 5), round(after.item(), 5))
net = fresh()
before = [p.grad.clone() for p in net.parameters()]
nn.utils.clip_grad_value_(net.parameters(), clip_value=2.5)
print([round(p.grad.abs().max().item(), 4) for p in net.parameters()])
print(sum(int((b.abs() > 2.5).sum()) for b in before))
net = fresh()
big = nn.utils.clip_grad_norm_(net.parameters(), max_norm=1e6)
print(round(big.item(), 4), net[0].weight.grad[0].round(decimals=4))
net = fresh()
net[1].bias.grad.fill_(float("nan"))
try:
    nn.utils.clip_grad_norm_(net.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:70])
print(nn.utils.clip_grad_norm_(net.parameters(), 1.0))
net = fresh()
norms = nn.utils.get_total_norm([p.grad for p in net.parameters()])
nn.utils.clip_grads_with_norm_(net.parameters(), 2.0, norms)
print(round(nn.utils.get_total_norm([p.grad for p in net.parameters()]).item(), 6))
single = torch.tensor([3.0, 4.0], requires_grad=True)
single.grad = torch.tensor([3.0, 4.0])
print(nn.utils.clip_grad_norm_(single, 1.0), single.grad)
print(nn.utils.clip_grad_norm_([], 1.0))
