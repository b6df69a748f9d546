import io
import torch
import torch.nn as nn


def build():
    m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) / (i + 1))
    return m


xs = torch.stack([torch.linspace(-1, 1, 10), torch.linspace(1, 2, 10) ** 2, torch.cos(torch.arange(10.0))], 1)
ys = (xs[:, :1] - 2 * xs[:, 1:2] + 0.5 * xs[:, 2:]).tanh()


def train(model, opt, sched, steps):
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.smooth_l1_loss(model(xs), ys, beta=0.5)
        loss.backward()
        opt.step()
        sched.step()
    return loss.item()


ref = build()
ref_opt = torch.optim.AdamW(ref.parameters(), lr=0.05, weight_decay=0.01)
ref_sched = torch.optim.lr_scheduler.StepLR(ref_opt, step_size=4, gamma=0.5)
print(round(train(ref, ref_opt, ref_sched, 10), 8))

model = build()
opt = torch.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.01)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=4, gamma=0.5)
train(model, opt, sched, 6)
buf = io.BytesIO()
torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "epoch": 6}, buf)
print(buf.tell() > 0)
buf.seek(0)
ckpt = torch.load(buf, weights_only=True)
print(sorted(ckpt), ckpt["epoch"], ckpt["sched"]["last_epoch"], ckpt["sched"]["_last_lr"])
resumed = build()
resumed.load_state_dict(ckpt["model"])
opt2 = torch.optim.AdamW(resumed.parameters(), lr=0.05, weight_decay=0.01)
opt2.load_state_dict(ckpt["opt"])
sched2 = torch.optim.lr_scheduler.StepLR(opt2, step_size=4, gamma=0.5)
sched2.load_state_dict(ckpt["sched"])
print(opt2.param_groups[0]["lr"], opt2.param_groups[0]["initial_lr"])
print(round(train(resumed, opt2, sched2, 4), 8))
print(all(torch.equal(a, b) for a, b in zip(ref.parameters(), resumed.parameters())))
print(opt2.state[resumed[0].weight]["step"], ckpt["opt"]["state"][0]["step"])
