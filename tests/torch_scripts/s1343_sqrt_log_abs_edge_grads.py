# gradients at edge points: abs(0), sqrt(0), log(0), relu(0), sign, x/x at 0
import torch

x = torch.tensor([0.0, -1.0, 4.0], requires_grad=True)
for name, f in [("abs", torch.abs), ("sqrt", torch.sqrt), ("log", torch.log), ("relu", torch.relu), ("sign", torch.sign), ("floor", torch.floor), ("round", torch.round), ("exp2", torch.exp2), ("log1p", torch.log1p), ("expm1", torch.expm1), ("rsqrt", torch.rsqrt), ("sinc", torch.sinc)]:
    x.grad = None
    y = f(x)
    y.sum().backward()
    print(name, y.detach(), x.grad)
