import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp

x = torch.tensor(0.7, requires_grad=True)
y = torch.sin(x) * x ** 2
dy, = torch.autograd.grad(y, x, create_graph=True)
d2y, = torch.autograd.grad(dy, x, create_graph=True)
d3y, = torch.autograd.grad(d2y, x)
print(round(dy.item(), 10), round(d2y.item(), 10), round(d3y.item(), 10), dy.requires_grad, d3y.requires_grad)
xs = torch.linspace(-1, 1, 5, requires_grad=True)
f = torch.tanh(xs)
derivs = []
g = f
for k in range(3):
    g, = torch.autograd.grad(g.sum(), xs, create_graph=True)
    derivs.append(g.detach().numpy().round(6))
print(derivs)


def u(p):
    return (p[:, 0] ** 2 * p[:, 1] + torch.sin(p[:, 1])).unsqueeze(1)


pts = torch.tensor([[0.5, 1.0], [1.0, -1.0]], requires_grad=True)
out = u(pts)
grad_u, = torch.autograd.grad(out, pts, torch.ones_like(out), create_graph=True)
lap = 0
for i in range(2):
    gi, = torch.autograd.grad(grad_u[:, i].sum(), pts, create_graph=True)
    lap = lap + gi[:, i]
print(grad_u.detach(), lap.detach())


def exp_reducer(x):
    return x.exp().sum(dim=1)


inputs = torch.tensor([[0.1, 0.2], [0.3, -0.4]])
print(jacobian(exp_reducer, inputs).shape)
print(jacobian(exp_reducer, inputs, create_graph=True).requires_grad)


def exp_adder(x, y):
    return 2 * x.exp() + 3 * y


inputs = (torch.tensor([0.5, 1.0]), torch.tensor([1.0, 2.0]))
print(jacobian(exp_adder, inputs))
print(jacobian(lambda v: v ** 2, torch.tensor([1.0, 2.0]), vectorize=True, strategy='forward-mode'))


def pow_reducer(x):
    return x.pow(3).sum()


inputs = torch.tensor([[0.5, 1.0], [2.0, -1.0]])
print(hessian(pow_reducer, inputs).shape, hessian(pow_reducer, inputs)[1, 0, 1, 0])


def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()


inputs = (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
print(hessian(pow_adder_reducer, inputs))
v = torch.ones(2)
print(vjp(exp_reducer, torch.tensor([[0.0, 1.0], [2.0, 3.0]]), v))
print(jvp(exp_reducer, torch.tensor([[0.0, 1.0], [2.0, 3.0]]), torch.ones(2, 2)))
print(hvp(pow_reducer, torch.tensor([1.0, 2.0]), torch.ones(2)))
print(vhp(pow_reducer, torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0])))
print(vjp(lambda a, b: a * b, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])), torch.ones(2)))
w = torch.tensor([1.0, -2.0], requires_grad=True)
loss = (w ** 4).sum()
g, = torch.autograd.grad(loss, w, create_graph=True)
Hv, = torch.autograd.grad(g, w, grad_outputs=torch.tensor([1.0, 1.0]))
print(g.detach(), Hv)
x = torch.tensor([2.0], requires_grad=True)
y = x ** 3
y.backward(create_graph=True)
print(x.grad, x.grad.requires_grad)
gx = x.grad.clone()
x.grad = None
gx.backward()
print(x.grad)
