# default materialize: unused outputs get zero grads of the right shape
import torch

class Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x[:2].clone(), x[2:].clone()

    @staticmethod
    def backward(ctx, g1, g2):
        print(g1, g2)
        return torch.cat([g1, g2])

x = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0], requires_grad=True)
a, b = Split.apply(x)
(b * 2).sum().backward()
print(x.grad)
