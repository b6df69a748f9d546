import math
import torch
import torch.nn as nn

print(nn.init.calculate_gain('relu'), nn.init.calculate_gain('tanh'), nn.init.calculate_gain('leaky_relu', 0.2), nn.init.calculate_gain('sigmoid'), nn.init.calculate_gain('linear'), nn.init.calculate_gain('selu'))
w = torch.empty(3, 5)
nn.init.constant_(w, 0.3)
print(w[0])
nn.init.ones_(w); print(w.sum())
nn.init.zeros_(w); print(w.abs().sum())
nn.init.eye_(w); print(w)
d = torch.empty(2, 2, 3)
nn.init.dirac_(d); print(d)
torch.manual_seed(0)
w = torch.empty(64, 32)
nn.init.xavier_uniform_(w)
bound = math.sqrt(6.0 / (64 + 32))
print(bool(w.abs().max() <= bound), w.shape)
nn.init.xavier_normal_(w, gain=2.0)
print(w.shape, w.dtype)
nn.init.kaiming_uniform_(w, a=math.sqrt(5))
print(bool(w.abs().max() <= 1 / math.sqrt(32) + 1e-12))
nn.init.kaiming_normal_(w, mode='fan_out', nonlinearity='relu')
print(w.shape)
nn.init.uniform_(w, -0.1, 0.1); print(bool(w.abs().max() <= 0.1))
nn.init.normal_(w, mean=0.0, std=0.02); print(w.shape)
nn.init.trunc_normal_(w, std=0.5, a=-1.0, b=1.0); print(bool(w.abs().max() <= 1.0))
q = torch.empty(4, 6)
nn.init.orthogonal_(q)
print(torch.allclose(q @ q.T, torch.eye(4), atol=1e-10))
s = torch.empty(10, 10)
nn.init.sparse_(s, sparsity=0.5)
print(bool(((s == 0).sum(0) == 5).all()))
fan_in, fan_out = nn.init._calculate_fan_in_and_fan_out(torch.empty(8, 4, 3, 3))
print(fan_in, fan_out)


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.05)
        if m.bias is not None:
            m.bias.data.fill_(0.01)
    elif isinstance(m, nn.Conv2d):
        nn.init.constant_(m.weight, -0.1)
        nn.init.zeros_(m.bias)
    elif isinstance(m, nn.BatchNorm2d):
        m.weight.data.fill_(2.0)
        m.bias.data.zero_()


net = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.Flatten(), nn.Linear(8, 2), nn.ReLU(), nn.Linear(2, 1, bias=False))
r = net.apply(init_weights)
print(r is net, net[3].weight[0, :3], net[0].weight.flatten()[:3], net[1].weight, net[5].weight)
visited = []
net.apply(lambda m: visited.append(type(m).__name__))
print(visited)
net[3].reset_parameters()
print(net[3].weight.shape, bool(net[3].weight.abs().max() <= 1 / math.sqrt(8)))
lin = nn.Linear(3, 3)
with torch.no_grad():
    lin.weight.copy_(torch.eye(3))
    lin.bias.fill_(0.5)
print(lin(torch.ones(1, 3)))
print(nn.init.constant_(torch.empty(2), 1.5).requires_grad, nn.init.zeros_(nn.Parameter(torch.ones(2))).requires_grad)
emb = nn.Embedding(4, 2, padding_idx=1)
nn.init.constant_(emb.weight, 0.7)
print(emb.weight[1])
