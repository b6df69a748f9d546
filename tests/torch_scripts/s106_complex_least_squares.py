import torch

# Complex-valued least squares: find w (complex) with A w ~ b, by gradient descent on
# |A w - b|^2, checked against the normal equations solved by hand.
A = torch.tensor([[1 + 1j, 2 - 0.5j], [0.5j, -1 + 0j], [3 + 0j, 1 + 2j]])
w_true = torch.tensor([0.5 - 1j, 2 + 0.25j])
b = A @ w_true
print(A.dtype, b)

w = torch.zeros(2, dtype=torch.complex128, requires_grad=True)
lr = 0.02
for it in range(300):
    r = A @ w - b
    loss = (r.abs() ** 2).sum()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
    w.grad.zero_()
    if it % 100 == 0:
        print(it, f"{loss.item():.6e}" if loss.item() > 1e-6 else "converged")
print(w.detach())
print(torch.allclose(w.detach(), w_true, atol=1e-6))

# the gradient PyTorch gives for a real loss of a complex leaf: dL/dre + i dL/dim
z = torch.tensor([1 + 2j, -0.5 + 0.5j], requires_grad=True)
(z * z.conj()).real.sum().backward()
print(z.grad)
AH = A.conj().T
print(AH @ A)
print(torch.view_as_real(AH @ b))
print(torch.polar(torch.tensor([2.0]), torch.tensor([0.5])), torch.complex(torch.tensor(1.0), torch.tensor(-1.0)))
