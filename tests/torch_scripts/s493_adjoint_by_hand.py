import torch

# dz/dt = f(z, theta) = tanh(W z + b); loss = |z(T)|^2. Gradient by the adjoint method
# (integrated backwards by hand with vector-Jacobian products) vs by backprop through the solver.
W = torch.tensor([[0.2, -0.5], [0.4, 0.1]], requires_grad=True)
b = torch.tensor([0.1, -0.2], requires_grad=True)
z0 = torch.tensor([1.0, 0.5])
T, N = 1.0, 200
h = T / N


def f(z):
    return torch.tanh(z @ W.T + b)


# forward with explicit Euler, keeping the trajectory
zs = [z0]
with torch.no_grad():
    for _ in range(N):
        zs.append(zs[-1] + h * f(zs[-1]))
zT = zs[-1]
loss = (zT ** 2).sum()
a = 2 * zT  # dL/dz(T)
gW = torch.zeros_like(W)
gb = torch.zeros_like(b)
for i in range(N, 0, -1):
    z = zs[i - 1].clone().requires_grad_(True)
    fz = f(z)
    vz, vW, vb = torch.autograd.grad(fz, (z, W, b), grad_outputs=a)
    gW += h * vW
    gb += h * vb
    a = a + h * vz
print(round(loss.item(), 8))
print(gW, gb)
print("dL/dz0", a)
# direct backprop through the discrete solver gives the same numbers
z = z0.clone().requires_grad_(True)
zz = z
for _ in range(N):
    zz = zz + h * f(zz)
(zz ** 2).sum().backward()
print(torch.allclose(W.grad, gW), torch.allclose(b.grad, gb), torch.allclose(z.grad, a))
print((W.grad - gW).abs().max() < 1e-12)
