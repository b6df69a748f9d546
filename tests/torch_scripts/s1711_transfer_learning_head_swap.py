# Transfer learning as in the fine-tuning tutorial: a "pretrained" backbone loaded from a
# state_dict, its parameters frozen, the head replaced with a new nn.Linear, only the head
# optimized; then unfreezing the last block with add_param_group and a lower lr
import io
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(591)


class Backbone(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.layer1 = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU())
        self.layer2 = nn.Sequential(nn.Linear(16, 16), nn.ReLU())
        self.fc = nn.Linear(16, n_classes)

    def forward(self, x):
        return self.fc(self.layer2(self.layer1(x)))


pre = Backbone()
with torch.no_grad():
    for p in pre.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
    pre.layer1[1].running_mean.copy_(torch.from_numpy(rng.normal(0, 0.1, 16)))
buf = io.BytesIO()
torch.save(pre.state_dict(), buf)
buf.seek(0)
model = Backbone()
print(model.load_state_dict(torch.load(buf)))
for param in model.parameters():
    param.requires_grad = False
model.fc = nn.Linear(model.fc.in_features, 3)
with torch.no_grad():
    model.fc.weight.copy_(torch.from_numpy(rng.normal(0, 0.2, (3, 16))))
    model.fc.bias.zero_()
print([n for n, p in model.named_parameters() if p.requires_grad])
X = torch.from_numpy(rng.standard_normal((24, 8)))
Y = torch.from_numpy(rng.integers(0, 3, 24))
opt = torch.optim.SGD(model.fc.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.1)
model.eval()
for epoch in range(4):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(X), Y)
    loss.backward()
    opt.step()
    sched.step()
    print(epoch, f"{loss.item():.6f}", model.layer2[0].weight.grad)
for p in model.layer2.parameters():
    p.requires_grad_(True)
opt.add_param_group({"params": model.layer2.parameters(), "lr": 0.01})
print([g["lr"] for g in opt.param_groups], [len(g["params"]) for g in opt.param_groups])
for epoch in range(3):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(X), Y)
    loss.backward()
    opt.step()
    print("unfrozen", epoch, f"{loss.item():.6f}", f"{model.layer2[0].weight.grad.norm().item():.6f}")
print(model.layer1[1].running_mean[:3].numpy().round(5), model.layer1[1].num_batches_tracked.item())
