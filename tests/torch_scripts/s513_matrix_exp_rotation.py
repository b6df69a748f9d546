import torch

torch.set_printoptions(precision=5)


def hat(w):
    z = torch.zeros((), dtype=w.dtype)
    return torch.stack([
        torch.stack([z, -w[2], w[1]]),
        torch.stack([w[2], z, -w[0]]),
        torch.stack([-w[1], w[0], z])])


w_true = torch.tensor([0.3, -0.2, 0.5])
R_true = torch.linalg.matrix_exp(hat(w_true))
print(R_true)
print(torch.allclose(R_true @ R_true.T, torch.eye(3)), round(torch.linalg.det(R_true).item(), 10))
pts = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]])
obs = pts @ R_true.T
w = torch.zeros(3, requires_grad=True)
opt = torch.optim.LBFGS([w], lr=1, max_iter=50, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    R = torch.linalg.matrix_exp(hat(w))
    loss = ((pts @ R.T - obs) ** 2).sum()
    loss.backward()
    return loss


opt.step(closure)
print(w.detach(), torch.allclose(w.detach(), w_true, atol=1e-6))
# Rodrigues formula agrees with matrix_exp
th = w_true.norm()
K = hat(w_true / th)
R_rod = torch.eye(3) + torch.sin(th) * K + (1 - torch.cos(th)) * K @ K
print(torch.allclose(R_rod, R_true))
A = torch.tensor([[0.0, 1.0], [-2.0, -0.3]], requires_grad=True)
E = torch.linalg.matrix_exp(A * 0.5)
E.trace().backward()
print(E, A.grad)
batch = torch.stack([hat(w_true * s) for s in (0.0, 1.0, 2.0)])
print(torch.linalg.matrix_exp(batch).shape, torch.matrix_exp(batch[0]))
