# torch.where with scalars on either side: dtypes of the results, and gradients through them
import torch

x = torch.tensor([-2.0, -0.5, 0.0, 1.5])
print(torch.where(x > 0, x, 0.0), torch.where(x > 0, 1.0, 0.0), torch.where(x > 0, 1, 0))
print(torch.where(x > 0, 1, 0).dtype, torch.where(x > 0, 1.0, 0).dtype, torch.where(x > 0, x, 2).dtype)
i = torch.tensor([1, -3, 4])
print(torch.where(i > 0, i, 0), torch.where(i > 0, i, 0.5), torch.where(i > 0, i, 0.5).dtype)
f32 = torch.tensor([1.0, -1.0], dtype=torch.float32)
print(torch.where(f32 > 0, f32, 2.5).dtype, torch.where(f32 > 0, f32, torch.tensor(2.5)).dtype)
print(torch.where(torch.tensor([True, False]), True, False))
print(torch.where(x > 0))
w = torch.tensor([-1.0, 2.0, 3.0], requires_grad=True)
y = torch.where(w > 0, w ** 2, 0.0).sum()
y.backward()
print(w.grad)
print(x.where(x < 0, torch.tensor(9.0)))
