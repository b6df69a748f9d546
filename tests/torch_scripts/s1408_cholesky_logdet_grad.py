# log-determinant via Cholesky vs logdet/slogdet; gradients equal inverse
import torch

A = torch.tensor([[4.0, 2.0, 0.6], [2.0, 5.0, 1.0], [0.6, 1.0, 3.0]], requires_grad=True)
L = torch.linalg.cholesky(A)
ld = 2 * L.diagonal().log().sum()
print(ld, torch.logdet(A), torch.linalg.slogdet(A))
ld.backward()
print(A.grad)
print(torch.allclose(A.grad, torch.linalg.inv(A.detach())))
A.grad = None
torch.linalg.slogdet(A).logabsdet.backward()
print(A.grad)
try:
    torch.linalg.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
except Exception as e:
    print(type(e).__name__, str(e)[:80])
print(torch.linalg.cholesky_ex(torch.tensor([[1.0, 2.0], [2.0, 1.0]])).info)
