# LR range test and linear warmup + cosine decay written by hand with LambdaLR, logging the lr,
# smoothed loss with exponential averaging and bias correction, stopping when the loss explodes
import math
import torch
import torch.nn as nn

X = torch.linspace(-1, 1, 32).unsqueeze(1)
Y = torch.sin(3 * X)
model = nn.Sequential(nn.Linear(1, 16), nn.ReLU(), nn.Linear(16, 1))
init = {k: 0.4 * torch.cos(torch.arange(v.numel(), dtype=v.dtype) * 0.77 + i).view_as(v)
        for i, (k, v) in enumerate(model.state_dict().items())}
model.load_state_dict(init)
opt = torch.optim.SGD(model.parameters(), lr=1e-4)
start_lr, end_lr, num_it = 1e-4, 10.0, 40
mult = (end_lr / start_lr) ** (1 / num_it)
avg, best, beta = 0.0, float("inf"), 0.9
lrs, losses = [], []
for it in range(1, num_it + 1):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    avg = beta * avg + (1 - beta) * loss.item()
    smoothed = avg / (1 - beta ** it)
    if it > 1 and smoothed > 4 * best:
        print(f"stopping at it {it} lr {opt.param_groups[0]['lr']:.4g}")
        break
    best = min(best, smoothed)
    lrs.append(opt.param_groups[0]["lr"])
    losses.append(smoothed)
    loss.backward()
    opt.step()
    for g in opt.param_groups:
        g["lr"] *= mult
print(len(lrs), f"{lrs[losses.index(min(losses))]:.4g}", f"{min(losses):.5f}")

model.load_state_dict(init)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
warmup, total = 5, 30


def lr_lambda(step):
    if step < warmup:
        return float(step + 1) / float(warmup)
    progress = (step - warmup) / max(1, total - warmup)
    return 0.5 * (1.0 + math.cos(math.pi * progress))


sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda)
trace = []
for step in range(total):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    sched.step()
    trace.append(sched.get_last_lr()[0])
print([f"{v:.5f}" for v in trace[:7]], f"{trace[-1]:.3e}", f"{loss.item():.5f}")
