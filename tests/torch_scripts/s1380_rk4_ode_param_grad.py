# RK4 integration of a damped oscillator; gradient of the final state w.r.t. damping
import torch

def f(state, c, k):
    x, v = state[0], state[1]
    return torch.stack([v, -c * v - k * x])

def rk4(state, c, k, dt, n):
    for _ in range(n):
        k1 = f(state, c, k)
        k2 = f(state + dt / 2 * k1, c, k)
        k3 = f(state + dt / 2 * k2, c, k)
        k4 = f(state + dt * k3, c, k)
        state = state + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return state

c = torch.tensor(0.3, requires_grad=True)
k = torch.tensor(2.0, requires_grad=True)
s0 = torch.tensor([1.0, 0.0])
sT = rk4(s0, c, k, 0.05, 100)
print(sT)
energy = 0.5 * sT[1] ** 2 + 0.5 * k * sT[0] ** 2
energy.backward()
print(energy, c.grad, k.grad)
