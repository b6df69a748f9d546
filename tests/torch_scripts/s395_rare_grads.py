import torch

x = torch.tensor([0.3, -1.2, 2.5, 0.7], requires_grad=True)
outs = [x.unfold(0, 2, 1).prod(1).sum(), x.roll(1).mul(torch.arange(4.0)).sum(),
        torch.cummax(x, 0).values.sum(), torch.diff(x, n=2).pow(2).sum(),
        torch.kron(x[:2], x[2:]).sum(), torch.lerp(x, x.flip(0), 0.3).pow(2).sum(),
        torch.addcmul(x, x, x, value=2).sum(), torch.logcumsumexp(x, 0).sum(),
        torch.cumprod(x, 0).sum(), torch.block_diag(x[:2].view(1, 2), x[2:].view(2, 1)).pow(2).sum(),
        torch.nan_to_num(x.log()).sum(), torch.where(x > 0, x ** 2, -x).sum()]
for o in outs:
    g, = torch.autograd.grad(o, x)
    print(o.grad_fn.__class__.__name__, g.round(decimals=5) + 0.0)  # (+0.0: zero signs, docs/limits.md)
