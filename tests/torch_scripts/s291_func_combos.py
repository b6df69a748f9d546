import torch
from torch.func import jacrev, jacfwd, hessian, vmap, grad, grad_and_value


def model(params, x):
    w, b = params
    return torch.tanh(x @ w + b).sum()


w = torch.tensor([[0.5, -0.2], [0.1, 0.3], [-0.4, 0.8]])
b = torch.tensor([0.05, -0.1])
xs = torch.tensor([[1.0, 2.0, -1.0], [0.0, 0.5, 0.5], [-1.0, 1.0, 2.0], [0.3, 0.3, 0.3]])

# per-sample gradients
per = vmap(grad(model), in_dims=(None, 0))((w, b), xs)
print(type(per), per[0].shape, per[1].shape)
print([round(v, 6) for v in per[1].flatten().tolist()])

# input jacobians, reverse vs forward
f = lambda x: torch.tanh(x @ w + b)
Jr = vmap(jacrev(f))(xs)
Jf = vmap(jacfwd(f))(xs)
print(Jr.shape, torch.allclose(Jr, Jf))

# Hessian of a scalar field, batched
H = vmap(hessian(lambda x: (x.sin() * x.roll(1)).sum()))(xs)
print(H.shape, torch.allclose(H, H.transpose(1, 2)))
print([round(v, 6) for v in H[0].diagonal().tolist()])

# jacrev with argnums and has_aux
def loss(w, b, x):
    out = x @ w + b
    return (out ** 2).mean(), out.detach()


(gw, gb), aux = jacrev(loss, argnums=(0, 1), has_aux=True)(w, b, xs)
print(gw.shape, gb.shape, aux.shape)
g2, v2 = grad_and_value(lambda w: loss(w, b, xs)[0])(w)
print(torch.allclose(g2, gw), round(v2.item(), 6))

# jacfwd of jacrev = hessian, with respect to a dict of params
p = {"a": torch.tensor(1.5), "c": torch.tensor([0.2, 0.4])}
def h(p):
    return p["a"] ** 3 + (p["c"] ** 2).sum() * p["a"]
Hd = jacfwd(jacrev(h))(p)
print(sorted(Hd), sorted(Hd["a"]), Hd["c"]["c"], Hd["a"]["c"])

# vmap with out_dims and chunk
m = vmap(lambda r: r.cumsum(0), in_dims=1, out_dims=1, chunk_size=2)(xs)
print(torch.equal(m, xs.cumsum(0)))
try:
    vmap(lambda r: r.sum(), in_dims=2)(xs)
except ValueError as e:
    print("ValueError:", str(e)[:100])
