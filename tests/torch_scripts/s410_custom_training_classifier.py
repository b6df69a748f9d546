import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader

X = torch.stack([torch.cos(torch.arange(60.0) * 0.37), torch.sin(torch.arange(60.0) * 0.23)], 1)
y = ((X[:, 0] * X[:, 1]) > 0).long()


class MLP(nn.Module):
    def __init__(self, d_in, d_hidden, n_cls, p=0.1):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, d_hidden), nn.SiLU(), nn.Dropout(p), nn.Linear(d_hidden, d_hidden), nn.Mish())
        self.head = nn.Linear(d_hidden, n_cls)
        self.apply(self._init)

    @staticmethod
    def _init(m):
        if isinstance(m, nn.Linear):
            with torch.no_grad():
                m.weight.copy_(torch.sin(torch.arange(m.weight.numel(), dtype=m.weight.dtype) * 1.3).view_as(m.weight) * 0.5)
                nn.init.zeros_(m.bias)

    def forward(self, x):
        return self.head(self.body(x))


model = MLP(2, 16, 2, p=0.0)
opt = torch.optim.RMSprop(model.parameters(), lr=0.01, alpha=0.9, centered=True)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
loader = DataLoader(TensorDataset(X, y), batch_size=20)
for epoch in range(6):
    model.train()
    tot = 0.0
    for xb, yb in loader:
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        torch.nn.utils.clip_grad_value_(model.parameters(), 0.5)
        opt.step()
        tot += loss.item() * len(xb)
    model.eval()
    with torch.no_grad():
        acc = (model(X).argmax(1) == y).float().mean().item()
    sched.step(tot)
    print(epoch, round(tot / len(X), 5), round(acc, 4), opt.param_groups[0]["lr"])
print(model.head.weight.grad is not None, sum(p.numel() for p in model.parameters()))
print(F.nll_loss(F.log_softmax(model(X[:4]), 1), y[:4], reduction="none").shape, model.training)
