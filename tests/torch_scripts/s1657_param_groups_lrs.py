# Fine-tuning with parameter groups: a pretrained-style backbone at a small lr, a new head
# at a larger lr, no weight decay on biases/norms, MultiStepLR, per-group lr printing
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(81)
X = torch.from_numpy(rng.standard_normal((48, 6)))
Y = torch.from_numpy((rng.standard_normal(48) > 0).astype(np.int64))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(6, 16), nn.LayerNorm(16), nn.ReLU(),
                                      nn.Linear(16, 16), nn.ReLU())
        self.head = nn.Linear(16, 2)

    def forward(self, x):
        return self.head(self.backbone(x))


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.from_numpy(np.random.default_rng(i).uniform(-0.5, 0.5, tuple(p.shape))))
decay, no_decay = [], []
for name, p in net.backbone.named_parameters():
    (no_decay if name.endswith("bias") or p.ndim == 1 else decay).append(p)
optimizer = torch.optim.AdamW([
    {"params": decay, "lr": 1e-3, "weight_decay": 0.05},
    {"params": no_decay, "lr": 1e-3, "weight_decay": 0.0},
    {"params": net.head.parameters(), "lr": 1e-2},
], weight_decay=0.01)
sched = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[3, 6], gamma=0.1)
print([len(g["params"]) for g in optimizer.param_groups],
      [g["weight_decay"] for g in optimizer.param_groups])
for epoch in range(8):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(net(X), Y)
    loss.backward()
    optimizer.step()
    sched.step()
    print(epoch, f"{loss.item():.6f}", [f"{lr:.0e}" for lr in sched.get_last_lr()])

sd = optimizer.state_dict()
print(len(sd["state"]), sd["param_groups"][2]["params"], sd["param_groups"][0]["initial_lr"])
print(net.head.weight.detach().numpy().round(5))
print(optimizer.state[net.backbone[1].weight]["exp_avg_sq"].numpy()[:4].round(8))
for g in optimizer.param_groups:
    g["lr"] = 0.5
print(sched.get_last_lr(), [g["lr"] for g in optimizer.param_groups])
