# functional_call: replacing parameters and buffers, tied weights, strict mode errors
import torch
import torch.nn as nn
from torch.func import functional_call


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(4, 2)
        self.out = nn.Linear(2, 4, bias=False)
        self.out.weight = self.emb.weight
        self.register_buffer("scale", torch.tensor(2.0))

    def forward(self, i):
        return self.out(self.emb(i)) * self.scale


net = Net()
w = torch.arange(8.0).reshape(4, 2).requires_grad_()
i = torch.tensor([0, 3])
y = functional_call(net, {"emb.weight": w}, (i,))
print(y)
y.sum().backward()
print(w.grad)
y2 = functional_call(net, {"emb.weight": w.detach(), "scale": torch.tensor(0.5)}, i)
print(y2)
print(net.scale, net.emb.weight.shape)
try:
    functional_call(net, {"emb.weight": w}, (i,), strict=True)
except Exception as e:
    print(type(e).__name__, str(e)[:150])
try:
    functional_call(net, {"emb.weight": w, "out.weight": w * 2}, (i,), tie_weights=True)
except Exception as e:
    print(type(e).__name__, str(e)[:150])
y3 = functional_call(net, ({"emb.weight": w.detach()}, {"scale": torch.tensor(1.0)}), (i,))
print(y3)
