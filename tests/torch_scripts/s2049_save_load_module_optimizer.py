import io
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1) / 4)
opt = torch.optim.Adam(net.parameters(), lr=0.01, weight_decay=1e-3)
sched = torch.optim.lr_scheduler.StepLR(opt, 2, gamma=0.1)
x = torch.tensor([[0.5, -0.5], [1.0, 2.0]])
for _ in range(3):
    opt.zero_grad()
    net(x).pow(2).sum().backward()
    opt.step()
    sched.step()
buf = io.BytesIO()
torch.save({"model": net.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(),
            "epoch": 3, "meta": {"names": ["a", "b"], "t": torch.tensor([1, 2])}}, buf)
buf.seek(0)
ck = torch.load(buf, weights_only=True)
print(sorted(ck), ck["epoch"], ck["meta"])
print(list(ck["model"].keys()))
print(ck["opt"]["param_groups"][0]["lr"], sorted(ck["opt"]["param_groups"][0]))
print(ck["sched"]["last_epoch"], ck["sched"]["_last_lr"])
net2 = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
net2.load_state_dict(ck["model"])
opt2 = torch.optim.Adam(net2.parameters(), lr=0.5)
opt2.load_state_dict(ck["opt"])
print(opt2.param_groups[0]["lr"], opt2.state[net2[0].weight]["step"])
for o in (opt, opt2):
    o.zero_grad()
for n in (net, net2):
    n(x).pow(2).sum().backward()
opt.step(); opt2.step()
print(all(torch.allclose(a, b) for a, b in zip(net.parameters(), net2.parameters())))
print(net2(x).round(decimals=6))
buf2 = io.BytesIO()
torch.save(net, buf2)
buf2.seek(0)
whole = torch.load(buf2, weights_only=False)
print(whole)
print(torch.equal(whole[0].weight, net[0].weight))
