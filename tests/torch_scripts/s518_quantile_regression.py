import torch


def pinball(pred, target, q):
    err = target - pred
    return torch.maximum(q * err, (q - 1) * err).mean()


x = torch.linspace(0, 1, 50)
y = 2 * x + 0.5 * torch.sin(17 * x) * (1 + x)
qs = torch.tensor([0.1, 0.5, 0.9])
params = torch.zeros(3, 2, requires_grad=True)
opt = torch.optim.Adam([params], lr=0.05)
for step in range(400):
    opt.zero_grad()
    preds = params[:, :1] + params[:, 1:] * x
    loss = sum(pinball(preds[i], y, q) for i, q in enumerate(qs))
    loss.backward()
    opt.step()
print(round(loss.item(), 4))
preds = (params[:, :1] + params[:, 1:] * x).detach()
cover = (y.unsqueeze(0) <= preds).double().mean(dim=1)
print(cover.round(decimals=2))
print(torch.quantile(y, qs).round(decimals=4))
print(torch.quantile(y, 0.25, interpolation="lower"), torch.quantile(y, 0.25, interpolation="midpoint"))
print(torch.nanquantile(torch.tensor([1.0, float("nan"), 3.0, 2.0]), 0.5))
print(y.median(), y.kthvalue(5).values)
m = torch.stack([y, y * 2])
print(torch.quantile(m, torch.tensor([0.2, 0.8]), dim=1, keepdim=True).shape)
e = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
pinball(torch.zeros(3), e, 0.3).backward()
print(e.grad)
