import torch
from torch.autograd import Function


class LinearFunction(Function):
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


class MulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, constant = inputs
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


class Linear(torch.nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super().__init__()
        self.input_features = input_features
        self.output_features = output_features
        self.weight = torch.nn.Parameter(torch.empty(output_features, input_features))
        if bias:
            self.bias = torch.nn.Parameter(torch.empty(output_features))
        else:
            self.register_parameter('bias', None)
        with torch.no_grad():
            self.weight.copy_(torch.linspace(-0.5, 0.5, output_features * input_features).view(output_features, input_features))
            if self.bias is not None:
                self.bias.fill_(0.1)

    def forward(self, input):
        return LinearFunction.apply(input, self.weight, self.bias)

    def extra_repr(self):
        return 'input_features={}, output_features={}, bias={}'.format(
            self.input_features, self.output_features, self.bias is not None)


inp = (torch.arange(12.0).view(4, 3) / 10).requires_grad_()
m = Linear(3, 2)
print(m)
out = m(inp)
print(out.grad_fn.name(), out)
MulConstant.apply(out, 3.0).sum().backward()
print(inp.grad.round(decimals=8), m.weight.grad, m.bias.grad, sep="\n")
w = torch.linspace(0, 1, 6).view(2, 3).requires_grad_()
print(torch.autograd.gradcheck(LinearFunction.apply, (inp.detach().requires_grad_(), w, None)))
print(Linear(3, 2, bias=False).bias, torch.autograd.gradcheck(MulConstant.apply, (w, 2.5)))
