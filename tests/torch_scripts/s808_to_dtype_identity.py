# .to() semantics: same dtype returns self, copy=True makes a new tensor, .to(other) takes
# its dtype, .type() with strings, .cpu() is a no-op, non_blocking accepted
import torch

x = torch.ones(3)
print(x.to(torch.float64) is x, x.to(torch.float32) is x, x.to(torch.float64, copy=True) is x)
print(x.to("cpu") is x, x.cpu() is x, x.to(device="cpu", dtype=torch.float64) is x)
y = torch.zeros(2, dtype=torch.int32)
print(x.to(y).dtype, x.to(y) is x, y.to(x).dtype)
print(x.type(), x.type(torch.float32).type(), x.type("torch.IntTensor").dtype, y.type())
print(x.to(torch.float16).dtype, x.half().type(), x.bfloat16 is not None)
print(x.to("cpu", torch.int64), x.to(torch.device("cpu")).device, x.device.type, x.device)
print(x.to(non_blocking=True) is x, x.to(torch.float32, non_blocking=True).dtype)
print(x.is_cpu, x.is_cuda, torch.device("cpu") == x.device, str(torch.device("cpu", 0)))
z = torch.tensor([1.7, -1.7, 2.5])
print(z.int(), z.long(), z.short(), z.char(), z.byte() if False else z.abs().byte(), z.bool())
print(z.to(torch.int64).to(torch.float64), torch.tensor([300.0]).to(torch.uint8) if False else "skip")
print(x.new_tensor([1, 2]).dtype, x.new_zeros(2, dtype=torch.int8), y.new_ones(3), y.new_full((2,), 7))
w = torch.ones(2, requires_grad=True)
v = w.to(torch.float32)
print(v.requires_grad, v.grad_fn.name(), w.to(torch.float64) is w, w.double().grad_fn)
