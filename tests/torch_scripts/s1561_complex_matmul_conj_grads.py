# complex linear algebra by hand: matmul, conj transpose, inner products and their gradients
import torch

A = torch.tensor([[1 + 1j, 2 - 1j], [0.5j, 1.0 + 0j]], requires_grad=True)
x = torch.tensor([1.0 - 1j, 2.0 + 0.5j], requires_grad=True)
y = A @ x
print(y, y.grad_fn.name())
loss = (y.conj() * y).real.sum()
loss.backward()
print(loss, A.grad, x.grad)
B = A.detach().mH
print(B, B.is_conj() if hasattr(B, "is_conj") else None)
print(torch.vdot(x.detach(), x.detach()))
z = torch.tensor([3 + 4j], requires_grad=True)
r = z.real * 2 + z.imag * 3
r.sum().backward()
print(z.grad)
print(torch.view_as_complex(torch.tensor([[1.0, 2.0], [3.0, -1.0]])))
print(torch.tensor([1 + 2j]).to(torch.complex64).dtype, torch.tensor([1.0]).to(torch.cdouble))
