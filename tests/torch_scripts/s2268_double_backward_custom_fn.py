import torch


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * 2 * x


x = torch.tensor([1.5, -0.5, 2.0], requires_grad=True)
print(torch.autograd.gradcheck(Square.apply, x))
print(torch.autograd.gradgradcheck(Square.apply, x))


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_out):
        result, = ctx.saved_tensors
        return grad_out * result


y = Exp.apply(x)
print(y.grad_fn.name().startswith("ExpBackward"), type(y.grad_fn).__name__)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g.requires_grad, g.grad_fn is not None)
gg, = torch.autograd.grad(g.sum(), x)
print(torch.allclose(gg, torch.exp(x)), gg)
print(torch.autograd.gradgradcheck(Exp.apply, x))


class Sinh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.save_for_backward(expx, expnegx)
        return (expx - expnegx) / 2, expx, expnegx

    @staticmethod
    def backward(ctx, grad_out, _grad_out_exp, _grad_out_negexp):
        expx, expnegx = ctx.saved_tensors
        grad_input = grad_out * (expx + expnegx) / 2
        grad_input += _grad_out_exp * expx
        grad_input -= _grad_out_negexp * expnegx
        return grad_input


def sinh(x):
    return Sinh.apply(x)[0]


print(torch.autograd.gradcheck(sinh, x))
print(torch.autograd.gradgradcheck(sinh, x))
print(sinh(x).detach(), torch.sinh(x).detach())
