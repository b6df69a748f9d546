# per-example gradients: vmap(grad(loss)) with in_dims
import torch
from torch.func import vmap, grad

def loss(w, x, y):
    return (torch.dot(w, x) - y) ** 2

w = torch.tensor([0.5, -0.5, 1.0])
X = torch.tensor([[1.0, 0.0, 2.0], [0.0, 1.0, -1.0], [1.0, 1.0, 1.0], [2.0, -2.0, 0.5]])
Y = torch.tensor([1.0, 0.0, -1.0, 2.0])
G = vmap(grad(loss), in_dims=(None, 0, 0))(w, X, Y)
print(G)
print(G.mean(0))
w2 = w.clone().requires_grad_()
((X @ w2 - Y) ** 2).mean().backward()
print(torch.allclose(w2.grad, G.mean(0)))
