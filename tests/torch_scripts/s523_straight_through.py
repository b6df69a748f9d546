import torch


class SignSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.sign(x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * (x.abs() <= 1).to(grad_output.dtype)


def quantize(x, bits=2):
    levels = 2 ** bits - 1
    xq = torch.round(x.clamp(0, 1) * levels) / levels
    return x + (xq - x).detach()  # straight-through


x = torch.tensor([-2.0, -0.5, 0.0, 0.3, 1.5], requires_grad=True)
y = SignSTE.apply(x)
print(y, y.grad_fn.__class__.__name__)
(y * torch.arange(5.0)).sum().backward()
print(x.grad)
x.grad = None
q = quantize(x)
print(q)
q.pow(2).sum().backward()
print(x.grad)
w = torch.linspace(-1.5, 1.5, 6, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
target = torch.tensor([1.0, -1.0, 1.0, -1.0, 1.0, 1.0])
for _ in range(5):
    opt.zero_grad()
    loss = ((SignSTE.apply(w) - target) ** 2).sum()
    loss.backward()
    opt.step()
print(w.detach(), round(loss.item(), 4))
print(torch.autograd.gradcheck(lambda t: quantize(t) * 1.0, (torch.tensor([0.26], requires_grad=True),),
                               raise_exception=False))
r = torch.round(torch.tensor([0.5, 1.5, 2.5, -0.5]))
print(r, torch.round(torch.tensor([1.2345]), decimals=2))
g = torch.tensor([0.7, -0.2], requires_grad=True)
h = torch.floor(g) + torch.frac(g)
h.sum().backward()
print(g.grad, torch.trunc(g.detach()), torch.fix(g.detach()))
