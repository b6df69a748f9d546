# Checkpointing mid-training the way a training script resumes: model/optimizer/scheduler
# state_dicts and the step saved with torch.save to BytesIO and a file in a temp dir,
# loaded with torch.load(weights_only=True), training resumed and compared with an
# uninterrupted run
import io
import os
import tempfile
import torch
import torch.nn as nn


def make():
    m = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 1))
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.5 + i).view_as(p) * 0.4)
    o = torch.optim.AdamW(m.parameters(), lr=0.05, amsgrad=True)
    s = torch.optim.lr_scheduler.StepLR(o, step_size=2, gamma=0.5)
    return m, o, s


x = torch.sin(torch.arange(18.0)).view(6, 3)
y = torch.cos(torch.arange(6.0)).unsqueeze(1)


def train(m, o, s, steps):
    for _ in range(steps):
        o.zero_grad()
        loss = nn.functional.mse_loss(m(x), y)
        loss.backward()
        o.step()
        s.step()
    return loss.item()


m1, o1, s1 = make()
print(f"{train(m1, o1, s1, 6):.8f}")
m2, o2, s2 = make()
train(m2, o2, s2, 3)
ckpt = {"model": m2.state_dict(), "opt": o2.state_dict(), "sched": s2.state_dict(), "step": 3}
buf = io.BytesIO()
torch.save(ckpt, buf)
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "ckpt.pt")
    torch.save(ckpt, path)
    from_file = torch.load(path, weights_only=True)
buf.seek(0)
loaded = torch.load(buf, weights_only=True)
print(sorted(loaded), loaded["step"], sorted(loaded["opt"]["state"][0]))
print(loaded["opt"]["param_groups"][0]["params"], loaded["sched"]["last_epoch"])
m3, o3, s3 = make()
m3.load_state_dict(loaded["model"])
o3.load_state_dict(loaded["opt"])
s3.load_state_dict(loaded["sched"])
print(f"{train(m3, o3, s3, 3):.8f}", s3.get_last_lr())
print(all(torch.equal(a, b) for a, b in zip(m1.parameters(), m3.parameters())))
print(torch.equal(from_file["model"]["0.weight"], loaded["model"]["0.weight"]))
print(o3.state[m3[0].weight]["step"], o3.state[m3[0].weight]["max_exp_avg_sq"].shape)
