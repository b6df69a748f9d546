# custom Module with register_parameter / None parameters / Parameter lists and reset_parameters
import torch
import torch.nn as nn

class Affine(nn.Module):
    def __init__(self, n, bias=True):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n))
        if bias:
            self.bias = nn.Parameter(torch.empty(n))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.ones_(self.weight)
        if self.bias is not None:
            nn.init.constant_(self.bias, 0.5)

    def forward(self, x):
        y = x * self.weight
        return y if self.bias is None else y + self.bias

m = Affine(3)
n = Affine(3, bias=False)
print([k for k, _ in m.named_parameters()], [k for k, _ in n.named_parameters()], n.bias)
print(list(n.state_dict()), m(torch.tensor([1.0, 2.0, 3.0])))
(m(torch.tensor([1.0, 2.0, 3.0])) ** 2).sum().backward()
print(m.weight.grad, m.bias.grad)
try:
    m.register_parameter("weight2", torch.ones(1))
except TypeError as e:
    print("TypeError")
