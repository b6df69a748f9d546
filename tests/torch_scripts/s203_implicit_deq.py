import torch

# a tiny deep-equilibrium layer: z* = tanh(W z* + U x); gradient via the implicit function theorem
W = torch.tensor([[0.2, -0.1, 0.05], [0.0, 0.3, -0.2], [0.1, 0.1, 0.1]], requires_grad=True)
U = torch.tensor([[1.0, 0.5], [-0.5, 1.0], [0.3, -0.2]], requires_grad=True)
x = torch.tensor([0.7, -1.2])

def f(z, W, U):
    return torch.tanh(W @ z + U @ x)

with torch.no_grad():
    z = torch.zeros(3)
    for i in range(100):
        z_new = f(z, W, U)
        if (z_new - z).norm() < 1e-12:
            break
        z = z_new
print("iters", i, z.round(decimals=6))
zs = z.clone().requires_grad_()
fz = f(zs, W, U)
J = torch.autograd.functional.jacobian(lambda v: f(v, W.detach(), U.detach()), zs.detach())
print(J.shape, J.round(decimals=5))
loss_grad = 2 * zs.detach()  # d/dz of ||z||^2
u = torch.linalg.solve((torch.eye(3) - J).T, loss_grad)
gW, gU = torch.autograd.grad(fz, (W, U), grad_outputs=u)
print(gW.round(decimals=6))
print(gU.round(decimals=6))
# compare to unrolled differentiation
zu = torch.zeros(3)
for _ in range(100):
    zu = f(zu, W, U)
gW2, gU2 = torch.autograd.grad((zu ** 2).sum(), (W, U))
print(torch.allclose(gW, gW2, atol=1e-9), torch.allclose(gU, gU2, atol=1e-9))
# implicit differentiation of argmin: ridge regression lambda
A = torch.tensor([[1.0, 2.0], [3.0, 1.0], [0.0, 1.0], [1.0, -1.0]])
b = torch.tensor([1.0, 2.0, 0.5, 0.0])
lam = torch.tensor(0.3, requires_grad=True)
theta = torch.linalg.solve(A.T @ A + lam * torch.eye(2), A.T @ b)
val = ((A @ theta - b) ** 2).sum()
val.backward()
print(theta.detach().round(decimals=6), round(lam.grad.item(), 8))
