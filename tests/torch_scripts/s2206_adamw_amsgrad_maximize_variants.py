import torch

def objective(p):
    return -(p[0] - 1.0) ** 2 - 2.0 * (p[1] + 0.5) ** 2 + 0.3 * p[0] * p[1]

configs = {
    "AdamW amsgrad max": (torch.optim.AdamW, dict(lr=0.1, amsgrad=True, maximize=True, weight_decay=0.05)),
    "Adam maximize": (torch.optim.Adam, dict(lr=0.1, maximize=True)),
    "NAdam decoupled": (torch.optim.NAdam, dict(lr=0.1, maximize=True, weight_decay=0.1, decoupled_weight_decay=True)),
    "NAdam momentum_decay": (torch.optim.NAdam, dict(lr=0.1, maximize=True, momentum_decay=0.01)),
    "RAdam decoupled": (torch.optim.RAdam, dict(lr=0.1, maximize=True, weight_decay=0.1, decoupled_weight_decay=True)),
    "RAdam plain": (torch.optim.RAdam, dict(lr=0.1, maximize=True)),
}
for name, (cls, kw) in configs.items():
    p = torch.tensor([0.0, 0.0], requires_grad=True)
    opt = cls([p], **kw)
    for _ in range(40):
        opt.zero_grad()
        objective(p).backward()
        opt.step()
    print(f"{name:22s} {p[0].item():.5f} {p[1].item():.5f} {objective(p).item():.5f}")
p = torch.tensor([0.0, 0.0], requires_grad=True)
opt = torch.optim.AdamW([p], lr=0.1, amsgrad=True)
opt.zero_grad()
(-objective(p)).backward()
opt.step()
print(sorted(opt.state[p].keys()), opt.state[p]["max_exp_avg_sq"])
print(opt.defaults["weight_decay"], torch.optim.Adam([p]).defaults["weight_decay"])
