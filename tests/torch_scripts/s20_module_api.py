import torch
import torch.nn as nn
import copy

class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)
    def forward(self, x):
        return self.norm(x + torch.relu(self.fc(x)))

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.Sequential(*[Block(4) for _ in range(2)])
        self.head = nn.Linear(4, 2, bias=False)
    def forward(self, x):
        return self.head(self.blocks(x))

torch.manual_seed(0)
net = Net()
print([n for n, _ in net.named_parameters(prefix='model')][:3])
print(net.get_submodule('blocks.1.fc'), net.get_parameter('head.weight').shape)
print(list(net.state_dict(prefix='m.').keys())[:2])
net2 = copy.deepcopy(net)
print(all(torch.equal(a, b) for a, b in zip(net.parameters(), net2.parameters())), net2.head.weight is net.head.weight)
net.double(); print(net.head.weight.dtype)
net.float(); print(net.head.weight.dtype)
net.to(torch.float64); print(next(net.parameters()).dtype)
net.to('cpu')
x = torch.randn(3, 4)
net(x).sum().backward()
print(net.head.weight.grad is not None)
net.zero_grad()
print(net.head.weight.grad)
for p in net.blocks.parameters(): p.requires_grad = False
print([n for n, p in net.named_parameters() if p.requires_grad])
trainable = filter(lambda p: p.requires_grad, net.parameters())
opt = torch.optim.SGD(trainable, lr=0.1)
print(len(opt.param_groups[0]['params']))
print(net.blocks[0].fc.in_features, net.blocks[-1].norm.normalized_shape, net.blocks[0].norm.eps)
print(isinstance(net.blocks, nn.Sequential), len(net.blocks), type(net.blocks[0]).__name__)
net.register_buffer('step', torch.tensor(0))
net.step += 1
print(net.step, 'step' in net.state_dict())
net.register_buffer('tmp', torch.zeros(1), persistent=False)
print('tmp' in net.state_dict(), [n for n, _ in net.named_buffers()])
net.head = nn.Identity()
print(net(x).shape)
print(net.blocks[0])
print(sum(p.numel() for p in net.parameters()))
del net.head
print(hasattr(net, 'head'))
m = nn.Linear(3, 3)
nn.init.zeros_(m.bias)
m.weight = nn.Parameter(torch.eye(3))
print(m(torch.ones(1, 3)))
m.weight.data = torch.zeros(3, 3)
print(m.weight.requires_grad, m(torch.ones(1, 3)))
print(m.extra_repr(), m.training)
print(nn.Linear(2, 2).__class__.__name__, callable(m), m.__call__ is not None)
print(list(nn.Sequential(nn.Linear(1, 2), nn.ReLU()).children())[1])
mods = {n: type(m).__name__ for n, m in Net().named_modules()}
print(mods)
