import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
        self.heads = nn.ModuleDict({'a': nn.Linear(4, 2), 'b': nn.Linear(4, 1)})
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(4)) for _ in range(2)])
        self.extra = nn.ParameterDict({'w': nn.Parameter(torch.zeros(2))})
        self.register_buffer('running', torch.zeros(4))
    def forward(self, x):
        for l, s in zip(self.layers, self.scales):
            x = torch.relu(l(x)) * s
        return self.heads['a'](x), self.heads['b'](x)

net = Net()
print([n for n, p in net.named_parameters()])
print([n for n, b in net.named_buffers()])
print(list(net.state_dict().keys()))
def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.xavier_uniform_(m.weight)
        nn.init.zeros_(m.bias)
        m.bias.data.fill_(0.01)
net.apply(init_weights)
print(net.layers[0].bias)
a, b = net(torch.randn(3, 4))
print(a.shape, b.shape)
print(len(net.layers), len(net.heads), list(net.heads.keys()))
net.layers.append(nn.Linear(4, 4))
net.layers.extend([nn.Identity()])
print(len(net.layers), net.layers[-1])
print(sum(p.numel() for p in net.parameters()))
print([n for n, _ in net.named_children()])
print([n for n, _ in net.named_modules()][:6])
w = torch.empty(3, 5)
nn.init.constant_(w, 0.3); print(w[0, 0].item())
nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu'); print(w.shape)
nn.init.orthogonal_(w); print(torch.allclose(w @ w.T, torch.eye(3), atol=1e-5))
nn.init.eye_(w); print(w)
nn.init.ones_(w); print(w.sum())
nn.init.normal_(w, mean=0.0, std=0.02); nn.init.uniform_(w, a=-0.1, b=0.1); nn.init.trunc_normal_(w, std=0.02)
print(nn.init.calculate_gain('relu'), nn.init.calculate_gain('leaky_relu', 0.2), nn.init.calculate_gain('tanh'))
print(net.training); net.eval(); print(net.training, net.layers[0].training); net.train()
net.requires_grad_(False); print(any(p.requires_grad for p in net.parameters()))
print(net)
