import torch

# fit length of a pendulum to a sampled angle trace with ReduceLROnPlateau
t = torch.linspace(0, 3, 31)
def model(L, theta0=0.3):
    w = torch.sqrt(9.81 / L)
    return theta0 * torch.cos(w * t)

obs = model(torch.tensor(1.3))
L = torch.tensor(1.0, requires_grad=True)
opt = torch.optim.SGD([L], lr=0.05)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1, threshold=1e-3)
history = []
for it in range(15):
    opt.zero_grad()
    loss = ((model(L) - obs) ** 2).sum()
    loss.backward()
    opt.step()
    plateau.step(loss.item())
    history.append(opt.param_groups[0]["lr"])
    print(it, f"{loss.item():.6f}", f"{L.item():.5f}")
print(history)
print(plateau.num_bad_epochs, plateau.best == min(plateau.best, 1e9), plateau.get_last_lr())
