import torch
import math

X = torch.linspace(-3, 3, 12).unsqueeze(1)
y = torch.sin(X).squeeze() + 0.1 * torch.cos(7 * X).squeeze()
log_ls = torch.tensor(0.0, requires_grad=True)
log_sf = torch.tensor(0.0, requires_grad=True)
log_sn = torch.tensor(-2.0, requires_grad=True)

def kernel(A, B, ls, sf):
    d2 = torch.cdist(A, B) ** 2
    return sf ** 2 * torch.exp(-0.5 * d2 / ls ** 2)

def nlml():
    K = kernel(X, X, log_ls.exp(), log_sf.exp()) + log_sn.exp() ** 2 * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(1), L)
    return 0.5 * (y @ alpha.squeeze()) + L.diagonal().log().sum() + 0.5 * len(X) * math.log(2 * math.pi), K

opt = torch.optim.LBFGS([log_ls, log_sf, log_sn], lr=0.5, max_iter=20)
def closure():
    opt.zero_grad()
    loss, _ = nlml()
    loss.backward()
    return loss
for i in range(3):
    loss = opt.step(closure)
    print(i, f"{loss.item():.6f}", f"{log_ls.item():.5f}", f"{log_sf.item():.5f}", f"{log_sn.item():.5f}")
loss, K = nlml()
sign, ld = torch.linalg.slogdet(K)
print("logdet", f"{torch.logdet(K).item():.6f}", f"{ld.item():.6f}", sign.item(), f"{2 * torch.linalg.cholesky(K).diagonal().log().sum().item():.6f}")
Xs = torch.tensor([[-1.0], [0.5], [2.5]])
with torch.no_grad():
    Ks = kernel(Xs, X, log_ls.exp(), log_sf.exp())
    mean = Ks @ torch.linalg.solve(K, y)
    var = kernel(Xs, Xs, log_ls.exp(), log_sf.exp()).diag() - (Ks @ torch.cholesky_inverse(torch.linalg.cholesky(K)) * Ks).sum(1)
print(mean, var.clamp_min(0).sqrt())
print(torch.sin(Xs).squeeze())
L = torch.linalg.cholesky(K.detach())
print(torch.allclose(torch.linalg.solve_triangular(L, y.unsqueeze(1), upper=False), torch.linalg.inv(L) @ y.unsqueeze(1)))
print(torch.linalg.cholesky_ex(K.detach()).info, torch.linalg.inv_ex(K.detach()).info)
