# torch.func.grad_and_value with argnums and has_aux; grad of grad
import torch
from torch.func import grad, grad_and_value

def loss(w, b, x):
    y = (w * x).sum() + b
    return y ** 2, y
w = torch.tensor([1.0, -2.0]); b = torch.tensor(0.5); x = torch.tensor([3.0, 1.0])
(gw, gb), (val, aux) = grad_and_value(loss, argnums=(0, 1), has_aux=True)(w, b, x)
print(gw, gb, val, aux)
d2 = grad(grad(lambda t: t.sin() * t ** 2))(torch.tensor(1.0))
print(d2)
try:
    grad(lambda t: t * 2)(torch.tensor([1.0, 2.0]))
except RuntimeError as e:
    print("RuntimeError", str(e)[:70])
