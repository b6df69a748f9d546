import torch

a = torch.tensor([[2.0, 1.0], [0.5, 3.0]], requires_grad=True)
b = torch.tensor([[1.0, -1.0], [2.0, 0.5]], requires_grad=True)
v = torch.tensor([1.0, 4.0, 2.0, 3.0], requires_grad=True)
outs = {
    "kron": torch.kron(a, b),
    "einsum": torch.einsum("ij,jk->ik", a, b),
    "einsum_trace": torch.einsum("ii", a),
    "multi_dot": torch.linalg.multi_dot([a, b, a]),
    "quantile": torch.quantile(v, 0.3),
    "nanquantile": torch.nanquantile(v, torch.tensor([0.25, 0.75])),
    "logdet": torch.logdet(a),
    "slogdet": torch.linalg.slogdet(a).logabsdet,
    "det": torch.det(a),
    "matrix_power": torch.linalg.matrix_power(a, 3),
    "inv": torch.linalg.inv(a),
    "tensordot": torch.tensordot(a, b, dims=1),
    "inner": torch.inner(v, v),
    "outer": torch.outer(v, v),
    "cartesian": torch.cartesian_prod(v[:2], v[2:]),
    "std_mean": torch.std_mean(v)[0],
    "var": v.var(unbiased=False),
    "norm": torch.linalg.vector_norm(v, ord=3),
    "matrix_norm": torch.linalg.matrix_norm(a),
    "renorm": a.renorm(2, 0, 1.0),
}
for name, t in outs.items():
    print(name, t.grad_fn.name(), tuple(t.shape))
z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
print(z.real, z.imag)
print(z.real.grad_fn.name(), z.imag.grad_fn.name(), (z * 2).real.grad_fn.name())
g = torch.autograd.grad(outs["quantile"], v)[0]
print(g, torch.autograd.grad(outs["logdet"], a)[0].round(decimals=5))
