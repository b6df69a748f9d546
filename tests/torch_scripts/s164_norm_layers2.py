import torch
import torch.nn as nn

x = torch.sin(torch.arange(2 * 6 * 5, dtype=torch.float64)).reshape(2, 6, 5)
lrn = nn.LocalResponseNorm(size=3, alpha=1e-2, beta=0.75, k=1.0)
print(lrn, lrn(x)[0, :2].round(decimals=5))
inorm = nn.InstanceNorm1d(6, affine=True, track_running_stats=True)
print(inorm)
inorm.train()
y = inorm(x)
print(y[1, 0].round(decimals=4), inorm.running_mean.round(decimals=5), inorm.running_var.round(decimals=5))
inorm.eval()
print(inorm(x)[1, 0].round(decimals=4))
ln = nn.LayerNorm([6, 5], elementwise_affine=True, bias=False)
print(ln, [n for n, _ in ln.named_parameters()])
z = ln(x.requires_grad_())
(z * torch.arange(5.0)).sum().backward()
print(x.grad[0, 0].round(decimals=5))
rms = nn.RMSNorm(5, eps=1e-6)
print(rms, rms(x.detach())[0, 0].round(decimals=5))
bn = nn.BatchNorm1d(6, momentum=None)
for _ in range(3):
    bn(x.detach() * 2)
print(bn.num_batches_tracked, bn.running_mean.round(decimals=5))
