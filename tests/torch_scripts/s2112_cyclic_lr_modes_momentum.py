import torch
from torch.optim.lr_scheduler import CyclicLR

for mode in ["triangular", "triangular2", "exp_range"]:
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
    s = CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3, step_size_down=2, mode=mode, gamma=0.8)
    lrs, moms = [], []
    for _ in range(12):
        opt.step()
        s.step()
        lrs.append(round(opt.param_groups[0]["lr"], 5))
        moms.append(round(opt.param_groups[0]["momentum"], 4))
    print(mode, lrs)
    print("  momentum", moms[:6])

p = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([p], lr=0.1)
s = CyclicLR(opt, 0.001, 0.01, step_size_up=2, scale_fn=lambda x: 1 / (2.0 ** (x - 1)), scale_mode="cycle", cycle_momentum=False)
out = []
for _ in range(9):
    opt.step(); s.step()
    out.append(round(s.get_last_lr()[0], 6))
print(out)
