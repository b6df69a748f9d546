import torch

a = torch.tensor([7, -7, 7, -7, 0])
b = torch.tensor([2, 2, -2, -2, 3])
print(a // b, a % b, torch.fmod(a, b), torch.remainder(a, b))
print(torch.div(a, b), torch.div(a, b, rounding_mode="trunc"), torch.div(a, b, rounding_mode="floor"))
print(torch.floor_divide(a, b), torch.true_divide(a, b))
fa, fb = a.double(), b.double()
print(fa // fb, fa % fb, torch.fmod(fa, fb), torch.remainder(fa, fb))
print(torch.div(fa, fb, rounding_mode="trunc"), torch.div(fa, fb, rounding_mode="floor"))
print(a // 2, a % 3, -a % 3, a % -3, torch.fmod(a, -3), 7 // torch.tensor([2, -2]), 7 % torch.tensor([2, -2, 4]))
print(torch.tensor([5.5, -5.5]) // 2, torch.tensor([5.5, -5.5]) % 2, torch.fmod(torch.tensor([5.5, -5.5]), 2))
print(torch.tensor([1.0, -1.0, 0.0]) / 0, torch.tensor([1.0, -1.0]) // 0, torch.tensor([1.0, -1.0]) % 0)
print(torch.tensor([-0.0]) % 2, torch.tensor([0.0]) // -1, torch.fmod(torch.tensor([-3.0]), 3))
try:
    torch.tensor([1, 2]) // torch.tensor([0, 1])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.tensor([1, 2]) % 0
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.div(torch.tensor([5, -5], dtype=torch.int32), 2, rounding_mode="floor").dtype, torch.div(torch.tensor([5]), 2).dtype)
i8 = torch.tensor([-128, 127], dtype=torch.int8)
print(i8 // -1, i8 % 5, -i8, i8.abs())
print(torch.tensor([2 ** 62]) * 4, torch.tensor([-(2 ** 63)]) - 1)
x = torch.tensor([5.0, -3.0, 2.5], requires_grad=True)
y = torch.remainder(x, 2.0) + torch.fmod(x, 1.5) + torch.div(x, 2, rounding_mode="floor")
y.sum().backward()
print(y, x.grad)
p = torch.tensor([7.0, -7.0], requires_grad=True)
q = torch.tensor([2.0, 3.0], requires_grad=True)
torch.fmod(p, q).sum().backward()
print(p.grad, q.grad)
p.grad = q.grad = None
torch.remainder(p, q).sum().backward()
print(p.grad, q.grad)
print(torch.tensor([3, -3]).sign(), torch.tensor([3, -3]) >> 1, torch.tensor([-8]) >> 2, torch.tensor([1]) << 62)
