# Custom layers as written in tutorials: a hand-made Linear with kaiming_uniform_ + bias bound,
# a learnable-temperature softmax, a gated residual block, weight tying, parameter counting
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class MyLinear(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        if bias:
            self.bias = nn.Parameter(torch.empty(out_features))
        else:
            self.register_parameter('bias', None)
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = nn.init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            nn.init.uniform_(self.bias, -bound, bound)

    def forward(self, x):
        return x @ self.weight.t() + (self.bias if self.bias is not None else 0)

    def extra_repr(self):
        return f'in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}'


class GatedResidual(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = MyLinear(dim, 2 * dim)
        self.log_temp = nn.Parameter(torch.zeros(()))

    def forward(self, x):
        a, b = self.fc(x).chunk(2, dim=-1)
        return x + a * torch.sigmoid(b), F.softmax(x / self.log_temp.exp(), dim=-1)


class TiedAutoencoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = MyLinear(4, 2, bias=False)

    def forward(self, x):
        return F.linear(torch.tanh(self.enc(x)), self.enc.weight.t())


layer = MyLinear(3, 2)
print(layer, layer.weight.shape, layer.bias.shape)
bound = 1 / math.sqrt(3)
print(layer.bias.abs().max().item() <= bound, nn.init._calculate_fan_in_and_fan_out(torch.empty(5, 3, 2, 2)))
block = GatedResidual(3)
with torch.no_grad():
    block.fc.weight.copy_(torch.linspace(-1, 1, 18).view(6, 3))
    block.fc.bias.fill_(0.1)
x = torch.tensor([[1.0, -0.5, 2.0]], requires_grad=True)
y, sm = block(x)
(y.sum() + sm[0, 0]).backward()
print(y, sm.round(decimals=4), x.grad, block.log_temp.grad)
print([n for n, _ in block.named_parameters()], layer.bias is not None, MyLinear(2, 2, bias=False).bias)
ae = TiedAutoencoder()
with torch.no_grad():
    ae.enc.weight.copy_(torch.tensor([[1.0, 0.0, -1.0, 0.5], [0.2, 0.3, 0.0, -0.4]]))
out = ae(torch.ones(1, 4))
out.pow(2).sum().backward()
print(out, ae.enc.weight.grad, len(list(ae.parameters())))
print(sum(p.numel() for p in block.parameters()), sum(p.numel() for p in ae.parameters()))
