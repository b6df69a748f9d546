# eigenvalues of a rotation matrix are complex; angle recovered and differentiated
import torch

theta = torch.tensor(0.8, requires_grad=True)
R = torch.stack([torch.stack([theta.cos(), -theta.sin()]), torch.stack([theta.sin(), theta.cos()])])
ev = torch.linalg.eigvals(R)
print(ev.dtype, ev.abs().detach())
ang = ev.angle().abs().max()
ang.backward()
print(round(ang.item(), 10), theta.grad)
print(torch.linalg.eigvals(torch.tensor([[2.0, 0.0], [0.0, 3.0]])))
