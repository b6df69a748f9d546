# norms at the zero vector and with zeros: gradients of vector_norm for several ord values
import torch

for ords in [2, 1, float("inf"), 3, 0.5]:
    x = torch.tensor([0.0, 3.0, -4.0, 0.0], requires_grad=True)
    torch.linalg.vector_norm(x, ord=ords).backward()
    print(ords, x.grad)
z = torch.zeros(3, requires_grad=True)
z.norm().backward()
print(z.grad)
z.grad = None
torch.linalg.vector_norm(z, 1).backward()
print(z.grad)
m = torch.tensor([[3.0, 0.0], [4.0, 0.0]], requires_grad=True)
torch.linalg.norm(m, dim=0).sum().backward()
print(m.grad)
m.grad = None
torch.linalg.matrix_norm(m, "fro").backward()
print(m.grad)
