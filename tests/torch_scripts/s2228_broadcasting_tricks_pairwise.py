import torch

pts = torch.tensor([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0], [-2.0, 0.5]])
diff = pts[:, None, :] - pts[None, :, :]
d = diff.norm(dim=-1)
print(d.round(decimals=4))
print(torch.allclose(d, torch.cdist(pts, pts)))
d2 = (pts ** 2).sum(1, keepdim=True) + (pts ** 2).sum(1) - 2 * pts @ pts.T
print(torch.allclose(d2.clamp_min(0).sqrt(), d, atol=1e-6))
nearest = (d + torch.eye(4) * 1e9).argmin(1)
print(nearest)
row = torch.arange(3)
col = torch.arange(4).unsqueeze(1)
print(row + col * 10)
print(torch.broadcast_shapes((3, 1, 2), (4, 1), (1,)))
a, b = torch.broadcast_tensors(torch.tensor([[1], [2]]), torch.tensor([10, 20, 30]))
print(a, b.stride(), a.is_contiguous())
e = torch.tensor([1, 2]).expand(3, 2)
r = torch.tensor([1, 2]).repeat(3, 1)
print(e.stride(), r.stride(), torch.equal(e, r), e.data_ptr() == e[1].data_ptr())
print(torch.tile(torch.tensor([[1, 2], [3, 4]]), (2, 3)).shape, torch.tile(torch.tensor([1, 2]), (2, 2)))
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = (x.view(3, 1) * torch.ones(1, 4)).sum()
out.backward()
print(x.grad)
mask = torch.tensor([[1.0], [0.0]])
grid = torch.arange(6.0).view(2, 3)
print(grid * mask, (grid + torch.tensor([100.0, 200.0, 300.0])) * (1 - mask))
try:
    torch.ones(2, 3) + torch.ones(3, 2)
except RuntimeError as err:
    print("RuntimeError:", err)
z = torch.zeros(2, 1)
z += torch.ones(1)
print(z)
try:
    z += torch.ones(2, 2)
except RuntimeError as err:
    print("RuntimeError:", err)
