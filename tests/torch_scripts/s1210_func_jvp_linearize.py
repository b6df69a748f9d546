# torch.func.jvp returns (primal_out, tangent_out); compare with torch.autograd.functional.jvp
import torch
from torch.func import jvp as func_jvp
import torch.autograd.functional as AF

def f(x, y):
    return x * y.exp(), (x ** 2).sum()

x = torch.tensor([1.0, 2.0])
y = torch.tensor([0.0, 0.5])
tx = torch.tensor([1.0, 0.0])
ty = torch.tensor([0.0, 1.0])
out, tan = func_jvp(f, (x, y), (tx, ty))
print(out)
print(tan)
out2, tan2 = AF.jvp(f, (x, y), (tx, ty))
print(all(torch.allclose(a, b) for a, b in zip(tan, tan2)))
