import torch

x = torch.arange(24).reshape(2, 3, 4)
print(x[..., 1], x[:, None, 0].shape, x[0, ..., None].shape)
print(x[[0, 1], [1, 2]], x[[0, 1], :, [3, 0]])
print(x[:, [0, 2]][..., [1]].shape, x[torch.tensor([[0], [1]]), torch.tensor([[0, 2]])].shape)
print(x[x % 5 == 0], x[torch.tensor([True, False])].shape)
print(x[0, torch.tensor([2, 0], dtype=torch.int32)], x[-1, -1, -2:])
print(x[:, 1:, ::2].shape, x[1][2][3], x[(0, 1)], x[[0]].shape)
print(x[0, [True, False, True]], x[None].shape, x[..., None, :].shape)
y = torch.zeros(5)
y[[0, 0, 2]] = torch.tensor([1.0, 2.0, 3.0])
print(y)
y[torch.tensor([1, 3])] += 5
print(y)
y[y > 4] = -1
print(y)
z = torch.zeros(2, 3)
z[:, 1] = torch.tensor([7.0, 8.0])
z[0] = 1
z[1, [0, 2]] = torch.tensor(4.0)
print(z)
try:
    x[:, ::-1]
except ValueError as e:
    print("ValueError", str(e)[:28])
try:
    x[2]
except IndexError as e:
    print("IndexError", str(e)[:46])
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
buf = torch.zeros(4)
buf[1:] = w * 2
buf[0] = w[1] ** 2
buf.sum().backward()
print(buf.detach(), w.grad)
print(x[1, 1:3, torch.tensor([0, 3])], torch.arange(5)[torch.tensor(2)], x[0][torch.tensor([[True, False, True, False]] * 3)])
