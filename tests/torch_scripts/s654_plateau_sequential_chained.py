import torch

p = [torch.nn.Parameter(torch.zeros(1))]
opt = torch.optim.Adam(p, lr=1.0)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1, threshold=0.01, cooldown=1, min_lr=0.1)
for epoch, val in enumerate([1.0, 0.9, 0.9, 0.9, 0.95, 0.89, 0.89, 0.89, 0.89, 0.89]):
    opt.step()
    plateau.step(val)
    print(epoch, opt.param_groups[0]["lr"], plateau.num_bad_epochs)
opt = torch.optim.SGD(p, lr=1.0)
warm = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=3)
decay = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
seq = torch.optim.lr_scheduler.SequentialLR(opt, schedulers=[warm, decay], milestones=[3])
out = []
for _ in range(7):
    opt.step()
    out.append(round(opt.param_groups[0]["lr"], 6))
    seq.step()
print(out)
opt = torch.optim.SGD(p, lr=1.0)
chain = torch.optim.lr_scheduler.ChainedScheduler([torch.optim.lr_scheduler.ConstantLR(opt, factor=0.1, total_iters=2), torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)])
out = []
for _ in range(5):
    opt.step()
    out.append(round(opt.param_groups[0]["lr"], 6))
    chain.step()
print(out)
opt = torch.optim.SGD(p, lr=1.0)
cos = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.1)
out = []
for _ in range(10):
    opt.step()
    out.append(round(opt.param_groups[0]["lr"], 5))
    cos.step()
print(out)
print(plateau.state_dict()["best"], sorted(seq.state_dict().keys())[:3])
