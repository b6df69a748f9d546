import torch
import torch.nn as nn

x = torch.sin(torch.arange(2 * 4 * 3 * 3, dtype=torch.float64)).view(2, 4, 3, 3) * 2 + 1
x.requires_grad_()
for m in [nn.BatchNorm2d(4, momentum=None), nn.InstanceNorm2d(4, affine=True, track_running_stats=True), nn.GroupNorm(2, 4),
          nn.LayerNorm([3, 3]), nn.LocalResponseNorm(2), nn.RMSNorm([3, 3]) if hasattr(nn, "RMSNorm") else nn.Identity()]:
    y = m(x)
    x.grad = None
    y.pow(3).sum().backward()
    gs = [round(p.grad.abs().sum().item(), 4) for p in m.parameters()]
    print(type(m).__name__, bool(y.mean().abs() < 1e-9), x.grad.abs().sum().round(decimals=4), y.std().round(decimals=4), gs)
    print({k: tuple(v.shape) for k, v in m.state_dict().items()})
bn = nn.BatchNorm1d(3, affine=False)
seq = torch.arange(2 * 3 * 5, dtype=torch.float64).view(2, 3, 5)
bn(seq)
bn(seq * 2)
print(bn.running_mean, bn.running_var.round(decimals=4), bn.num_batches_tracked)
bn.eval()
print(bn(seq)[0, :, 0].round(decimals=4))
bn.reset_running_stats()
print(bn.running_mean, bn.running_var, bn)
print(nn.functional.normalize(x[0, 0], dim=0).round(decimals=4), nn.functional.layer_norm(x[0, 0], (3,)).round(decimals=4))
