import torch

VERBOSE = True

class Affine(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w, b, scale):
        ctx.save_for_backward(x, w)
        ctx.scale = scale
        return (x @ w.t() + b) * scale

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        if VERBOSE:
            print("needs", ctx.needs_input_grad)
        gx = gw = gb = None
        g = g * ctx.scale
        if ctx.needs_input_grad[0]:
            gx = g @ w
        if ctx.needs_input_grad[1]:
            gw = g.t() @ x
        if ctx.needs_input_grad[2]:
            gb = g.sum(0)
        return gx, gw, gb, None

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
w = torch.tensor([[0.5, -0.5], [1.0, 0.0], [0.0, 2.0]], requires_grad=True)
b = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
y = Affine.apply(x, w, b, 2.0)
print(y, y.grad_fn.name() if hasattr(y.grad_fn, "name") else None)
y.sum().backward()
print(w.grad, b.grad)
x.requires_grad_()
b2 = torch.tensor([0.0, 0.0, 0.0])
Affine.apply(x, w, b2, 1.0).pow(2).sum().backward()
print(x.grad)
VERBOSE = False
print(torch.autograd.gradcheck(lambda a, c: Affine.apply(a, c, torch.zeros(3), 0.5), (x.detach().requires_grad_(), w.detach().requires_grad_())))

class Passthrough(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n):
        return x.clone(), n * 2

    @staticmethod
    def backward(ctx, g, gn):
        return g * 3, None

out, n2 = Passthrough.apply(torch.tensor([1.0], requires_grad=True), 5)
print(out, n2, type(n2).__name__)

class NoGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.argmax()
    @staticmethod
    def backward(ctx, g):
        return None
r = NoGrad.apply(torch.tensor([1.0, 3.0, 2.0], requires_grad=True))
print(r, r.requires_grad)
