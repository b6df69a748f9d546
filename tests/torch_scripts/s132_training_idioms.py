import copy
import torch
import torch.nn as nn

torch.manual_seed(0)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 8), nn.Tanh())
        self.head = nn.Linear(8, 1)
        self.register_buffer("scale", torch.tensor(2.0), persistent=False)
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))
    def forward(self, x):
        self.steps += 1
        return self.head(self.backbone(x)) * self.scale

net = Net()
def init(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.1)
        nn.init.zeros_(m.bias)
net.apply(init)
print(list(net.state_dict().keys()))
print([n for n, _ in net.named_modules()], len(list(net.modules())))
print([n for n, b in net.named_buffers()])
for p in net.backbone[0].parameters():
    p.requires_grad_(False)
print([n for n, p in net.named_parameters() if p.requires_grad])
opt = torch.optim.SGD([{"params": net.backbone.parameters(), "lr": 0.01},
                       {"params": net.head.parameters()}], lr=0.1, momentum=0.9)
print([g["lr"] for g in opt.param_groups], [len(g["params"]) for g in opt.param_groups])
X = torch.tensor([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.5, -0.5]])
Y = torch.tensor([[1.0], [-1.0], [0.0], [0.5]])
best, best_loss, bad = None, float("inf"), 0
for epoch in range(12):
    opt.zero_grad(set_to_none=True)
    loss = nn.functional.mse_loss(net(X), Y)
    loss.backward()
    gn = nn.utils.clip_grad_norm_(net.parameters(), max_norm=0.5)
    opt.step()
    print(epoch, f"{loss.item():.6f}", f"{gn.item():.6f}", net.backbone[0].weight.grad is None)
    if loss.item() < best_loss - 1e-4:
        best_loss, best, bad = loss.item(), copy.deepcopy(net.state_dict()), 0
    else:
        bad += 1
print(f"{best_loss:.6f}", int(net.steps), best["steps"], list(best.keys())[:2])
net.load_state_dict(best)
vec = nn.utils.parameters_to_vector(net.parameters())
print(vec.shape, f"{vec.sum().item():.6f}")
nn.utils.vector_to_parameters(vec * 0 + 1, net.head.parameters()) if False else None
print(nn.utils.clip_grad_value_(net.head.parameters(), clip_value=0.01), net.head.weight.grad.abs().max() <= 0.01)
print(sum(p.numel() for p in net.parameters()), sum(p.numel() for p in net.parameters() if p.requires_grad))
