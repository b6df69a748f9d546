# a complex "linear layer" trained on a real loss; complex matmul gradients
import torch

W = torch.tensor([[1.0 + 0.5j, -0.3j], [0.2 + 0.0j, 1.0 - 1.0j]], requires_grad=True)
x = torch.tensor([1.0 + 1.0j, 2.0 - 0.5j])
target = torch.tensor([0.5 + 0.0j, -1.0 + 1.0j])
out = W @ x
loss = (out - target).abs().pow(2).sum()
print(out, loss)
loss.backward()
print(W.grad)
with torch.no_grad():
    W -= 0.05 * W.grad
print(((W @ x) - target).abs().pow(2).sum())
z = torch.tensor([1.0 + 2.0j], requires_grad=True)
(z * z).real.backward(); print(z.grad)
