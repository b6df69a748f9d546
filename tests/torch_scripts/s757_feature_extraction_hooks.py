# Feature extraction with forward hooks, intermediate activations dict, gradient hooks on a tensor,
# removing handles; a small ResNet basic block in eval mode
import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, in_planes, planes, stride=1):
        super(BasicBlock, self).__init__()
        self.conv1 = nn.Conv2d(in_planes, planes, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != self.expansion * planes:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_planes, self.expansion * planes, kernel_size=1, stride=stride, bias=False),
                nn.BatchNorm2d(self.expansion * planes))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += self.shortcut(x)
        out = F.relu(out)
        return out


net = nn.Sequential(BasicBlock(2, 4, stride=2), BasicBlock(4, 4), nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(4, 3))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.61 + i).view_as(p))
    for name, buf in net.named_buffers():
        if name.endswith("running_var"):
            buf.fill_(2.0)
        elif name.endswith("running_mean"):
            buf.fill_(0.1)
activation = {}


def get_activation(name):
    def hook(model, input, output):
        activation[name] = output.detach()
    return hook


h1 = net[0].register_forward_hook(get_activation('block1'))
h2 = net[3].register_forward_hook(get_activation('flat'))
x = torch.sin(torch.arange(2 * 2 * 8 * 8, dtype=torch.float64) * 0.1).view(2, 2, 8, 8).requires_grad_(True)
net.eval()
out = net(x)
print(out.round(decimals=5))
print({k: tuple(v.shape) for k, v in activation.items()}, activation['flat'].requires_grad)
grads = []
hx = x.register_hook(lambda g: grads.append(g.norm().item()))
out[:, 0].sum().backward()
print(len(grads), round(grads[0], 6), x.grad.shape)
for h in (h1, h2, hx):
    h.remove()
activation.clear()
net(x)
print(len(activation), net[0].shortcut, len(net[1].shortcut))
print([n for n, m in net.named_modules() if isinstance(m, nn.BatchNorm2d)])
feats = nn.Sequential(*list(net.children())[:-1])
print(feats(x).shape, len(list(net.children())))
