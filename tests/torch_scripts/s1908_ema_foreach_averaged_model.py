# An exponential moving average of parameters the way diffusion/semi-supervised code keeps
# one: torch._foreach_mul_/_foreach_add_/_foreach_lerp_ over parameter lists, compared with
# swa_utils.AveragedModel(get_ema_multi_avg_fn), plus _foreach_norm for logging
import copy
import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel, get_ema_multi_avg_fn

net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).view_as(p) * (i + 1))
ema = copy.deepcopy(net).requires_grad_(False)
ema2 = copy.deepcopy(net).requires_grad_(False)
avg = AveragedModel(net, multi_avg_fn=get_ema_multi_avg_fn(0.9))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.sin(torch.arange(15.0)).view(5, 3)
y = torch.cos(torch.arange(5.0)).unsqueeze(1)
decay = 0.9
for step in range(4):
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(x), y)
    loss.backward()
    opt.step()
    with torch.no_grad():
        e = list(ema.parameters())
        p = list(net.parameters())
        torch._foreach_mul_(e, decay)
        torch._foreach_add_(e, p, alpha=1 - decay)
        torch._foreach_lerp_(list(ema2.parameters()), p, 1 - decay)
    avg.update_parameters(net)
    norms = torch._foreach_norm([q.grad for q in net.parameters()])
    print(step, f"{loss.item():.6f}", [round(n.item(), 5) for n in norms])
print(all(torch.allclose(a, b) for a, b in zip(ema.parameters(), ema2.parameters())))
print([torch.allclose(a, b) for a, b in zip(ema.parameters(), avg.module.parameters())])
print(avg.n_averaged, avg(x).detach().squeeze(1))
print(list(avg.state_dict())[:3])
print(torch._foreach_sub([torch.ones(2), torch.zeros(3)], 1.5))
print(torch._foreach_maximum([torch.tensor([1.0, -2.0])], [torch.tensor([0.0, 0.0])]))
