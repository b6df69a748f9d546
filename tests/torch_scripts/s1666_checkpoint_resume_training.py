# The "saving and loading a general checkpoint" recipe: epoch, model and optimizer
# state_dicts and loss in one dict saved to BytesIO; resuming continues exactly as an
# uninterrupted run (Adam moments and scheduler state restored)
import io
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

rng = np.random.default_rng(171)
X = torch.from_numpy(rng.standard_normal((30, 4)))
y = torch.from_numpy(rng.standard_normal((30, 2)))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc2(torch.nn.functional.softplus(self.fc1(x)))


def make():
    net = Net()
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(0.5 * torch.sin(torch.arange(p.numel()) * 0.3 + i).view_as(p))
    opt = optim.Adam(net.parameters(), lr=0.01, amsgrad=True)
    sch = optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
    return net, opt, sch


def train(net, opt, sch, epochs):
    for _ in range(epochs):
        opt.zero_grad()
        loss = nn.functional.mse_loss(net(X), y)
        loss.backward()
        opt.step()
        sch.step()
    return loss.item()


net, opt, sch = make()
loss = train(net, opt, sch, 3)
buf = io.BytesIO()
torch.save({"epoch": 3, "model_state_dict": net.state_dict(),
            "optimizer_state_dict": opt.state_dict(), "scheduler": sch.state_dict(),
            "loss": loss}, buf)
print("saved bytes > 0", buf.tell() > 0)
cont = train(net, opt, sch, 4)

net2, opt2, sch2 = make()
buf.seek(0)
ckpt = torch.load(buf, weights_only=True)
net2.load_state_dict(ckpt["model_state_dict"])
opt2.load_state_dict(ckpt["optimizer_state_dict"])
sch2.load_state_dict(ckpt["scheduler"])
print(ckpt["epoch"], round(ckpt["loss"], 6), sorted(ckpt))
print(sorted(ckpt["optimizer_state_dict"]["state"][0]), ckpt["scheduler"]["last_epoch"])
net2.train()
resumed = train(net2, opt2, sch2, 4)
print(f"continued {cont:.8f} resumed {resumed:.8f}")
print(all(torch.equal(a, b) for a, b in zip(net.parameters(), net2.parameters())))
print(opt2.param_groups[0]["lr"].__round__(8), sch2.get_last_lr()[0].__round__(8))
print(opt2.state_dict()["state"][1]["max_exp_avg_sq"].numpy().round(8))
