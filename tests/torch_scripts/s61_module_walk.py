import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(c)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x))) + x


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(1, 4, 3, padding=1)
        self.blocks = nn.Sequential(Block(4), Block(4))
        self.heads = nn.ModuleDict({'cls': nn.Linear(4, 3), 'reg': nn.Linear(4, 1)})
        self.extra = nn.ModuleList([nn.Identity(), nn.Dropout(0.1)])
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x):
        h = self.blocks(self.stem(x)).mean((2, 3)) * self.scale
        return self.heads['cls'](h), self.heads['reg'](h)


net = Net()
for name, p in net.named_parameters():
    print(name, tuple(p.shape), p.requires_grad)
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_children()], [type(c).__name__ for c in net.children()])
print([n for n, _ in net.named_buffers()])
print(len(list(net.modules())), sum(p.numel() for p in net.parameters()), sum(p.numel() for p in net.parameters() if p.requires_grad))
for p in net.blocks.parameters():
    p.requires_grad = False
print(sum(p.numel() for p in net.parameters() if p.requires_grad))
net.blocks.requires_grad_(True)
print(net.get_submodule('blocks.1.bn'), net.get_parameter('heads.cls.bias').shape, net.get_buffer('blocks.0.bn.running_var').shape)
print([n for n, m in net.named_modules() if isinstance(m, nn.BatchNorm2d)])
print([n for n, _ in net.named_parameters(prefix='model', recurse=True)][:3], [n for n, _ in net.named_parameters(recurse=False)])
print([n for n, _ in net.blocks[0].named_modules(prefix='b0')])
net.eval()
print(net.training, net.blocks[1].bn.training, net.train().blocks[1].bn.training)
out = net(torch.ones(2, 1, 5, 5))
print(out[0].shape, out[1].shape)
print(net.heads, net.extra)
print(net.heads.keys(), len(net.extra), 'cls' in net.heads, list(net.heads.values())[1])
net.heads['aux'] = nn.Linear(4, 2)
net.extra.append(nn.Tanh())
net.add_module('post', nn.Softmax(dim=1))
print([n for n, _ in net.named_children()], len(net.extra))
del net.heads['aux']
print(list(net.heads.keys()))
print(net.blocks[0])
print(nn.Sequential(*list(net.blocks.children())[:1]))
sd_keys = list(net.state_dict().keys())
print(len(sd_keys), sd_keys[:4])
print(hasattr(net, 'stem'), isinstance(net.blocks, nn.Module), net._get_name() if hasattr(net, '_get_name') else None)
