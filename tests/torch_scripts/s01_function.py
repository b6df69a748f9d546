import torch

class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result

class MulConst(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None

NEEDS = []


class LinearFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output
    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        NEEDS.append(ctx.needs_input_grad)
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias

class SortF(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out, idx = torch.sort(x)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return out, idx
    @staticmethod
    def backward(ctx, g, gidx):
        idx, = ctx.saved_tensors
        grad = torch.zeros_like(g)
        grad.index_add_(0, idx, g)
        return grad

x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
y = MyExp.apply(x)
y.sum().backward()
print(x.grad)
print(y.grad_fn is not None, type(y.grad_fn).__name__)
x.grad = None
z = MulConst.apply(x, 3.0)
z.backward(torch.ones(3, dtype=torch.float64))
print(x.grad)
inp = torch.arange(6, dtype=torch.float64).reshape(2, 3).requires_grad_()
w = torch.ones(4, 3, dtype=torch.float64, requires_grad=True)
b = torch.zeros(4, dtype=torch.float64)
out = LinearFunction.apply(inp, w, b)
out.pow(2).sum().backward()
print(inp.grad, w.grad, b.grad, NEEDS)
print(torch.autograd.gradcheck(LinearFunction.apply, (inp.detach().requires_grad_(), w.detach().requires_grad_()), eps=1e-6, atol=1e-4), NEEDS[-1])
s, i = SortF.apply(x)
print(s.requires_grad, i.requires_grad, i.dtype)
(s * torch.tensor([1., 2., 3.], dtype=torch.float64)).sum().backward()
print(x.grad)
