import torch

pts = torch.cat([torch.stack([torch.linspace(-2, -1, 6), torch.linspace(0, 1, 6)], 1),
                 torch.stack([torch.linspace(1, 2, 6), torch.linspace(-1, 0, 6)], 1),
                 torch.stack([torch.linspace(0, 0.5, 6), torch.linspace(2, 3, 6)], 1)])
cent = pts[[0, 6, 12]].clone()
for it in range(5):
    d = torch.cdist(pts, cent)
    assign = d.argmin(1)
    new = torch.stack([pts[assign == k].mean(0) for k in range(3)])
    shift = (new - cent).norm()
    cent = new
    print(it, assign.bincount(minlength=3).tolist(), round(shift.item(), 6))
print(cent.round(decimals=5))
print(torch.cov(pts.T), torch.corrcoef(pts.T))
w = torch.arange(1, 19)
print(torch.cov(pts.T, correction=0, fweights=w), torch.cov(pts.T, aweights=torch.linspace(0.1, 1, 18)))
c = pts - pts.mean(0)
U, S, Vh = torch.linalg.svd(c, full_matrices=False)
print(S.round(decimals=5), (S ** 2 / (len(pts) - 1)).round(decimals=5))
print(torch.linalg.eigvalsh(torch.cov(pts.T)).round(decimals=5))
proj = c @ Vh[0]
print(proj.abs().max().round(decimals=5))
x = pts.clone().requires_grad_(True)
torch.cdist(x, cent, p=2).min(1).values.sum().backward()
print(x.grad[:3].round(decimals=5))
print(torch.cdist(pts[:2], pts[:3], compute_mode="use_mm_for_euclid_dist").round(decimals=5))
print(torch.std_mean(pts, dim=0), torch.var_mean(pts, dim=0, correction=0))
