# QR decomposition modes and gradients (reduced and complete where it is defined)
import torch

A = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]], requires_grad=True)
Q, R = torch.linalg.qr(A)
print(Q.shape, R.shape, Q.grad_fn.name())
print(R)
(Q.sum() + R.sum()).backward()
print(A.grad)
Qc, Rc = torch.linalg.qr(A.detach(), mode="complete")
print(Qc.shape, Rc.shape)
Qr, Rr = torch.linalg.qr(A.detach(), mode="r")
print(Qr.shape, Rr)
try:
    Qc, Rc = torch.linalg.qr(A, mode="complete")
    Qc.sum().backward()
except RuntimeError as e:
    print(str(e)[:140])
try:
    _, Rr = torch.linalg.qr(A, mode="r")
    Rr.sum().backward()
except RuntimeError as e:
    print(str(e)[:140])
W = torch.tensor([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0]], requires_grad=True)
q, r = torch.linalg.qr(W)
print(q.shape, r.shape)
r.sum().backward()
print(W.grad)
