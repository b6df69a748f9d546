import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
c = torch.tensor([4.0], requires_grad=True)
y = (a * b).sum()
ga, gb, gc = torch.autograd.grad(y, [a, b, c], allow_unused=True, retain_graph=True)
print(ga, gb, gc)
ga, gb, gc = torch.autograd.grad(y, [a, b, c], allow_unused=True, materialize_grads=True, retain_graph=True)
print(gc)
try:
    torch.autograd.grad(y, [c], retain_graph=True)
except RuntimeError as e:
    print("RuntimeError", str(e)[:70])
outs = [a.sum(), (a ** 2).sum()]
print(torch.autograd.grad(outs, a, retain_graph=True))
print(torch.autograd.grad(outs, a, grad_outputs=[torch.tensor(2.0), torch.tensor(0.5)]))
v = a * 2
torch.autograd.backward([v], [torch.tensor([1.0, -1.0])], inputs=[a])
print(a.grad, b.grad)
z = (a * b * c).sum()
z.backward(inputs=[b])
print(a.grad, b.grad, c.grad)
x = torch.tensor(2.0, requires_grad=True)
(x * x).backward(retain_graph=True, create_graph=True)
print(x.grad, x.grad.requires_grad)
g = torch.autograd.grad(x ** 3, x, create_graph=True)[0]
print(g, g.grad_fn is not None)
print(torch.autograd.grad((x ** 2).sum(), x, torch.tensor(3.0)))
