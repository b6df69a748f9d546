import torch
import torch.nn.functional as F

n = 40
t = torch.arange(n, dtype=torch.float64)
truth = ((t > 8) & (t < 18)).double() + 0.5 * ((t > 25) & (t < 32)).double()
kernel = torch.exp(-0.5 * (torch.arange(-3, 4, dtype=torch.float64) / 1.5) ** 2)
kernel = kernel / kernel.sum()


def blur(x):
    return F.conv1d(x.view(1, 1, -1), kernel.view(1, 1, -1), padding=3).view(-1)


observed = blur(truth) + 0.02 * torch.sin(3.1 * t)
print(observed.shape, round(observed.sum().item(), 6))
x = observed.clone().requires_grad_(True)
opt = torch.optim.SGD([x], lr=0.2, momentum=0.5)
lam, eps = 0.02, 0.05
for it in range(150):
    opt.zero_grad()
    fid = 0.5 * ((blur(x) - observed) ** 2).sum()
    tv = torch.sqrt(torch.diff(x) ** 2 + eps ** 2).sum()
    loss = fid + lam * tv
    loss.backward()
    opt.step()
    if it % 50 == 0:
        print(it, round(loss.item(), 5), round(fid.item(), 5), round(tv.item(), 4))
err_obs = (observed - truth).norm().item()
err_rec = (x.detach() - truth).norm().item()
print(err_rec < err_obs, round(err_obs, 4))
print(x.detach()[::5].round(decimals=2))
print(F.pad(truth[:4].view(1, 1, -1), (2, 2), mode="replicate"))
