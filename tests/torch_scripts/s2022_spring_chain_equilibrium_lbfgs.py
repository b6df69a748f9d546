import torch

# positions of 4 masses hanging on springs between two walls; minimise energy
n = 4
stiff = torch.tensor([10.0, 20.0, 15.0, 5.0, 12.0])
rest = torch.tensor([1.0, 0.8, 1.2, 1.0, 0.9])
masses = torch.tensor([1.0, 2.0, 1.5, 0.5])
left, right = torch.tensor([0.0, 0.0]), torch.tensor([5.0, 0.0])
pos = torch.stack([torch.linspace(1, 4, n), torch.zeros(n)], 1).requires_grad_(True)

def energy():
    pts = torch.cat([left[None], pos, right[None]])
    d = pts[1:] - pts[:-1]
    length = d.norm(dim=1)
    springs = 0.5 * (stiff * (length - rest) ** 2).sum()
    gravity = (masses * 9.81 * pos[:, 1]).sum()
    return springs + gravity

opt = torch.optim.LBFGS([pos], lr=1, max_iter=50, history_size=10, line_search_fn="strong_wolfe")
def closure():
    opt.zero_grad()
    e = energy()
    e.backward()
    return e
for i in range(3):
    e = opt.step(closure)
    print(i, round(e.item(), 6))
print(pos.detach().round(decimals=4))
print(torch.allclose(pos.grad, torch.zeros_like(pos.grad), atol=1e-5))
st = opt.state_dict()
print(sorted(st["state"][0].keys()))
print(st["state"][0]["func_evals"] > 0, st["state"][0]["n_iter"])
