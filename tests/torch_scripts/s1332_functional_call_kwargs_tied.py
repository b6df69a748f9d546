# functional_call with kwargs, partial parameter dicts, and strict=True errors
import torch
import torch.nn as nn
from torch.func import functional_call

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 1)
    def forward(self, x, shift=0.0):
        return self.fc(x) + shift

net = Net()
with torch.no_grad():
    net.fc.weight.fill_(1.0)
    net.fc.bias.fill_(0.0)
x = torch.tensor([[1.0, 2.0]])
print(functional_call(net, {"fc.bias": torch.tensor([5.0])}, (x,), {"shift": 1.0}))
print(functional_call(net, {"fc.weight": torch.tensor([[2.0, 0.0]])}, x))
try:
    functional_call(net, {"fc.bias": torch.tensor([5.0])}, (x,), strict=True)
except RuntimeError as e:
    print("RuntimeError", "Missing key" in str(e))
print(net.fc.bias)
