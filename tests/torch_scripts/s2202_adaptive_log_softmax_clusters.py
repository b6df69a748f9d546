import torch
import torch.nn as nn

asm = nn.AdaptiveLogSoftmaxWithLoss(in_features=4, n_classes=10, cutoffs=[3, 6], div_value=2.0)
print([(n, tuple(p.shape)) for n, p in asm.named_parameters()])
with torch.no_grad():
    for k, p in enumerate(asm.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.9 + k).view_as(p) * 0.5)
h = torch.tensor([[0.5, -1.0, 0.2, 0.0], [1.0, 1.0, -0.5, 0.3], [0.0, 0.2, 0.4, 0.8]],
                 requires_grad=True)
target = torch.tensor([1, 5, 9])
out, loss = asm(h, target)
print(out.detach().round(decimals=5), round(loss.item(), 6))
loss.backward()
print(h.grad.round(decimals=5))
lp = asm.log_prob(h.detach())
print(lp.shape, lp.exp().sum(1).round(decimals=6))
print(torch.allclose(lp.gather(1, target[:, None]).squeeze(1), out.detach()))
print(asm.predict(h.detach()))
print(asm.head.weight.shape, [tuple(m[0].weight.shape) for m in asm.tail])
opt = torch.optim.SGD(asm.parameters(), lr=0.5)
for step in range(20):
    opt.zero_grad()
    _, l = asm(h.detach(), target)
    l.backward()
    opt.step()
print(round(l.item(), 5), asm.predict(h.detach()))
