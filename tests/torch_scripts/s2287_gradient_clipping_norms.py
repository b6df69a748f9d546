import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(4, 5), nn.ReLU(), nn.Linear(5, 2))
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.linspace(-2, 2, p.numel()).view_as(p))
x = torch.linspace(-1, 1, 12).view(3, 4)
y = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
loss = nn.functional.mse_loss(model(x), y)
loss.backward()
norms = [p.grad.norm().item() for p in model.parameters()]
print([round(n, 5) for n in norms])
total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(round(total.item(), 5), total.dtype)
print(round(torch.norm(torch.stack([p.grad.norm() for p in model.parameters()])).item(), 5))
torch.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.05)
print(model[0].weight.grad.abs().max(), model[2].bias.grad)
inf_total = torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0, norm_type=float("inf"))
print(inf_total)
vec = torch.nn.utils.parameters_to_vector(model.parameters())
print(vec.shape, vec[:4])
torch.nn.utils.vector_to_parameters(vec * 0.5, model.parameters())
print(model[2].bias)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    l = nn.functional.mse_loss(model(x), y)
    l.backward()
    n = nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    opt.step()
    print(step, f"{l.item():.5f}", f"{n.item():.5f}")
