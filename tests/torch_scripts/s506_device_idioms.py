import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(device, device.type, device.index, str(device))
print(torch.device("cpu") == torch.device("cpu"), torch.device("cpu") != torch.device("meta"))
model = nn.Linear(3, 2).to(device)
print(next(model.parameters()).device, next(model.parameters()).is_cuda)
x = torch.ones(4, 3, device=device)
print(x.device, x.to(device) is x, x.to("cpu").device)
y = x.to(device, dtype=torch.float32)
print(y.dtype, y.device)
if torch.cuda.is_available():
    x = x.cuda()
print(x.cpu().device, x.is_cpu)
print(torch.cuda.device_count() >= 0, torch.backends.mps.is_available() in (True, False))
m2 = model.to(device=device, dtype=torch.float64)
print(m2 is model, model.weight.dtype)
t = torch.zeros(2, device="cpu")
print(t.new_ones(3).device, torch.empty_like(t).device, torch.zeros_like(t, device=device).device)
print(torch.tensor([1.0, 2.0]).to(t).dtype, torch.tensor([1, 2]).to(t).dtype)
print(torch.tensor([1.0]).to(torch.int64).dtype, torch.tensor([1.5]).to(torch.device("cpu"), torch.float16))
print(torch.arange(3, device=device).device, model.weight.get_device(), x.get_device())
use_amp = device.type == "cuda"
print(use_amp, torch.get_default_dtype())
dev = torch.device("cpu:0") if False else torch.device("cpu")
print(repr(dev), hash(dev) == hash(torch.device("cpu")))
pinned = torch.ones(2)
print(pinned.is_pinned())
