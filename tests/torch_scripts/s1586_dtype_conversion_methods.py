# dtype conversions: to(), type(), type_as, double/half/bfloat16, int truncation, bool casts
import torch

x = torch.tensor([1.7, -2.5, 0.0, 3.2], requires_grad=True)
i = x.to(torch.int32)
print(i, i.requires_grad, x.long(), x.int().dtype, x.short().dtype, x.char().dtype)
print(x.bool(), x.byte() if False else x.detach().abs().byte(), x.half())
y = x.float()
print(y.dtype, y.grad_fn.name(), y.requires_grad)
y.sum().backward()
print(x.grad, x.grad.dtype)
print(x.type(), x.detach().type(torch.float32).dtype, x.type(torch.int64).dtype)
print(torch.tensor([1, 2]).type_as(x).dtype, x.to(dtype=torch.float64) is x, x.to(x) is x)
print(x.to(torch.float32, copy=True).dtype, x.double() is x)
print(torch.tensor(300).to(torch.uint8), torch.tensor(-1).to(torch.uint8), torch.tensor(2.9).int())
print(torch.tensor([0.5, 1.5, 2.5, -0.5]).round(), torch.tensor([1e10]).int())
print(torch.tensor([True, False]).float(), torch.tensor([3]).to(torch.bool))
print(x.new_tensor([1, 2]).dtype, x.new_zeros(2, dtype=torch.int8).dtype, x.new_full((1,), 7).dtype)
