import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        return torch.relu(self.fc(x))


net = Net()
with torch.no_grad():
    net.fc.weight.copy_(torch.tensor([[1.0, -1.0, 0.5], [0.2, 0.3, -0.4]]))
    net.fc.bias.zero_()
x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]])
traced = torch.jit.trace(net, x)
print(traced(x))
scripted = torch.jit.script(net)
print(scripted(x))


@torch.jit.script
def fused(a, b):
    return a * torch.sigmoid(b)


print(fused(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 1.0])))
print(torch.jit.is_scripting())
