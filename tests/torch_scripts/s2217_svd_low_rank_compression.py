import torch

img = torch.outer(torch.linspace(0, 1, 6), torch.linspace(1, 2, 5)) + 0.1 * torch.cos(torch.arange(30.0)).view(6, 5)
U, S, Vh = torch.linalg.svd(img, full_matrices=False)
print(U.shape, S.shape, Vh.shape)
print(S.round(decimals=5))
print(torch.allclose(U @ torch.diag(S) @ Vh, img))
for k in [1, 2, 3]:
    approx = U[:, :k] @ torch.diag(S[:k]) @ Vh[:k]
    err = torch.linalg.matrix_norm(img - approx)
    print(k, round(err.item(), 6), round(S[k:].pow(2).sum().sqrt().item(), 6))
Uf, Sf, Vhf = torch.linalg.svd(img)
print(Uf.shape, Vhf.shape, torch.allclose(Uf.T @ Uf, torch.eye(6)))
print(torch.allclose(torch.linalg.svdvals(img), S))
energy = S.pow(2).cumsum(0) / S.pow(2).sum()
print(energy.round(decimals=6), int((energy < 0.999).sum()) + 1)
A = img.clone().requires_grad_()
torch.linalg.svdvals(A)[:2].sum().backward()
print(A.grad.round(decimals=4))
B = img.clone().requires_grad_()
torch.linalg.matrix_norm(B, "nuc").backward()
print(torch.allclose(B.grad, U @ Vh))
print(torch.linalg.matrix_norm(img, 2).round(decimals=6), S[0].round(decimals=6))
print(torch.linalg.matrix_rank(img[:, :2] @ img[:2, :]), torch.linalg.matrix_rank(img, atol=0.05))
