import torch
import torch.nn as nn
import torch.nn.functional as F


class MyLinear(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        if bias:
            self.bias = nn.Parameter(torch.empty(out_features))
        else:
            self.register_parameter('bias', None)
        self.register_buffer('calls', torch.zeros((), dtype=torch.long))
        self.register_buffer('cache', torch.zeros(out_features), persistent=False)
        self.reset_parameters()

    def reset_parameters(self):
        with torch.no_grad():
            self.weight.copy_(torch.arange(self.weight.numel(), dtype=torch.float64).reshape(self.weight.shape) * 0.1)
            if self.bias is not None:
                self.bias.fill_(0.5)

    def forward(self, x):
        self.calls += 1
        out = F.linear(x, self.weight, self.bias)
        self.cache = out.detach().mean(0)
        return out

    def extra_repr(self):
        return f'in_features={self.weight.shape[1]}, out_features={self.weight.shape[0]}, bias={self.bias is not None}'


m = MyLinear(3, 2)
print(m, list(m.state_dict().keys()), [n for n, _ in m.named_buffers()])
x = torch.tensor([[1.0, 2.0, 3.0]])
print(m(x), m.calls, m.cache)
m(x).sum().backward()
print(m.weight.grad, m.bias.grad, m.calls)
nb = MyLinear(2, 2, bias=False)
print(nb.bias, [n for n, _ in nb.named_parameters()], nb)


class Scaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.params = nn.ParameterList([nn.Parameter(torch.tensor(float(i + 1))) for i in range(3)])
        self.named = nn.ParameterDict({'shift': nn.Parameter(torch.tensor(0.5))})

    def forward(self, x):
        for p in self.params:
            x = x * p
        return x + self.named['shift']


s = Scaler()
out = s(torch.tensor([1.0, 2.0]))
out.sum().backward()
print(out, [p.grad.item() for p in s.params], s.named['shift'].grad)
print([n for n, _ in s.named_parameters()], len(s.params), 'shift' in s.named)
m.weight.requires_grad_(False)
print([n for n, p in m.named_parameters() if p.requires_grad], m.weight.is_leaf)
print(isinstance(m.weight, nn.Parameter), isinstance(m.weight, torch.Tensor), type(m.weight.data).__name__, type(m.weight * 2).__name__)
m2 = MyLinear(3, 2).double()
m2.to(torch.float32)
print(m2.weight.dtype, m2.calls.dtype, m2.cache.dtype)
m2.zero_grad()
print(m2.weight.grad)
state = m.state_dict()
state['weight'].fill_(7.0)
print(m.weight[0, 0].item())
print(sum(p.numel() for p in m.parameters()), m.training, m.eval().training, m.train(False).training)
tied = nn.Module()
tied.a = nn.Linear(2, 2)
tied.b = nn.Linear(2, 2)
tied.b.weight = tied.a.weight
print(len(list(tied.parameters())), [n for n, _ in tied.named_parameters()], len(tied.state_dict()))
print([n for n, _ in tied.named_parameters(remove_duplicate=False)])
del tied.b
print(hasattr(tied, 'b'), [n for n, _ in tied.named_children()])
