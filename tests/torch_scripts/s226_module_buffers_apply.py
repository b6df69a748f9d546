import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.fc = nn.Linear(n, n)
        self.register_buffer("mask", torch.tril(torch.ones(n, n)))
        self.register_buffer("scratch", torch.zeros(n), persistent=False)
        self.register_buffer("nothing", None)
        self.register_parameter("gain", nn.Parameter(torch.ones(n)))
    def forward(self, x):
        return (x @ (self.fc.weight * self.mask).T + self.fc.bias) * self.gain
    def extra_repr(self):
        return f"n={self.mask.shape[0]}"

net = nn.Sequential(Block(3), nn.ReLU(), Block(3))
def init(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.5)
        nn.init.zeros_(m.bias)
net.apply(init)
print(net)
print([n for n, _ in net.named_buffers()], [n for n, _ in net.named_parameters()])
print(list(net.state_dict().keys()))
print(net(torch.tensor([[1.0, 2.0, 3.0]])))
print(net.get_submodule("0.fc"), net.get_parameter("2.gain").shape, net.get_buffer("0.mask").shape)
print([type(m).__name__ for m in net.modules()], [n for n, _ in net.named_modules()])
print([n for n, _ in net.named_children()], len(list(net.children())))
net.float()
print(net[0].mask.dtype, net[0].fc.weight.dtype, net[0].scratch.dtype)
net.double()
print(net[0].gain.dtype)
net.requires_grad_(False)
print(any(p.requires_grad for p in net.parameters()))
net[2].requires_grad_(True)
print([n for n, p in net.named_parameters() if p.requires_grad])
net.eval()
print(net.training, net[0].training)
net.train()
print(all(m.training for m in net.modules()))
seen = []
net.apply(lambda m: seen.append(type(m).__name__))
print(seen)
print(sum(b.numel() for b in net.buffers()), sum(p.numel() for p in net.parameters(recurse=False)))
print(net.zero_grad() is None, net[0].fc.weight.grad)
x = net.to(torch.float64)
print(x is net, net[0].fc.weight.dtype)
del net[0].scratch
print([n for n, _ in net[0].named_buffers()])
